#!/bin/bash
# Stress soak: the debug kernel (DEBUG_CONFIGS in lib.sh: DEBUG_VM,
# lockdep, KASAN) under stress-ng's memory stressors in a small memcg for
# SECONDS, while lru_gen is flipped at runtime and child memcgs with
# readers are created and removed (reparenting); then the memcg's LRU
# counters are checked against its generations and its file/anon totals
# (scripts/guest/soak.sh).  Fails on a guest failure or any kernel splat
# in the console (scripts/check/console.sh, via boot-test.sh).
# usage: soak.sh [SECONDS]      (default 300)
# The debug kernel is built unless HARNESS_KERNEL names it (boot-test.sh).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

seconds=${1:-$(setting SOAK_SECONDS)}
BOOT_TIMEOUT=${BOOT_TIMEOUT:-$((seconds + 900))} \
	exec "$HARNESS_ROOT/scripts/boot/boot-test.sh" soak "$HARNESS_ROOT/scripts/guest/soak.sh" "$seconds"
