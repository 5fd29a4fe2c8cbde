#!/bin/bash
# Guest side of the user-visible checks of the LRU access count (refs) API,
# patches 11-16 of MGLRU-FG.  Each check prints "ok - NAME" or
# "not ok - NAME: REASON" (a check that cannot run here prints
# "ok - NAME # SKIP REASON"); measurements go to lines starting with "#".
# The script exits non-zero if any check failed.
#
#   smaps-referenced  /proc/PID/smaps "Referenced" of a file mapping counts
#                     the pages read twice, through the mapping and through
#                     the fd (refs 2 is PG_workingset alone with MGLRU-FG),
#                     and drops to 0 after "echo 1 > /proc/PID/clear_refs".
#   madv-cold-file    MADV_COLD on one of two equally hot halves of a file
#                     mapping makes that half the one memory.reclaim takes.
#   madv-cold-anon    The same for anon memory; with the multi-gen LRU, the
#                     cold pages must land in an old generation right away
#                     (not in max_seq - 1, where new anon pages go).
#   madv-pageout      Pages read four times, paged out with MADV_PAGEOUT and
#                     faulted back in through the mapping are refaults that
#                     are still part of the working set (as the
#                     active/inactive LRU keeps PG_workingset): workingset
#                     restores and, in the fault, activations (multi-gen
#                     LRU).
#   reread-*          A file re-read ten times through one open fd, a page
#                     per read(2) (reread-read-256k, reread-read-8m) or per
#                     sendfile(2) (reread-sendfile-8m), with an lseek() to
#                     the start before each pass, is kept when memory.reclaim
#                     takes as much as a file read once after it: the
#                     re-reads of data in memory are accesses, whatever
#                     readahead window an earlier pass left in the open
#                     file (issue 39, finding 3), and a splice that goes on
#                     in the folio the last one ended in is no new access.
#   stream-refault    With the multi-gen LRU: a file read once, reclaimed and
#                     read again a page per read(2) through a new fd comes
#                     back from disk by readahead, so the second read is the
#                     stream's and counts only as a first access: the file
#                     stays in the oldest generation (finding 3's other
#                     side: the rule must still see a stream that reads
#                     ahead).
#   splice-small      With the multi-gen LRU: a 16 KiB file, one folio, sent
#                     ten times with sendfile(2) from its start through one
#                     fd leaves the oldest generation: a splice after a seek
#                     accesses the folio the last one ended in.
#   thp-split         Splitting an accessed shmem THP keeps every page
#                     referenced (/proc/kpageflags) and keeps the memcg's
#                     active_anon, which counts refs with MGLRU-FG.
#   thp-split-young   With the active/inactive LRU: splitting the young PMD
#                     of a shmem THP read once (PG_referenced, inactive)
#                     only sets PG_referenced, as the base does; it neither
#                     activates the folio (memory.stat pgactivate) nor keeps
#                     it from being split (review item 8 of issue 40: patch
#                     14 is an MGLRU change).  The multi-gen LRU counts the
#                     young bit as an access (not checked here).
#
# With the multi-gen LRU on, the checks run once, then once more with
# lru_gen switched off at run time, as "classic-NAME", where the kernel
# must behave as the base's active/inactive LRU does (review finding 3 of
# issue 16).  That pass starts with classic-switch-off-smaps: pages that
# the multi-gen LRU counted twice (refs 2, PG_workingset alone) before
# the switch must not be "Referenced" after clear_refs, which clears
# PG_referenced and the young bits there, and keeps PG_workingset.
#
# usage: refs-api.sh MADV   (MADV: scripts/guest/madv.c built for the guest,
# which scripts/boot/refs-api.sh does)
set -uo pipefail
. "$(dirname "$0")/lib.sh"

MADV=${1:?usage: refs-api.sh MADV}
LRU_GEN=/sys/kernel/mm/lru_gen/enabled
THP_DIR=/mnt/refs-thp
# memory.stat lags the per-cpu counters by up to a flush batch (64 pages
# per CPU); allow twice that where a count must not move.
TOLERANCE=$((2 * 64 * $(nproc)))

MEMCGS="refs-smaps refs-cold refs-cold-anon refs-pageout refs-reread refs-stream refs-thp refs-switch"
REREAD_PASSES=10

failures=0
# "classic-" in the pass with lru_gen switched off at run time
prefix=

ok() { echo "ok - $prefix$1${2:+ # SKIP $2}"; }
not_ok() {
	echo "not ok - $prefix$1: $2"
	failures=$((failures + 1))
}
# Value of key $1 in the output of madv, $out.
get() { awk -v k="$1" '$1 == k { print $2 }' <<<"$out"; }
# Print the measurements of the last madv run as comments.
show() {
	local line

	while IFS= read -r line; do
		echo "#   $line"
	done <<<"$out"
}

