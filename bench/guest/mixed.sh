#!/bin/bash
# Guest side of the mixed anon + file benchmark (benchmarks.md, workload
# 5): in one small memcg with swap, anon-zipf reads Zipf-hot private
# anonymous memory while fio reads a Zipf-hot file.  Both run an untimed
# warm-up, then the timed window (a fresh stretch of the same
# distributions), concurrently.
# usage: mixed.sh CONF LRU_GEN_ENABLED GUEST_BIN   (CONF: bench/mixed.conf)
# Prints "RESULT key=value..." for the window.
set -euo pipefail
. "$(dirname "$0")/fio-prologue.sh" "$@"
anon_zipf=$3/anon-zipf
go=/tmp/anon-go
anon_out=/tmp/anon.out

guest_setup
grep -q "^/dev/$SWAP_DEV " /proc/swaps || { echo "no swap on /dev/$SWAP_DEV" >&2; exit 1; }
echo "$lru_gen" >/sys/kernel/mm/lru_gen/enabled
echo "kernel $(uname -r) lru_gen $(cat /sys/kernel/mm/lru_gen/enabled)"
lay_out_file "$ZIPF_FILE" "$DATA_MB"

vmstat_value() { awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat; }

# Wait for anon-zipf's "warm" line (it then waits for $go); fail if it died.
wait_anon_warm() {
	until grep -qx warm "$anon_out"; do
		kill -0 "$1" 2>/dev/null || { echo "anon-zipf died:" >&2; cat "$anon_out" >&2; exit 1; }
		sleep 0.2
	done
}

rm -f "$go"
preload_fio "$DATA_DIR"
cat "$anon_zipf" >/dev/null  # its page cache outside the memcg, like fio's
make_memcg bench "${MEMCG_MB}M"

# Warm-up: both at once, untimed.
in_memcg bench "$anon_zipf" "$ANON_MB" "$ANON_THETA" "$ANON_WARMUP" "$ANON_WINDOW" "$go" \
	>"$anon_out" &
anon_pid=$!
run_fio "$FILE_THETA" "$WARMUP_SEED" "$WARMUP_LOOPS" >/dev/null
wait_anon_warm "$anon_pid"

# The window: counters around both runs.
pswpin0=$(vmstat_value pswpin) pswpout0=$(vmstat_value pswpout)
rfa0=$(memcg_stat bench workingset_refault_anon) rff0=$(memcg_stat bench workingset_refault_file)
sectors0=$(disk_sectors_read)
anon0=$(memcg_stat bench anon)
t0=$(date +%s.%N)
touch "$go"
out=$(run_fio "$FILE_THETA" "$WINDOW_SEED" "$WINDOW_LOOPS")
file_end=$(date +%s.%N)
wait "$anon_pid" || { echo "anon-zipf failed:" >&2; cat "$anon_out" >&2; exit 1; }
t1=$(date +%s.%N)
reads=$(awk -F';' '{ print int($6 / 4) }' <<<"$out")
pages=$((($(disk_sectors_read) - sectors0) / 8))
anon_s=$(sed -n 's/^anon_s=//p' "$anon_out")
echo "RESULT" \
	"wall_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')" \
	"file_s=$(awk -v a="$t0" -v b="$file_end" 'BEGIN { printf "%.2f", b - a }')" \
	"anon_s=$anon_s" \
	"file_reads=$reads disk_pages=$pages" \
	"pages_per_read=$(awk -v p="$pages" -v r="$reads" 'BEGIN { printf "%.4f", p / r }')" \
	"refault_file=$(($(memcg_stat bench workingset_refault_file) - rff0))" \
	"refault_anon=$(($(memcg_stat bench workingset_refault_anon) - rfa0))" \
	"pswpin=$(($(vmstat_value pswpin) - pswpin0)) pswpout=$(($(vmstat_value pswpout) - pswpout0))" \
	"anon=$anon0 file=$(memcg_stat bench file)"
rmdir "$CGROOT/bench" 2>/dev/null || true
