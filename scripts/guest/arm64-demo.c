// SPDX-License-Identifier: GPL-2.0
/*
 * The demo of "make KARCH=arm64" as the whole user space of an arm64 guest:
 * built static with the cross compiler and booted as /init of an initramfs,
 * since the host's root file system (what the x86_64 guests run) holds no
 * arm64 programs.  It does what scripts/guest/demo.sh does with fio: Zipf
 * (theta 1.2) random 4k reads of a file four times the limit of a memcg,
 * for SECONDS, then the memcg's refault counters, the pages read from disk
 * and its generations.
 *
 * usage (kernel command line): rdinit=/init -- SECONDS
 * The data file is zipf.dat on the ext4 file system of /dev/vda.  The last
 * console line is "arm64-demo: exit N"; then the guest powers off.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#define DATA_DEV	"/dev/vda"
#define DATA_DIR	"/mnt/data"
#define DATA_FILE	DATA_DIR "/zipf.dat"
#define CG_ROOT		"/sys/fs/cgroup"
#define CG		CG_ROOT "/demo"
#define MEMCG_MAX	"64M"	/* memory.max, MEMCG_MAX_BYTES as cgroupfs takes it */
#define MEMCG_MAX_BYTES	(64L << 20)
/* read on past SECONDS until the disk gave twice the memcg's size... */
#define MIN_PAGES_READ	(2 * MEMCG_MAX_BYTES / READ_SIZE)
/* ...but not past this many times SECONDS */
#define MAX_STRETCH	10
#define READ_SIZE	4096
#define THETA		1.2

static int fail(const char *fmt, ...)
{
	int err = errno;	/* before the calls below change it */
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "arm64-demo: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "%s%s\n", err ? ": " : "", err ? strerror(err) : "");
	va_end(ap);
	return 1;
}

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* The value of @key in the "key value" lines of @path, -1 if absent */
static long long stat_value(const char *path, const char *key)
{
	char name[128];
	long long value, found = -1;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fscanf(f, "%127s %lld", name, &value) == 2) {
		if (!strcmp(name, key)) {
			found = value;
			break;
		}
	}
	fclose(f);
	return found;
}

/* Sectors read from the data disk (the third field of its stat) */
static long long sectors_read(void)
{
	long long ios, merges, sectors = -1;
	FILE *f = fopen("/sys/block/vda/stat", "r");

	if (!f)
		return -1;
	if (fscanf(f, "%lld %lld %lld", &ios, &merges, &sectors) != 3)
		sectors = -1;
	fclose(f);
	return sectors;
}

/* xorshift64*: the reads need a fast generator, not a good one */
static unsigned long long next_random(unsigned long long *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 2685821657736338717ULL;
}

/*
 * Zipf reads of the @nr_blocks blocks of @fd for @seconds: rank r has weight
 * 1 / r^THETA; an odd multiplier spreads the ranks over the file (a bijection
 * because @nr_blocks is a power of two).  Returns the number of reads.
 */
static long long zipf_reads(int fd, long nr_blocks, int seconds, long long *elapsed)
{
	double *cdf = malloc(nr_blocks * sizeof(*cdf));
	unsigned long long state = 88172645463325252ULL;
	char buf[READ_SIZE];
	long long reads = 0, sectors0;
	double sum = 0;
	time_t start, end;
	long i;

	if (!cdf)
		return -1;
	for (i = 0; i < nr_blocks; i++) {
		sum += 1 / pow(i + 1, THETA);
		cdf[i] = sum;
	}
	posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
	start = time(NULL);
	end = start + seconds;
	sectors0 = sectors_read();
	/*
	 * A guest slowed down by a busy host may not fill the memcg in SECONDS:
	 * then read on, checking the disk every 1024 reads, so that the demo
	 * always shows reclaim at work.
	 */
	while (time(NULL) < end ||
	       (time(NULL) < start + MAX_STRETCH * seconds && (reads & 1023 ||
		sectors_read() - sectors0 < MIN_PAGES_READ * 8LL))) {
		double u = (next_random(&state) >> 11) * 0x1.0p-53 * sum;
		long lo = 0, hi = nr_blocks - 1;

		while (lo < hi) {
			long mid = (lo + hi) / 2;

			if (cdf[mid] < u)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (pread(fd, buf, READ_SIZE,
			  ((lo * 2654435761L) & (nr_blocks - 1)) * READ_SIZE) != READ_SIZE) {
			reads = -1;
			break;
		}
		reads++;
	}
	free(cdf);
	*elapsed = time(NULL) - start;
	return reads;
}

/* Print the generations of memcg /demo from /sys/kernel/debug/lru_gen */
static void print_gens(void)
{
	unsigned long seq, age, anon, file;
	char line[256];
	int in_demo = 0;
	FILE *f = fopen("/sys/kernel/debug/lru_gen", "r");

	printf("/sys/kernel/debug/lru_gen for memcg /demo:\n");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "memcg", 5)) {
			in_demo = strstr(line, " /demo\n") != NULL;
			continue;
		}
		if (in_demo && sscanf(line, "%lu %lu %lu %lu", &seq, &age, &anon, &file) == 4)
			printf("    gen seq %-6lu age %8lu ms  anon %7lu  file %7lu\n",
			       seq, age, anon, file);
	}
	fclose(f);
}

