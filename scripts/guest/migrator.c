// SPDX-License-Identifier: GPL-2.0
/*
 * migrator - the page mover of the migration soak (soak.sh migrate).
 *
 *   migrator SECONDS PERIOD_MS FILE CGROUP...
 *
 * For SECONDS, in passes PERIOD_MS apart (a pass itself takes seconds
 * under KASAN and TCG), move folios to the other of NUMA nodes 0 and 1
 * (the guest boots with numa=fake=2), alternating the direction:
 *   - the folios of FILE that are in the page cache (mincore()), through a
 *     fresh shared mapping of the file, with move_pages() and
 *     MPOL_MF_MOVE_ALL, so that page cache folios that other tasks read
 *     and the eviction ages are taken off their lists, copied and put on
 *     the other node's lruvec of the same memcg;
 *   - every page of every process in the cgroups named and their
 *     descendants (anon, and file pages they map), with migrate_pages().
 * Prints the passes, the folios of FILE that moved to the target node
 * (where move_pages() found them before and after) and the successful
 * migrate_pages() calls.  Exits 1 if no folio of FILE ever moved or no
 * migrate_pages() call succeeded (nothing was tested), 2 on a setup
 * error.  Errors of single pages (EBUSY, EFAULT,
 * ENOENT for a folio evicted meanwhile) and of processes that exit
 * (ESRCH, or EINVAL once their mm is gone) are part of the load, not
 * failures.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/mempolicy.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* migrate_pages()'s maxnode counts one more than the bits it reads */
#define MAXNODE 3
#define NODE1 "/sys/devices/system/node/node1"

static long page_size;

static void die(const char *what)
{
	fprintf(stderr, "migrator: %s: %s\n", what, strerror(errno));
	exit(2);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Move the cached folios of @fd to @node; return how many moved there. */
static long move_file(int fd, int node)
{
	static unsigned char *vec;
	static void **pages;
	static int *nodes, *before, *status, *after;
	static long cap;
	struct stat st;
	long nr, i, n = 0, moved = 0;
	volatile const char *map;

	if (fstat(fd, &st))
		die("fstat");
	nr = (st.st_size + page_size - 1) / page_size;
	if (!nr)
		return 0;
	if (nr > cap) {
		vec = realloc(vec, nr);
		pages = realloc(pages, nr * sizeof(*pages));
		nodes = realloc(nodes, nr * sizeof(*nodes));
		before = realloc(before, nr * sizeof(*before));
		status = realloc(status, nr * sizeof(*status));
		after = realloc(after, nr * sizeof(*after));
		if (!vec || !pages || !nodes || !before || !status || !after)
			die("realloc");
		cap = nr;
	}
	map = mmap(NULL, nr * page_size, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		die("mmap");
	if (mincore((void *)map, nr * page_size, vec))
		die("mincore");
	for (i = 0; i < nr; i++) {
		if (!(vec[i] & 1))
			continue;
		/* map it: move_pages() moves only what the page table maps */
		(void)map[i * page_size];
		pages[n] = (void *)(map + i * page_size);
		nodes[n] = node;
		n++;
	}
	/*
	 * Where they are (nodes NULL), move them, and where they are then:
	 * status[] of a batch whose migration failed is left unwritten, so
	 * only the second query says what moved.
	 */
	if (n && syscall(SYS_move_pages, 0, n, pages, NULL, before, 0) < 0)
		die("move_pages (query)");
	if (n && syscall(SYS_move_pages, 0, n, pages, nodes, status, MPOL_MF_MOVE_ALL) < 0 &&
	    errno != ENOENT && errno != ENOMEM)
		die("move_pages");
	if (n && syscall(SYS_move_pages, 0, n, pages, NULL, after, 0) < 0)
		die("move_pages (query)");
	for (i = 0; i < n; i++)
		moved += before[i] >= 0 && before[i] != node && after[i] == node;
	munmap((void *)map, nr * page_size);
	return moved;
}

/*
 * migrate_pages() every process of cgroup @dir and of its descendants to
 * @node; return the calls that succeeded.  Cgroups come and go meanwhile.
 */
static long move_cgroup(const char *dir, int node)
{
	unsigned long from = 1UL << (1 - node), to = 1UL << node;
	char path[4096];
	struct dirent *d;
	long calls = 0;
	FILE *procs;
	DIR *sub;
	int pid;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	procs = fopen(path, "r");
	if (!procs)
		return 0;
	while (fscanf(procs, "%d", &pid) == 1) {
		if (syscall(SYS_migrate_pages, pid, MAXNODE, &from, &to) >= 0)
			calls++;
		/* EINVAL: the process exited, its mm is gone */
		else if (errno != ESRCH && errno != EINVAL && errno != ENOMEM)
			die("migrate_pages");
	}
	fclose(procs);
	sub = opendir(dir);
	if (!sub)
		return calls;
	while ((d = readdir(sub))) {
		if (d->d_type != DT_DIR || d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		calls += move_cgroup(path, node);
	}
	closedir(sub);
	return calls;
}

int main(int argc, char **argv)
{
	long passes = 0, file_moved = 0, procs_moved = 0;
	double end, period;
	int fd, i;

	if (argc < 4) {
		fprintf(stderr, "usage: migrator SECONDS PERIOD_MS FILE CGROUP...\n");
		return 2;
	}
	page_size = sysconf(_SC_PAGESIZE);
	if (access(NODE1, F_OK)) {
		fprintf(stderr, "migrator: no NUMA node 1 (boot with numa=fake=2)\n");
		return 2;
	}
	end = now() + atof(argv[1]);
	period = atof(argv[2]) / 1000;
	fd = open(argv[3], O_RDONLY);
	if (fd < 0)
		die(argv[3]);

	while (now() < end) {
		int node = passes % 2;

		file_moved += move_file(fd, node);
		for (i = 4; i < argc; i++)
			procs_moved += move_cgroup(argv[i], node);
		passes++;
		usleep(period * 1e6);
	}
	printf("%ld passes, %ld file folios moved, %ld process migrations\n",
	       passes, file_moved, procs_moved);
	return file_moved && procs_moved ? 0 : 1;
}
