// SPDX-License-Identifier: GPL-2.0
/*
 * anon-zipf: Zipf-distributed reads of private anonymous memory, the anon
 * half of the mixed anon + file benchmark (bench/guest/mixed.sh).
 *
 * usage: anon-zipf MIB THETA WARMUP WINDOW GO_FILE
 *
 * Maps MIB MiB of private anonymous memory and writes every page (so each
 * page is real and, under memcg pressure, goes to swap), then reads one
 * word of WARMUP pages drawn from Zipf(THETA) over the pages.  It then
 * prints "warm", waits until GO_FILE exists, reads WINDOW more pages (a
 * fresh stretch of the same distribution: the same hot pages), and prints
 * "anon_s=SECONDS" for the window.  Run it in the memcg under test.
 *
 * Rank r (0 = hottest) is page (r * ODD_MULTIPLIER) mod pages when the
 * number of pages is a power of two, a bijection that spreads the hot
 * pages over the mapping instead of packing them at its start.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define PAGE_SIZE 4096UL
#define ODD_MULTIPLIER 0x9e3779b1UL	/* odd: a bijection mod 2^k */
#define WARMUP_SEED 1
#define WINDOW_SEED 2
#define GO_POLL_NS 10000000L		/* 10 ms */

static uint64_t rng_state;

/* xorshift64*: small, fast and good enough for sampling ranks. */
static uint64_t rng_next(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

static double rng_unit(void)
{
	return (rng_next() >> 11) * (1.0 / 9007199254740992.0);	/* [0, 1) */
}

/* cdf[i] = P(rank <= i) for Zipf(theta) over n ranks. */
static double *zipf_cdf(size_t n, double theta)
{
	double *cdf = malloc(n * sizeof(*cdf));
	double sum = 0;
	size_t i;

	if (!cdf)
		return NULL;
	for (i = 0; i < n; i++) {
		sum += 1.0 / pow((double)(i + 1), theta);
		cdf[i] = sum;
	}
	for (i = 0; i < n; i++)
		cdf[i] /= sum;
	return cdf;
}

/* The first rank whose cdf is above u: binary search. */
static size_t zipf_rank(const double *cdf, size_t n, double u)
{
	size_t lo = 0, hi = n - 1;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cdf[mid] > u)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* Read one word of each of count pages drawn with seed; returns their sum. */
static uint64_t read_pages(volatile uint64_t *mem, size_t pages, const double *cdf,
			   unsigned long count, uint64_t seed)
{
	uint64_t sum = 0;
	unsigned long i;

	rng_state = seed * 0x9e3779b97f4a7c15ULL + 1;
	for (i = 0; i < count; i++) {
		size_t page = (zipf_rank(cdf, pages, rng_unit()) * ODD_MULTIPLIER) & (pages - 1);

		sum += mem[page * (PAGE_SIZE / sizeof(*mem))];
	}
	return sum;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	const struct timespec poll = { 0, GO_POLL_NS };
	unsigned long warmup, window;
	size_t pages, i;
	uint64_t *mem, sum;
	double theta, *cdf, t0;

	if (argc != 6) {
		fprintf(stderr, "usage: %s MIB THETA WARMUP WINDOW GO_FILE\n", argv[0]);
		return 2;
	}
	pages = strtoul(argv[1], NULL, 10) * (1024 * 1024 / PAGE_SIZE);
	theta = strtod(argv[2], NULL);
	warmup = strtoul(argv[3], NULL, 10);
	window = strtoul(argv[4], NULL, 10);
	if (!pages || (pages & (pages - 1)) || theta <= 0) {
		fprintf(stderr, "anon-zipf: MIB must give a power-of-two page count, THETA > 0\n");
		return 2;
	}
	cdf = zipf_cdf(pages, theta);
	mem = mmap(NULL, pages * PAGE_SIZE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!cdf || mem == MAP_FAILED) {
		perror("anon-zipf: allocation");
		return 1;
	}
	/* Non-zero data in every page: no zero-page mappings, real swap-outs. */
	for (i = 0; i < pages; i++)
		memset((char *)mem + i * PAGE_SIZE, (int)(i % 255) + 1, PAGE_SIZE);

	sum = read_pages(mem, pages, cdf, warmup, WARMUP_SEED);
	printf("warm\n");
	fflush(stdout);
	while (access(argv[5], F_OK)) {
		if (errno != ENOENT) {
			perror("anon-zipf: GO_FILE");
			return 1;
		}
		nanosleep(&poll, NULL);
	}
	t0 = now();
	sum += read_pages(mem, pages, cdf, window, WINDOW_SEED);
	/* The sum only keeps the reads; print it on stderr, out of the way. */
	printf("anon_s=%.3f\n", now() - t0);
	fprintf(stderr, "anon-zipf: sum %llu\n", (unsigned long long)sum);
	return 0;
}
