/*
 * masks.c - signaltests: blocked signals pending until unblocked, queued
 * real-time signals, their per-user limit and the siginfo of a signal sent
 * at it, sigsuspend, sigtimedwait, and the masks and pending sets as
 * /proc/self/status shows them.
 */
#define _GNU_SOURCE
#include "signaltests.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "lib/procfile.h"

TEST(blocked_signal_pends_until_unblocked)
{
	sigset_t pending;

	set_handler(SIGUSR1, record, 0);
	mask_signal(SIG_BLOCK, SIGUSR1);
	raise(SIGUSR1);
	raise(SIGUSR1); /* a standard signal is pending once */
	CHECK_EQ(handled, 0);
	CHECK_OK(sigpending(&pending));
	CHECK(sigismember(&pending, SIGUSR1));
	CHECK(!sigismember(&pending, SIGUSR2));
	mask_signal(SIG_UNBLOCK, SIGUSR1); /* delivered on the way out of this call */
	CHECK_EQ(handled, 1);
	CHECK_OK(sigpending(&pending));
	CHECK(!sigismember(&pending, SIGUSR1));
}

static volatile int rt_values[8], rt_count;

static void
record_rt(int sig, siginfo_t *info, void *uc)
{
	(void)sig, (void)uc;
	if (rt_count < 8)
		rt_values[rt_count] = info->si_value.sival_int;
	rt_count++;
}

TEST(realtime_signals_queue_in_order)
{
	int sig = SIGRTMIN + 1;

	set_handler(sig, record_rt, 0);
	mask_signal(SIG_BLOCK, sig);
	for (int i = 1; i <= 3; i++)
		CHECK_OK(sigqueue(getpid(), sig, (union sigval){ .sival_int = i * 10 }));
	CHECK_EQ(rt_count, 0);
	mask_signal(SIG_UNBLOCK, sig);
	CHECK_EQ(rt_count, 3);
	CHECK(rt_values[0] == 10 && rt_values[1] == 20 && rt_values[2] == 30);
}

/*
 * RLIMIT_SIGPENDING bounds the siginfos queued to a real user's processes,
 * as Linux's: a process queueing realtime signals to itself gets EAGAIN
 * from sigqueue and tgkill once it holds exactly its limit, taking one
 * makes room for one, and kill's standard signal still arrives. As a user
 * of its own when it can, so that no other process's signals count.
 */
TEST(sigpending_limit_counts_queued_signals)
{
	enum { LIMIT = 8, LONE_UID = 4321 };
	const struct rlimit lim = { LIMIT, LIMIT };
	const struct timespec now = { 0, 0 };
	int sig = SIGRTMIN + 2, queued = 0;
	sigset_t set;
	siginfo_t info;

	if (getuid() == 0)
		CHECK_OK(setuid(LONE_UID));
	mask_signal(SIG_BLOCK, sig);
	mask_signal(SIG_BLOCK, SIGUSR1);
	CHECK_OK(setrlimit(RLIMIT_SIGPENDING, &lim));
	while (queued <= LIMIT &&
	       sigqueue(getpid(), sig, (union sigval){ .sival_int = queued }) == 0)
		queued++;
	CHECK(queued == LIMIT && errno == EAGAIN);
	CHECK_ERR(EAGAIN, syscall(SYS_tgkill, getpid(), gettid(), sig));

	sigemptyset(&set);
	sigaddset(&set, sig);
	CHECK(sigtimedwait(&set, &info, &now) == sig && info.si_value.sival_int == 0);
	CHECK_OK(sigqueue(getpid(), sig, (union sigval){ .sival_int = LIMIT }));
	CHECK_ERR(EAGAIN, sigqueue(getpid(), sig, (union sigval){ .sival_int = LIMIT + 1 }));

	CHECK_OK(kill(getpid(), SIGUSR1));
	CHECK_OK(sigpending(&set));
	CHECK(sigismember(&set, SIGUSR1));
}

/*
 * A signal sent while its user has no siginfo to spare (RLIMIT_SIGPENDING
 * 0 here) is still pending, but taken it reads as Linux's collect_signal
 * makes it up: SI_USER from pid 0, uid 0 - for sigwaitinfo and a handler
 * alike. sigqueue of a standard signal and kill of a realtime one lose
 * their siginfo so; kill's standard signal may go past the limit and keeps
 * its sender, and a realtime sigqueue is refused.
 */
