# shellcheck shell=bash
# Helpers for scripts that run inside the harness guest; sourced.
# Its variables are for the scripts that source it:
# shellcheck disable=SC2034

CGROOT=/sys/fs/cgroup
DATA_DEV=vda
SWAP_DEV=vdb
DATA_DIR=/mnt/data

# Mount the data disk and enable swap (both prepared by boot.sh).
guest_setup() {
	cd /tmp || return	# the root file system is read-only; tools want a writable cwd
	mountpoint -q "$DATA_DIR" || mount -t ext4 "/dev/$DATA_DEV" "$DATA_DIR"
	swapon "/dev/$SWAP_DEV" 2>/dev/null || true
	grep -qw memory "$CGROOT/cgroup.subtree_control" ||
		echo +memory >"$CGROOT/cgroup.subtree_control"
}

# Create memcg $1 with memory.max $2 (bytes, or K/M/G suffix).
make_memcg() {
	mkdir -p "$CGROOT/$1"
	echo "$2" >"$CGROOT/$1/memory.max"
}

# Value of key $2 in memcg $1's memory.stat.
memcg_stat() {
	awk -v k="$2" '$1 == k { print $2 }' "$CGROOT/$1/memory.stat"
}

# Sectors read from a disk so far (field 3 of /sys/block/DEV/stat).
disk_sectors_read() { # disk_sectors_read [DEV]: of the data disk by default
	awk '{ print $3 }' "/sys/block/${1:-$DATA_DEV}/stat"
}

# Run a command inside memcg $1.
in_memcg() {
	local cg=$1
	shift
	sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$CGROOT/$cg" "$@"
}

# Write a file of $2 MiB at $1 outside any small memcg, then drop it
# from the page cache so the workload starts cold.
lay_out_file() {
	dd if=/dev/zero of="$1" bs=1M count="$2" status=none
	sync
	echo 3 >/proc/sys/vm/drop_caches
}

# memcg_section FILE MEMCG: the lines of FILE (/sys/kernel/debug/lru_gen or
# lru_gen_full) that belong to memcg MEMCG, its own header line left out.
memcg_section() {
	awk -v cg="/$2" '$1 == "memcg" { inside = ($3 == cg); next } inside' "$1"
}

# The generations of memcg $1 from /sys/kernel/debug/lru_gen, one line
# each: "seq age_ms anon_pages file_pages" (all nodes, oldest first).
memcg_gens() {
	memcg_section /sys/kernel/debug/lru_gen "$1" | awk 'NF == 4 && $1 ~ /^[0-9]+$/'
}

# The id of memcg $1 in /sys/kernel/debug/lru_gen, for its "+ ID NODE SEQ" aging.
memcg_id() {
	awk -v cg="/$1" '$1 == "memcg" && $3 == cg { print $2; exit }' /sys/kernel/debug/lru_gen
}

# memcg_node_max_seqs MEMCG: "NODE MAX_SEQ" for each node of MEMCG.
memcg_node_max_seqs() {
	memcg_section /sys/kernel/debug/lru_gen "$1" |
		awk '$1 == "node" { node = $2; next }
			NF == 4 && $1 ~ /^[0-9]+$/ { max[node] = $1 }
			END { for (n in max) print n, max[n] }' | sort -n
}

# max_seq of memcg $1 (node 0).
memcg_max_seq() {
	memcg_node_max_seqs "$1" | awk '$1 == 0 { print $2 }'
}

# age_memcg MEMCG MS STOP-FILE: ask for a new generation of MEMCG every MS
# milliseconds through /sys/kernel/debug/lru_gen, as a userspace working-set
# estimator does, until STOP-FILE exists; the kernel refuses (ERANGE) while
# the memcg has MAX_NR_GENS and its oldest one cannot go.  Without MGLRU
# the same loop runs and writes nowhere, so that every arm pays its CPU time.
age_memcg() {
	local memcg=$1 stop=$3 id pause to=/sys/kernel/debug/lru_gen

	lru_gen_on || to=/dev/null
	id=$(memcg_id "$memcg")
	pause=$(awk -v ms="$2" 'BEGIN { print ms / 1000 }')
	while [ ! -e "$stop" ]; do
		echo "+ $id 0 $(memcg_max_seq "$memcg")" >"$to" 2>/dev/null || true
		sleep "$pause"
	done
}

# Whether the multi-gen LRU is on (any of its capabilities).
lru_gen_on() {
	[ "$(cat /sys/kernel/mm/lru_gen/enabled)" != 0x0000 ]
}

# The oldest generation's seq of memcg $1 (node 0): min_seq of the type
# with the older one.
memcg_min_seq() {
	memcg_gens "$1" | awk 'NR == 1 { print $1 }'
}

# memcg_seqs MEMCG: "MIN_SEQ MAX_SEQ" of the memcg, "0 0" without MGLRU
memcg_seqs() {
	if lru_gen_on; then
		echo "$(memcg_min_seq "$1") $(memcg_max_seq "$1")"
	else
		echo "0 0"
	fi
}

