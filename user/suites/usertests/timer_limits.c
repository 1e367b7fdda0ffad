/*
 * timer_limits.c - usertests: POSIX timers are charged to the real user
 * who creates them against RLIMIT_SIGPENDING, as Linux preallocates and
 * charges each timer's siginfo at timer_create. A user's timers and its
 * queued signals share the one bound, timer_create fails EAGAIN at it,
 * and timer_delete or the creator's exit gives the charge back. So a storm
 * of 1 ns timers by user nobody, their signal blocked, is bounded by its
 * limit and leaves root's processes running.
 *
 * Through the raw system calls: libc's timer_create may make a helper
 * thread or a signal of its own.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "uapi/time.h" /* struct kernel_sigevent: the kernel's, not libc's */

#define LONE_UID   4323 /* a user of its own: nobody else's signals count */
#define STORM_SIZE 1000

/* A timer sending signo (SIGEV_NONE when 0); its id, or -1 with errno. */
static int
timer_new(int signo)
{
	struct kernel_sigevent ev = { .sigev_signo = signo,
				      .sigev_notify = signo ? SIGEV_SIGNAL : SIGEV_NONE };
	int id;

	return syscall(SYS_timer_create, CLOCK_MONOTONIC, &ev, &id) == 0 ? id : -1;
}

/* Creates SIGEV_NONE timers until timer_create refuses (errno tells why) or max: how many. */
static int
timers_until_refused(int max)
{
	int made = 0;

	while (made < max && timer_new(0) >= 0)
		made++;
	return made;
}

static void
set_sigpending_limit(rlim_t n)
{
	const struct rlimit lim = { n, n };

	CHECK_OK(setrlimit(RLIMIT_SIGPENDING, &lim));
}

/*
 * With LIMIT siginfos allowed and QUEUED realtime signals waiting, the user
 * gets LIMIT - QUEUED timers, in one process or another: a child fills
 * the room and exits (giving it back), then this process fills it, and
 * then neither sigqueue nor a child's timer_create finds any. Deleting a
 * timer, or taking a queued signal, makes room for one timer again.
 */
TEST(posix_timers_share_the_sigpending_limit)
{
	enum { LIMIT = 8, QUEUED = 2 };
	const struct timespec now = { 0, 0 };
	int sig = SIGRTMIN + 2;
	sigset_t set;

	if (getuid() == 0)
		CHECK_OK(setuid(LONE_UID));
	block_signal(sig);
	set_sigpending_limit(LIMIT);
	for (int i = 0; i < QUEUED; i++)
		CHECK_OK(sigqueue(getpid(), sig, (union sigval){ .sival_int = i }));

	pid_t filler = xfork();
	if (filler == 0) {
		int made = timers_until_refused(LIMIT);
		_exit(made == LIMIT - QUEUED && errno == EAGAIN ? 0 : 1);
	}
	expect_exited(wait_status(filler), 0, "a child making timers until EAGAIN");

	int first = timer_new(0);
	CHECK(first >= 0);
	CHECK_EQ(timers_until_refused(LIMIT), LIMIT - QUEUED - 1);
	CHECK_EQ(errno, EAGAIN);
	CHECK_ERR(EAGAIN, sigqueue(getpid(), sig, (union sigval){ .sival_int = QUEUED }));
	pid_t other = xfork();
	if (other == 0)
		_exit(timer_new(0) < 0 && errno == EAGAIN ? 0 : 1);
	expect_exited(wait_status(other), 0, "timer_create by the same user in another process");

	CHECK_OK(syscall(SYS_timer_delete, first));
	CHECK(timer_new(0) >= 0);
	CHECK(timer_new(0) < 0 && errno == EAGAIN);
	sigemptyset(&set);
	sigaddset(&set, sig);
	CHECK_EQ(sigtimedwait(&set, NULL, &now), sig);
	CHECK(timer_new(0) >= 0);
	CHECK(timer_new(0) < 0 && errno == EAGAIN);
}

/* As nobody: timers of 1 ns until refused, their signal blocked; a word when armed. */
static void __attribute__((noreturn)) storm(int to_parent, int from_parent)
{
	const struct itimerspec every_ns = { { 0, 1 }, { 0, 1 } };
	int sig = SIGRTMIN + 3;
	siginfo_t info;
	sigset_t set;
	char c = 'a';

	CHECK_OK(setresgid(NOBODY_ID, NOBODY_ID, NOBODY_ID));
	CHECK_OK(setresuid(NOBODY_ID, NOBODY_ID, NOBODY_ID));
	block_signal(sig);
	for (int made = 0; made < STORM_SIZE; made++) {
		int id = timer_new(sig);
		CHECK(id >= 0);
		CHECK_OK(syscall(SYS_timer_settime, id, 0, &every_ns, NULL));
	}
	CHECK(timer_new(sig) < 0 && errno == EAGAIN);
	CHECK_EQ(write(to_parent, &c, 1), 1);
	CHECK_EQ(read(from_parent, &c, 1), 1);
	sigemptyset(&set);
	sigaddset(&set, sig);
	CHECK_EQ(sigwaitinfo(&set, &info), sig); /* the timers fire: their siginfos wait */
	CHECK_EQ(info.si_code, SI_TIMER);
	_exit(0);
}

/* Root's side: a child forked, exited and waited for, and a pipe answered. */
static void
root_still_served(void)
{
	int p[2];
	char c = 0;

	CHECK_OK(pipe(p));
	pid_t child = xfork();
	if (child == 0)
		_exit(write(p[1], "r", 1) == 1 ? 0 : 1);
	expect_exited(wait_status(child), 0, "root's child");
	CHECK_EQ(read(p[0], &c, 1), 1);
	CHECK_EQ(c, 'r');
	close(p[0]);
	close(p[1]);
}

/*
 * Once a machine-wide hang (one interrupt per expiry): nobody arms exactly
 * its limit of periodic 1 ns timers with the signal blocked, and is refused
 * the next. Each fires once and then waits for its signal's delivery, so
 * root goes on forking and reading pipes meanwhile.
 */
TEST(posix_timer_storm_by_nobody_is_bounded)
{
	int up[2], down[2];
	char c = 0;

	if (geteuid() != 0)
		skip("not root: cannot become nobody");
	set_sigpending_limit(STORM_SIZE); /* root may raise it where memory made it lower */
	CHECK_OK(pipe(up));
	CHECK_OK(pipe(down));
	pid_t stormer = xfork();
	if (stormer == 0)
		storm(up[1], down[0]);
	close(up[1]); /* a stormer that fails early is read as end of file, not waited for */
	close(down[0]);
	CHECK_EQ(read(up[0], &c, 1), 1);
	for (int i = 0; i < 20; i++)
		root_still_served();
	CHECK_EQ(write(down[1], &c, 1), 1);
	expect_exited(wait_status(stormer), 0, "nobody's timer storm");
}
