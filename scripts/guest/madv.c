// SPDX-License-Identifier: GPL-2.0
/*
 * madv - memory operations for the refs API guest checks (refs-api.sh).
 *
 * Each subcommand sets up its memory, does the operation under test and
 * prints what it measured as "key value" lines on stdout; refs-api.sh
 * decides whether that is right.  Errors in the setup exit with status 2
 * and a message on stderr.
 *
 *   madv smaps FILE NREADS
 *	Map FILE, touch it twice, and report smaps "Referenced" of the
 *	mapping; clear_refs; read FILE NREADS times through the fd (the
 *	PTEs stay old, only the LRU's access count sees these reads) and
 *	report "Referenced" again; clear_refs once more.
 *   madv cold FILE MEMCG_DIR
 *	Make both halves of FILE equally hot (fd reads and mapped touches),
 *	MADV_COLD the first half, reclaim half of FILE from MEMCG_DIR with
 *	memory.reclaim and report how much of each half is resident.
 *   madv cold-anon MIB MEMCG_DIR [LRU_GEN_MEMCG_PATH]
 *	The same with two anon regions of MIB MiB each, swapped out by
 *	memory.reclaim.  With the multi-gen LRU (third argument, the memcg
 *	path as /sys/kernel/debug/lru_gen prints it; the memcg must be new),
 *	also report the anon pages in generations older than max_seq - 1
 *	right before and after MADV_COLD.
 *   madv pageout FILE MEMCG_DIR
 *	Read FILE four times, MADV_PAGEOUT it, fault it back in through the
 *	mapping and report the workingset counters of memory.stat around that.
 *   madv reread read|sendfile FILE OTHER MEMCG_DIR PASSES
 *	Read FILE PASSES times through one open fd, a page per read(2) or per
 *	sendfile(2) to /dev/null, with an lseek() back to the start between
 *	passes (a log re-read, a table scan); then read OTHER, as large as
 *	FILE and not cached, once the same way; reclaim OTHER's size from
 *	MEMCG_DIR with memory.reclaim and report how much of each file is
 *	resident.
 *   madv passes read|sendfile FILE PASSES
 *	Only the passes of reread over FILE, through one fd.
 *   madv thp-split FILE MEMCG_DIR
 *	FILE is on a tmpfs mounted with huge=always: fill it, read it three
 *	times, map it, split its THPs with /sys/kernel/debug/split_huge_pages
 *	and report /proc/kpageflags and memory.stat before and after.
 *   madv thp-split-young FILE MEMCG_DIR
 *	FILE is on a tmpfs mounted with huge=always: fallocate two THPs
 *	(not referenced, inactive), map them (young PMDs), read the first
 *	page of each once through the fd (one access: PG_referenced with the
 *	active/inactive LRU), split them with split_huge_pages and report
 *	/proc/kpageflags and the memcg's pgactivate before and after.
 *   madv refs-user OP FILE [DATA_FILE]
 *	For accounting.sh: bring the folios of FILE to refs 2 or 3 and then
 *	change PG_referenced the way code outside the LRU does, which moves
 *	them across the activation threshold: OP cold (MADV_COLD) or
 *	clear-refs (/proc/PID/clear_refs) on a file read three times;
 *	shmem-write (a write to a tmpfs FILE written and read once before),
 *	gup (an O_DIRECT read of DATA_FILE into a mapping of such a tmpfs
 *	FILE) or thp-split (split_huge_pages on such a mapping of a tmpfs
 *	FILE mounted with huge=always).  Prints nothing.
 *
 * Build on the host: gcc -O2 -static -o madv madv.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef MADV_COLD
#define MADV_COLD	20
#endif
#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT	21
#endif

#define KPF_REFERENCED	2
#define KPF_ACTIVE	6
#define KPF_THP		22
#define PM_PFN_MASK	((1ULL << 55) - 1)
#define PM_PRESENT	(1ULL << 63)

#define HPAGE_SIZE	(2UL << 20)
#define CHUNK		(1UL << 20)

static long page_size;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "madv: ");
	vfprintf(stderr, fmt, ap);
	if (errno)
		fprintf(stderr, ": %s", strerror(errno));
	fputc('\n', stderr);
	va_end(ap);
	exit(2);
}

static void usage(const char *args)
{
	errno = 0;
	die("usage: %s", args);
}

static int open_file(const char *path, int flags, size_t *size)
{
	struct stat st;
	int fd = open(path, flags, 0600);

	if (fd < 0)
		die("open %s", path);
	if (size) {
		if (fstat(fd, &st))
			die("stat %s", path);
		*size = st.st_size;
		if (!*size) {
			errno = 0;
			die("%s is empty", path);
		}
	}
	return fd;
}

/*
 * Read [off, off + len) of a file through the fd @times times.  Each pass
 * reads in 1 MiB chunks from the start, so filemap_read() marks every folio
 * accessed once per pass.
 */
