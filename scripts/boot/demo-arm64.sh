#!/bin/bash
# The main job on arm64 ("make KARCH=arm64"): cross-build the kernel (base
# + series unless SERIES=0), boot it in qemu-system-aarch64 -M virt under
# TCG and run the memcg Zipf demo there.
#
# usage: demo-arm64.sh [SECONDS]
#
# The host's root file system holds no arm64 programs, so the guest does
# not boot it over 9p as the x86_64 guests do: its whole user space is
# scripts/guest/arm64-demo.c, built static as /init of an initramfs, and
# the data file (256 MiB) is on an ext4 image, a virtio-mmio disk.  The
# terminal gets the demo's output; the console is in
# build/logs/demo-<arm>-arm64.log.  Environment: MEM [1G], CPUS [2],
# BOOT_TIMEOUT [SECONDS + 900].
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

seconds=${1:-$(setting DEMO_SECONDS)}
BOOT_TIMEOUT=${BOOT_TIMEOUT:-$((seconds + 900))}
DATA_MB=256
dir=$BUILD_DIR/arm64-demo
cc=aarch64-linux-gnu-gcc

load_arch arm64
accel=$(qemu_accel)
command -v $cc >/dev/null ||
	die "$cc not found: install Debian's gcc-aarch64-linux-gnu (make deps)"

log "cross-building the arm64 kernel (about 20 min cold on 2 cores, 1 min with a warm ccache)"
need_tree
kernel=$(KARCH=arm64 "$HARNESS_ROOT/scripts/build-kernel.sh" arm64 arm64-demo)

mkdir -p "$dir/root" "$BUILD_DIR/logs"
$cc -static -O2 -Wall -Wextra -Werror -o "$dir/root/init" \
	"$HARNESS_ROOT/scripts/guest/arm64-demo.c" -lm ||
	die "cannot build the guest's init with $cc (is libc6-dev-arm64-cross installed? make deps)"
(cd "$dir/root" && echo init | cpio -o -H newc --quiet) >"$dir/initramfs.cpio"

# The data disk, made once: random data, so that nothing compresses or
# dedups it away, as a file of an ext4 image (mke2fs -d, no mount needed).
if [ ! -f "$dir/data.img" ]; then
	log "making the data disk ($DATA_MB MiB file)"
	rm -rf "$dir/data"
	mkdir -p "$dir/data"
	head -c $((DATA_MB << 20)) /dev/urandom >"$dir/data/zipf.dat"
	mkfs.ext4 -q -F -d "$dir/data" "$dir/data.img.tmp" $((DATA_MB + 64))M >/dev/null
	mv "$dir/data.img.tmp" "$dir/data.img"
	rm -rf "$dir/data"
fi

con=$BUILD_DIR/logs/demo-$(arm_name)-arm64.log
log "booting it (qemu-system-aarch64 -M virt, TCG) for a ${seconds} s demo; console: $con"
status=0
qemu_cmd "$accel" "$kernel" "panic=-1 rdinit=/init -- $seconds"
timeout --foreground -k 10 "$BOOT_TIMEOUT" "${QEMU_CMD[@]}" -initrd "$dir/initramfs.cpio" \
	-drive file="$dir/data.img",if=none,format=raw,readonly=on,id=data \
	-device virtio-blk-device,drive=data \
	</dev/null >"$con" 2>&1 || status=$?
[ $status = 124 ] && die "the guest did not power off within $BOOT_TIMEOUT s, see $con"
[ $status = 0 ] || die "QEMU failed (status $status), see $con"

# the demo's lines, without the kernel's
tr -d '\r' <"$con" | sed -n '/^kernel: /,/^arm64-demo: exit /p' | { grep -v '^\[ *[0-9]*\.[0-9]*\] ' || true; }
grep -q '^arm64-demo: exit 0' <(tr -d '\r' <"$con") || die "the demo failed in the guest; console: $con"
"$HARNESS_ROOT/scripts/check/console.sh" "$con"
log "demo done; console: $con"
