/*
 * priority.c - nice values: their weights, getpriority and setpriority.
 *
 * A normal task's share of a CPU is its weight over the sum of the
 * runnable tasks' weights (sched.c). The weights are Linux's CFS table
 * (kernel/sched/core.c, sched_prio_to_weight): nice 0 is 1024 and each
 * step is ~1.25x, so that one nice step moves ~10% of the CPU between two
 * tasks whatever their levels. SCHED_IDLE tasks weigh 3, below nice 19.
 *
 * getpriority answers 20 - nice (1..40) so that no success is negative;
 * libc turns it back. Lowering nice needs root or an RLIMIT_NICE of at
 * least 20 - the new nice (EACCES); changing another user's task needs
 * root (EPERM).
 */
#include "kernel/sched/priority.h"
#include "kernel/sched/sched.h"
#include "kernel/process/cred.h"
#include "kernel/process/rlimit.h"
#include "kernel/syscall/syscall.h"
#include "drivers/lapic.h"
#include "uapi/errno.h"
#include "uapi/resource.h"

static const u32 nice_weight[40] = {
	/* -20 */ 88761, 71755, 56483, 46273, 36291,
	/* -15 */ 29154, 23254, 18705, 14949, 11916,
	/* -10 */ 9548,	 7620,	6100,  4904,  3906,
	/*  -5 */ 3121,	 2501,	1991,  1586,  1277,
	/*   0 */ 1024,	 820,	655,   526,   423,
	/*   5 */ 335,	 272,	215,   172,   137,
	/*  10 */ 110,	 87,	70,    56,    45,
	/*  15 */ 36,	 29,	23,    18,    15,
};

#define NICE_0_WEIGHT	  1024
#define SCHED_IDLE_WEIGHT 3

u32
sched_weight(const struct task *t)
{
	return t->policy == SCHED_IDLE ? SCHED_IDLE_WEIGHT : nice_weight[t->nice - MIN_NICE];
}

u64
sched_vtick(const struct task *t)
{
	return (u64)NICE_0_VTICK * NICE_0_WEIGHT / sched_weight(t);
}

s64
sched_vruntime_ns(const struct task *t)
{
	s64 tick_ns = 1000000000l / READ_ONCE(hz);
	s64 v = READ_ONCE(t->vruntime);

	/* Whole ticks first: vruntime times a tick's nanoseconds would overflow in hours. */
	return v / NICE_0_VTICK * tick_ns + v % NICE_0_VTICK * tick_ns / NICE_0_VTICK;
}

bool
can_nice(const struct task *t, int nice)
{
	u64 limit = t->group_leader ? task_rlimit(t, RLIMIT_NICE) : 0;

	return capable(CAP_SYS_NICE) || (u64)(20 - nice) <= limit;
}

static bool
matches(const struct task *t, int which, int who)
{
	const struct task *leader = t->group_leader;

	if (which == PRIO_PROCESS)
		return t->pid == who;
	if (!leader || t->state == TASK_ZOMBIE)
		return false; /* kernel threads belong to no group or user */
	if (which == PRIO_PGRP)
		return leader->pgid == who;
	return leader->uids.real == (u32)who;
}

int
for_each_prio_target(int which, int who, bool (*visit)(struct task *t, void *arg), void *arg)
{
	struct task *me = current();
	struct list_head *pos;
	int n = 0;

	if (which < PRIO_PROCESS || which > PRIO_USER)
		return -EINVAL;
	if (who == 0)
		who = which == PRIO_PROCESS ? me->pid
		      : which == PRIO_PGRP  ? me->group_leader->pgid
					    : (int)current_uids().real;
	u64 flags = spin_lock_irqsave(&tasks_lock);
	list_for_each(pos, &all_tasks) {
		struct task *t = list_entry(pos, struct task, all_link);
		if (!matches(t, which, who))
			continue;
		n++;
		if (!visit(t, arg))
			break;
	}
	spin_unlock_irqrestore(&tasks_lock, flags);
	return n;
}

static bool
best_nice(struct task *t, void *arg)
{
	int *best = arg;

	*best = MIN(*best, (int)t->nice);
	return true;
}

SYSCALL2(getpriority, int, which, int, who)
{
	int best = MAX_NICE + 1;
	int n = for_each_prio_target(which, who, best_nice, &best);

	if (n < 0)
		return n;
	return n ? 20 - best : -ESRCH;
}

struct set_nice {
	int nice;
	long error; /* Linux's: the last failure, or 0 once one task was set */
};

static bool
set_one_nice(struct task *t, void *arg)
{
	struct set_nice *s = arg;

	if (!task_same_owner(t))
		s->error = -EPERM;
	else if (s->nice < t->nice && !can_nice(t, s->nice))
		s->error = -EACCES;
	else {
		if (s->error == -ESRCH)
			s->error = 0;
		sched_set_attrs(t, t->policy, t->rt_priority, s->nice); /* RT: kept for later */
	}
	return true;
}

SYSCALL3(setpriority, int, which, int, who, int, nice)
{
	struct set_nice s = { .nice = MIN(MAX(nice, MIN_NICE), MAX_NICE), .error = -ESRCH };
	int n = for_each_prio_target(which, who, set_one_nice, &s);

	return n < 0 ? n : s.error;
}
