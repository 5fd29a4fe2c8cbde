#!/bin/bash
# Guest side of the database benchmark (benchmarks.md, workload 4):
# PostgreSQL with a tiny shared_buffers, so that its reads go through the
# page cache of a small memcg, and pgbench reading random_zipfian account
# rows.  An untimed warm-up, then the timed window: throughput, p99
# latency, disk pages read per transaction.
# usage: pgbench.sh CONF LRU_GEN_ENABLED GUEST_BIN   (CONF: bench/pgbench.conf)
# Prints "RESULT key=value..." for the window.
set -euo pipefail
here=$(dirname "$0")
. "$here/../../scripts/guest/lib.sh"
# shellcheck source=/dev/null # a benchmark conf
. "$1"
lru_gen=$2
pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
pgdata=$DATA_DIR/pg
sock=/tmp
script=/tmp/zipf-select.sql
latlog=/tmp/pgbench-lat

guest_setup
echo "$lru_gen" >/sys/kernel/mm/lru_gen/enabled
echo "kernel $(uname -r) lru_gen $(cat /sys/kernel/mm/lru_gen/enabled)"
[ -x "$pgbin/postgres" ] || { echo "no PostgreSQL server in /usr/lib/postgresql" >&2; exit 1; }

as_pg=(setpriv --reuid=postgres --regid=postgres --init-groups)
pg_ctl=("${as_pg[@]}" "$pgbin/pg_ctl" -D "$pgdata" -s -w)
pg_opts="-k $sock -c listen_addresses= -c shared_buffers=$SHARED_BUFFERS -c fsync=off -c synchronous_commit=off"

# The cluster and pgbench's tables, outside the memcg.
mkdir -p "$pgdata"
chown postgres:postgres "$pgdata"
"${as_pg[@]}" "$pgbin/initdb" -D "$pgdata" -A trust -U postgres --no-sync >/dev/null
"${pg_ctl[@]}" -o "$pg_opts" -l /tmp/postgres.log start
"${as_pg[@]}" "$pgbin/pgbench" -h "$sock" -U postgres -i -q -s "$SCALE" postgres 2>&1 | tail -n 1
db_mb=$(du -sm "$pgdata/base" | cut -f1)
"${pg_ctl[@]}" stop
echo 3 >/proc/sys/vm/drop_caches

# The server in the memcg: its reads of the tables are the memcg's page cache.
make_memcg bench "${MEMCG_MB}M"
in_memcg bench "${pg_ctl[@]}" -o "$pg_opts" -l /tmp/postgres.log start

cat >"$script" <<SQL
\set aid random_zipfian(1, $SCALE * 100000, $ZIPF_THETA)
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
SQL
chmod 644 "$script"
run_pgbench() { # run_pgbench SECONDS [ARG...]
	local secs=$1
	shift
	"${as_pg[@]}" "$pgbin/pgbench" -h "$sock" -U postgres -n -f "$script" -c "$CLIENTS" -j "$CLIENTS" \
		-T "$secs" "$@" postgres
}
run_pgbench "$WARMUP_S" >/dev/null
sectors0=$(disk_sectors_read)
refaults0=$(memcg_stat bench workingset_refault_file)
rm -f "$latlog".*
out=$(run_pgbench "$WINDOW_S" -l --log-prefix="$latlog")
pages=$((($(disk_sectors_read) - sectors0) / 8))
refaults=$(($(memcg_stat bench workingset_refault_file) - refaults0))
txns=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' <<<"$out")
tps=$(sed -n 's/^tps = \([0-9.]*\) .*/\1/p' <<<"$out")
# Per-transaction log: "client txn latency_us script epoch usec"; p99 of column 3.
p99_ms=$(cat "$latlog".* | awk '{ print $3 }' | sort -n |
	awk '{ a[NR] = $1 } END { i = int(NR * 0.99); if (i < 1) i = 1; printf "%.3f", a[i] / 1000 }')
"${pg_ctl[@]}" stop
echo "RESULT tps=$tps p99_ms=$p99_ms txns=$txns disk_pages=$pages" \
	"pages_per_txn=$(awk -v p="$pages" -v t="$txns" 'BEGIN { printf "%.4f", t ? p / t : 0 }')" \
	"refaults=$refaults db_mb=$db_mb file=$(memcg_stat bench file)"
rmdir "$CGROOT/bench" 2>/dev/null || true
