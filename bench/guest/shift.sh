#!/bin/bash
# Guest side of the workingset-shift benchmark (bench/shift.conf): in a
# fresh memcg, an untimed warm-up with the hot set around ZIPF_CENTER, then
# the window around SHIFT_CENTER in SLICES slices, counting the data
# disk's reads after each.  Seeds: WARMUP_SEED + 100 (repeat - 1) for the
# warm-up, WINDOW_SEED + 100 (repeat - 1) + slice for the slices, so each
# repeat reads its own streams and every arm of a repeat the same.
# usage: shift.sh CONF LRU_GEN_ENABLED BIN  (CONF: bench/shift.conf; BIN:
# the guest programs, bench/guest/*.c)
# Prints "RESULT key=value..." (bench/shift.conf's METRICS) and, on
# stderr, each slice's disk pages per read and stale pages.
#
# Stale pages: the pages the warm-up read and the window never reads, i.e.
# memory the move has made useless.  After the warm-up and after each
# slice, bench/guest/resident.c notes which pages of the file are
# resident (mincore: no page touched); after the window, fio replays the
# same streams with the null engine outside the memcg and logs their
# offsets, which tells the stale pages apart.  How fast an arm lets them
# go is where the cost of the move comes from.
set -euo pipefail
. "$(dirname "$0")/fio-prologue.sh" "$@"
rep=$(bench_rep)
warmup_seed=$((WARMUP_SEED + 100 * (rep - 1)))
window_seed=$((WINDOW_SEED + 100 * (rep - 1)))
resident=$3/resident
trace=/tmp/shift	# tmpfs, charged to the root memcg, not to "bench"
mkdir -p "$trace"

# lru_gen_tiers MEMCG LABEL: memcg's generations with their tiers' counters
# (evicted, refaulted, protected) from lru_gen_full, on stderr
lru_gen_tiers() {
	[ -r /sys/kernel/debug/lru_gen_full ] || return 0
	echo "lru_gen_full of $1 $2:" >&2
	memcg_section /sys/kernel/debug/lru_gen_full "$1" >&2
}

# stale_pages DIR SLICES: the number of stale pages resident after the
# warm-up and after each slice (DIR/resident.0 ... DIR/resident.SLICES),
# on one line; stale: read by the warm-up (DIR/warmup.log) and by no slice
# of the window (DIR/window.*.log), fio iologs
stale_pages() {
	local files=("$1/warmup.log") i

	for ((i = 0; i < $2; i++)); do files+=("$1/window.$i.log"); done
	for ((i = 0; i <= $2; i++)); do files+=("$1/resident.$i"); done
	awk -v warmup="$1/warmup.log" '
		FILENAME ~ /\.log$/ {
			# "[TIME] FILE read OFFSET LENGTH" (iolog version 3 starts with TIME)
			if ($(NF - 2) != "read") next
			block = int($(NF - 1) / 4096)
			if (FILENAME == warmup) before[block] = 1
			else after[block] = 1
			next
		}
		FNR == 1 && !listed {
			for (b in before) if (!(b in after)) stale[b] = 1
			listed = 1
		}
		{
			n = 0
			for (b in stale) n += substr($0, b + 1, 1) == "1"
			printf "%s%d", FNR == 1 && counted++ ? " " : "", n
		}
		END { print "" }' "${files[@]}"
}

guest_setup
echo "$lru_gen" >/sys/kernel/mm/lru_gen/enabled
echo "kernel $(uname -r) lru_gen $(cat /sys/kernel/mm/lru_gen/enabled)"
lay_out_file "$ZIPF_FILE" "$DATA_MB"

rmdir "$CGROOT/bench" 2>/dev/null || true
echo 3 >/proc/sys/vm/drop_caches
preload_fio "$DATA_DIR"
make_memcg bench "${MEMCG_MB}M"
run_fio "$THETA" "$warmup_seed" "$WARMUP_LOOPS" >/dev/null
"$resident" "$ZIPF_FILE" >"$trace/resident.0"
lru_gen_tiers bench "after the warm-up"

