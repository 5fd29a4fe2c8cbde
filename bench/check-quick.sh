#!/bin/bash
# Quick check of the fio Zipf benchmark pipeline: bench/bound's unit tests,
# then bench/quick.conf on every arm (one boot each), and fail unless
# every arm booted and produced numbers for every theta, the bound was
# computed, the report and plot were written, and FG read at most
# GATE_FG_ORIG times ORIG's disk pages per read (bench/gate.awk).  About
# 110 s on the busy 2-core box once the kernels are built
# (scripts/build-kernel.sh base, SERIES=0 and 1); a cold build of both
# adds 15-40 minutes.
# usage: check-quick.sh        Report: build/logs/bench-quick.md (+ .png)
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
start=$(date +%s)
export BENCH_CONF=$HARNESS_ROOT/bench/quick.conf
. "$HARNESS_ROOT/bench/defaults.conf"
# shellcheck source=/dev/null # a benchmark conf
. "$BENCH_CONF"
report=$BUILD_DIR/logs/bench-quick.md
results=$BUILD_DIR/logs/bench-quick.results
rm -f "$report" "${report%.md}.png" "$results"

make -s -C "$HARNESS_ROOT/bench/bound" test || die "bench/bound unit tests failed"
"$HARNESS_ROOT/bench/run-zipf.sh" "$report" || die "bench/run-zipf.sh failed"

fail=0
for theta in $THETAS; do
	for arm in $ARMS; do
		grep -Eq "^arm=$arm rep=1 release=[^ ]+ theta=$theta memcg=$MEMCG_MB reads=[1-9][0-9]* disk_pages=[0-9]+ refaults=[0-9]+ iops=[0-9]+ file=[1-9][0-9]* cache=[1-9][0-9]* anon=[0-9]+ swapin=[0-9]+ seed=[0-9]+$" "$results" ||
			{ log "no numbers for $arm at theta=$theta"; fail=1; }
	done
	grep -Eq "^bound theta=$theta memcg=$MEMCG_MB rep=1 capacity=[1-9].* minw_miss_ratio=[0-9.]+$" "$results" ||
		{ log "no bound at theta=$theta"; fail=1; }
	grep -q "^| $theta | $MEMCG_MB ([0-9.]* : 1) | [0-9]" "$report" || { log "no row for theta=$theta in $report"; fail=1; }
done
grep -q Warning "$report" && { log "$report has a warning"; fail=1; }
[ "$(head -c 8 "${report%.md}.png" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
	{ log "no PNG plot at ${report%.md}.png"; fail=1; }
[ $fail = 0 ] || die "quick benchmark incomplete; results: $results"
sed -n '/^Disk pages read per read/,/^Refaults/p' "$report" | sed '$d'
awk -v limit="$GATE_FG_ORIG" -f "$HARNESS_ROOT/bench/cells.awk" -f "$HARNESS_ROOT/bench/gate.awk" "$results" ||
	die "FG reads more disk pages per read than GATE_FG_ORIG ($GATE_FG_ORIG) times ORIG's (bench/quick.conf); results: $results"
log "passed in $(($(date +%s) - start)) s; report: $report"
