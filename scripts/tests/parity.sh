#!/bin/bash
# Self-test of scripts/boot/selftests-parity.sh on canned results: it must pass
# identical arms and a failure on both arms (known), and fail a regression
# (pass on ORIG, fail/skip/missing/timeout on FG) and a skip difference;
# the best of a program's tries counts; the TAP forms "ok N # SKIP desc",
# "ok N desc # SKIP reason" and "ok N # XFAIL desc" are understood.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
checks=0

# arm DIR LABEL RCS TAP... : one program's result, one TAP text per try.
arm() {
	local dir=$1 label=$2 rcs=$3 n=0 tap last
	shift 3
	mkdir -p "$dir"
	for tap in "$@"; do
		n=$((n + 1))
		printf '%b' "$tap" >"$dir/$label.try$n.tap"
		last=$tap
	done
	printf '%b' "$last" >"$dir/$label.tap"
	echo "${rcs##*,} 100 $n $rcs" >"$dir/$label.rc"
	echo "$label" >>"$dir/labels"
	echo "kernel test" >"$dir/meta"
}

# expect NAME WANT(0|1) : run the comparison of $tmp/NAME/{o,f}.
expect() {
	local got=0
	checks=$((checks + 1))
	"$HARNESS_ROOT/scripts/boot/selftests-parity.sh" "$tmp/$1/o" "$tmp/$1/f" "$tmp/$1/r.md" \
		>"$tmp/$1/out" 2>&1 || got=$?
	[ "$got" -gt 1 ] && got=2
	if [ "$got" = "$2" ]; then
		echo "ok: $1"
	else
		echo "FAIL: $1: exit $got, want $2"; cat "$tmp/$1/out"
		failures=$((failures + 1))
	fi
}

# expect_row NAME PATTERN WHAT: the report of NAME has a line matching
# PATTERN (grep), else WHAT went wrong.
expect_row() {
	grep -q -- "$2" "$tmp/$1/r.md" ||
		{ echo "FAIL: $1: $3"; failures=$((failures + 1)); }
}

base='TAP version 13\n1..3\nok 1 a\nok 2 # SKIP no hugetlb\nok 3 c # SKIP no numa\n'
arm "$tmp/same/o" p 0 "$base"
arm "$tmp/same/f" p 0 "$base"
expect same 0

arm "$tmp/known/o" p 1 'ok 1 a\nnot ok 2 b\n'
arm "$tmp/known/f" p 1 'ok 1 a\nnot ok 2 b\n'
expect known 0
expect_row known '| p | 2 | b | fail | fail | known |' "row not reported as known"

arm "$tmp/regress/o" p 0 'ok 1 a\nok 2 b\n'
arm "$tmp/regress/f" p 1 'ok 1 a\nnot ok 2 b\n'
expect regress 1

arm "$tmp/skipped/o" p 0 'ok 1 a\nok 2 b\n'
arm "$tmp/skipped/f" p 0 'ok 1 a\nok 2 # SKIP b\n'
expect skipped 1

arm "$tmp/skipdiff/o" p 0 'ok 1 a\nok 2 b # SKIP no numa\n'
arm "$tmp/skipdiff/f" p 1 'ok 1 a\nnot ok 2 b\n'
expect skipdiff 1

# ORIG skipped, FG ran and passed: not a difference that hides anything
arm "$tmp/origskip/o" p 0 'ok 1 a\nok 2 b # SKIP no numa\n'
arm "$tmp/origskip/f" p 0 'ok 1 a\nok 2 b\n'
expect origskip 0

arm "$tmp/missing/o" p 0 'ok 1 a\nok 2 b\n'
arm "$tmp/missing/f" p 1 'ok 1 a\nBail out! oops\n'
expect missing 1

arm "$tmp/timeout/o" p 0 'ok 1 a\n'
arm "$tmp/timeout/f" p 124 'ok 1 a\n'
expect timeout 1

arm "$tmp/retry/o" p 0 'ok 1 a\nok 2 b\nok 3 c\n'
arm "$tmp/retry/f" p 1,0 'ok 1 a\nnot ok 2 b\nBail out!\n' 'ok 1 a\nok 2 b\nok 3 c\n'
expect retry 0
expect_row retry 'flaky on FG' "flaky row not marked"

arm "$tmp/xfail/o" p 0 'ok 1 # XFAIL vmsplice\n'
arm "$tmp/xfail/f" p 0 'ok 1 # XFAIL vmsplice\n'
expect xfail 0
expect_row xfail '| p | 1 | vmsplice | pass | pass | same |' "not read as a pass named vmsplice"

arm "$tmp/fgbetter/o" p 1 'not ok 1 a\n'
arm "$tmp/fgbetter/f" p 0 'ok 1 a\n'
expect fgbetter 0

# A flaky test case (FLAKY's "LABEL|case|reason" form) and the exit
# status it causes do not gate; another failing case of the same program
# does, and so does its exit status.
arm "$tmp/flakyrow/o" test_memcontrol 0 'ok 1 a\nok 2 test_memcg_min\nok 3 c\n'
arm "$tmp/flakyrow/f" test_memcontrol 1 'ok 1 a\nnot ok 2 test_memcg_min\nok 3 c\n'
expect flakyrow 0
expect_row flakyrow '| test_memcontrol | - | .* | pass | fail | not gating' "exit status row gated"

arm "$tmp/flakyplus/o" test_memcontrol 0 'ok 1 a\nok 2 test_memcg_min\nok 3 c\n'
arm "$tmp/flakyplus/f" test_memcontrol 1 'ok 1 a\nnot ok 2 test_memcg_min\nnot ok 3 c\n'
expect flakyplus 1
expect_row flakyplus '| test_memcontrol | - | .* | pass | fail | REGRESSION |' "exit status row not a regression"

# Two tries, each failing another flaky case (CI, 2026-12-04): both
# cases pass at their best, and the exit status of both tries is still
# only the flaky cases' doing.  A non-flaky case that failed in one try
# and passed in the other gates the exit status as before.
arm "$tmp/flakytries/o" test_memcontrol 0 'ok 1 test_memcg_min\nok 2 test_memcg_low\nok 3 c\n'
arm "$tmp/flakytries/f" test_memcontrol 1,1 'not ok 1 test_memcg_min\nok 2 test_memcg_low\nok 3 c\n' \
	'ok 1 test_memcg_min\nnot ok 2 test_memcg_low\nok 3 c\n'
expect flakytries 0
expect_row flakytries '| test_memcontrol | - | .* | pass | fail | not gating' "exit status row gated"

arm "$tmp/flakytriesplus/o" test_memcontrol 0 'ok 1 test_memcg_min\nok 2 c\n'
arm "$tmp/flakytriesplus/f" test_memcontrol 1,1 'not ok 1 test_memcg_min\nok 2 c\n' \
	'ok 1 test_memcg_min\nnot ok 2 c\n'
expect flakytriesplus 1

echo "$((checks - failures)) passed, $failures failed"
[ $failures = 0 ]
