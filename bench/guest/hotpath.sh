#!/bin/bash
# Guest side of the hot-path benchmark (issue 40): the cost of an access
# to a cached page.  A file that fits its memcg is read twice, so that
# every folio is hot, then hotpath (bench/guest/hotpath.c) times random
# 4 KiB pread(2)s with 1 and 2 threads and a touch loop through mmap, each
# first without and then with proactive aging every AGE_MS, which keeps
# moving max_seq away from the hot folios (the case where MGLRU-FG moves
# them up a generation from the read path).  Nothing is read from disk and
# nothing reclaimed in the window: the guest checks both.
# usage: hotpath.sh CONF LRU_GEN_ENABLED GUEST_BIN   (CONF: bench/hotpath.conf)
# Prints "RESULT key=value..." with ns per access of each cell.
set -euo pipefail
here=$(dirname "$0")
. "$here/../../scripts/guest/lib.sh"
# shellcheck source=/dev/null # a benchmark conf
. "$1"
lru_gen=$2
hotpath=$3/hotpath
file=$DATA_DIR/hot
stop=/tmp/age-stop
seed=$(bench_rep)

guest_setup
echo "$lru_gen" >/sys/kernel/mm/lru_gen/enabled
echo "kernel $(uname -r) lru_gen $(cat /sys/kernel/mm/lru_gen/enabled)"
lay_out_file "$file" "$DATA_MB"
make_memcg bench "${MEMCG_MB}M"
# twice through a file descriptor: every folio is accessed more than once
for _ in 1 2; do in_memcg bench cat "$file" >/dev/null; done

# cell MODE THREADS: ns per access of one timed loop in the memcg
cell() {
	local out

	out=$(in_memcg bench "$hotpath" "$1" "$file" "$2" "$CELL_S" "$seed")
	echo "cell $1 x$2: $out" >&2
	sed -n 's/.*ns_per_access=\([0-9.]*\).*/\1/p' <<<"$out"
}

# max_seq of the memcg, 0 where there is none to read
max_seq() {
	local seq

	seq=$(memcg_max_seq bench 2>/dev/null || true)
	echo "${seq:-0}"
}

sectors0=$(disk_sectors_read)
steal0=$(memcg_stat bench pgsteal)
result=()
for aged in 0 1; do
	suffix=
	ager_pid=
	seq0=$(max_seq)
	if [ "$aged" = 1 ]; then
		suffix=_aged
		rm -f "$stop"
		age_memcg bench "$AGE_MS" "$stop" &
		ager_pid=$!
	fi
	result+=("pread1$suffix=$(cell pread 1)" "pread2$suffix=$(cell pread 2)"
		 "mmap1$suffix=$(cell mmap 1)")
	if [ -n "$ager_pid" ]; then
		touch "$stop"
		wait "$ager_pid"
	fi
	# generations made during the cells (0 without MGLRU)
	result+=("gens$suffix=$(($(max_seq) - seq0))")
done
pages=$((($(disk_sectors_read) - sectors0) / 8))
steal=$(($(memcg_stat bench pgsteal) - steal0))
lru_gen_summary bench >&2 || true
# a cell that read from disk or reclaimed measured something else
if [ "$pages" -gt 0 ] || [ "$steal" -gt 0 ]; then
	echo "hotpath: the window read $pages pages from disk and reclaimed $steal: not all cached" >&2
	exit 1
fi
echo "RESULT ${result[*]} disk_pages=$pages"
