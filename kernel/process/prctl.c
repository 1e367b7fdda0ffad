/*
 * prctl.c - prctl(2), Linux's grab bag of per-process and per-thread
 * controls, and the thread names (comm) it sets.
 *
 * rewind implements the thread's name, PR_SET_NAME and PR_GET_NAME: the
 * comm that ps, top and /proc/<pid>/{stat,status,comm} show. Busybox
 * needs it: an applet that ash runs by re-executing /proc/self/exe starts
 * named "exe", and busybox renames it to the applet ("sleep"), as it
 * shows on Linux. And the parent-death signal, PR_SET_PDEATHSIG and
 * PR_GET_PDEATHSIG (stress-ng's workers ask for SIGKILL), which the exit of
 * the parent thread sends (kernel/process/exit.c, notify_parent_death);
 * like Linux, a change of effective user id clears it (cred.c), fork does
 * not pass it on and execve keeps it. And whether the process is
 * dumpable, PR_SET_DUMPABLE and PR_GET_DUMPABLE: whether a core is written
 * (coredump.c) and who owns /proc/<pid> (fs/proc/pid.c); a change of
 * ids clears it (cred.c) as on Linux. And PR_SET_CHILD_SUBREAPER and
 * PR_GET_CHILD_SUBREAPER: the process takes its descendants' orphans
 * (exit.c, new_reaper); fork does not pass it on, execve keeps it. And
 * the thread's timer slack, PR_SET_TIMERSLACK and PR_GET_TIMERSLACK (kept
 * and reported: rewind's timers have none; process.h). And the capability
 * options: the bounding set (PR_CAPBSET_READ, PR_CAPBSET_DROP), the ambient
 * set (PR_CAP_AMBIENT), PR_SET_KEEPCAPS and the securebits
 * (kernel/process/capability.c). And PR_SET_TSC and PR_GET_TSC, whether
 * the thread's rdtsc works or raises SIGSEGV (kernel/x86/tsc_mode.h). And
 * PR_SET_NO_NEW_PRIVS and PR_GET_NO_NEW_PRIVS: from then on no execve may
 * grant privilege (rewind's execve honours no set-user-ID bits anyway),
 * and the process may restrict itself with Landlock without CAP_SYS_ADMIN
 * (kernel/landlock/); fork and execve keep it, nothing clears it. Any
 * other option answers EINVAL, as Linux
 * answers an option it does not know, with a console notice naming the
 * option (a program that needs one shows up there, as with unimplemented calls).
 */
#include "kernel/process/cred.h"
#include "kernel/process/process.h"
#include "kernel/process/task.h"
#include "kernel/printk.h"
#include "kernel/lib/string.h"
#include "kernel/syscall/syscall.h"
#include "kernel/x86/tsc_mode.h"
#include "uapi/errno.h"
#include "uapi/prctl.h"

void
task_set_comm(struct task *t, const char *name)
{
	char comm[TASK_COMM_LEN] = { 0 };

	memcpy(comm, name, strnlen(name, TASK_COMM_LEN - 1));
	task_lock(t);
	memcpy(t->comm, comm, sizeof(comm));
	task_unlock(t);
}

static long
set_name(const char __user *uname)
{
	char name[TASK_COMM_LEN];
	/* As Linux, at most the first 15 bytes are read: a longer name is cut. */
	long len = strncpy_from_user(name, uname, sizeof(name) - 1);

	if (len == -EFAULT)
		return len;
	name[sizeof(name) - 1] = '\0';
	task_set_comm(current(), name);
	return 0;
}

static long
get_name(char __user *uname)
{
	struct task *t = current();
	char name[TASK_COMM_LEN];

	task_lock(t);
	memcpy(name, t->comm, sizeof(name));
	task_unlock(t);
	name[sizeof(name) - 1] = '\0';
	return copy_to_user(uname, name, sizeof(name)) ? -EFAULT : 0;
}

u64
task_timer_slack(const struct task *t)
{
	u64 slack = READ_ONCE(t->timer_slack_ns);

	if (slack)
		return slack;
	return t->default_timer_slack_ns ? t->default_timer_slack_ns : TIMER_SLACK_NS;
}

void
task_set_timer_slack(struct task *t, u64 ns)
{
	WRITE_ONCE(t->timer_slack_ns, ns);
}

SYSCALL5(prctl, int, option, unsigned long, arg2, unsigned long, arg3, unsigned long, arg4,
	 unsigned long, arg5)
{
	switch (option) {
	case PR_SET_NAME:
		return set_name((const char __user *)arg2);
	case PR_GET_NAME:
		return get_name((char __user *)arg2);
	case PR_SET_PDEATHSIG:
		if (arg2 > _NSIG)
			return -EINVAL;
		WRITE_ONCE(current()->pdeath_signal, (int)arg2);
		return 0;
	case PR_GET_PDEATHSIG: {
		int sig = current()->pdeath_signal;
		return copy_to_user((int __user *)arg2, &sig, sizeof(sig)) ? -EFAULT : 0;
	}
	case PR_SET_DUMPABLE:
		if (arg2 > 1)
			return -EINVAL;
		WRITE_ONCE(current()->group_leader->not_dumpable, arg2 == 0);
		return 0;
	case PR_GET_DUMPABLE:
		return !READ_ONCE(current()->group_leader->not_dumpable);
	case PR_GET_KEEPCAPS:
	case PR_SET_KEEPCAPS:
	case PR_CAPBSET_READ:
	case PR_CAPBSET_DROP:
	case PR_GET_SECUREBITS:
	case PR_SET_SECUREBITS:
	case PR_CAP_AMBIENT:
		return caps_prctl(option, arg2, arg3, arg4, arg5);
	case PR_SET_TIMERSLACK:
		task_set_timer_slack(current(), arg2);
		return 0;
	case PR_GET_TIMERSLACK:
		return (long)task_timer_slack(current());
	case PR_SET_TSC:
		return tsc_mode_set(arg2);
	case PR_GET_TSC:
		return tsc_mode_get((int __user *)arg2);
	case PR_SET_CHILD_SUBREAPER:
		WRITE_ONCE(current()->group_leader->child_subreaper, arg2 != 0);
		return 0;
	case PR_SET_NO_NEW_PRIVS:
		if (arg2 != 1 || arg3 || arg4 || arg5)
			return -EINVAL;
		WRITE_ONCE(current()->group_leader->no_new_privs, true);
		return 0;
	case PR_GET_NO_NEW_PRIVS:
		if (arg2 || arg3 || arg4 || arg5)
			return -EINVAL;
		return READ_ONCE(current()->group_leader->no_new_privs);
	case PR_GET_CHILD_SUBREAPER: {
		int on = READ_ONCE(current()->group_leader->child_subreaper);
		return copy_to_user((int __user *)arg2, &on, sizeof(on)) ? -EFAULT : 0;
	}
	default:
		pr_warn_ratelimited(
			"prctl: %s (pid %d): option %d is not implemented; "
			"returning -EINVAL\n",
			current()->comm, current()->pid, option);
		return -EINVAL;
	}
}
