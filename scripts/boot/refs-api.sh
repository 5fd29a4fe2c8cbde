#!/bin/bash
# Boot test of what users see of the refs API (patches 11-16): smaps
# "Referenced" and clear_refs, MADV_COLD, MADV_PAGEOUT and THP split
# (scripts/guest/refs-api.sh), on the debug kernel; boot-test.sh also fails
# on any kernel problem in the console.  The guest's helper program
# (scripts/guest/madv.c: mmap, madvise, mincore, smaps, pagemap) is built
# here, statically, and read by the guest over the 9p root.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

madv=$(guest_bin madv)
exec "$HARNESS_ROOT/scripts/boot/boot-test.sh" refs-api "$HARNESS_ROOT/scripts/guest/refs-api.sh" "$madv"
