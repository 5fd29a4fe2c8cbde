#!/bin/bash
# Guest side of the scan benchmark (bench/scan.conf, issue 22): fio reads a
# Zipf-hot file on the data disk in a memcg, first alone, then while dd
# streams a large cold file from a second disk, in a loop, in the same
# memcg.  Each point: drop caches, a fresh memcg, an untimed warm-up (seed
# WARMUP_SEED + 2 (repeat - 1)), the timed window (seed WINDOW_SEED + 2
# (repeat - 1)); the scan, if any, runs through both.  The data disk's
# read counter then counts the hot file's misses only.
# usage: scan.sh CONF LRU_GEN_ENABLED   (CONF: bench/scan.conf)
# Prints "RESULT key=value..." with both points.
set -euo pipefail
. "$(dirname "$0")/fio-prologue.sh" "$@"
. "$(dirname "$0")/scan-disk.sh"
guest_setup
echo "$lru_gen" >/sys/kernel/mm/lru_gen/enabled
echo "kernel $(uname -r) lru_gen $(cat /sys/kernel/mm/lru_gen/enabled)"

make_scan_disk
lay_out_file "$ZIPF_FILE" "$DATA_MB"

# run_point NAME SCAN(0|1): print NAME_pages_per_read=... and the rest.
run_point() {
	local name=$1 scan=$2 scanner='' out reads pages refaults sectors0 scan0 refaults0 t0 t1
	rmdir "$CGROOT/bench" 2>/dev/null || true
	echo 3 >/proc/sys/vm/drop_caches
	preload_fio "$DATA_DIR"
	make_memcg bench "${MEMCG_MB}M"
	if [ "$scan" = 1 ]; then
		scan_loop bench &
		scanner=$!
	fi
	run_fio "$THETA" "$warmup_seed" "$WARMUP_LOOPS" >/dev/null
	refaults0=$(memcg_stat bench workingset_refault_file)
	sectors0=$(disk_sectors_read)
	scan0=$(disk_sectors_read "$SWAP_DEV")
	t0=$(date +%s.%N)
	out=$(run_fio "$THETA" "$window_seed" "$WINDOW_LOOPS")
	t1=$(date +%s.%N)
	reads=$(awk -F';' '{ print int($6 / 4) }' <<<"$out")
	pages=$((($(disk_sectors_read) - sectors0) / 8))
	refaults=$(($(memcg_stat bench workingset_refault_file) - refaults0))
	printf '%s_pages_per_read=%s %s_refaults_per_read=%s %s_s=%s %s_mb=%s ' \
		"$name" "$(awk -v p="$pages" -v r="$reads" 'BEGIN { printf "%.4f", p / r }')" \
		"$name" "$(awk -v p="$refaults" -v r="$reads" 'BEGIN { printf "%.4f", p / r }')" \
		"$name" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')" \
		"$name" $((($(disk_sectors_read "$SWAP_DEV") - scan0) / 2048))
	[ -z "$scanner" ] || stop_scan "$scanner"
	# For a look at why an arm did better or worse (console log only).
	{
		echo "point $name: reads=$reads disk_pages=$pages refaults=$refaults"
		grep -E '^workingset_(refault|activate|restore)_file ' "$CGROOT/bench/memory.stat" | tr '\n' ' '
		echo
		grep -E '^(pgrotated|pgscan_(kswapd|direct)|pgsteal_(kswapd|direct)|pgrefill|pgdeactivate|workingset_node(s|reclaim)) ' \
			/proc/vmstat | tr '\n' ' '
		echo
		# the diagnostic counters and census of docs/log/diag/ (docs/log/scan.md), if built in
		if [ -d /sys/kernel/debug/lru_gen_diag ]; then
			grep -H . /sys/kernel/debug/lru_gen_diag/* | sed 's|.*/||' | tr '\n' ' '
			echo
		fi
		[ ! -e /sys/kernel/debug/lru_gen_census ] || cat /sys/kernel/debug/lru_gen_census
		if lru_gen_on; then memcg_section /sys/kernel/debug/lru_gen_full bench; fi
	} >&2
	rmdir "$CGROOT/bench" 2>/dev/null || true
}

result=$(run_point noscan 0; run_point scan 1)
echo "RESULT seed=$window_seed $result"
