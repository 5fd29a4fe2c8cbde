#!/bin/bash
# Guest side of the Zipf benchmark: one arm, every theta and memcg size.
# usage: zipf.sh CONF LRU_GEN_ENABLED THETA...   (CONF: e.g. bench/zipf.conf)
# Prints one "RESULT theta=... memcg=MIB key=value..." line per point.
# Per theta and memcg size (MEMCG_SIZES, or MEMCG_MB): drop caches, an
# untimed warm-up (seed WARMUP_SEED + 2 (repeat - 1)), then the timed
# window (seed WINDOW_SEED + 2 (repeat - 1)): the same job and hot set, a
# fresh stretch of the stream (bench/zipf-job.sh explains the seeding).
# Each repeat draws its own streams, the same on every arm of the repeat
# (bench_rep= on the kernel command line); run-zipf.sh records each
# repeat's streams for the bounds.
set -euo pipefail
. "$(dirname "$0")/fio-prologue.sh" "$@"
shift 2
guest_setup
echo "$lru_gen" >/sys/kernel/mm/lru_gen/enabled
echo "kernel $(uname -r) lru_gen $(cat /sys/kernel/mm/lru_gen/enabled)"
[ "$ZIPF_FILE" = "$DATA_DIR/zipf.dat" ] || { echo "ZIPF_FILE is not on $DATA_DIR" >&2; exit 1; }
lay_out_file "$ZIPF_FILE" "$DATA_MB"


# MiB (decimals allowed, for sweep points such as 10 : 1) to KiB.
mib_to_kib() {
	awk -v m="$1" 'BEGIN { printf "%d", m * 1024 }'
}

# The memcg's anon and page cache (bytes; "anon file") every SAMPLE_S
# seconds, until killed; bash builtins only, so that sampling costs the
# window no more than a sleep per sample.  memory.stat lists anon first.
SAMPLE_S=0.2
sample_memcg() { # sample_memcg MEMCG
	local key value anon
	while :; do
		while read -r key value; do
			case $key in
			anon) anon=$value ;;
			file) echo "$anon $value"; break ;;
			esac
		done <"$CGROOT/$1/memory.stat"
		sleep "$SAMPLE_S"
	done
}

# Pages swapped in by the memcg so far; 0 in a kernel without swap.
swapins() { # swapins MEMCG
	local n
	n=$(memcg_stat "$1" pswpin)
	echo "${n:-0}"
}

# One point: a fresh memcg of $2 MiB, the warm-up, then the timed window.
# Besides the page cache at the end (file=, read after fio has exited and
# freed its own memory, so it depends on where the last reclaim left the
# memcg), the window's page cache is sampled: cache= is the mean, and
# anon= the mean of fio's own anonymous memory.  The memcg swaps too, and
# swapin= counts the window's swap-ins (pages), I/O beside the data disk.
run_point() { # run_point THETA MEMCG_MIB
	local out reads iops pages refaults sectors0 refaults0 sampler cache anon swapin0
	rmdir "$CGROOT/bench" 2>/dev/null || true
	echo 3 >/proc/sys/vm/drop_caches
	preload_fio "$DATA_DIR"
	make_memcg bench "$(mib_to_kib "$2")K"
	run_fio "$1" "$warmup_seed" "$WARMUP_LOOPS" >/dev/null
	refaults0=$(memcg_stat bench workingset_refault_file)
	sectors0=$(disk_sectors_read)
	swapin0=$(swapins bench)
	sample_memcg bench >/tmp/memcg-samples &
	sampler=$!
	out=$(run_fio "$1" "$window_seed" "$WINDOW_LOOPS")
	kill "$sampler"
	wait "$sampler" 2>/dev/null || true
	read -r anon cache <<<"$(awk '{ a += $1; f += $2 }
		END { printf "%d %d\n", NR ? a / NR : 0, NR ? f / NR : 0 }' /tmp/memcg-samples)"
	reads=$(awk -F';' '{ print int($6 / 4) }' <<<"$out")
	iops=$(awk -F';' '{ print $8 }' <<<"$out")
	pages=$((($(disk_sectors_read) - sectors0) / 8))
	refaults=$(($(memcg_stat bench workingset_refault_file) - refaults0))
	echo "RESULT theta=$1 memcg=$2 reads=$reads disk_pages=$pages refaults=$refaults iops=$iops" \
		"file=$(memcg_stat bench file) cache=$cache anon=$anon swapin=$(($(swapins bench) - swapin0)) seed=$window_seed"
	# For a look at why an arm did better or worse (console log only).
	grep -E '^workingset_(activate|restore)_file ' "$CGROOT/bench/memory.stat" | tr '\n' ' '
	echo
	if lru_gen_on; then lru_gen_summary bench; fi
	rmdir "$CGROOT/bench" 2>/dev/null || true
}

for theta in "$@"; do
	for memcg in ${MEMCG_SIZES:-$MEMCG_MB}; do
		run_point "$theta" "$memcg"
	done
done
