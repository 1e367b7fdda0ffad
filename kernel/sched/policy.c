/*
 * policy.c - scheduling policies: sched_setscheduler, sched_setparam,
 * sched_setattr and their get calls, sched_get_priority_max/min,
 * sched_rr_get_interval; and RT throttling's two settings.
 *
 * SCHED_FIFO and SCHED_RR (priority 1..99) run before every normal task
 * (sched.c); SCHED_NORMAL, SCHED_BATCH and SCHED_IDLE share by weight.
 * The checks are Linux's __sched_setscheduler's, in its order: the
 * policy and priority must be valid (EINVAL), then without root the
 * caller must own the task, may only raise an RT priority up to
 * RLIMIT_RTPRIO, lower nice within RLIMIT_NICE, leave SCHED_IDLE within
 * RLIMIT_NICE and keep SCHED_RESET_ON_FORK once set (EPERM).
 * SCHED_DEADLINE is refused with EINVAL, as a kernel built without it
 * (before 3.14) answers: rewind has no deadline class.
 */
#include "kernel/sched/priority.h"
#include "kernel/sched/sched.h"
#include "kernel/process/cred.h"
#include "kernel/process/rlimit.h"
#include "kernel/syscall/syscall.h"
#include "drivers/lapic.h"
#include "mm/uaccess.h"
#include "uapi/errno.h"
#include "uapi/resource.h"
#include "uapi/sched_attr.h"
#include "uapi/time.h"

#define MAX_RT_PRIO   99
#define POLICY_KEEP   (-1) /* sched_setparam: the task's own policy */
#define SETATTR_FLAGS (SCHED_FLAG_RESET_ON_FORK | SCHED_FLAG_KEEP_POLICY | SCHED_FLAG_KEEP_PARAMS)
#define ATTR_MAX_SIZE 4096 /* a page, as Linux bounds a caller's structure */

s64 sched_rt_runtime_us = 950000;
u64 sched_rt_period_us = 1000000;

int
sched_rr_ticks(void)
{
	return MAX(1, SCHED_RR_MS * READ_ONCE(hz) / 1000);
}

static bool rt_policy(int policy);

void
sched_fork(struct task *child, const struct task *parent)
{
	child->policy = parent->policy;
	child->rt_priority = parent->rt_priority;
	child->nice = parent->nice;
	child->ioprio = parent->ioprio;
	child->vruntime = sched_vruntime_lead(parent); /* sched_start_task adds its queue's least */
	child->slice = parent->policy == SCHED_RR ? sched_rr_ticks() : SCHED_SLICE_TICKS;
	if (!parent->reset_on_fork)
		return;
	if (rt_policy(child->policy)) {
		child->policy = SCHED_NORMAL;
		child->rt_priority = 0;
		child->nice = 0;
		child->slice = SCHED_SLICE_TICKS;
	}
	child->nice = MAX(child->nice, 0);
}

static bool
rt_policy(int policy)
{
	return policy == SCHED_FIFO || policy == SCHED_RR;
}

static bool
fair_policy(int policy)
{
	return policy == SCHED_NORMAL || policy == SCHED_BATCH || policy == SCHED_IDLE;
}

/* What a caller asks of a task: policy (POLICY_KEEP), RT priority, nice, reset-on-fork. */
struct sched_request {
	int policy;
	unsigned priority;
	int nice;
	bool nice_given; /* sched_setattr's; the others keep the task's */
	bool reset_on_fork;
};

/* The permission checks a caller without CAP_SYS_NICE passes; EPERM. */
static bool
may_set(const struct task *t, const struct sched_request *r)
{
	if (capable(CAP_SYS_NICE))
		return true;
	if (fair_policy(r->policy) && r->nice < t->nice && !can_nice(t, r->nice))
		return false;
	if (rt_policy(r->policy)) {
		u64 rtprio = task_rlimit(t, RLIMIT_RTPRIO);
		if (r->policy != t->policy && !rtprio)
			return false;
		if (r->priority > t->rt_priority && r->priority > rtprio)
			return false;
	}
	if (t->policy == SCHED_IDLE && r->policy != SCHED_IDLE && !can_nice(t, t->nice))
		return false;
	if (!task_same_owner(t))
		return false;
	return !t->reset_on_fork || r->reset_on_fork;
}

