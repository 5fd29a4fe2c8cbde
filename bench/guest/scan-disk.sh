# shellcheck shell=bash
# The cold file of the scan benchmarks (scan.sh, rootscan.sh): the second
# disk, made an ext4 file system instead of swap so that its reads do not
# count as the data disk's, holds a SCAN_MB file that scan_loop reads from
# start to end, again and again, in a memcg.  Sourced after
# fio-prologue.sh (the guest helpers and the conf).

SCAN_DIR=/mnt/scan
scan_file=$SCAN_DIR/scan.dat
scan_stop=/tmp/scan-stop

# Replace swap on the second disk with a file system holding the cold file.
make_scan_disk() {
	swapoff "/dev/$SWAP_DEV" 2>/dev/null || true
	dd if=/dev/zero of="/dev/$SWAP_DEV" bs=4k count=1 status=none  # the swap signature
	mkfs.ext4 -q "/dev/$SWAP_DEV"
	mkdir -p "$SCAN_DIR"
	mount -t ext4 "/dev/$SWAP_DEV" "$SCAN_DIR"
	dd if=/dev/zero of="$scan_file" bs=1M count="$SCAN_MB" status=none
}

# scan_loop MEMCG: read the cold file with dd, blocks of SCAN_BS, in a loop
# in MEMCG until stop_scan; run it in the background.
scan_loop() {
	rm -f "$scan_stop"
	in_memcg "$1" sh -c 'until [ -e "$2" ]; do dd if="$0" of=/dev/null bs="$1" status=none; done' \
		"$scan_file" "$SCAN_BS" "$scan_stop" >/dev/null
}

# stop_scan PID: end the scan_loop running as PID.
stop_scan() {
	touch "$scan_stop"
	pkill -x dd || true
	wait "$1" 2>/dev/null || true
}

