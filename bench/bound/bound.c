// SPDX-License-Identifier: GPL-2.0
/*
 * bound - miss-ratio bounds for a recorded page-cache access stream.
 *
 * Reads a fio iolog (version 2 or 3, as written by fio's write_iolog=) or a
 * raw list of page numbers, expands every read/write request into one
 * reference per page, and computes for each cache capacity C:
 *
 *   static  keep the C pages referenced most often in the counted window
 *           pinned; every reference to another page misses.  This is the
 *           best online policy for independent references (LFU-opt under
 *           IRM); pinned pages are assumed to be resident already.
 *   min     Belady's MIN over the whole stream (warm-up included): on a
 *           miss with a full cache evict the page whose next reference is
 *           farthest away; only misses in the counted window are reported.
 *   minw    MIN over the counted window starting from the best cache
 *           state the warm-up allows: the C warm-up pages whose next
 *           reference is nearest.  With a warm-up this is the true floor
 *           for the window's misses of any demand-paging cache of C pages;
 *           'min' is not (it may sacrifice the window to save warm-up
 *           misses).  Without a warm-up minw == min.
 *   lru     (with --lru) plain LRU over the whole stream, for reference.
 *
 * The whole stream is held in memory as 32-bit page ids (pages are
 * interned in a hash table), 12 bytes per reference in all: ~10^7
 * references need ~120 MB.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE		UINT32_MAX	/* "no page" / "never referenced again" */
#define MAX_REFS	((size_t)UINT32_MAX - 1)
#define MAX_TOKENS	6

static const char *prog = "bound";

static void die(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2)));

static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void *xrealloc(void *p, size_t nmemb, size_t size)
{
	if (size && nmemb > SIZE_MAX / size)
		die("out of memory");
	size *= nmemb;
	p = realloc(p, size ? size : 1);
	if (!p)
		die("out of memory");
	return p;
}

static void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		die("out of memory");
	return p;
}

/* ---------------------------------------------------------------- */
/* Interning: file names and (file, page) pairs to dense ids.        */

static uint64_t mix64(uint64_t x)
{
	/* splitmix64 finalizer: page numbers are sequential, spread them */
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;	/* FNV-1a */

	while (*s) {
		h ^= (unsigned char)*s++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

struct files {
	char **name;		/* id -> name */
	uint32_t n;
	uint32_t *slot;		/* open addressing: id or NONE */
	size_t mask;
};

struct pages {
	uint32_t *file;		/* id -> file id */
	uint64_t *page;		/* id -> page index in that file */
	uint32_t n, cap;
	uint32_t *slot;
	size_t mask;
};

static void files_grow(struct files *f)
{
	size_t size = f->slot ? (f->mask + 1) * 2 : 64;

	free(f->slot);
	f->slot = xrealloc(NULL, size, sizeof(*f->slot));
	memset(f->slot, 0xff, size * sizeof(*f->slot));
	f->mask = size - 1;
	for (uint32_t id = 0; id < f->n; id++) {
		size_t i = hash_str(f->name[id]) & f->mask;

		while (f->slot[i] != NONE)
			i = (i + 1) & f->mask;
		f->slot[i] = id;
	}
}

static uint32_t file_id(struct files *f, const char *name)
{
	size_t i;

	if (!f->slot || (size_t)f->n * 2 >= f->mask + 1)
		files_grow(f);
	for (i = hash_str(name) & f->mask; f->slot[i] != NONE;
	     i = (i + 1) & f->mask)
		if (!strcmp(f->name[f->slot[i]], name))
			return f->slot[i];
	if (f->n == NONE - 1)
		die("too many files");
	f->name = xrealloc(f->name, f->n + 1, sizeof(*f->name));
	f->name[f->n] = strdup(name);
	if (!f->name[f->n])
		die("out of memory");
	f->slot[i] = f->n;
	return f->n++;
}

static uint64_t hash_page(uint32_t file, uint64_t page)
{
	return mix64(page ^ ((uint64_t)file << 40) ^ ((uint64_t)file >> 24));
}

static void pages_grow(struct pages *p)
{
	size_t size = p->slot ? (p->mask + 1) * 2 : 1024;

	free(p->slot);
	p->slot = xrealloc(NULL, size, sizeof(*p->slot));
	memset(p->slot, 0xff, size * sizeof(*p->slot));
	p->mask = size - 1;
	for (uint32_t id = 0; id < p->n; id++) {
		size_t i = hash_page(p->file[id], p->page[id]) & p->mask;

		while (p->slot[i] != NONE)
			i = (i + 1) & p->mask;
		p->slot[i] = id;
	}
}

static uint32_t page_id(struct pages *p, uint32_t file, uint64_t page)
{
	size_t i;

	if (!p->slot || (size_t)p->n * 2 >= p->mask + 1)
		pages_grow(p);
	for (i = hash_page(file, page) & p->mask; p->slot[i] != NONE;
	     i = (i + 1) & p->mask) {
		uint32_t id = p->slot[i];

		if (p->page[id] == page && p->file[id] == file)
			return id;
	}
	if (p->n == NONE - 1)
		die("too many distinct pages");
	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 1024;
		p->file = xrealloc(p->file, p->cap, sizeof(*p->file));
		p->page = xrealloc(p->page, p->cap, sizeof(*p->page));
	}
	p->file[p->n] = file;
	p->page[p->n] = page;
	p->slot[i] = p->n;
	return p->n++;
}

/* ---------------------------------------------------------------- */
/* The stream and its parser.                                         */

struct stream {
	uint32_t *ref;		/* page id of each reference */
	size_t n, cap;
	uint32_t *req_end;	/* end index (exclusive) of each request */
	size_t nreq, req_cap;
	size_t window;		/* index of the first window reference */
	bool window_known;
	struct files files;
	struct pages pages;
};

struct options {
	uint64_t page_size;
	size_t skip;
	bool raw;
	bool lru;
	bool have_usec;
	uint64_t warmup_usec;
	uint32_t *capacity;
	size_t ncapacity;
	const char **warm_files;
	size_t nwarm;
};

/* Where we are in the input, for error messages. */
struct input {
	const char *name;
	size_t line;
};

static void parse_error(const struct input *in, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 2, 3)));

