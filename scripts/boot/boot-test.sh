#!/bin/bash
# Boot a kernel under QEMU, run one guest script, and fail on a guest
# failure or any kernel splat in the console.
# usage: boot-test.sh NAME GUEST-SCRIPT [ARG...]
# Internal hand-offs (set by the scripts that call this one, never by a
# user): HARNESS_KERNEL, the image to boot, as built by the caller (make
# check's build-debug); else HARNESS_CONFIGS [$DEBUG_CONFIGS], the config
# fragments of the kernel to build first (with HARNESS_KSRC/HARNESS_KOBJ as for
# build-kernel.sh); HARNESS_CONSOLE_OPTS, options of scripts/check/console.sh
# (e.g. --ignore-kcsan).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

[ $# -ge 2 ] || die "usage: boot-test.sh NAME GUEST-SCRIPT [ARG...]"
name=$1
shift
configs=${HARNESS_CONFIGS:-$DEBUG_CONFIGS}
if [ -n "${HARNESS_KERNEL:-}" ]; then
	kernel=$HARNESS_KERNEL
	[ -f "$kernel" ] || die "HARNESS_KERNEL=$kernel: no such image"
else
	[ -n "${HARNESS_KSRC:-}" ] || need_tree
	# shellcheck disable=SC2086 # a list of fragment names
	kernel=$("$HARNESS_ROOT/scripts/build-kernel.sh" $configs)
fi
mkdir -p "$BUILD_DIR/logs"
HARNESS_CONSOLE_LOG=$BUILD_DIR/logs/$name-$(arm_name)-${configs// /+}.log
export HARNESS_CONSOLE_LOG
status=0
HARNESS_CMDLINE="$DEBUG_CMDLINE ${HARNESS_CMDLINE:-}" BOOT_TIMEOUT=${BOOT_TIMEOUT:-900} \
	"$HARNESS_ROOT/scripts/boot/boot.sh" "$kernel" "$@" || status=$?
# shellcheck disable=SC2086 # a list of options
"$HARNESS_ROOT/scripts/check/console.sh" ${HARNESS_CONSOLE_OPTS:-} "$HARNESS_CONSOLE_LOG" || status=1
[ $status = 0 ] || die "$name failed (status $status); console: $HARNESS_CONSOLE_LOG"
log "$name passed; console: $HARNESS_CONSOLE_LOG"
