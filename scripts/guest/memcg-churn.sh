#!/bin/bash
# Guest side of the memcg churn test: reparenting against lockless
# promotion.  For CHURN_SECONDS, short-lived memcgs below churn/ each
# take a slice of a shared file into the page cache (charged to them)
# and are removed, while readers in long-lived memcgs (churn/reader-1
# with read(2), churn/reader-2 through mmap; scripts/guest/churn-reader.c)
# keep reading the slice filled last: their accesses promote folios of
# memcgs that are dying, without the LRU lock.  churn/ is smaller than
# the file, so reclaim runs all along, and its generations are aged by
# hand, so that its window and the children's differ.
# Afterwards, for churn/ and each reader, the pages on the generations
# (/sys/kernel/debug/lru_gen, the memcg and its descendants) must equal
# active + inactive of memory.stat, and the removed memcgs must be gone.
# The host fails the test on any console splat: lru_gen_exit_memcg()'s
# warnings, DEBUG_LIST or KASAN reports of a folio left on a freed list.
# MODE migrate (HELPER: scripts/guest/migrator.c; two NUMA nodes): the
# cached folios of the file and every page of the processes below churn/
# also move between the nodes in passes MIGRATE_PERIOD_MS apart, and
# vm.compact_memory is written every COMPACT_PERIOD s.
# MODE faults (HELPER: scripts/guest/fault-mkdir.c): the creation of the
# short-lived memcgs, their read of the slice (readahead, folio
# allocation) and the readers run as tasks whose slab and page
# allocations fail at random (lib.sh's faults_on), from copies on the
# data disk (static programs, marked before their exec, the readers once
# they run); a memcg not
# created, a failed read or a reader that gave up is the workload's
# error, not the test's; failures must have been injected, and injection
# stops before the checks.
# usage: memcg-churn.sh CHURN-READER SECONDS [MODE HELPER]
set -euo pipefail
. "$(dirname "$0")/lib.sh"

USAGE="usage: memcg-churn.sh CHURN-READER SECONDS [migrate MIGRATOR | faults FAULT-MKDIR]"
READER=${1:?$USAGE}
CHURN_SECONDS=${2:?$USAGE}
MODE=${3:-plain}
HELPER=${4:-}
case $MODE in
plain) ;;
migrate | faults) [ -x "$HELPER" ] || { echo "$USAGE" >&2; exit 1; } ;;
*) echo "$USAGE" >&2; exit 1 ;;
esac
DATA_MB=128
SLICE_MB=2
SLICE_FILE=/tmp/churn-slice
# Short-lived memcgs at a time: process starts are slow under TCG
CHURNERS=3
CG=churn
CG_MAX=16M
LRU_GEN_DEBUG=/sys/kernel/debug/lru_gen
DYING_WAIT=30
page_kb=$(($(getconf PAGESIZE) / 1024))

guest_setup
echo "kernel: $(uname -r); lru_gen: $(cat /sys/kernel/mm/lru_gen/enabled)"
lay_out_file "$DATA_DIR/churn.dat" $DATA_MB
make_memcg $CG $CG_MAX
echo +memory >"$CGROOT/$CG/cgroup.subtree_control"
make_memcg $CG/reader-1 max
make_memcg $CG/reader-2 max

