#!/bin/bash
# Config matrix: at the tip of the series, the directories of the files the
# series touches must compile with W=1 in configurations the harness
# kernels do not use (no THP, no swap, btrfs and erofs, 32-bit i386, arm64
# cross), without a warning in a touched file that the base does not have
# in the same config.
# Per-commit builds of the main configs are check-bisect.sh's job.
#
# usage: check-matrix.sh [ARCH:FRAGMENTS...]
#   default: x86_64:base+no-thp+no-swap x86_64:base+btrfs+erofs
#            i386:i386 arm64:arm64
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -gt 0 ] || set -- x86_64:base+no-thp+no-swap x86_64:base+btrfs+erofs \
	i386:i386 arm64:arm64
"$HARNESS_ROOT/scripts/mktree.sh"
git -C "$TREE" rev-parse --verify --quiet "$SERIES_BRANCH" >/dev/null || die "no series branch"

touched=$(git -C "$TREE" diff --name-only "$BASE_TAG" "$SERIES_BRANCH" -- '*.c' '*.h')
[ -n "$touched" ] || { log "the series touches no C file"; exit 0; }
# kernel/bounds.c is compiled by every build's prepare step: its directory,
# the whole of kernel/, need not be built again
dirs=$( (for o in $LRU_HEADER_USERS; do dirname "$o"; done
	grep '\.c$' <<<"$touched" | grep -vx kernel/bounds.c | xargs -r -n1 dirname) |
	sort -u | sed 's|$|/|')

# build SRC OBJ ARCH FRAGMENTS LOG: configure and compile $dirs with W=1
build() {
	local src=$1 obj=$2 arch=$3 frags=$4 out=$5 cross=
	[ "$arch" = arm64 ] && cross=aarch64-linux-gnu-
	KSRC=$src KOBJ=$obj KARCH=$arch "$HARNESS_ROOT/scripts/build-kernel.sh" \
		--configure-only ${frags//+/ }
	# shellcheck disable=SC2086 # $dirs is a list
	make -C "$src" O="$obj" ARCH="$arch" ${cross:+CROSS_COMPILE=$cross} \
		CC="$(command -v ccache || true) ${cross}gcc" -j"$(nproc)" W=1 $dirs >"$out" 2>&1
}

# warnings OUT: the W=1 warnings in touched files, without line numbers
warnings() {
	grep -E '^[^ ]+:[0-9]+:[0-9]+: warning:' "$1" |
		sed -E "s|^$TREE/||; s|^$BISECT_TREE/||; s|^([^:]+):[0-9]+:[0-9]+:|\1:|" |
		grep -F -f <(sed 's/$/:/' <<<"$touched") | sort -u || true
}

failed=0
for set in "$@"; do
	arch=${set%%:*} frags=${set#*:}
	obj=$BUILD_DIR/obj/matrix-$arch-$frags
	out=$obj.log
	mkdir -p "$obj"
	if ! build "$TREE" "$obj" "$arch" "$frags" "$out"; then
		log "FAIL $set: build error"
		grep -m 10 -E 'error|Error' "$out" >&2 || tail -n 10 "$out" >&2
		failed=$((failed + 1))
		continue
	fi
	new=$(warnings "$out")
	if [ -n "$new" ]; then
		# only warnings the base does not have count
		bisect_worktree
		build "$BISECT_TREE" "$obj-base" "$arch" "$frags" "$out.base" ||
			die "$set: the base does not build: $(tail -n 5 "$out.base")"
		new=$(comm -23 <(printf '%s\n' "$new") <(warnings "$out.base"))
	fi
	if [ -n "$new" ]; then
		log "FAIL $set: new W=1 warnings in touched files:"
		printf '%s\n' "$new" | sed -n 1,20p >&2
		failed=$((failed + 1))
	else
		log "ok   $set: $(wc -w <<<"$dirs") directories, no new warnings"
	fi
done
[ $failed = 0 ] || die "$failed of $# matrix builds failed"
