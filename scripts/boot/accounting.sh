#!/bin/bash
# Boot test of the LRU accounting (scripts/guest/accounting.sh): active +
# inactive equal the pages on the generations while aging, after code
# outside the LRU changed PG_referenced (madv refs-user), and under load.
# With --fg, active/inactive follow refs (patch 10 on).  The guest's helper
# program, scripts/guest/madv.c, is built here.
# usage: accounting.sh [--fg] [NAME]      (NAME of the logs: accounting)
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

mode=()
if [ "${1:-}" = --fg ]; then
	mode=(--fg)
	shift
fi
madv=$(guest_bin madv)
exec "$HARNESS_ROOT/scripts/boot/boot-test.sh" "${1:-accounting}" \
	"$HARNESS_ROOT/scripts/guest/accounting.sh" "${mode[@]}" "$madv"
