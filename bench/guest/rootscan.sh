#!/bin/bash
# Guest side of the root-cgroup benchmark (bench/rootscan.conf, issue 39
# item 2): fio reads a Zipf-hot file in the root cgroup, in a guest too
# small for it, while dd streams a cold file in a loop in a child memcg
# with a limit of its own.  The child's evictions advance the eviction
# clock of its ancestors, the root's included; the root's own refaults
# must still reach its refault controllers.  The root's numbers are its
# own: the system's (/proc/vmstat) less the child's (memory.stat).
# usage: rootscan.sh CONF LRU_GEN_ENABLED
# Prints "RESULT key=value...".
set -euo pipefail
. "$(dirname "$0")/fio-prologue.sh" "$@"
. "$(dirname "$0")/scan-disk.sh"
# shellcheck disable=SC2034 # for run_fio: the root cgroup
FIO_MEMCG=''
CHILD=stream
samples=/tmp/rootscan-samples
vmstat0=/tmp/rootscan-vmstat0
meminfo_trace=/tmp/rootscan-meminfo

guest_setup
echo "$lru_gen" >/sys/kernel/mm/lru_gen/enabled
echo "kernel $(uname -r) lru_gen $(cat /sys/kernel/mm/lru_gen/enabled)"
make_scan_disk
lay_out_file "$ZIPF_FILE" "$DATA_MB"

# root_own KEY: the root cgroup's own count of a memory.stat event: the
# root's (hierarchical) less the child's.  Reading the root's flushes
# the whole tree's counters first, so the two agree.
root_own() {
	local all
	all=$(awk -v k="$1" '$1 == k { print $2 }' "$CGROOT/memory.stat")
	echo $((all - $(memcg_stat "$CHILD" "$1")))
}

# The root lruvec's file refaults as its tier controllers count them:
# refaulted[] of the oldest file generation's history slot, the one that
# lru_gen_refault() adds to, summed over the tiers ("SEQ REFAULTED", from
# /sys/kernel/debug/lru_gen_full: the first generation whose file size is
# not marked "x" and the "r" column of the file type on its tier lines).
root_ctrl_sample() {
	memcg_section /sys/kernel/debug/lru_gen_full "" | awk '
		NF == 4 && $1 ~ /^[0-9]+$/ { if (seq == "" && $4 !~ /x$/) { seq = $1; mine = 1 } else mine = 0; next }
		mine && NF == 7 && $1 ~ /^[0-9]+$/ { refaulted += $5 }
		END { print seq, refaulted + 0 }'
}

# meminfo_sample: "free/cached/child MiB, kswapd/direct pages reclaimed
# (the system's, then the child's, since the window began)", for the
# console's trace.
meminfo_sample() {
	awk -v child="$(cat "$CGROOT/$CHILD/memory.current")" \
		-v cstat="$(memcg_stat "$CHILD" pgsteal_kswapd) $(memcg_stat "$CHILD" pgsteal_direct)" \
		-v gens="$(memcg_gens "$CHILD" | awk '{ s = s (s ? "," : "") $1 ":" int($4 / 256) } END { print s }')" '
		NR == FNR { v0[$1] = $2; next }
		$1 == "pgsteal_kswapd" || $1 == "pgsteal_direct" { v[$1] = $2 - v0[$1] }
		$1 == "MemFree:" { f = $2 } $1 == "Cached:" { c = $2 }
		$1 == "Node" { for (o = 4; o <= 10; o++) hi += $(o + 5) * 2 ^ o }
		END { split(cstat, cs, " ")
			printf "%d/%d/%d/%d/%d/%d/%d/%d/%s ", f / 1024, c / 1024, child / 1048576,
				v["pgsteal_kswapd"], v["pgsteal_direct"], cs[1] - c0k, cs[2] - c0d, hi / 256, gens }' \
		c0k="$child_k0" c0d="$child_d0" "$vmstat0" /proc/vmstat /proc/meminfo /proc/buddyinfo >>"$meminfo_trace"
}

# With a tracing kernel (configs/trace.config): kswapd's wake-ups and its
# reclaim in the window, summed per kswapd run (wake to sleep).
TRACE=/sys/kernel/debug/tracing
trace_on() {
	[ -d "$TRACE/events/vmscan" ] || return 0
	echo 16384 >"$TRACE/buffer_size_kb"
	: >"$TRACE/trace"
	local e
	for e in mm_vmscan_wakeup_kswapd mm_vmscan_kswapd_wake mm_vmscan_kswapd_sleep mm_vmscan_lru_shrink_inactive; do
		echo 1 >"$TRACE/events/vmscan/$e/enable"
	done
}
trace_summary() {
	[ -d "$TRACE/events/vmscan" ] || return 0
	echo 0 >"$TRACE/events/vmscan/enable"
	awk '
		/mm_vmscan_wakeup_kswapd:/ { match($0, /order=[0-9]+/); w[substr($0, RSTART + 6, RLENGTH - 6)]++ }
		/kswapd0.*mm_vmscan_kswapd_wake:/ { match($0, /order=[0-9]+/); run++; order[run] = substr($0, RSTART + 6, RLENGTH - 6); prio[run] = 12 }
		/kswapd0.*mm_vmscan_lru_shrink_inactive:/ {
			match($0, /nr_reclaimed=[0-9]+/); rec[run] += substr($0, RSTART + 13, RLENGTH - 13)
			match($0, /priority=[0-9]+/); p = substr($0, RSTART + 9, RLENGTH - 9); if (p < prio[run]) prio[run] = p }
		END {
			printf "trace: wakeup_kswapd by order:"; for (o in w) printf " %s:%d", o, w[o]; print ""
			printf "trace: kswapd runs %d, each \"order:reclaimed:lowest priority\":", run
			for (i = 1; i <= run; i++) printf " %s:%d:%d", order[i], rec[i], prio[i]; print ""
		}' "$TRACE/trace"
	echo "trace: lines reporting lost events: $(grep -c 'LOST' "$TRACE/trace" || true)"
}

