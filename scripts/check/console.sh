#!/bin/bash
# Fail if a console log shows a kernel problem: WARN, BUG, Oops, panic,
# KASAN/KFENCE/UBSAN reports, lockdep splats, RCU stalls, hung tasks,
# soft lockups, list or page-state corruption.
# usage: check-console.sh LOG
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

[ $# -eq 1 ] && [ -f "$1" ] || die "usage: check-console.sh LOG"

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
# stress-ng's own messages ("stress-ng: warn: ... WARNING: finished
# prematurely", under fault injection) are the guest's, not the kernel's.
if hits=$(tr -d '\r' <"$1" | grep -n -F "${args[@]}" | grep -v '^[0-9]*:stress-ng: '); then
	log "kernel problems in $1:"
	printf '%s\n' "$hits" | sed -n 1,40p >&2
	exit 1
fi
