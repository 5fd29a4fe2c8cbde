// SPDX-License-Identifier: GPL-2.0
/*
 * churn-reader - the readers of the memcg churn test (memcg-churn.sh).
 *
 *   churn-reader read|mmap FILE SLICE_FILE SLICE_MIB SECONDS
 *
 * For SECONDS, read the slice of FILE that starts at the MiB offset
 * written in SLICE_FILE (re-read before every pass, so that the reader
 * follows the short-lived memcg that filled the slice last), SLICE_MIB
 * long: with "read", a one-byte pread() per page, each an fd access of
 * the folio; with "mmap", one load per page of a fresh mapping, found by the
 * page table walk or the rmap walk of the eviction.  Prints the number of
 * passes.  Setup errors exit with status 2.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define MIB (1024L * 1024)

static void die(const char *what)
{
	fprintf(stderr, "churn-reader: %s: %s\n", what, strerror(errno));
	exit(2);
}

/* The slice's offset in MiB, -1 if SLICE_FILE does not say yet */
static long current_slice(const char *slice_file)
{
	FILE *f = fopen(slice_file, "r");
	long mib = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%ld", &mib) != 1)
		mib = -1;
	fclose(f);
	return mib;
}

static void read_pass(int fd, off_t off, long len, long page)
{
	char byte;
	long done;

	for (done = 0; done < len; done += page)
		if (pread(fd, &byte, 1, off + done) < 0)
			die("pread");
}

static void mmap_pass(int fd, off_t off, long len, long page)
{
	volatile const char *p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, off);
	long done;

	if (p == MAP_FAILED)
		die("mmap");
	for (done = 0; done < len; done += page)
		(void)p[done];
	munmap((void *)p, len);
}

int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE), len, passes = 0, mib;
	int use_mmap, fd;
	time_t end;

	if (argc != 6 || (strcmp(argv[1], "read") && strcmp(argv[1], "mmap"))) {
		fprintf(stderr, "usage: churn-reader read|mmap FILE SLICE_FILE SLICE_MIB SECONDS\n");
		return 2;
	}
	use_mmap = !strcmp(argv[1], "mmap");
	fd = open(argv[2], O_RDONLY);
	if (fd < 0)
		die(argv[2]);
	len = atol(argv[4]) * MIB;
	end = time(NULL) + atol(argv[5]);

	while (time(NULL) < end) {
		mib = current_slice(argv[3]);
		if (mib < 0) {
			usleep(10000);
			continue;
		}
		if (use_mmap)
			mmap_pass(fd, mib * MIB, len, page);
		else
			read_pass(fd, mib * MIB, len, page);
		passes++;
	}
	printf("%ld\n", passes);
	return 0;
}
