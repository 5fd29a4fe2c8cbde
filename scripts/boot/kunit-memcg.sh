#!/bin/bash
# KUnit in cgroups of its own: boot the debug kernel (whose built-in suites
# run at boot, charged to the root memcg) and run every lru_gen suite again
# through debugfs from a cgroup of its own, then lru_gen_memcg_dying after
# removing that cgroup (scripts/guest/kunit-memcg.sh).  There the suites
# measure on the cgroup's private generation sizes and refault counters,
# and the suites that skip at boot run: those that need a non-root memcg,
# and lru_gen_classic, with the multi-gen LRU switched off while it runs.
# Fails as scripts/check/kunit-results.sh does, on every case of the
# suites: none may skip.
# Internal: HARNESS_KERNEL, HARNESS_KSRC as for boot-test.sh.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

src=${HARNESS_KSRC:-$TREE}
[ -n "${HARNESS_KSRC:-}" ] || need_tree
out=$(mktemp -d "$BUILD_DIR/kunit-memcg.XXXXXX")
trap 'rm -rf "$out"' EXIT
ktap=$BUILD_DIR/logs/kunit-memcg.ktap
HARNESS_OUT_DIR=$out "$HARNESS_ROOT/scripts/boot/boot-test.sh" kunit-memcg \
	"$HARNESS_ROOT/scripts/guest/kunit-memcg.sh" /mnt/out/kunit.ktap
cp "$out/kunit.ktap" "$ktap" 2>/dev/null || die "the guest wrote no KUnit results"
# boot-test.sh checked the console
exec "$HARNESS_ROOT/scripts/check/kunit-results.sh" memcg "$ktap" "$(kunit_case_count "$src")"
