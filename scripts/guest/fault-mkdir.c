// SPDX-License-Identifier: GPL-2.0
/*
 * fault-mkdir - create a directory as a task whose allocations may fail
 * (the fault soak, soak.sh faults: failslab and fail_page_alloc with
 * task-filter).
 *
 *   fault-mkdir DIR
 *
 * Sets /proc/self/make-it-fail, calls mkdir(2) and clears it again, so
 * that in a cgroup file system the kernel's creation of the cgroup (a
 * memcg's per-node and per-CPU state) meets the injected failures, and
 * neither the exec of the program nor its exit does.  Static, so that no
 * loader runs after the exec either.
 * Exits 0 if DIR was created, 1 with the error if not, 2 if
 * make-it-fail could not be set.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * Write @value to the make-it-fail file @fd: pwrite() on a file opened
 * beforehand, as opening it again while marked allocates and may fail.
 */
static int set_make_it_fail(int fd, const char *value)
{
	return pwrite(fd, value, 1, 0) == 1;
}

int main(int argc, char **argv)
{
	int fd, err = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: fault-mkdir DIR\n");
		return 2;
	}
	fd = open("/proc/self/make-it-fail", O_WRONLY);
	if (fd < 0 || !set_make_it_fail(fd, "1")) {
		fprintf(stderr, "fault-mkdir: make-it-fail: %s\n", strerror(errno));
		return 2;
	}
	if (mkdir(argv[1], 0755))
		err = errno;
	/*
	 * Not on the way out: the release of this program's file at exit
	 * must not fail (on the guest's 9p root, failed releases left the
	 * root's later opens and execs failing with EINVAL, for every task).
	 */
	if (!set_make_it_fail(fd, "0")) {
		fprintf(stderr, "fault-mkdir: make-it-fail: %s\n", strerror(errno));
		return 2;
	}
	close(fd);
	if (err) {
		fprintf(stderr, "fault-mkdir: %s: %s\n", argv[1], strerror(err));
		return 1;
	}
	return 0;
}