static void read_range(int fd, size_t off, size_t len, int times)
{
	static char buf[CHUNK];
	size_t done;
	ssize_t n;

	while (times-- > 0) {
		for (done = 0; done < len; done += n) {
			size_t want = len - done < CHUNK ? len - done : CHUNK;

			n = pread(fd, buf, want, off + done);
			if (n <= 0)
				die("read");
		}
	}
}

/* Read one byte of every page in [p, p + len) @times times. */
static unsigned long touch(const volatile char *p, size_t len, int times)
{
	unsigned long sum = 0;
	size_t i;

	while (times-- > 0)
		for (i = 0; i < len; i += page_size)
			sum += p[i];
	return sum;
}

/* Write to every page in [p, p + len). */
static void dirty(volatile char *p, size_t len, int seed)
{
	size_t i;

	for (i = 0; i < len; i += page_size)
		p[i] = (char)(i / page_size + seed);
}

/*
 * Map @len bytes of a file, out of khugepaged's reach: it collapses file
 * mappings of file systems with large folios (ext4) into THPs, and a
 * collapse unmaps the range and holds its pages locked meanwhile, so a
 * check that runs next to one (MADV_PAGEOUT on more than one CPU) would
 * see pages it cannot reclaim or that are not mapped.
 */
static void *map_file(int fd, size_t len, int prot)
{
	void *p = mmap(NULL, len, prot, MAP_SHARED, fd, 0);

	if (p == MAP_FAILED)
		die("mmap");
	if (madvise(p, len, MADV_NOHUGEPAGE))
		die("MADV_NOHUGEPAGE");
	return p;
}

/* Map @len bytes of anon memory without THPs. */
static char *map_anon(size_t len)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap anon");
	if (madvise(p, len, MADV_NOHUGEPAGE))
		die("MADV_NOHUGEPAGE");
	return p;
}

static void do_madvise(void *p, size_t len, int advice, const char *name)
{
	if (madvise(p, len, advice))
		die("%s", name);
}

/* Pages of [p, p + len) that mincore() reports resident. */
static unsigned long resident(void *p, size_t len)
{
	size_t i, pages = (len + page_size - 1) / page_size;
	unsigned char *vec = malloc(pages);
	unsigned long n = 0;

	if (!vec)
		die("malloc");
	if (mincore(p, len, vec))
		die("mincore");
	for (i = 0; i < pages; i++)
		n += vec[i] & 1;
	free(vec);
	return n;
}

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	n = n < 0 ? -errno : 0;
	close(fd);
	return n;
}

/* /proc/self/clear_refs: forget the accesses to all pages of this process. */
static void clear_refs(void)
{
	int err = write_str("/proc/self/clear_refs", "1");

	if (err) {
		errno = -err;
		die("clear_refs");
	}
}

/* Field @key ("Referenced:", ...) of the mapping that starts at @p, in kB. */
static unsigned long smaps_field(void *p, const char *key)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	unsigned long start, end, kb = 0;
	size_t klen = strlen(key);
	char line[512];
	int inside = 0;

	if (!f)
		die("open smaps");
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &start, &end) == 2 &&
		    strchr(line, '-') < strchr(line, ' ')) {
			inside = start == (unsigned long)p;
			continue;
		}
		if (inside && !strncmp(line, key, klen) &&
		    sscanf(line + klen, "%lu kB", &kb) == 1)
			break;
	}
	fclose(f);
	return kb;
}

static unsigned long smaps_referenced(void *p)
{
	return smaps_field(p, "Referenced:");
}

