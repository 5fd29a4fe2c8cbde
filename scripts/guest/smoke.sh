#!/bin/bash
# Guest side of the boot smoke test: mixed file and anon pressure in a
# small memcg for SMOKE_SECONDS, while the multi-gen LRU is switched off
# and on at runtime.  The host fails the test on any kernel splat in the
# console; this script fails if a workload fails or the memcg's LRU
# accounting does not add up afterwards.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

SMOKE_SECONDS=${1:?usage: smoke.sh SECONDS}
SWITCH_PERIOD=10
DATA_MB=256
ANON_MB=96
MEMCG_MAX=128M
CG=smoke
LRU_GEN=/sys/kernel/mm/lru_gen/enabled

guest_setup
echo "kernel: $(uname -r); $LRU_GEN: $(cat $LRU_GEN)"
lay_out_file "$DATA_DIR/smoke.dat" $DATA_MB
make_memcg $CG $MEMCG_MAX
lru_gen_on=$(cat $LRU_GEN)

# Flip lru_gen off and on while the workloads run; always leave it on.
switch_lru_gen() {
	local end=$((SECONDS + SMOKE_SECONDS - SWITCH_PERIOD)) n=0

	while [ $SECONDS -lt $end ]; do
		sleep $SWITCH_PERIOD
		echo 0 >$LRU_GEN
		n=$((n + 1))
		sleep $SWITCH_PERIOD
		echo "$lru_gen_on" >$LRU_GEN
	done
	echo "smoke: switched lru_gen off and on $n times"
}

in_memcg $CG fio --name=file --filename="$DATA_DIR/smoke.dat" --rw=randread \
	--bs=4k --ioengine=sync --random_distribution=zipf:0.9 --invalidate=0 \
	--time_based --runtime="$SMOKE_SECONDS" --minimal >/tmp/fio.out &
fio_pid=$!
in_memcg $CG stress-ng --vm 1 --vm-bytes ${ANON_MB}M --vm-keep --timeout "${SMOKE_SECONDS}s" \
	--quiet &
anon_pid=$!
switch_lru_gen &
switch_pid=$!

status=0
wait $fio_pid || { echo "smoke: fio failed" >&2; status=1; }
wait $anon_pid || { echo "smoke: stress-ng failed" >&2; status=1; }
wait $switch_pid || { echo "smoke: lru_gen switch failed" >&2; status=1; }
echo "$lru_gen_on" >$LRU_GEN

reads=$(awk -F';' '{ print int($6 / 4) }' /tmp/fio.out)
echo "smoke: $reads file reads; memcg $CG: refault_file +$(memcg_stat $CG workingset_refault_file)," \
	"refault_anon +$(memcg_stat $CG workingset_refault_anon), pswpout $(memcg_stat $CG pswpout)"

# With the workloads gone, the per-list LRU counters must still add up to
# the file and anon totals the memcg reports.
file=$(memcg_stat $CG file)
lru_file=$(($(memcg_stat $CG active_file) + $(memcg_stat $CG inactive_file)))
echo "smoke: memcg $CG file $file, active_file + inactive_file $lru_file"
[ "$reads" -gt 0 ] || { echo "smoke: fio did no reads" >&2; status=1; }
[ "$(memcg_stat $CG pswpout)" -gt 0 ] || { echo "smoke: no swap-out: no anon pressure" >&2; status=1; }
exit $status
