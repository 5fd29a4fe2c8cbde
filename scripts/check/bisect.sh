#!/bin/bash
# Bisectability: every commit of the series must compile on its own, with
# W=1 and no warnings, in the harness config and with both CONFIG_LRU_GEN=n
# and CONFIG_MEMCG=n (the stubs of both).  The configs with only one of
# them off are check-matrix.sh's, at the tip.  Per commit it compiles the
# objects of the .c files the commit touches plus, if it changes a header,
# LRU_HEADER_USERS (scripts/lib.sh), which include the headers the series
# changes; the full kernel is built by the build steps.
#
# usage: check-bisect.sh [FRAGMENT-SET...]   (default: base base+no-lru-gen+no-memcg)
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

[ $# -gt 0 ] || set -- base base+no-lru-gen+no-memcg
need_tree
wt=$BISECT_TREE
commits=$(series_commits)
[ -n "$commits" ] || { log "no patches: nothing to bisect"; exit 0; }

bisect_worktree

# Every object a commit may ask for
candidates=$(series_objects)

# wmake OBJDIR MAKE-ARGS...: the kernel's make (kmake, lib.sh) of the
# checkout with W=1
wmake() {
	local obj=$1
	shift
	kmake "$wt" "$obj" W=1 "$@"
}

# buildable OBJDIR: the candidates that the config of OBJDIR compiles
buildable() {
	configured_objects "$candidates" wmake "$1"
}

# commit_objects COMMIT: the objects that COMMIT asks for, buildable or not
commit_objects() {
	local users=

	# the header users only matter for a commit that changes a header
	[ -z "$(git -C "$TREE" diff-tree --no-commit-id --name-only -r "$1" -- '*.h')" ] ||
		users=$LRU_HEADER_USERS
	# shellcheck disable=SC2086 # a list of objects
	(printf '%s\n' $users
		git -C "$TREE" diff-tree --no-commit-id --name-only -r "$1" -- '*.c' |
			sed 's/\.c$/.o/') | sort -u
}

# Both configs build from the same checkout of a commit at once, each make
# with -j$(nproc): a commit's few objects alone leave a core idle.
declare -A configured
git -C "$wt" checkout --quiet --detach "$BASE_TAG"
pids=()
for set in "$@"; do
	obj=$BUILD_DIR/obj/bisect-$set
	# shellcheck disable=SC2086 # a list of fragment names
	HARNESS_KSRC=$wt HARNESS_KOBJ=$obj "$HARNESS_ROOT/scripts/build-kernel.sh" --configure-only ${set//+/ }
	configured[$set]=$(buildable "$obj")
	[ -n "${configured[$set]}" ] || die "$set: the config builds none of: $candidates"
	# shellcheck disable=SC2086 # a list of objects
	wmake "$obj" ${configured[$set]} >"$obj/base.log" 2>&1 &
	pids+=($!)
done
i=0
for set in "$@"; do
	wait "${pids[i]}" ||
		die "$set: the base does not build: $(tail -n 5 "$BUILD_DIR/obj/bisect-$set/base.log")"
	i=$((i + 1))
done

failed=0
for c in $commits; do
	subject=$(git -C "$TREE" log -1 --format=%s "$c")
	git -C "$wt" checkout --quiet --detach "$c"
	# a new Kconfig option or Makefile line may change the config (new
	# options get their defaults) and what is built
	kconfig=$(git -C "$TREE" diff-tree --no-commit-id --name-only -r "$c" -- \
		'*Kconfig*' '*Makefile*' '*Kbuild*')
	pids=()
	for set in "$@"; do
		obj=$BUILD_DIR/obj/bisect-$set
		if [ -n "$kconfig" ]; then
			kmake "$wt" "$obj" -s olddefconfig
			configured[$set]=$(buildable "$obj")
		fi
		mapfile -t objs < <(comm -12 <(commit_objects "$c") <(echo "${configured[$set]}"))
		echo "${#objs[@]}" >"$obj/commit.count"
		# no object (documentation, Kconfig): the prepare step still runs
		wmake "$obj" "${objs[@]:-prepare}" >"$obj/commit.log" 2>&1 &
		pids+=($!)
	done
	i=0
	for set in "$@"; do
		obj=$BUILD_DIR/obj/bisect-$set
		out=$obj/commit-$(git -C "$TREE" rev-parse --short "$c").log
		status=0
		wait "${pids[i]}" || status=$?
		i=$((i + 1))
		mv "$obj/commit.log" "$out"
		if [ $status != 0 ]; then
			log "FAIL $set: $subject: build error"
			grep -m 10 -E 'error|Error' "$out" >&2 || tail -n 10 "$out" >&2
			failed=$((failed + 1))
		elif grep -q 'warning:' "$out"; then
			log "FAIL $set: $subject: W=1 warnings"
			grep -m 10 'warning:' "$out" >&2
			failed=$((failed + 1))
		else
			log "ok   $set: $subject ($(cat "$obj/commit.count") objects)"
		fi
	done
done
git -C "$wt" checkout --quiet --detach "$BASE_TAG"
[ $failed = 0 ] || die "$failed commit builds failed"
