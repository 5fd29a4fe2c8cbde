// SPDX-License-Identifier: GPL-2.0
/*
 * brute - slow, obviously-correct reference for bound's policies, and a
 * generator of Zipf-like test streams.  Test-only.
 *
 *   brute gen SEED N PAGES THETA   print N page numbers (raw format)
 *   brute sim [-s SKIP] [-l] C...  read a raw stream on stdin, print the
 *                                  same line as 'bound -r' for each C
 *
 * Nothing here shares code with bound.c: pages are compared by value with
 * linear searches, next uses are found by scanning forward, MIN evicts by
 * scanning the cache, and minw tries every possible initial cache (all
 * C-subsets of the warm-up pages) when there are few enough of them, so it
 * also checks that "the C nearest next uses" is the best warm state.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INF	SIZE_MAX

static void fail(const char *msg)
{
	fprintf(stderr, "brute: %s\n", msg);
	exit(2);
}

/* ---- generator ---- */

static uint64_t rng_state;

static uint64_t rng(void)
{
	/* xorshift64* */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

static double uniform(void)
{
	return (double)(rng() >> 11) / 9007199254740992.0;
}

static int gen(int argc, char **argv)
{
	uint64_t seed, n, pages;
	double theta, *cdf, sum = 0;
	uint64_t *perm;

	if (argc != 6)
		fail("usage: brute gen SEED N PAGES THETA");
	seed = strtoull(argv[2], NULL, 10);
	n = strtoull(argv[3], NULL, 10);
	pages = strtoull(argv[4], NULL, 10);
	theta = strtod(argv[5], NULL);
	if (!pages)
		fail("PAGES must be > 0");
	rng_state = seed * 0x9e3779b97f4a7c15ULL + 1;
	cdf = malloc(pages * sizeof(*cdf));
	perm = malloc(pages * sizeof(*perm));
	if (!cdf || !perm)
		fail("out of memory");
	for (uint64_t i = 0; i < pages; i++) {
		sum += 1.0 / pow((double)(i + 1), theta);
		cdf[i] = sum;
		perm[i] = i;
	}
	/* hot ranks land on scattered page numbers */
	for (uint64_t i = pages - 1; i > 0; i--) {
		uint64_t j = rng() % (i + 1), t = perm[i];

		perm[i] = perm[j];
		perm[j] = t;
	}
	for (uint64_t k = 0; k < n; k++) {
		double u = uniform() * sum;
		uint64_t lo = 0, hi = pages - 1;

		while (lo < hi) {
			uint64_t mid = (lo + hi) / 2;

			if (cdf[mid] < u)
				lo = mid + 1;
			else
				hi = mid;
		}
		printf("%" PRIu64 "\n", perm[lo]);
	}
	free(cdf);
	free(perm);
	return 0;
}

/* ---- reference simulations ---- */

static uint64_t *ref;
static size_t n, *next;

static size_t first_at_or_after(size_t from, uint64_t page)
{
	for (size_t j = from; j < n; j++)
		if (ref[j] == page)
			return j;
	return INF;
}

static size_t count_distinct(size_t from)
{
	size_t d = 0;

	for (size_t i = from; i < n; i++)
		if (first_at_or_after(from, ref[i]) == i)
			d++;
	return d;
}

/* MIN from index 'from' with cache[0..ninit) resident; no bypass. */
static size_t min_from(size_t from, size_t skip, size_t cap,
		       const uint64_t *init, size_t ninit)
{
	uint64_t *cache = malloc(cap * sizeof(*cache));
	size_t *nu = malloc(cap * sizeof(*nu)), used = 0, misses = 0;

	for (size_t k = 0; k < ninit; k++) {
		cache[used] = init[k];
		nu[used++] = first_at_or_after(from, init[k]);
	}
	for (size_t i = from; i < n; i++) {
		size_t k, victim = 0;

		for (k = 0; k < used && cache[k] != ref[i]; k++)
			;
		if (k < used) {
			nu[k] = next[i];
			continue;
		}
		if (i >= skip)
			misses++;
		if (used < cap) {
			k = used++;
		} else {
			for (k = 1; k < used; k++)
				if (nu[k] > nu[victim])
					victim = k;
			k = victim;
		}
		cache[k] = ref[i];
		nu[k] = next[i];
	}
	free(cache);
	free(nu);
	return misses;
}

static size_t lru(size_t skip, size_t cap)
{
	uint64_t *cache = malloc(cap * sizeof(*cache));
	size_t *last = malloc(cap * sizeof(*last)), used = 0, misses = 0;

	for (size_t i = 0; i < n; i++) {
		size_t k, victim = 0;

		for (k = 0; k < used && cache[k] != ref[i]; k++)
			;
		if (k == used) {
			if (i >= skip)
				misses++;
			if (used < cap) {
				used++;
			} else {
				for (k = 1; k < used; k++)
					if (last[k] < last[victim])
						victim = k;
				k = victim;
			}
			cache[k] = ref[i];
		}
		last[k] = i;
	}
	free(cache);
	free(last);
	return misses;
}

static size_t static_misses(size_t skip, size_t cap)
{
	size_t d = 0, *cnt = calloc(n + 1, sizeof(*cnt)), hits = 0;
	uint64_t *pg = calloc(n + 1, sizeof(*pg));

	for (size_t i = skip; i < n; i++) {
		size_t k;

		for (k = 0; k < d && pg[k] != ref[i]; k++)
			;
		if (k == d)
			pg[d++] = ref[i];
		cnt[k]++;
	}
	/* take the largest count cap times (selection, not sorting) */
	for (size_t c = 0; c < cap && c < d; c++) {
		size_t best = 0;

		for (size_t k = 1; k < d; k++)
			if (cnt[k] > cnt[best])
				best = k;
		hits += cnt[best];
		cnt[best] = 0;
	}
	free(cnt);
	free(pg);
	return n - skip - hits;
}

static size_t best_min;

/* Try every cap-subset of seen[] as the window's initial cache. */
static void subsets(const uint64_t *seen, size_t nseen, size_t start,
		    uint64_t *pick, size_t npick, size_t cap, size_t skip)
{
	if (npick == cap) {
		size_t m = min_from(skip, skip, cap, pick, npick);

		if (m < best_min)
			best_min = m;
		return;
	}
	for (size_t k = start; k + (cap - npick) <= nseen; k++) {
		pick[npick] = seen[k];
		subsets(seen, nseen, k + 1, pick, npick + 1, cap, skip);
	}
}

static double binomial(size_t a, size_t b)
{
	double r = 1;

	for (size_t i = 0; i < b; i++)
		r = r * (double)(a - i) / (double)(i + 1);
	return r;
}

static size_t minw(size_t skip, size_t cap)
{
	uint64_t *seen = malloc((skip + 1) * sizeof(*seen));
	uint64_t *pick = malloc((cap + 1) * sizeof(*pick));
	size_t nseen = 0;

	for (size_t i = 0; i < skip; i++)
		if (first_at_or_after(0, ref[i]) == i)
			seen[nseen++] = ref[i];
	if (nseen <= cap) {
		best_min = min_from(skip, skip, cap, seen, nseen);
	} else if (binomial(nseen, cap) <= 3000) {
		best_min = INF;
		subsets(seen, nseen, 0, pick, 0, cap, skip);
	} else {
		/* too many subsets: the nearest next uses, by selection */
		size_t *nu = malloc(nseen * sizeof(*nu));
		char *taken = calloc(nseen, 1);

		for (size_t k = 0; k < nseen; k++)
			nu[k] = first_at_or_after(skip, seen[k]);
		for (size_t c = 0; c < cap; c++) {
			size_t best = SIZE_MAX;

			for (size_t k = 0; k < nseen; k++)
				if (!taken[k] &&
				    (best == SIZE_MAX || nu[k] < nu[best]))
					best = k;
			taken[best] = 1;
			pick[c] = seen[best];
		}
		free(nu);
		free(taken);
		best_min = min_from(skip, skip, cap, pick, cap);
	}
	free(seen);
	free(pick);
	return best_min;
}

static void read_stream(void)
{
	size_t cap = 1024;
	unsigned long long v;

	ref = malloc(cap * sizeof(*ref));
	while (scanf("%llu", &v) == 1) {
		if (n == cap)
			ref = realloc(ref, (cap *= 2) * sizeof(*ref));
		ref[n++] = v;
	}
	next = malloc((n + 1) * sizeof(*next));
	for (size_t i = 0; i < n; i++)
		next[i] = first_at_or_after(i + 1, ref[i]);
}

static double ratio(size_t m, size_t r)
{
	return (double)m / (double)r;
}

static int sim(int argc, char **argv)
{
	size_t skip = 0, refs;
	int lru_too = 0, i = 2;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-s") && i + 1 < argc)
			skip = strtoull(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "-l"))
			lru_too = 1;
		else
			fail("usage: brute sim [-s SKIP] [-l] C...");
	}
	read_stream();
	if (skip > n)
		skip = n;
	refs = n - skip;
	if (!refs)
		fail("no references to count");
	for (; i < argc; i++) {
		size_t cap = strtoull(argv[i], NULL, 10), ms, mm, mw;

		ms = static_misses(skip, cap);
		mm = min_from(0, skip, cap, NULL, 0);
		mw = skip ? minw(skip, cap) : mm;
		printf("capacity=%zu refs=%zu requests=%zu warmup=%zu distinct=%zu pages=%zu static_misses=%zu static_miss_ratio=%.6f min_misses=%zu min_miss_ratio=%.6f minw_misses=%zu minw_miss_ratio=%.6f",
		       cap, refs, refs, skip, count_distinct(skip),
		       count_distinct(0), ms, ratio(ms, refs), mm,
		       ratio(mm, refs), mw, ratio(mw, refs));
		if (lru_too) {
			size_t ml = lru(skip, cap);

			printf(" lru_misses=%zu lru_miss_ratio=%.6f", ml,
			       ratio(ml, refs));
		}
		putchar('\n');
	}
	free(ref);
	free(next);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "gen"))
		return gen(argc, argv);
	if (argc >= 2 && !strcmp(argv[1], "sim"))
		return sim(argc, argv);
	fail("usage: brute gen SEED N PAGES THETA | brute sim [-s SKIP] [-l] C...");
	return 2;
}
