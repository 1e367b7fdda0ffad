/*
 * pipes.c - usertests: pipes (data, end of file, EPIPE, capacity, a
 * megabyte between two processes) and poll on them.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

TEST(pipe_basic)
{
	int p[2];
	char buf[16];

	EXPECT_OK(pipe(p));
	CHECK(write(p[1], "hello", 5) == 5);
	CHECK(write(p[1], "world", 5) == 5);
	CHECK(read(p[0], buf, 3) == 3 && memcmp(buf, "hel", 3) == 0);
	CHECK(read(p[0], buf, 16) == 7 && memcmp(buf, "loworld", 7) == 0);
	EXPECT_ERR(ESPIPE, lseek(p[0], 0, SEEK_SET));
	EXPECT_ERR(ESPIPE, pread(p[0], buf, 1, 0));
	EXPECT_ERR(ESPIPE, pwrite(p[1], buf, 1, 0));
	EXPECT_ERR(EBADF, write(p[0], "x", 1));
	EXPECT_ERR(EBADF, read(p[1], buf, 1));
	struct stat st;

	EXPECT_OK(fstat(p[0], &st));
	CHECK(S_ISFIFO(st.st_mode));
	EXPECT_OK(pipe2(p, O_CLOEXEC | O_NONBLOCK));
	CHECK(fcntl(p[0], F_GETFD) == FD_CLOEXEC && fcntl(p[1], F_GETFD) == FD_CLOEXEC);
	EXPECT_ERR(EAGAIN, read(p[0], buf, 1));
	EXPECT_ERR(EINVAL, pipe2(p, 0x1));
}

TEST(pipe_eof_epipe)
{
	int p[2];
	char c;

	signal(SIGPIPE, SIG_IGN); /* so that write() reports EPIPE */
	EXPECT_OK(pipe(p));
	CHECK(write(p[1], "x", 1) == 1);
	close(p[1]);
	CHECK(read(p[0], &c, 1) == 1);
	CHECK(read(p[0], &c, 1) == 0); /* no writer left: end of file */
	EXPECT_OK(pipe(p));
	close(p[0]);
	EXPECT_ERR(EPIPE, write(p[1], "x", 1));
}

TEST(pipe_capacity)
{
	static char buf[1 << 20];
	int p[2];
	ssize_t n, total = 0;

	EXPECT_OK(pipe2(p, O_NONBLOCK));
	fill_pattern((unsigned char *)buf, sizeof(buf), 21);
	while ((n = write(p[1], buf + total, 1000)) > 0)
		total += n;
	CHECK(n == -1 && errno == EAGAIN);
	CHECK(total >= 4096); /* at least PIPE_BUF */
	static char back[1 << 20];
	ssize_t got = 0;

	while ((n = read(p[0], back + got, 777)) > 0)
		got += n;
	CHECK(n == -1 && errno == EAGAIN);
	CHECK(got == total);
	CHECK(memcmp(buf, back, total) == 0);
}

/* A megabyte through a pipe between two processes, with blocking on both sides. */
TEST(pipe_transfer)
{
	enum { LEN = 1 << 20 };
	static unsigned char buf[LEN];
	int p[2];
	size_t got = 0;
	pid_t pid;

	EXPECT_OK(pipe(p));
	pid = xfork();
	if (pid == 0) {
		close(p[0]);
		fill_pattern(buf, LEN, 23);
		for (size_t off = 0; off < LEN;) {
			ssize_t n = write(p[1], buf + off, 5000 < LEN - off ? 5000 : LEN - off);

			if (n <= 0)
				fail("writer: write failed with %s", errname(errno));
			off += n;
		}
		_exit(0);
	}
	close(p[1]);
	for (;;) {
		char chunk[3000];
		ssize_t n = read(p[0], chunk, sizeof(chunk));

		CHECK(n >= 0 && got + n <= LEN);
		if (n == 0)
			break;
		memcpy(buf + got, chunk, n);
		got += n;
	}
	CHECK(got == LEN);
	CHECK(has_pattern(buf, LEN, 23));
	expect_exit(pid, 0, "writer");
}

TEST(poll_pipe)
{
	int p[2];
	struct pollfd f[2];
	char c;

	EXPECT_OK(pipe(p));
	f[0] = (struct pollfd){ .fd = p[0], .events = POLLIN };
	f[1] = (struct pollfd){ .fd = p[1], .events = POLLOUT };
	CHECK(poll(f, 2, 0) == 1);
	CHECK(f[0].revents == 0 && f[1].revents == POLLOUT);
	CHECK(write(p[1], "x", 1) == 1);
	CHECK(poll(f, 2, 0) == 2);
	CHECK(f[0].revents == POLLIN);
	CHECK(read(p[0], &c, 1) == 1);
	close(p[1]);
	CHECK(poll(f, 1, 0) == 1);
	CHECK(f[0].revents & POLLHUP); /* writer gone */
	EXPECT_OK(pipe(p));
	close(p[0]);
	f[0] = (struct pollfd){ .fd = p[1], .events = POLLOUT };
	CHECK(poll(f, 1, 0) == 1);
	CHECK(f[0].revents & POLLERR); /* reader gone */
	/* A negative fd is skipped; a closed one is reported, not an error. */
	f[0] = (struct pollfd){ .fd = -1, .events = POLLIN };
	f[1] = (struct pollfd){ .fd = 999, .events = POLLIN };
	CHECK(poll(f, 2, 0) == 1);
	CHECK(f[0].revents == 0 && f[1].revents == POLLNVAL);
	EXPECT_ERR(EINVAL, syscall(SYS_poll, f, 1L << 30, 0));
}

TEST(poll_wakeup)
{
	int p[2];
	struct pollfd f;
	long long t0;
	pid_t pid;

	EXPECT_OK(pipe(p));
	/* An empty pipe times out, after at least the time asked for. */
	f = (struct pollfd){ .fd = p[0], .events = POLLIN };
	t0 = mono_ns();
	CHECK(poll(&f, 1, 30) == 0);
	CHECK(mono_ns() - t0 >= 30 * 1000000LL);
	/* A writer wakes a reader that waits without a time limit. */
	pid = xfork();
	if (pid == 0) {
		struct timespec ts = { 0, 50 * 1000000 };

		nanosleep(&ts, NULL);
		write(p[1], "w", 1);
		_exit(0);
	}
	CHECK(poll(&f, 1, -1) == 1 && f.revents == POLLIN);
	expect_exit(pid, 0, "writer");
}
