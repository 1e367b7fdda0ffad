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
#include <sys/select.h>
#include <sys/time.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

TEST(pipe_basic)
{
	int p[2];
	char buf[16];

	CHECK_OK(pipe(p));
	CHECK_EQ(write(p[1], "hello", 5), 5);
	CHECK_EQ(write(p[1], "world", 5), 5);
	CHECK(read(p[0], buf, 3) == 3 && memcmp(buf, "hel", 3) == 0);
	CHECK(read(p[0], buf, 16) == 7 && memcmp(buf, "loworld", 7) == 0);
	CHECK_ERR(ESPIPE, lseek(p[0], 0, SEEK_SET));
	CHECK_ERR(ESPIPE, pread(p[0], buf, 1, 0));
	CHECK_ERR(ESPIPE, pwrite(p[1], buf, 1, 0));
	CHECK_ERR(EBADF, write(p[0], "x", 1));
	CHECK_ERR(EBADF, read(p[1], buf, 1));
	struct stat st;

	CHECK_OK(fstat(p[0], &st));
	CHECK(S_ISFIFO(st.st_mode));
	CHECK_OK(pipe2(p, O_CLOEXEC | O_NONBLOCK));
	CHECK(fcntl(p[0], F_GETFD) == FD_CLOEXEC && fcntl(p[1], F_GETFD) == FD_CLOEXEC);
	CHECK_ERR(EAGAIN, read(p[0], buf, 1));
	CHECK_ERR(EINVAL, pipe2(p, 0x1));
}

TEST(pipe_eof_epipe)
{
	int p[2];
	char c;

	signal(SIGPIPE, SIG_IGN); /* so that write() reports EPIPE */
	CHECK_OK(pipe(p));
	CHECK_EQ(write(p[1], "x", 1), 1);
	close(p[1]);
	CHECK_EQ(read(p[0], &c, 1), 1);
	CHECK_EQ(read(p[0], &c, 1), 0); /* no writer left: end of file */
	CHECK_OK(pipe(p));
	close(p[0]);
	CHECK_ERR(EPIPE, write(p[1], "x", 1));
}

TEST(pipe_capacity)
{
	static char buf[1 << 20];
	int p[2];
	ssize_t n, total = 0;

	CHECK_OK(pipe2(p, O_NONBLOCK));
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
	CHECK_EQ(got, total);
	CHECK_EQ(memcmp(buf, back, total), 0);
}

/* A megabyte through a pipe between two processes, with blocking on both sides. */
TEST(pipe_transfer)
{
	enum { LEN = 1 << 20 };
	static unsigned char buf[LEN];
	int p[2];
	size_t got = 0;
	pid_t pid;

	CHECK_OK(pipe(p));
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
	CHECK_EQ(got, LEN);
	CHECK(has_pattern(buf, LEN, 23));
	expect_exit(pid, 0, "writer");
}

TEST(poll_pipe)
{
	int p[2];
	struct pollfd f[2];
	char c;

	CHECK_OK(pipe(p));
	f[0] = (struct pollfd){ .fd = p[0], .events = POLLIN };
	f[1] = (struct pollfd){ .fd = p[1], .events = POLLOUT };
	CHECK_EQ(poll(f, 2, 0), 1);
	CHECK(f[0].revents == 0 && f[1].revents == POLLOUT);
	CHECK_EQ(write(p[1], "x", 1), 1);
	CHECK_EQ(poll(f, 2, 0), 2);
	CHECK_EQ(f[0].revents, POLLIN);
	CHECK_EQ(read(p[0], &c, 1), 1);
	close(p[1]);
	CHECK_EQ(poll(f, 1, 0), 1);
	CHECK(f[0].revents & POLLHUP); /* writer gone */
	CHECK_OK(pipe(p));
	close(p[0]);
	f[0] = (struct pollfd){ .fd = p[1], .events = POLLOUT };
	CHECK_EQ(poll(f, 1, 0), 1);
	CHECK(f[0].revents & POLLERR); /* reader gone */
	/* A negative fd is skipped; a closed one is reported, not an error. */
	f[0] = (struct pollfd){ .fd = -1, .events = POLLIN };
	f[1] = (struct pollfd){ .fd = 999, .events = POLLIN };
	CHECK_EQ(poll(f, 2, 0), 1);
	CHECK(f[0].revents == 0 && f[1].revents == POLLNVAL);
	CHECK_ERR(EINVAL, syscall(SYS_poll, f, 1L << 30, 0));
}