/* Checks r against t and applies it; tasks_lock held. */
static long
set_scheduler(struct task *t, struct sched_request *r)
{
	if (r->policy == POLICY_KEEP) {
		r->policy = t->policy;
		r->reset_on_fork = t->reset_on_fork;
	} else if (!rt_policy(r->policy) && !fair_policy(r->policy)) {
		return -EINVAL;
	}
	if (r->priority > MAX_RT_PRIO || rt_policy(r->policy) != (r->priority != 0))
		return -EINVAL;
	if (!t->group_leader && !capable(CAP_SYS_NICE))
		return -EPERM; /* a kernel thread is root's */
	if (!may_set(t, r))
		return -EPERM;
	t->reset_on_fork = r->reset_on_fork;
	sched_set_attrs(t, r->policy, (int)r->priority, fair_policy(r->policy) ? r->nice : t->nice);
	return 0;
}

/* The task pid names (0: the caller) with tasks_lock held, or NULL. */
static struct task *
find_locked(int pid)
{
	return pid == 0 ? current() : task_find(pid);
}

static long
set_scheduler_of(int pid, struct sched_request *r, bool keep_params)
{
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct task *t = find_locked(pid);
	long err = -ESRCH;

	if (t) {
		if (keep_params) {
			r->priority = t->rt_priority;
			r->nice = t->nice;
		}
		if (!r->nice_given)
			r->nice = t->nice;
		err = set_scheduler(t, r);
	}
	spin_unlock_irqrestore(&tasks_lock, flags);
	return err;
}

/* sched_setscheduler and sched_setparam: a struct sched_param is one int, the RT priority. */
static long
setscheduler(int pid, int policy, const int __user *param)
{
	int priority;

	if (!param || pid < 0)
		return -EINVAL;
	if (copy_from_user(&priority, param, sizeof(priority)))
		return -EFAULT;
	struct sched_request r = { .policy = policy, .priority = (unsigned)priority };
	if (policy != POLICY_KEEP) {
		r.reset_on_fork = policy & SCHED_RESET_ON_FORK;
		r.policy = policy & ~SCHED_RESET_ON_FORK;
	}
	return set_scheduler_of(pid, &r, false);
}

SYSCALL3(sched_setscheduler, int, pid, int, policy, const int __user *, param)
{
	if (policy < 0)
		return -EINVAL;
	return setscheduler(pid, policy, param);
}

SYSCALL2(sched_setparam, int, pid, const int __user *, param)
{
	return setscheduler(pid, POLICY_KEEP, param);
}

/* A snapshot of what sched_get* report of the task pid names; -ESRCH, -EINVAL. */
static long
get_attrs(int pid, struct kernel_sched_attr *a)
{
	if (pid < 0)
		return -EINVAL;
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct task *t = find_locked(pid);
	if (t)
		*a = (struct kernel_sched_attr){
			.sched_policy = t->policy,
			.sched_flags = t->reset_on_fork ? SCHED_FLAG_RESET_ON_FORK : 0,
			.sched_nice = fair_policy(t->policy) ? t->nice : 0,
			.sched_priority = t->rt_priority,
		};
	spin_unlock_irqrestore(&tasks_lock, flags);
	return t ? 0 : -ESRCH;
}

SYSCALL1(sched_getscheduler, int, pid)
{
	struct kernel_sched_attr a;
	long err = get_attrs(pid, &a);

	if (err)
		return err;
	return a.sched_policy | (a.sched_flags ? SCHED_RESET_ON_FORK : 0);
}

SYSCALL2(sched_getparam, int, pid, int __user *, param)
{
	struct kernel_sched_attr a;

	if (!param)
		return -EINVAL;
	long err = get_attrs(pid, &a);
	if (err)
		return err;
	int priority = (int)a.sched_priority;
	return copy_to_user(param, &priority, sizeof(priority)) ? -EFAULT : 0;
}

/*
 * The caller's struct sched_attr of its own size: 0 means the first
 * version's; past ours the rest must be zero. A size out of bounds or a
 * tail we do not know is E2BIG, with our size written back.
 */
