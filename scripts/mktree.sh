#!/bin/bash
# Create the kernel git tree: the base as one commit (tag mglru-fg-base),
# then patches/ applied with git am, one commit per patch, on branch
# mglru-fg.  With --orig, also (re)create the base-only worktree that
# SERIES=0 builds from.
#
# Base sources, first match wins: KERNEL_SRC=<git tree> (its HEAD, or
# KERNEL_REF; patches applied with 3-way fallback), else the tarball
# from scripts/get-base.sh (--base 7.2: the stable fix's other base, for
# scripts/stable.sh, which gives its own TREE and PATCH_DIR).  Rerunning is cheap: nothing is redone unless
# the base or patches/ changed.  Commits in the tree that were never
# exported are not thrown away unless FORCE=1.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

export GIT_AUTHOR_NAME="MGLRU-FG harness" GIT_AUTHOR_EMAIL="mglru-fg@localhost"
export GIT_COMMITTER_NAME="$GIT_AUTHOR_NAME" GIT_COMMITTER_EMAIL="$GIT_AUTHOR_EMAIL"

git_tree() { git -C "$TREE" "$@"; }

# What the base is: a commit of the user's tree or the tarball's checksum.
base_id() {
	if [ -n "${KERNEL_SRC:-}" ]; then
		git -C "$KERNEL_SRC" rev-parse --verify "${KERNEL_REF:-HEAD}^{commit}" ||
			die "KERNEL_SRC=$KERNEL_SRC: not a git tree with ${KERNEL_REF:-HEAD}"
	else
		echo "tarball:$(sha256_cached "$tarball")"
	fi
}

import_git() {
	local rev=$1

	log "cloning $KERNEL_SRC ($rev) into $TREE"
	git clone --quiet --shared --no-checkout "$KERNEL_SRC" "$TREE"
	git_tree checkout --quiet -B "$SERIES_BRANCH" "$rev"
}

# The imported base, kept as a bare repository in CACHE_DIR under the
# tarball's checksum: the next import (another clone's, CI's) clones it
# (hard links where it can) instead of unpacking the tarball and hashing
# its 90 000 files again.  $1: the base id (tarball:<sha256>).
base_cache() {
	echo "$CACHE_DIR/base-${1#tarball:}.git"
}

