#!/bin/bash
# The standalone stable fix of the refs == 1 placement (patches/stable/):
# its tree, its KUnit test, the demo on it, and the series on top of it.
#
# usage: stable.sh tree|kunit|demo|series|on-fix|export
#   tree    the base, the fix and its KUnit test (test/ beside the fix) on
#           branch stable-fix-$STABLE_BASE in build/linux-stable-$STABLE_BASE;
#           prints the tree's path
#   kunit   build the light KUnit kernel of that tree (configs/kunit-min)
#           and run the placement test
#   demo    build that tree as the bench's FIXED arm (base smp) and boot
#           the demo in it
#   series  (7.3) the series applied on top of the fix, with the patches of
#           patches/stable/on-fix/ in place of the series' patches of the
#           same number; fails unless it ends in the series' own tree
#   on-fix  (7.3) rewrite patches/stable/on-fix/0009-*.patch from the trees:
#           the series' patch 9, with its message, as the change from the
#           fix and patches 1-8 (on-fix/0007 for 7) to the series' own tree
#           after patch 9; run it after changing patch 9 and exporting
#   export  write the stable tree's two commits back into the patch files
# STABLE_BASE: 7.3 (default; patches/stable/) or 7.2 (patches/stable/7.2/,
# Debian sid's linux-source-7.2, see scripts/base.env).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

STABLE_BASE=${STABLE_BASE:-7.3}
case $STABLE_BASE in
7.3) fix_dir=$PATCH_DIR/stable base_repo=$TREE ;;
7.2) fix_dir=$PATCH_DIR/stable/7.2 base_repo=$BUILD_DIR/linux-7.2 ;;
*) die "STABLE_BASE=$STABLE_BASE: use one of: 7.3 7.2" ;;
esac
test_dir=$fix_dir/test
on_fix_dir=$PATCH_DIR/stable/on-fix
stable_tree=$BUILD_DIR/linux-stable-$STABLE_BASE
branch=stable-fix-$STABLE_BASE
obj_prefix=$BUILD_DIR/obj/stable-$STABLE_BASE

# one_patch DIR: the single patch in DIR
one_patch() {
	local p

	p=$(find "$1" -maxdepth 1 -name '0001-*.patch')
	[ -n "$p" ] && [ "$(wc -l <<<"$p")" = 1 ] || die "want exactly one 0001-*.patch in ${1#"$HARNESS_ROOT"/}"
	echo "$p"
}

# The base repository: the series' tree for 7.3, a base-only import for 7.2.
make_base_repo() {
	if [ "$STABLE_BASE" = 7.3 ]; then
		need_tree
	else
		# PATCH_DIR with no patches: mktree.sh imports the base alone
		HARNESS_TREE=$base_repo HARNESS_PATCH_DIR=$BUILD_DIR/no-patches \
			"$HARNESS_ROOT/scripts/mktree.sh" --base "$STABLE_BASE"
	fi
}

make_stable_tree() {
	local fix test stamp git_st=(git -C "$stable_tree")

	fix=$(one_patch "$fix_dir")
	test=$(one_patch "$test_dir")
	make_base_repo
	stamp=$(cat "$fix" "$test" | sha256sum | cut -d' ' -f1)
	if [ -e "$stable_tree/.git" ] &&
		[ "$(git -C "$base_repo" config "mglru-fg.stable${STABLE_BASE/./}" || true)" = "$stamp" ]; then
		return 0
	fi
	if [ ! -e "$stable_tree/.git" ]; then
		git -C "$base_repo" worktree prune
		git -C "$base_repo" worktree add --quiet -f -B "$branch" "$stable_tree" "$BASE_TAG"
	fi
	"${git_st[@]}" checkout --quiet -f -B "$branch" "$BASE_TAG"
	for p in "$fix" "$test"; do
		"${git_st[@]}" -c user.name=harness -c user.email=harness@localhost \
			am --quiet --committer-date-is-author-date "$p" >&2 || {
			"${git_st[@]}" am --abort >/dev/null 2>&1 || true
			die "does not apply on $STABLE_BASE: ${p#"$HARNESS_ROOT"/}"
		}
	done
	git -C "$base_repo" config "mglru-fg.stable${STABLE_BASE/./}" "$stamp"
	log "$stable_tree: $STABLE_BASE base + fix + test on branch $branch"
}

# format_patch DIR REV: REV as the one patch in DIR, as export-series.sh
# writes patches (zero commit id, no signature, fixed abbreviation); a
# backport says which stable tree it is for in its subject
format_patch() {
	local prefix=PATCH

	[ "$STABLE_BASE" = 7.3 ] || prefix="PATCH $STABLE_BASE.y"
	mkdir -p "$1"
	find "$1" -maxdepth 1 -name '0001-*.patch' -delete
	git -C "$stable_tree" -c core.abbrev=12 -c diff.renames=true \
		-c diff.algorithm=default -c format.signature= \
		format-patch --quiet --zero-commit --no-signature \
		--subject-prefix="$prefix" -o "$1" -1 "$2"
}

