#!/bin/bash
# Guest side of the stress soak (scripts/boot/soak.sh): Debian's stress-ng
# memory stressors (vm, mmap, madvise, memfd, fault, with --page-in) run
# for SECONDS in a small memcg (soak/stress) while, in the background,
# /sys/kernel/mm/lru_gen/enabled is flipped between 0 and its boot value,
# and child memcgs of soak with readers (file pages) and anon holders in
# them are created and removed, so that LRU folios are reparented into
# soak while pages move between generations, lists and swap.
#
# Afterwards, with lru_gen on again and only an idle anon holder left in
# soak/stress, for soak/stress and for soak (memory.stat is hierarchical
# there, so soak's own generations plus its descendants' count):
#   1. active_file + inactive_file = file pages on the generations
#      (debugfs lru_gen), active_anon + inactive_anon = anon pages there;
#   2. active_file + inactive_file = file - shmem (shmem is swap-backed and
#      sits on the anon LRU);
#   3. anon + shmem <= active_anon + inactive_anon <= anon + shmem +
#      swapcached: "anon" counts mapped anon pages only, and a swap-cache
#      folio that nobody maps any more is on the anon LRU until it is freed,
#      so this one is a bound, not an equality;
# each within TOLERANCE pages (per-cpu stat batching, folios in per-cpu
# LRU batches); unevictable pages (mlocked, or on ramfs) are on neither
# list and may be file or anon, so they widen the lower bounds of 2 and 3.
# Then, after a few seconds idle, 1 again without any tolerance.
#
# MODE migrate (the guest has two NUMA nodes, numa=fake=2): MIGRATOR
# (scripts/guest/migrator.c) also moves, every MIGRATE_PERIOD_MS, the
# cached folios of the children's file and every page of every process
# below soak between the nodes, and vm.compact_memory is written every
# COMPACT_PERIOD s; the migrator must have moved file folios and migrated
# processes (pgmigrate_success, which compaction alone raises, is shown).
# MODE faults: slab and page allocations of the workload's tasks (stress-ng,
# the children's readers and holders, the creation of the children with
# FAULT_MKDIR, scripts/guest/fault-mkdir.c) fail with FAULT_PERCENT %
# probability (failslab and fail_page_alloc, with task-filter and
# /proc/PID/make-it-fail); the workload may see errors, failures must have
# been injected, and injection stops before the checks.
#
# usage: soak.sh SECONDS [MODE [HELPER]]
#   MODE plain, migrate (HELPER: MIGRATOR) or faults (HELPER: FAULT_MKDIR)
set -uo pipefail
. "$(dirname "$0")/lib.sh"

SOAK_SECONDS=${1:?usage: soak.sh SECONDS [MODE [HELPER]]}
MODE=${2:-plain}
HELPER=${3:-}
PARENT=soak
CG=$PARENT/stress
PARENT_MAX=192M
CG_MAX=128M
FLIP_PERIOD=5
CHURN_PERIOD=3
LRU_GEN=/sys/kernel/mm/lru_gen/enabled
LRU_GEN_DEBUG=/sys/kernel/debug/lru_gen
TMP_DIR=$DATA_DIR/soak
CHURN_MB=48
# As in accounting.sh: memory.stat may lag the per-cpu counters by a flush
# batch (64 pages per CPU); allow twice that.
TOLERANCE=$((2 * 64 * $(nproc)))
SETTLE_LOOKS=5
SETTLE_PERIOD=3
page_kb=$(($(getconf PAGESIZE) / 1024))

case $MODE in
plain) ;;
migrate | faults)
	[ -x "$HELPER" ] || { echo "soak: mode $MODE needs its helper binary" >&2; exit 1; } ;;
*) echo "soak: unknown mode $MODE" >&2; exit 1 ;;
esac

# Copies of the workload's programs (stress-ng with its libraries and
# loader, static busybox for the readers' shell and dd) on the data disk:
# the tasks whose allocations fail must not use the 9p root.  When such
# tasks exited with programs of the root mapped, later opens and execs
# from the root failed with EINVAL for every task, intermittently, until
# the end (two runs in session 36, with no kernel message): most likely
# a 9p request that releases a file (a clunk) failed to allocate, the
# server kept the file's fid and refused its reuse.  The 9p root is the
# harness's, not what the series changes.
# Sets LOADER, the loader's name there.
stage_programs() {
	local lib

	mkdir -p "$FAULT_BIN"
	cp /bin/busybox "$HELPER" "$FAULT_BIN/" || return 1
	cp "$(command -v stress-ng)" "$FAULT_BIN/" || return 1
	LOADER=
	for lib in $(ldd "$(command -v stress-ng)" | awk '$2 == "=>" { print $3 } $1 ~ /^\/.*ld-linux/ { print $1 }'); do
		cp -L "$lib" "$FAULT_BIN/" || return 1
		case $lib in */ld-linux*) LOADER=${lib##*/} ;; esac
	done
	[ -n "$LOADER" ]
}

