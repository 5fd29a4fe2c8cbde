#!/bin/bash
# Boot a kernel under QEMU with the host's root file system read-only over
# 9p (virtme-style) and run one command inside it.
#
# usage: boot.sh BZIMAGE COMMAND [ARG...]     (COMMAND: a path on this host)
#
# Environment (defaults in brackets):
#   MEM [1G], CPUS [2]      guest size
#   BOOT_TIMEOUT [900]      seconds before the guest is killed
#   ACCEL [auto]            tcg, kvm, or auto: KVM only if a probe boot works
#   QEMU                    the QEMU binary [configs/arch/x86_64's]
# Internal hand-offs from the calling scripts:
#   HARNESS_CONSOLE_LOG     console log file [build/logs/boot-<time>.log]
#   HARNESS_DATA_DISK_SIZE  [2G] fresh ext4 image on virtio-blk, /dev/vda in the guest
#   HARNESS_SWAP_DISK_SIZE  [1G] fresh swap image, /dev/vdb in the guest
#   HARNESS_OUT_DIR         host folder shared read-write at /mnt/out
#   HARNESS_CMDLINE         appended to the kernel command line
#   HARNESS_QUIET=1         do not copy the console to stdout
# Exits with the guest command's status; 124 if the guest timed out or
# ended without reporting a status.
#
# The guest mounts tmpfs over /tmp, /run, /var/tmp, /var/log, /root and
# /mnt (scripts/guest/init); the host paths it needs below them (this
# checkout, BUILD_DIR, the command and its absolute path arguments) are
# handed to it as "harness_keep=" and stay visible there, read-only.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

