/*
 * timers.c - signaltests: setitimer, getitimer and alarm, an interval
 * timer's repeated SIGALRM, its re-arming when the signal is taken,
 * SIGALRM's default action, and the CPU-time timers ITIMER_VIRTUAL and
 * ITIMER_PROF.
 */
#define _GNU_SOURCE
#include "signaltests.h"

#include <errno.h>
#include <signal.h>
#include <sched.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

TEST(itimer_and_alarm)
{
	struct itimerval it = { .it_interval = { 1, 0 }, .it_value = { 100, 0 } }, old;

	/* What is left is 100 s less the time that passed, measured around the calls: no window. */
	long long t0 = mono_ns();
	CHECK_OK(setitimer(ITIMER_REAL, &it, NULL));
	CHECK_OK(getitimer(ITIMER_REAL, &old));
	CHECK(old.it_interval.tv_sec == 1 && old.it_interval.tv_usec == 0);
	long long passed_s = (mono_ns() - t0) / 1000000000 + 1;
	CHECK(old.it_value.tv_sec >= 100 - passed_s && old.it_value.tv_sec <= 100);
	unsigned left = alarm(5); /* rounded to the nearest second */
	passed_s = (mono_ns() - t0) / 1000000000 + 1;
	CHECK(left >= 100 - passed_s && left <= 100);
	CHECK_EQ(alarm(0), 5);
	CHECK_OK(getitimer(ITIMER_REAL, &old));
	CHECK(old.it_value.tv_sec == 0 && old.it_value.tv_usec == 0);
	it.it_value.tv_usec = 1000000;
	CHECK_ERR(EINVAL, setitimer(ITIMER_REAL, &it, NULL));
	CHECK_ERR(EINVAL, setitimer(99, &it, NULL));
	CHECK_ERR(EFAULT, syscall(SYS_getitimer, ITIMER_REAL, (void *)1));
}

TEST(itimer_interval_repeats)
{
	struct itimerval it = { .it_interval = { 0, 5000 }, .it_value = { 0, 5000 } };

	set_handler(SIGALRM, count, SA_RESTART);
	CHECK_OK(setitimer(ITIMER_REAL, &it, NULL));
	wait_handled(3, "a 5 ms interval timer");
	arm_timer_ms(0);
}

static void
die_by_alarm(void)
{
	alarm(1);
	sleep_forever();
}

TEST(alarm_default_kills)
{
	expect_signaled(run_child(die_by_alarm), SIGALRM, "alarm(1) without a handler");
}

static void
sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* A 1 us interval timer with SIGALRM blocked; the child then idles until killed. */
static void
arm_microsecond_timer_blocked(void)
{
	struct itimerval it = { .it_interval = { 0, 1 }, .it_value = { 0, 1 } };

	mask_signal(SIG_BLOCK, SIGALRM);
	setitimer(ITIMER_REAL, &it, NULL);
	sleep_forever();
}

/*
 * An interval timer arms its next period when SIGALRM is taken, as Linux's
 * (dequeue_signal): while the signal is pending it is not armed - getitimer
 * reads 0 left and the interval as set - and processes with 1 us timers
 * and SIGALRM blocked do not storm the machine (each expiry re-armed the
 * timer in the interrupt before).
 */
TEST(itimer_rearms_when_signal_taken)
{
	enum { HOGS = 4, ROUNDS = 2000 };
	struct itimerval it = { .it_interval = { 0, 10000 }, .it_value = { 0, 1 } }, now;
	pid_t hogs[HOGS];

	struct timespec second = { 1, 0 };
	sigset_t alrm;

	sigemptyset(&alrm);
	sigaddset(&alrm, SIGALRM);
	set_handler(SIGALRM, count, SA_RESTART); /* for the last one, pending at the end */
	mask_signal(SIG_BLOCK, SIGALRM);
	CHECK_OK(setitimer(ITIMER_REAL, &it, NULL));
	for (int taken = 0; taken < 2; taken++) {
		sleep_ms(30); /* three periods of 10 ms */
		CHECK_OK(getitimer(ITIMER_REAL, &now));
		CHECK(now.it_value.tv_sec == 0 && now.it_value.tv_usec == 0);
		CHECK(now.it_interval.tv_sec == 0 && now.it_interval.tv_usec == 10000);
		/* Taking it arms the next period, whose SIGALRM the next round takes. */
		CHECK(sigtimedwait(&alrm, NULL, &second) == SIGALRM);
	}
	arm_timer_ms(0);
	mask_signal(SIG_UNBLOCK, SIGALRM);

	fflush(NULL);
	for (int i = 0; i < HOGS; i++) {
		hogs[i] = xfork();
		if (hogs[i] == 0)
			arm_microsecond_timer_blocked(); /* never returns: a hog forks no hogs */
	}
	for (int i = 0; i < ROUNDS; i++) { /* must finish: the machine still answers */
		getppid();
		sched_yield();
	}
	for (int i = 0; i < HOGS; i++) {
		kill(hogs[i], SIGKILL);
		expect_signaled(wait_status(hogs[i]), SIGKILL, "a process with a 1 us timer");
	}
}

/* Spins, making system calls too if asked, until n signals were handled or 10 s have passed. */
static void
spin_until_handled(int n, bool syscalls)
{
	long long deadline = mono_ns() + 10000 * MS;

	while (handled < n && mono_ns() < deadline)
		if (syscalls)
			getppid();
}

/* A child exits 0 if its CPU-time timer which is off: fork does not inherit it. */
static void
expect_child_timer_off(int which)
{
	fflush(NULL);
	pid_t pid = xfork();

	if (pid == 0) {
		struct itimerval now;
		getitimer(which, &now);
		_exit(now.it_value.tv_sec || now.it_value.tv_usec || now.it_interval.tv_usec);
	}
	expect_exit(pid, 0, "a child of a process with a CPU-time timer");
}

/*
 * ITIMER_VIRTUAL counts the process's user time and ITIMER_PROF its user
 * and system time: each, every 10 ms of it, sends its signal to a process
 * that spins; getitimer reads the setting back, fork does not inherit it,
 * and a zero value disarms it.
 */
static void
check_cpu_itimer(int which, int sig, bool syscalls)
{
	const struct itimerval every_10ms = { { 0, 10000 }, { 0, 10000 } },
			       off = { { 0, 0 }, { 0, 0 } };
	struct itimerval now;

	set_handler(sig, count, SA_RESTART);
	CHECK_OK(setitimer(which, &every_10ms, NULL));
	CHECK_OK(getitimer(which, &now));
	CHECK(now.it_interval.tv_sec == 0 && now.it_interval.tv_usec == 10000);
	CHECK(now.it_value.tv_sec == 0 && now.it_value.tv_usec > 0); /* plus a tick, as Linux's */
	expect_child_timer_off(which);
	spin_until_handled(3, syscalls);
	CHECK(handled >= 3);
	CHECK_OK(setitimer(which, &off, &now));
	CHECK(now.it_interval.tv_usec == 10000);
	CHECK_OK(getitimer(which, &now));
	CHECK(now.it_value.tv_sec == 0 && now.it_value.tv_usec == 0);
}

TEST(itimer_virtual_counts_user_time)
{
	check_cpu_itimer(ITIMER_VIRTUAL, SIGVTALRM, false);
}

TEST(itimer_prof_counts_all_cpu_time)
{
	check_cpu_itimer(ITIMER_PROF, SIGPROF, true);
}
