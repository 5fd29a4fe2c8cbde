#!/bin/bash
# Guest side of the Zipf benchmark: one arm, every theta.
# usage: zipf.sh CONF LRU_GEN_ENABLED THETA...   (CONF: e.g. bench/zipf.conf)
# Prints one "RESULT theta=... key=value..." line per theta.
# Per theta: drop caches, an untimed warm-up (seed WARMUP_SEED), then the
# timed window (seed WINDOW_SEED): the same job and hot set, a fresh
# stretch of the stream (bench/zipf-job.sh explains the seeding).
set -euo pipefail
here=$(dirname "$0")
. "$here/../../scripts/guest/lib.sh"
. "$1"
. "$here/../zipf-job.sh"

lru_gen=$2
shift 2
guest_setup
echo "$lru_gen" >/sys/kernel/mm/lru_gen/enabled
echo "kernel $(uname -r) lru_gen $(cat /sys/kernel/mm/lru_gen/enabled)"
[ "$ZIPF_FILE" = "$DATA_DIR/zipf.dat" ] || { echo "ZIPF_FILE is not on $DATA_DIR" >&2; exit 1; }
lay_out_file "$ZIPF_FILE" "$DATA_MB"

run_fio() { # run_fio THETA SEED LOOPS
	zipf_job "$@"
	in_memcg bench fio "${job[@]}" --ioengine="$IOENGINE" --minimal
}

# fio's binary and libraries come over 9p; fault them in outside the memcg
# (with a file of their own) so that the memcg's page cache is the data's.
preload_fio() {
	fio --name=preload --filename="$DATA_DIR/preload.dat" --size=1M --rw=randread \
		--bs=4k --ioengine="$IOENGINE" --random_distribution=zipf:1.2 --minimal >/dev/null
}

for theta in "$@"; do
	rmdir "$CGROOT/bench" 2>/dev/null || true
	echo 3 >/proc/sys/vm/drop_caches
	preload_fio
	make_memcg bench "${MEMCG_MB}M"
	run_fio "$theta" "$WARMUP_SEED" "$WARMUP_LOOPS" >/dev/null
	refaults0=$(memcg_stat bench workingset_refault_file)
	sectors0=$(disk_sectors_read)
	out=$(run_fio "$theta" "$WINDOW_SEED" "$WINDOW_LOOPS")
	reads=$(awk -F';' '{ print int($6 / 4) }' <<<"$out")
	iops=$(awk -F';' '{ print $8 }' <<<"$out")
	pages=$((($(disk_sectors_read) - sectors0) / 8))
	refaults=$(($(memcg_stat bench workingset_refault_file) - refaults0))
	echo "RESULT theta=$theta reads=$reads disk_pages=$pages refaults=$refaults iops=$iops" \
		"file=$(memcg_stat bench file)"
	rmdir "$CGROOT/bench" 2>/dev/null || true
done
