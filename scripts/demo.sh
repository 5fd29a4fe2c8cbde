#!/bin/bash
# The main job: build the kernel (base + series unless SERIES=0), boot it
# under QEMU and run the memcg Zipf demo (scripts/guest/demo.sh).
# usage: demo.sh [SECONDS]
set -euo pipefail
. "$(dirname "$0")/lib.sh"

seconds=${1:-30}
kernel=$("$HARNESS_ROOT/scripts/build-kernel.sh" base)
mkdir -p "$BUILD_DIR/logs"
export CONSOLE_LOG=$BUILD_DIR/logs/demo-$(arm_name).log
BOOT_TIMEOUT=${BOOT_TIMEOUT:-$((seconds + 600))} \
	"$HARNESS_ROOT/scripts/boot.sh" "$kernel" "$HARNESS_ROOT/scripts/guest/demo.sh" "$seconds" ||
	die "demo failed in the guest (exit $?); console: $CONSOLE_LOG"
"$HARNESS_ROOT/scripts/check-console.sh" "$CONSOLE_LOG"
log "demo done; console: $CONSOLE_LOG"
