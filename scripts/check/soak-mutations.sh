#!/bin/bash
# Mutation check of the soak's accounting check: break the kernel on a
# path one soak mode exercises (scripts/soak-mutations/*.diff, applied to
# the tree's working copy; a "soak-mode: MODE" line before the diff names
# the mode), boot the soak in that mode, and report whether its
# accounting check caught it (a "soak: ..." line saying what differs).
# Fails if any mutation is not caught: a soak that fails otherwise (a
# build error, a console splat alone) does not count.  Each run rebuilds
# only the mutated objects of the debug kernel, and so does the rebuild
# from the tree at the end.
#
# usage: soak-mutations.sh [SECONDS] [MUTATION.diff...]   (default: 120 s, all)
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

seconds=120
if [[ ${1:-} =~ ^[0-9]+$ ]]; then
	seconds=$1
	shift
fi
[ $# -gt 0 ] || set -- "$HARNESS_ROOT"/scripts/soak-mutations/*.diff
need_tree
[ -z "$(git -C "$TREE" status --porcelain --untracked-files=no)" ] ||
	die "$TREE has uncommitted changes: commit or stash them first"

restore() { git -C "$TREE" checkout --quiet -- .; }
# Leave the debug kernel built from the tree again, for whoever boots it
# next (make check's steps boot the image build-debug made).
rebuild() {
	restore
	# shellcheck disable=SC2086 # a list of fragment names
	"$HARNESS_ROOT/scripts/build-kernel.sh" $DEBUG_CONFIGS >/dev/null ||
		die "the debug kernel did not build again from the tree: its image is a mutant's"
}
trap rebuild EXIT

missed=0
for m in "$@"; do
	[ -f "$m" ] || die "no mutation $m"
	mode=$(sed -n 's/^soak-mode: *//p' "$m")
	[ -n "$mode" ] || die "$m: no \"soak-mode: MODE\" line"
	git -C "$TREE" apply "$(realpath "$m")" || die "mutation does not apply: $m"
	out=$(SOAK_MODE=$mode "$HARNESS_ROOT/scripts/boot/soak.sh" "$seconds" 2>&1 || true)
	restore
	console=$(sed -n 's/.*console: \(.*\)$/\1/p' <<<"$out" | tail -1)
	caught=
	[ -f "$console" ] &&
		caught=$(tr -d '\r' <"$console" | grep -E '^soak: .*(!=|outside|differ)' | head -3 || true)
	if [ -z "$caught" ]; then
		missed=$((missed + 1))
		printf '%s: NOT CAUGHT by the %s soak (soak.sh: %s)\n' "${m##*/}" "$mode" "$(tail -1 <<<"$out")"
	else
		printf '%s: caught by the %s soak:\n%s\n' "${m##*/}" "$mode" "$caught"
	fi
done
log "$# mutations, $missed not caught"
[ "$missed" = 0 ]
