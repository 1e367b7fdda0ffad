/*
 * pidfd.c - process file descriptors (pidfd_open): an fd that names one
 * process for as long as it is open, immune to pid reuse, and that polls
 * readable once that process has exited (Linux's pidfd_open and
 * pidfd_poll), and through which a permitted caller may take a copy of
 * one of that process's open files (pidfd_getfd).
 *
 * Linux pins a struct pid; here a pidfd remembers the process's tgid and
 * the TSC of its start, a pair no later process repeats, and finds the
 * process again by them under tasks_lock. Every process's end wakes one
 * shared queue (pidfd_notify_exit); pollers recheck their own process.
 */
#include "kernel/process/pidfd.h"
#include "kernel/process/cred.h"
#include "kernel/process/task.h"
#include "kernel/sched/sched.h"
#include "kernel/syscall/syscall.h"
#include "fs/vfs.h"
#include "mm/kmalloc.h"
#include "uapi/errno.h"
#include "uapi/fcntl.h"
#include "uapi/poll.h"

struct pidfd {
	int tgid;
	u64 start_tsc;
};

static struct wait_queue process_exited = WAIT_QUEUE_INIT(process_exited);
static const struct file_operations pidfd_fops;

/* The process's leader, or NULL once it was reaped; tasks_lock held. */
static struct task *
pidfd_leader_locked(const struct pidfd *p)
{
	struct task *t = task_find(p->tgid);

	if (!t || t->group_leader != t || t->start_tsc != p->start_tsc)
		return NULL;
	return t;
}

int
pidfd_signal_target_locked(struct file *f, struct task **leader)
{
	if (f->ops == &pidfd_fops) {
		*leader = pidfd_leader_locked(f->private);
		return pidfd_pid(f);
	}
	u64 start;
	int tgid = proc_pid_dir_pid(f, &start);
	if (!tgid)
		return -EBADF;
	struct task *t = task_find(tgid);
	*leader = t && t->group_leader == t && t->start_tsc == start ? t : NULL;
	return tgid;
}

/* Readable once no thread of the process is alive; a reaped one hangs up too, as Linux 6.9. */
static unsigned
pidfd_poll(struct file *f, struct poll_table *pt)
{
	poll_wait(f, &process_exited, pt);
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct task *leader = pidfd_leader_locked(f->private);
	unsigned mask = 0;
	if (!leader)
		mask = POLLIN | POLLRDNORM | POLLHUP;
	else if (!leader->live_threads)
		mask = POLLIN | POLLRDNORM;
	spin_unlock_irqrestore(&tasks_lock, flags);
	return mask;
}

static void
pidfd_release(struct file *f)
{
	kfree(f->private);
}

static const struct file_operations pidfd_fops = {
	.poll = pidfd_poll,
	.release = pidfd_release,
	.name = "[pidfd]",
};

void
pidfd_notify_exit(void)
{
	wake_up_all(&process_exited);
}

int
pidfd_pid(struct file *f)
{
	return f->ops == &pidfd_fops ? ((struct pidfd *)f->private)->tgid : 0;
}

/* pid must name a process (a thread group's leader, as Linux without PIDFD_THREAD). */
SYSCALL2(pidfd_open, int, pid, unsigned, flags)
{
	if (flags & ~PIDFD_NONBLOCK || pid <= 0)
		return -EINVAL;
	struct pidfd *p = kzalloc(sizeof(*p));
	if (!p)
		return -ENOMEM;
	u64 irq = spin_lock_irqsave(&tasks_lock);
	struct task *t = task_find(pid);
	if (t && t->group_leader == t) {
		p->tgid = t->tgid;
		p->start_tsc = t->start_tsc;
	}
	spin_unlock_irqrestore(&tasks_lock, irq);
	if (!p->tgid) {
		kfree(p);
		return -ESRCH;
	}
	int fd = anon_inode_getfd(&pidfd_fops, p, O_RDWR | O_CLOEXEC | (flags & PIDFD_NONBLOCK));
	if (fd < 0)
		kfree(p);
	return fd;
}

/*
 * A duplicate of another process's open file, as a debugger or a
 * supervisor takes it (Linux's pidfd_getfd): the caller must be allowed
 * to attach to that process as ptrace asks it, and the new fd is
 * close-on-exec. No flags are defined yet.
 */
SYSCALL3(pidfd_getfd, int, pidfd, int, targetfd, unsigned, flags)
{
	if (flags)
		return -EINVAL;
	struct file *pf = fd_get(pidfd);
	if (!pf || pf->ops != &pidfd_fops) {
		if (pf)
			file_put(pf);
		return -EBADF;
	}
	struct file *f = NULL;
	long err = 0;
	u64 irq = spin_lock_irqsave(&tasks_lock);
	struct task *t = pidfd_leader_locked(pf->private);
	if (!t)
		err = -ESRCH;
	else if (!task_may_inspect(t))
		err = -EPERM;
	else if (targetfd < 0 || !(f = task_file_get(t, (unsigned long)targetfd)))
		err = -EBADF;
	spin_unlock_irqrestore(&tasks_lock, irq);
	file_put(pf);
	if (err)
		return err;
	int fd = fd_alloc(f, 0, true);
	if (fd < 0)
		file_put(f);
	return fd;
}
