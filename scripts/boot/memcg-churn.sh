#!/bin/bash
# Boot test of memcg reparenting against lockless promotion: short-lived
# memcgs fill page cache that readers in long-lived memcgs keep reading
# while the short-lived ones are removed (scripts/guest/memcg-churn.sh),
# on the debug kernel (DEBUG_VM, DEBUG_LIST, KASAN); boot-test.sh also
# fails on any kernel problem in the console, such as a warning of
# lru_gen_exit_memcg().  The readers (scripts/guest/churn-reader.c) are
# built here, statically, and read by the guest over the 9p root.
# --migrate: two NUMA nodes (numa=fake=2), and scripts/guest/migrator.c
# moves the file's cached folios and the readers' pages between them
# while vm.compact_memory is written every 2 s.
# --faults: the short-lived memcgs' creation and read and the readers
# run with 1 % of their slab and page allocations failing
# (configs/faults.config; scripts/guest/fault-mkdir.c).
# usage: memcg-churn.sh [--migrate | --faults] [SECONDS]     (default CHURN_SECONDS)
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

name=memcg-churn
mode=()
case ${1:-} in
--migrate)
	shift
	name=memcg-churn-migrate
	mode=(migrate "$(guest_bin migrator)")
	export HARNESS_CMDLINE="${HARNESS_CMDLINE:-} numa=fake=2"
	;;
--faults)
	shift
	name=memcg-churn-faults
	mode=(faults "$(guest_bin fault-mkdir)")
	;;
esac
reader=$(guest_bin churn-reader)
exec "$HARNESS_ROOT/scripts/boot/boot-test.sh" $name "$HARNESS_ROOT/scripts/guest/memcg-churn.sh" \
	"$reader" "${1:-$(setting CHURN_SECONDS)}" "${mode[@]}"