TEST(poll_wakeup)
{
	int p[2];
	struct pollfd f;
	long long t0;
	pid_t pid;

	CHECK_OK(pipe(p));
	/* An empty pipe times out, after at least the time asked for. */
	f = (struct pollfd){ .fd = p[0], .events = POLLIN };
	t0 = mono_ns();
	CHECK_EQ(poll(&f, 1, 30), 0);
	CHECK(mono_ns() - t0 >= 30 * 1000000LL);
	/* A writer wakes a reader that waits without a time limit. */
	pid = write_later(p[1]);
	CHECK(poll(&f, 1, -1) == 1 && f.revents == POLLIN);
	expect_exit(pid, 0, "writer");
}

/* The raw call: libc may copy the timeout (musl) or go through pselect6 (glibc). */
static long
raw_select(int n, fd_set *r, fd_set *w, fd_set *e, struct timeval *tv)
{
	return syscall(SYS_select, n, r, w, e, tv);
}

TEST(select_pipe)
{
	int p[2];
	fd_set r, w;
	char c;

	CHECK_OK(pipe(p));
	FD_ZERO(&r);
	FD_ZERO(&w);
	FD_SET(p[0], &r);
	FD_SET(p[1], &w);
	struct timeval tv = { 0, 0 };
	/* Only the writable end is ready: the sets come back holding only it. */
	CHECK_EQ(raw_select(p[1] + 1, &r, &w, NULL, &tv), 1);
	CHECK(!FD_ISSET(p[0], &r) && FD_ISSET(p[1], &w));
	CHECK_EQ(write(p[1], "x", 1), 1);
	FD_SET(p[0], &r);
	FD_SET(p[1], &r); /* a write end asked for reading is not readable */
	FD_SET(p[1], &w);
	CHECK_EQ(raw_select(p[1] + 1, &r, &w, NULL, &tv), 2); /* one per bit set */
	CHECK(FD_ISSET(p[0], &r) && !FD_ISSET(p[1], &r) && FD_ISSET(p[1], &w));
	/* The same fd in two sets counts twice; readiness in exceptfds is POLLPRI only. */
	fd_set e;
	FD_ZERO(&r);
	FD_ZERO(&w);
	FD_ZERO(&e);
	FD_SET(p[0], &r);
	FD_SET(p[0], &e);
	FD_SET(p[1], &w);
	FD_SET(p[1], &e);
	CHECK_EQ(raw_select(p[1] + 1, &r, &w, &e, &tv), 2);
	CHECK(FD_ISSET(p[0], &r) && FD_ISSET(p[1], &w) && !FD_ISSET(p[0], &e) &&
	      !FD_ISSET(p[1], &e));
	/* End of file (no writer) is readable. */
	CHECK_EQ(read(p[0], &c, 1), 1);
	close(p[1]);
	FD_ZERO(&r);
	FD_SET(p[0], &r);
	CHECK(raw_select(p[0] + 1, &r, NULL, NULL, &tv) == 1 && FD_ISSET(p[0], &r));
	/* Bits at or above nfds are neither looked at nor kept. */
	CHECK_OK(pipe(p));
	FD_ZERO(&r);
	FD_SET(p[0], &r);
	CHECK(raw_select(p[0], &r, NULL, NULL, &tv) == 0 && !FD_ISSET(p[0], &r));
	/* No sets at all: a sleep. */
	CHECK_EQ(raw_select(0, NULL, NULL, NULL, &tv), 0);
}

