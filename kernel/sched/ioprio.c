/*
 * ioprio.c - ioprio_set and ioprio_get: each task's I/O priority, a class
 * (none, real-time, best-effort, idle) and a level 0..7, kept per task
 * and inherited on fork, with Linux's checks (the RT class is root's;
 * another user's task is EPERM). rewind has no I/O scheduler: block
 * requests are served in arrival order whatever the priority, so the value
 * is only stored and reported, as Linux does under the "none" elevator.
 */
#include "kernel/sched/priority.h"
#include "kernel/process/cred.h"
#include "kernel/syscall/syscall.h"
#include "uapi/errno.h"
#include "uapi/ioprio.h"
#include "uapi/resource.h"

/* Linux's ioprio_check_cap: a known class, a level in range, RT for CAP_SYS_NICE or CAP_SYS_ADMIN. */
static long
check_ioprio(int ioprio)
{
	int data = IOPRIO_PRIO_DATA(ioprio);

	switch (IOPRIO_PRIO_CLASS(ioprio)) {
	case IOPRIO_CLASS_RT:
		if (!capable(CAP_SYS_NICE) && !capable(CAP_SYS_ADMIN))
			return -EPERM;
		/* fall through */
	case IOPRIO_CLASS_BE:
		return data >= IOPRIO_NR_LEVELS ? -EINVAL : 0;
	case IOPRIO_CLASS_IDLE:
		return 0;
	case IOPRIO_CLASS_NONE:
		return data ? -EINVAL : 0;
	default:
		return -EINVAL;
	}
}

/* IOPRIO_WHO_* are PRIO_* + 1: the same three ways of naming tasks. */
static int
prio_which(int which)
{
	return which >= IOPRIO_WHO_PROCESS && which <= IOPRIO_WHO_USER ? which - 1 : -1;
}

struct ioprio_set {
	int ioprio;
	long error;
};

/* The target's real uid must be the caller's real or effective one, else root's (EPERM). */
static bool
set_one(struct task *t, void *arg)
{
	struct ioprio_set *s = arg;
	const struct task *leader = t->group_leader ? t->group_leader : t;
	struct id_set me = current_uids();
	u32 owner = leader->uids.real;

	if (!capable(CAP_SYS_NICE) && owner != me.effective && owner != me.real) {
		s->error = -EPERM;
		return false; /* Linux stops at the first failure */
	}
	t->ioprio = (u16)s->ioprio;
	s->error = 0;
	return true;
}

SYSCALL3(ioprio_set, int, which, int, who, int, ioprio)
{
	struct ioprio_set s = { .ioprio = ioprio, .error = -ESRCH };
	long err = check_ioprio(ioprio);

	if (err)
		return err;
	int n = for_each_prio_target(prio_which(which), who, set_one, &s);
	return n < 0 ? n : s.error;
}

/* How Linux ranks two priorities: the lower class value wins (none counts as best-effort), then the lower level. */
static int
rank(int ioprio)
{
	int class = IOPRIO_PRIO_CLASS(ioprio);

	if (class == IOPRIO_CLASS_NONE)
		return IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, IOPRIO_BE_NORM);
	return ioprio;
}

static bool
best_ioprio(struct task *t, void *arg)
{
	int *best = arg;

	if (*best < 0 || rank(t->ioprio) < rank(*best))
		*best = t->ioprio;
	return true;
}

SYSCALL2(ioprio_get, int, which, int, who)
{
	int best = -1;
	int n = for_each_prio_target(prio_which(which), who, best_ioprio, &best);

	if (n < 0)
		return n;
	return n ? best : -ESRCH;
}