static void parse_error(const struct input *in, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: %s:%zu: ", prog, in->name, in->line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* Strict unsigned decimal: digits only, no sign, no overflow. */
static bool parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return false;
	for (; *s; s++) {
		unsigned d = (unsigned char)*s - '0';

		if (d > 9 || v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

static void add_ref(struct stream *s, const struct input *in, uint32_t id)
{
	if (s->n >= MAX_REFS)
		parse_error(in, "more than %zu page references", MAX_REFS);
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 1 << 16;
		s->ref = xrealloc(s->ref, s->cap, sizeof(*s->ref));
	}
	s->ref[s->n++] = id;
}

static void end_request(struct stream *s)
{
	if (s->nreq == s->req_cap) {
		s->req_cap = s->req_cap ? s->req_cap * 2 : 1 << 16;
		s->req_end = xrealloc(s->req_end, s->req_cap,
				      sizeof(*s->req_end));
	}
	s->req_end[s->nreq++] = (uint32_t)s->n;
}

/* One reference per page touched by [offset, offset + length). */
static void add_request(struct stream *s, const struct input *in,
			uint32_t file, uint64_t offset, uint64_t length,
			uint64_t page_size)
{
	uint64_t first, last;

	if (!length)
		return;		/* touches no page */
	if (offset > UINT64_MAX - (length - 1))
		parse_error(in, "offset + length overflows");
	first = offset / page_size;
	last = (offset + length - 1) / page_size;
	for (uint64_t pg = first; pg <= last; pg++)
		add_ref(s, in, page_id(&s->pages, file, pg));
	end_request(s);
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Next blank-separated token of *p, NUL-terminated in place; NULL at end. */
static char *next_token(char **p)
{
	char *s = *p, *tok;

	while (is_blank(*s))
		s++;
	if (!*s)
		return NULL;
	tok = s;
	while (*s && !is_blank(*s))
		s++;
	if (*s)
		*s++ = '\0';
	*p = s;
	return tok;
}

/* Split on blanks; returns the number of tokens, or MAX_TOKENS + 1. */
static int tokenize(char *line, char **tok)
{
	int n = 0;

	while ((tok[n] = next_token(&line)))
		if (++n == MAX_TOKENS)
			return next_token(&line) ? MAX_TOKENS + 1 : n;
	return n;
}

enum format { FMT_RAW, FMT_V2, FMT_V3 };

/*
 * Called for every line of a counted (non-warm-up) file: with -T the
 * window opens at the first line whose timestamp reaches the limit.
 */
static void maybe_open_window(struct stream *s, const struct options *o,
			      uint64_t usec)
{
	if (!s->window_known && usec >= o->warmup_usec) {
		s->window = s->n;
		s->window_known = true;
	}
}

/*
 * fio's own parser (read_iolog2) takes "name action offset length" for
 * read/write/sync/datasync/trim/wait and "name action" for add/open/close;
 * mirror that so anything fio would reject is rejected here too.  Only
 * read and write access pages.
 */
static void parse_iolog_line(struct stream *s, const struct options *o,
			     const struct input *in, enum format fmt,
			     char *line, bool counted)
{
	char *tok[MAX_TOKENS];
	int ntok = tokenize(line, tok), base = 0;
	uint64_t usec = 0, offset, length;
	const char *act;
	uint32_t file;

	if (!ntok)
		return;
	if (fmt == FMT_V3) {
		if (!parse_u64(tok[0], &usec))
			parse_error(in, "bad timestamp '%s' (version 3 lines are 'TIMESTAMP FILENAME ACTION [OFFSET LENGTH]')",
				    tok[0]);
		base = 1;
	}
	if (ntok - base != 2 && ntok - base != 4)
		parse_error(in, "expected '%sFILENAME ACTION [OFFSET LENGTH]', got %s%d fields",
			    fmt == FMT_V3 ? "TIMESTAMP " : "",
			    ntok > MAX_TOKENS ? "more than " : "",
			    ntok > MAX_TOKENS ? MAX_TOKENS : ntok);
	if (fmt == FMT_V3 && counted && o->have_usec)
		maybe_open_window(s, o, usec);
	act = tok[base + 1];
	if (ntok - base == 2) {
		if (strcmp(act, "add") && strcmp(act, "open") &&
		    strcmp(act, "close"))
			parse_error(in, "action '%s' without offset and length (only add/open/close)",
				    act);
		return;
	}
	if (!parse_u64(tok[base + 2], &offset))
		parse_error(in, "bad offset '%s'", tok[base + 2]);
	if (!parse_u64(tok[base + 3], &length))
		parse_error(in, "bad length '%s'", tok[base + 3]);
	if (!strcmp(act, "read") || !strcmp(act, "write")) {
		file = file_id(&s->files, tok[base]);
		add_request(s, in, file, offset, length, o->page_size);
	} else if (!strcmp(act, "wait") && fmt == FMT_V3) {
		parse_error(in, "action 'wait' is not allowed in version 3");
	} else if (strcmp(act, "sync") && strcmp(act, "datasync") &&
		   strcmp(act, "trim") && strcmp(act, "wait")) {
		parse_error(in, "unknown action '%s'", act);
	}
}

/* Raw: blank-separated page numbers, '#' starts a comment. */
static void parse_raw_line(struct stream *s, const struct input *in,
			   char *line)
{
	char *hash = strchr(line, '#'), *tok;
	uint64_t pg;

	if (hash)
		*hash = '\0';
	while ((tok = next_token(&line))) {
		if (!parse_u64(tok, &pg))
			parse_error(in, "bad page number '%s'", tok);
		add_ref(s, in, page_id(&s->pages, 0, pg));
		end_request(s);
	}
}

static void chomp(char *line)
{
	size_t len = strlen(line);

	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r' ||
		       line[len - 1] == ' ' || line[len - 1] == '\t'))
		line[--len] = '\0';
}

static void read_file(struct stream *s, const struct options *o,
		      const char *path, bool counted)
{
	struct input in = { .name = path, .line = 0 };
	enum format fmt = FMT_RAW;
	char *line = NULL;
	size_t size = 0;
	FILE *f;

	if (!strcmp(path, "-")) {
		f = stdin;
		in.name = "<stdin>";
	} else {
		f = fopen(path, "r");
		if (!f)
			die("%s: %s", path, strerror(errno));
	}
	if (counted && !o->have_usec && !s->window_known) {
		s->window = s->n;
		s->window_known = true;
	}
	while (getline(&line, &size, f) >= 0) {
		in.line++;
		/*
		 * fio opens write_iolog files in append mode, so a log reused
		 * by several runs or jobs holds several headers: each starts a
		 * new segment.  No valid v2/v3 line starts like this.
		 */
		if (!o->raw &&
		    (in.line == 1 || !strncmp(line, "fio version ", 12))) {
			chomp(line);
			if (!strcmp(line, "fio version 2 iolog"))
				fmt = FMT_V2;
			else if (!strcmp(line, "fio version 3 iolog"))
				fmt = FMT_V3;
			else
				parse_error(&in, "unknown format: expected 'fio version 2 iolog' or 'fio version 3 iolog' (use -r for raw page numbers)");
			if (fmt != FMT_V3 && counted && o->have_usec)
				parse_error(&in, "-T needs a version 3 iolog (with timestamps)");
			continue;
		}
		if (o->raw)
			parse_raw_line(s, &in, line);
		else
			parse_iolog_line(s, o, &in, fmt, line, counted);
	}
	if (ferror(f))
		die("%s: read error: %s", in.name, strerror(errno));
	if (in.line == 0 && !o->raw)
		die("%s: empty file (expected an iolog header)", in.name);
	free(line);
	if (f != stdin)
		fclose(f);
}

/* ---------------------------------------------------------------- */
/* Policies.                                                          */

/* next[i]: index of the next reference to ref[i]'s page, or NONE. */
static uint32_t *next_uses(const struct stream *s)
{
	uint32_t *next = xrealloc(NULL, s->n, sizeof(*next));
	uint32_t *last = xrealloc(NULL, s->pages.n, sizeof(*last));

	memset(last, 0xff, s->pages.n * sizeof(*last));
	for (size_t i = s->n; i-- > 0;) {
		next[i] = last[s->ref[i]];
		last[s->ref[i]] = (uint32_t)i;
	}
	free(last);
	return next;
}

/*
 * A binary max-heap of cached pages keyed by next use, indexed by page so
 * a hit can update its page's key in place: the heap never holds more than
 * C entries, making MIN O(n log C).
 */
struct heap {
	uint32_t *key, *page;	/* heap order */
	uint32_t *pos;		/* page -> heap index, NONE if not cached */
	uint32_t n;
};

static void heap_set(struct heap *h, uint32_t i, uint32_t key, uint32_t page)
{
	h->key[i] = key;
	h->page[i] = page;
	h->pos[page] = i;
}

static void heap_up(struct heap *h, uint32_t i)
{
	uint32_t key = h->key[i], page = h->page[i];

	while (i) {
		uint32_t parent = (i - 1) / 2;

		if (h->key[parent] >= key)
			break;
		heap_set(h, i, h->key[parent], h->page[parent]);
		i = parent;
	}
	heap_set(h, i, key, page);
}

static void heap_down(struct heap *h, uint32_t i)
{
	uint32_t key = h->key[i], page = h->page[i];

	for (;;) {
		uint32_t child = 2 * i + 1;

		if (child >= h->n)
			break;
		if (child + 1 < h->n && h->key[child + 1] > h->key[child])
			child++;
		if (h->key[child] <= key)
			break;
		heap_set(h, i, h->key[child], h->page[child]);
		i = child;
	}
	heap_set(h, i, key, page);
}

static void heap_push(struct heap *h, uint32_t key, uint32_t page)
{
	heap_set(h, h->n, key, page);
	heap_up(h, h->n++);
}

/*
 * Belady's MIN (demand paging, no bypass: a missed page is always
 * inserted) from index 'from' with 'init' (ninit pages) resident, each keyed
 * by its first reference at or after 'from'.  Counts misses at indexes
 * >= count_from.
 */
static size_t simulate_min(const struct stream *s, const uint32_t *next,
			   uint32_t cap, size_t from, size_t count_from,
			   const uint32_t *init, const uint32_t *init_key,
			   uint32_t ninit)
{
	uint32_t size = cap < s->pages.n ? cap : s->pages.n;
	struct heap h = {
		.key = xrealloc(NULL, size, sizeof(uint32_t)),
		.page = xrealloc(NULL, size, sizeof(uint32_t)),
		.pos = xrealloc(NULL, s->pages.n, sizeof(uint32_t)),
	};
	size_t misses = 0;

	memset(h.pos, 0xff, s->pages.n * sizeof(uint32_t));
	for (uint32_t i = 0; i < ninit && i < size; i++)
		heap_push(&h, init_key[i], init[i]);
	for (size_t i = from; i < s->n; i++) {
		uint32_t page = s->ref[i], at = h.pos[page];

		if (at != NONE) {
			/* its key was i, the smallest: it can only rise */
			h.key[at] = next[i];
			heap_up(&h, at);
			continue;
		}
		if (i >= count_from)
			misses++;
		if (h.n < size) {
			heap_push(&h, next[i], page);
		} else {
			h.pos[h.page[0]] = NONE;	/* evict farthest */
			heap_set(&h, 0, next[i], page);
			heap_down(&h, 0);
		}
	}
	free(h.key);
	free(h.page);
	free(h.pos);
	return misses;
}

static size_t policy_min(const struct stream *s, const uint32_t *next,
			 uint32_t cap, size_t skip)
{
	return simulate_min(s, next, cap, 0, skip, NULL, NULL, 0);
}

/*
 * MIN from the best warm state: any set of at most C pages referenced
 * during the warm-up can be resident when the window opens, and (Belady's
 * exchange argument) holding a page with a nearer next use instead of one
 * with a farther one never costs a miss.  So start with the first C
 * distinct warm-up pages met in the window.
 */
static size_t policy_minw(const struct stream *s, const uint32_t *next,
			  uint32_t cap, size_t skip)
{
	uint8_t *state = xcalloc(s->pages.n, 1);	/* 1 seen, 2 taken */
	uint32_t *init = xrealloc(NULL, cap < s->pages.n ? cap : s->pages.n,
				  sizeof(*init));
	uint32_t *key = xrealloc(NULL, cap < s->pages.n ? cap : s->pages.n,
				 sizeof(*key));
	uint32_t ninit = 0;
	size_t misses;

	for (size_t i = 0; i < skip; i++)
		state[s->ref[i]] = 1;
	for (size_t i = skip; i < s->n && ninit < cap; i++) {
		if (state[s->ref[i]] != 1)
			continue;
		state[s->ref[i]] = 2;
		init[ninit] = s->ref[i];
		key[ninit++] = (uint32_t)i;
	}
	misses = simulate_min(s, next, cap, skip, skip, init, key, ninit);
	free(state);
	free(init);
	free(key);
	return misses;
}

/* LRU over the whole stream: a doubly linked list threaded through ids. */
static size_t policy_lru(const struct stream *s, uint32_t cap, size_t skip)
{
	uint32_t np = s->pages.n, head = NONE, tail = NONE, size = 0;
	uint32_t *prev = xrealloc(NULL, np, sizeof(*prev));
	uint32_t *nxt = xrealloc(NULL, np, sizeof(*nxt));
	uint8_t *in = xcalloc(np, 1);
	size_t misses = 0;

	for (size_t i = 0; i < s->n; i++) {
		uint32_t p = s->ref[i];

		if (in[p]) {
			if (p == head)
				continue;
			/* unlink */
			nxt[prev[p]] = nxt[p];
			if (nxt[p] != NONE)
				prev[nxt[p]] = prev[p];
			else
				tail = prev[p];
		} else {
			if (i >= skip)
				misses++;
			if (size == cap) {
				uint32_t victim = tail;

				in[victim] = 0;
				tail = prev[victim];
				if (tail != NONE)
					nxt[tail] = NONE;
				else
					head = NONE;
			} else {
				size++;
			}
			in[p] = 1;
		}
		/* push front */
		prev[p] = NONE;
		nxt[p] = head;
		if (head != NONE)
			prev[head] = p;
		head = p;
		if (tail == NONE)
			tail = p;
	}
	free(prev);
	free(nxt);
	free(in);
	return misses;
}

static int cmp_desc(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x < y) - (x > y);
}