TEST(select_wakeup)
{
	int p[2];
	fd_set r;
	pid_t pid;

	CHECK_OK(pipe(p));
	pid = write_later(p[1]);
	FD_ZERO(&r);
	FD_SET(p[0], &r);
	CHECK(raw_select(p[0] + 1, &r, NULL, NULL, NULL) == 1 && FD_ISSET(p[0], &r));
	expect_exit(pid, 0, "writer");
}

TEST(select_timeout)
{
	int p[2];
	fd_set r, w;
	long long t0;

	CHECK_OK(pipe(p));
	/* An empty pipe times out after the time asked for, and the time left (0) is written back. */
	FD_ZERO(&r);
	FD_SET(p[0], &r);
	struct timeval tv = { 0, 30000 };
	t0 = mono_ns();
	CHECK_EQ(raw_select(p[0] + 1, &r, NULL, NULL, &tv), 0);
	CHECK(mono_ns() - t0 >= 30 * 1000000LL);
	CHECK(tv.tv_sec == 0 && tv.tv_usec == 0 && !FD_ISSET(p[0], &r));
	/* Ready at once: the time left is nearly all of it, and never more. */
	FD_ZERO(&w);
	FD_SET(p[1], &w);
	tv = (struct timeval){ 5, 0 };
	CHECK_EQ(raw_select(p[1] + 1, NULL, &w, NULL, &tv), 1);
	CHECK(tv_us(tv) <= 5000000 && tv_us(tv) > 4000000);
	/* A timeout that is not one. */
	tv = (struct timeval){ -1, 0 };
	CHECK_ERR(EINVAL, raw_select(p[1] + 1, NULL, &w, NULL, &tv));
	tv = (struct timeval){ 0, -1 };
	CHECK_ERR(EINVAL, raw_select(p[1] + 1, NULL, &w, NULL, &tv));
	/* pselect6's timespec is written back too. */
	struct timespec ts = { 0, 20 * 1000000 };
	FD_ZERO(&r);
	FD_SET(p[0], &r);
	CHECK_EQ(syscall(SYS_pselect6, p[0] + 1, &r, NULL, NULL, &ts, NULL), 0);
	CHECK(ts.tv_sec == 0 && ts.tv_nsec == 0);
	ts = (struct timespec){ 0, 1000000000 };
	CHECK_ERR(EINVAL, syscall(SYS_pselect6, p[0] + 1, &r, NULL, NULL, &ts, NULL));
}

TEST(select_errors)
{
	int p[2];
	fd_set r;
	struct timeval tv = { 0, 0 };

	CHECK_OK(pipe(p));
	close(60);
	FD_ZERO(&r);
	FD_SET(p[0], &r);
	FD_SET(60, &r);
	CHECK_ERR(EBADF, raw_select(61, &r, NULL, NULL, &tv));
	CHECK(FD_ISSET(60, &r)); /* the sets are left alone on an error */
	CHECK_ERR(EINVAL, raw_select(-1, NULL, NULL, NULL, &tv));
	/* nfds past the fd table is cut down to it, not an error. */
	FD_ZERO(&r);
	FD_SET(p[0], &r);
	CHECK_EQ(raw_select(FD_SETSIZE, &r, NULL, NULL, &tv), 0);
	CHECK_EQ(syscall(SYS_select, 1 << 30, NULL, NULL, NULL, &tv), 0);
	CHECK_ERR(EFAULT, raw_select(p[0] + 1, (fd_set *)bad_addrs[0], NULL, NULL, &tv));
	CHECK_ERR(EFAULT, raw_select(p[0] + 1, &r, NULL, NULL, (struct timeval *)bad_addrs[0]));
	/* pselect6: the mask's size must be a sigset's. */
	unsigned long long mask = 0;
	struct {
		void *set;
		size_t size;
	} sm = { &mask, 16 };
	CHECK_ERR(EINVAL, syscall(SYS_pselect6, 0, NULL, NULL, NULL, NULL, &sm));
}

static volatile sig_atomic_t usr1_seen;

static void
on_usr1(int sig)
{
	(void)sig;
	usr1_seen++;
}

