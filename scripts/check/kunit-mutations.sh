#!/bin/bash
# Mutation check of the KUnit suites: break one rule of the series at a
# time (scripts/kunit-mutations/*.diff, applied to the tree's working copy),
# run scripts/boot/kunit.sh (and on x86_64 scripts/boot/kunit-memcg.sh),
# and report which cases caught it.  Fails if any mutation passes every
# case.  Each run rebuilds only the mutated object, about 2-3 minutes here.
#
# usage: kunit-mutations.sh [x86_64|arm64] [MUTATION.diff...]   (default: all)
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

arch=${1:-x86_64}
shift || true
[ $# -gt 0 ] || set -- "$HARNESS_ROOT"/scripts/kunit-mutations/*.diff
need_tree
[ -z "$(git -C "$TREE" status --porcelain --untracked-files=no)" ] ||
	die "$TREE has uncommitted changes: commit or stash them first"

restore() { git -C "$TREE" checkout --quiet -- .; }
trap restore EXIT

missed=0
for m in "$@"; do
	[ -f "$m" ] || die "no mutation $m"
	git -C "$TREE" apply "$(realpath "$m")" || die "mutation does not apply: $m"
	out=$("$HARNESS_ROOT/scripts/boot/kunit.sh" "$arch" 2>&1 || true)
	# the suites that need a non-root memcg run after boot, on x86_64
	[ "$arch" != x86_64 ] ||
		out+=$'\n'$("$HARNESS_ROOT/scripts/boot/kunit-memcg.sh" 2>&1 || true)
	restore
	caught=$(grep -o '\[FAILED\] lru_gen_test_[a-z0-9_]*' <<<"$out" |
		sed 's/^\[FAILED\] //' | sort -u | paste -s -d' ' || true)
	if [ -z "$caught" ]; then
		# kunit.sh also fails without a failed case, e.g., on a build error
		missed=$((missed + 1))
		printf '%s: NOT CAUGHT (kunit.sh: %s)\n' "${m##*/}" "$(tail -1 <<<"$out")"
	else
		printf '%s: caught by %s\n' "${m##*/}" "$caught"
	fi
done
log "$# mutations, $missed not caught"
[ "$missed" = 0 ]