guest_setup
echo "soak: kernel $(uname -r), $(nproc) CPUs, $SOAK_SECONDS s, mode $MODE; $LRU_GEN: $(cat $LRU_GEN)"
echo "soak: NUMA nodes $(cat /sys/devices/system/node/online)"
stress-ng --version
lru_gen_on=$(cat $LRU_GEN)
mkdir -p "$TMP_DIR"
lay_out_file "$TMP_DIR/churn.dat" $CHURN_MB
# The workload's programs: in faults mode, copies on the data disk
STRESS_NG=(stress-ng) SH=(sh) DD=dd
if [ "$MODE" = faults ]; then
	stage_programs || { echo "soak: cannot copy the workload's programs to $FAULT_BIN" >&2; exit 1; }
	STRESS_NG=("$FAULT_BIN/$LOADER" --library-path "$FAULT_BIN" "$FAULT_BIN/stress-ng")
	SH=("$FAULT_BIN/busybox" sh) DD="$FAULT_BIN/busybox dd"
fi
make_memcg $PARENT $PARENT_MAX
echo +memory >"$CGROOT/$PARENT/cgroup.subtree_control"
make_memcg $CG $CG_MAX

# Flip lru_gen off and on until told to stop; leave it on.
flipper() {
	local n=0

	trap 'echo "$lru_gen_on" >$LRU_GEN; echo "soak: flipped lru_gen off and on $n times"; exit 0' TERM
	while :; do
		sleep $FLIP_PERIOD
		echo 0 >$LRU_GEN
		n=$((n + 1))
		sleep $FLIP_PERIOD
		echo "$lru_gen_on" >$LRU_GEN
	done
}

# Start a reader of the churn file and an anon holder in memcg $1.
populate() {
	local cg=$1 skip=$2

	# stderr to /dev/null: the shell running in_memcg in the background
	# would report their SIGKILL ("Killed"), and in faults mode dd its
	# failed reads.
	# shellcheck disable=SC2016 # expanded by the inner sh
	in_memcg "$cg" "${SH[@]}" -c 'while :; do $2 if="$0" of=/dev/null bs=1M count=16 skip="$1" status=none; done' \
		"$TMP_DIR/churn.dat" "$skip" "$DD" 2>/dev/null &
	in_memcg "$cg" "${STRESS_NG[@]}" --vm 1 --vm-bytes 8M --vm-hang 0 --quiet 2>/dev/null &
}

# Stop every process in memcg $1 and remove it (its LRU folios are
# reparented to soak).
depopulate() {
	local cg=$CGROOT/$1

	for _ in $(seq 50); do
		# shellcheck disable=SC2046 # a list of pids
		kill -9 $(cat "$cg/cgroup.procs") 2>/dev/null
		rmdir "$cg" 2>/dev/null && return 0
		sleep 0.2
	done
	echo "soak: could not remove $1" >&2
	return 1
}

# Create a child memcg of soak with a reader and an anon holder every
# CHURN_PERIOD, and remove the one before; until told to stop.
churner() {
	local n=0 prev=

	trap 'stop=1' TERM
	stop=0
	failed_mkdir=0
	local mkdir=(mkdir) rc
	[ "$MODE" != faults ] || mkdir=("$FAULT_BIN/${HELPER##*/}")
	while [ $stop = 0 ]; do
		n=$((n + 1))
		# in faults mode, the creation of the memcg can fail (status 1)
		"${mkdir[@]}" "$CGROOT/$PARENT/churn-$n"
		rc=$?
		if [ $rc != 0 ]; then
			if [ "$MODE" != faults ] || [ $rc != 1 ]; then
				echo "soak: cannot create $PARENT/churn-$n (status $rc)" >&2
				exit 1
			fi
			failed_mkdir=$((failed_mkdir + 1))
			sleep $CHURN_PERIOD
			continue
		fi
		populate "$PARENT/churn-$n" $(((n * 16) % CHURN_MB))
		[ -z "$prev" ] || depopulate "$prev"
		prev=$PARENT/churn-$n
		sleep $CHURN_PERIOD
	done
	[ -z "$prev" ] || depopulate "$prev"
	echo "soak: created and removed $((n - failed_mkdir)) child memcgs; $failed_mkdir creations failed"
	[ $((n - failed_mkdir)) -gt 0 ]
}