TEST(pselect6_sigmask)
{
	int p[2];
	fd_set r;
	sigset_t block, old, now;
	unsigned long long empty = 0;
	struct {
		void *set;
		size_t size;
	} sm = { &empty, 8 };

	CHECK_OK(pipe(p));
	signal(SIGUSR1, on_usr1);
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	CHECK_OK(sigprocmask(SIG_BLOCK, &block, &old));
	raise(SIGUSR1); /* pending, blocked */
	/* A mask that still blocks it: the call times out, the signal stays pending. */
	unsigned long long usr1 = 1ull << (SIGUSR1 - 1);
	struct {
		void *set;
		size_t size;
	} sm_block = { &usr1, 8 };
	struct timespec ts = { 0, 10 * 1000000 };
	FD_ZERO(&r);
	FD_SET(p[0], &r);
	CHECK_EQ(syscall(SYS_pselect6, p[0] + 1, &r, NULL, NULL, &ts, &sm_block), 0);
	CHECK_EQ(usr1_seen, 0);
	/* The empty mask lets it in while waiting: the handler runs, EINTR, the old mask is back. */
	FD_SET(p[0], &r);
	CHECK_ERR(EINTR, syscall(SYS_pselect6, p[0] + 1, &r, NULL, NULL, NULL, &sm));
	CHECK_EQ(usr1_seen, 1);
	CHECK_OK(sigprocmask(SIG_BLOCK, NULL, &now));
	CHECK(sigismember(&now, SIGUSR1));
	/* The libc call, on whatever system call libc uses. */
	raise(SIGUSR1);
	sigset_t none;
	sigemptyset(&none);
	FD_SET(p[0], &r);
	CHECK_ERR(EINTR, pselect(p[0] + 1, &r, NULL, NULL, NULL, &none));
	CHECK_EQ(usr1_seen, 2);
}

TEST(ppoll_sigmask)
{
	int p[2];
	sigset_t block, now, none;

	CHECK_OK(pipe(p));
	signal(SIGUSR1, on_usr1);
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	CHECK_OK(sigprocmask(SIG_BLOCK, &block, NULL));
	raise(SIGUSR1);
	struct pollfd f = { .fd = p[0], .events = POLLIN };
	sigemptyset(&none);
	CHECK_ERR(EINTR, ppoll(&f, 1, NULL, &none));
	CHECK_EQ(usr1_seen, 1);
	CHECK_OK(sigprocmask(SIG_BLOCK, NULL, &now));
	CHECK(sigismember(&now, SIGUSR1));
}

/* A FIFO is a pipe behind a name: what goes in one open comes out of another. */
TEST(fifo_data)
{
	char buf[16];

	CHECK_OK(mkfifo("fifo_d", 0600));
	int rd = open("fifo_d", O_RDONLY | O_NONBLOCK); /* a reader need not wait */
	CHECK_OK(rd);
	int wr = open("fifo_d", O_WRONLY); /* a reader is there: no wait */
	CHECK_OK(wr);
	CHECK_EQ(write(wr, "hello", 5), 5);
	CHECK(read(rd, buf, sizeof(buf)) == 5 && memcmp(buf, "hello", 5) == 0);
	CHECK_ERR(EAGAIN, read(rd, buf, 1));
	CHECK_ERR(ESPIPE, lseek(rd, 0, SEEK_SET));
	struct pollfd f = { .fd = rd, .events = POLLIN };
	CHECK_EQ(write(wr, "x", 1), 1);
	CHECK(poll(&f, 1, 0) == 1 && (f.revents & POLLIN));
	close(wr);
	CHECK_EQ(read(rd, buf, sizeof(buf)), 1);
	CHECK_EQ(read(rd, buf, sizeof(buf)), 0); /* the writer is gone: end of file */
	close(rd);
	/* With no reader, a non-blocking writer cannot open; O_RDWR opens both ends. */
	CHECK_ERR(ENXIO, open("fifo_d", O_WRONLY | O_NONBLOCK));
	int both = open("fifo_d", O_RDWR);
	CHECK_OK(both);
	CHECK(write(both, "ab", 2) == 2 && read(both, buf, 2) == 2 && memcmp(buf, "ab", 2) == 0);
	/* Data left when every end closes is gone at the next open. */
	CHECK_EQ(write(both, "left", 4), 4);
	close(both);
	both = open("fifo_d", O_RDWR | O_NONBLOCK);
	CHECK_OK(both);
	CHECK_ERR(EAGAIN, read(both, buf, 1));
	struct stat st;
	CHECK_OK(fstat(both, &st));
	CHECK(S_ISFIFO(st.st_mode));
	close(both);
}