TEST(siginfo_lost_at_sigpending_limit)
{
	enum { LONE_UID = 4322 };
	const struct rlimit none = { 0, 0 };
	int rt = SIGRTMIN + 2, handled_rt = SIGRTMIN + 3;
	sigset_t set;
	siginfo_t info;

	if (getuid() == 0)
		CHECK_OK(setuid(LONE_UID));
	mask_signal(SIG_BLOCK, SIGUSR1);
	mask_signal(SIG_BLOCK, SIGUSR2);
	mask_signal(SIG_BLOCK, rt);
	mask_signal(SIG_BLOCK, handled_rt);
	set_handler(handled_rt, record, 0);
	CHECK_OK(setrlimit(RLIMIT_SIGPENDING, &none));

	CHECK_OK(sigqueue(getpid(), SIGUSR1, (union sigval){ .sival_int = 7 }));
	CHECK_OK(kill(getpid(), rt));
	CHECK_OK(kill(getpid(), SIGUSR2));
	CHECK_ERR(EAGAIN, sigqueue(getpid(), rt, (union sigval){ .sival_int = 8 }));
	CHECK_OK(kill(getpid(), handled_rt));

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, rt);
	for (int i = 0; i < 2; i++) {
		int sig = sigwaitinfo(&set, &info);
		CHECK(sig == SIGUSR1 || sig == rt);
		CHECK(info.si_code == SI_USER && info.si_pid == 0 && info.si_uid == 0);
		sigdelset(&set, sig);
	}
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	CHECK_EQ(sigwaitinfo(&set, &info), SIGUSR2);
	CHECK(info.si_code == SI_USER && info.si_pid == getpid() && info.si_uid == getuid());

	mask_signal(SIG_UNBLOCK, handled_rt);
	CHECK_EQ(handled, 1);
	CHECK(last_info.si_code == SI_USER && last_info.si_pid == 0 && last_info.si_uid == 0);
}

/* A child that sends this process SIGUSR1 after 20 ms; its pid. */
static pid_t
fork_usr1_sender(void)
{
	pid_t pid = xfork();

	if (pid == 0) {
		usleep(20000);
		kill(getppid(), SIGUSR1);
		_exit(0);
	}
	return pid;
}

TEST(sigsuspend_waits_and_restores_mask)
{
	sigset_t wait_mask;

	set_handler(SIGUSR1, record, 0);
	mask_signal(SIG_BLOCK, SIGUSR1);
	pid_t pid = fork_usr1_sender();
	sigemptyset(&wait_mask);
	CHECK_ERR(EINTR, sigsuspend(&wait_mask));
	CHECK_EQ(handled, 1);
	CHECK_EQ(last_info.si_pid, pid);
	CHECK(sigismember(&last_uc.uc_sigmask, SIGUSR1)); /* the mask to go back to */
	CHECK(is_blocked(SIGUSR1));
	expect_exit(pid, 0, "the sender");
}

TEST(sigtimedwait_takes_blocked_signal)
{
	sigset_t set;
	siginfo_t info;
	struct timespec ts = { 0, 10 * MS };

	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	mask_signal(SIG_BLOCK, SIGUSR2);
	CHECK_ERR(EAGAIN, sigtimedwait(&set, &info, &ts));
	/*
	 * tgkill and the raw rt_sigtimedwait, not raise() and sigtimedwait():
	 * glibc's raise may send SI_USER, and its sigtimedwait turns SI_TKILL
	 * into SI_USER; musl does neither. The kernel's answer is SI_TKILL.
	 */
	CHECK_OK(syscall(SYS_tgkill, getpid(), gettid(), SIGUSR2));
	CHECK_EQ(syscall(SYS_rt_sigtimedwait, &set, &info, &ts, _NSIG / 8), SIGUSR2);
	CHECK(info.si_signo == SIGUSR2 && info.si_code == SI_TKILL);
	sigset_t pending;
	sigpending(&pending);
	CHECK(!sigismember(&pending, SIGUSR2));
}

/* A signal sent to a sleeping sigtimedwait wakes it, even though it is blocked. */
TEST(sigtimedwait_woken_by_other_process)
{
	sigset_t set;
	siginfo_t info;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	mask_signal(SIG_BLOCK, SIGUSR1);
	pid_t pid = fork_usr1_sender();
	CHECK_EQ(sigwaitinfo(&set, &info), SIGUSR1);
	CHECK_EQ(info.si_pid, pid);
	expect_exit(pid, 0, "the sender");
}

/* === /proc ========================================================================= */

static unsigned long long
status_mask(const char *text, const char *key)
{
	const char *v = find_field(text, key);

	if (!v)
		fail("/proc/self/status has no %s line", key);
	return strtoull(v, NULL, 16);
}

#define BIT(sig) (1ull << ((sig)-1))

TEST(status_signal_lines)
{
	char text[4096];

	set_disposition(SIGUSR1, SIG_IGN);
	set_handler(SIGUSR2, count, 0);
	mask_signal(SIG_BLOCK, SIGTERM);
	mask_signal(SIG_BLOCK, SIGHUP);
	raise(SIGTERM);		/* tkill: this thread's */
	kill(getpid(), SIGHUP); /* the process's */
	if (read_text_file("/proc/self/status", text, sizeof(text)) < 0)
		fail("cannot read /proc/self/status: %s", errname(errno));
	CHECK(status_mask(text, "SigIgn") & BIT(SIGUSR1));
	CHECK(status_mask(text, "SigCgt") & BIT(SIGUSR2));
	CHECK_EQ(status_mask(text, "SigBlk"), (BIT(SIGTERM) | BIT(SIGHUP)));
	CHECK_EQ(status_mask(text, "SigPnd"), BIT(SIGTERM));
	CHECK_EQ(status_mask(text, "ShdPnd"), BIT(SIGHUP));
}
