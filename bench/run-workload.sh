#!/bin/bash
# One of the non-Zipf benchmarks (bench/mixed.conf, ...) on every arm:
# boots each arm REPEATS times (bench/lib.sh), runs the conf's
# bench/guest/WORKLOAD.sh in it and writes a Markdown report, one row per
# metric of the conf's METRICS, with each arm's median [min–max] and its
# difference to ORIG.
# usage: BENCH_CONF=bench/mixed.conf run-workload.sh [--report-only] [REPORT.md]
# BENCH_CONFIGS [the conf's KCONFIGS, "base smp"]: the config fragments of the kernels.
# Guest programs (bench/guest/*.c) are built static into build/guest-bin.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
[ -n "${BENCH_CONF:-}" ] || die "usage: BENCH_CONF=bench/NAME.conf $0 [--report-only] [REPORT.md]"
BENCH_CONF=$(realpath "$BENCH_CONF")
. "$HARNESS_ROOT/bench/defaults.conf"
# shellcheck source=/dev/null # a benchmark conf
. "$BENCH_CONF"
. "$HARNESS_ROOT/bench/lib.sh"
[ -n "${WORKLOAD:-}" ] || die "$BENCH_CONF sets no WORKLOAD (bench/guest/WORKLOAD.sh)"
guest=$HARNESS_ROOT/bench/guest/$WORKLOAD.sh
[ -x "$guest" ] || die "no guest script $guest"
name=$(basename "$BENCH_CONF" .conf)
report_only=0
if [ "${1:-}" = --report-only ]; then
	report_only=1
	shift
fi
report=${1:-/dev/stdout}
results=$BUILD_DIR/logs/bench-$name.results
bin=$BUILD_DIR/guest-bin
mkdir -p "$BUILD_DIR/logs" "$bin"

if [ $report_only = 0 ]; then
	for c in "$HARNESS_ROOT"/bench/guest/*.c; do
		gcc -O2 -Wall -Wextra -Werror -static -o "$bin/$(basename "$c" .c)" "$c" -lm ||
			die "cannot build $c"
	done
	: >"$results"
	run_arms "$name" "$results" "$BENCH_CONFIGS" "$guest" "$bin"
fi
[ -s "$results" ] || die "no results in $results"

awk -v overrides="$BENCH_OVERRIDES" -v title="$TITLE" -v conf="${BENCH_CONF#"$HARNESS_ROOT"/}" -v kconfigs="$BENCH_CONFIGS" \
	-v arms="$ARMS" -v metrics="$METRICS" -v date="$(date -u +%Y-%m-%d)" \
	-v params="$(grep -v '^#' "$BENCH_CONF" | sed '/^METRICS=/,$d; s/ *#.*//; /^$/d')" \
	-v qemu="$(fg_qemu_command "$name")" \
	-f "$HARNESS_ROOT/bench/cells.awk" -f "$HARNESS_ROOT/bench/workload-report.awk" "$results" >"$report"
# the raw lines too: a later run on the same streams (an experiment on one
# arm) can then be paired with this one's repeats
{
	echo
	echo "Every boot's RESULT line (${results#"$HARNESS_ROOT"/}):"
	echo
	sed 's/^/    /' "$results"
} >>"$report"
log "report: $report"