# Sample root_ctrl_sample every SAMPLE_S seconds into $samples until killed.
sample_ctrl() {
	root_ctrl_sample >"$samples"
	while sleep "$SAMPLE_S"; do
		root_ctrl_sample >>"$samples"
		meminfo_sample
	done
}

# The refaults the controllers counted in the window, from the samples:
# the increments of one slot, and when the oldest generation moves on
# (its slot folded into the averages and cleared), the new slot's count.
ctrl_counted() {
	awk 'NR > 1 { n += ($1 == seq && $2 >= r) ? $2 - r : $2 } { seq = $1; r = $2 } END { print n + 0 }' "$samples"
}

echo 3 >/proc/sys/vm/drop_caches
preload_fio "$DATA_DIR"
make_memcg "$CHILD" "${CHILD_MEMCG_MB}M"
scan_loop "$CHILD" &
scanner=$!
run_fio "$THETA" "$warmup_seed" "$WARMUP_LOOPS" >/dev/null
refaults0=$(root_own workingset_refault_file)
activations0=$(root_own workingset_activate_file)
steals0=$(root_own pgsteal)
sectors0=$(disk_sectors_read)
scan0=$(disk_sectors_read "$SWAP_DEV")
cp /proc/vmstat "$vmstat0"
trace_on
child_k0=$(memcg_stat "$CHILD" pgsteal_kswapd)
child_d0=$(memcg_stat "$CHILD" pgsteal_direct)
: >"$meminfo_trace"
sampler=
if lru_gen_on; then
	sample_ctrl &
	sampler=$!
fi
t0=$(date +%s.%N)
out=$(run_fio "$THETA" "$window_seed" "$WINDOW_LOOPS")
t1=$(date +%s.%N)
if [ -n "$sampler" ]; then
	kill "$sampler"
	wait "$sampler" 2>/dev/null || true
	root_ctrl_sample >>"$samples"
fi
reads=$(awk -F';' '{ print int($6 / 4) }' <<<"$out")
pages=$((($(disk_sectors_read) - sectors0) / 8))
refaults=$(($(root_own workingset_refault_file) - refaults0))
activations=$(($(root_own workingset_activate_file) - activations0))
steals=$(($(root_own pgsteal) - steals0))
scan_mb=$((($(disk_sectors_read "$SWAP_DEV") - scan0) / 2048))
kswapd=$(($(awk '$1 == "pgsteal_kswapd" { print $2 }' /proc/vmstat) - $(awk '$1 == "pgsteal_kswapd" { print $2 }' "$vmstat0")))
peak_free=$(tr ' ' '\n' <"$meminfo_trace" | awk -F/ 'NF && $1 > m { m = $1 } END { print m + 0 }')
stop_scan "$scanner"
counted=0
[ -z "$sampler" ] || counted=$(ctrl_counted)

# For a look at why an arm did better or worse (console log only).
{
	echo "root: reads=$reads disk_pages=$pages refaults=$refaults activations=$activations pgsteal=$steals"
	echo "root controller samples (oldest file seq, refaulted): counted $counted"
	tr '\n' ' ' <"$samples" 2>/dev/null || true
	echo
	echo "free/cached/child MiB, pgsteal kswapd/direct all, then child, MiB free in blocks of order >= 4, the child's generations (seq:file MiB), every ${SAMPLE_S}s: $(cat "$meminfo_trace" 2>/dev/null)"
	trace_summary
	echo "vmstat in the window:"
	awk 'NR == FNR { v0[$1] = $2; next }
		$1 !~ /^nr_/ {
			if ($2 != v0[$1]) printf "%s %d ", $1, $2 - v0[$1] }
		END { print "" }' "$vmstat0" /proc/vmstat
	grep -E '^workingset_(refault|activate|restore)_file |^pgsteal ' "$CGROOT/$CHILD/memory.stat" | tr '\n' ' '
	echo
	if lru_gen_on; then
		memcg_section /sys/kernel/debug/lru_gen_full ""
		echo "the child:"
		memcg_section /sys/kernel/debug/lru_gen_full "$CHILD"
	fi
} >&2
awk -v seed="$window_seed" -v p="$pages" -v r="$reads" -v f="$refaults" -v a="$activations" \
	-v s="$steals" -v c="$counted" -v m="$scan_mb" -v t0="$t0" -v t1="$t1" -v k="$kswapd" -v pf="$peak_free" 'BEGIN {
	printf "RESULT seed=%s pages_per_read=%.4f refaults_per_read=%.4f activations_per_read=%.4f", seed, p / r, f / r, a / r
	printf " refault_rate=%.4f ctrl_share=%.4f scan_mb=%d window_s=%.2f", s ? f / s : 0, f ? c / f : 0, m, t1 - t0
	printf " kswapd_per_read=%.4f peak_free_mb=%d\n", k / r, pf
}'
