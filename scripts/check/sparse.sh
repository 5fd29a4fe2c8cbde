#!/bin/bash
# sparse on the files the series touches: no warning that the base tree
# does not have already.  Compiles the touched objects with C=2 (sparse
# on every object asked for) at the base and at the series tip, in the
# bisection worktree, and compares the warnings with line numbers dropped.
# SPARSE_TARBALL as for get-sparse.sh.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

need_tree
wt=$BISECT_TREE
obj=$BUILD_DIR/obj/sparse-base
[ "$(git -C "$TREE" rev-list --count "$BASE_TAG..$SERIES_BRANCH")" -gt 0 ] ||
	{ log "no patches: nothing to check"; exit 0; }
bisect_worktree

# A sparse that understands what this tree uses (7.3 needs
# __typeof_unqual__, which Debian 12's sparse 0.6.4 lacks): the installed
# one or one built into the cache (get-sparse.sh).
checker=$("$HARNESS_ROOT/scripts/get-sparse.sh" "$wt")
log "sparse: $checker"

# Objects of the .c files the series touches, plus those that see its
# header changes.
objs=$(series_objects)

# The harness config plus the file systems whose PSI calls the series
# converts; objects the config does not build are not checked (kbuild
# would compile them when asked by name, against a config without them).
SPARSE_CONFIGS="base btrfs erofs"

sparse_warnings() { # sparse_warnings REV OUT
	local built
	git -C "$wt" checkout --quiet --detach "$1"
	# shellcheck disable=SC2086 # a list of fragment names
	HARNESS_KSRC=$wt HARNESS_KOBJ=$obj "$HARNESS_ROOT/scripts/build-kernel.sh" --configure-only $SPARSE_CONFIGS
	built=$(configured_objects "$objs" kmake "$wt" "$obj") || exit 1
	[ -n "$built" ] || die "no touched object is built by the config at $1"
	log "$1: sparse on $(wc -l <<<"$built") objects: $(tr "\n" " " <<<"$built")"
	# shellcheck disable=SC2086 # a list of objects
	kmake "$wt" "$obj" C=2 CHECK="$checker" $built >"$2.log" 2>&1 ||
		die "build with sparse failed at $1: $(tail -n 5 "$2.log")"
	# "file:line:col: warning: text" -> "file: warning: text"
	grep -E '^[^ ]+:[0-9]+:[0-9]+: (warning|error):' "$2.log" |
		sed -E 's/^([^:]+):[0-9]+:[0-9]+: /\1: /' | sort >"$2" || true
}

mkdir -p "$obj"
sparse_warnings "$BASE_TAG" "$obj/base.warnings"
sparse_warnings "$SERIES_BRANCH" "$obj/series.warnings"
git -C "$wt" checkout --quiet --detach "$BASE_TAG"
new=$(new_findings "$(cat "$obj/series.warnings")" "$(cat "$obj/base.warnings")")
log "sparse: $(wc -l <"$obj/base.warnings") warnings at the base, $(wc -l <"$obj/series.warnings") with the series"
if [ -n "$new" ]; then
	log "new sparse warnings:"
	printf '%s\n' "$new" >&2
	exit 1
fi
