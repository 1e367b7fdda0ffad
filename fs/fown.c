/*
 * fown.c - a file's owner, as Linux's f_owner: fcntl's F_SETOWN names the
 * process (a positive pid) or process group (a negative one) that news
 * about the file is signalled to, F_GETOWN says which; F_SETOWN_EX and
 * F_GETOWN_EX say it as a (type, pid) pair, where a type may also name one
 * thread (glibc's F_GETOWN is F_GETOWN_EX underneath, so the two agree).
 * Today the news is SIGURG when urgent data reaches a socket
 * (fs/unix_io.c).
 *
 * The setter's user ids are kept with the owner, and a process none of
 * them matches (its real or saved uid), unless the setter was root, is
 * skipped, as Linux's sigio_perm. Linux holds the owner's struct pid;
 * rewind keeps the number, so a pid reused after the owner is gone would
 * be signalled.
 */
#include "fs/vfs.h"
#include "uapi/errno.h"
#include "uapi/signal.h"
#include "kernel/process/cred.h"
#include "kernel/process/task.h"
#include "kernel/signal/signal.h"
#include "mm/uaccess.h"

/* Whether something has the id owner->pid names (0: nothing named, so yes). tasks_lock held. */
static bool
owner_exists(const struct fown *owner)
{
	struct list_head *pos;

	if (!owner->pid || owner->type != F_OWNER_PGRP)
		return !owner->pid || task_find(owner->pid) != NULL;
	list_for_each(pos, &all_tasks) {
		struct task *p = list_entry(pos, struct task, all_link);
		if (p == p->group_leader && p->pgid == owner->pid)
			return true;
	}
	return false;
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

static struct fown
get_owner(struct file *f)
{
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct fown owner = f->owner;

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

/* Linux's sigio_perm: the setter was root, or one of its uids is p's real or saved uid. */
static bool
owner_may_signal(const struct fown *o, const struct task *p)
{
	u32 real = READ_ONCE(p->uids.real), saved = READ_ONCE(p->uids.saved);

	return o->euid == 0 || o->euid == real || o->euid == saved || o->uid == real ||
	       o->uid == saved;
}

void
file_signal_owner(struct file *f, int sig)
{
	struct kernel_siginfo info = { .signo = sig, .code = SI_KERNEL };
	struct list_head *pos;
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct fown o = f->owner;
	struct task *t = o.pid && o.type != F_OWNER_PGRP ? task_find(o.pid) : NULL;

	if (t && o.type == F_OWNER_TID && t->sighand && owner_may_signal(&o, t))
		signal_send_thread(t, &info);
	if (t && o.type == F_OWNER_PID && t->group_leader->sighand &&
	    owner_may_signal(&o, t->group_leader))
		signal_send_process(t->group_leader, &info);
	for (pos = all_tasks.next; o.pid && o.type == F_OWNER_PGRP && pos != &all_tasks;
	     pos = pos->next) {
		struct task *p = list_entry(pos, struct task, all_link);
		if (p == p->group_leader && p->sighand && p->pgid == o.pid &&
		    owner_may_signal(&o, p))
			signal_send_process(p, &info);
	}
	spin_unlock_irqrestore(&tasks_lock, flags);
}
