#!/bin/bash
# Boot smoke test: the debug kernel (DEBUG_CONFIGS in lib.sh) under
# mixed memcg pressure with lru_gen switched at runtime
# (scripts/guest/smoke.sh); fails on a guest failure or any kernel splat.
# usage: smoke.sh [SECONDS]
# The debug kernel is built unless HARNESS_KERNEL names it (boot-test.sh).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

seconds=${1:-$(setting SMOKE_SECONDS)}
BOOT_TIMEOUT=${BOOT_TIMEOUT:-$((seconds + 900))} \
	exec "$HARNESS_ROOT/scripts/boot/boot-test.sh" smoke "$HARNESS_ROOT/scripts/guest/smoke.sh" "$seconds"
