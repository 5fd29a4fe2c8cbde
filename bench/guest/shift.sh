#!/bin/bash
# Guest side of the workingset-shift benchmark (bench/shift.conf): in a
# fresh memcg, an untimed warm-up with the hot set around ZIPF_CENTER, then
# the window around SHIFT_CENTER in SLICES slices, counting the data
# disk's reads after each.  Seeds: WARMUP_SEED + 100 (repeat - 1) for the
# warm-up, WINDOW_SEED + 100 (repeat - 1) + slice for the slices, so each
# repeat reads its own streams and every arm of a repeat the same.
# usage: shift.sh CONF LRU_GEN_ENABLED   (CONF: bench/shift.conf)
# Prints "RESULT key=value..." (bench/shift.conf's METRICS) and, on
# stderr, each slice's disk pages per read.
set -euo pipefail
. "$(dirname "$0")/fio-prologue.sh" "$@"
rep=$(bench_rep)
warmup_seed=$((WARMUP_SEED + 100 * (rep - 1)))
window_seed=$((WINDOW_SEED + 100 * (rep - 1)))

guest_setup
echo "$lru_gen" >/sys/kernel/mm/lru_gen/enabled
echo "kernel $(uname -r) lru_gen $(cat /sys/kernel/mm/lru_gen/enabled)"
lay_out_file "$ZIPF_FILE" "$DATA_MB"

rmdir "$CGROOT/bench" 2>/dev/null || true
echo 3 >/proc/sys/vm/drop_caches
preload_fio "$DATA_DIR"
make_memcg bench "${MEMCG_MB}M"
run_fio "$THETA" "$warmup_seed" "$WARMUP_LOOPS" >/dev/null

# shellcheck disable=SC2034 # read by zipf_job (bench/zipf-job.sh)
ZIPF_CENTER=$SHIFT_CENTER
refaults0=$(memcg_stat bench workingset_refault_file)
t0=$(date +%s.%N)
slices=()	# "reads pages" per slice
for ((i = 0; i < SLICES; i++)); do
	sectors0=$(disk_sectors_read)
	out=$(run_fio "$THETA" $((window_seed + i)) 1)
	slices+=("$(awk -F';' '{ print int($6 / 4) }' <<<"$out") $((($(disk_sectors_read) - sectors0) / 8))")
done
t1=$(date +%s.%N)
refaults=$(($(memcg_stat bench workingset_refault_file) - refaults0))

printf '%s\n' "${slices[@]}" | awk -v steady_n="$STEADY_SLICES" -v conv="$CONVERGED" \
	-v refaults="$refaults" -v t0="$t0" -v t1="$t1" '
	{ reads[NR] = $1; pages[NR] = $2; ratio[NR] = $1 ? $2 / $1 : 0; all_r += $1; all_p += $2 }
	END {
		for (i = NR - steady_n + 1; i <= NR; i++) { sr += reads[i]; sp += pages[i] }
		steady = sr ? sp / sr : 0
		# the first slice from which every slice is within conv x steady
		settled = NR + 1
		for (i = NR; i >= 1 && ratio[i] <= conv * steady; i--)
			settled = i
		for (i = 1; i < settled; i++) before += reads[i]
		for (i = 1; i <= NR; i++) printf "slice %d: %d reads, %d pages, %.4f pages per read\n", i, reads[i], pages[i], ratio[i] > "/dev/stderr"
		printf "RESULT seed=%d pages_per_read=%.4f converge_reads=%d excess_pages=%d", '"$window_seed"', all_p / all_r, before, all_p - steady * all_r
		printf " first_pages_per_read=%.4f", ratio[1]
		printf " steady_pages_per_read=%.4f refaults_per_read=%.4f window_s=%.2f\n", steady, refaults / all_r, t1 - t0
	}'
{
	grep -E '^workingset_(refault|activate|restore)_file ' "$CGROOT/bench/memory.stat" | tr '\n' ' '
	echo
	[ "$(cat /sys/kernel/mm/lru_gen/enabled)" = 0x0000 ] || lru_gen_summary bench
} >&2
rmdir "$CGROOT/bench" 2>/dev/null || true
