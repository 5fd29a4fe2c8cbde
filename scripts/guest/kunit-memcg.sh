#!/bin/bash
# Guest side of the KUnit run in cgroups of its own (scripts/boot/kunit-memcg.sh).
#
# The series' suites (mm/tests/) ran at boot, charged to the root memcg, and
# the two that need a non-root memcg and lru_gen_classic, which needs the
# multi-gen LRU switched off, skipped.  This runs every lru_gen suite again
# through /sys/kernel/debug/kunit/SUITE/run from a cgroup C of its own,
# where the suites measure on C's private generation sizes and refault
# counters (lru_gen_classic with the multi-gen LRU off for as long as it
# runs, as the administrator would switch it), then removes C (a 4 MiB
# tmpfs file keeps folios on its lists until then, for the reparenting to
# move) and runs lru_gen_memcg_dying
# (from the root: cgroup v2 keeps processes out of C's parent, which has
# controllers for its children) while lru_gen_memcg's reference keeps C's
# memcg dying.
#
# Writes the results of all suites to OUT as one KTAP document, for the
# host's kunit.py parse.  Exits non-zero if a step of the set-up fails.
#
# usage: kunit-memcg.sh OUT
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=${1:?usage: kunit-memcg.sh OUT}
KUNIT=/sys/kernel/debug/kunit
PARENT=$CGROOT/kunit
CHILD=$PARENT/run
DYING_SUITE=lru_gen_memcg_dying
CLASSIC_SUITE=lru_gen_classic
LRU_GEN=/sys/kernel/mm/lru_gen/enabled
SHM_FILE=/dev/shm/kunit-memcg
SHM_MIB=4

for suite in $DYING_SUITE $CLASSIC_SUITE; do
	[ -d "$KUNIT/$suite" ] || { echo "no $KUNIT/$suite: KUnit debugfs or the suites missing" >&2; exit 1; }
done
[ -w "$LRU_GEN" ] || { echo "no $LRU_GEN: CONFIG_LRU_GEN missing" >&2; exit 1; }
guest_setup	# a writable cwd, the memory controller for the root's children
mkdir "$PARENT"
echo +memory >"$PARENT/cgroup.subtree_control"
mkdir "$CHILD"

results=$(mktemp -d)
n=0
# run_suite SUITE [TRIES]: run it from this shell's cgroup, again every
# 0.1 s while it skips as a whole, up to TRIES [1] runs; keep the results
# of the last
run_suite() {
	local try

	n=$((n + 1))
	for try in $(seq "${2:-1}"); do
		echo "kunit-memcg: running $1 from $(cat /proc/self/cgroup), try $try"
		echo run >"$KUNIT/$1/run"
		grep -q "ok 1 $1 # SKIP" "$KUNIT/$1/results" || break
		sleep 0.1
	done
	cp "$KUNIT/$1/results" "$results/$(printf %03d $n)"
}

# run_classic_suite SUITE: the same with the multi-gen LRU off, then its
# capabilities as they were, also if the run fails; the suite must leave it
# off (its switch cases turn it on and off again)
run_classic_suite() {
	local caps left

	caps=$(cat "$LRU_GEN")
	trap 'echo "$caps" >"$LRU_GEN"' EXIT
	echo n >"$LRU_GEN"
	run_suite "$1"
	left=$(cat "$LRU_GEN")
	echo "$caps" >"$LRU_GEN"
	trap - EXIT
	[ "$left" = 0x0000 ] || { echo "$1 left lru_gen/enabled at $left" >&2; exit 1; }
	[ "$(cat "$LRU_GEN")" = "$caps" ] || { echo "lru_gen/enabled: $(cat "$LRU_GEN"), was $caps" >&2; exit 1; }
}

echo $$ >"$CHILD/cgroup.procs"
dd if=/dev/zero of="$SHM_FILE" bs=1M count=$SHM_MIB status=none
shmem=$(awk '$1 == "shmem" { print $2 }' "$CHILD/memory.stat")
echo "kunit-memcg: $shmem bytes of shmem charged to $CHILD"
for dir in "$KUNIT"/lru_gen_*; do
	suite=${dir##*/}
	case $suite in
	"$DYING_SUITE") ;;
	"$CLASSIC_SUITE") run_classic_suite "$suite" ;;
	*) run_suite "$suite" ;;
	esac
done

echo $$ >"$CGROOT/cgroup.procs"
rmdir "$CHILD"
# the removed cgroup's memcg goes offline after rmdir returns (an RCU grace
# period and a work item later); until then the suite skips as a whole
run_suite $DYING_SUITE 50

# One KTAP document: each results file is "KTAP version 1", "1..1", the
# suite's subtest, and "ok 1 SUITE"; renumber the suites.
{
	echo "KTAP version 1"
	echo "1..$n"
	i=0
	for f in "$results"/*; do
		i=$((i + 1))
		sed -e '1,2d' -e "s/^\(not \)\{0,1\}ok 1 /\1ok $i /" "$f"
	done
} >"$out"
echo "kunit-memcg: $n suites, results in $out"
rm -f "$SHM_FILE"
