#!/bin/bash
# Configure and build a kernel: "make tinyconfig" plus the named fragments
# from configs/ (merged with scripts/kconfig/merge_config.sh), checked
# after olddefconfig so that no requested option is silently dropped.
#
# usage: build-kernel.sh [--configure-only] FRAGMENT...   (e.g. "base debug")
# SERIES=0 builds the base without the series (the ORIG arm).
# HARNESS_KSRC=<tree> HARNESS_KOBJ=<dir> configure/build another source tree (e.g. a
# bisection worktree) instead of the series tree.
# KARCH=x86_64 (default), i386 or arm64 (configs/arch/; arm64 is
# cross-built with Debian's gcc-aarch64-linux-gnu); fragments must suit
# the architecture.  The tree must exist (scripts/mktree.sh; --orig for
# SERIES=0): a build never applies patches.
# Prints the path of the kernel image on success.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

configure_only=0
if [ "${1:-}" = --configure-only ]; then
	configure_only=1
	shift
fi
[ $# -gt 0 ] || die "usage: build-kernel.sh [--configure-only] FRAGMENT... (from configs/)"
fragments=()
for f in "$@"; do
	[ -f "$CONFIG_DIR/$f.config" ] || die "no config fragment configs/$f.config"
	fragments+=("$CONFIG_DIR/$f.config")
done

name=$(IFS=+; echo "$*")
karch=${KARCH:-x86_64}
load_arch "$karch"
if [ -n "${HARNESS_KSRC:-}" ]; then
	src=$HARNESS_KSRC
	obj=${HARNESS_KOBJ:?HARNESS_KOBJ must name the object directory with HARNESS_KSRC}
else
	# The tree is the caller's job (make tree, scripts/mktree.sh): a build
	# does not apply patches.
	src=$(source_tree)
	[ -e "$src/Makefile" ] || die "no kernel tree at $src: make it first (make tree$([ "${SERIES:-1}" = 0 ] && echo " SERIES=0"))"
	obj=$(kernel_obj "$karch" "$@")
fi
mkdir -p "$obj"

# LOCALVERSION names the arm in uname -r (and keeps setlocalversion from
# appending "+").
build() { kmake "$src" "$obj" LOCALVERSION="-$(arm_name)" "$@"; }

# Every CONFIG_ line of the fragments must be in the final .config as
# given; for a symbol set by several fragments, the last one counts.
check_config() {
	local line sym bad=0

	while read -r line; do
		case $line in
		CONFIG_*=*)
			grep -qxF -- "$line" "$obj/.config" && continue ;;
		"# CONFIG_"*" is not set")
			sym=${line#\# }; sym=${sym%% *}
			grep -q "^$sym=" "$obj/.config" || continue ;;
		esac
		log "'$line' did not survive olddefconfig (got: $(grep -E "(^| )${line%%=*}[= ]" "$obj/.config" || echo unset))"
		bad=1
	done < <(awk '
		/^CONFIG_[A-Za-z0-9_]+=/ { sym = $0; sub(/=.*/, "", sym) }
		/^# CONFIG_[A-Za-z0-9_]+ is not set$/ { sym = $2 }
		sym != "" { if (!(sym in want)) order[n++] = sym; want[sym] = $0; sym = "" }
		END { for (i = 0; i < n; i++) print want[order[i]] }' "${fragments[@]}")
	return $bad
}

stamp=$(cat "${fragments[@]}" | sha256sum | cut -d' ' -f1)
if [ ! -f "$obj/.config" ] || [ "$(cat "$obj/.fragments" 2>/dev/null)" != "$stamp" ]; then
	log "configuring $obj"
	build -s tinyconfig >/dev/null
	(cd "$obj" && "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "${fragments[@]}" >/dev/null)
fi
# Also for a reused config: the tree may have new options since (e.g. a
# patch adds a Kconfig symbol), which get their defaults here instead of a
# question on a terminal that is not there.
build -s olddefconfig
check_config || die "kernel config $name is missing requested options"
echo "$stamp" >"$obj/.fragments"

[ $configure_only = 1 ] && exit 0
log "building $(arm_name) kernel ($name) in $obj"
touch "$obj/.build-start"
objects_built() { echo "$(find "$obj" -name '*.o' -newer "$obj/.build-start" | wc -l) objects built"; }
progress_count=objects_built with_progress "building $name" build -s "$ARCH_TARGET" >&2 ||
	die "kernel build failed ($src, O=$obj)"
echo "$obj/$ARCH_IMAGE"
