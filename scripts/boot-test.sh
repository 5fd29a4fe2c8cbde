#!/bin/bash
# Build a kernel, boot it under QEMU, run one guest script, and fail on a
# guest failure or any kernel splat in the console.
# usage: boot-test.sh NAME GUEST-SCRIPT [ARG...]
# CONFIGS [$DEBUG_CONFIGS]: the config fragments of the kernel to test.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -ge 2 ] || die "usage: boot-test.sh NAME GUEST-SCRIPT [ARG...]"
name=$1
shift
configs=${CONFIGS:-$DEBUG_CONFIGS}
# shellcheck disable=SC2086 # a list of fragment names
kernel=$("$HARNESS_ROOT/scripts/build-kernel.sh" $configs)
mkdir -p "$BUILD_DIR/logs"
export CONSOLE_LOG=$BUILD_DIR/logs/$name-$(arm_name)-${configs// /+}.log
status=0
EXTRA_CMDLINE="$DEBUG_CMDLINE ${EXTRA_CMDLINE:-}" BOOT_TIMEOUT=${BOOT_TIMEOUT:-900} \
	"$HARNESS_ROOT/scripts/boot.sh" "$kernel" "$@" || status=$?
"$HARNESS_ROOT/scripts/check-console.sh" "$CONSOLE_LOG" || status=1
[ $status = 0 ] || die "$name failed (status $status); console: $CONSOLE_LOG"
log "$name passed; console: $CONSOLE_LOG"
