#!/bin/bash
# Guest side of the ksm_tests -N diagnosis (docs/selftests.md, "Flaky
# tests"): run ksm_tests -N -m 1 K times with KSM's smart scan set to
# SMART (0 or 1), and after each run print its status and the kernel's
# "ksmdbg" lines (from docs/log/diag/ksm-scan-trace.patch, if the kernel has
# it), then the number of failed runs.
#
# usage: ksm-loop.sh BIN_DIR K SMART   (BIN_DIR as for selftests.sh)
set -u
. "$(dirname "$0")/lib.sh"

[ $# = 3 ] || { echo "usage: ksm-loop.sh BIN_DIR K SMART" >&2; exit 2; }
bin=$1 k=$2 smart=$3
guest_setup
dmesg -n 1	# keep the trace off the console: printing it there is slow
echo "$smart" >/sys/kernel/mm/ksm/smart_scan
failed=0
for i in $(seq "$k"); do
	echo 2 >/sys/kernel/mm/ksm/run
	dmesg -C
	(cd /tmp && timeout -k 5 60 "$bin/mm/ksm_tests" -N -m 1) </dev/null >/dev/null 2>&1
	rc=$?
	[ $rc = 0 ] || failed=$((failed + 1))
	echo "=== run $i status $rc"
	dmesg | grep ksmdbg | sed 's/^\[[ 0-9.]*\] //'
done
echo "ksm-loop: $(uname -r): smart_scan $smart: ksm_tests -N -m 1 failed $failed of $k runs"
