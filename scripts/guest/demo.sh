#!/bin/bash
# Guest side of "make demo": show that the booted kernel runs MGLRU and
# what it does under memcg pressure: fio Zipf random reads of a data set
# four times the memcg limit, for DEMO_SECONDS.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

DEMO_SECONDS=${1:?usage: demo.sh SECONDS}
DATA_MB=256
MEMCG_MAX=64M
CG=demo

guest_setup
echo "kernel: $(uname -r)"
echo "/sys/kernel/mm/lru_gen/enabled: $(cat /sys/kernel/mm/lru_gen/enabled)"

lay_out_file "$DATA_DIR/zipf.dat" $DATA_MB
make_memcg $CG $MEMCG_MAX

refault0=$(memcg_stat $CG workingset_refault_file)
activate0=$(memcg_stat $CG workingset_activate_file)
sectors0=$(disk_sectors_read)
in_memcg $CG fio --name=zipf --filename="$DATA_DIR/zipf.dat" --rw=randread \
	--bs=4k --ioengine=sync --random_distribution=zipf:1.2 --invalidate=0 \
	--time_based --runtime="$DEMO_SECONDS" --minimal >/tmp/fio.out
reads=$(awk -F';' '{ print int($6 / 4) }' /tmp/fio.out)
refaults=$(($(memcg_stat $CG workingset_refault_file) - refault0))
activations=$(($(memcg_stat $CG workingset_activate_file) - activate0))
pages_read=$((($(disk_sectors_read) - sectors0) / 8))

echo "fio zipf:1.2 4k random reads of $DATA_MB MiB in a memcg with memory.max=$MEMCG_MAX, $DEMO_SECONDS s:"
echo "  reads:                      $reads"
echo "  workingset_refault_file:   +$refaults"
echo "  workingset_activate_file:  +$activations"
echo "  pages read from disk:       $pages_read"
awk -v r="$reads" -v p="$pages_read" -v f="$refaults" 'BEGIN {
	if (r > 0) printf "  per read: %.3f disk pages, %.3f refaults\n", p / r, f / r }'
echo "/sys/kernel/debug/lru_gen for memcg /$CG:"
lru_gen_summary $CG

[ "$reads" -gt 0 ] || { echo "demo: fio did no reads" >&2; exit 1; }
[ "$refaults" -gt 0 ] || { echo "demo: no refaults under memcg pressure" >&2; exit 1; }
