/*
 * interrupted.c - signaltests: system calls that a signal interrupts:
 * restarted under SA_RESTART, else EINTR (read, nanosleep with the time
 * left, wait4, pause).
 */
#define _GNU_SOURCE
#include "signaltests.h"

#include <errno.h>
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

	EXPECT_OK(pipe(alarm_pipe));
	set_handler(SIGALRM, feed_pipe, SA_RESTART);
	arm_timer_ms(30);
	long n = read(alarm_pipe[0], &c, 1);
	CHECK(handled == 1);
	if (n != 1)
		fail("read returned %ld (%s), want 1 (restarted)", n, errname(errno));
	CHECK(c == 'x');
}

TEST(pipe_read_eintr_without_sa_restart)
{
	char c;

	EXPECT_OK(pipe(alarm_pipe));
	set_handler(SIGALRM, feed_pipe, 0);
	arm_timer_ms(30);
	EXPECT_ERR(EINTR, read(alarm_pipe[0], &c, 1));
	CHECK(handled == 1);
	CHECK(read(alarm_pipe[0], &c, 1) == 1); /* the handler's byte is there */
}

TEST(nanosleep_eintr_with_remaining_time)
{
	struct timespec req = { 2, 0 }, rem = { 0, 0 };

	set_handler(SIGALRM, count, 0);
	arm_timer_ms(50);
	EXPECT_ERR(EINTR, nanosleep(&req, &rem));
	CHECK(handled == 1);
	long long left = rem.tv_sec * 1000 * MS + rem.tv_nsec;
	if (left <= 0 || left >= 2000 * MS)
		fail("remaining time %lld ns, want between 0 and 2 s", left);
}

TEST(wait4_eintr)
{
	int p[2];
	char c;

	EXPECT_OK(pipe(p));
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
	EXPECT_ERR(EINTR, waitpid(pid, &status, 0));
	close(p[1]);
	expect_exit(pid, 3, "the child");
}

TEST(pause_returns_eintr)
{
	set_handler(SIGALRM, count, SA_RESTART); /* pause is never restarted */
	arm_timer_ms(20);
	EXPECT_ERR(EINTR, pause());
	CHECK(handled == 1);
}
