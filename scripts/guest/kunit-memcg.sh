#!/bin/bash
# Guest side of the KUnit run in cgroups of its own (scripts/boot/kunit-memcg.sh).
#
# The series' suites (mm/tests/) ran at boot, charged to the root memcg, and
# the two that need a non-root memcg skipped.  This runs every lru_gen suite
# again through /sys/kernel/debug/kunit/SUITE/run from a cgroup C of its own,
# where the suites measure on C's private generation sizes and refault
# counters, then removes C (a 4 MiB tmpfs file keeps folios on its lists
# until then, for the reparenting to move) and runs lru_gen_memcg_dying
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
SHM_FILE=/dev/shm/kunit-memcg
SHM_MIB=4

[ -d "$KUNIT/$DYING_SUITE" ] || { echo "no $KUNIT/$DYING_SUITE: KUnit debugfs or the suites missing" >&2; exit 1; }
guest_setup	# a writable cwd, the memory controller for the root's children
mkdir "$PARENT"
echo +memory >"$PARENT/cgroup.subtree_control"
mkdir "$CHILD"

results=$(mktemp -d)
n=0
# run_suite SUITE: run it from this shell's cgroup, keep its results
run_suite() {
	n=$((n + 1))
	echo "kunit-memcg: running $1 from $(cat /proc/self/cgroup)"
	echo run >"$KUNIT/$1/run"
	cp "$KUNIT/$1/results" "$results/$(printf %03d $n)"
}

echo $$ >"$CHILD/cgroup.procs"
dd if=/dev/zero of="$SHM_FILE" bs=1M count=$SHM_MIB status=none
shmem=$(awk '$1 == "shmem" { print $2 }' "$CHILD/memory.stat")
echo "kunit-memcg: $shmem bytes of shmem charged to $CHILD"
for dir in "$KUNIT"/lru_gen_*; do
	suite=${dir##*/}
	[ "$suite" = $DYING_SUITE ] || run_suite "$suite"
done

echo $$ >"$CGROOT/cgroup.procs"
rmdir "$CHILD"
run_suite $DYING_SUITE

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
