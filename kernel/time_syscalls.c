/*
 * time_syscalls.c - clocks and sleeps for user space: clock_gettime,
 * clock_getres, gettimeofday, time, nanosleep, clock_nanosleep.
 *
 * Every clock derives from the calibrated TSC. CLOCK_REALTIME is the
 * monotonic clock offset by the wall-clock time at boot, which is 0 (1970)
 * until the timekeeping milestone reads the CMOS RTC; the CPU-time clocks
 * come from the exact per-task accounting (kernel/cputime.c).
 */
#include "kernel/cputime.h"
#include "kernel/errno.h"
#include "kernel/sched.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "kernel/tsc.h"

enum {
	CLOCK_REALTIME = 0, CLOCK_MONOTONIC = 1, CLOCK_PROCESS_CPUTIME_ID = 2,
	CLOCK_THREAD_CPUTIME_ID = 3, CLOCK_MONOTONIC_RAW = 4, CLOCK_REALTIME_COARSE = 5,
	CLOCK_MONOTONIC_COARSE = 6, CLOCK_BOOTTIME = 7,
};
#define TIMER_ABSTIME 1
#define NSEC_PER_SEC 1000000000ul

struct timespec_abi {
	s64 sec;
	s64 nsec;
};

struct timeval_abi {
	s64 sec;
	s64 usec;
};

static u64 realtime_at_boot_ns;

/* The clock's reading in ns, or -EINVAL for an unknown clock. */
static s64
clock_read_ns(int clock)
{
	switch (clock) {
	case CLOCK_REALTIME:
	case CLOCK_REALTIME_COARSE:
		return (s64)(realtime_at_boot_ns + ns_since_boot());
	case CLOCK_MONOTONIC:
	case CLOCK_MONOTONIC_RAW:
	case CLOCK_MONOTONIC_COARSE:
	case CLOCK_BOOTTIME:
		return (s64)ns_since_boot();
	case CLOCK_PROCESS_CPUTIME_ID: {
		struct cputime c = cputime_read_process(current());
		return (s64)cputime_ns(c.user + c.sys);
	}
	case CLOCK_THREAD_CPUTIME_ID: {
		struct cputime c = cputime_read(current());
		return (s64)cputime_ns(c.user + c.sys);
	}
	default:
		return -EINVAL;
	}
}

static struct timespec_abi
ns_to_timespec(u64 ns)
{
	return (struct timespec_abi){ (s64)(ns / NSEC_PER_SEC), (s64)(ns % NSEC_PER_SEC) };
}

static int
timespec_to_ns(const struct timespec_abi *ts, u64 *ns)
{
	if (ts->sec < 0 || ts->nsec < 0 || ts->nsec >= (s64)NSEC_PER_SEC)
		return -EINVAL;
	*ns = (u64)ts->sec * NSEC_PER_SEC + (u64)ts->nsec;
	return 0;
}

SYSCALL2(clock_gettime, int, clock, struct timespec_abi __user *, uts)
{
	s64 ns = clock_read_ns(clock);

	if (ns < 0)
		return ns;
	struct timespec_abi ts = ns_to_timespec((u64)ns);
	return copy_to_user(uts, &ts, sizeof(ts)) ? -EFAULT : 0;
}

SYSCALL2(clock_getres, int, clock, struct timespec_abi __user *, uts)
{
	if (clock_read_ns(clock) < 0)
		return -EINVAL;
	struct timespec_abi ts = { 0, 1 };	/* TSC-based: nanosecond resolution */
	return uts && copy_to_user(uts, &ts, sizeof(ts)) ? -EFAULT : 0;
}

SYSCALL2(gettimeofday, struct timeval_abi __user *, utv, void __user *, utz)
{
	u64 ns = (u64)clock_read_ns(CLOCK_REALTIME);
	struct timeval_abi tv = { (s64)(ns / NSEC_PER_SEC), (s64)(ns % NSEC_PER_SEC / 1000) };

	if (utv && copy_to_user(utv, &tv, sizeof(tv)))
		return -EFAULT;
	if (utz && clear_user(utz, 8))	/* struct timezone: no offset, no DST */
		return -EFAULT;
	return 0;
}

SYSCALL1(time, s64 __user *, ut)
{
	s64 sec = clock_read_ns(CLOCK_REALTIME) / (s64)NSEC_PER_SEC;

	if (ut && copy_to_user(ut, &sec, sizeof(sec)))
		return -EFAULT;
	return sec;
}

/* Sleeps for ns; on interruption stores the time left in urem. */
static long
sleep_and_report(u64 ns, struct timespec_abi __user *urem)
{
	u64 end = ns_since_boot() + ns;
	long err = sleep_ns(ns);

	if (err == -EINTR && urem) {
		u64 now = ns_since_boot();
		struct timespec_abi rem = ns_to_timespec(now < end ? end - now : 0);
		if (copy_to_user(urem, &rem, sizeof(rem)))
			return -EFAULT;
	}
	return err;
}

SYSCALL2(nanosleep, const struct timespec_abi __user *, ureq, struct timespec_abi __user *, urem)
{
	struct timespec_abi req;
	u64 ns;

	if (copy_from_user(&req, ureq, sizeof(req)))
		return -EFAULT;
	if (timespec_to_ns(&req, &ns))
		return -EINVAL;
	return sleep_and_report(ns, urem);
}

SYSCALL4(clock_nanosleep, int, clock, int, flags, const struct timespec_abi __user *, ureq,
	 struct timespec_abi __user *, urem)
{
	struct timespec_abi req;
	u64 ns;

	if (clock == CLOCK_THREAD_CPUTIME_ID || clock_read_ns(clock) < 0)
		return -EINVAL;
	if (copy_from_user(&req, ureq, sizeof(req)))
		return -EFAULT;
	if (timespec_to_ns(&req, &ns))
		return -EINVAL;
	if (flags & TIMER_ABSTIME) {
		u64 now = (u64)clock_read_ns(clock);
		return sleep_ns(ns > now ? ns - now : 0);
	}
	return sleep_and_report(ns, urem);
}
