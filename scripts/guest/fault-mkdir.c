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

static int set_make_it_fail(const char *value)
{
	int fd = open("/proc/self/make-it-fail", O_WRONLY);
	int ok = fd >= 0 && write(fd, value, 1) == 1;

	if (fd >= 0)
		close(fd);
	return ok;
}

int main(int argc, char **argv)
{
	int err = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: fault-mkdir DIR\n");
		return 2;
	}
	if (!set_make_it_fail("1")) {
		fprintf(stderr, "fault-mkdir: make-it-fail: %s\n", strerror(errno));
		return 2;
	}
	if (mkdir(argv[1], 0755))
		err = errno;
	/*
	 * Not on the way out: this program's file is on the guest's 9p root,
	 * and its release at exit is a 9p request (a clunk) that must not
	 * fail.  Exits that failed it left the root's later opens and execs
	 * failing with EINVAL, for every task.
	 */
	if (!set_make_it_fail("0")) {
		fprintf(stderr, "fault-mkdir: make-it-fail: %s\n", strerror(errno));
		return 2;
	}
	if (err) {
		fprintf(stderr, "fault-mkdir: %s: %s\n", argv[1], strerror(err));
		return 1;
	}
	return 0;
}
