/*
 * interrupted.c - signaltests: system calls that a signal interrupts:
 * restarted under SA_RESTART, else EINTR (read, nanosleep with the time
 * left, wait4, pause), and long calls cut short (getrandom, /dev/zero, the
 * console).
 */
#define _GNU_SOURCE
#include "signaltests.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int alarm_pipe[2];

/* SIGALRM: make the interrupted read able to finish. */
static void
feed_pipe(int sig, siginfo_t *info, void *uc)
{
	(void)sig, (void)info, (void)uc;
	handled++;
	write(alarm_pipe[1], "x", 1);
}

TEST(pipe_read_restarted_with_sa_restart)
{
	char c;

	CHECK_OK(pipe(alarm_pipe));
	set_handler(SIGALRM, feed_pipe, SA_RESTART);
	arm_timer_ms(30);
	long n = read(alarm_pipe[0], &c, 1);
	arm_timer_ms(0);
	CHECK(handled >= 1);
	if (n != 1)
		fail("read returned %ld (%s), want 1 (restarted)", n, errname(errno));
	CHECK_EQ(c, 'x');
}

TEST(pipe_read_eintr_without_sa_restart)
{
	char c;

	CHECK_OK(pipe(alarm_pipe));
	set_handler(SIGALRM, count, 0); /* not feed_pipe: an alarm before the read would end it */
	arm_timer_ms(30);
	CHECK_ERR(EINTR, read(alarm_pipe[0], &c, 1));
	arm_timer_ms(0);
	CHECK(handled >= 1);
}

TEST(nanosleep_eintr_with_remaining_time)
{
	struct timespec req = { 60, 0 }, rem = { 0, 0 }; /* only a hang lets 60 s pass */

	set_handler(SIGALRM, count, 0);
	arm_timer_ms(50);
	CHECK_ERR(EINTR, nanosleep(&req, &rem));
	arm_timer_ms(0);
	CHECK(handled >= 1);
	long long left = rem.tv_sec * 1000 * MS + rem.tv_nsec;
	if (left <= 0 || left >= 60000 * MS)
		fail("remaining time %lld ns, want between 0 and 60 s", left);
}

TEST(wait4_eintr)
{
	int p[2];
	char c;

	CHECK_OK(pipe(p));
	pid_t pid = xfork();
	if (pid == 0) {
		close(p[1]);
		read(p[0], &c, 1); /* until the parent closes its end */
		_exit(3);
	}
	close(p[0]);
	set_handler(SIGALRM, count, 0);
	arm_timer_ms(30);
	int status;
	CHECK_ERR(EINTR, waitpid(pid, &status, 0));
	arm_timer_ms(0);
	close(p[1]);
	expect_exit(pid, 3, "the child");
}

TEST(pause_returns_eintr)
{
	set_handler(SIGALRM, count, SA_RESTART); /* pause is never restarted */
	arm_timer_ms(20);
	CHECK_ERR(EINTR, pause());
	arm_timer_ms(0);
	CHECK(handled >= 1);
}

/*
 * Calls that loop over a user-sized amount of work in the kernel stop for
 * a signal with what they did (a short count), as Linux's do: getrandom at
 * a page boundary, a read of /dev/zero, a console write. Another signal
 * comes every millisecond, and a call is tried until one is cut short: each
 * result must be the whole count or a short one at a page boundary.
 */
static long
cut_short(const char *what, long (*call)(void *, size_t), void *buf, size_t len, size_t unit)
{
	for (int try = 0; try < 20; try++) {
		long n = call(buf, len);
		if (n < 0 && errno == EINTR)
			continue; /* the signal came before anything was done */
		if (n < 0)
			fail("%s: failed with %s", what, errname(errno));
		if ((size_t)n == len)
			continue; /* it finished before the next signal */
		if (n == 0 || n % (long)unit)
			fail("%s: cut short at %ld bytes, want a multiple of %zu", what, n, unit);
		return n;
	}
	fail("%s of %zu bytes: never cut short by a signal every millisecond", what, len);
}

static long
call_getrandom(void *buf, size_t len)
{
	return syscall(SYS_getrandom, buf, len, 0);
}

static int zero_fd, console_fd;

static long
call_read_zero(void *buf, size_t len)
{
	return read(zero_fd, buf, len);
}

static long
call_write_console(void *buf, size_t len)
{
	return write(console_fd, buf, len);
}

TEST(long_calls_stop_for_a_signal)
{
	enum { RANDOM_LEN = (32 << 20) - 1, ZERO_LEN = 64 << 20, CONSOLE_LEN = 8 << 20 };
	struct itimerval every_ms = { { 0, 1000 }, { 0, 1000 } }, off = { 0 };
	char *buf =
		mmap(NULL, ZERO_LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	CHECK(buf != MAP_FAILED);
	zero_fd = CHECK_OK(open("/dev/zero", O_RDONLY));
	set_handler(SIGALRM, count, 0); /* no SA_RESTART */
	CHECK_OK(setitimer(ITIMER_REAL, &every_ms, NULL));
	cut_short("getrandom", call_getrandom, buf, RANDOM_LEN, PAGE);
	cut_short("read of /dev/zero", call_read_zero, buf, ZERO_LEN, PAGE);
	/* The console only on rewind (its output is the test log: carriage returns, which it drops). */
	if (on_rewind() && (console_fd = open("/dev/console", O_WRONLY)) >= 0) {
		memset(buf, '\r', CONSOLE_LEN);
		cut_short("console write", call_write_console, buf, CONSOLE_LEN, 1);
		close(console_fd);
	}
	CHECK_OK(setitimer(ITIMER_REAL, &off, NULL));
	CHECK(handled > 0);
}
