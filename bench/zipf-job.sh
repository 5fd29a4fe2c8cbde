# shellcheck shell=bash
# The fio job of the Zipf benchmark, in one place: the guest runs it
# (bench/guest/zipf.sh) and the host records its access stream with
# --ioengine=null (bench/run-zipf.sh).  fio's offsets do not depend on the
# engine, so the host's log is the guest's stream reference for reference.
# Sourced after a bench/*.conf.
#
# Seeding (fio 3.33, checked): --randseed is ignored unless --randrepeat=0;
# with randrepeat=0 the seed also moves the Zipf hot set (rank -> block is
# hash(rank) + an offset drawn from the seed), unless the distribution has
# a fixed center (zipf:THETA:CENTER), which makes the offset CENTER x blocks.
# So: randrepeat=0, a fixed center, and different seeds for the warm-up and
# the window give two independent stretches of the same distribution, the
# same hot pages in the same order of heat.

ZIPF_FILE=/mnt/data/zipf.dat    # the guest's path; the host's null run never opens it

# zipf_job THETA SEED LOOPS: set the array "job" to fio's arguments.
# shellcheck disable=SC2034 # "job" is for the sourcing script
zipf_job() {
	job=(--name=zipf --filename="$ZIPF_FILE" --size="${DATA_MB}M" --rw=randread --bs=4k
		--fadvise_hint="$FADVISE_HINT" --invalidate=0
		--random_distribution="zipf:$1:$ZIPF_CENTER" --randrepeat=0 --randseed="$2"
		--number_ios="$NUMBER_IOS" --loops="$3")
}

# repeat_seed SEED REPEAT: the seed of repeat REPEAT's stream, SEED in the
# first; 2 more per repeat keeps the warm-up's seeds (odd) and the
# window's (even) apart.
repeat_seed() {
	echo $(($1 + 2 * ($2 - 1)))
}

# In the guest: fio's binary and libraries come over 9p; fault them in
# outside the memcg (with a file of their own, in directory $1) so that
# the memcg's page cache is the data's.
preload_fio() {
	fio --name=preload --filename="$1/preload.dat" --size=1M --rw=randread \
		--bs=4k --ioengine="$IOENGINE" --random_distribution=zipf:1.2 --minimal >/dev/null
}