/* Value of @key in @memcg/memory.stat. */
static unsigned long memcg_stat(const char *memcg, const char *key)
{
	char path[512], name[128];
	unsigned long val, ret = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/memory.stat", memcg);
	f = fopen(path, "r");
	if (!f)
		die("open %s", path);
	while (fscanf(f, "%127s %lu", name, &val) == 2) {
		if (!strcmp(name, key)) {
			ret = val;
			break;
		}
	}
	fclose(f);
	return ret;
}

/*
 * Proactive reclaim of @bytes from @memcg.  The swappiness argument is
 * newer than memory.reclaim; without it, or when it is refused, reclaim
 * with the memcg's own swappiness.  memory.reclaim fails with EAGAIN when
 * it reclaimed less than asked, which is an answer, not an error here.
 */
static void memcg_reclaim(const char *memcg, size_t bytes, const char *swappiness)
{
	char path[512], req[64];
	int err;

	snprintf(path, sizeof(path), "%s/memory.reclaim", memcg);
	if (swappiness) {
		snprintf(req, sizeof(req), "%zu swappiness=%s", bytes, swappiness);
		err = write_str(path, req);
		if (err != -EINVAL)
			goto out;
	}
	snprintf(req, sizeof(req), "%zu", bytes);
	err = write_str(path, req);
out:
	if (err && err != -EAGAIN) {
		errno = -err;
		die("write %s", path);
	}
}

/* The generations of a memcg in /sys/kernel/debug/lru_gen. */
struct lru_gens {
	unsigned long max_seq;
	unsigned long anon_old;	/* anon pages in generations < max_seq - 1 */
};

static void read_lru_gens(const char *cg, struct lru_gens *g)
{
	FILE *f = fopen("/sys/kernel/debug/lru_gen", "r");
	unsigned long seq, age, anon, file, seqs[8], anons[8];
	char line[512], path[256];
	int id, found = 0, inside = 0, n = 0, i;

	if (!f)
		die("open /sys/kernel/debug/lru_gen");
	memset(g, 0, sizeof(*g));
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "memcg %d %255s", &id, path) == 2) {
			inside = !strcmp(path, cg);
			found |= inside;
			continue;
		}
		/* one node in the guest: the generation lines of node 0 */
		if (inside && n < 8 &&
		    sscanf(line, " %lu %lu %lu %lu", &seq, &age, &anon, &file) == 4) {
			seqs[n] = seq;
			anons[n++] = anon;
		}
	}
	fclose(f);
	if (!found || !n) {
		errno = 0;
		die("memcg %s not in lru_gen", cg);
	}
	for (i = 0; i < n; i++)
		if (seqs[i] > g->max_seq)
			g->max_seq = seqs[i];
	for (i = 0; i < n; i++)
		if (seqs[i] + 1 < g->max_seq)
			g->anon_old += anons[i];
}

/*
 * The pagemap entry of the page at @addr (@pm: /proc/self/pagemap) into
 * @ent; return whether a page is mapped there, and then its
 * /proc/kpageflags (@kf) in @flags.
 */
static bool page_flags_at(int pm, int kf, uintptr_t addr, uint64_t *ent, uint64_t *flags)
{
	if (pread(pm, ent, sizeof(*ent), addr / page_size * sizeof(*ent)) != sizeof(*ent))
		die("read pagemap");
	if (!(*ent & PM_PRESENT) || !(*ent & PM_PFN_MASK))
		return false;
	if (pread(kf, flags, sizeof(*flags),
		  (*ent & PM_PFN_MASK) * sizeof(*flags)) != sizeof(*flags))
		die("read kpageflags");
	return true;
}

/* /proc/kpageflags of the pages mapped at [p, p + len): count @bit set. */
static unsigned long count_kpageflag(void *p, size_t len, int bit, unsigned long *present)
{
	int pm = open("/proc/self/pagemap", O_RDONLY);
	int kf = open("/proc/kpageflags", O_RDONLY);
	unsigned long n = 0;
	size_t i;

	if (pm < 0 || kf < 0)
		die("open pagemap or kpageflags");
	*present = 0;
	for (i = 0; i < len; i += page_size) {
		uint64_t ent, flags;

		if (!page_flags_at(pm, kf, (uintptr_t)p + i, &ent, &flags))
			continue;
		(*present)++;
		n += (flags >> bit) & 1;
	}
	close(pm);
	close(kf);
	return n;
}

