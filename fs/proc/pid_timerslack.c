/*
 * pid_timerslack.c - /proc/<pid>/timerslack_ns: the timer slack of the
 * process's first thread (kernel/process/process.h), read and set as
 * PR_GET_TIMERSLACK and PR_SET_TIMERSLACK do for the caller; another
 * process's only with CAP_SYS_NICE (root here), else EPERM, as Linux's.
 */
#include "fs/proc/internal.h"
#include "kernel/process/cred.h"
#include "kernel/process/process.h"
#include "uapi/errno.h"

/* The leader of pid when the caller may reach its slack: 0, -ESRCH or -EPERM; tasks_lock held. */
static int
slack_owner(union proc_arg arg, struct task **t)
{
	*t = proc_find_leader(arg.pid);
	if (!*t)
		return -ESRCH;
	return *t == current()->group_leader || capable(CAP_SYS_NICE) ? 0 : -EPERM;
}

int
proc_show_timerslack(struct procbuf *b, union proc_arg arg)
{
	struct task *t;
	u64 flags = spin_lock_irqsave(&tasks_lock);
	int err = slack_owner(arg, &t);
	u64 slack = err ? 0 : task_timer_slack(t);

	spin_unlock_irqrestore(&tasks_lock, flags);
	if (!err)
		procbuf_printf(b, "%lu\n", slack);
	return err;
}

int
proc_write_timerslack(const char *value, union proc_arg arg)
{
	unsigned long ns;
	struct task *t;

	if (procfs_parse_decimal(value, &ns))
		return -EINVAL;
	u64 flags = spin_lock_irqsave(&tasks_lock);
	int err = slack_owner(arg, &t);
	if (!err)
		task_set_timer_slack(t, ns);
	spin_unlock_irqrestore(&tasks_lock, flags);
	return err;
}