/*
 * Frequencies of the pages referenced in the window, sorted in decreasing
 * order; static misses for C = refs - sum of the first C.  Returns the
 * number of distinct window pages.
 */
static uint32_t window_frequencies(const struct stream *s, size_t skip,
				   uint32_t **sorted)
{
	uint32_t *count = xcalloc(s->pages.n, sizeof(*count));
	uint32_t distinct = 0;

	for (size_t i = skip; i < s->n; i++)
		count[s->ref[i]]++;
	for (uint32_t p = 0; p < s->pages.n; p++)
		if (count[p])
			count[distinct++] = count[p];
	qsort(count, distinct, sizeof(*count), cmp_desc);
	*sorted = count;
	return distinct;
}

/* ---------------------------------------------------------------- */
/* Command line.                                                      */

static void usage(FILE *f)
{
	fprintf(f,
"usage: %s -c CAPACITY[,CAPACITY...] [options] [FILE...]\n"
"\n"
"Miss-ratio bounds for a recorded page access stream: for each cache\n"
"capacity (in pages) print the misses of the static top-C policy, of\n"
"Belady's MIN, and of MIN from the best warm state.\n"
"\n"
"Input: fio iologs (write_iolog=), 'fio version 2 iolog' or 'fio version 3\n"
"iolog' (detected from the first line; a later header line starts a new\n"
"segment, as when fio appends a second run to the same log), or with -r raw\n"
"page numbers.  FILEs are concatenated in order ('-' or none: stdin); -W\n"
"files come first.  Only read and write requests access pages; a request\n"
"covering k pages is k references.  Pages are (file name, offset / PAGESIZE).\n"
"\n"
"options:\n"
"  -c, --capacity LIST  cache sizes in pages, comma-separated; repeatable\n"
"  -p, --page-size N    bytes per page (default 4096)\n"
"  -s, --skip N         the first N page references of the counted files\n"
"                       (after -W and -T) are warm-up: simulated, not counted\n"
"  -T, --warmup-usec T  version 3 logs: lines before the first one with a\n"
"                       timestamp >= T (microseconds, as fio writes them)\n"
"                       are warm-up (e.g. fio's ramp_time)\n"
"  -W, --warmup FILE    a whole log of warm-up references, read before the\n"
"                       FILEs; repeatable\n"
"  -r, --raw            input is blank-separated page numbers ('#' comments)\n"
"  -l, --lru            also simulate LRU (reference point, cross-check)\n"
"  -h, --help           this text\n"
"\n"
"Output, one line per capacity, in the order given:\n"
"  capacity=C refs=N requests=R warmup=W distinct=D pages=P\n"
"  static_misses=M static_miss_ratio=X min_misses=M min_miss_ratio=X\n"
"  minw_misses=M minw_miss_ratio=X [lru_misses=M lru_miss_ratio=X]\n"
"(one line; refs = counted page references, requests = counted read/write\n"
"requests, warmup = warm-up references, distinct = distinct pages in the\n"
"counted window, pages = distinct pages in the whole stream; ratios are\n"
"misses / refs).\n"
"  static: pin the C most frequent pages of the window (IRM optimum)\n"
"  min:    Belady's MIN over warm-up + window, window misses counted\n"
"  minw:   MIN over the window from the best state the warm-up allows:\n"
"          the floor for any demand-paging cache; equals min without warm-up\n",
		prog);
}

