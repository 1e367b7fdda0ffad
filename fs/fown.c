/*
 * fown.c - a file's owner, as Linux's f_owner: fcntl's F_SETOWN names the
 * process (a positive pid) or process group (a negative one) that news
 * about the file is signalled to, F_GETOWN says which; F_SETOWN_EX and
 * F_GETOWN_EX say it as a (type, pid) pair, where a type may also name one
 * thread (glibc's F_GETOWN is F_GETOWN_EX underneath, so the two agree).
 * The news is SIGURG when urgent data reaches a socket (fs/unix_io.c),
 * and SIGIO, or F_SETSIG's signal with si_code, si_band and si_fd, when
 * a file in O_ASYNC mode becomes ready (fs/fasync.c) or a watched
 * directory changes (fs/dnotify.c): Linux's send_sigio.
 *
 * The setter's user ids are kept with the owner, and a process none of
 * them matches (its real or saved uid), unless the setter was root, is
 * skipped, as Linux's sigio_perm. Linux holds the owner's struct pid, so
 * a process that comes later with the same number is not the owner:
 * rewind keeps the number with the owning task's start (start_tsc, which
 * a thread that execs takes over from its leader along with the pid).
 * A group is still named by its number alone: a new group that takes a
 * dead one's number would be signalled.
 */
#include "fs/vfs.h"
#include "uapi/errno.h"
#include "uapi/signal.h"
#include "kernel/process/cred.h"
#include "kernel/process/task.h"
#include "kernel/signal/signal.h"
#include "mm/uaccess.h"
#include "uapi/poll.h"

/* Whether a process has pgid as its group; tasks_lock held. */
static bool
group_exists(int pgid)
{
	struct list_head *pos;

	list_for_each(pos, &all_tasks) {
		struct task *p = list_entry(pos, struct task, all_link);
		if (p == p->group_leader && p->pgid == pgid)
			return true;
	}
	return false;
}

/*
 * Whether something has the id owner->pid names (0: nothing named, so
 * yes); a task it names has its start kept in owner. tasks_lock held.
 */
static bool
owner_exists(struct fown *owner)
{
	if (owner->pid && owner->type != F_OWNER_PGRP) {
		struct task *t = task_find(owner->pid);
		if (t)
			owner->start_tsc = t->start_tsc;
		return t != NULL;
	}
	return !owner->pid || group_exists(owner->pid);
}

/* The task o names (a thread, or a process's leader) if it is the one o was set to; tasks_lock held. */
static struct task *
owner_task(const struct fown *o)
{
	struct task *t = o->pid && o->type != F_OWNER_PGRP ? task_find(o->pid) : NULL;

	if (!t || t->start_tsc != o->start_tsc)
		return NULL; /* gone, its number perhaps someone else's now */
	return o->type == F_OWNER_TID ? t : t->group_leader;
}

/* Makes owner f's, the caller's uids kept with it: 0, or -ESRCH when nothing has its id. */
static long
set_owner(struct file *f, struct fown owner)
{
	struct id_set ids = current_uids();

	owner.uid = ids.real;
	owner.euid = ids.effective;
	u64 flags = spin_lock_irqsave(&tasks_lock);
	long ret = owner_exists(&owner) ? 0 : -ESRCH;
	if (!ret)
		f->owner = owner;
	spin_unlock_irqrestore(&tasks_lock, flags);
	return ret;
}

/* f's owner as F_GETOWN shows it: pid 0 once what it named is gone, as Linux's f_getown. */
static struct fown
get_owner(struct file *f)
{
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct fown owner = f->owner;
	bool gone = owner.type == F_OWNER_PGRP ? !group_exists(owner.pid) : !owner_task(&owner);

	if (owner.pid && gone)
		owner.pid = 0;
	spin_unlock_irqrestore(&tasks_lock, flags);
	return owner;
}

long
f_setown(struct file *f, unsigned long arg)
{
	int who = (int)arg;

	if (who == INT32_MIN)
		return -EINVAL; /* its group would overflow, as Linux */
	if (who < 0)
		return set_owner(f, (struct fown){ .type = F_OWNER_PGRP, .pid = -who });
	return set_owner(f, (struct fown){ .type = F_OWNER_PID, .pid = who });
}