static long
copy_attr_from_user(struct kernel_sched_attr *a, struct kernel_sched_attr __user *ua)
{
	u32 size;

	if (copy_from_user(&size, &ua->size, sizeof(size)))
		return -EFAULT;
	if (!size)
		size = SCHED_ATTR_SIZE_VER0;
	if (size < SCHED_ATTR_SIZE_VER0 || size > ATTR_MAX_SIZE)
		goto too_big;
	int err = copy_struct_from_user(a, sizeof(*a), ua, size);
	if (err == -E2BIG)
		goto too_big;
	if (err)
		return err;
	if ((a->sched_flags & (SCHED_FLAG_UTIL_CLAMP_MIN | SCHED_FLAG_UTIL_CLAMP_MAX)) &&
	    size < SCHED_ATTR_SIZE_VER1)
		return -EINVAL;
	a->sched_nice = MIN(MAX(a->sched_nice, MIN_NICE), MAX_NICE);
	return 0;
too_big:
	size = sizeof(*a);
	return copy_to_user(&ua->size, &size, sizeof(size)) ? -EFAULT : -E2BIG;
}

SYSCALL3(sched_setattr, int, pid, struct kernel_sched_attr __user *, ua, unsigned, flags)
{
	struct kernel_sched_attr a;

	if (!ua || pid < 0 || flags)
		return -EINVAL;
	long err = copy_attr_from_user(&a, ua);
	if (err)
		return err;
	if ((int)a.sched_policy < 0)
		return -EINVAL;
	if (a.sched_flags & (SCHED_FLAG_UTIL_CLAMP_MIN | SCHED_FLAG_UTIL_CLAMP_MAX))
		return -EOPNOTSUPP; /* no utilization clamping: Linux without CONFIG_UCLAMP_TASK */
	if (a.sched_flags & ~(u64)SETATTR_FLAGS)
		return -EINVAL;
	struct sched_request r = {
		.policy =
			a.sched_flags & SCHED_FLAG_KEEP_POLICY ? POLICY_KEEP : (int)a.sched_policy,
		.priority = a.sched_priority,
		.nice = a.sched_nice,
		.nice_given = true,
		.reset_on_fork = a.sched_flags & SCHED_FLAG_RESET_ON_FORK,
	};
	return set_scheduler_of(pid, &r, a.sched_flags & SCHED_FLAG_KEEP_PARAMS);
}

SYSCALL4(sched_getattr, int, pid, struct kernel_sched_attr __user *, ua, unsigned, usize, unsigned,
	 flags)
{
	struct kernel_sched_attr a;

	if (!ua || pid < 0 || usize > ATTR_MAX_SIZE || usize < SCHED_ATTR_SIZE_VER0 || flags)
		return -EINVAL;
	long err = get_attrs(pid, &a);
	if (err)
		return err;
	a.size = MIN(usize, (unsigned)sizeof(a));
	return copy_to_user(ua, &a, a.size) ? -EFAULT : 0;
}

SYSCALL1(sched_get_priority_max, int, policy)
{
	if (rt_policy(policy))
		return MAX_RT_PRIO;
	return fair_policy(policy) || policy == SCHED_DEADLINE ? 0 : -EINVAL;
}

SYSCALL1(sched_get_priority_min, int, policy)
{
	if (rt_policy(policy))
		return 1;
	return fair_policy(policy) || policy == SCHED_DEADLINE ? 0 : -EINVAL;
}

/* SCHED_RR's slice; FIFO has none (0); a normal task's is its slice of the queue. */
SYSCALL2(sched_rr_get_interval, int, pid, struct kernel_timespec __user *, uts)
{
	struct kernel_sched_attr a;
	long err = get_attrs(pid, &a);

	if (err)
		return err;
	u64 ms = a.sched_policy == SCHED_RR	? SCHED_RR_MS
		 : a.sched_policy == SCHED_FIFO ? 0
						: SCHED_SLICE_TICKS * 1000ul / (u64)READ_ONCE(hz);
	struct kernel_timespec ts = { .tv_sec = (long)(ms / 1000),
				      .tv_nsec = (long)(ms % 1000 * 1000000) };
	return copy_to_user(uts, &ts, sizeof(ts)) ? -EFAULT : 0;
}
