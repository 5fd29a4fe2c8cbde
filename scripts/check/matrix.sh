#!/bin/bash
# Config matrix: at the tip of the series, the objects of the files the
# series touches and the header users (LRU_HEADER_USERS, scripts/lib.sh)
# must compile with W=1 in configurations the harness kernels do not use,
# without a warning in a touched file that the base does not have in the
# same config: one of CONFIG_MEMCG and CONFIG_LRU_GEN off without the other
# (with no THP and no swap; with btrfs and erofs, whose compressed reads
# count PSI memstalls), 32-bit i386 (with the cgroup v1 memory controller,
# whose reparenting the series changes), and arm64 (cross).
# Per-commit builds of the main configs are check-bisect.sh's job.
#
# usage: check-matrix.sh [ARCH:FRAGMENTS...]
#   default: x86_64:base+no-thp+no-swap+no-memcg
#            x86_64:base+btrfs+erofs+no-lru-gen i386:i386+memcg-v1 arm64:arm64
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

[ $# -gt 0 ] || set -- x86_64:base+no-thp+no-swap+no-memcg \
	x86_64:base+btrfs+erofs+no-lru-gen i386:i386+memcg-v1 arm64:arm64
need_tree
git -C "$TREE" rev-parse --verify --quiet "$SERIES_BRANCH" >/dev/null || die "no series branch"

touched=$(git -C "$TREE" diff --name-only "$BASE_TAG" "$SERIES_BRANCH" -- '*.c' '*.h')
[ -n "$touched" ] || { log "the series touches no C file"; exit 0; }
candidates=$(series_objects)

# build SRC OBJ ARCH FRAGMENTS LOG: configure, then compile with W=1 the
# candidates that the config builds
build() {
	local src=$1 obj=$2 arch=$3 frags=$4 out=$5 all objs

	load_arch "$arch"

	# shellcheck disable=SC2086 # a list of fragment names
	HARNESS_KSRC=$src HARNESS_KOBJ=$obj KARCH=$arch "$HARNESS_ROOT/scripts/build-kernel.sh" \
		--configure-only ${frags//+/ }
	all=$(configured_objects "$candidates" kmake "$src" "$obj" W=1) || return 1
	mapfile -t objs <<<"$all"
	[ -n "$all" ] || objs=()
	echo "${#objs[@]}" >"$obj.count"
	[ ${#objs[@]} -gt 0 ] || { echo "no touched object in this config" >"$out"; return 0; }
	kmake "$src" "$obj" W=1 "${objs[@]}" >"$out" 2>&1
}

# warnings OUT: the W=1 warnings in touched files, without line numbers
warnings() {
	grep -E '^[^ ]+:[0-9]+:[0-9]+: warning:' "$1" |
		sed -E "s|^$TREE/||; s|^$BISECT_TREE/||; s|^([^:]+):[0-9]+:[0-9]+:|\1:|" |
		grep -F -f <(sed 's/$/:/' <<<"$touched") | sort -u || true
}

# The configs build side by side, each make with -j$(nproc): configuring
# and "make prepare" run on one core, and each config has few objects.
pids=()
for set in "$@"; do
	arch=${set%%:*} frags=${set#*:}
	obj=$BUILD_DIR/obj/matrix-$arch-$frags
	mkdir -p "$obj"
	build "$TREE" "$obj" "$arch" "$frags" "$obj.log" 2>"$obj.setup.log" &
	pids+=($!)
done

failed=0
i=0
for set in "$@"; do
	arch=${set%%:*} frags=${set#*:}
	obj=$BUILD_DIR/obj/matrix-$arch-$frags
	out=$obj.log
	status=0
	wait "${pids[i]}" || status=$?
	i=$((i + 1))
	if [ $status != 0 ]; then
		log "FAIL $set: build error"
		cat "$obj.setup.log" >&2
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
		new=$(new_findings "$new" "$(warnings "$out.base")")
	fi
	if [ -n "$new" ]; then
		log "FAIL $set: new W=1 warnings in touched files:"
		printf '%s\n' "$new" | sed -n 1,20p >&2
		failed=$((failed + 1))
	else
		log "ok   $set: $(cat "$obj.count") objects, no new warnings"
	fi
done
[ $failed = 0 ] || die "$failed of $# matrix builds failed"
