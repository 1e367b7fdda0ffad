/*
 * posix_timers.c - signaltests: timer_create and its companions through
 * the raw system calls (libc's wrappers hide the kernel's timer ids and
 * SIGEV_THREAD_ID): ids, the errnos of bad arguments, the setting read
 * back, SI_TIMER siginfo, overruns counted on the one queued signal, a
 * thread as target, SIGEV_NONE, the CPU-time clocks, and a forked child
 * starting without timers.
 */
#define _GNU_SOURCE
#include "signaltests.h"

#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* struct sigevent as the kernel reads it: libcs name the thread id member differently. */
struct raw_sigevent {
	union sigval value;
	int signo;
	int notify;
	union {
		int pad[12];
		int tid;
	};
};

#define RAW_SIGEV_THREAD_ID 4
#define TIMER_SIGNAL	    (SIGRTMIN + 2) /* not one musl or glibc keeps for itself */
#define FAR_AWAY_S	    100

static long
create(clockid_t clock, struct raw_sigevent *ev, int *id)
{
	return syscall(SYS_timer_create, clock, ev, id);
}

static long
settime(int id, int flags, long value_ns, long interval_ns, struct itimerspec *old)
{
	struct itimerspec its = { { interval_ns / 1000000000, interval_ns % 1000000000 },
				  { value_ns / 1000000000, value_ns % 1000000000 } };

	return syscall(SYS_timer_settime, id, flags, &its, old);
}

static long
gettime(int id, struct itimerspec *cur)
{
	return syscall(SYS_timer_gettime, id, cur);
}

/* A timer sending TIMER_SIGNAL (with value) to the process; its id. */
static int
signal_timer(clockid_t clock, long value)
{
	struct raw_sigevent ev = { .value.sival_ptr = (void *)value,
				   .signo = TIMER_SIGNAL,
				   .notify = SIGEV_SIGNAL };
	int id = -1;

	CHECK_OK(create(clock, &ev, &id));
	return id;
}