[ $# -ge 2 ] || die "usage: boot.sh BZIMAGE COMMAND [ARG...]"
kernel=$1
shift
[ -f "$kernel" ] || die "no kernel image at $kernel (build it first: make build)"
# The guest sees the host's root at /: give it an absolute command path.
case $1 in
*/*) [ -e "$1" ] || die "no such command: $1"; set -- "$(realpath "$1")" "${@:2}" ;;
esac

# The host paths the guest must see, colon-separated for the init's
# harness_keep=: the checkout, BUILD_DIR, and every argument that is an
# absolute path on this host (but the guest's own /mnt/out and /mnt/data).
keep_paths() {
	local p paths=()

	for p in "$HARNESS_ROOT" "$BUILD_DIR" "$@"; do
		case $p in
		/mnt/out | /mnt/out/* | /mnt/data | /mnt/data/*) continue ;;
		/*) [ -e "$p" ] || continue ;;
		*) continue ;;
		esac
		p=$(realpath "$p")
		case $p in
		*[[:space:]:]*) die "a path with a blank or a colon cannot reach the guest: $p" ;;
		esac
		paths+=("$p")
	done
	(IFS=:; echo "${paths[*]}")
}
mkdir -p "$BUILD_DIR"
KEEP=$(keep_paths "$@")

MEM=$(setting MEM)
CPUS=$(setting CPUS)
BOOT_TIMEOUT=${BOOT_TIMEOUT:-900}
ACCEL=${ACCEL:-auto}
mkdir -p "$BUILD_DIR/logs" "$BUILD_DIR/disks"
HARNESS_CONSOLE_LOG=${HARNESS_CONSOLE_LOG:-$BUILD_DIR/logs/boot-$(date +%Y%m%d-%H%M%S).log}
EXIT_MARKER=MGLRU-FG-HARNESS-EXIT

# Run QEMU with the given accelerator and timeout; console to $2.
run_qemu() {
	local accel=$1 log=$2 timeout=$3
	shift 3
	local cmdline="root=/dev/root rootfstype=9p"
	cmdline+=" rootflags=trans=virtio,version=9p2000.L,cache=loose ro"
	cmdline+=" init=$HARNESS_ROOT/scripts/guest/init panic=-1 harness_keep=$KEEP ${HARNESS_CMDLINE:-}"
	qemu_cmd "$accel" "$kernel" "$cmdline -- $*"
	local args=(
		-fsdev "local,id=root,path=/,security_model=none,readonly=on,multidevs=remap"
		-device "virtio-9p-pci,fsdev=root,mount_tag=/dev/root"
		-drive "file=$BUILD_DIR/disks/data.img,if=virtio,format=raw"
		-drive "file=$BUILD_DIR/disks/swap.img,if=virtio,format=raw"
	)
	if [ -n "${HARNESS_OUT_DIR:-}" ]; then
		mkdir -p "$HARNESS_OUT_DIR"
		args+=(-fsdev "local,id=out,path=$HARNESS_OUT_DIR,security_model=none"
			-device "virtio-9p-pci,fsdev=out,mount_tag=out")
	fi
	printf '%q ' "${QEMU_CMD[@]}" "${args[@]}" >"$log.cmd"
	if [ "${HARNESS_QUIET:-0}" = 1 ]; then
		timeout -k 10 "$timeout" "${QEMU_CMD[@]}" "${args[@]}" </dev/null >"$log" 2>&1 || true
	else
		timeout -k 10 "$timeout" "${QEMU_CMD[@]}" "${args[@]}" </dev/null 2>&1 | tee "$log" || true
	fi
}

guest_status() {
	tr -d '\r' <"$1" | sed -n "s/^$EXIT_MARKER: \([0-9]*\)$/\1/p" | tail -n 1
}

fresh_disks() {
	rm -f "$BUILD_DIR/disks/data.img" "$BUILD_DIR/disks/swap.img"
	truncate -s "${HARNESS_DATA_DISK_SIZE:-2G}" "$BUILD_DIR/disks/data.img"
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 -L data "$BUILD_DIR/disks/data.img"
	truncate -s "${HARNESS_SWAP_DISK_SIZE:-1G}" "$BUILD_DIR/disks/swap.img"
	mkswap -q "$BUILD_DIR/disks/swap.img" >/dev/null
}

# KVM hangs on some hosts: with ACCEL=auto, use it only after a short
# probe boot of this kernel reached the guest's exit marker.  The verdict
# is kept per host boot in KVM_PROBE (lib.sh), where qemu_accel reads it.
pick_accel() {
	local boot_id

	if [ "${ACCEL:-auto}" = auto ] && [ -w /dev/kvm ]; then
		boot_id=$(cat /proc/sys/kernel/random/boot_id)
		if [ "$(head -n 1 "$KVM_PROBE" 2>/dev/null)" != "$boot_id" ]; then
			log "probing KVM (30 s at most)"
			fresh_disks
			HARNESS_QUIET=1 run_qemu kvm "$KVM_PROBE.log" 30 /bin/true
			if [ "$(guest_status "$KVM_PROBE.log")" = 0 ]; then
				printf '%s\nkvm\n' "$boot_id" >"$KVM_PROBE"
			else
				printf '%s\ntcg\n' "$boot_id" >"$KVM_PROBE"
			fi
		fi
	fi
	qemu_accel
}

load_arch x86_64
accel=$(pick_accel)
fresh_disks
log "booting $kernel ($accel, $MEM, -smp $CPUS); console: $HARNESS_CONSOLE_LOG"
run_qemu "$accel" "$HARNESS_CONSOLE_LOG" "$BOOT_TIMEOUT" "$@"
status=$(guest_status "$HARNESS_CONSOLE_LOG")
# A kernel without ACPI (configs/base) brings up one CPU whatever -smp says.
cpus=$(tr -d '\r' <"$HARNESS_CONSOLE_LOG" | sed -n 's/^harness-guest: \([0-9]*\) CPUs online$/\1/p' | head -n 1)
[ -z "$cpus" ] || [ "$cpus" = "$CPUS" ] ||
	log "note: the guest had $cpus CPU(s) online, not $CPUS (-smp needs ACPI: configs/smp.config)"
if [ -z "$status" ]; then
	log "guest ended without reporting a status (timeout $BOOT_TIMEOUT s, panic or hang); see $HARNESS_CONSOLE_LOG"
	exit 124
fi
exit "$status"