/* A blocking open waits for the other end, from another process. */
TEST(fifo_open_waits)
{
	char buf[8];

	CHECK_OK(mkfifo("fifo_w", 0600));
	pid_t pid = xfork();
	if (pid == 0) {
		struct timespec ts = { 0, 50 * 1000000 };
		nanosleep(&ts, NULL);
		int wr = open("fifo_w", O_WRONLY);
		if (wr < 0 || write(wr, "hi", 2) != 2)
			_exit(1);
		_exit(0);
	}
	int rd = open("fifo_w", O_RDONLY); /* waits for the child's open */
	CHECK_OK(rd);
	/* Had it not waited for a writer, read would see end of file, not "hi". */
	CHECK(read(rd, buf, sizeof(buf)) == 2 && memcmp(buf, "hi", 2) == 0);
	expect_exit(pid, 0, "writer");
	CHECK_EQ(read(rd, buf, sizeof(buf)), 0);
	close(rd);
	/* And the other way: a writer waits for a reader. */
	pid = xfork();
	if (pid == 0) {
		struct timespec ts = { 0, 50 * 1000000 };
		nanosleep(&ts, NULL);
		int r = open("fifo_w", O_RDONLY);
		_exit(r >= 0 && read(r, buf, sizeof(buf)) == 3 ? 0 : 1);
	}
	int wr = open("fifo_w", O_WRONLY);
	CHECK_OK(wr);
	CHECK_EQ(write(wr, "abc", 3), 3);
	close(wr);
	expect_exit(pid, 0, "reader");
}

static void
on_alarm(int sig)
{
	(void)sig;
}

/* A signal ends the wait of an open with EINTR when its handler has no SA_RESTART. */
TEST(fifo_open_eintr)
{
	struct sigaction sa = { .sa_handler = on_alarm };

	CHECK_OK(mkfifo("fifo_i", 0600));
	CHECK_OK(sigaction(SIGALRM, &sa, NULL));
	/* Repeating: one alarm could fire before open sleeps (a loaded host), and open would wait on. */
	struct itimerval it = { { 0, 30000 }, { 0, 30000 } }, off = { 0 };
	CHECK_OK(setitimer(ITIMER_REAL, &it, NULL));
	CHECK_ERR(EINTR, open("fifo_i", O_RDONLY));
	CHECK_OK(setitimer(ITIMER_REAL, &off, NULL));
	/* The failed open left no reader behind. */
	CHECK_ERR(ENXIO, open("fifo_i", O_WRONLY | O_NONBLOCK));
}

/* poll refuses an O_PATH fd as Linux's fdget does: POLLNVAL, the fd looked up without a reference. */
TEST(poll_o_path)
{
	int fd = open("/", O_PATH);
	struct pollfd pfd = { .fd = fd, .events = POLLIN | POLLOUT };

	CHECK(fd >= 0);
	CHECK_EQ(poll(&pfd, 1, 0), 1);
	CHECK_EQ(pfd.revents, POLLNVAL);
	close(fd);
}

/*
 * Small calls keep their pollfds and fd_sets on the kernel stack (fs/poll.c),
 * bigger ones allocate: both sizes give the same answers.
 */
