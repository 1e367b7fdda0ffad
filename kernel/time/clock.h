/*
 * clock.h - the clocks user space names by id (clock_gettime's), as the
 * clock and timer calls share them: reading one, the CPU-time clocks bound
 * to the task they measure, and the timespec conversions. In
 * time_syscalls.c.
 */
#ifndef REWIND_CLOCK_H
#define REWIND_CLOCK_H

#include "kernel/lib/types.h"
#include "uapi/time.h"

/* The clock's reading in ns for the caller, or -EINVAL for an unknown clock. */
s64 clock_read_ns(int clock);

/* What timers a clock id has, as Linux's (clock_timer_kind). */
enum { CLOCK_TIMERS_WALL = 1, CLOCK_TIMERS_CPU = 2 };
/*
 * CLOCK_TIMERS_WALL for REALTIME, MONOTONIC, BOOTTIME and TAI;
 * CLOCK_TIMERS_CPU for a CPU-time clock id (the named ones, and any other
 * negative id but a device file's: whether it names a task is for
 * cpu_clock_bind); -EOPNOTSUPP for the raw and coarse clocks and a device
 * file's; -EINVAL for an unknown id.
 */
int clock_timer_kind(int clock);

/* A CPU-time clock tied to its task: a timer on it keeps measuring that task. */
struct cpu_clock {
	int pid;	/* the thread's id, or the process's (its leader's) */
	bool thread;	/* that thread alone, else its whole process */
	bool user_only; /* user time only ("virt"), else user + system */
};

/*
 * The task CPU-time clock id clock measures for the caller
 * (CLOCK_PROCESS_CPUTIME_ID, CLOCK_THREAD_CPUTIME_ID, or an id built by
 * clock_getcpuclockid): 0, or -EINVAL if it is no CPU-time clock or names
 * no task the caller may read.
 */
int cpu_clock_bind(int clock, struct cpu_clock *c);
/* Its reading in ns, tasks_lock held; -EINVAL once the task is gone. */
s64 cpu_clock_read_locked(const struct cpu_clock *c);

/*
 * Clocks count nanoseconds in 63 bits, to year 2262 (Linux's KTIME_MAX).
 * A sleep longer than that is clamped to it - forever, in practice.
 */
#define KTIME_MAX_NS  0x7fffffffffffffffull
#define KTIME_SEC_MAX (KTIME_MAX_NS / 1000000000ull)

/* ts in ns, clamped to KTIME_MAX_NS; -EINVAL unless 0 <= tv_sec and 0 <= tv_nsec < 1e9 (kernel/time/timespec.c). */
int timespec_to_ns(const struct kernel_timespec *ts, u64 *ns);
struct kernel_timespec ns_to_timespec(u64 ns);

#endif