/*
 * For a check that failed: print each run of pages of [p, p + len) that
 * mincore() reports resident, with the pagemap entry and /proc/kpageflags
 * of its first page (flags 0 if it is not mapped), at most @max runs.
 */
static void print_resident_runs(void *p, size_t len, int max)
{
	size_t i, start, pages = len / page_size;
	unsigned char *vec = malloc(pages);
	int pm = open("/proc/self/pagemap", O_RDONLY);
	int kf = open("/proc/kpageflags", O_RDONLY);

	if (!vec || pm < 0 || kf < 0)
		die("malloc, open pagemap or kpageflags");
	if (mincore(p, len, vec))
		die("mincore");
	for (i = 0; i < pages && max > 0; i++) {
		uint64_t ent = 0, flags = 0;

		if (!(vec[i] & 1))
			continue;
		for (start = i; i < pages && (vec[i] & 1); i++)
			;
		page_flags_at(pm, kf, (uintptr_t)p + start * page_size, &ent, &flags);
		printf("# resident pages %zu-%zu: pagemap 0x%llx kpageflags 0x%llx\n",
		       start, i - 1, (unsigned long long)ent, (unsigned long long)flags);
		max--;
	}
	close(pm);
	close(kf);
	free(vec);
}

/* A THP-aligned shared mapping of @size bytes of @fd. */
static char *map_file_aligned(int fd, size_t size)
{
	char *area, *p;

	area = mmap(NULL, size + HPAGE_SIZE, PROT_NONE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED)
		die("mmap");
	p = (char *)(((uintptr_t)area + HPAGE_SIZE - 1) & ~(HPAGE_SIZE - 1));
	if (mmap(p, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
		 fd, 0) != p)
		die("mmap file");
	return p;
}

/* Write @len bytes at the start of @fd, in CHUNK pieces. */
static void write_range(int fd, size_t len)
{
	static char buf[CHUNK];
	size_t done;
	ssize_t n;

	memset(buf, 0x5a, sizeof(buf));
	for (done = 0; done < len; done += n) {
		n = pwrite(fd, buf, len - done < CHUNK ? len - done : CHUNK, done);
		if (n <= 0)
			die("write");
	}
}

/* Split the THPs mapped at [p, p + len) of this process (debugfs). */
static void split_huge_pages(void *p, size_t len)
{
	char cmd[128];
	int err;

	snprintf(cmd, sizeof(cmd), "%d,0x%lx,0x%lx", getpid(),
		 (unsigned long)p, (unsigned long)p + len);
	err = write_str("/sys/kernel/debug/split_huge_pages", cmd);
	if (err) {
		errno = -err;
		die("split_huge_pages");
	}
}

static int cmd_smaps(int argc, char **argv)
{
	size_t size;
	int fd, nreads;
	char *p;

	if (argc != 2)
		usage("smaps FILE NREADS");
	nreads = atoi(argv[1]);
	fd = open_file(argv[0], O_RDONLY, &size);
	p = map_file(fd, size, PROT_READ);

	printf("size_kb %zu\n", size / 1024);
	touch(p, size, 2);
	printf("mapped_twice_kb %lu\n", smaps_referenced(p));
	clear_refs();
	printf("after_clear_kb %lu\n", smaps_referenced(p));
	read_range(fd, 0, size, nreads);
	printf("fd_reads_kb %lu\n", smaps_referenced(p));
	clear_refs();
	printf("after_clear2_kb %lu\n", smaps_referenced(p));
	return 0;
}

static int cmd_cold(int argc, char **argv)
{
	size_t size, half;
	int fd;
	char *p;

	if (argc != 2)
		usage("cold FILE MEMCG_DIR");
	fd = open_file(argv[0], O_RDONLY, &size);
	half = size / 2 / page_size * page_size;
	p = map_file(fd, size, PROT_READ);

	/* both halves equally hot: three reads and two mapped passes each */
	read_range(fd, 0, size, 3);
	touch(p, size, 2);
	do_madvise(p, half, MADV_COLD, "MADV_COLD");
	/* file pages only: there is no anon to speak of in this memcg */
	memcg_reclaim(argv[1], half, "0");

	printf("half_pages %zu\n", half / page_size);
	printf("cold_resident %lu\n", resident(p, half));
	printf("hot_resident %lu\n", resident(p + half, half));
	return 0;
}