static uint64_t parse_number(const char *what, const char *arg)
{
	uint64_t v;

	if (!parse_u64(arg, &v))
		die("bad %s '%s' (expected a non-negative integer)", what,
		    arg);
	return v;
}

static void add_capacities(struct options *o, const char *arg)
{
	char *copy = strdup(arg), *save = NULL, *tok;

	if (!copy)
		die("out of memory");
	if (!*copy || copy[strlen(copy) - 1] == ',')
		die("bad capacity list '%s'", arg);
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		uint64_t c = parse_number("capacity", tok);

		if (c == 0)
			die("capacity must be at least 1 page");
		if (c >= NONE)
			die("capacity %" PRIu64 " too large", c);
		o->capacity = xrealloc(o->capacity, o->ncapacity + 1,
				       sizeof(*o->capacity));
		o->capacity[o->ncapacity++] = (uint32_t)c;
	}
	free(copy);
}

static void parse_options(struct options *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "capacity", required_argument, NULL, 'c' },
		{ "page-size", required_argument, NULL, 'p' },
		{ "skip", required_argument, NULL, 's' },
		{ "warmup-usec", required_argument, NULL, 'T' },
		{ "warmup", required_argument, NULL, 'W' },
		{ "raw", no_argument, NULL, 'r' },
		{ "lru", no_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t v;
	int c;

	o->page_size = 4096;
	while ((c = getopt_long(argc, argv, "c:p:s:T:W:rlh", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'c':
			add_capacities(o, optarg);
			break;
		case 'p':
			o->page_size = parse_number("page size", optarg);
			if (!o->page_size)
				die("page size must be at least 1 byte");
			break;
		case 's':
			v = parse_number("skip", optarg);
			o->skip = v > SIZE_MAX ? SIZE_MAX : (size_t)v;
			break;
		case 'T':
			o->warmup_usec = parse_number("warm-up time", optarg);
			o->have_usec = true;
			break;
		case 'W':
			o->warm_files = xrealloc(o->warm_files, o->nwarm + 1,
						 sizeof(*o->warm_files));
			o->warm_files[o->nwarm++] = optarg;
			break;
		case 'r':
			o->raw = true;
			break;
		case 'l':
			o->lru = true;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			exit(2);
		}
	}
	if (o->raw && o->have_usec)
		die("-T needs a version 3 iolog (with timestamps), not -r");
	if (!o->ncapacity) {
		fprintf(stderr, "%s: no capacity given (-c)\n", prog);
		usage(stderr);
		exit(2);
	}
}

static void free_all(struct stream *s, struct options *o)
{
	for (uint32_t i = 0; i < s->files.n; i++)
		free(s->files.name[i]);
	free(s->files.name);
	free(s->files.slot);
	free(s->pages.file);
	free(s->pages.page);
	free(s->pages.slot);
	free(s->ref);
	free(s->req_end);
	free(o->capacity);
	free(o->warm_files);
}

static double ratio(size_t misses, size_t refs)
{
	return (double)misses / (double)refs;
}

int main(int argc, char **argv)
{
	struct options o = { 0 };
	struct stream s = { 0 };
	uint32_t *freq, distinct, *next;
	size_t skip, refs, requests = 0;

	parse_options(&o, argc, argv);
	for (size_t i = 0; i < o.nwarm; i++)
		read_file(&s, &o, o.warm_files[i], false);
	if (optind == argc)
		read_file(&s, &o, "-", true);
	for (int i = optind; i < argc; i++)
		read_file(&s, &o, argv[i], true);
	if (!s.window_known)
		s.window = s.n;	/* -T beyond the last timestamp */

	skip = s.window + (o.skip < s.n - s.window ? o.skip : s.n - s.window);
	refs = s.n - skip;
	if (!refs)
		die("no references to count: %zu page references, %zu of them warm-up",
		    s.n, skip);
	for (size_t r = 0; r < s.nreq; r++)
		requests += s.req_end[r] > skip;

	distinct = window_frequencies(&s, skip, &freq);
	next = next_uses(&s);
	for (size_t i = 0; i < o.ncapacity; i++) {
		uint32_t cap = o.capacity[i];
		size_t hits = 0, m_static, m_min, m_minw;

		for (uint32_t k = 0; k < cap && k < distinct; k++)
			hits += freq[k];
		m_static = refs - hits;
		m_min = policy_min(&s, next, cap, skip);
		m_minw = skip ? policy_minw(&s, next, cap, skip) : m_min;
		printf("capacity=%" PRIu32 " refs=%zu requests=%zu warmup=%zu distinct=%" PRIu32 " pages=%" PRIu32
		       " static_misses=%zu static_miss_ratio=%.6f min_misses=%zu min_miss_ratio=%.6f minw_misses=%zu minw_miss_ratio=%.6f",
		       cap, refs, requests, skip, distinct, s.pages.n,
		       m_static, ratio(m_static, refs), m_min,
		       ratio(m_min, refs), m_minw, ratio(m_minw, refs));
		if (o.lru) {
			size_t m_lru = policy_lru(&s, cap, skip);

			printf(" lru_misses=%zu lru_miss_ratio=%.6f", m_lru,
			       ratio(m_lru, refs));
		}
		putchar('\n');
		fflush(stdout);
	}
	free(next);
	free(freq);
	free_all(&s, &o);
	return 0;
}