static long long
ts_ns(struct timespec ts)
{
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

TEST(posix_timer_ids)
{
	int a = -1, b = -1, c = -1;

	/* Ids count from 0 in a new process (each test is a fork), and a deleted one is not reused. */
	CHECK_OK(create(CLOCK_MONOTONIC, NULL, &a));
	CHECK_OK(create(CLOCK_REALTIME, NULL, &b));
	CHECK(a == 0 && b == 1);
	CHECK_OK(syscall(SYS_timer_delete, a));
	CHECK_OK(create(CLOCK_BOOTTIME, NULL, &c));
	CHECK_EQ(c, 2);
	CHECK_ERR(EINVAL, syscall(SYS_timer_delete, a));
	CHECK_OK(syscall(SYS_timer_delete, b));
	CHECK_OK(syscall(SYS_timer_delete, c));
}

static void
child_has_no_timers(void)
{
	struct itimerspec cur;
	int id = -1;

	if (gettime(0, &cur) != -1 || errno != EINVAL)
		fail("a forked child sees its parent's timer 0");
	if (create(CLOCK_MONOTONIC, NULL, &id) || id != 0)
		fail("a forked child's first timer id is %d, want 0", id);
	_exit(0);
}

TEST(posix_timer_not_inherited)
{
	int id = signal_timer(CLOCK_MONOTONIC, 0);

	CHECK_OK(settime(id, 0, FAR_AWAY_S * 1000000000LL, 0, NULL));
	expect_exited(run_child(child_has_no_timers), 0, "a forked child's timers");
}

TEST(posix_timer_argument_errors)
{
	struct raw_sigevent ev = { .signo = TIMER_SIGNAL, .notify = SIGEV_SIGNAL };
	struct itimerspec its = { { 0, 0 }, { 1, 0 } };
	int id = -1;

	CHECK_ERR(EINVAL, create(99, &ev, &id));
	CHECK_ERR(EINVAL, create(-1, &ev, &id));	  /* a thread CPU clock counting "3" */
	CHECK_ERR(EOPNOTSUPP, create(-1 & ~4, &ev, &id)); /* a device file's clock */
	CHECK_ERR(EOPNOTSUPP, create(CLOCK_MONOTONIC_RAW, &ev, &id));
	CHECK_ERR(EOPNOTSUPP, create(CLOCK_REALTIME_COARSE, &ev, &id));
	CHECK_ERR(EFAULT, create(CLOCK_MONOTONIC, (void *)1, &id));
	CHECK_ERR(EFAULT, create(CLOCK_MONOTONIC, &ev, (void *)1));
	ev.notify = 99;
	CHECK_ERR(EINVAL, create(CLOCK_MONOTONIC, &ev, &id));
	ev.notify = SIGEV_SIGNAL;
	ev.signo = 0;
	CHECK_ERR(EINVAL, create(CLOCK_MONOTONIC, &ev, &id));
	ev.signo = 65;
	CHECK_ERR(EINVAL, create(CLOCK_MONOTONIC, &ev, &id));
	ev.signo = TIMER_SIGNAL;
	ev.notify = SIGEV_SIGNAL | RAW_SIGEV_THREAD_ID;
	ev.tid = getppid(); /* a thread of another process */
	CHECK_ERR(EINVAL, create(CLOCK_MONOTONIC, &ev, &id));

	id = signal_timer(CLOCK_MONOTONIC, 0);
	CHECK_ERR(EINVAL, syscall(SYS_timer_settime, id, 0, NULL, NULL));
	CHECK_ERR(EFAULT, syscall(SYS_timer_settime, id, 0, (void *)1, NULL));
	its.it_value.tv_nsec = 1000000000;
	CHECK_ERR(EINVAL, syscall(SYS_timer_settime, id, 0, &its, NULL));
	its.it_value.tv_nsec = 0;
	its.it_interval.tv_sec = -1;
	CHECK_ERR(EINVAL, syscall(SYS_timer_settime, id, 0, &its, NULL));
	CHECK_ERR(EINVAL, settime(id + 1, 0, 1, 0, NULL));
	CHECK_ERR(EINVAL, gettime(id + 1, &its));
	CHECK_ERR(EFAULT, gettime(id, (void *)1));
	CHECK_ERR(EINVAL, syscall(SYS_timer_getoverrun, id + 1));
	CHECK_ERR(EINVAL, syscall(SYS_timer_delete, id + 1));
	CHECK_ERR(EINVAL, syscall(SYS_timer_delete, -1));
}

TEST(posix_timer_setting_reads_back)
{
	int id = signal_timer(CLOCK_MONOTONIC, 0);
	struct itimerspec cur, old;
	long long far = FAR_AWAY_S * 1000000000LL;

	CHECK_OK(gettime(id, &cur));
	CHECK(ts_ns(cur.it_value) == 0 && ts_ns(cur.it_interval) == 0);
	CHECK_OK(settime(id, 0, far, 2000000000, &old));
	CHECK(ts_ns(old.it_value) == 0 && ts_ns(old.it_interval) == 0);
	CHECK_OK(gettime(id, &cur));
	CHECK(ts_ns(cur.it_value) > 0 && ts_ns(cur.it_value) <= far);
	CHECK_EQ(ts_ns(cur.it_interval), 2000000000);
	/* An absolute deadline on the timer's clock: what is left is at most the difference. */
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	CHECK_OK(settime(id, TIMER_ABSTIME, ts_ns(now) + far, 0, &old));
	CHECK(ts_ns(old.it_value) > 0 && ts_ns(old.it_interval) == 2000000000);
	CHECK_OK(gettime(id, &cur));
	CHECK(ts_ns(cur.it_value) > 0 && ts_ns(cur.it_value) <= far);
	CHECK_EQ(ts_ns(cur.it_interval), 0);
	/* A zero value disarms, and the interval goes with it. */
	CHECK_OK(settime(id, 0, 0, 5000000, NULL));
	CHECK_OK(gettime(id, &cur));
	CHECK(ts_ns(cur.it_value) == 0 && ts_ns(cur.it_interval) == 0);
	CHECK_EQ(syscall(SYS_timer_getoverrun, id), 0);
}

TEST(posix_timer_siginfo)
{
	set_handler(TIMER_SIGNAL, record, 0);
	int id = signal_timer(CLOCK_REALTIME, 0x5eed);
	CHECK_OK(settime(id, 0, 1000000, 0, NULL));
	wait_handled(1, "a 1 ms POSIX timer");
	CHECK_EQ(last_info.si_signo, TIMER_SIGNAL);
	CHECK_EQ(last_info.si_code, SI_TIMER);
	CHECK_EQ(last_info.si_timerid, id);
	CHECK_EQ(last_info.si_overrun, 0);
	CHECK_EQ(last_info.si_value.sival_ptr, (void *)0x5eed);
	/* Without a sigevent: SIGALRM, and the timer's id as the value. */
	set_handler(SIGALRM, record, 0);
	int plain = -1;
	CHECK_OK(create(CLOCK_MONOTONIC, NULL, &plain));
	CHECK_OK(settime(plain, 0, 1000000, 0, NULL));
	wait_handled(2, "a timer created without a sigevent");
	CHECK(last_info.si_signo == SIGALRM && last_info.si_code == SI_TIMER);
	CHECK(last_info.si_timerid == plain && last_info.si_value.sival_int == plain);
}

TEST(posix_timer_overruns_on_one_signal)
{
	sigset_t set;
	siginfo_t info;
	struct timespec nap = { 0, 50000000 };
	int id = signal_timer(CLOCK_MONOTONIC, 0);

	mask_signal(SIG_BLOCK, TIMER_SIGNAL);
	CHECK_OK(settime(id, 0, 1000000, 1000000, NULL));
	/* Every millisecond while the signal waits: one queued signal, counting the others. */
	nanosleep(&nap, NULL);
	sigemptyset(&set);
	sigaddset(&set, TIMER_SIGNAL);
	CHECK_OK(sigwaitinfo(&set, &info));
	CHECK(info.si_code == SI_TIMER && info.si_timerid == id);
	CHECK(info.si_overrun >= 1);
	CHECK_EQ(syscall(SYS_timer_getoverrun, id), info.si_overrun);
	CHECK_OK(syscall(SYS_timer_delete, id));
}

/*
 * A periodic timer whose signal waits is not re-queued: the delivery counts
 * the periods that passed and arms the next (Linux's requeue on delivery).
 * Meanwhile timer_gettime still reads the time to the next period.
 */
TEST(posix_timer_rearms_on_delivery)
{
	sigset_t set;
	siginfo_t info;
	struct itimerspec cur;
	struct timespec nap = { 0, 30 * MS }, patience = { 10, 0 };
	int id = signal_timer(CLOCK_MONOTONIC, 0);

	mask_signal(SIG_BLOCK, TIMER_SIGNAL);
	CHECK_OK(settime(id, 0, 1 * MS, 1 * MS, NULL));
	nanosleep(&nap, NULL);
	CHECK_OK(gettime(id, &cur));
	CHECK(ts_ns(cur.it_value) > 0 && ts_ns(cur.it_value) <= 1 * MS);
	CHECK_EQ(ts_ns(cur.it_interval), 1 * MS);
	sigemptyset(&set);
	sigaddset(&set, TIMER_SIGNAL);
	CHECK_OK(sigwaitinfo(&set, &info));
	CHECK(info.si_overrun >= 1);
	CHECK_EQ(syscall(SYS_timer_getoverrun, id), info.si_overrun);
	/* The delivery armed the next expiry. */
	CHECK(sigtimedwait(&set, &info, &patience) == TIMER_SIGNAL && info.si_timerid == id);
	CHECK_OK(syscall(SYS_timer_delete, id));
}

/* An ignored signal is never queued: the timer keeps running, for a handler installed later. */
TEST(posix_timer_survives_an_ignored_signal)
{
	struct timespec nap = { 0, 20 * MS };
	int id = signal_timer(CLOCK_MONOTONIC, 0);

	set_disposition(TIMER_SIGNAL, SIG_IGN);
	CHECK_OK(settime(id, 0, 1 * MS, 1 * MS, NULL));
	nanosleep(&nap, NULL);
	set_handler(TIMER_SIGNAL, count, 0);
	wait_handled(1, "a periodic timer after its signal was ignored");
	CHECK_OK(syscall(SYS_timer_delete, id));
}

/* A periodic SIGEV_NONE timer is never on an engine; gettime moves it past now. */
TEST(posix_timer_sigev_none_periodic_reads_the_next_period)
{
	struct raw_sigevent ev = { .signo = TIMER_SIGNAL, .notify = SIGEV_NONE };
	struct itimerspec cur;
	struct timespec nap = { 0, 5 * MS };
	int id = -1;

	CHECK_OK(create(CLOCK_MONOTONIC, &ev, &id));
	CHECK_OK(settime(id, 0, 1, 2 * MS, NULL));
	for (int i = 0; i < 3; i++) {
		nanosleep(&nap, NULL);
		CHECK_OK(gettime(id, &cur));
		CHECK(ts_ns(cur.it_value) > 0 && ts_ns(cur.it_value) <= 2 * MS);
		CHECK_EQ(ts_ns(cur.it_interval), 2 * MS);
	}
	CHECK_OK(syscall(SYS_timer_delete, id));
}

static volatile pid_t target_tid;
static volatile int target_got;

static void *
take_timer_signal(void *arg)
{
	sigset_t set;
	siginfo_t info;

	(void)arg;
	target_tid = (pid_t)syscall(SYS_gettid);
	sigemptyset(&set);
	sigaddset(&set, TIMER_SIGNAL);
	if (sigwaitinfo(&set, &info) == TIMER_SIGNAL && info.si_code == SI_TIMER)
		target_got = 1;
	return NULL;
}

TEST(posix_timer_thread_target)
{
	pthread_t thread;

	mask_signal(SIG_BLOCK,
		    TIMER_SIGNAL); /* the thread inherits the mask: sigwaitinfo takes it */
	CHECK_EQ(pthread_create(&thread, NULL, take_timer_signal, NULL), 0);
	while (!target_tid)
		sched_yield();
	struct raw_sigevent ev = { .signo = TIMER_SIGNAL,
				   .notify = SIGEV_SIGNAL | RAW_SIGEV_THREAD_ID,
				   .tid = target_tid };
	int id = -1;
	CHECK_OK(create(CLOCK_MONOTONIC, &ev, &id));
	CHECK_OK(settime(id, 0, 1000000, 0, NULL));
	CHECK_EQ(pthread_join(thread, NULL), 0);
	CHECK(target_got);
	sigset_t pending;
	sigpending(&pending);
	CHECK(!sigismember(&pending, TIMER_SIGNAL)); /* it went to that thread, not the process */
}

TEST(posix_timer_sigev_none)
{
	struct raw_sigevent ev = { .signo = TIMER_SIGNAL, .notify = SIGEV_NONE };
	struct itimerspec cur;
	int id = -1;
	long long deadline = mono_ns() + 10000 * MS;

	set_handler(TIMER_SIGNAL, record, 0);
	CHECK_OK(create(CLOCK_MONOTONIC, &ev, &id));
	CHECK_OK(settime(id, 0, 1000000, 0, NULL));
	do {
		if (mono_ns() > deadline)
			fail("a 1 ms SIGEV_NONE timer still runs after 10 s");
		usleep(1000);
		CHECK_OK(gettime(id, &cur));
	} while (ts_ns(cur.it_value));
	CHECK_EQ(handled, 0);
}

/* Burns CPU until a handler has run n times (10 s of wall time at most). */
static void
spin_until_handled(int n, const char *what)
{
	long long deadline = mono_ns() + 10000 * MS;

	while (handled < n)
		if (mono_ns() > deadline)
			fail("%s: no signal after 10 s of spinning", what);
}

TEST(posix_timer_cpu_clocks)
{
	struct itimerspec cur;

	set_handler(TIMER_SIGNAL, count, 0);
	int process = signal_timer(CLOCK_PROCESS_CPUTIME_ID, 0);
	CHECK_OK(settime(process, 0, 20000000, 0, NULL));
	CHECK_OK(gettime(process, &cur));
	CHECK(ts_ns(cur.it_value) > 0 && ts_ns(cur.it_value) <= 20000000);
	spin_until_handled(1, "a 20 ms CLOCK_PROCESS_CPUTIME_ID timer");
	CHECK_OK(gettime(process, &cur));
	CHECK_EQ(ts_ns(cur.it_value), 0);

	int thread = signal_timer(CLOCK_THREAD_CPUTIME_ID, 0);
	CHECK_OK(settime(thread, 0, 20000000, 0, NULL));
	spin_until_handled(2, "a 20 ms CLOCK_THREAD_CPUTIME_ID timer");
}
