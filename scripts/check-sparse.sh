#!/bin/bash
# sparse on the files the series touches: no warning that the base tree
# does not have already.  Compiles the touched objects with C=2 (sparse
# on every object asked for) at the base and at the series tip, in the
# bisection worktree, and compares the warnings with line numbers dropped.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

"$HARNESS_ROOT/scripts/mktree.sh"
wt=$BISECT_TREE
obj=$BUILD_DIR/obj/sparse-base
command -v sparse >/dev/null || die "sparse not found: install Debian's sparse (make deps)"
[ "$(git -C "$TREE" rev-list --count "$BASE_TAG..$SERIES_BRANCH")" -gt 0 ] ||
	{ log "no patches: nothing to check"; exit 0; }
bisect_worktree

# The kernel's own test: sparse must understand what this tree uses
# (7.3 needs __typeof_unqual__, which Debian 12's sparse 0.6.4 lacks).
if [ "$("$wt/scripts/checker-valid.sh" sparse -m64 -mlittle-endian)" != 1 ]; then
	die "sparse $(sparse --version) is too old for this kernel (scripts/checker-valid.sh rejects it); install a newer sparse"
fi

# Objects of the .c files the series touches, plus those that see its
# header changes.
objs=$( (git -C "$TREE" diff --name-only "$BASE_TAG" "$SERIES_BRANCH" -- '*.c' | sed 's/\.c$/.o/'
	printf "%s\n" $LRU_HEADER_USERS) | sort -u)

sparse_warnings() { # sparse_warnings REV OUT
	git -C "$wt" checkout --quiet --detach "$1"
	KSRC=$wt KOBJ=$obj "$HARNESS_ROOT/scripts/build-kernel.sh" --configure-only base
	local built=()
	for o in $objs; do
		[ -f "$wt/${o%.o}.c" ] && built+=("$o")
	done
	make -C "$wt" O="$obj" ARCH=x86_64 -j"$(nproc)" C=2 "${built[@]}" >"$2.log" 2>&1 ||
		die "build with sparse failed at $1: $(tail -n 5 "$2.log")"
	# "file:line:col: warning: text" -> "file: warning: text"
	grep -E '^[^ ]+:[0-9]+:[0-9]+: (warning|error):' "$2.log" |
		sed -E 's/^([^:]+):[0-9]+:[0-9]+: /\1: /' | sort >"$2" || true
}

mkdir -p "$obj"
sparse_warnings "$BASE_TAG" "$obj/base.warnings"
sparse_warnings "$SERIES_BRANCH" "$obj/series.warnings"
git -C "$wt" checkout --quiet --detach "$BASE_TAG"
new=$(comm -13 "$obj/base.warnings" "$obj/series.warnings")
log "sparse: $(wc -l <"$obj/base.warnings") warnings at the base, $(wc -l <"$obj/series.warnings") with the series, objects: $(echo $objs)"
if [ -n "$new" ]; then
	log "new sparse warnings:"
	printf '%s\n' "$new" >&2
	exit 1
fi
