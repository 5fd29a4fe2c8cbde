# shellcheck shell=bash
# The start of the guest scripts that run the fio Zipf job (zipf.sh,
# mixed.sh, scan.sh): sourced with their arguments, CONF LRU_GEN_ENABLED
# ..., it loads the guest helpers, the benchmark's conf and the fio job
# (bench/zipf-job.sh), sets lru_gen and defines run_fio.
here=$(dirname "${BASH_SOURCE[0]}")
. "$here/../../scripts/guest/lib.sh"
# shellcheck source=/dev/null # a benchmark conf
. "$1"
. "$here/../zipf-job.sh"
# shellcheck disable=SC2034 # lru_gen is for the sourcing script
lru_gen=$2
# Each repeat its own stretch of the streams, the same on every arm.
# shellcheck disable=SC2034 # for the sourcing script
rep=$(bench_rep)
# shellcheck disable=SC2034
warmup_seed=$(repeat_seed "$WARMUP_SEED" "$rep")
# shellcheck disable=SC2034
window_seed=$(repeat_seed "$WINDOW_SEED" "$rep")

# run_fio THETA SEED LOOPS: the fio job in memcg FIO_MEMCG (default "bench";
# empty: the root cgroup), fio's --minimal line
run_fio() {
	zipf_job "$@"
	in_memcg "${FIO_MEMCG-bench}" fio "${job[@]}" --ioengine="$IOENGINE" --minimal
}
