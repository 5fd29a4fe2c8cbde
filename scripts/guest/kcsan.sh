#!/bin/bash
# Guest side of the KCSAN comparison (scripts/boot/kcsan.sh): the loads of
# three boot tests, one after the other, SECONDS each, on a KCSAN kernel:
# the smoke load (fio Zipf reads and stress-ng anon with swap in a small
# memcg while lru_gen is switched off and on), the memcg churn (readers
# promoting folios of memcgs that are being removed) and the soak
# (stress-ng's memory stressors and reparenting).  Each keeps its own
# checks; the host collects KCSAN's reports from the console.
# usage: kcsan.sh CHURN-READER SECONDS
set -euo pipefail
. "$(dirname "$0")/lib.sh"

reader=${1:?usage: kcsan.sh CHURN-READER SECONDS}
seconds=${2:?usage: kcsan.sh CHURN-READER SECONDS}
dir=$(dirname "$0")
status=0

echo "kcsan: smoke load, ${seconds} s"
"$dir/smoke.sh" "$seconds" || status=1
echo "kcsan: memcg churn, ${seconds} s"
"$dir/memcg-churn.sh" "$reader" "$seconds" || status=1
echo "kcsan: soak, ${seconds} s"
"$dir/soak.sh" "$seconds" || status=1
exit $status
