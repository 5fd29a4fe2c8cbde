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
	# SCAN_READ_AHEAD_KB: the stream's readahead window, which bounds the
	# order of its page cache folios (the kernel's default otherwise)
	[ -z "${SCAN_READ_AHEAD_KB:-}" ] || echo "$SCAN_READ_AHEAD_KB" >"/sys/block/$SWAP_DEV/queue/read_ahead_kb"
	dd if=/dev/zero of="$scan_file" bs=1M count="$SCAN_MB" status=none
}

# scan_loop MEMCG: read the cold file, blocks of SCAN_BS, in a loop in
# MEMCG until stop_scan; run it in the background.  With SCAN_RATE_MB set,
# fio reads it at that many MiB/s (so that both arms' streams put the same
# load on the rest of the machine), otherwise dd as fast as it goes.
scan_loop() {
	rm -f "$scan_stop"
	if [ -n "${SCAN_RATE_MB:-}" ]; then
		in_memcg "$1" fio --name=scan-stream --filename="$scan_file" --rw=read --bs="$SCAN_BS" \
			--ioengine=psync --fadvise_hint=0 --invalidate=0 --rate="${SCAN_RATE_MB}m" \
			--time_based --runtime=86400 >/dev/null
		return
	fi
	in_memcg "$1" sh -c 'until [ -e "$2" ]; do dd if="$0" of=/dev/null bs="$1" status=none; done' \
		"$scan_file" "$SCAN_BS" "$scan_stop" >/dev/null
}

# stop_scan PID: end the scan_loop running as PID.
stop_scan() {
	touch "$scan_stop"
	pkill -x dd || true
	pkill -f -- --name=scan-stream || true
	wait "$1" 2>/dev/null || true
}
