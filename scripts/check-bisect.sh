#!/bin/bash
# Bisectability: every commit of the series must compile on its own, with
# W=1 and no warnings, in the harness config and with CONFIG_LRU_GEN=n and
# CONFIG_MEMCG=n.  Per commit it compiles the objects of the .c files the
# commit touches plus, if it changes a header, LRU_HEADER_USERS
# (scripts/lib.sh), which include the headers the series changes; the full
# kernel is built by the build steps.
#
# usage: check-bisect.sh [FRAGMENT-SET...]   (default: base base+no-lru-gen base+no-memcg)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -gt 0 ] || set -- base base+no-lru-gen base+no-memcg
"$HARNESS_ROOT/scripts/mktree.sh"
wt=$BISECT_TREE
commits=$(git -C "$TREE" rev-list --reverse "$BASE_TAG..$SERIES_BRANCH")
[ -n "$commits" ] || { log "no patches: nothing to bisect"; exit 0; }

bisect_worktree
cc=gcc
command -v ccache >/dev/null && cc="ccache gcc"

# Directories of the objects above: built whole once, at the base, so
# that we know which objects each config compiles (a .o.cmd file).
dirs=$(for o in $LRU_HEADER_USERS; do dirname "$o"; done | sort -u | sed 's|$|/|')

kbuild() { # kbuild OBJDIR LOG TARGET...
	local obj=$1 out=$2
	shift 2
	make -C "$wt" O="$obj" ARCH=x86_64 -j"$(nproc)" CC="$cc" W=1 "$@" >"$out" 2>&1
}

failed=0
for set in "$@"; do
	obj=$BUILD_DIR/obj/bisect-$set
	git -C "$wt" checkout --quiet --detach "$BASE_TAG"
	KSRC=$wt KOBJ=$obj "$HARNESS_ROOT/scripts/build-kernel.sh" --configure-only ${set//+/ }
	kbuild "$obj" "$obj/base.log" $dirs || die "$set: the base does not build: $(tail -n 5 "$obj/base.log")"
	for c in $commits; do
		subject=$(git -C "$TREE" log -1 --format=%s "$c")
		git -C "$wt" checkout --quiet --detach "$c"
		make -C "$wt" O="$obj" ARCH=x86_64 -s olddefconfig
		# the header users only matter for a commit that changes a header
		users=
		[ -z "$(git -C "$TREE" diff-tree --no-commit-id --name-only -r "$c" -- '*.h')" ] ||
			users=$LRU_HEADER_USERS
		objs=()
		for o in $( (echo $users | tr " " "\n"; git -C "$TREE" diff-tree --no-commit-id --name-only -r "$c" -- '*.c' | sed 's/\.c$/.o/') | sort -u); do
			[ -f "$obj/$(dirname "$o")/.$(basename "$o").cmd" ] && objs+=("$o")
		done
		out=$obj/commit-$(git -C "$TREE" rev-parse --short "$c").log
		if ! kbuild "$obj" "$out" "${objs[@]}"; then
			log "FAIL $set: $subject: build error"
			grep -m 10 -E 'error|Error' "$out" >&2 || tail -n 10 "$out" >&2
			failed=$((failed + 1))
		elif grep -q 'warning:' "$out"; then
			log "FAIL $set: $subject: W=1 warnings"
			grep -m 10 'warning:' "$out" >&2
			failed=$((failed + 1))
		else
			log "ok   $set: $subject (${#objs[@]} objects)"
		fi
	done
done
git -C "$wt" checkout --quiet --detach "$BASE_TAG"
[ $failed = 0 ] || die "$failed commit builds failed"
