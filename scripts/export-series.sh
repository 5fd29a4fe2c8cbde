#!/bin/bash
# Export the series (mglru-fg-base..mglru-fg in the kernel tree) into
# patches/ with git format-patch, plus a cover letter whose text comes
# from docs/cover-letter.txt (first line: subject).  The same commits give
# byte-identical files: zero commit hashes, no version signature, fixed
# abbreviation, and the cover letter dated like the newest patch.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ -d "$TREE/.git" ] || die "no kernel tree at $TREE (make tree)"
git_tree() { git -C "$TREE" "$@"; }
range="$BASE_TAG..$SERIES_BRANCH"
count=$(git_tree rev-list --count "$range")

# A base that is a git commit goes into the cover letter as base-commit; a
# tarball has no upstream commit id here, so the cover letter names it.
base_id=$(git_tree config mglru-fg.base-id || true)
base_args=(--no-base)
base_text=
case $base_id in
tarball:*)
	. "$HARNESS_ROOT/scripts/base.env"
	sum=${base_id#tarball:}
	if [ "$sum" = "$BASE_SHA256" ]; then
		base_text="Base: Linux $BASE_UPSTREAM as packaged by Debian ($BASE_PACKAGE $BASE_VERSION, $BASE_TARBALL_NAME, sha256 $sum); no base-commit, as the tarball has no upstream commit id."
	else
		base_text="Base: a kernel tarball with sha256 $sum; no base-commit, as a tarball has no upstream commit id."
	fi ;;
?*)
	base_args=(--base="$base_id") ;;
esac

mkdir -p "$PATCH_DIR"
find "$PATCH_DIR" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' -delete
if [ "$count" -gt 0 ]; then
	cover=()
	if [ -f "$HARNESS_ROOT/docs/cover-letter.txt" ]; then
		# The cover letter comes from the series' first author.
		first=$(git_tree rev-list --reverse "$range" | sed -n 1p)
		description=$(cat "$HARNESS_ROOT/docs/cover-letter.txt")
		[ -z "$base_text" ] || description+=$'\n\n'$(fold -s -w 72 <<<"$base_text" | sed 's/ *$//')
		cover=(-c "branch.$SERIES_BRANCH.description=$description"
			-c "user.name=$(git_tree log -1 --format=%an "$first")"
			-c "user.email=$(git_tree log -1 --format=%ae "$first")")
	fi
	git_tree -c core.abbrev=12 -c diff.renames=true -c diff.algorithm=default \
		-c format.signature= -c format.coverLetter=false "${cover[@]}" \
		format-patch --quiet --zero-commit --no-signature \
		--subject-prefix="PATCH v$SERIES_VERSION" "${base_args[@]}" \
		${cover:+--cover-letter --cover-from-description=subject} \
		-o "$PATCH_DIR" "$range"
	if [ -f "$PATCH_DIR/0000-cover-letter.patch" ]; then
		date=$(git_tree log -1 --format='%aD' "$SERIES_BRANCH")
		sed -i "0,/^Date: /s/^Date: .*/Date: $date/" "$PATCH_DIR/0000-cover-letter.patch"
	fi
fi

# Record that tree and patches/ agree, so mktree.sh leaves the tree alone.
sid=$(series_id)
git_tree config mglru-fg.series-id "$sid"
git_tree config mglru-fg.series-head "$(git_tree rev-parse "$SERIES_BRANCH")"
log "exported $count patches to ${PATCH_DIR#"$HARNESS_ROOT"/}"