# The commands of the workload: in faults mode, static programs copied to
# the data disk, each run by a busybox sh that sets its make-it-fail first
# (MARKED: the exec and what follows may fail, the 9p root is not used).
MKDIR=(mkdir) DD=(dd) MARKED=() DD_ERRORS=/dev/stderr
if [ "$MODE" = faults ]; then
	DD_ERRORS=/dev/null
	mkdir -p "$FAULT_BIN"
	cp /bin/busybox "$HELPER" "$READER" "$FAULT_BIN/"
	MKDIR=("$FAULT_BIN/${HELPER##*/}")
	DD=("$FAULT_BIN/busybox" dd)
	# shellcheck disable=SC2016 # expanded by the inner sh
	MARKED=("$FAULT_BIN/busybox" sh -c 'echo 1 >/proc/self/make-it-fail && exec "$@"' marked)
	READER=$FAULT_BIN/${READER##*/}
fi

# One short-lived memcg: drop a slice of the file from the page cache,
# read it back (now charged to this memcg), point the readers at it and
# remove the memcg while they read it.
churn_one() { # churn_one N: sets CREATED to 1 if the memcg was created
	local cg=$CG/tmp-$1 off=$(($1 * SLICE_MB % DATA_MB)) rc=0

	CREATED=0
	# in faults mode, the creation can fail (status 1): skip this one
	"${MKDIR[@]}" "$CGROOT/$cg" || rc=$?
	if [ $rc != 0 ]; then
		[ "$MODE" = faults ] && [ $rc = 1 ] && return 0
		echo "memcg-churn: cannot create $cg (status $rc)" >&2
		return 1
	fi
	CREATED=1
	# iflag=nocache drops what dd read from the page cache afterwards
	in_memcg "$cg" dd if="$DATA_DIR/churn.dat" of=/dev/null bs=1M skip=$off \
		count=$SLICE_MB iflag=nocache status=none
	# in faults mode, this read's allocations can fail
	in_memcg "$cg" "${MARKED[@]}" "${DD[@]}" if="$DATA_DIR/churn.dat" of=/dev/null bs=1M skip=$off \
		count=$SLICE_MB status=none 2>"$DD_ERRORS" || [ "$MODE" = faults ]
	echo $off >"$SLICE_FILE.$1"
	mv "$SLICE_FILE.$1" $SLICE_FILE
	sleep 0.1
	rmdir "$CGROOT/$cg"
}

churner() { # churner FIRST: memcgs FIRST, FIRST + CHURNERS, ...
	local n=$1 end=$((SECONDS + CHURN_SECONDS)) made=0 tried=0

	while [ $SECONDS -lt $end ]; do
		churn_one "$n"
		made=$((made + CREATED)) tried=$((tried + 1))
		n=$((n + CHURNERS))
	done
	echo "memcg-churn: churner $1: $made short-lived memcgs created, filled and removed;" \
		"$((tried - made)) not created"
}

ager() { # age churn/'s generations on every node, so that its window moves ahead of the children's
	local id node seq

	id=$(memcg_id $CG)
	while :; do
		while read -r node seq; do
			echo "+ $id $node $seq" >$LRU_GEN_DEBUG 2>/dev/null || true
		done < <(memcg_node_max_seqs $CG)
		sleep 0.5
	done
}

reader() { # reader N MODE
	in_memcg "$CG/reader-$1" nice -n 19 "$READER" "$2" "$DATA_DIR/churn.dat" $SLICE_FILE \
		$SLICE_MB "$CHURN_SECONDS" >"/tmp/reader-$1.out"
}

# In faults mode, mark the readers' threads once they run: marked before
# their exec, they failed in it (ENOMEM) and never read.
mark_readers() {
	local tid

	sleep 2
	cat "$CGROOT/$CG"/reader-*/cgroup.threads | while read -r tid; do
		echo 1 >"/proc/$tid/make-it-fail"
	done
}

# reader_failed N: a reader failed: the test's failure, or in faults mode
# the workload's (its allocations failed)
reader_failed() {
	if [ "$MODE" = faults ]; then
		echo "memcg-churn: reader-$1 gave up under fault injection"
	else
		echo "memcg-churn: reader-$1 failed" >&2
		status=1
	fi
}

[ "$MODE" != faults ] || faults_on
reader 1 read & r1=$!
reader 2 mmap & r2=$!
[ "$MODE" != faults ] || mark_readers
ager & a=$!
status=0
[ "$MODE" != migrate ] || migration_start "$HELPER" "$CHURN_SECONDS" "$DATA_DIR/churn.dat" "$CGROOT/$CG"
churners=()
for i in $(seq 0 $((CHURNERS - 1))); do
	churner "$i" &
	churners+=($!)
done
for pid in "${churners[@]}"; do
	wait "$pid" || { echo "memcg-churn: creating or removing a memcg failed" >&2; status=1; }
done
wait $r1 || reader_failed 1
wait $r2 || reader_failed 2
kill $a
if [ "$MODE" = faults ]; then
	faults_off memcg-churn || status=1
fi
if [ "$MODE" = migrate ]; then
	migration_stop memcg-churn || status=1
fi
wait 2>/dev/null || true
for i in 1 2; do
	echo "memcg-churn: reader-$i: $(cat /tmp/reader-$i.out) passes over the slice"
done

# The removed memcgs are freed once nothing holds them (lru_gen_exit_memcg()
# checks their generations then).
for _ in $(seq $DYING_WAIT); do
	dying=$(awk '$1 == "nr_dying_descendants" { print $2 }' "$CGROOT/$CG/cgroup.stat")
	[ "$dying" = 0 ] && break
	sleep 1
done
echo "memcg-churn: $dying dying memcgs left below $CG after ${DYING_WAIT} s at most"

# subtree_gens MEMCG: the pages on the generations of MEMCG and its descendants
subtree_gens() {
	awk -v cg="/$1" '$1 == "memcg" { inside = ($3 == cg || index($3, cg "/") == 1); next }
		inside && NF == 4 && $1 ~ /^[0-9]+$/ { sum += $3 + $4 }
		END { print sum + 0 }' $LRU_GEN_DEBUG
}
lru_pages() { # lru_pages MEMCG: active + inactive, anon and file, of memory.stat
	awk -v kb=$page_kb '$1 ~ /^(in)?active_(anon|file)$/ { sum += $2 }
		END { print int(sum / 1024 / kb) }' "$CGROOT/$1/memory.stat"
}
for cg in $CG $CG/reader-1 $CG/reader-2; do
	gens=$(subtree_gens "$cg")
	lru=$(lru_pages "$cg")
	diff=$((lru - gens))
	echo "memcg-churn: $cg: generations $gens pages, active + inactive $lru (diff $diff)"
	if [ "${diff#-}" -gt "$MEMCG_STAT_TOLERANCE" ]; then
		echo "memcg-churn: $cg: active + inactive differs from the generations by $diff pages" >&2
		status=1
	fi
done
exit $status
