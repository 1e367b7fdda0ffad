/*
 * pipe_limits.c - usertests: a pipe's buffer size (F_GETPIPE_SZ,
 * F_SETPIPE_SZ) and the per-user limits on pipe buffers Linux keeps in
 * /proc/sys/fs (pipe-max-size, pipe-user-pages-soft and -hard), which the
 * limit test sets for its run and puts back (root only).
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SOFT	 "/proc/sys/fs/pipe-user-pages-soft"
#define HARD	 "/proc/sys/fs/pipe-user-pages-hard"
#define MAX_SIZE "/proc/sys/fs/pipe-max-size"

TEST(pipe_size_fcntl)
{
	int p[2];
	static char data[3 * PAGE];

	CHECK_OK(pipe(p));
	CHECK_EQ(fcntl(p[0], F_GETPIPE_SZ), 16 * PAGE);
	CHECK_EQ(fcntl(p[1], F_SETPIPE_SZ, 1), PAGE); /* at least a page */
	CHECK_EQ(fcntl(p[0], F_GETPIPE_SZ), PAGE);
	CHECK_EQ(fcntl(p[1], F_SETPIPE_SZ, 3 * PAGE), 4 * PAGE); /* a power of two of pages */
	memset(data, 'x', sizeof(data));
	CHECK_EQ(write(p[1], data, sizeof(data)), (ssize_t)sizeof(data));
	CHECK_ERR(EBUSY, fcntl(p[1], F_SETPIPE_SZ, 2 * PAGE)); /* below what it holds */
	CHECK_EQ(fcntl(p[1], F_SETPIPE_SZ, 32 * PAGE), 32 * PAGE);
	static char back[3 * PAGE];
	CHECK(read(p[0], back, sizeof(back)) == (ssize_t)sizeof(back) &&
	      !memcmp(back, data, sizeof(data)));
	CHECK_ERR(EINVAL, fcntl(p[1], F_SETPIPE_SZ, (1ul << 31) + 1));
	int file = (int)CHECK_OK(open("/proc/self/stat", O_RDONLY));
	CHECK_ERR(EBADF, fcntl(file, F_GETPIPE_SZ));
	CHECK_ERR(EBADF, fcntl(file, F_SETPIPE_SZ, PAGE));
	close(file);
	close(p[0]);
	close(p[1]);
}

/* As nobody: growing past pipe-max-size is EPERM; up to it is fine. */
static void
grow_past_max(const char *unused)
{
	int p[2];
	unsigned long max = read_number(MAX_SIZE);

	(void)unused;
	CHECK_OK(pipe(p));
	CHECK_EQ(fcntl(p[0], F_SETPIPE_SZ, max), (long)max);
	CHECK_ERR(EPERM, fcntl(p[0], F_SETPIPE_SZ, max * 2));
}

/*
 * As nobody, with a soft limit of 48 pages and a hard one of 56: three
 * 16-page pipes, then 2-page ones above the soft limit, then ENFILE above
 * the hard one; growing a pipe above the soft limit is EPERM.
 */
static void
run_into_the_limits(const char *unused)
{
	int p[2], sizes[16], n = 0;

	(void)unused;
	while (n < 16 && pipe(p) == 0) {
		sizes[n++] = fcntl(p[0], F_GETPIPE_SZ);
		if (n == 3)
			CHECK_ERR(EPERM, fcntl(p[0], F_SETPIPE_SZ, 32 * PAGE));
	}
	CHECK_EQ(errno, ENFILE);
	CHECK_EQ(n, 7); /* 16 + 16 + 16 + 2 + 2 + 2 + 2 = 56 */
	for (int i = 0; i < n; i++)
		CHECK_EQ(sizes[i], (i < 3 ? 16 * PAGE : 2 * PAGE));
}

TEST(pipe_user_limits)
{
	if (geteuid() != 0)
		skip("not root: cannot set the pipe limits");
	unsigned long soft = read_number(SOFT), hard = read_number(HARD);
	CHECK(soft == 16384 && hard == 0 &&
	      read_number(MAX_SIZE) == 1048576); /* Linux's defaults */
	as_nobody(grow_past_max, NULL);
	write_number(SOFT, 48);
	write_number(HARD, 56);
	pid_t pid = xfork();
	if (pid == 0) {
		as_nobody(run_into_the_limits, NULL);
		int p[2]; /* root is not limited */
		CHECK_OK(pipe(p));
		CHECK_EQ(fcntl(p[0], F_GETPIPE_SZ), 16 * PAGE);
		_exit(0);
	}
	int status = wait_status(pid);
	write_number(SOFT, soft);
	write_number(HARD, hard);
	expect_exited(status, 0, "pipes of a user at its limits");
}
