#!/bin/bash
# The main job: build the kernel (base + series unless SERIES=0), boot it
# under QEMU and run the memcg Zipf demo (scripts/guest/demo.sh).
# usage: demo.sh [SECONDS]
# The terminal gets the demo's own output; the whole console (boot log
# included) goes to build/logs/demo-<arm>.log, or also to the terminal
# with VERBOSE=1.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

seconds=${1:-$(setting DEMO_SECONDS)}
case ${KARCH:-x86_64} in
x86_64) ;;
arm64) exec "$HARNESS_ROOT/scripts/boot/demo-arm64.sh" "$seconds" ;;
*) die "no demo for KARCH=$KARCH (x86_64 or arm64; make kunit KARCH=$KARCH runs the KUnit suites)" ;;
esac
log "building the kernel (up to 35 min cold on 2 cores, 1 min with a warm ccache)"
# HARNESS_DEMO_CONFIGS (internal): scripts/stable.sh boots the bench's kernel
[ -n "${HARNESS_KSRC:-}" ] || need_tree
# shellcheck disable=SC2086 # a list of fragment names
kernel=$("$HARNESS_ROOT/scripts/build-kernel.sh" ${HARNESS_DEMO_CONFIGS:-base})
mkdir -p "$BUILD_DIR/logs"
HARNESS_CONSOLE_LOG=$BUILD_DIR/logs/demo-$(arm_name).log
export HARNESS_CONSOLE_LOG
# configs/base has no ACPI, so an x86 guest brings up one CPU whatever
# -smp says: ask for that one.
export CPUS=${CPUS:-1}
quiet=1
[ "${VERBOSE:-0}" = 1 ] && quiet=0
log "booting it for a ${seconds} s demo; console: $HARNESS_CONSOLE_LOG"
status=0
HARNESS_QUIET=$quiet BOOT_TIMEOUT=${BOOT_TIMEOUT:-$((seconds + 600))} \
	"$HARNESS_ROOT/scripts/boot/boot.sh" "$kernel" "$HARNESS_ROOT/scripts/guest/demo.sh" "$seconds" ||
	status=$?
[ $quiet = 0 ] || guest_output "$HARNESS_CONSOLE_LOG"
[ $status = 0 ] || die "demo failed in the guest (exit $status); console: $HARNESS_CONSOLE_LOG"
"$HARNESS_ROOT/scripts/check/console.sh" "$HARNESS_CONSOLE_LOG"
log "demo done; console: $HARNESS_CONSOLE_LOG"
