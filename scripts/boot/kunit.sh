#!/bin/bash
# KUnit: build a kernel with the series' KUnit suites (lru_gen_*), boot it
# under QEMU (TCG) with no root file system (built-in suites run at boot,
# then kunit_shutdown=reboot ends the guest, as QEMU runs with -no-reboot)
# and parse the KTAP output with the kernel's tools/testing/kunit/kunit.py.
#
# usage: kunit.sh [--light] [x86_64|i386|arm64] [FRAGMENT...]   (default x86_64)
#
# The kernel: x86_64's is the debug kernel of the boot tests (KASAN,
# lockdep; DEBUG_CONFIGS in lib.sh), or with --light a small one
# (configs/kunit-min.config: tinyconfig with what the suites need and
# DEBUG_VM), for runs whose point is another config, such as refs-width-0.
#
# FRAGMENTs of configs/ are added to the architecture's, e.g.,
# refs-width-0 runs the suites with no spare refs bit (LRU_REFS_WIDTH 0,
# refs saturate at 3), whose branches the default build never reaches.
#
# Fails if the series' mm/tests/.kunitconfig does not configure on the
# architecture (kunit.py config), or as scripts/check/kunit-results.sh
# does: a test fails or is skipped, the number of tests that ran is not
# the number of KUNIT_CASE()s in the suites (but those of the suites that
# need a non-root memcg or the multi-gen LRU off, which skip at boot:
# scripts/boot/kunit-memcg.sh runs them), no KTAP output, or a kernel
# problem in the console.
# Environment: MEM [1G], CPUS [2], ACCEL, BOOT_TIMEOUT [600], KUNIT_GLOB
# [lru_gen_*]; internal: HARNESS_KSRC/HARNESS_KOBJ as for build-kernel.sh, HARNESS_KERNEL
# (the image, already built from the same fragments).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

light=0
if [ "${1:-}" = --light ]; then
	light=1
	shift
fi
arch=${1:-x86_64}
shift $(($# > 0))
extra_fragments=$*
variant=${HARNESS_ARM:+$HARNESS_ARM-}$arch${extra_fragments:+-${extra_fragments// /+}}
BOOT_TIMEOUT=${BOOT_TIMEOUT:-600}
KUNIT_GLOB=${KUNIT_GLOB:-lru_gen_*}

case $light-$arch in
0-x86_64)
	fragments=$DEBUG_CONFIGS	# the boot tests' kernel
	extra=$DEBUG_CMDLINE ;;	# as the boot tests of this kernel
1-x86_64)
	# tinyconfig with what the suites need and the mm sanity checks, no
	# KASAN or lockdep (the debug kernel runs the suites with those): a
	# third of the debug kernel's cold build
	fragments="kunit-min"
	extra= ;;
0-i386)
	fragments="i386 debug i386-kunit"
	extra= ;;
0-arm64)
	fragments="arm64 debug kunit"
	extra= ;;
*) die "usage: kunit.sh [--light] [x86_64|i386|arm64] [FRAGMENT...]  (--light: x86_64 only)" ;;
esac
[ $light = 0 ] || variant=$variant-light
load_arch "$arch"
accel=$(qemu_accel)

src=${HARNESS_KSRC:-$TREE}
[ -n "${HARNESS_KSRC:-}" ] || need_tree
expected=$(kunit_case_count "$src")

# The series ships mm/tests/.kunitconfig for "kunit.py run --kunitconfig=
# mm/tests": its options must all survive the kernel's own config step for
# this architecture, as kunit.py checks before it builds.
kc=$(mktemp -d)
kc_args=(--arch="$arch")
[ "$arch" = arm64 ] && kc_args+=(--cross_compile=aarch64-linux-gnu-)
kc_status=0
(cd "$src" && python3 tools/testing/kunit/kunit.py config "${kc_args[@]}" \
	--kunitconfig=mm/tests --build_dir="$kc/build") >"$kc/log" 2>&1 || kc_status=$?
[ "$kc_status" = 0 ] || tail -5 "$kc/log" >&2
rm -rf "$kc"
[ "$kc_status" = 0 ] ||
	die "mm/tests/.kunitconfig does not configure on $arch (kunit.py config, above)"
log "mm/tests/.kunitconfig configures on $arch"

if [ -n "${HARNESS_KERNEL:-}" ]; then
	# built by the caller (make check's build-debug) from the same fragments
	kernel=$HARNESS_KERNEL
	[ -f "$kernel" ] || die "HARNESS_KERNEL=$kernel: no such image"
else
	# shellcheck disable=SC2086
	kernel=$(KARCH=$arch "$HARNESS_ROOT/scripts/build-kernel.sh" $fragments $extra_fragments)
fi

mkdir -p "$BUILD_DIR/logs"
con=$BUILD_DIR/logs/kunit-$variant.log
log "booting $kernel ($arch, $accel), console in $con"
qemu_cmd "$accel" "$kernel" "$extra panic=-1 kunit.filter_glob=$KUNIT_GLOB kunit_shutdown=reboot"
status=0
timeout --foreground -k 10 "$BOOT_TIMEOUT" "${QEMU_CMD[@]}" </dev/null >"$con" 2>&1 || status=$?
[ $status = 124 ] && die "the guest did not power off within $BOOT_TIMEOUT s, see $con"
[ $status = 0 ] || die "QEMU failed (status $status), see $con"

# The suites that need a non-root memcg or the multi-gen LRU off skip at
# boot (kunit-memcg runs them).
exec "$HARNESS_ROOT/scripts/check/kunit-results.sh" --skip-suites "$KUNIT_LATE_SUITES" \
	"$variant" "$con" $((expected - $(kunit_case_count "$src" "$KUNIT_LATE_CASES")))