# Mark the threads below soak that run the copies of FAULT_BIN (stress-ng,
# under its loader's name until it names its children, and busybox: the
# children's readers and holders) as ones whose allocations may fail,
# once they have been seen in two looks a second apart: after their exec,
# so that their work rather than the loader meets the failures; what they
# fork inherits the mark.  Never a task still running a program of the
# 9p root (the sh of in_memcg before its exec): its exit or exec releases
# a 9p file, and a release that failed left every later open and exec
# from the root failing with EINVAL (see stage_programs()).
marker() {
	local f tid comm stat id
	local -A seen

	trap 'exit 0' TERM
	while :; do
		for f in "$CGROOT/$PARENT"/*/cgroup.threads; do
			{
				while read -r tid; do
					{ read -r comm <"/proc/$tid/comm" && read -r stat <"/proc/$tid/stat"; } ||
						continue
					case $comm in stress-ng* | ld-linux* | busybox) ;; *) continue ;; esac
					# a thread is its id and start time (field 22 of
					# stat, the 20th after the command's name): an id
					# reused later is another thread
					# shellcheck disable=SC2086 # split into fields
					set -- ${stat##*) }
					id=$tid:${20}
					if [ -n "${seen[$id]:-}" ]; then
						echo 1 >"/proc/$tid/make-it-fail"
					else
						seen[$id]=1
					fi
				done <"$f"
			} 2>/dev/null
		done
		sleep 1
	done
}

# An idle anon holder in soak/stress that stays for the accounting check.
in_memcg $CG "${STRESS_NG[@]}" --vm 1 --vm-bytes 16M --vm-hang 0 --quiet &
holder=$!
if [ "$MODE" = faults ]; then
	faults_on
	marker &
	marker_pid=$!
fi
flipper &
flip_pid=$!
churner &
churn_pid=$!
[ "$MODE" != migrate ] || migration_start "$HELPER" "$SOAK_SECONDS" "$TMP_DIR/churn.dat" "$CGROOT/$PARENT"

status=0
echo "soak: stress-ng in $CG (memory.max $CG_MAX, $PARENT $PARENT_MAX) for $SOAK_SECONDS s"
# --mmap-bytes 4M: under KASAN and TCG one op of the mmap stressor on a
# 16 MiB file mapping (a syscall or two per page, msync included) took
# longer than a 300 s run.
in_memcg $CG "${STRESS_NG[@]}" --temp-path "$TMP_DIR" --page-in --timeout "${SOAK_SECONDS}s" \
	--vm 1 --vm-bytes 48M --mmap 1 --mmap-bytes 4M --mmap-file \
	--madvise 1 --memfd 1 --memfd-bytes 16M --fault 1 --metrics-brief 2>&1 |
	tee /tmp/stress-ng.out
rc=${PIPESTATUS[0]}
if [ "$rc" != 0 ]; then
	# its allocations failing, stress-ng may report failures
	if [ "$MODE" = faults ]; then
		echo "soak: stress-ng exited with status $rc under fault injection"
	else
		echo "soak: stress-ng failed (status $rc)" >&2
		status=1
	fi
fi
# A stressor that never finished an op exercised less than it claims.
# Under fault injection one may fail early (its allocations failing in its
# set-up), but not all of them.
with_ops=0
for s in vm mmap madvise memfd fault; do
	ops=$(awk -v s=$s '$2 == "metrc:" && $4 == s { print $5; exit }' /tmp/stress-ng.out)
	if [ "${ops:-0}" -gt 0 ]; then
		with_ops=$((with_ops + 1))
	elif [ "$MODE" = faults ]; then
		echo "soak: stress-ng's $s stressor completed no op under fault injection"
	else
		echo "soak: stress-ng's $s stressor completed no op" >&2
		status=1
	fi
done
[ $with_ops -gt 0 ] || { echo "soak: no stress-ng stressor completed an op" >&2; status=1; }

kill -TERM $flip_pid $churn_pid
wait $flip_pid || { echo "soak: the lru_gen flipper failed" >&2; status=1; }
wait $churn_pid || { echo "soak: the churner failed" >&2; status=1; }
if [ "$MODE" = migrate ]; then
	migration_stop soak || status=1
fi
if [ "$MODE" = faults ]; then
	kill -TERM "$marker_pid"
	wait "$marker_pid"
	faults_off soak || status=1
fi
echo "$lru_gen_on" >$LRU_GEN
sleep 2
echo "soak: $LRU_GEN $(cat $LRU_GEN); memcgs: $(cd "$CGROOT" && find $PARENT -mindepth 1 -type d | tr '\n' ' ')"
grep -E '^(pswpin|pswpout|pgmigrate_success|thp_split_page|workingset_refault_(anon|file)) ' /proc/vmstat | tr '\n' ' '
echo

# Pages of memcg $1 and its descendants on the generations: "anon file".
gens_pages() {
	awk -v cg="/$1" '
		$1 == "memcg" { inside = ($3 == cg || index($3, cg "/") == 1); next }
		inside && NF == 4 && $1 ~ /^[0-9]+$/ { anon += $3; file += $4 }
		END { print anon + 0, file + 0 }' $LRU_GEN_DEBUG
}
pages() { echo $(($(memcg_stat "$1" "$2") / 1024 / page_kb)); }
within() { local d=$(($1 - $2)); [ ${d#-} -le $TOLERANCE ]; }

check_memcg() {
	local cg=$1 bad=0 ga gf af ia ai aa file shmem anon swapc unev lru_f lru_a

	read -r ga gf <<<"$(gens_pages "$cg")"
	af=$(pages "$cg" active_file) ia=$(pages "$cg" inactive_file)
	aa=$(pages "$cg" active_anon) ai=$(pages "$cg" inactive_anon)
	file=$(pages "$cg" file) shmem=$(pages "$cg" shmem) anon=$(pages "$cg" anon)
	swapc=$(pages "$cg" swapcached) unev=$(pages "$cg" unevictable)
	lru_f=$((af + ia)) lru_a=$((aa + ai))
	echo "soak: $cg: LRU file $lru_f (active $af), gens file $gf; LRU anon $lru_a (active $aa), gens anon $ga;" \
		"file $file shmem $shmem anon $anon swapcached $swapc unevictable $unev (pages)"
	within $lru_f "$gf" || { echo "soak: $cg: active_file + inactive_file $lru_f != generations $gf" >&2; bad=1; }
	within $lru_a "$ga" || { echo "soak: $cg: active_anon + inactive_anon $lru_a != generations $ga" >&2; bad=1; }
	# Unevictable pages are on neither list and may be file or anon: they
	# widen the lower bounds.
	if [ $lru_f -lt $((file - shmem - unev - TOLERANCE)) ] || [ $lru_f -gt $((file - shmem + TOLERANCE)) ]; then
		echo "soak: $cg: active_file + inactive_file $lru_f outside [file - shmem - unevictable $((file - shmem - unev)), file - shmem $((file - shmem))]" >&2
		bad=1
	fi
	if [ $lru_a -lt $((anon + shmem - unev - TOLERANCE)) ] || [ $lru_a -gt $((anon + shmem + swapc + TOLERANCE)) ]; then
		echo "soak: $cg: active_anon + inactive_anon $lru_a outside [anon + shmem - unevictable $((anon + shmem - unev)), anon + shmem + swapcached $((anon + shmem + swapc))]" >&2
		bad=1
	fi
	return $bad
}

[ "$(pages $CG anon)" -gt 0 ] || echo "soak: note: the holder in $CG has no resident anon pages"
check_memcg $CG || status=1
check_memcg $PARENT || status=1

# Once the memcgs are idle, nothing moves their folios, and the periodic
# flush (every 2 s) brings memory.stat up to the per-CPU counters: the LRU
# totals must then equal the generations exactly, not within TOLERANCE. A
# folio freed between the two reads (a swap-cache folio, say) can still
# make one look differ, so take up to SETTLE_LOOKS looks, SETTLE_PERIOD
# apart; a drift differs in all of them.
settled_exact() {
	local cg=$1 n ga gf aa lru_a lru_f

	for n in $(seq $SETTLE_LOOKS); do
		sleep $SETTLE_PERIOD
		read -r ga gf <<<"$(gens_pages "$cg")"
		aa=$(pages "$cg" active_anon)
		lru_a=$((aa + $(pages "$cg" inactive_anon)))
		lru_f=$(($(pages "$cg" active_file) + $(pages "$cg" inactive_file)))
		echo "soak: settled look $n: $cg: LRU anon $lru_a (active $aa), gens anon $ga;" \
			"LRU file $lru_f, gens file $gf"
		[ "$lru_a" = "$ga" ] && [ "$lru_f" = "$gf" ] && return 0
	done
	echo "soak: $cg: LRU totals differ from the generations in $SETTLE_LOOKS settled looks" >&2
	return 1
}
settled_exact $CG || status=1
settled_exact $PARENT || status=1
kill $holder
wait 2>/dev/null
exit $status
