#!/bin/bash
# The test command ("make check", run by CI) and its second tier ("make
# check-full", what a maintainer runs before posting): every step is a
# test that passes or fails; the run ends with "N passed, M failed" and
# exits non-zero if anything failed.  A step whose prerequisite did not
# pass is reported as "NOT RUN" and counts as one failure.
#
# Tiers: "check" steps test the tip's behaviour and fit CI's time (45
# minutes cold on 2 cores); "full" steps add every commit's build, the
# config matrix, the stable fix, the no-spare-bit KUnit kernel and the
# ORIG/FG selftests parity.  make check runs the first tier, make
# check-full both.
#
# usage: check.sh                 the steps of tier "check", in table order
#        check.sh --full          every step (make check-full)
#        check.sh --only STEP...  those steps and their prerequisites, of
#                                 either tier (make check-STEP)
#        check.sh --list          the table: step, tier, prerequisite, command
#
# The run makes the trees once (series-applies) and builds each kernel
# once: the steps that boot a kernel get its image from the step that
# built it (HARNESS_KERNEL), not by building again.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

S=$HARNESS_ROOT/scripts
SMOKE_SECONDS=$(setting SMOKE_SECONDS)
CHURN_SECONDS=$(setting CHURN_SECONDS)
# The selftests that make check runs on ORIG and FG (labels of
# scripts/guest/selftests.sh): every program of make selftests but cow
# (26 s per arm under TCG) and migration (40 s, a fixed run time), to
# keep the step near 3 minutes.  test_memcontrol's memory.min/low cases
# fail at random on both arms; they are FLAKY rows of
# selftests-parity.sh (docs/selftests.md).
SELFTESTS_CHECK=${SELFTESTS_CHECK:-"khugepaged-anon khugepaged-shmem split_huge_page_test
	madv_populate mlock2-tests mlock-random-test pagemap_ioctl soft-dirty
	ksm_tests-M ksm_tests-U ksm_tests-Z0 ksm_tests-Z1 ksm_tests-N1 ksm_tests-N0
	ksm_tests-H mkdirty test_memcontrol"}
# The debug kernel of build-debug, booted by the steps that need it.
# shellcheck disable=SC2086 # a list of fragment names
DEBUG_KERNEL=$(kernel_image x86_64 $DEBUG_CONFIGS)

names=()
declare -A tier prereq cmd status

# step NAME TIER PREREQUISITE CMD...: a row of the table; TIER is "check"
# or "full" (make check-full only); PREREQUISITE is the step that must
# have passed first, or "-", and is of tier "check" if NAME is.
step() {
	local name=$1 t=$2 pre=$3

	shift 3
	case $t in check | full) ;; *) die "step $name: tier '$t' is neither check nor full" ;; esac
	[ "$pre" = - ] || [ "$t" = full ] || [ "${tier[$pre]:-}" = check ] ||
		die "step $name of tier check needs $pre, which is not of tier check"
	names+=("$name")
	tier[$name]=$t
	prereq[$name]=$pre
	cmd[$name]=$(printf '%q ' "$@")
}

step harness-selftest check - "$S/tests/harness.sh"
step parity-selftest check - "$S/tests/parity.sh"
step series-applies check - "$S/mktree.sh" --orig
step checkpatch check series-applies "$S/check/checkpatch.sh"
step export-reproducible check series-applies "$S/check/export.sh"
step send-dry-run check series-applies env SEND_NAME="Throwaway Tester" \
	SEND_EMAIL=tester@example.net "$S/send.sh"