static int cmd_cold_anon(int argc, char **argv)
{
	struct lru_gens before, after;
	size_t len;
	char *a, *b;

	if (argc != 2 && argc != 3)
		usage("cold-anon MIB MEMCG_DIR [LRU_GEN_MEMCG_PATH]");
	len = strtoul(argv[0], NULL, 0) << 20;
	a = map_anon(len);
	b = map_anon(len);
	dirty(a, len, 1);
	dirty(b, len, 2);

	/*
	 * A new memcg starts with generations 0 to max_seq = 3, and new anon
	 * folios go to max_seq - 1: the cold ones must move below that.
	 */
	touch(a, len, 2);
	touch(b, len, 2);

	if (argc == 3)
		read_lru_gens(argv[2], &before);
	do_madvise(a, len, MADV_COLD, "MADV_COLD");
	if (argc == 3) {
		read_lru_gens(argv[2], &after);
		printf("max_seq %lu\n", after.max_seq);
		printf("old_anon_before %lu\n", before.anon_old);
		printf("old_anon_after %lu\n", after.anon_old);
	}

	/* anon only if the kernel takes the argument */
	memcg_reclaim(argv[1], len, "max");

	printf("region_pages %zu\n", len / page_size);
	printf("cold_resident %lu\n", resident(a, len));
	printf("hot_resident %lu\n", resident(b, len));
	return 0;
}

static int cmd_pageout(int argc, char **argv)
{
	unsigned long refault, activate, restore, left;
	const char *cg;
	size_t size;
	int fd;
	char *p;

	if (argc != 2)
		usage("pageout FILE MEMCG_DIR");
	cg = argv[1];
	fd = open_file(argv[0], O_RDONLY, &size);

	/* hot: refs 4, a workingset folio in tier 2 with the multi-gen LRU */
	read_range(fd, 0, size, 4);
	/* MADV_PAGEOUT only sees mapped pages */
	p = map_file(fd, size, PROT_READ);
	touch(p, size, 1);
	do_madvise(p, size, MADV_PAGEOUT, "MADV_PAGEOUT");
	printf("pages %zu\n", size / page_size);
	left = resident(p, size);
	printf("resident_after_pageout %lu\n", left);
	if (left)
		print_resident_runs(p, size, 8);

	/*
	 * Fault the pages back in through the mapping: a refault in a page
	 * fault is what activates a folio whose shadow says it was accessed.
	 */
	refault = memcg_stat(cg, "workingset_refault_file");
	activate = memcg_stat(cg, "workingset_activate_file");
	restore = memcg_stat(cg, "workingset_restore_file");
	touch(p, size, 1);
	munmap(p, size);
	printf("refault_delta %lu\n", memcg_stat(cg, "workingset_refault_file") - refault);
	printf("activate_delta %lu\n", memcg_stat(cg, "workingset_activate_file") - activate);
	printf("restore_delta %lu\n", memcg_stat(cg, "workingset_restore_file") - restore);
	return 0;
}

/*
 * Read all of a file @passes times through the open @fd, a page per call,
 * with read(2) or, with @use_sendfile, sendfile(2) to @sink (the splice
 * path), seeking back to the start before each pass.
 */
static void read_passes(int fd, size_t size, int passes, bool use_sendfile, int sink)
{
	static char buf[CHUNK];
	size_t done;
	ssize_t n;

	while (passes-- > 0) {
		if (lseek(fd, 0, SEEK_SET))
			die("lseek");
		for (done = 0; done < size; done += n) {
			if (use_sendfile)
				n = sendfile(sink, fd, NULL, page_size);
			else
				n = read(fd, buf, page_size);
			if (n <= 0)
				die(use_sendfile ? "sendfile" : "read");
		}
	}
}

