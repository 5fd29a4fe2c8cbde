#!/bin/bash
# Boot test of memcg reparenting against lockless promotion: short-lived
# memcgs fill page cache that readers in long-lived memcgs keep reading
# while the short-lived ones are removed (scripts/guest/memcg-churn.sh),
# on the debug kernel (DEBUG_VM, DEBUG_LIST, KASAN); boot-test.sh also
# fails on any kernel problem in the console, such as a warning of
# lru_gen_exit_memcg().  The readers (scripts/guest/churn-reader.c) are
# built here, statically, and read by the guest over the 9p root.
# usage: memcg-churn.sh [SECONDS]     (default 60)
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

reader=$(guest_bin churn-reader)
exec "$HARNESS_ROOT/scripts/boot/boot-test.sh" memcg-churn "$HARNESS_ROOT/scripts/guest/memcg-churn.sh" \
	"$reader" "${1:-$(setting CHURN_SECONDS)}"
