# shellcheck shell=bash
# The start of the guest scripts that run the fio Zipf job (zipf.sh,
# mixed.sh, scan.sh): sourced with their arguments, CONF LRU_GEN_ENABLED
# ..., it loads the guest helpers, the benchmark's conf and the fio job
# (bench/zipf-job.sh), and sets lru_gen.
here=$(dirname "${BASH_SOURCE[0]}")
. "$here/../../scripts/guest/lib.sh"
. "$1"
. "$here/../zipf-job.sh"
# shellcheck disable=SC2034 # lru_gen is for the sourcing script
lru_gen=$2
