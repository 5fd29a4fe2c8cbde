#!/bin/bash
# Guest side of the hot-sequential + cold-scan benchmark (benchmarks.md,
# workload 3): in one memcg, SQLite rounds (a full scan of a small hot
# table plus indexed lookups in it) run while a reader walks a tree of
# small cold files larger than the memcg, over and over.  A policy that
# keeps the hot table resident gives short SQLite rounds; one that lets
# the scan wash it out reads the table from disk every round.
# usage: sqlite.sh CONF LRU_GEN_ENABLED GUEST_BIN   (CONF: bench/sqlite.conf)
# Prints "RESULT key=value..." for the timed rounds.
set -euo pipefail
here=$(dirname "$0")
. "$here/../../scripts/guest/lib.sh"
# shellcheck source=/dev/null # a benchmark conf
. "$1"
lru_gen=$2
bin=$3
db=$DATA_DIR/hot.db
cold=$DATA_DIR/cold
walk_log=/tmp/walk.log
stop=/tmp/walk-stop
gens_log=/tmp/gens.log
sample_stop=/tmp/sample-stop

guest_setup
echo "$lru_gen" >/sys/kernel/mm/lru_gen/enabled
echo "kernel $(uname -r) lru_gen $(cat /sys/kernel/mm/lru_gen/enabled)"

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }

# The hot table: HOT_ROWS rows with an indexed key and ROW_BYTES of
# payload; outside the memcg, then dropped from the page cache.
sqlite3 "$db" <<SQL
PRAGMA journal_mode = OFF;
CREATE TABLE hot (id INTEGER PRIMARY KEY, k INTEGER, pad BLOB);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $HOT_ROWS)
INSERT INTO hot SELECT i, (i * 7919) % $HOT_ROWS, randomblob($ROW_BYTES) FROM n;
CREATE INDEX hot_k ON hot (k);
SQL
# The cold tree: COLD_DIRS directories of COLD_FILE_KB files, COLD_MB in all.
for d in $(seq 1 "$COLD_DIRS"); do
	mkdir -p "$cold/$d"
	head -c "$((COLD_MB * 1024 / COLD_DIRS))K" /dev/urandom | split -b "${COLD_FILE_KB}K" - "$cold/$d/f"
done
sync
echo "hot.db $(($(stat -c %s "$db") / 1024)) KiB; cold tree $(du -sm "$cold" | cut -f1) MiB"
echo 3 >/proc/sys/vm/drop_caches
# The tools' own files (over 9p) into the page cache, outside the memcg.
sqlite3 :memory: 'SELECT 1' >/dev/null
find /dev/null -maxdepth 0 -print0 | xargs -0 cat >/dev/null

make_memcg bench "${MEMCG_MB}M"

# One SQLite round: a full scan of the table, then LOOKUPS indexed lookups.
round() {
	in_memcg bench sqlite3 "$db" >/dev/null <<SQL
SELECT count(*), sum(length(pad)) FROM hot;
WITH RECURSIVE r(i, k) AS (SELECT 1, abs(random()) % $HOT_ROWS
	UNION ALL SELECT i + 1, abs(random()) % $HOT_ROWS FROM r WHERE i < $LOOKUPS)
SELECT sum(length(h.pad)) FROM r JOIN hot h ON h.k = r.k;
SQL
}

# The cold walker: full passes over the tree until told to stop; one
# line per finished pass with its time.
walker() {
	local t0
	while [ ! -e "$stop" ]; do
		t0=$(now)
		find "$cold" -type f -print0 | xargs -0 cat >/dev/null
		echo "pass $(elapsed "$t0" "$(now)")" >>"$walk_log"
	done
}

# How many generations hold the memcg's file pages, every 0.2 s until
# told to stop.  The base's bump (lru_gen_folio_seq(): a folio added with
# PG_referenced goes to max_seq - 2) lands above min_seq only while there
# are 4 of them; with 3 or fewer it is min_seq like any other.
# Without MGLRU the same reads run and record nothing, so that every arm
# pays their CPU time (under TCG it shows in the round times).
sample_file_gens() {
	local to=$gens_log

	lru_gen_on || to=/dev/null
	while [ ! -e "$sample_stop" ]; do
		memcg_file_gens bench >>"$to"
		sleep 0.2
	done
}

# The hot table's pages not in the page cache: a round reads them from disk.
hot_missing() {
	"$bin/resident" "$db" | tr -cd 0 | wc -c
}

rm -f "$stop" "$sample_stop"
: >"$walk_log"
: >"$gens_log"
(echo $BASHPID >"$CGROOT/bench/cgroup.procs" && walker) &
walker_pid=$!
ager_pid=
if [ "$AGE_MS" -gt 0 ]; then
	# proactive aging, as a userspace working-set estimator does
	age_memcg bench "$AGE_MS" "$stop" &
	ager_pid=$!
fi
for _ in $(seq 1 "$WARMUP_ROUNDS"); do round; done
refaults0=$(memcg_stat bench workingset_refault_file)
sectors0=$(disk_sectors_read)
passes0=$(wc -l <"$walk_log")
seqs0=$(memcg_seqs bench)
sample_file_gens &
sampler_pid=$!
times=()
missing=0
t_start=$(now)
for _ in $(seq 1 "$ROUNDS"); do
	missing=$((missing + $(hot_missing)))
	t0=$(now)
	round
	times+=("$(elapsed "$t0" "$(now)")")
done
t_end=$(now)
pages=$((($(disk_sectors_read) - sectors0) / 8))
refaults=$(($(memcg_stat bench workingset_refault_file) - refaults0))
seqs1=$(memcg_seqs bench)
touch "$stop" "$sample_stop"
wait "$walker_pid" $ager_pid "$sampler_pid"
passes=$(($(wc -l <"$walk_log") - passes0))
echo "round times: ${times[*]}"
echo "RESULT" \
	"round_s=$(printf '%s\n' "${times[@]}" | sort -n | awk '{ a[NR] = $1 } END { print NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }')" \
	"rounds_s=$(elapsed "$t_start" "$t_end")" \
	"walk_pass_s=$(tail -n +"$((passes0 + 1))" "$walk_log" |
		awk '{ s += $2; n++ } END { printf "%.3f", n ? s / n : 0 }')" \
	"walk_passes=$passes disk_pages=$pages refaults=$refaults" \
	"hot_missing=$(awk -v m="$missing" -v n="$ROUNDS" 'BEGIN { printf "%.1f", m / n }')" \
	"file=$(memcg_stat bench file)" \
	"agings=$((${seqs1#* } - ${seqs0#* }))" \
	"$(awk '{ n++; s += $1; four += $1 == 4 }
		END { printf "file_gens=%.2f gens4=%.2f", n ? s / n : 0, n ? four / n : 0 }' "$gens_log")"
rmdir "$CGROOT/bench" 2>/dev/null || true
