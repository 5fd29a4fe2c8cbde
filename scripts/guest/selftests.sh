#!/bin/bash
# Guest side of the selftest parity run (scripts/boot/selftests.sh): run the
# kernel's mm and memcg selftests, one program invocation at a time, each
# under its own timeout, and keep each one's TAP output and exit status.
#
# usage: selftests.sh BIN_DIR RESULT_DIR [LABEL...]
#   BIN_DIR     the built programs (BIN_DIR/mm/*, BIN_DIR/cgroup/*)
#   RESULT_DIR  where LABEL.tap (output of the last try), LABEL.tryN.tap
#               (each try) and LABEL.rc ("status ms tries statuses") go
#   LABEL...    run only these invocations (default: all of RUNS below)
#
# The list is trimmed for TCG (see docs/selftests.md for what was dropped
# and why); every entry is "LABEL TIMEOUT_S DIR PROGRAM [ARG...]", DIR the
# working directory: the ext4 data disk where a test's files should be
# page cache on the file LRU, not shmem (test_memcontrol, soft-dirty,
# pagemap_ioctl), /tmp otherwise.  Dropped for time: khugepaged all:file
# (43 s; the file scan does not look at refs) and ksm_functional_tests
# (68 s; KSM's interface, which must run in the program's own folder as it
# execs "./ksm_functional_tests").
set -uo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -ge 2 ] || { echo "usage: selftests.sh BIN_DIR RESULT_DIR [LABEL...]" >&2; exit 2; }
BIN=$1
RES=$2
shift 2
MM=$BIN/mm
WORK=$DATA_DIR/selftests
RUNS=(
	"cow 240 /tmp $MM/cow"
	"khugepaged-anon 150 /tmp $MM/khugepaged all:anon"
	"khugepaged-shmem 150 /tmp $MM/khugepaged all:shmem"
	"split_huge_page_test 150 /tmp $MM/split_huge_page_test $WORK/split"
	"madv_populate 60 /tmp $MM/madv_populate"
	"mlock2-tests 60 /tmp $MM/mlock2-tests"
	"mlock-random-test 60 /tmp $MM/mlock-random-test"
	"migration 120 /tmp $MM/migration -t private_anon -t private_anon_thp"
	"pagemap_ioctl 120 $WORK $MM/pagemap_ioctl"
	"soft-dirty 60 $WORK $MM/soft-dirty"
	"ksm_tests-M 60 /tmp $MM/ksm_tests -M -p 10"
	"ksm_tests-U 60 /tmp $MM/ksm_tests -U"
	"ksm_tests-Z0 60 /tmp $MM/ksm_tests -Z -p 10 -z 0"
	"ksm_tests-Z1 60 /tmp $MM/ksm_tests -Z -p 10 -z 1"
	"ksm_tests-N1 60 /tmp $MM/ksm_tests -N -m 1"
	"ksm_tests-N0 60 /tmp $MM/ksm_tests -N -m 0"
	"ksm_tests-H 60 /tmp $MM/ksm_tests -H -s 10"
	"mkdirty 60 /tmp $MM/mkdirty"
	"test_memcontrol 300 $WORK/memcg $BIN/cgroup/test_memcontrol"
)

# A program that fails is run again (until a try exits 0 or 4), on both
# arms alike: under TCG a test that waits for a kernel thread or a timer
# can lose a race once (a make check run on CI had one such row on FG;
# seven local runs of the same subset that followed had none), and one
# lost race should not gate the series.  Each try's output is kept
# (LABEL.tryN.tap), and the rc file says "status ms tries
# status,status,..." (all tries).  The parity report counts a test case
# as passed if it passed in any try, and marks it flaky on that arm.
TRIES=2
# Timing-sensitive on both arms, so they get more tries: khugepaged may
# collapse a range in the background before the test looks.
RETRY_MORE=" khugepaged-anon khugepaged-shmem "
MORE_TRIES=3
# ksm_tests waits a fixed number of full scans and expects every page to
# have been compared in each, which KSM's smart scan breaks: it skips a
# page that did not merge in its first scans for a growing number of
# scans.  ksm_tests -N madvises its second page after the first has aged,
# so the merge lands inside the test's two scans only if the first page's
# next unskipped scan happens to fall there (docs/selftests.md).  The
# other programs get the kernel's default.
KSM_SMART_SCAN=/sys/kernel/mm/ksm/smart_scan

