#!/bin/bash
# fio Zipf random reads in a memcg, one boot per arm and repeat, all arms
# in one run: writes a Markdown report (disk pages read per read, the
# headline, next to the miss-ratio bounds of the recorded stream; each
# arm's multiple of the bounds; refaults per read; IOPS) and a PNG plot.
# usage: run-zipf.sh [--report-only] [REPORT.md]
# Parameters: BENCH_CONF [bench/zipf.conf], e.g. bench/quick.conf;
# BENCH_CONFIGS ["base smp"]: the config fragments of both kernels (make check
# passes "base selftests" to reuse the kernels of its selftest parity step).
# The plot goes next to REPORT.md (REPORT.png), or to build/logs/ when
# the report goes to stdout.  --report-only rewrites the report and plot
# from the last run's results.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
BENCH_CONF=$(realpath "${BENCH_CONF:-$HARNESS_ROOT/bench/zipf.conf}")
. "$HARNESS_ROOT/bench/defaults.conf"
# shellcheck source=/dev/null # a benchmark conf
. "$BENCH_CONF"
. "$HARNESS_ROOT/bench/lib.sh"
. "$HARNESS_ROOT/bench/zipf-job.sh"
name=$(basename "$BENCH_CONF" .conf)
read -ra kconfigs <<<"$BENCH_CONFIGS"
memcgs=${MEMCG_SIZES:-$MEMCG_MB}
# With mmap and fault read-around, one fault reads several pages: the disk
# pages per read are no demand-miss ratio, and the bounds do not apply.
bounds_apply=1
[ "$IOENGINE" = mmap ] && [ "$FADVISE_HINT" = 0 ] && bounds_apply=0

report_only=0
if [ "${1:-}" = --report-only ]; then
	report_only=1
	shift
fi
report=${1:-/dev/stdout}
case $report in
/dev/stdout) plot=$BUILD_DIR/logs/bench-$name.png ;;
*) plot=${report%.md}.png ;;
esac
logs=$BUILD_DIR/logs
results=$logs/bench-$name.results
bound=$HARNESS_ROOT/bench/bound/bound
mkdir -p "$logs"

# Record repeat REP's warm-up and window streams of THETA on the host (fio's
# null engine, the guest's job and seeds, bench/guest/zipf.sh):
# bench-NAME-THETA-REP-{warm,window}.iolog.
record_streams() { # record_streams THETA REP
	local part seed loops
	for part in warm window; do
		if [ $part = warm ]; then seed=$WARMUP_SEED loops=$WARMUP_LOOPS; else seed=$WINDOW_SEED loops=$WINDOW_LOOPS; fi
		zipf_job "$1" "$(repeat_seed "$seed" "$2")" "$loops"
		rm -f "$logs/bench-$name-$1-$2-$part.iolog"  # fio appends
		fio "${job[@]}" --ioengine=null --write_iolog="$logs/bench-$name-$1-$2-$part.iolog" \
			--minimal >/dev/null
	done
}

if [ $report_only = 0 ]; then
	: >"$results"
	make -s -C "$HARNESS_ROOT/bench/bound" bound >&2
	# shellcheck disable=SC2086 # THETAS: a list
	run_arms "$name" "$results" "${kconfigs[*]}" "$HARNESS_ROOT/bench/guest/zipf.sh" $THETAS
	# Per point, the bound's cache: the largest mean page cache of a
	# window (cache=, bytes) of any arm and repeat, in pages; per point and
	# repeat, the bounds of that repeat's streams.
	for theta in $THETAS; do
		for ((rep = 1; rep <= REPEATS; rep++)); do
			record_streams "$theta" "$rep"
		done
		for memcg in $memcgs; do
			c=$(awk -v p=" theta=$theta memcg=$memcg " '$1 ~ /^arm=/ && index($0, p) {
				for (i = 1; i <= NF; i++) if ($i ~ /^cache=/) { f = substr($i, 7) / 4096; if (f > c) c = f }
			} END { print int(c) }' "$results")
			[ "$c" -gt 0 ] || die "no page cache size for theta=$theta memcg=$memcg in $results"
			for ((rep = 1; rep <= REPEATS; rep++)); do
				echo "bound theta=$theta memcg=$memcg rep=$rep $("$bound" -c "$c" -W \
					"$logs/bench-$name-$theta-$rep-warm.iolog" \
					"$logs/bench-$name-$theta-$rep-window.iolog")" >>"$results"
			done
		done
	done
fi

awk -v overrides="$BENCH_OVERRIDES" -v conf="${BENCH_CONF#"$HARNESS_ROOT"/}" -v kconfigs="${kconfigs[*]}" -v arms="$ARMS" -v thetas="$THETAS" \
	-v memcgs="$memcgs" -v data_mb="$DATA_MB" -v bounds_apply="$bounds_apply" \
	-v date="$(date -u +%Y-%m-%d)" -v plot="${plot##*/}" -v params="$(grep -v '^#' "$BENCH_CONF" | sed 's/ *#.*//; /^$/d')" \
	-v job="$(zipf_job THETA SEED LOOPS; echo "fio ${job[*]} --ioengine=$IOENGINE --minimal")" \
	-v qemu="$(fg_qemu_command "$name")" \
	-f "$HARNESS_ROOT/bench/cells.awk" -f "$HARNESS_ROOT/bench/zipf-report.awk" "$results" >"$report"
# Debian's python3 (python3-matplotlib), not whatever python3 is first in PATH.
if /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
	/usr/bin/python3 "$HARNESS_ROOT/bench/plot.py" "$results" "$plot" "$ARMS" "$name" "$DATA_MB" "$bounds_apply"
else
	log "no plot: python3-matplotlib is missing (make deps)"
fi