static int cmd_reread(int argc, char **argv)
{
	size_t size, other_size;
	unsigned long left;
	bool use_sendfile;
	int fd, other, sink;
	char *p;

	if (argc != 5 || (strcmp(argv[0], "read") && strcmp(argv[0], "sendfile")))
		usage("reread read|sendfile FILE OTHER MEMCG_DIR PASSES");
	use_sendfile = !strcmp(argv[0], "sendfile");
	fd = open_file(argv[1], O_RDONLY, &size);
	other = open_file(argv[2], O_RDONLY, &other_size);
	if (other_size != size) {
		errno = 0;
		die("%s and %s differ in size", argv[1], argv[2]);
	}
	sink = open_file("/dev/null", O_WRONLY, NULL);

	read_passes(fd, size, atoi(argv[4]), use_sendfile, sink);
	read_passes(other, size, 1, use_sendfile, sink);
	memcg_reclaim(argv[3], size, "0");

	printf("pages %zu\n", size / page_size);
	p = map_file(fd, size, PROT_READ);
	left = resident(p, size);
	printf("reread_resident %lu\n", left);
	if (left < size / page_size)
		print_resident_runs(p, size, 8);
	printf("once_resident %lu\n", resident(map_file(other, size, PROT_READ), size));
	return 0;
}

static int cmd_passes(int argc, char **argv)
{
	size_t size;
	int fd, sink;

	if (argc != 3 || (strcmp(argv[0], "read") && strcmp(argv[0], "sendfile")))
		usage("passes read|sendfile FILE PASSES");
	fd = open_file(argv[1], O_RDONLY, &size);
	sink = open_file("/dev/null", O_WRONLY, NULL);
	read_passes(fd, size, atoi(argv[2]), !strcmp(argv[0], "sendfile"), sink);
	return 0;
}

static int cmd_thp_split(int argc, char **argv)
{
	unsigned long thp, present, active, inactive;
	size_t size = 2 * HPAGE_SIZE;
	const char *cg;
	char *p;
	int fd;

	if (argc != 2)
		usage("thp-split FILE MEMCG_DIR");
	cg = argv[1];
	fd = open_file(argv[0], O_RDWR | O_CREAT | O_TRUNC, NULL);
	if (ftruncate(fd, size))
		die("ftruncate");

	p = map_file_aligned(fd, size);
	dirty(p, size, 3);
	/* three accesses: active by refs with the multi-gen LRU */
	read_range(fd, 0, size, 3);
	touch(p, size, 1);

	thp = count_kpageflag(p, size, KPF_THP, &present);
	printf("pages %zu\n", size / page_size);
	printf("thp_before %lu\n", thp);
	printf("referenced_before %lu\n", count_kpageflag(p, size, KPF_REFERENCED, &present));
	active = memcg_stat(cg, "active_anon");
	inactive = memcg_stat(cg, "inactive_anon");

	/*
	 * Keep khugepaged away from the split range: a collapse puts the
	 * pages into a new THP (refs 0, inactive) and unmaps them while it
	 * runs, which this check once caught instead of the split.  An
	 * existing THP stays as it is.
	 */
	do_madvise(p, size, MADV_NOHUGEPAGE, "MADV_NOHUGEPAGE");
	split_huge_pages(p, size);
	touch(p, size, 1);	/* map the pages again, as PTEs now */

	printf("thp_after %lu\n", count_kpageflag(p, size, KPF_THP, &present));
	printf("referenced_after %lu\n", count_kpageflag(p, size, KPF_REFERENCED, &present));
	printf("present_after %lu\n", present);
	/* shmem is on the anon LRU; pages, like the other counts */
	printf("active_anon_delta %ld\n",
	       (long)(memcg_stat(cg, "active_anon") - active) / page_size);
	printf("inactive_anon_delta %ld\n",
	       (long)(memcg_stat(cg, "inactive_anon") - inactive) / page_size);
	return 0;
}

/*
 * The young bit of a PMD that maps a file THP, on a folio accessed once:
 * what __split_huge_pmd_locked() does with it (patch 14) is all that
 * changes the folio's LRU state across the split.
 */
