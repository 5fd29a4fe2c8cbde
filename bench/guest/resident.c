// SPDX-License-Identifier: GPL-2.0
/*
 * resident: which pages of a file are in the page cache, as one line of
 * '0' and '1', one character per 4 KiB page, from mincore(2).
 *
 * usage: resident FILE
 *
 * The workingset-shift benchmark (bench/guest/shift.sh) takes a line after
 * its warm-up and after each slice of its window, to follow how long the
 * pages that were hot before the move stay in memory on each arm.  The
 * file is mapped but never touched, so taking the line neither reads a
 * page nor marks one accessed; run it outside the memcg under test (the
 * mapping and the output charge no page cache there).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define PAGE_SIZE 4096UL

static void die(const char *what, const char *file)
{
	fprintf(stderr, "resident: %s %s: %s\n", what, file, strerror(errno));
	exit(1);
}

int main(int argc, char **argv)
{
	unsigned long pages, i;
	unsigned char *vec;
	struct stat st;
	char *line;
	void *map;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: resident FILE\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0)
		die("cannot open", argv[1]);
	if (fstat(fd, &st))
		die("cannot stat", argv[1]);
	pages = (st.st_size + PAGE_SIZE - 1) / PAGE_SIZE;
	if (!pages) {
		putchar('\n');
		return 0;
	}
	map = mmap(NULL, pages * PAGE_SIZE, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		die("cannot map", argv[1]);
	vec = malloc(pages);
	line = malloc(pages + 1);
	if (!vec || !line)
		die("no memory for", argv[1]);
	if (mincore(map, pages * PAGE_SIZE, vec))
		die("mincore failed on", argv[1]);
	for (i = 0; i < pages; i++)
		line[i] = (vec[i] & 1) ? '1' : '0';
	line[pages] = '\0';
	puts(line);
	return 0;
}
