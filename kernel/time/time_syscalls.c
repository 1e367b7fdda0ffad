/*
 * time_syscalls.c - clocks and sleeps for user space: clock_gettime,
 * clock_getres, clock_settime, gettimeofday, settimeofday, time,
 * nanosleep, clock_nanosleep.
 *
 * The system clocks come from the timekeeping core (kernel/time/timekeeping.c);
 * the CPU-time clocks from the per-task accounting (kernel/time/cputime.c),
 * other threads' and processes' included. Sleeps count ns_since_boot()
 * (the TSC), which MONOTONIC follows; an absolute REALTIME sleep is
 * measured from the wall clock's reading when it starts.
 */
#include "kernel/time/clock.h"
#include "kernel/time/cputime.h"
#include "uapi/errno.h"
#include "kernel/sched/sched.h"
#include "kernel/syscall/syscall.h"
#include "kernel/process/cred.h"
#include "kernel/process/task.h"
#include "kernel/time/timekeeping.h"
#include "kernel/time/tsc.h"
#include "uapi/time.h"
#include "kernel/time/time64.h"

/*
 * Another task's CPU-time clock, as Linux encodes it (and musl's
 * clock_getcpuclockid and pthread_getcpuclockid build it): a negative id
 * holding ~pid << 3, bit 2 set for a single thread (else its whole
 * process), and in bits 0-1 what to count: 0 user + system ("prof"),
 * 1 user only ("virt"), 2 user + system ("sched"); 3 is invalid.
 */
#define CPUCLOCK_PERTHREAD 4
#define CPUCLOCK_VIRT	   1
#define CPUCLOCK_INVALID   3

/*
 * The task a CPU clock id names, tasks_lock held: pid 0 is the caller; a
 * thread's clock only within the caller's process, a process clock only by
 * its leader's id (as Linux 3.x checks). NULL if there is no such task.
 */
static struct task *
cpu_clock_task(int pid, bool thread)
{
	struct task *t = pid ? task_find(pid) : current();

	if (!t || !pid)
		return t;
	if (thread)
		return t->tgid == current()->tgid ? t : NULL;
	return t->group_leader == t ? t : NULL;
}

int
cpu_clock_bind(int clock, struct cpu_clock *c)
{
	if (clock == CLOCK_PROCESS_CPUTIME_ID || clock == CLOCK_THREAD_CPUTIME_ID) {
		bool thread = clock == CLOCK_THREAD_CPUTIME_ID;
		*c = (struct cpu_clock){ thread ? current()->pid : current()->tgid, thread, false };
		return 0;
	}
	if (clock >= 0 || (clock & 3) == CPUCLOCK_INVALID)
		return -EINVAL;
	int pid = ~(clock >> 3); /* the shift keeps the sign: ~ gives pid back */
	bool thread = clock & CPUCLOCK_PERTHREAD;
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct task *t = cpu_clock_task(pid, thread);
	if (t)
		*c = (struct cpu_clock){ thread ? t->pid : t->tgid, thread,
					 (clock & 3) == CPUCLOCK_VIRT };
	spin_unlock_irqrestore(&tasks_lock, flags);
	return t ? 0 : -EINVAL;
}

s64
cpu_clock_read_locked(const struct cpu_clock *c)
{
	struct task *t = task_find(c->pid);
	struct cputime time;

	if (!t || (!c->thread && t->group_leader != t))
		return -EINVAL;
	time = c->thread ? cputime_read(t) : cputime_read_process_locked(t);
	return (s64)cputime_ns(c->user_only ? time.user : time.user + time.sys);
}

static s64
cpu_clock_ns(int clock)
{
	struct cpu_clock c;

	if (cpu_clock_bind(clock, &c))
		return -EINVAL;
	u64 flags = spin_lock_irqsave(&tasks_lock);
	s64 ns = cpu_clock_read_locked(&c);
	spin_unlock_irqrestore(&tasks_lock, flags);
	return ns;
}

s64
clock_read_ns(int clock)
{
	if (clock < 0)
		return cpu_clock_ns(clock);
	if (clock == CLOCK_PROCESS_CPUTIME_ID) {
		struct cputime c = cputime_read_process(current());
		return (s64)cputime_ns(c.user + c.sys);
	}
	if (clock == CLOCK_THREAD_CPUTIME_ID) {
		struct cputime c = cputime_read(current());
		return (s64)cputime_ns(c.user + c.sys);
	}
	u64 ns = timekeeping_read_ns(clock);
	return ns == ~0ull ? -EINVAL : (s64)ns;
}