step bisect-build full series-applies "$S/check/bisect.sh"
step matrix full series-applies "$S/check/matrix.sh"
step cocci check series-applies "$S/check/cocci.sh"
step sparse check series-applies "$S/check/sparse.sh"
# the standalone stable fix (patches/stable/): the series applies on top
# of it, and its placement test passes on the series' base
step stable-series full series-applies "$S/stable.sh" series
step stable-kunit full series-applies "$S/stable.sh" kunit
# shellcheck disable=SC2086 # a list of fragment names
step build-debug check series-applies env KARCH=x86_64 "$S/build-kernel.sh" $DEBUG_CONFIGS
step harness-guest-paths check build-debug "$S/tests/guest-paths.sh" "$DEBUG_KERNEL"
step kunit check build-debug env HARNESS_KERNEL="$DEBUG_KERNEL" "$S/boot/kunit.sh" x86_64
# the same suites again after boot, from a cgroup of their own (private
# counters), with the ones that need a non-root or a dying memcg
step kunit-memcg check build-debug env HARNESS_KERNEL="$DEBUG_KERNEL" "$S/boot/kunit-memcg.sh"
# the same suites with no spare refs bit (32-bit, KASAN tags), on the
# light KUnit kernel (configs/kunit-min.config)
step kunit-width-0 full series-applies "$S/boot/kunit.sh" --light x86_64 refs-width-0
step smoke check build-debug env HARNESS_KERNEL="$DEBUG_KERNEL" "$S/boot/smoke.sh" "$SMOKE_SECONDS"
step boot-accounting check build-debug env HARNESS_KERNEL="$DEBUG_KERNEL" "$S/boot/accounting.sh" --fg
step boot-refs-api check build-debug env HARNESS_KERNEL="$DEBUG_KERNEL" "$S/boot/refs-api.sh"
step boot-memcg-churn check build-debug env HARNESS_KERNEL="$DEBUG_KERNEL" "$S/boot/memcg-churn.sh" "$CHURN_SECONDS"
# the soak and the churn test with NUMA migration and compaction, and
# with allocation failures (docs/selftests.md); then a kernel broken
# on a migration path, which the migration soak must catch (rebuilds the
# debug kernel's mutated objects, and again after)
step soak-migrate full build-debug env HARNESS_KERNEL="$DEBUG_KERNEL" SOAK_MODE=migrate "$S/boot/soak.sh" 120
step churn-migrate full build-debug env HARNESS_KERNEL="$DEBUG_KERNEL" "$S/boot/memcg-churn.sh" --migrate "$CHURN_SECONDS"
step soak-faults full build-debug env HARNESS_KERNEL="$DEBUG_KERNEL" SOAK_MODE=faults "$S/boot/soak.sh" 120
step churn-faults full build-debug env HARNESS_KERNEL="$DEBUG_KERNEL" "$S/boot/memcg-churn.sh" --faults "$CHURN_SECONDS"
step soak-mutations full build-debug "$S/check/soak-mutations.sh" 120
# ORIG and FG built alike ("base selftests"), for the steps that compare
# the two: the kernel's own selftests, a subset of make selftests (see
# SELFTESTS_CHECK), and the benchmark's quick mode (bench/quick.conf).
step build-orig-fg check series-applies "$S/boot/selftests.sh" --build-only
# shellcheck disable=SC2086 # a list of labels
step selftests-parity full build-orig-fg env HARNESS_SELFTESTS_BUILT=1 "$S/boot/selftests.sh" $SELFTESTS_CHECK
# KCSAN on ORIG and FG under the smoke, churn and soak loads, 30 s each
# (two kernels of their own, "base smp kcsan"; docs/kcsan.md)
step kcsan full series-applies "$S/boot/kcsan.sh" 30
step bench-quick check build-orig-fg env BENCH_CONFIGS="base selftests" "$HARNESS_ROOT/bench/check-quick.sh"

# with_prerequisites STEP...: the steps and, before each, its chain of
# prerequisites, in table order, each once
with_prerequisites() {
	local -A want
	local s n

	for s in "$@"; do
		while [ "$s" != - ]; do
			want[$s]=1
			s=${prereq[$s]}
		done
	done
	for n in "${names[@]}"; do
		[ -z "${want[$n]:-}" ] || echo "$n"
	done
}

selected=()
for n in "${names[@]}"; do
	[ "${tier[$n]}" != check ] || selected+=("$n")
done
case ${1:-} in
--list)
	for n in "${names[@]}"; do
		c=${cmd[$n]% }
		printf '%-20s %-5s %-15s %s\n' "$n" "${tier[$n]}" "${prereq[$n]}" "${c//"$HARNESS_ROOT"\//}"
	done
	exit 0 ;;
--full)
	selected=("${names[@]}") ;;
--only)
	shift
	[ $# -gt 0 ] || die "usage: check.sh --only STEP..."
	for s in "$@"; do
		[ -n "${prereq[$s]+set}" ] || die "no step '$s' (make check-list)"
	done
	mapfile -t selected < <(with_prerequisites "$@") ;;
"") ;;
*) die "usage: check.sh [--full | --only STEP... | --list]" ;;
esac

need_disk "$BUILD_DIR" "$(setting CHECK_DISK_GB)" "make check"
mkdir -p "$BUILD_DIR/logs"
passed=0
failed=0
failures=()
for name in "${selected[@]}"; do
	log=$BUILD_DIR/logs/check-$name.log
	pre=${prereq[$name]}
	printf '%-22s ' "$name"
	if [ "$pre" != - ] && [ "${status[$pre]}" != PASS ]; then
		status[$name]="NOT RUN"
		failed=$((failed + 1))
		failures+=("$name")
		echo "NOT RUN ($pre did not pass)"
		continue
	fi
	start=$SECONDS
	if eval "${cmd[$name]}" >"$log" 2>&1; then
		status[$name]=PASS
		passed=$((passed + 1))
		echo "PASS ($((SECONDS - start)) s)"
	else
		status[$name]=FAIL
		failed=$((failed + 1))
		failures+=("$name")
		echo "FAIL ($((SECONDS - start)) s); last lines of $log:"
		tail -n 25 "$log" | sed 's/^/    /'
		[ "$(free_gib "$BUILD_DIR")" -gt 0 ] ||
			echo "    (less than 1 GiB free in $BUILD_DIR: the disk may be why)"
	fi
done

echo "$passed passed, $failed failed${failures:+ (${failures[*]})} in $((SECONDS / 60)) min $((SECONDS % 60)) s"
[ $failed = 0 ]