TEST(poll_select_large_sets)
{
	enum { MANY = 100, HIGH_FD = 700 };
	struct pollfd pfd[MANY];
	static fd_set w;
	struct timeval tv = { 0, 0 };
	int p[2];

	CHECK_OK(pipe(p));
	for (int i = 0; i < MANY; i++)
		pfd[i] = (struct pollfd){ .fd = p[1], .events = POLLOUT };
	CHECK_EQ(poll(pfd, MANY, 0), MANY);
	for (int i = 0; i < MANY; i++)
		CHECK_EQ(pfd[i].revents, POLLOUT);
	CHECK_EQ(dup2(p[1], HIGH_FD), HIGH_FD);
	FD_ZERO(&w);
	FD_SET(p[1], &w);
	FD_SET(HIGH_FD, &w);
	CHECK_EQ(raw_select(HIGH_FD + 1, NULL, &w, NULL, &tv), 2);
	CHECK(FD_ISSET(p[1], &w) && FD_ISSET(HIGH_FD, &w));
	close(HIGH_FD);
	close(p[0]);
	close(p[1]);
}

/*
 * O_DIRECT: packet mode. A write is a packet a read never runs past (the
 * rest of a longer packet is dropped), a write over PIPE_BUF is cut in
 * PIPE_BUF packets, plain writes after a packet read as a stream, and
 * F_SETFL turns the mode on and off on the writing end.
 */
TEST(pipe_packets)
{
	static char big[PIPE_BUF + 100], got[2 * PIPE_BUF];
	int p[2];
	char buf[16];

	CHECK_OK(pipe2(p, O_DIRECT | O_NONBLOCK));
	CHECK((fcntl(p[1], F_GETFL) & O_DIRECT) != 0);
	CHECK((fcntl(p[0], F_GETFL) & O_DIRECT) == 0);
	CHECK_EQ(write(p[1], "abc", 3), 3);
	CHECK_EQ(write(p[1], "defgh", 5), 5);
	CHECK(read(p[0], buf, sizeof(buf)) == 3 && memcmp(buf, "abc", 3) == 0);
	CHECK(read(p[0], buf, 2) == 2 && memcmp(buf, "de", 2) == 0); /* "fgh" is dropped */
	CHECK_ERR(EAGAIN, read(p[0], buf, sizeof(buf)));

	memset(big, 'x', sizeof(big));
	CHECK_EQ(write(p[1], big, sizeof(big)), (long)sizeof(big));
	CHECK_EQ(read(p[0], got, sizeof(got)), PIPE_BUF);
	CHECK_EQ(read(p[0], got, sizeof(got)), 100);

	CHECK_EQ(write(p[1], "pqrs", 4), 4);
	CHECK_OK(fcntl(p[1], F_SETFL, O_NONBLOCK)); /* a stream again */
	CHECK((fcntl(p[1], F_GETFL) & O_DIRECT) == 0);
	CHECK_EQ(write(p[1], "12", 2), 2);
	CHECK_EQ(write(p[1], "34", 2), 2);
	CHECK(read(p[0], buf, 6) == 4 && memcmp(buf, "pqrs", 4) == 0); /* a packet ends a read */
	CHECK(read(p[0], buf, 6) == 4 && memcmp(buf, "1234", 4) == 0); /* a stream does not */
	CHECK_OK(fcntl(p[1], F_SETFL, O_NONBLOCK | O_DIRECT));
	CHECK((fcntl(p[1], F_GETFL) & O_DIRECT) != 0);
	CHECK_ERR(EAGAIN, read(p[0], buf, sizeof(buf)));
	close(p[0]);
	close(p[1]);
}

/* Packets take a slot of the pipe's each, as Linux's buffers: a one-page pipe holds one. */
TEST(pipe_packet_slots)
{
	int p[2];
	char buf[8];

	CHECK_OK(pipe2(p, O_DIRECT | O_NONBLOCK));
	CHECK_EQ(fcntl(p[1], F_SETPIPE_SZ, 4096), 4096);
	CHECK_EQ(write(p[1], "a", 1), 1);
	CHECK_ERR(EAGAIN, write(p[1], "b", 1));
	CHECK_EQ(read(p[0], buf, sizeof(buf)), 1);
	CHECK_EQ(write(p[1], "b", 1), 1);
	close(p[0]);
	close(p[1]);
}
