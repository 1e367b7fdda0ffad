/*
 * fown.c - a file's owner, as Linux's f_owner: fcntl's F_SETOWN names the
 * process (a positive pid) or process group (a negative one) that news
 * about the file is signalled to, F_GETOWN says which. Today the news is
 * SIGURG when urgent data reaches a socket (fs/unix_io.c).
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

/* Whether any process is in group pgid, or the task pid exists. tasks_lock held. */
static bool
owner_exists(int who)
{
	struct list_head *pos;

	if (who > 0)
		return task_find(who) != NULL;
	list_for_each(pos, &all_tasks) {
		struct task *p = list_entry(pos, struct task, all_link);
		if (p == p->group_leader && p->pgid == -who)
			return true;
	}
	return false;
}

long
f_setown(struct file *f, unsigned long arg)
{
	int who = (int)arg;
	struct id_set ids = current_uids();

	if (who == INT32_MIN)
		return -EINVAL; /* its group would overflow, as Linux */
	u64 flags = spin_lock_irqsave(&tasks_lock);
	long ret = who && !owner_exists(who) ? -ESRCH : 0;
	if (!ret)
		f->owner = (struct fown){ who, ids.real, ids.effective };
	spin_unlock_irqrestore(&tasks_lock, flags);
	return ret;
}

long
f_getown(struct file *f)
{
	u64 flags = spin_lock_irqsave(&tasks_lock);
	int who = f->owner.pid;

	spin_unlock_irqrestore(&tasks_lock, flags);
	return who;
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

	if (o.pid > 0) {
		struct task *t = task_find(o.pid);
		struct task *p = t ? t->group_leader : NULL;
		if (p && p->sighand && owner_may_signal(&o, p))
			signal_send_process(p, &info);
	}
	for (pos = all_tasks.next; o.pid < 0 && pos != &all_tasks; pos = pos->next) {
		struct task *p = list_entry(pos, struct task, all_link);
		if (p == p->group_leader && p->sighand && p->pgid == -o.pid &&
		    owner_may_signal(&o, p))
			signal_send_process(p, &info);
	}
	spin_unlock_irqrestore(&tasks_lock, flags);
}