/*
 * The wall clock cannot be set within 30 years of KTIME_MAX_NS (Linux's
 * TIME_SETTOD_SEC_MAX), so that time since boot still fits.
 */
#define SETTOD_SEC_MAX (KTIME_SEC_MAX - 30 * 365ull * 86400)

SYSCALL2(clock_gettime, int, clock, struct kernel_timespec __user *, uts)
{
	s64 ns = clock_read_ns(clock);

	if (ns < 0)
		return ns;
	struct kernel_timespec ts = ns_to_timespec((u64)ns);
	return copy_to_user(uts, &ts, sizeof(ts)) ? -EFAULT : 0;
}

SYSCALL2(clock_getres, int, clock, struct kernel_timespec __user *, uts)
{
	if (clock_read_ns(clock) < 0)
		return -EINVAL;
	bool coarse = clock == CLOCK_REALTIME_COARSE || clock == CLOCK_MONOTONIC_COARSE;
	struct kernel_timespec ts = ns_to_timespec(coarse ? timekeeping_tick_ns() : 1);
	return uts && copy_to_user(uts, &ts, sizeof(ts)) ? -EFAULT : 0;
}

SYSCALL2(clock_settime, int, clock, const struct kernel_timespec __user *, uts)
{
	struct kernel_timespec ts;
	u64 ns;

	if (clock != CLOCK_REALTIME)
		return -EINVAL;
	if (copy_from_user(&ts, uts, sizeof(ts)))
		return -EFAULT;
	if (timespec_to_ns(&ts, &ns) || (u64)ts.tv_sec > SETTOD_SEC_MAX)
		return -EINVAL;
	if (!capable(CAP_SYS_TIME))
		return -EPERM; /* CAP_SYS_TIME, asked after the value's check as Linux does */
	timekeeping_set_realtime(ns);
	return 0;
}

SYSCALL2(gettimeofday, struct kernel_timeval __user *, utv, struct kernel_timezone __user *, utz)
{
	u64 ns = timekeeping_read_ns(CLOCK_REALTIME);
	struct kernel_timeval tv = { (s64)(ns / NSEC_PER_SEC), (s64)(ns % NSEC_PER_SEC / 1000) };
	struct kernel_timezone tz;

	timekeeping_get_tz(&tz.tz_minuteswest, &tz.tz_dsttime);
	if (utv && copy_to_user(utv, &tv, sizeof(tv)))
		return -EFAULT;
	if (utz && copy_to_user(utz, &tz, sizeof(tz)))
		return -EFAULT;
	return 0;
}

#define MAX_TZ_MINUTES (15 * 60) /* Linux's bound on a timezone offset */

SYSCALL2(settimeofday, const struct kernel_timeval __user *, utv,
	 const struct kernel_timezone __user *, utz)
{
	struct kernel_timeval tv;
	struct kernel_timezone tz;

	if ((utv && copy_from_user(&tv, utv, sizeof(tv))) ||
	    (utz && copy_from_user(&tz, utz, sizeof(tz))))
		return -EFAULT;
	if (utv && (tv.tv_sec < 0 || (u64)tv.tv_sec > SETTOD_SEC_MAX || tv.tv_usec < 0 ||
		    tv.tv_usec >= 1000000))
		return -EINVAL;
	if (!capable(CAP_SYS_TIME))
		return -EPERM; /* CAP_SYS_TIME for the time zone too, before its check (Linux's order) */
	if (utz && (tz.tz_minuteswest < -MAX_TZ_MINUTES || tz.tz_minuteswest > MAX_TZ_MINUTES))
		return -EINVAL;
	if (utz)
		timekeeping_set_tz(tz.tz_minuteswest, tz.tz_dsttime);
	if (utv)
		timekeeping_set_realtime((u64)tv.tv_sec * NSEC_PER_SEC + (u64)tv.tv_usec * 1000);
	return 0;
}

/*
 * The seconds of the last tick, as Linux's time() (ktime_get_real_seconds):
 * the vDSO and the legacy page answer time() with one load of the vvar
 * page, and all three routes must agree - a precise reading here would run
 * ahead of them across a second boundary until the next tick.
 */
