#!/bin/bash
# Stress soak: the debug kernel (DEBUG_CONFIGS in lib.sh: DEBUG_VM,
# lockdep, KASAN) under stress-ng's memory stressors in a small memcg for
# SECONDS, while lru_gen is flipped at runtime and child memcgs with
# readers are created and removed (reparenting); then the memcg's LRU
# counters are checked against its generations and its file/anon totals
# (scripts/guest/soak.sh).  Fails on a guest failure or any kernel splat
# in the console (scripts/check/console.sh, via boot-test.sh).
# SOAK_MODE (settings.txt) adds a load:
#   plain    nothing more;
#   migrate  two NUMA nodes (numa=fake=2, configs/numa.config), and
#            scripts/guest/migrator.c moves the children's cached file
#            folios and every page of the soak's processes between them
#            while vm.compact_memory is written every 2 s;
#   faults   allocations of the workload's tasks fail at random
#            (failslab, fail_page_alloc; configs/faults.config), and so
#            does the creation of the child memcgs
#            (scripts/guest/fault-mkdir.c).
# usage: soak.sh [SECONDS]      (default SOAK_SECONDS)
# The debug kernel is built unless HARNESS_KERNEL names it (boot-test.sh).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

seconds=${1:-$(setting SOAK_SECONDS)}
mode=$(setting SOAK_MODE)
args=("$seconds" "$mode")
case $mode in
plain) ;;
migrate)
	args+=("$(guest_bin migrator)")
	export HARNESS_CMDLINE="${HARNESS_CMDLINE:-} numa=fake=2"
	;;
faults) args+=("$(guest_bin fault-mkdir)") ;;
*) die "SOAK_MODE=$mode: expected plain, migrate or faults" ;;
esac
name=soak
[ "$mode" = plain ] || name=soak-$mode
BOOT_TIMEOUT=${BOOT_TIMEOUT:-$((seconds + 900))} \
	exec "$HARNESS_ROOT/scripts/boot/boot-test.sh" $name "$HARNESS_ROOT/scripts/guest/soak.sh" "${args[@]}"
