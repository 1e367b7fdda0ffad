/*
 * sched_syscalls.c - the scheduler's system calls about CPUs: affinity
 * (sched_setaffinity, sched_getaffinity), getcpu and sched_yield. The
 * policy calls are in policy.c, nice in priority.c.
 *
 * Another user's process is changed only by root (Linux's check_same_owner).
 * A cpu_set_t is a bit array in longs; rewind has at most 64 CPUs, so the
 * first long holds every bit that matters and the rest must be zero.
 */
#include "uapi/errno.h"
#include "kernel/x86/percpu.h"
#include "kernel/sched/sched.h"
#include "kernel/x86/smp.h"
#include "kernel/syscall/syscall.h"
#include "kernel/process/cred.h"
#include "kernel/process/task.h"

/* The task pid names (0: the caller), or NULL; tasks_lock held. */
static struct task *
task_by_pid(int pid)
{
	return pid == 0 ? current() : task_find(pid);
}

SYSCALL3(sched_setaffinity, int, pid, size_t, len, const u64 __user *, umask)
{
	u64 mask;

	if (len < sizeof(mask))
		return -EINVAL;
	if (copy_from_user(&mask, umask, sizeof(mask)))
		return -EFAULT;
	if (!(mask & cpus_online_mask()))
		return -EINVAL;
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct task *t = task_by_pid(pid);
	bool allowed = t && task_same_owner(t); /* Linux: else CAP_SYS_NICE */
	if (allowed)
		WRITE_ONCE(t->cpus_allowed, mask);
	spin_unlock_irqrestore(&tasks_lock, flags);
	if (!t)
		return -ESRCH;
	if (!allowed)
		return -EPERM;
	/* A task on a CPU it may no longer use moves when it next leaves it. */
	if (!(mask & (1ul << this_cpu()->id)) && t == current())
		WRITE_ONCE(this_cpu()->need_resched, true);
	return 0;
}

SYSCALL3(sched_getaffinity, int, pid, size_t, len, u64 __user *, umask)
{
	if (len < sizeof(u64) || len % sizeof(u64))
		return -EINVAL;
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct task *t = task_by_pid(pid);
	u64 mask = t ? t->cpus_allowed & cpus_online_mask() : 0;
	spin_unlock_irqrestore(&tasks_lock, flags);
	if (!t)
		return -ESRCH;
	if (copy_to_user(umask, &mask, sizeof(mask)))
		return -EFAULT;
	return sizeof(mask); /* the kernel's cpumask size, as Linux returns */
}

SYSCALL3(getcpu, unsigned __user *, ucpu, unsigned __user *, unode, void __user *, unused)
{
	unsigned cpu = this_cpu()->id, node = 0;

	if (ucpu && copy_to_user(ucpu, &cpu, sizeof(cpu)))
		return -EFAULT;
	if (unode && copy_to_user(unode, &node, sizeof(node)))
		return -EFAULT;
	return 0;
}

/* The caller goes behind the peers of its class (sched.c's enqueue) and the CPU picks again. */
SYSCALL0(sched_yield)
{
	current()->yielded = true;
	WRITE_ONCE(this_cpu()->need_resched, true);
	return 0;
}