lru_gen_on() {
	local caps

	caps=$(cat $LRU_GEN 2>/dev/null) || return 1
	[ $((caps & 1)) = 1 ]
}

# Run madv subcommand $2... in a fresh memcg $1; its output goes to $out.
run_madv() {
	local cg=$1

	shift
	make_memcg "$cg" max
	out=$(in_memcg "$cg" "$MADV" "$@")
	local rc=$?
	show
	return $rc
}

# check_smaps [NAME FILE]: FILE already in the page cache, as the caller
# left it; by default a new file, not cached.
check_smaps() {
	local name=${1:-smaps-referenced} file=${2:-} nreads=2 size

	# With the active/inactive LRU, the second read activates a folio and
	# clears PG_referenced; the third sets it again.
	lru_gen_on || nreads=3
	if [ -z "$file" ]; then
		file=$DATA_DIR/refs-smaps.dat
		lay_out_file "$file" 16
	fi
	run_madv refs-smaps smaps "$file" $nreads ||
		{ not_ok "$name" "madv smaps failed"; return; }
	size=$(get size_kb)
	if [ "$(get mapped_twice_kb)" -lt $((size * 9 / 10)) ]; then
		not_ok "$name" "mapping touched twice: Referenced $(get mapped_twice_kb) of $size kB"
	elif [ "$(get after_clear_kb)" != 0 ]; then
		not_ok "$name" "Referenced $(get after_clear_kb) kB after clear_refs"
	elif [ "$(get fd_reads_kb)" -lt $((size * 9 / 10)) ]; then
		not_ok "$name" "file read $nreads times: Referenced $(get fd_reads_kb) of $size kB"
	elif [ "$(get after_clear2_kb)" != 0 ]; then
		not_ok "$name" "Referenced $(get after_clear2_kb) kB after reads and clear_refs"
	else
		ok "$name"
	fi
}

# The verdict of a MADV_COLD check (madv output in $out): after reclaiming
# $2 pages, at most a quarter of the $2 cold pages ($3: a word for their
# kind) may be resident, and at least three quarters of the hot ones.
cold_went_first() {
	local name=$1 pages=$2 kind=$3

	if [ "$(get cold_resident)" -gt $((pages / 4)) ]; then
		not_ok "$name" "$(get cold_resident) of $pages cold ${kind}pages still resident after reclaiming $pages"
	elif [ "$(get hot_resident)" -lt $((pages * 3 / 4)) ]; then
		not_ok "$name" "only $(get hot_resident) of $pages equally hot, not cold, ${kind}pages resident"
	else
		ok "$name"
	fi
}

check_cold_file() {
	local name=madv-cold-file

	lay_out_file "$DATA_DIR/refs-cold.dat" 32
	run_madv refs-cold cold "$DATA_DIR/refs-cold.dat" "$CGROOT/refs-cold" ||
		{ not_ok $name "madv cold failed"; return; }
	cold_went_first $name "$(get half_pages)" ""
}

check_cold_anon() {
	local name=madv-cold-anon pages moved

	if ! grep -q '^/' /proc/swaps; then
		ok $name "no swap"
		return
	fi
	if lru_gen_on; then
		run_madv refs-cold-anon cold-anon 16 "$CGROOT/refs-cold-anon" /refs-cold-anon
	else
		run_madv refs-cold-anon cold-anon 16 "$CGROOT/refs-cold-anon"
	fi || { not_ok $name "madv cold-anon failed"; return; }
	pages=$(get region_pages)
	if lru_gen_on; then
		moved=$(($(get old_anon_after) - $(get old_anon_before)))
		if [ $moved -lt $((pages * 8 / 10)) ]; then
			not_ok $name "MADV_COLD moved $moved of $pages anon pages out of the two youngest generations"
			return
		fi
	fi
	cold_went_first $name "$pages" "anon "
}

check_pageout() {
	local name=madv-pageout pages

	# The active/inactive LRU activates any refault within the workingset
	# size, whatever the folio's history: nothing to check there.
	lru_gen_on || { ok $name "not the multi-gen LRU"; return; }
	lay_out_file "$DATA_DIR/refs-pageout.dat" 16
	run_madv refs-pageout pageout "$DATA_DIR/refs-pageout.dat" "$CGROOT/refs-pageout" ||
		{ not_ok $name "madv pageout failed"; return; }
	pages=$(get pages)
	# Every refault with a shadow entry counts in workingset_refault_file.
	# MADV_PAGEOUT forgets how hot the pages were, not that they were part
	# of the working set: the faults bring them back as such, restored
	# (workingset_restore_file, and a PSI memstall) and activated.
	if [ "$(get resident_after_pageout)" -gt $((pages / 10)) ]; then
		not_ok $name "MADV_PAGEOUT left $(get resident_after_pageout) of $pages pages resident"
	elif [ "$(get refault_delta)" -lt $((pages / 2)) ]; then
		not_ok $name "the re-read refaulted only $(get refault_delta) of $pages pages"
	elif [ "$(get activate_delta)" -lt $((pages / 2)) ]; then
		not_ok $name "the re-read counted only $(get activate_delta) of $pages pages as workingset_activate_file"
	elif [ "$(get restore_delta)" -lt $((pages / 2)) ]; then
		not_ok $name "the re-read counted only $(get restore_delta) of $pages pages as workingset_restore_file"
	else
		ok $name
	fi
}

