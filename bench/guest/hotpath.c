// SPDX-License-Identifier: GPL-2.0
/*
 * hotpath: the cost of an access to a page that is already in the page
 * cache, the path folio_mark_accessed() and the page table walker take
 * on every hit (bench/guest/hotpath.sh).
 *
 * usage: hotpath pread|mmap FILE THREADS SECONDS SEED
 *
 * THREADS threads each access one 4 KiB page of FILE at a uniformly random
 * offset, over and over, for SECONDS: "pread" reads the page with pread(2)
 * (the read path marks the folio accessed); "mmap" reads one word of the
 * page through a shared read-only mapping of FILE that was touched in full
 * first (no fault in the loop: only the aging's page table walk sees these
 * accesses).  Thread i draws its offsets from SEED + i.  Prints
 * "accesses=N ns_per_access=NS": NS is the wall time of the loop times the
 * threads over N, the time one thread spends per access.  Run it in the
 * memcg under test, with FILE cached and the memcg large enough to hold it.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define PAGE_SIZE 4096UL
#define MAX_THREADS 64
#define BATCH 256		/* accesses between two looks at the clock */
#define NSEC_PER_SEC 1000000000LL

enum mode { MODE_PREAD, MODE_MMAP };

struct thread {
	pthread_t id;
	uint64_t rng;
	uint64_t accesses;
	uint64_t sum;		/* what was read, so that no read is optimised away */
};

static enum mode mode;
static int fd;
static const volatile uint64_t *map;
static uint64_t pages;
static long long deadline_ns;

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static void die(const char *what)
{
	fprintf(stderr, "hotpath: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* xorshift64*: cheap beside a page access, uniform enough for offsets. */
static uint64_t rng_next(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 0x2545f4914f6cdd1dULL;
}

static uint64_t access_page(uint64_t page)
{
	char buf[PAGE_SIZE];
	uint64_t word;

	if (mode == MODE_MMAP)
		return map[page * (PAGE_SIZE / sizeof(*map))];

	if (pread(fd, buf, PAGE_SIZE, page * PAGE_SIZE) != (ssize_t)PAGE_SIZE)
		die("pread");
	memcpy(&word, buf, sizeof(word));
	return word;
}

static void *run(void *arg)
{
	struct thread *t = arg;
	int i;

	do {
		for (i = 0; i < BATCH; i++)
			t->sum += access_page(rng_next(&t->rng) % pages);
		t->accesses += BATCH;
	} while (now_ns() < deadline_ns);

	return NULL;
}

int main(int argc, char **argv)
{
	static struct thread threads[MAX_THREADS];
	uint64_t accesses = 0, sum = 0, seed;
	long long start_ns, seconds;
	int nr_threads, i;
	struct stat st;

	if (argc != 6 || (strcmp(argv[1], "pread") && strcmp(argv[1], "mmap"))) {
		fprintf(stderr, "usage: hotpath pread|mmap FILE THREADS SECONDS SEED\n");
		return 2;
	}
	mode = strcmp(argv[1], "mmap") ? MODE_PREAD : MODE_MMAP;
	nr_threads = atoi(argv[3]);
	seconds = atoll(argv[4]);
	seed = strtoull(argv[5], NULL, 0);
	if (nr_threads < 1 || nr_threads > MAX_THREADS || seconds < 1) {
		fprintf(stderr, "hotpath: THREADS 1-%d, SECONDS >= 1\n", MAX_THREADS);
		return 2;
	}

	fd = open(argv[2], O_RDONLY);
	if (fd < 0 || fstat(fd, &st))
		die(argv[2]);
	pages = st.st_size / PAGE_SIZE;
	if (!pages) {
		fprintf(stderr, "hotpath: %s is smaller than a page\n", argv[2]);
		return 2;
	}
	if (mode == MODE_MMAP) {
		map = mmap(NULL, pages * PAGE_SIZE, PROT_READ, MAP_SHARED, fd, 0);
		if (map == MAP_FAILED)
			die("mmap");
		/* fault every page in now, so that the timed loop takes none */
		for (uint64_t p = 0; p < pages; p++)
			sum += access_page(p);
	}

	start_ns = now_ns();
	deadline_ns = start_ns + seconds * NSEC_PER_SEC;
	for (i = 0; i < nr_threads; i++) {
		/* xorshift's state must not be 0 */
		threads[i].rng = (seed + i) * 0x9e3779b97f4a7c15ULL | 1;
		errno = pthread_create(&threads[i].id, NULL, run, &threads[i]);
		if (errno)
			die("pthread_create");
	}
	for (i = 0; i < nr_threads; i++) {
		pthread_join(threads[i].id, NULL);
		accesses += threads[i].accesses;
		sum += threads[i].sum;
	}

	printf("accesses=%llu ns_per_access=%.1f checksum=%llu\n",
	       (unsigned long long)accesses,
	       (double)(now_ns() - start_ns) * nr_threads / accesses,
	       (unsigned long long)sum);
	return 0;
}
