#!/bin/bash
# Guest side of a flakiness count (docs/selftests.md, "Flaky tests"): run
# cgroup's test_memcontrol M times, then ksm_tests -N -m 1 K times, in one
# boot, and print each test_memcontrol run's failed cases and the number of
# failed ksm_tests runs.
#
# usage: selftests-flaky.sh BIN_DIR M K   (BIN_DIR as for selftests.sh)
set -u
. "$(dirname "$0")/lib.sh"

[ $# = 3 ] || { echo "usage: selftests-flaky.sh BIN_DIR M K" >&2; exit 2; }
bin=$1 m=$2 k=$3
guest_setup
# test_memcontrol's socket test connects to localhost.
ip link set lo up 2>/dev/null || busybox ifconfig lo up
mkdir -p "$DATA_DIR/memcg"
for i in $(seq "$m"); do
	sync
	echo 3 >/proc/sys/vm/drop_caches
	(cd "$DATA_DIR/memcg" && timeout -k 5 300 "$bin/cgroup/test_memcontrol") \
		</dev/null >/tmp/memcontrol.tap 2>&1
	echo "flaky: test_memcontrol run $i status $? failed: $(grep -a '^not ok' /tmp/memcontrol.tap | tr '\n' ';')"
done
failed=0
for _ in $(seq "$k"); do
	echo 2 >/sys/kernel/mm/ksm/run
	(cd /tmp && timeout -k 5 60 "$bin/mm/ksm_tests" -N -m 1) </dev/null >/dev/null 2>&1 ||
		failed=$((failed + 1))
done
echo "flaky: $(uname -r): ksm_tests -N -m 1 failed $failed of $k runs"
