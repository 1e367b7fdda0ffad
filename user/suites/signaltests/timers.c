/*
 * timers.c - signaltests: setitimer, getitimer and alarm, an interval
 * timer's repeated SIGALRM, and SIGALRM's default action.
 */
#define _GNU_SOURCE
#include "signaltests.h"

#include <errno.h>
#include <sys/syscall.h>
#include <sys/time.h>
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