selected() {
	local l
	[ $# -gt 1 ] || return 0
	for l in "${@:2}"; do [ "$l" = "$1" ] && return 0; done
	return 1
}

now_ms() { echo $(($(date +%s%N) / 1000000)); }

guest_setup
# test_memcontrol's socket test connects to localhost.
ip link set lo up 2>/dev/null || busybox ifconfig lo up
mkdir -p "$RES" "$WORK/split" "$WORK/memcg"
: >"$RES/labels"
# The tests set what they need (khugepaged, cow and split_huge_page_test
# save and restore the THP knobs); start from the kernel's default,
# THP always, as run_vmtests.sh does.
echo always >/sys/kernel/mm/transparent_hugepage/enabled
{
	echo "kernel $(uname -r)"
	echo "lru_gen $(cat /sys/kernel/mm/lru_gen/enabled 2>/dev/null || echo none)"
	echo "nodes $(cat /sys/devices/system/node/online 2>/dev/null || echo none)"
	echo "cpus $(nproc)"
	echo "thp $(cat /sys/kernel/mm/transparent_hugepage/enabled)"
	echo "ksm smart_scan $(cat $KSM_SMART_SCAN 2>/dev/null || echo none), 0 for ksm_tests"
	echo "swap $(awk 'NR > 1 { print $1, $3 }' /proc/swaps | tr '\n' ' ')"
} >"$RES/meta"
cat "$RES/meta"

smart_scan=$(cat $KSM_SMART_SCAN 2>/dev/null)
for run in "${RUNS[@]}"; do
	read -r -a argv <<<"$run"
	label=${argv[0]} tmo=${argv[1]} dir=${argv[2]}
	selected "$label" "$@" || continue
	if [ -n "$smart_scan" ]; then
		case $label in
		ksm_tests-*) echo 0 >$KSM_SMART_SCAN ;;
		*) echo "$smart_scan" >$KSM_SMART_SCAN ;;
		esac
	fi
	tries=0 total=0 rcs=
	while :; do
		tries=$((tries + 1))
		echo 2 >/sys/kernel/mm/ksm/run 2>/dev/null
		# As run_vmtests.sh does for THP tests on small machines: free
		# and defragment memory, so that huge pages can be allocated
		# whatever ran before (khugepaged's collapse_compound_extreme
		# otherwise bails out with "Failed to allocate huge page").
		sync
		echo 3 >/proc/sys/vm/drop_caches
		echo 1 >/proc/sys/vm/compact_memory
		echo "selftests: start $label (try $tries): ${argv[*]:3}" >/dev/kmsg
		start=$(now_ms)
		(cd "$dir" && exec timeout -k 10 "$tmo" "${argv[@]:3}") \
			</dev/null >"$RES/$label.try$tries.tap" 2>&1
		rc=$?
		ms=$(($(now_ms) - start))
		total=$((total + ms)) rcs=$rcs${rcs:+,}$rc
		echo "selftests: end $label: status $rc, $ms ms" >/dev/kmsg
		case $rc in 0 | 4) break ;; esac
		max=$TRIES
		[ "${RETRY_MORE/ $label /}" = "$RETRY_MORE" ] || max=$MORE_TRIES
		[ $tries -lt $max ] || break
	done
	cp "$RES/$label.try$tries.tap" "$RES/$label.tap"
	echo "$rc $total $tries $rcs" >"$RES/$label.rc"
	echo "$label" >>"$RES/labels"
	printf 'selftests: %-22s status %3d  %6d ms  %s\n' "$label" "$rc" "$total" \
		"$(grep -a '^# Totals' "$RES/$label.tap" | tail -n 1)"
	# Leave THP as found for the next program (KSM is stopped and
	# unmerged before each try).
	echo always >/sys/kernel/mm/transparent_hugepage/enabled
done
sync
exit 0