static int cmd_thp_split_young(int argc, char **argv)
{
	unsigned long thp, present, pgactivate;
	size_t size = 2 * HPAGE_SIZE, off;
	static char buf[1 << 16];
	const char *cg;
	char *p;
	int fd;

	if (argc != 2)
		usage("thp-split-young FILE MEMCG_DIR");
	cg = argv[1];
	fd = open_file(argv[0], O_RDWR | O_CREAT | O_TRUNC, NULL);
	if (fallocate(fd, 0, 0, size))
		die("fallocate");
	/* the faults make the fallocated THPs uptodate and map them */
	p = map_file_aligned(fd, size);
	touch(p, size, 1);
	/* no PMD mapping after this, and khugepaged keeps away, see thp-split */
	do_madvise(p, size, MADV_NOHUGEPAGE, "MADV_NOHUGEPAGE");
	/* shmem marks a folio accessed when a read starts at one of its pages */
	for (off = 0; off < size; off += HPAGE_SIZE)
		if (pread(fd, buf, page_size, off) != (ssize_t)page_size)
			die("read");

	thp = count_kpageflag(p, size, KPF_THP, &present);
	printf("pages %zu\n", size / page_size);
	printf("thp_before %lu\n", thp);
	printf("referenced_before %lu\n", count_kpageflag(p, size, KPF_REFERENCED, &present));
	printf("active_before %lu\n", count_kpageflag(p, size, KPF_ACTIVE, &present));
	/* only a PMD mapping gives the split a young bit to carry over */
	printf("pmd_mapped_before %lu\n", smaps_field(p, "ShmemPmdMapped:") * 1024 / page_size);
	pgactivate = memcg_stat(cg, "pgactivate");

	split_huge_pages(p, size);
	touch(p, size, 1);

	printf("thp_after %lu\n", count_kpageflag(p, size, KPF_THP, &present));
	printf("active_after %lu\n", count_kpageflag(p, size, KPF_ACTIVE, &present));
	printf("pgactivate_delta %lu\n", memcg_stat(cg, "pgactivate") - pgactivate);
	return 0;
}

static int cmd_refs_user(int argc, char **argv)
{
	const size_t shm_size = 4 * HPAGE_SIZE;
	const char *op;
	size_t size;
	int fd, data;
	char *p;

	if (argc < 2)
		usage("refs-user cold|clear-refs|shmem-write|gup|thp-split FILE [DATA_FILE]");
	op = argv[0];
	if (!strcmp(op, "cold") || !strcmp(op, "clear-refs")) {
		/* three fd reads: refs 3, PG_referenced set */
		fd = open_file(argv[1], O_RDONLY, &size);
		read_range(fd, 0, size, 3);
		p = map_file(fd, size, PROT_READ);
		touch(p, size, 1);
		if (!strcmp(op, "cold"))
			do_madvise(p, size, MADV_COLD, "MADV_COLD");
		else
			clear_refs();
		return 0;
	}

	/* a tmpfs file written (SGP_WRITE sets PG_referenced) and read: refs 2 */
	fd = open_file(argv[1], O_RDWR | O_CREAT | O_TRUNC, NULL);
	write_range(fd, shm_size);
	read_range(fd, 0, shm_size, 1);
	if (!strcmp(op, "shmem-write")) {
		write_range(fd, shm_size);
		return 0;
	}
	p = map_file_aligned(fd, shm_size);
	touch(p, shm_size, 1);
	if (!strcmp(op, "gup")) {
		if (argc != 3)
			usage("refs-user gup FILE DATA_FILE");
		data = open_file(argv[2], O_RDONLY | O_DIRECT, &size);
		if (size < shm_size) {
			errno = 0;
			die("%s is smaller than %zu bytes", argv[2], shm_size);
		}
		if (pread(data, p, shm_size, 0) != (ssize_t)shm_size)
			die("O_DIRECT read");
		return 0;
	}
	if (strcmp(op, "thp-split"))
		usage("refs-user cold|clear-refs|shmem-write|gup|thp-split FILE [DATA_FILE]");
	split_huge_pages(p, shm_size);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int argc, char **argv);
	} cmds[] = {
		{ "smaps", cmd_smaps },
		{ "cold", cmd_cold },
		{ "cold-anon", cmd_cold_anon },
		{ "pageout", cmd_pageout },
		{ "reread", cmd_reread },
		{ "passes", cmd_passes },
		{ "thp-split", cmd_thp_split },
		{ "thp-split-young", cmd_thp_split_young },
		{ "refs-user", cmd_refs_user },
	};
	size_t i;

	page_size = sysconf(_SC_PAGESIZE);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2)
		usage("madv smaps|cold|cold-anon|pageout|reread|passes|thp-split|thp-split-young|refs-user ARGS...");
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 2, argv + 2);
	errno = 0;
	die("unknown command %s", argv[1]);
	return 2;
}
