/*
 * fstime_host.c - regression 4 on real silicon: rewind's whole write()
 * path - fs/read_write.c, fs/ramfs.c, fs/filemap.c's generic_perform_write
 * and the copy routines of mm/uaccess.c, unchanged, built with -DHOSTED -
 * in a host program over a host-side page cache (the world of
 * tests/unit/fs_host.h: the real page allocator over a host buffer, one
 * task, a fresh ramfs), driven in UnixBench fstime's pattern under each
 * copy_nocache policy.
 *
 * Under TCG a movnti is a plain store and no cache is modelled, so the
 * policies cannot differ there; here they run on this CPU's caches. What
 * the program leaves out is the system call's entry and exit and the
 * inode mutex's atomics (fs_host.h's mutexes are single-owner flags):
 * the figure is the file-system part of a write(), the part the policy
 * changes.
 *
 * Per block size (256, 1024, 4096 bytes) and policy, interleaved within
 * each of -r repeats (default 3), whole passes for a second each (-q: 50 ms):
 *
 *   write     fstime -w: max_blocks KiB (-m, default 500: docs/seeds.md's seed
 *             004) written from one static buffer a block at a time, lseek
 *             to 0 after each pass
 *   readback  each block read back (pread) right after it is written
 *   read      fstime -r over the same file: the reads stay cached
 *
 * Figures: <test>_kbps_b<size>_<policy> in KiB/s, as fstime's. -p POLICY
 * and -b SIZE run only those (for a profile: perf record -g fstime_host -p
 * always -b 256).
 *
 *   make hosted-bench && build/hosted/fstime_host [-q] [-r N] [-m KiB] [-p POLICY] [-b SIZE]
 */
#define UNIT_NO_MAIN
#define FS_HOST_REAL_UACCESS
#include "tests/unit/fs_host.h"
#include "lib/bench.h"

#include <time.h>

static int max_blocks = 500;
static const char *only_policy; /* -p */
static size_t only_size;	/* -b */

static char block[8192] __aligned(64); /* static, as fstime's buffer */
static char back_buf[8192] __aligned(64);

static double
now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

enum test { T_WRITE, T_READBACK, T_READ, T_COUNT };
static const char *const test_names[] = { "write", "readback", "read" };

/* One pass over the file: a block at a time, then back to 0. */
static void
pass(int fd, enum test t, size_t size)
{
	long blocks = (long)max_blocks * 1024 / (long)size;

	for (long b = 0; b < blocks; b++) {
		long n = t == T_READ ? do_sys_read(fd, back_buf, size)
				     : do_sys_write(fd, block, size);
		if (n != (long)size)
			panic("fstime_host: %s gave %ld", test_names[t], n);
		if (t == T_READBACK &&
		    do_sys_pread64(fd, back_buf, size, (s64)(b * (long)size)) != (long)size)
			panic("fstime_host: read back failed");
	}
	do_sys_lseek(fd, 0, SEEK_SET);
}

/* Whole passes for about secs seconds: KiB/s, counted as fstime counts. */
static double
kbps(int fd, enum test t, size_t size, double secs)
{
	double start = now_s(), elapsed;
	u64 passes = 0;

	do {
		pass(fd, t, size);
		passes++;
		elapsed = now_s() - start;
	} while (elapsed < secs);
	return (double)passes * max_blocks / elapsed;
}

static int
opt(int c, const char *arg)
{
	if (c == 'p') {
		only_policy = arg;
		return 0;
	}
	if (c == 'b') {
		only_size = (size_t)atoi(arg);
		return 0;
	}
	max_blocks = atoi(arg);
	return max_blocks >= 1 && max_blocks <= 8192 ? 0 : -1;
}

static bool
chosen(size_t size, const char *policy)
{
	return (!only_size || size == only_size) &&
	       (!only_policy || strcmp(policy, only_policy) == 0);
}

static const struct bench_help help = {
	.name = "fstime_host",
	.about =
		"rewind's write() path (fs/, mm/uaccess.c) on this CPU's caches, in fstime's pattern\n"
		"under each copy_nocache policy: write, readback and read KiB/s per block size.",
	.synopsis = "[-m MAX_BLOCKS] [-p POLICY] [-b SIZE]",
	.options =
		"  -m MAX_BLOCKS  file size in KiB, 1 to 8192 (default 500)\n"
		"  -p POLICY      only this copy_nocache policy (never, large, always)\n"
		"  -b SIZE        only this block size (256, 1024 or 4096)\n",
};

int
main(int argc, char **argv)
{
	static const size_t sizes[] = { 256, 1024, 4096 };
	static const struct {
		const char *name;
		int value;
	} policies[] = { { "never", COPY_NOCACHE_NEVER },
			 { "large", COPY_NOCACHE_LARGE },
			 { "always", COPY_NOCACHE_ALWAYS } };
	double sums[ARRAY_SIZE(sizes)][ARRAY_SIZE(policies)][T_COUNT] = { 0 };

	bench_init_opts(argc, argv, &help, "m:p:b:", opt);
	double secs = bench_quick() ? 0.05 : 1.0;
	int repeats = bench_repeats(3);

	fs_setup(); /* 16 MiB of "RAM": the file's pages come from there */
	for (size_t i = 0; i < sizeof(block); i++)
		block[i] = (char)(i & 0xff);
	int fd = (int)do_sys_open("/fstime", O_CREAT | O_RDWR | O_TRUNC, 0600);
	if (fd < 0)
		panic("fstime_host: open gave %d", fd);
	for (int r = 0; r < repeats; r++)
		for (size_t s = 0; s < ARRAY_SIZE(sizes); s++)
			for (size_t p = 0; p < ARRAY_SIZE(policies); p++) {
				if (!chosen(sizes[s], policies[p].name))
					continue;
				copy_policy = policies[p].value; /* the knob's variable */
				for (int t = 0; t < T_COUNT; t++)
					sums[s][p][t] += kbps(fd, (enum test)t, sizes[s], secs);
			}
	for (size_t s = 0; s < ARRAY_SIZE(sizes); s++)
		for (size_t p = 0; p < ARRAY_SIZE(policies); p++)
			for (int t = 0; t < T_COUNT && chosen(sizes[s], policies[p].name); t++) {
				char metric[64];
				bench_metric_name(metric, sizeof(metric), "%s_kbps_b%zu_%s",
						  test_names[t], sizes[s], policies[p].name);
				bench_result(metric, sums[s][p][t] / repeats, "KiB/s");
			}
	do_sys_close(fd);
	return 0;
}
