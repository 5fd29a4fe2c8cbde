#!/bin/bash
# Check the KTAP output of a run of the series' KUnit suites with the
# kernel's tools/testing/kunit/kunit.py parse: fail if a test failed or was
# skipped, if the number of tests that ran is not EXPECTED, if there is no
# KTAP output, or if the console shows a kernel problem
# (scripts/check/console.sh).  A whole suite named in --skip-suites may
# skip (at boot, the suites that need a non-root memcg: kunit-memcg runs
# them); any other skip fails.
#
# usage: kunit-results.sh [--skip-suites "SUITE..."] NAME KTAP EXPECTED
# NAME names the logs (build/logs/kunit-NAME.{parsed,json}) and the summary
# line; KTAP is a console log or a KTAP document.
# Internal: HARNESS_KSRC, the tree whose kunit.py parses [$TREE].
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

skip_suites=
if [ "${1:-}" = --skip-suites ]; then
	skip_suites=$2
	shift 2
fi
[ $# -eq 3 ] || die "usage: kunit-results.sh [--skip-suites \"SUITE...\"] NAME KTAP EXPECTED"
name=$1 ktap=$2 expected=$3
src=${HARNESS_KSRC:-$TREE}
[ -s "$ktap" ] || die "no KUnit output in $ktap"

mkdir -p "$BUILD_DIR/logs"
parsed=$BUILD_DIR/logs/kunit-$name.parsed
json=$BUILD_DIR/logs/kunit-$name.json
rm -f "$json"
python3 "$src/tools/testing/kunit/kunit.py" parse --json="$json" "$ktap" >"$parsed" 2>&1 || true
sed -n '/=====/,$p' "$parsed" >&2
[ -s "$json" ] || die "kunit.py parse wrote no JSON for $ktap"

# The counts, from kunit.py's JSON: one status per test case, in suites
# nested at any depth; a suite that skipped as a whole is a case at the
# top level.  The names of the cases that did not pass go to stderr.
read -r ran passed failed skipped errors suites_skipped < <(python3 - "$json" "$skip_suites" <<'PY'
import json, sys
counts = {"PASS": 0, "FAIL": 0, "SKIP": 0, "ERROR": 0}
may_skip = set(sys.argv[2].split())
suites_skipped = 0
def walk(group, path):
	global suites_skipped
	for case in group.get("test_cases", []):
		status = case["status"] if case["status"] in counts else "FAIL"
		if not path and status == "SKIP" and case["name"] in may_skip:
			suites_skipped += 1
			continue
		counts[status] += 1
		if status != "PASS":
			print(f"{status}: {path}{case['name']}", file=sys.stderr)
	for sub in group.get("sub_groups", []):
		walk(sub, path + sub["name"] + ".")
walk(json.load(open(sys.argv[1])), "")
print(sum(counts.values()), counts["PASS"], counts["FAIL"], counts["SKIP"], counts["ERROR"],
      suites_skipped)
PY
) || die "cannot read the test counts from $json"
[ "$ran" -gt 0 ] || die "no KTAP output in $ktap"

bad=0
"$HARNESS_ROOT/scripts/check/console.sh" "$ktap" || bad=1
[ "$failed" = 0 ] && [ "$errors" = 0 ] || { log "$failed tests failed, $errors errors"; bad=1; }
[ "$skipped" = 0 ] || { log "$skipped tests skipped"; bad=1; }
[ "$ran" = "$expected" ] || { log "$ran tests ran, the suites have $expected"; bad=1; }
[ "$passed" = "$expected" ] || bad=1
log "KUnit $name: $passed passed, $failed failed, $skipped skipped of $expected tests${skip_suites:+; $suites_skipped suites left to kunit-memcg}"
exit $bad
