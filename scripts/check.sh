#!/bin/bash
# The test command ("make check", run by CI): every step is a test that
# passes or fails; the run ends with "N passed, M failed" and exits
# non-zero if anything failed.  Steps whose prerequisites failed are
# counted as failed, not skipped.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

S=$HARNESS_ROOT/scripts
SMOKE_SECONDS=${SMOKE_SECONDS:-60}
CHURN_SECONDS=${CHURN_SECONDS:-60}
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
mkdir -p "$BUILD_DIR/logs"
passed=0
failed=0
failures=()

# step NAME CMD...: run one test, its output in build/logs/check-NAME.log.
step() {
	local name=$1 log=$BUILD_DIR/logs/check-$1.log start=$SECONDS
	shift
	printf '%-22s ' "$name"
	if "$@" >"$log" 2>&1; then
		passed=$((passed + 1))
		echo "PASS ($((SECONDS - start)) s)"
		return 0
	fi
	failed=$((failed + 1))
	failures+=("$name")
	echo "FAIL ($((SECONDS - start)) s); last lines of $log:"
	tail -n 25 "$log" | sed 's/^/    /'
	return 1
}

step harness-selftest "$S/selftest.sh" || true
step parity-selftest "$S/selftests-parity-selftest.sh" || true
if step series-applies "$S/mktree.sh"; then
	step checkpatch "$S/checkpatch.sh" || true
	step export-reproducible "$S/check-export.sh" || true
	step send-dry-run env SEND_NAME="Throwaway Tester" SEND_EMAIL=tester@example.net \
		"$S/send.sh" || true
	step bisect-build "$S/check-bisect.sh" || true
	step config-matrix "$S/check-matrix.sh" || true
	step coccinelle "$S/check-cocci.sh" || true
	step sparse "$S/check-sparse.sh" || true
	# the standalone stable fix (patches/stable/): the series applies on
	# top of it, and its placement test passes on the series' base
	step stable-series "$S/stable.sh" series || true
	step stable-kunit "$S/stable.sh" kunit || true
	# shellcheck disable=SC2086 # a list of fragment names
	if step build-debug "$S/build-kernel.sh" $DEBUG_CONFIGS; then
		# shellcheck disable=SC2086 # a list of fragment names
		step harness-guest-paths "$S/selftest-guest-paths.sh" "$(x86_image $DEBUG_CONFIGS)" || true
		step kunit-x86_64 "$S/kunit.sh" x86_64 || true
		# the same suites with no spare refs bit (32-bit, KASAN tags)
		step kunit-width-0 "$S/kunit.sh" x86_64 refs-width-0 || true
		step boot-smoke "$S/smoke.sh" "$SMOKE_SECONDS" || true
		step boot-accounting "$S/accounting.sh" --fg || true
		step boot-refs-api "$S/refs-api.sh" || true
		step boot-memcg-churn "$S/memcg-churn.sh" "$CHURN_SECONDS" || true
	fi
	# ORIG and FG built alike ("base selftests"), for the steps that compare
	# the two: the kernel's own selftests, a subset of make selftests (see
	# SELFTESTS_CHECK), and the benchmark's quick mode (bench/quick.conf).
	if step build-orig-fg "$S/selftests.sh" --build-only; then
		# shellcheck disable=SC2086 # a list of labels
		step selftests-parity env SELFTESTS_SKIP_BUILD=1 \
			"$S/selftests.sh" $SELFTESTS_CHECK || true
		step bench-quick env BENCH_CONFIGS="base selftests" \
			"$HARNESS_ROOT/bench/check-quick.sh" || true
	fi
else
	failed=$((failed + 1))
	failures+=("checkpatch, build, boot: not run")
fi

echo "$passed passed, $failed failed${failures:+ (${failures[*]})} in $((SECONDS / 60)) min $((SECONDS % 60)) s"
[ $failed = 0 ]