import_tarball() {
	local cache

	cache=$(base_cache "$1")
	if git -C "$cache" rev-parse --quiet --verify "refs/heads/$SERIES_BRANCH" >/dev/null 2>&1; then
		log "importing the base from $cache"
		git clone --quiet --no-checkout "$cache" "$TREE"
		git_tree remote remove origin
		git_tree config gc.auto 0
		with_progress "checking out the base" git_tree reset --quiet --hard "$SERIES_BRANCH"
		return 0
	fi
	log "importing $tarball into $TREE"
	mkdir -p "$TREE"
	with_progress "unpacking $(basename "$tarball")" tar -xJf "$tarball" -C "$TREE" --strip-components=1
	# Debian's tarball ignores every top-level path ("/*" then
	# "!/debian/"), which would hide new files from git add; drop those
	# two lines in the base commit.
	sed -i -e '/^\/\*$/d' -e '/^!\/debian\/$/d' "$TREE/.gitignore"
	git_tree init --quiet -b "$SERIES_BRANCH"
	git_tree config gc.auto 0
	with_progress "adding the base to git" git_tree add -A -f .
	# A fixed date makes the base commit id reproducible.
	GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" GIT_COMMITTER_DATE="2026-01-01T00:00:00Z" \
		git_tree commit --quiet -m "Linux base: $(basename "$tarball")" \
		-m "Imported by scripts/mktree.sh; Debian's top-level '/*' ignore rule removed."
	mkdir -p "$CACHE_DIR"
	rm -rf "$cache.tmp.$$"
	git clone --quiet --bare "$TREE" "$cache.tmp.$$" &&
		mv -T "$cache.tmp.$$" "$cache" 2>/dev/null || rm -rf "$cache.tmp.$$"
}

create_base() {
	local id=$1

	rm -rf "$TREE" "$ORIG_TREE"
	mkdir -p "$BUILD_DIR"
	if [ -n "${KERNEL_SRC:-}" ]; then
		import_git "$id"
	else
		import_tarball "$id"
	fi
	git_tree tag -f "$BASE_TAG" >/dev/null
	git_tree config user.name "$GIT_AUTHOR_NAME"
	git_tree config user.email "$GIT_AUTHOR_EMAIL"
	git_tree config mglru-fg.base-id "$id"
}

apply_series() {
	local p before threeway=() n=0

	[ -n "${KERNEL_SRC:-}" ] && threeway=(--3way)
	git_tree checkout --quiet -f -B "$SERIES_BRANCH" "$BASE_TAG"
	while read -r p; do
		[ -n "$p" ] || continue
		before=$(git_tree rev-parse HEAD)
		if ! git_tree am --quiet "${threeway[@]}" "$p" >&2; then
			git_tree am --abort >/dev/null 2>&1 || true
			git_tree checkout --quiet -f -B "$SERIES_BRANCH" "$BASE_TAG"
			die "patch does not apply: ${p#"$HARNESS_ROOT"/}"
		fi
		# A 3-way "am" of a change the base already has makes no commit.
		if [ "$(git_tree rev-parse HEAD)" = "$before" ]; then
			git_tree checkout --quiet -f -B "$SERIES_BRANCH" "$BASE_TAG"
			die "patch is already in the base (no change): ${p#"$HARNESS_ROOT"/}"
		fi
		n=$((n + 1))
	done < <(series_patches)
	log "applied $n patches on $BASE_TAG"
}

make_orig_worktree() {
	if [ -e "$ORIG_TREE/.git" ] &&
		[ "$(git -C "$ORIG_TREE" rev-parse HEAD)" = "$(git_tree rev-parse "$BASE_TAG")" ]; then
		return 0
	fi
	rm -rf "$ORIG_TREE"
	git_tree worktree prune
	git_tree worktree add --quiet --detach "$ORIG_TREE" "$BASE_TAG"
}

want_orig=0
base_release=7.3
while [ $# -gt 0 ]; do
	case $1 in
	--orig) want_orig=1 ;;
	--base) base_release=$2; shift ;;
	*) die "usage: mktree.sh [--orig] [--base 7.3|7.2]" ;;
	esac
	shift
done

tarball=
if [ "$base_release" != 7.3 ]; then
	unset KERNEL_SRC	# the user's tree is a base for the series only
	tarball=$("$HARNESS_ROOT/scripts/get-base.sh" "$base_release")
elif [ -z "${KERNEL_SRC:-}" ]; then
	tarball=$("$HARNESS_ROOT/scripts/get-base.sh")
fi
id=$(base_id)
if [ ! -d "$TREE/.git" ] || [ "$(git_tree config mglru-fg.base-id || true)" != "$id" ]; then
	create_base "$id"
fi

sid=$(series_id)
head=$(git_tree rev-parse HEAD)
applied=$(git_tree config mglru-fg.series-head || true)
if [ "$(git_tree config mglru-fg.series-id || true)" = "$sid" ]; then
	[ "$head" = "$applied" ] ||
		log "note: $TREE has commits not exported to patches/; building them as they are"
else
	if [ "${FORCE:-0}" != 1 ] && [ -n "$applied" ] && [ "$head" != "$applied" ] &&
		[ "$head" != "$(git_tree rev-parse "$BASE_TAG")" ]; then
		die "patches/ changed and $TREE has commits not in patches/ (run 'make export' first, or FORCE=1 to discard them)"
	fi
	# forget the old series first: if a patch fails to apply, the next run
	# must apply the series again, not mistake the base for work in progress
	git_tree config --unset mglru-fg.series-id || true
	apply_series
	git_tree config mglru-fg.series-id "$sid"
	git_tree config mglru-fg.series-head "$(git_tree rev-parse HEAD)"
fi

[ $want_orig = 1 ] && make_orig_worktree
exit 0
