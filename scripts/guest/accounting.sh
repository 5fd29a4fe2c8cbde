#!/bin/bash
# Guest side of the LRU accounting check: while generations are aged by
# hand, a memcg's active_file + inactive_file (memory.stat) must equal the
# file pages on its generations (/sys/kernel/debug/lru_gen).  With --fg
# (MGLRU-FG: active means refs >= ACTIVATED, not "in the two youngest
# generations"): pages read HOT_READS times through read(2) count as
# active, and the first aging, which retires only the generation holding
# the pages read once, leaves active_file alone.
# Next, code outside the LRU changes PG_referenced of folios with refs 2
# or 3 (MADV_COLD, clear_refs, a shmem write, gup, a THP split: "madv
# refs-user"), which moves them across the activation threshold; after
# each, the memcg is emptied and its active + inactive must equal the
# generations again (a folio added to one size and removed from the other
# leaves that one below zero, which memory.stat reads as 0).
# Then, under load (readers in a memcg smaller than their data, so that
# eviction runs, while generations are aged in a loop), the sums are
# sampled repeatedly; after the load stops they must match again, i.e.,
# no update of either side was lost.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# usage: accounting.sh [--fg] MADV     (MADV: scripts/guest/madv.c, built)
fg=0
if [ "${1:-}" = --fg ]; then
	fg=1
	shift
fi
madv=${1:?usage: accounting.sh [--fg] MADV}
CG=acct
DATA_MB=64
HOT_READS=4
AGINGS=3
TOLERANCE=$MEMCG_STAT_TOLERANCE
LRU_GEN_DEBUG=/sys/kernel/debug/lru_gen

guest_setup
make_memcg $CG 512M
lay_out_file "$DATA_DIR/acct.dat" $DATA_MB
# Read the first half HOT_READS times and the second half once.
half=$((DATA_MB / 2))
for _ in $(seq $HOT_READS); do
	in_memcg $CG dd if="$DATA_DIR/acct.dat" of=/dev/null bs=1M count=$half status=none
done
in_memcg $CG dd if="$DATA_DIR/acct.dat" of=/dev/null bs=1M skip=$half status=none

memcg_id=$(memcg_id $CG)
# lru_gen_pages TYPE: the pages of TYPE (anon or file) on the generations
lru_gen_pages() {
	memcg_gens $CG | awk -v col="$([ "$1" = anon ] && echo 3 || echo 4)" \
		'{ sum += $col } END { print sum + 0 }'
}
lru_gen_min_seq() { memcg_min_seq $CG; }
lru_gen_max_seq() { memcg_max_seq $CG; }
page_kb=$(($(getconf PAGESIZE) / 1024))
pages() { echo $(($(memcg_stat $CG "$1") / 1024 / page_kb)); }
# read_sums [TYPE]: the memcg's LRU sizes of TYPE (file by default, or
# anon) and its pages on the generations: sets active, inactive, gens and
# diff = active + inactive - gens (pages).
read_sums() {
	local type=${1:-file}

	active=$(pages "active_$type")
	inactive=$(pages "inactive_$type")
	gens=$(lru_gen_pages "$type")
	diff=$((active + inactive - gens))
}
beyond() { [ "${1#-}" -gt "$2" ]; } # beyond N LIMIT: |N| > LIMIT

status=0
active0=$(pages active_file)
for i in $(seq 0 $AGINGS); do
	if [ "$i" -gt 0 ]; then
		echo "+ $memcg_id 0 $(lru_gen_max_seq)" >$LRU_GEN_DEBUG
	fi
	read_sums
	echo "accounting: aging $i: seq $(lru_gen_min_seq)-$(lru_gen_max_seq) active_file $active inactive_file $inactive generations $gens (diff $diff)"
	if beyond $diff $TOLERANCE; then
		echo "accounting: active + inactive differs from the generations by $diff pages" >&2
		status=1
	fi
	if [ $fg = 1 ] && [ "$i" = 1 ] && beyond $((active - active0)) $TOLERANCE; then
		echo "accounting: the first aging changed active_file by $((active - active0)) pages" >&2
		status=1
	fi
done
if [ $fg = 1 ] && [ "$active0" -lt $((half * 1024 / page_kb / 2)) ]; then
	echo "accounting: only $active0 active file pages after $HOT_READS reads of $half MiB" >&2
	status=1