# check_reread NAME MODE KIB: MODE read or sendfile, the files KIB KiB each
check_reread() {
	local name=$1 mode=$2 kb=$3 pages
	local file=$DATA_DIR/refs-reread.dat other=$DATA_DIR/refs-once.dat

	dd if=/dev/zero of="$file" bs=1K count="$kb" status=none
	dd if=/dev/zero of="$other" bs=1K count="$kb" status=none
	sync
	echo 3 >/proc/sys/vm/drop_caches
	echo "#   readahead: $(cat "/sys/block/$DATA_DEV/queue/read_ahead_kb") KiB"
	run_madv refs-reread reread "$mode" "$file" "$other" "$CGROOT/refs-reread" $REREAD_PASSES ||
		{ not_ok "$name" "madv reread failed"; return; }
	rmdir "$CGROOT/refs-reread" 2>/dev/null
	pages=$(get pages)
	# All the file re-read holds is in the youngest generations (on the
	# active list), far from what reclaim takes; a page it lost is one
	# whose re-reads counted as a first access only.
	if [ "$(get reread_resident)" -lt "$pages" ]; then
		not_ok "$name" "$(get reread_resident) of $pages pages of the file read $REREAD_PASSES times resident after reclaiming $pages ($(get once_resident) of the file read once)"
	elif [ "$(get once_resident)" -gt $((pages / 4)) ]; then
		not_ok "$name" "$(get once_resident) of $pages pages of the file read once still resident after reclaiming $pages"
	else
		ok "$name"
	fi
}

# file_pages_above_oldest MEMCG: file pages in the memcg's generations
# above the oldest one (node 0)
file_pages_above_oldest() {
	memcg_gens "$1" | awk 'NR > 1 { sum += $4 } END { print sum + 0 }'
}

# check_stream_gens NAME KIB MODE FIRST SECOND: a file of KIB KiB read
# FIRST passes (MODE read or sendfile) in a new memcg, reclaimed if
# SECOND is "reclaimed", then read once more through a new fd
check_stream_gens() {
	local name=$1 kb=$2 mode=$3 passes=$4 reclaim=$5 above pages=$(($2 * 1024 / $(getconf PAGESIZE)))
	local file=$DATA_DIR/refs-stream.dat cg=refs-stream

	lru_gen_on || { ok "$name" "not the multi-gen LRU"; return; }
	dd if=/dev/zero of="$file" bs=1K count="$kb" status=none
	sync
	echo 3 >/proc/sys/vm/drop_caches
	make_memcg $cg max
	in_memcg $cg "$MADV" passes "$mode" "$file" "$passes" ||
		{ not_ok "$name" "madv passes failed"; return; }
	if [ "$reclaim" = reclaimed ]; then
		echo "${kb}K" >"$CGROOT/$cg/memory.reclaim" 2>/dev/null
		in_memcg $cg "$MADV" passes "$mode" "$file" 1 ||
			{ not_ok "$name" "madv passes failed"; return; }
	fi
	above=$(file_pages_above_oldest $cg)
	echo "#   $pages pages; file pages above the oldest generation: $above"
	lru_gen_summary $cg | sed 's/^/#/'
	rmdir "$CGROOT/$cg" 2>/dev/null
	rm -f "$file"
	if [ "$reclaim" = reclaimed ] && [ "$above" -gt $((pages / 4)) ]; then
		not_ok "$name" "$above file pages above the oldest generation after a stream read back $pages reclaimed pages"
	elif [ "$reclaim" != reclaimed ] && [ "$above" -lt "$pages" ]; then
		not_ok "$name" "$above file pages above the oldest generation after $passes passes over $pages pages"
	else
		ok "$name"
	fi
}

