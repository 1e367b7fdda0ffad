/*
 * timespec.c - nanoseconds to and from struct kernel_timespec, for every
 * call that takes or gives a time (clocks, timers, timerfd, sockets'
 * timeouts). Pure arithmetic: the hosted file-system tests build it too.
 */
#include "kernel/time/clock.h"
#include "uapi/errno.h"
#include "kernel/time/time64.h"

struct kernel_timespec
ns_to_timespec(u64 ns)
{
	return (struct kernel_timespec){ (s64)(ns / NSEC_PER_SEC), (s64)(ns % NSEC_PER_SEC) };
}

int
timespec_to_ns(const struct kernel_timespec *ts, u64 *ns)
{
	if (ts->tv_sec < 0 || ts->tv_nsec < 0 || ts->tv_nsec >= (s64)NSEC_PER_SEC)
		return -EINVAL;
	*ns = (u64)ts->tv_sec >= KTIME_SEC_MAX ? KTIME_MAX_NS
					       : (u64)ts->tv_sec * NSEC_PER_SEC + (u64)ts->tv_nsec;
	return 0;
}
