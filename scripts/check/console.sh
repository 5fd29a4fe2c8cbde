#!/bin/bash
# Fail if a console log shows a kernel problem: WARN, BUG, Oops, panic,
# KASAN/KFENCE/UBSAN reports, lockdep splats, RCU stalls, hung tasks,
# soft lockups, list or page-state corruption.
# --ignore-kcsan: KCSAN's reports (each from its "BUG: KCSAN:" line to its
# closing rule) are left out, for the KCSAN runs, which compare them
# between the arms (scripts/boot/kcsan.sh); any other problem still fails.
# usage: console.sh [--ignore-kcsan] LOG
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

ignore_kcsan=0
if [ "${1:-}" = --ignore-kcsan ]; then
	ignore_kcsan=1
	shift
fi
[ $# -eq 1 ] && [ -f "$1" ] || die "usage: console.sh [--ignore-kcsan] LOG"

PATTERNS=(
	'WARNING:' 'BUG:' 'Oops' 'Kernel panic' 'kernel BUG at'
	'general protection fault' 'Call Trace:'
	'KASAN:' 'KFENCE:' 'UBSAN:'
	'possible circular locking' 'possible recursive locking'
	'inconsistent lock state' 'suspicious RCU usage'
	'turning off the locking correctness validator'
	'rcu: INFO:' 'detected stall' 'blocked for more than' 'soft lockup'
	'list_add corruption' 'list_del corruption' 'Bad page' 'page dumped because'
	'Out of memory: Killed process'
)
args=()
for p in "${PATTERNS[@]}"; do args+=(-e "$p"); done
# The console, less KCSAN's reports with --ignore-kcsan (line numbers kept).
console() {
	tr -d '\r' <"$1" | awk -v ignore=$ignore_kcsan '
		ignore && /BUG: KCSAN: / { skip = 1 }
		{ print (skip ? "" : $0) }
		skip && /====================/ && !/BUG: KCSAN: / { skip = 0 }'
}
# stress-ng's own "WARNING: finished prematurely" (a stressor whose
# allocations failed, under fault injection) is the guest's, not the
# kernel's.
if hits=$(console "$1" | grep -n -F "${args[@]}" |
	grep -v -E '^[0-9]+:stress-ng: [a-z]+: +\[[0-9]+\] [a-z0-9-]+: WARNING: finished prematurely'); then
	log "kernel problems in $1:"
	printf '%s\n' "$hits" | sed -n 1,40p >&2
	exit 1
fi