# memcg_file_gens MEMCG [FILE]: the number of generations MEMCG holds
# file pages in (node 0), max_seq - min_seq[file] + 1.  FILE
# (/sys/kernel/debug/lru_gen_full) marks a generation's size with "x"
# when that type's min_seq is past it.
memcg_file_gens() {
	memcg_section "${2:-/sys/kernel/debug/lru_gen_full}" "$1" |
		awk 'NF == 4 && $1 ~ /^[0-9]+$/ && $4 !~ /x$/ { n++ } END { print n + 0 }'
}

# memory.stat may lag the per-cpu counters by a flush batch (64 pages per
# CPU): the pages a sum read there may be off by, twice that.
MEMCG_STAT_TOLERANCE=$((2 * 64 * $(nproc)))

# Print the generations of memcg $1 for a human.
lru_gen_summary() {
	memcg_gens "$1" | awk '{
		printf "    gen seq %-6s age %8s ms  anon %7s  file %7s\n", $1, $2, $3, $4 }'
}

# The benchmark repeat this boot runs (bench/lib.sh passes bench_rep= on the
# kernel command line); 1 outside a benchmark.
bench_rep() {
	local rep
	rep=$(sed -n 's/.*[[:space:]]bench_rep=\([0-9]*\).*/\1/p' /proc/cmdline)
	echo "${rep:-1}"
}

# Fault injection (configs/faults.config): copies of the workload's
# programs go to FAULT_BIN on the data disk, as the tasks whose
# allocations fail must not use the guest's 9p root (scripts/guest/soak.sh,
# stage_programs()).
FAULT_BIN=$DATA_DIR/fault-bin
FAULT_PERCENT=1
# failures either kind may inject: fail_*'s "times" counts down from it
FAULT_TIMES=100000000
FAULT_DIRS="/sys/kernel/debug/fail_page_alloc /sys/kernel/debug/failslab"

# Let allocations of tasks with make-it-fail fail with FAULT_PERCENT %
# probability: sleeping ones and order 0 too, silently (the console must
# stay clean of anything but real problems).
faults_on() {
	local d

	for d in $FAULT_DIRS; do
		echo Y >"$d/task-filter"
		echo N >"$d/ignore-gfp-wait"
		echo 0 >"$d/verbose"
		echo 1 >"$d/interval"
		echo $FAULT_TIMES >"$d/times"
		echo $FAULT_PERCENT >"$d/probability"
	done
	echo N >/sys/kernel/debug/fail_page_alloc/ignore-gfp-highmem
	echo 0 >/sys/kernel/debug/fail_page_alloc/min-order
}

# faults_off WHO: stop injecting; report and check how many failures each
# kind injected (WHO prefixes the messages).
faults_off() {
	local d injected bad=0

	for d in $FAULT_DIRS; do
		echo 0 >"$d/probability"
		injected=$((FAULT_TIMES - $(cat "$d/times")))
		echo "$1: ${d##*/} injected $injected failures"
		[ $injected -gt 0 ] || { echo "$1: ${d##*/} injected no failure" >&2; bad=1; }
	done
	return $bad
}

# Migration and compaction beside a workload (two NUMA nodes, numa=fake=2):
# scripts/guest/migrator.c in passes MIGRATE_PERIOD_MS apart, and
# vm.compact_memory every COMPACT_PERIOD s.
MIGRATE_PERIOD_MS=500
COMPACT_PERIOD=2

vmstat() { awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat; }

# Write vm.compact_memory every COMPACT_PERIOD s until told to stop.
compactor() {
	local n=0

	trap 'echo "compacted memory $n times"; exit 0' TERM
	while :; do
		sleep $COMPACT_PERIOD
		echo 1 >/proc/sys/vm/compact_memory
		n=$((n + 1))
	done
}

# migration_start MIGRATOR SECONDS FILE CGROUP: move FILE's cached folios
# and CGROUP's processes' pages between the nodes for SECONDS, and compact.
migration_start() {
	MIGRATED_BEFORE=$(vmstat pgmigrate_success)
	"$1" "$2" $MIGRATE_PERIOD_MS "$3" "$4" >/tmp/migrator.out 2>&1 &
	MIGRATOR_PID=$!
	compactor &
	COMPACTOR_PID=$!
}

# migration_stop WHO: stop compacting, wait for the migrator and report
# (WHO prefixes the messages); fails if the migrator failed.
migration_stop() {
	local rc=0

	kill -TERM "$COMPACTOR_PID" 2>/dev/null
	wait "$COMPACTOR_PID"
	wait "$MIGRATOR_PID" || rc=$?
	echo "$1: migrator: $(cat /tmp/migrator.out); pgmigrate_success" \
		"+$(($(vmstat pgmigrate_success) - MIGRATED_BEFORE)) (compaction included)"
	[ $rc = 0 ] || { echo "$1: the migrator failed (status $rc)" >&2; return 1; }
}
