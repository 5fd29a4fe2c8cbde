#!/bin/bash
# Boot smoke test: the debug kernel (configs/base + configs/debug) under
# mixed memcg pressure with lru_gen switched at runtime
# (scripts/guest/smoke.sh); fails on a guest failure or any kernel splat.
# usage: smoke.sh [SECONDS]
# SMOKE_CONFIGS ["base debug"]: the config fragments of the kernel to test.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

seconds=${1:-60}
configs=${SMOKE_CONFIGS:-base debug}
# shellcheck disable=SC2086 # a list of fragment names
kernel=$("$HARNESS_ROOT/scripts/build-kernel.sh" $configs)
mkdir -p "$BUILD_DIR/logs"
export CONSOLE_LOG=$BUILD_DIR/logs/smoke-$(arm_name)-${configs// /+}.log
status=0
EXTRA_CMDLINE="page_poison=1 ${EXTRA_CMDLINE:-}" BOOT_TIMEOUT=${BOOT_TIMEOUT:-$((seconds + 900))} \
	"$HARNESS_ROOT/scripts/boot.sh" "$kernel" "$HARNESS_ROOT/scripts/guest/smoke.sh" "$seconds" ||
	status=$?
"$HARNESS_ROOT/scripts/check-console.sh" "$CONSOLE_LOG" || status=1
[ $status = 0 ] || die "smoke test failed (status $status); console: $CONSOLE_LOG"
log "smoke test passed; console: $CONSOLE_LOG"