static int setup(void)
{
	mkdir("/proc", 0555);
	mkdir("/sys", 0555);
	mkdir("/dev", 0755);
	mkdir("/mnt", 0755);
	mkdir(DATA_DIR, 0755);
	if (mount("proc", "/proc", "proc", 0, NULL) ||
	    mount("sysfs", "/sys", "sysfs", 0, NULL) ||
	    mount("devtmpfs", "/dev", "devtmpfs", 0, NULL) ||
	    mount("cgroup2", CG_ROOT, "cgroup2", 0, NULL) ||
	    mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL))
		return fail("cannot mount the kernel file systems");
	if (mount(DATA_DEV, DATA_DIR, "ext4", MS_RDONLY, NULL))
		return fail("cannot mount %s", DATA_DEV);
	if (write_file(CG_ROOT "/cgroup.subtree_control", "+memory") ||
	    mkdir(CG, 0755) || write_file(CG "/memory.max", MEMCG_MAX))
		return fail("cannot make memcg /demo with memory.max=%s", MEMCG_MAX);
	return 0;
}

static int demo(int seconds)
{
	long long refaults, activations, sectors, reads, result[2];
	char enabled[32] = "?";
	struct utsname uts;
	struct stat st;
	int fd, status, pipefd[2];
	FILE *f;
	pid_t pid;

	if (setup())
		return 1;
	uname(&uts);
	f = fopen("/sys/kernel/mm/lru_gen/enabled", "r");
	if (f) {
		if (!fgets(enabled, sizeof(enabled), f))
			strcpy(enabled, "?\n");
		fclose(f);
	}
	printf("kernel: %s (%s)\n/sys/kernel/mm/lru_gen/enabled: %s", uts.release,
	       uts.machine, enabled);

	fd = open(DATA_FILE, O_RDONLY);
	if (fd < 0 || fstat(fd, &st))
		return fail("cannot open %s", DATA_FILE);

	refaults = stat_value(CG "/memory.stat", "workingset_refault_file");
	activations = stat_value(CG "/memory.stat", "workingset_activate_file");
	sectors = sectors_read();

	/*
	 * The reader runs in the memcg, the rest of us stays in the root; it
	 * hands its number of reads back through a pipe.
	 */
	if (pipe(pipefd))
		return fail("pipe");
	pid = fork();
	if (pid == 0) {
		char self[32];

		snprintf(self, sizeof(self), "%d", getpid());
		if (write_file(CG "/cgroup.procs", self))
			_exit(fail("cannot join memcg /demo"));
		result[0] = zipf_reads(fd, st.st_size / READ_SIZE, seconds, &result[1]);
		if (result[0] <= 0)
			_exit(fail("reading %s", DATA_FILE));
		_exit(write(pipefd[1], result, sizeof(result)) == sizeof(result) ? 0 : 1);
	}
	close(pipefd[1]);
	if (pid < 0 || read(pipefd[0], result, sizeof(result)) != sizeof(result) ||
	    waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status)) {
		errno = 0;
		return fail("the reader failed");
	}
	reads = result[0];

	refaults = stat_value(CG "/memory.stat", "workingset_refault_file") - refaults;
	activations = stat_value(CG "/memory.stat", "workingset_activate_file") - activations;
	sectors = sectors_read() - sectors;
	printf("zipf:%.1f 4k random reads of %lld MiB in a memcg with memory.max=%s, %lld s:\n"
	       "  reads:                      %lld\n"
	       "  workingset_refault_file:   +%lld\n"
	       "  workingset_activate_file:  +%lld\n"
	       "  pages read from disk:       %lld\n"
	       "  per read: %.3f disk pages, %.3f refaults\n",
	       THETA, (long long)st.st_size >> 20, MEMCG_MAX, result[1], reads, refaults,
	       activations, sectors / 8, sectors / 8.0 / reads, (double)refaults / reads);
	print_gens();
	if (refaults <= 0) {
		errno = 0;
		return fail("no refaults under memcg pressure");
	}
	return 0;
}

int main(int argc, char **argv)
{
	int seconds = argc > 1 ? atoi(argv[argc - 1]) : 30;
	int status = demo(seconds > 0 ? seconds : 30);

	printf("arm64-demo: exit %d\n", status);
	fflush(stdout);
	sync();
	reboot(RB_POWER_OFF);
	return status;
}
