#!/bin/bash
# Configure and build a kernel: "make tinyconfig" plus the named fragments
# from configs/ (merged with scripts/kconfig/merge_config.sh), checked
# after olddefconfig so that no requested option is silently dropped.
#
# usage: build-kernel.sh FRAGMENT...   (e.g. "base debug")
# SERIES=0 builds the base without the series (the ORIG arm).
# Prints the path of the kernel image on success.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -gt 0 ] || die "usage: build-kernel.sh FRAGMENT... (from configs/)"
fragments=()
for f in "$@"; do
	[ -f "$CONFIG_DIR/$f.config" ] || die "no config fragment configs/$f.config"
	fragments+=("$CONFIG_DIR/$f.config")
done

if [ "${SERIES:-1}" = 0 ]; then
	"$HARNESS_ROOT/scripts/mktree.sh" --orig
else
	"$HARNESS_ROOT/scripts/mktree.sh"
fi
src=$(source_tree)
name=$(IFS=+; echo "$*")
obj=$BUILD_DIR/obj/$(arm_name)-$name
mkdir -p "$obj"

# Fixed build identity: the image depends on the sources only, and
# ccache can reuse objects across clean clones.
export KBUILD_BUILD_TIMESTAMP="2026-01-01" KBUILD_BUILD_USER=mglru-fg KBUILD_BUILD_HOST=harness
# LOCALVERSION names the arm in uname -r (and keeps setlocalversion from
# appending "+").
kmake=(make -C "$src" O="$obj" ARCH=x86_64 -j"$(nproc)" LOCALVERSION="-$(arm_name)")
command -v ccache >/dev/null && kmake+=(CC="ccache gcc")

# Every CONFIG_ line of the fragments must be in the final .config as given.
check_config() {
	local frag line sym bad=0

	for frag in "${fragments[@]}"; do
		while read -r line; do
			case $line in
			CONFIG_*=*)
				grep -qxF -- "$line" "$obj/.config" && continue ;;
			"# CONFIG_"*" is not set")
				sym=${line#\# }; sym=${sym%% *}
				grep -q "^$sym=" "$obj/.config" || continue ;;
			*) continue ;;
			esac
			log "${frag##*/}: '$line' did not survive olddefconfig (got: $(grep -E "(^| )${line%%=*}[= ]" "$obj/.config" || echo unset))"
			bad=1
		done <"$frag"
	done
	return $bad
}

stamp=$(cat "${fragments[@]}" | sha256sum | cut -d' ' -f1)
if [ ! -f "$obj/.config" ] || [ "$(cat "$obj/.fragments" 2>/dev/null)" != "$stamp" ]; then
	log "configuring $obj"
	"${kmake[@]}" -s tinyconfig >/dev/null
	(cd "$obj" && "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "${fragments[@]}" >/dev/null)
	"${kmake[@]}" -s olddefconfig
	check_config || die "kernel config $name is missing requested options"
	echo "$stamp" >"$obj/.fragments"
fi

log "building $(arm_name) kernel ($name) in $obj"
"${kmake[@]}" -s bzImage >&2 || die "kernel build failed ($src, O=$obj)"
echo "$obj/arch/x86/boot/bzImage"