SYSCALL1(time, s64 __user *, ut)
{
	s64 sec = (s64)(timekeeping_read_ns(CLOCK_REALTIME_COARSE) / NSEC_PER_SEC);

	if (ut && copy_to_user(ut, &sec, sizeof(sec)))
		return -EFAULT;
	return sec;
}

/*
 * Sleeps until the clock reads target. The scheduler's deadlines run on
 * the TSC, while the clock may run on another counter (HPET, PM timer: see
 * clocksource=) at a slightly different rate; so the clock is read again
 * on waking and the sleep goes on until it agrees - never early by the
 * clock the program reads, as POSIX asks. On interruption urem, if given,
 * gets the time that was left.
 */
static long
sleep_until(int clock, u64 target, struct kernel_timespec __user *urem)
{
	for (;;) {
		u64 now = (u64)clock_read_ns(clock);
		if (now >= target)
			return 0;
		if (sleep_ns(target - now) != -EINTR)
			continue;
		now = (u64)clock_read_ns(clock);
		struct kernel_timespec rem = ns_to_timespec(now < target ? target - now : 0);
		if (urem && copy_to_user(urem, &rem, sizeof(rem)))
			return -EFAULT;
		return -EINTR;
	}
}

SYSCALL2(nanosleep, const struct kernel_timespec __user *, ureq, struct kernel_timespec __user *,
	 urem)
{
	struct kernel_timespec req;
	u64 ns;

	if (copy_from_user(&req, ureq, sizeof(req)))
		return -EFAULT;
	if (timespec_to_ns(&req, &ns))
		return -EINVAL;
	return sleep_until(CLOCK_MONOTONIC, (u64)clock_read_ns(CLOCK_MONOTONIC) + ns, urem);
}

#define CLOCKFD 3 /* the low bits of a negative clock id naming a device file's clock */

int
clock_timer_kind(int clock)
{
	switch (clock) {
	case CLOCK_REALTIME:
	case CLOCK_MONOTONIC:
	case CLOCK_BOOTTIME:
	case CLOCK_TAI:
		return CLOCK_TIMERS_WALL;
	case CLOCK_MONOTONIC_RAW:
	case CLOCK_REALTIME_COARSE:
	case CLOCK_MONOTONIC_COARSE:
		return -EOPNOTSUPP;
	case CLOCK_PROCESS_CPUTIME_ID:
	case CLOCK_THREAD_CPUTIME_ID:
		return CLOCK_TIMERS_CPU;
	default:
		if (clock >= 0)
			return -EINVAL;
		return (clock & 7) == CLOCKFD ? -EOPNOTSUPP : CLOCK_TIMERS_CPU;
	}
}

/*
 * The clocks one can sleep on: those with wall timers. CPU-time sleeps
 * need CPU timers, which rewind's sleeps do not use (EOPNOTSUPP), and a
 * negative id is EINVAL unless it can be read.
 */
static long
sleepable_clock(int clock)
{
	int kind = clock_timer_kind(clock);

	if (kind == CLOCK_TIMERS_WALL)
		return 0;
	if (kind == -EINVAL)
		return -EINVAL;
	if (clock < 0)
		return clock_read_ns(clock) >= 0 ? -EOPNOTSUPP : -EINVAL;
	return -EOPNOTSUPP;
}

SYSCALL4(clock_nanosleep, int, clock, int, flags, const struct kernel_timespec __user *, ureq,
	 struct kernel_timespec __user *, urem)
{
	struct kernel_timespec req;
	u64 ns;

	long err = sleepable_clock(clock);

	if (err)
		return err;
	if (copy_from_user(&req, ureq, sizeof(req)))
		return -EFAULT;
	if (timespec_to_ns(&req, &ns))
		return -EINVAL;
	if (flags & TIMER_ABSTIME)
		return sleep_until(clock, ns, NULL); /* Linux writes no remainder for these */
	/* A relative sleep is a length of time: setting the wall clock must not stretch it. */
	int timed = clock == CLOCK_REALTIME || clock == CLOCK_TAI ? CLOCK_MONOTONIC : clock;
	return sleep_until(timed, (u64)clock_read_ns(timed) + ns, urem);
}