check_thp_split() {
	local name=thp-split pages

	[ -w /sys/kernel/debug/split_huge_pages ] ||
		{ ok $name "no /sys/kernel/debug/split_huge_pages"; return; }
	mkdir -p $THP_DIR
	mountpoint -q $THP_DIR || mount -t tmpfs -o huge=always,size=16M tmpfs $THP_DIR ||
		{ ok $name "no tmpfs with huge=always"; return; }
	run_madv refs-thp thp-split $THP_DIR/thp.dat "$CGROOT/refs-thp" ||
		{ not_ok $name "madv thp-split failed"; umount $THP_DIR; return; }
	umount $THP_DIR
	pages=$(get pages)
	if [ "$(get thp_before)" -lt "$pages" ]; then
		ok $name "only $(get thp_before) of $pages shmem pages in THPs"
	elif [ "$(get thp_after)" != 0 ]; then
		not_ok $name "$(get thp_after) of $pages pages still in THPs after split_huge_pages"
	elif [ "$(get referenced_before)" -lt $((pages * 9 / 10)) ]; then
		not_ok $name "only $(get referenced_before) of $pages pages referenced after three reads"
	elif [ "$(get referenced_after)" -lt "$(get referenced_before)" ]; then
		not_ok $name "$(get referenced_after) pages referenced after the split, $(get referenced_before) before"
	elif [ "$(get present_after)" != "$pages" ]; then
		not_ok $name "$(get present_after) of $pages pages mapped after the split"
	elif [ "$(get active_anon_delta)" -lt $((-TOLERANCE)) ]; then
		not_ok $name "active_anon changed by $(get active_anon_delta) pages across the split"
	else
		ok $name
	fi
}

check_thp_split_young() {
	local name=thp-split-young pages

	lru_gen_on && { ok $name "the multi-gen LRU counts the young bit"; return; }
	[ -w /sys/kernel/debug/split_huge_pages ] ||
		{ ok $name "no /sys/kernel/debug/split_huge_pages"; return; }
	mkdir -p $THP_DIR
	mountpoint -q $THP_DIR || mount -t tmpfs -o huge=always,size=16M tmpfs $THP_DIR ||
		{ ok $name "no tmpfs with huge=always"; return; }
	run_madv refs-thp thp-split-young $THP_DIR/thp.dat "$CGROOT/refs-thp" ||
		{ not_ok $name "madv thp-split-young failed"; umount $THP_DIR; return; }
	umount $THP_DIR
	pages=$(get pages)
	if [ "$(get thp_before)" -lt "$pages" ]; then
		ok $name "only $(get thp_before) of $pages shmem pages in THPs"
	elif [ "$(get referenced_before)" -lt "$pages" ] || [ "$(get active_before)" != 0 ] ||
		[ "$(get pmd_mapped_before)" -lt "$pages" ]; then
		not_ok $name "set-up: $(get referenced_before) of $pages pages referenced, $(get active_before) active, $(get pmd_mapped_before) PMD-mapped before the split"
	elif [ "$(get thp_after)" != 0 ]; then
		not_ok $name "$(get thp_after) of $pages pages still in THPs after split_huge_pages"
	elif [ "$(get pgactivate_delta)" -gt $((pages / 2)) ] || [ "$(get active_after)" != 0 ]; then
		not_ok $name "the split activated $(get pgactivate_delta) pages (pgactivate; $(get active_after) active after)"
	else
		ok $name
	fi
}

run_checks() {
	check_smaps
	check_cold_file
	check_cold_anon
	check_pageout
	check_reread reread-read-256k read 256
	check_reread reread-read-8m read 8192
	check_reread reread-sendfile-8m sendfile 8192
	check_stream_gens stream-refault 8192 read 1 reclaimed
	check_stream_gens splice-small 16 sendfile 10 kept
	check_thp_split
	check_thp_split_young
}

remove_memcgs() {
	local cg

	for cg in $MEMCGS; do
		rmdir "$CGROOT/$cg" 2>/dev/null
	done
}

# The pass with the active/inactive LRU, switched to at run time from the
# multi-gen LRU, and back.
run_classic_pass() {
	local file=$DATA_DIR/refs-switch.dat

	lay_out_file "$file" 16
	make_memcg refs-switch max
	# shellcheck disable=SC2016 # $0: the file, for the inner shell
	in_memcg refs-switch sh -c 'cat "$0" >/dev/null && cat "$0" >/dev/null' "$file"
	echo n >$LRU_GEN
	prefix=classic-
	echo "# lru_gen: $(cat $LRU_GEN) (switched off)"
	check_smaps switch-off-smaps "$file"
	run_checks
	remove_memcgs
	prefix=
	echo y >$LRU_GEN
	echo "# lru_gen: $(cat $LRU_GEN) (switched on again)"
}

[ -x "$MADV" ] || { echo "refs-api: no madv binary at $MADV (see scripts/boot/refs-api.sh)" >&2; exit 2; }
guest_setup
echo "# kernel $(uname -r); lru_gen: $(cat $LRU_GEN 2>/dev/null || echo none)"
run_checks
remove_memcgs
lru_gen_on && run_classic_pass
rm -f "$DATA_DIR"/refs-*.dat
echo "# $failures check(s) failed"
[ $failures = 0 ]
