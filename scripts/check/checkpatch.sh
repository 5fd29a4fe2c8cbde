#!/bin/bash
# Run the kernel's checkpatch.pl --strict on every patch of the series;
# fails on any error, warning or check.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

need_tree
# checkpatch runs scripts/spdxcheck.py with the first python3 on PATH; make
# it Debian's, which has python3-ply, not a private one without it.
PATH=/usr/bin:$PATH
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
# check PATCH [OPTION...]: checkpatch into $tmp/N, as many at once as
# there are CPUs (each checkpatch.pl is one process)
check() {
	local p=$1
	shift
	n=$((n + 1))
	echo "$p" >"$tmp/$n.patch"
	(cd "$TREE" && ./scripts/checkpatch.pl --strict --quiet --no-summary \
		--show-types "$@" "$p" >"$tmp/$n.out" 2>&1 || echo "exit $?" >>"$tmp/$n.out") &
	[ "$(jobs -rp | wc -l)" -lt "$(nproc)" ] || wait -n || true
}
while read -r p; do
	check "$p"
done < <(series_patches)
# The stable fix, its backport, test and the series' patches rebased on
# it.  The fix's Fixes: tag names a commit that the tarball base, one
# commit without history, cannot resolve (id and subject as the review
# gave them, see docs/stable.md).
while read -r p; do
	check "$p" --ignore UNKNOWN_COMMIT_ID
done < <(find "$PATCH_DIR/stable" -name '*.patch' | sort)
wait
bad=0
for ((i = 1; i <= n; i++)); do
	[ -s "$tmp/$i.out" ] || continue
	p=$(cat "$tmp/$i.patch")
	log "checkpatch --strict: ${p#"$HARNESS_ROOT"/}:"
	cat "$tmp/$i.out" >&2
	bad=$((bad + 1))
done
log "checkpatch --strict: $n patches, $bad with findings"
[ $bad = 0 ]
