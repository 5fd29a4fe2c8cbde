#!/bin/bash
# Boot smoke test: the debug kernel (DEBUG_CONFIGS in lib.sh) under
# mixed memcg pressure with lru_gen switched at runtime
# (scripts/guest/smoke.sh); fails on a guest failure or any kernel splat.
# usage: smoke.sh [SECONDS]
# SMOKE_CONFIGS [$DEBUG_CONFIGS]: the config fragments of the kernel to test.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

seconds=${1:-60}
CONFIGS=${SMOKE_CONFIGS:-$DEBUG_CONFIGS} BOOT_TIMEOUT=${BOOT_TIMEOUT:-$((seconds + 900))} \
	exec "$HARNESS_ROOT/scripts/boot-test.sh" smoke "$HARNESS_ROOT/scripts/guest/smoke.sh" "$seconds"
