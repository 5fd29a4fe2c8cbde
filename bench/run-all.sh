#!/bin/bash
# The whole benchmark suite, one report per benchmark in bench/results/,
# plus DATE-summary.md with every headline table.  Each benchmark runs all
# arms in the same run (bench/lib.sh); see bench/README.md for durations.
# usage: run-all.sh [--no-summary | --summary-only] [CONF...]   (default: BENCH_SUITE below)
# --summary-only writes the summary from today's reports without running.
# A CONF is a name in bench/ (zipf, sweep, ...) or the path of a .conf.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
write_summary=1 run=1
case ${1:-} in
--no-summary) write_summary=0; shift ;;
--summary-only) run=0; shift ;;
esac
BENCH_SUITE="zipf sweep mmap mixed scan shift sqlite sqlite-aged pgbench hotpath"
# shellcheck disable=SC2086 # BENCH_SUITE: a list
[ $# -gt 0 ] || set -- $BENCH_SUITE
out=$HARNESS_ROOT/bench/results
day=$(date -u +%F)
summary=$out/$day-summary.md
# A summary of the same day written by hand (not starting with this
# script's title) is never overwritten: the generated one goes beside it.
if [ -f "$summary" ] && ! head -n 1 "$summary" | grep -q '^# Benchmark summary, [0-9-]*$'; then
	summary=$out/$day-summary-generated.md
fi
# The conf file of a CONF argument.
conf_of() {
	case $1 in
	*.conf) echo "$1" ;;
	*) echo "$HARNESS_ROOT/bench/$1.conf" ;;
	esac
}
for c; do
	[ -f "$(conf_of "$c")" ] || die "no benchmark conf $(conf_of "$c")"
done
names=()
for c; do
	conf=$(realpath "$(conf_of "$c")")
	name=$(basename "$conf" .conf)
	names+=("$name")
	[ $run = 1 ] || continue
	log "$name: $conf"
	# a conf may source another (sqlite-aged.conf): ask the shell
	# shellcheck source=/dev/null # a benchmark conf
	if [ -n "$(. "$conf"; echo "${WORKLOAD:-}")" ]; then
		BENCH_CONF=$conf "$HARNESS_ROOT/bench/run-workload.sh" "$out/$day-$name.md"
	else
		BENCH_CONF=$conf "$HARNESS_ROOT/bench/run-zipf.sh" "$out/$day-$name.md"
	fi
done
[ $write_summary = 1 ] || exit 0
{
	echo "# Benchmark summary, $day"
	echo
	echo "Headline tables of \`bench/run-all.sh $*\`; the full reports are next to this file."
	for name in "${names[@]}"; do
		echo
		echo "## $name ($day-$name.md)"
		echo
		# The first table of the report, with the paragraph that names it.
		awk '/^Disk pages read per read/ { print; print "" }
			/^\|/ { t = 1; print; next } t { exit }' "$out/$day-$name.md"
	done
} >"$summary"
log "summary: $summary"
