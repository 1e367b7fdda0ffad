/*
 * rlimit.c - getrlimit, setrlimit and prlimit64, with Linux's rules for
 * changing a limit (do_prlimit); see rlimit.h for where each is enforced.
 * Limits change under tasks_lock, which also keeps the task being looked
 * at from going; enforcing code reads one value with READ_ONCE.
 */
#include "kernel/process/rlimit.h"
#include "kernel/process/cred.h"
#include "kernel/lib/string.h"
#include "kernel/syscall/syscall.h"
#include "mm/page_alloc.h"
#include "mm/vmap.h"
#include "uapi/errno.h"

#define MLOCK_LIMIT  (8ul << 20) /* RLIMIT_MEMLOCK */
#define MQ_BYTES_MAX 819200	 /* RLIMIT_MSGQUEUE */

unsigned long threads_max = KSTACK_SLOTS; /* until the first process sets it from RAM */

/*
 * Linux sizes its task limit so that kernel stacks take at most an eighth
 * of RAM (max_threads), and gives the first process half of that as its
 * RLIMIT_NPROC and RLIMIT_SIGPENDING; rewind has KSTACK_SLOTS stacks at most.
 */
static u64
default_threads_max(void)
{
	u64 n = page_alloc_total_pages() / (8 * (KSTACK_SIZE / PAGE_SIZE));
	return MIN(MAX(n, (u64)THREADS_MAX_MIN), (u64)KSTACK_SLOTS);
}

void
rlimits_set_defaults(struct kernel_rlimit lim[RLIM_NLIMITS])
{
	u64 tasks = default_threads_max() / 2;

	WRITE_ONCE(threads_max, tasks * 2);

	for (unsigned r = 0; r < RLIM_NLIMITS; r++)
		lim[r] = (struct kernel_rlimit){ RLIM_INFINITY, RLIM_INFINITY };
	lim[RLIMIT_STACK].rlim_cur = 8ul << 20;
	lim[RLIMIT_CORE].rlim_cur = 0;
	lim[RLIMIT_NPROC] = (struct kernel_rlimit){ tasks, tasks };
	lim[RLIMIT_NOFILE] = (struct kernel_rlimit){ 1024, 4096 };
	lim[RLIMIT_MEMLOCK] = (struct kernel_rlimit){ MLOCK_LIMIT, MLOCK_LIMIT };
	lim[RLIMIT_SIGPENDING] = (struct kernel_rlimit){ tasks, tasks };
	lim[RLIMIT_MSGQUEUE] = (struct kernel_rlimit){ MQ_BYTES_MAX, MQ_BYTES_MAX };
	lim[RLIMIT_NICE] = lim[RLIMIT_RTPRIO] = (struct kernel_rlimit){ 0, 0 };
}

/*
 * Another process's limits: the caller's real uid must be all three of
 * its user ids and the caller's real gid all three of its group ids, or
 * the caller privileged (Linux's check_prlimit_permission). tasks_lock held.
 */
static bool
may_touch_limits(const struct task *leader)
{
	const struct task *me = current()->group_leader;

	return capable(CAP_SYS_RESOURCE) || (all_ids_are(&leader->uids, me->uids.real) &&
					     all_ids_are(&leader->gids, me->gids.real));
}

/* Sets resource of leader's process to *lim (if not NULL), the old value to *old; tasks_lock held. */
static long
prlimit_locked(struct task *leader, unsigned resource, const struct kernel_rlimit *lim,
	       struct kernel_rlimit *old)
{
	struct kernel_rlimit *cur = &leader->rlim[resource];

	*old = *cur;
	if (!lim)
		return 0;
	if (lim->rlim_max > cur->rlim_max && !capable(CAP_SYS_RESOURCE))
		return -EPERM;
	WRITE_ONCE(cur->rlim_cur, lim->rlim_cur);
	WRITE_ONCE(cur->rlim_max, lim->rlim_max);
	return 0;
}

/* Linux's do_prlimit: pid 0 is the caller; a thread's id stands for its process. */
static long
do_prlimit(int pid, unsigned resource, const struct kernel_rlimit *lim, struct kernel_rlimit *old)
{
	if (resource >= RLIM_NLIMITS)
		return -EINVAL;
	if (lim && lim->rlim_cur > lim->rlim_max)
		return -EINVAL;
	if (lim && resource == RLIMIT_NOFILE && lim->rlim_max > READ_ONCE(nr_open))
		return -EPERM;
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct task *t = pid ? task_find(pid) : current();
	long ret = -ESRCH;
	if (t && t->group_leader) {
		ret = t->group_leader == current()->group_leader ||
				      may_touch_limits(t->group_leader)
			      ? prlimit_locked(t->group_leader, resource, lim, old)
			      : -EPERM;
	}
	spin_unlock_irqrestore(&tasks_lock, flags);
	return ret;
}

SYSCALL4(prlimit64, int, pid, unsigned, resource, const struct kernel_rlimit __user *, unew,
	 struct kernel_rlimit __user *, uold)
{
	struct kernel_rlimit lim, old;

	if (pid < 0)
		return -ESRCH;
	if (unew && copy_from_user(&lim, unew, sizeof(lim)))
		return -EFAULT;
	long ret = do_prlimit(pid, resource, unew ? &lim : NULL, &old);
	if (ret == 0 && uold && copy_to_user(uold, &old, sizeof(old)))
		ret = -EFAULT;
	return ret;
}

SYSCALL2(getrlimit, unsigned, resource, struct kernel_rlimit __user *, uold)
{
	struct kernel_rlimit old;
	long ret = do_prlimit(0, resource, NULL, &old);

	if (ret == 0 && copy_to_user(uold, &old, sizeof(old)))
		ret = -EFAULT;
	return ret;
}

SYSCALL2(setrlimit, unsigned, resource, const struct kernel_rlimit __user *, unew)
{
	struct kernel_rlimit lim, old;

	if (copy_from_user(&lim, unew, sizeof(lim)))
		return -EFAULT;
	return do_prlimit(0, resource, &lim, &old);
}