void
f_setown_if_none(struct file *f)
{
	if (!READ_ONCE(f->owner.pid)) /* as Linux, an owner that is gone still counts */
		set_owner(f, (struct fown){ .type = F_OWNER_PID, .pid = current()->tgid });
}

long
f_getown(struct file *f)
{
	struct fown owner = get_owner(f);

	return owner.type == F_OWNER_PGRP ? -owner.pid : owner.pid;
}

long
f_setown_ex(struct file *f, unsigned long arg)
{
	struct kernel_f_owner_ex ex;

	if (copy_from_user(&ex, (const void __user *)arg, sizeof(ex)))
		return -EFAULT;
	if (ex.type != F_OWNER_TID && ex.type != F_OWNER_PID && ex.type != F_OWNER_PGRP)
		return -EINVAL;
	if (ex.pid < 0)
		return -ESRCH; /* no pid is negative, as Linux's find_vpid finds none */
	return set_owner(f, (struct fown){ .type = ex.type, .pid = ex.pid });
}

long
f_getown_ex(struct file *f, unsigned long arg)
{
	struct fown owner = get_owner(f);
	struct kernel_f_owner_ex ex = { .type = owner.type, .pid = owner.pid };

	return copy_to_user((void __user *)arg, &ex, sizeof(ex)) ? -EFAULT : 0;
}

/*
 * Linux's sigio_perm: the setter's effective uid was 0 (a uid, not a
 * capability, in Linux too), or one of its uids is p's real or saved uid.
 */
static bool
owner_may_signal(const struct fown *o, const struct task *p)
{
	u32 real = READ_ONCE(p->uids.real), saved = READ_ONCE(p->uids.saved);

	return o->euid == 0 || o->euid == real || o->euid == saved || o->uid == real ||
	       o->uid == saved;
}

/* Sends info to p if o's setter may; an F_SETSIG signal whose queue is full falls back on SIGIO. */
static void
send_to(const struct fown *o, struct task *p, const struct kernel_siginfo *info, bool thread)
{
	static const struct kernel_siginfo plain_sigio = { .signo = SIGIO, .code = SI_KERNEL };

	if (!p->sighand || !owner_may_signal(o, p))
		return;
	int err = thread ? signal_send_thread(p, info) : signal_send_process(p, info);
	if (err && info->signo != SIGIO && info->signo != SIGURG)
		thread ? signal_send_thread(p, &plain_sigio) : signal_send_process(p, &plain_sigio);
}

/* Sends info to f's owner: the thread, the process, or each process of the group. */
static void
signal_owner(struct file *f, const struct kernel_siginfo *info)
{
	struct list_head *pos;
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct fown o = f->owner;
	struct task *t = owner_task(&o);

	if (t)
		send_to(&o, t, info, o.type == F_OWNER_TID);
	for (pos = all_tasks.next; o.pid && o.type == F_OWNER_PGRP && pos != &all_tasks;
	     pos = pos->next) {
		struct task *p = list_entry(pos, struct task, all_link);
		if (p == p->group_leader && p->pgid == o.pid)
			send_to(&o, p, info, false);
	}
	spin_unlock_irqrestore(&tasks_lock, flags);
}

void
file_signal_owner(struct file *f, int sig)
{
	struct kernel_siginfo info = { .signo = sig, .code = SI_KERNEL };

	signal_owner(f, &info);
}

/* The events each POLL_* si_code stands for in si_band (Linux's band_table). */
static const u32 band_of_reason[] = {
	[POLL_IN] = POLLIN | POLLRDNORM,
	[POLL_OUT] = POLLOUT | POLLWRNORM | POLLWRBAND,
	[POLL_MSG] = POLLIN | POLLRDNORM | POLLMSG,
	[POLL_ERR] = POLLERR,
	[POLL_PRI] = POLLPRI | POLLRDBAND,
	[POLL_HUP] = POLLHUP | POLLERR,
};

void
file_send_sigio(struct file *f, int fd, int reason)
{
	int signum = READ_ONCE(f->signum);
	struct kernel_siginfo info = { .signo = SIGIO, .code = SI_KERNEL };

	if (signum) { /* F_SETSIG: the signal says why, and which fd */
		info.signo = signum;
		info.code = reason;
		info.poll.band = band_of_reason[reason];
		info.poll.fd = fd;
	}
	signal_owner(f, &info);
}
