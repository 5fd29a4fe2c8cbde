#!/bin/bash
# Run the kernel's checkpatch.pl --strict on every patch of the series;
# fails on any error, warning or check.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

"$HARNESS_ROOT/scripts/mktree.sh"
# checkpatch runs scripts/spdxcheck.py with the first python3 on PATH; make
# it Debian's, which has python3-ply, not a private one without it.
PATH=/usr/bin:$PATH
n=0
bad=0
while read -r p; do
	n=$((n + 1))
	if ! out=$(cd "$TREE" && ./scripts/checkpatch.pl --strict --quiet \
		--no-summary --show-types "$p" 2>&1) || [ -n "$out" ]; then
		log "checkpatch --strict: ${p#"$HARNESS_ROOT"/}:"
		printf '%s\n' "$out" >&2
		bad=$((bad + 1))
	fi
done < <(series_patches)
log "checkpatch --strict: $n patches, $bad with findings"
[ $bad = 0 ]
