#!/bin/bash
# Check the user's settings before anything long starts (packages, the
# tree, builds, boots): each bad one stops with a one-line error, within
# seconds.  make runs it first for every target that builds or boots.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# one_of NAME VALUE CHOICE...: VALUE must be one of the CHOICEs
one_of() {
	local name=$1 value=$2 c
	shift 2
	for c in "$@"; do
		[ "$value" = "$c" ] && return 0
	done
	die "$name=$value: use one of: $*"
}

# a directory we can create and write into
writable_dir() { # writable_dir NAME DIR
	mkdir -p "$2" 2>/dev/null && [ -w "$2" ] ||
		die "$1=$2: cannot create or write that directory"
}

# shellcheck disable=SC2086 # lists of words
one_of ACCEL "${ACCEL:-auto}" $ACCEL_CHOICES
# shellcheck disable=SC2086
one_of KARCH "${KARCH:-x86_64}" $KARCH_CHOICES
one_of SERIES "${SERIES:-1}" 0 1
one_of STABLE_BASE "${STABLE_BASE:-7.3}" 7.3 7.2

for f in ${CONFIGS:-} ${KUNIT_CONFIGS:-}; do
	[ -f "$CONFIG_DIR/$f.config" ] ||
		die "no config fragment configs/$f.config (have: $(cd "$CONFIG_DIR" && ls -- *.config | sed 's/\.config$//' | tr '\n' ' '))"
done

[[ $(setting MEM) =~ ^[1-9][0-9]*[MG]?$ ]] || die "MEM=$MEM: a size such as 1G or 768M (QEMU's -m)"
for v in CPUS BOOT_TIMEOUT SMOKE_SECONDS SOAK_SECONDS DEMO_SECONDS CHURN_SECONDS; do
	[ -z "${!v:-}" ] || [[ ${!v} =~ ^[1-9][0-9]*$ ]] || die "$v=${!v}: a positive whole number"
done

writable_dir CACHE_DIR "$CACHE_DIR"
writable_dir BUILD_DIR "$BUILD_DIR"

# an xz tarball, as Debian's linux-source packages ship
xz_tarball() { # xz_tarball NAME FILE
	[ -f "$2" ] || die "$1=$2: no such file"
	case $2 in
	*.tar.xz) ;;
	*) die "$1=$2: not a .tar.xz (Debian's linux-source packages ship one)" ;;
	esac
	# xz's magic number, without reading the whole file
	[ "$(head -c 6 "$2" | od -An -tx1 | tr -d ' \n')" = fd377a585a00 ] ||
		die "$1=$2: not xz-compressed"
}
[ -z "${LINUX_TARBALL:-}" ] || xz_tarball LINUX_TARBALL "$LINUX_TARBALL"
[ -z "${LINUX_TARBALL_7_2:-}" ] || xz_tarball LINUX_TARBALL_7_2 "$LINUX_TARBALL_7_2"

# A git tree of the user's: the series must apply to its KERNEL_REF, which
# git apply checks on a scratch index (all patches in one call, in order),
# leaving the tree as it is.
if [ -n "${KERNEL_SRC:-}" ]; then
	rev=$(git -C "$KERNEL_SRC" rev-parse --verify --quiet "${KERNEL_REF:-HEAD}^{commit}" 2>/dev/null) ||
		die "KERNEL_SRC=$KERNEL_SRC: not a git tree with ${KERNEL_REF:-HEAD}"
	mapfile -t patches < <(series_patches)
	if [ ${#patches[@]} -gt 0 ]; then
		index=$(mktemp)
		trap 'rm -f "$index"' EXIT
		GIT_INDEX_FILE=$index git -C "$KERNEL_SRC" read-tree "$rev"
		# as mktree.sh's "git am --3way": a plain apply, else a 3-way one
		if ! err=$(GIT_INDEX_FILE=$index git -C "$KERNEL_SRC" apply --cached "${patches[@]}" 2>&1) &&
			! GIT_INDEX_FILE=$index git -C "$KERNEL_SRC" apply --cached --3way "${patches[@]}" >/dev/null 2>&1; then
			file=$(sed -n 's/^error: \(.*\): patch does not apply$/\1/p' <<<"$err" | head -n 1)
			first=$(grep -l -m1 -F -- "+++ b/$file" "${patches[@]}" | head -n 1)
			die "the series does not apply to KERNEL_SRC=$KERNEL_SRC (${KERNEL_REF:-HEAD}) at $file (first patched by ${first#"$HARNESS_ROOT"/}); it is made for Linux 7.3-rc7"
		fi
	fi
fi
log "settings OK"