fi

# Code outside the LRU that sets or clears PG_referenced.
SHM_DIR=/mnt/acct-shm
THP_DIR=/mnt/acct-thp
mkdir -p $SHM_DIR $THP_DIR
mount -t tmpfs -o size=32M tmpfs $SHM_DIR
refs_users="cold clear-refs shmem-write gup"
if [ -w /sys/kernel/debug/split_huge_pages ] &&
	mount -t tmpfs -o huge=always,size=32M tmpfs $THP_DIR 2>/dev/null; then
	refs_users="$refs_users thp-split"
else
	echo "accounting: no THP split (no split_huge_pages or tmpfs huge=always)"
fi
# Start from an empty memcg, so that each operation meets folios with the
# refs it expects (pages left from the checks above have higher refs).
echo 3 >/proc/sys/vm/drop_caches
declare -A last # the diff of each type at the previous check
for type in file anon; do
	read_sums $type
	last[$type]=$diff
done
for op in $refs_users; do
	case $op in
	cold | clear-refs) args=("$DATA_DIR/acct.dat") ;;
	gup) args=("$SHM_DIR/gup.dat" "$DATA_DIR/acct.dat") ;;
	thp-split) args=("$THP_DIR/thp.dat") ;;
	*) args=("$SHM_DIR/$op.dat") ;;
	esac
	if ! in_memcg $CG "$madv" refs-user $op "${args[@]}"; then
		echo "accounting: madv refs-user $op failed" >&2
		status=1
		continue
	fi
	# empty the memcg: what is left on either size is drift
	rm -f $SHM_DIR/* $THP_DIR/*
	echo 3 >/proc/sys/vm/drop_caches
	for type in file anon; do
		read_sums $type
		echo "accounting: $op, then emptied: active_$type $active inactive_$type $inactive generations $gens (diff $diff, $((diff - last[$type])) of it since the previous check)"
		last[$type]=$diff
		if beyond $diff $TOLERANCE; then
			echo "accounting: after $op, active + inactive $type differs from the generations by $diff pages" >&2
			status=1
		fi
	done
done
umount $SHM_DIR
mountpoint -q $THP_DIR && umount $THP_DIR

# Under load. While pages move, memory.stat and debugfs are read at
# slightly different times, so a sample may be off by what moved in
# between; LOAD_TOLERANCE bounds that. After the load, TOLERANCE applies.
LOAD_MEMCG=48M
LOAD_MB=96
SAMPLES=20
LOAD_TOLERANCE=$((32 * 1024 / page_kb))
echo $((LOAD_MB * 2))M >"$CGROOT/$CG/memory.max"
lay_out_file "$DATA_DIR/load.dat" $LOAD_MB
echo $LOAD_MEMCG >"$CGROOT/$CG/memory.max"
reader() { # reader SKIP_MB: read the data in 4 MiB steps from SKIP_MB on, forever
	local mb=$1
	while :; do
		in_memcg $CG dd if="$DATA_DIR/load.dat" of=/dev/null bs=1M count=4 \
			skip=$((mb % LOAD_MB)) status=none
		mb=$((mb + 12))
	done
}
ager() { # age the memcg's generations as fast as the aging allows
	while :; do
		echo "+ $memcg_id 0 $(lru_gen_max_seq)" >$LRU_GEN_DEBUG 2>/dev/null || true
		sleep 0.2
	done
}
reader 0 & r1=$!
reader 40 & r2=$!
ager & a=$!
worst=0
for i in $(seq $SAMPLES); do
	sleep 0.5
	read_sums
	if beyond $diff ${worst#-}; then worst=$diff; fi
done
seqs="$(lru_gen_min_seq)-$(lru_gen_max_seq)"
kill $r1 $r2 $a
wait 2>/dev/null || true
sleep 1
read_sums
echo "accounting: under load: $SAMPLES samples, worst diff $worst, seq $seqs; after: active_file $active inactive_file $inactive generations $gens (diff $diff)"
if beyond $worst $LOAD_TOLERANCE; then
	echo "accounting: under load, active + inactive differed from the generations by $worst pages" >&2
	status=1
fi
if beyond $diff $TOLERANCE; then
	echo "accounting: after the load, active + inactive differs from the generations by $diff pages" >&2
	status=1
fi
exit $status
