/*
 * cputime.c - charging TSC stretches to user or system time; see cputime.h.
 *
 * A task is in user mode exactly between cputime_exit_kernel() and the next
 * cputime_enter_kernel(); everything else on its CPU is system time, and a
 * switched-out task accrues nothing.
 */
#include "kernel/cputime.h"
#include "kernel/errno.h"
#include "kernel/syscall.h"
#include "kernel/paravirt.h"
#include "kernel/percpu.h"
#include "kernel/string.h"
#include "kernel/tsc.h"

static u64
charge(struct task *t)
{
	u64 now = rdtsc();
	u64 stretch = now - t->time_stamp;

	t->time_stamp = now;
	return stretch;
}

void
cputime_enter_kernel(struct task *t)
{
	t->time.user += charge(t);
}

void
cputime_exit_kernel(struct task *t)
{
	t->time.sys += charge(t);
}

void
cputime_switch(struct task *prev, struct task *next)
{
	prev->time.sys += charge(prev);
	next->time_stamp = prev->time_stamp;
}

struct cputime
cputime_read(struct task *t)
{
	struct cputime c = t->time;

	/* Only the running task has a stretch in progress, and it is in the kernel. */
	if (t == current())
		c.sys += rdtsc() - t->time_stamp;
	return c;
}

struct cputime
cputime_read_process(struct task *t)
{
	struct task *leader = t->group_leader;

	if (!leader)	/* an idle task: no process around it */
		return cputime_read(t);
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct cputime c = leader->exited_threads_time;
	struct list_head *pos;
	list_for_each(pos, &leader->threads) {
		struct cputime m = cputime_read(list_entry(pos, struct task, thread_link));
		c.user += m.user;
		c.sys += m.sys;
	}
	spin_unlock_irqrestore(&tasks_lock, flags);
	return c;
}

u64
cputime_ns(u64 cycles)
{
	return tsc_cycles_to_ns(cycles);
}

void
fill_rusage(struct rusage_abi *ru, struct cputime c, u64 minflt)
{
	u64 u = cputime_ns(c.user) / 1000, s = cputime_ns(c.sys) / 1000;

	memset(ru, 0, sizeof(*ru));
	ru->utime_sec = (s64)(u / 1000000);
	ru->utime_usec = (s64)(u % 1000000);
	ru->stime_sec = (s64)(s / 1000000);
	ru->stime_usec = (s64)(s % 1000000);
	ru->minflt = (s64)minflt;
}

/* ---- the system calls that report CPU time ------------------------------------ */

#define RUSAGE_SELF	0
#define RUSAGE_CHILDREN	(-1)
#define RUSAGE_THREAD	1
#define USER_HZ		100	/* the unit of times(2), as Linux's */

SYSCALL2(getrusage, int, who, struct rusage_abi __user *, uru)
{
	struct task *t = current();
	struct rusage_abi ru;

	switch (who) {
	case RUSAGE_SELF:
		fill_rusage(&ru, cputime_read_process(t), t->minor_faults);
		break;
	case RUSAGE_THREAD:
		fill_rusage(&ru, cputime_read(t), t->minor_faults);
		break;
	case RUSAGE_CHILDREN:
		fill_rusage(&ru, t->children_time, t->children_minor_faults);
		break;
	default:
		return -EINVAL;
	}
	return copy_to_user(uru, &ru, sizeof(ru)) ? -EFAULT : 0;
}

static s64
clock_ticks(u64 cycles)
{
	return (s64)(cputime_ns(cycles) / (1000000000 / USER_HZ));
}

SYSCALL1(times, s64 __user *, ubuf)
{
	struct task *t = current();
	struct cputime c = cputime_read_process(t);
	s64 tms[4] = { clock_ticks(c.user), clock_ticks(c.sys),
		       clock_ticks(t->children_time.user), clock_ticks(t->children_time.sys) };

	if (ubuf && copy_to_user(ubuf, tms, sizeof(tms)))
		return -EFAULT;
	return (long)(ns_since_boot() / (1000000000 / USER_HZ));
}