warmup_center=$ZIPF_CENTER
ZIPF_CENTER=$SHIFT_CENTER
refaults0=$(memcg_stat bench workingset_refault_file)
seqs0=$(memcg_seqs bench)
t0=$(date +%s.%N)
slices=()	# "reads pages" per slice
for ((i = 0; i < SLICES; i++)); do
	sectors0=$(disk_sectors_read)
	out=$(run_fio "$THETA" $((window_seed + i)) 1)
	slices+=("$(awk -F';' '{ print int($6 / 4) }' <<<"$out") $((($(disk_sectors_read) - sectors0) / 8))")
	"$resident" "$ZIPF_FILE" >"$trace/resident.$((i + 1))"
	case $((i + 1)) in 1 | 4 | "$SLICES") lru_gen_tiers bench "after slice $((i + 1))" ;; esac
done
t1=$(date +%s.%N)
refaults=$(($(memcg_stat bench workingset_refault_file) - refaults0))
seqs1=$(memcg_seqs bench)

# The streams again, offsets only: fio's offsets do not depend on the engine.
replay() { # replay CENTER SEED LOOPS LOG
	ZIPF_CENTER=$1 zipf_job "$THETA" "$2" "$3"
	fio "${job[@]}" --ioengine=null --write_iolog="$4" >/dev/null
}
replay "$warmup_center" "$warmup_seed" "$WARMUP_LOOPS" "$trace/warmup.log"
for ((i = 0; i < SLICES; i++)); do
	replay "$SHIFT_CENTER" $((window_seed + i)) 1 "$trace/window.$i.log"
done
stale=$(stale_pages "$trace" "$SLICES")

printf '%s\n' "${slices[@]}" | awk -v steady_n="$STEADY_SLICES" -v conv="$CONVERGED" \
	-v refaults="$refaults" -v t0="$t0" -v t1="$t1" -v stale="$stale" \
	-v agings=$((${seqs1#* } - ${seqs0#* })) -v oldest_moves=$((${seqs1% *} - ${seqs0% *})) '
	{ reads[NR] = $1; pages[NR] = $2; ratio[NR] = $1 ? $2 / $1 : 0; all_r += $1; all_p += $2 }
	END {
		# stale: resident stale pages after the warm-up and each slice
		n_stale = split(stale, left, " ")
		if (n_stale != NR + 1) { print "shift.sh: " n_stale " stale counts for " NR " slices" > "/dev/stderr"; exit 1 }
		half = NR + 1
		for (i = 1; i <= NR; i++) if (left[i + 1] <= left[1] / 2) { half = i; break }
		for (i = 1; i < half; i++) half_reads += reads[i]
		if (half <= NR) half_reads += reads[half]
		for (i = NR - steady_n + 1; i <= NR; i++) { sr += reads[i]; sp += pages[i] }
		steady = sr ? sp / sr : 0
		# the first slice from which every slice is within conv x steady
		settled = NR + 1
		for (i = NR; i >= 1 && ratio[i] <= conv * steady; i--)
			settled = i
		for (i = 1; i < settled; i++) before += reads[i]
		for (i = 1; i <= NR; i++) printf "slice %d: %d reads, %d pages, %.4f pages per read, %d stale pages resident\n", i, reads[i], pages[i], ratio[i], left[i + 1] > "/dev/stderr"
		printf "RESULT seed=%d pages_per_read=%.4f converge_reads=%d excess_pages=%d", '"$window_seed"', all_p / all_r, before, all_p - steady * all_r
		printf " first_pages_per_read=%.4f", ratio[1]
		printf " stale_pages=%d stale_left_2=%.3f stale_left_8=%.3f stale_half_reads=%d", left[1], left[1] ? left[3] / left[1] : 0, left[1] ? left[9] / left[1] : 0, half_reads
		printf " agings=%d oldest_moves=%d", agings, oldest_moves
		printf " steady_pages_per_read=%.4f refaults_per_read=%.4f window_s=%.2f\n", steady, refaults / all_r, t1 - t0
	}'
{
	grep -E '^workingset_(refault|activate|restore)_file ' "$CGROOT/bench/memory.stat" | tr '\n' ' '
	echo
	if lru_gen_on; then lru_gen_summary bench; fi
} >&2
rmdir "$CGROOT/bench" 2>/dev/null || true