# The series applied on a scratch index that starts at the fix (git apply
# --cached: no checkout, seconds), compared with the series' tip tree.
series_on_fix() {
	local p n=0 on index

	[ "$STABLE_BASE" = 7.3 ] || die "series: the series' base is 7.3 (STABLE_BASE=7.3)"
	make_stable_tree
	index=$(mktemp)
	trap 'rm -f "$index"' RETURN
	GIT_INDEX_FILE=$index git -C "$TREE" read-tree "$branch~1"	# the fix, not its test
	while read -r p; do
		# patches/stable/on-fix/NNNN-*.patch replaces the series' NNNN
		on=$(find "$on_fix_dir" -maxdepth 1 -name "$(basename "$p" | cut -c1-4)-*.patch")
		GIT_INDEX_FILE=$index git -C "$TREE" apply --cached "${on:-$p}" ||
			die "does not apply on the fix: ${on:-$p}"
		n=$((n + 1))
	done < <(series_patches)
	[ "$(GIT_INDEX_FILE=$index git -C "$TREE" write-tree)" = \
		"$(git -C "$TREE" rev-parse "$SERIES_BRANCH^{tree}")" ] ||
		die "the series on the fix does not end in the series' tree ($SERIES_BRANCH)"
	log "the series on the fix: $n patches apply ($(find "$on_fix_dir" -name '*.patch' | wc -l) from patches/stable/on-fix/) and end in the series' own tree"
}

# Derive on-fix/0009 (see the usage above): the only part of patch 9 that
# differs on the fix is context, so its content follows from the trees.
on_fix_derive() {
	local p n=0 on index tree8 base8 c9 tmp

	[ "$STABLE_BASE" = 7.3 ] || die "on-fix: the series' base is 7.3 (STABLE_BASE=7.3)"
	make_stable_tree
	index=$(mktemp)
	tmp=$(mktemp -d)
	trap 'rm -rf "$index" "$tmp"' RETURN
	GIT_INDEX_FILE=$index git -C "$TREE" read-tree "$branch~1"	# the fix, not its test
	while read -r p; do
		n=$((n + 1))
		[ "$n" -lt 9 ] || break
		on=$(find "$on_fix_dir" -maxdepth 1 -name "$(basename "$p" | cut -c1-4)-*.patch")
		GIT_INDEX_FILE=$index git -C "$TREE" apply --cached "${on:-$p}" ||
			die "does not apply on the fix: ${on:-$p}"
	done < <(series_patches)
	[ "$n" = 9 ] || die "on-fix: the series has fewer than 9 patches"
	tree8=$(GIT_INDEX_FILE=$index git -C "$TREE" write-tree)
	c9=$(git -C "$TREE" rev-list --reverse "$BASE_TAG..$SERIES_BRANCH" | sed -n 9p)
	base8=$(git -C "$TREE" commit-tree "$tree8" -m "the fix and patches 1-8")
	c9=$(git -C "$TREE" log -1 --format=%B "$c9" |
		GIT_AUTHOR_NAME=$(git -C "$TREE" log -1 --format=%an "$c9") \
		GIT_AUTHOR_EMAIL=$(git -C "$TREE" log -1 --format=%ae "$c9") \
		GIT_AUTHOR_DATE=$(git -C "$TREE" log -1 --format=%aD "$c9") \
		git -C "$TREE" commit-tree "$c9^{tree}" -p "$base8")
	git -C "$TREE" -c core.abbrev=12 -c diff.renames=true -c diff.algorithm=default \
		-c format.signature= format-patch --quiet --zero-commit --no-signature \
		--subject-prefix="PATCH v$SERIES_VERSION 09/$(series_patches | wc -l)" \
		--start-number 9 -o "$tmp" -1 "$c9"
	p=$(find "$tmp" -name '0009-*.patch')
	find "$on_fix_dir" -maxdepth 1 -name '0009-*.patch' -delete
	mv "$p" "$on_fix_dir/"
	log "wrote ${on_fix_dir#"$HARNESS_ROOT"/}/$(basename "$p")"
}

case ${1:-} in
tree)
	make_stable_tree
	echo "$stable_tree" ;;
kunit)
	make_stable_tree
	# the light KUnit kernel: the test needs no KASAN, and this tree
	# shares no object with the others
	HARNESS_ARM=fixed HARNESS_KSRC=$stable_tree HARNESS_KOBJ=$obj_prefix+kunit-min \
		KUNIT_GLOB='lru_gen_placement*' "$HARNESS_ROOT/scripts/boot/kunit.sh" --light x86_64 ;;
demo)
	make_stable_tree
	# the FIXED arm's kernel of bench/ (bench/lib.sh: build_arm), so that
	# the demo and the benchmarks share one build
	HARNESS_DEMO_CONFIGS="base smp" HARNESS_ARM=fixed HARNESS_KSRC=$stable_tree \
		HARNESS_KOBJ=$BUILD_DIR/obj/fixed-$STABLE_BASE-base+smp \
		"$HARNESS_ROOT/scripts/boot/demo.sh" "$(setting DEMO_SECONDS)" ;;
series)
	series_on_fix ;;
on-fix)
	on_fix_derive ;;
export)
	[ -e "$stable_tree/.git" ] || die "no stable tree at $stable_tree (stable.sh tree)"
	format_patch "$fix_dir" "$branch~1"
	format_patch "$test_dir" "$branch"
	log "exported the fix and its test to ${fix_dir#"$HARNESS_ROOT"/}" ;;
*) die "usage: stable.sh tree|kunit|demo|series|on-fix|export  (STABLE_BASE=7.3|7.2)" ;;
esac
