/*
 * mqueue.c - POSIX message queues (Linux's ipc/mqueue.c): mq_open,
 * mq_unlink, mq_timedsend, mq_timedreceive, mq_notify, mq_getsetattr.
 *
 * A queue is an inode of the mqueue file system whose private data is a
 * struct mqueue: messages of up to msgsize bytes, at most maxmsg of them,
 * each with a priority; a receiver takes the oldest of the highest
 * priority. A queue descriptor is an open file on that inode, so close,
 * dup, fork, poll, select and epoll work on it as on any file, and read()
 * shows Linux's "QSIZE:..." line. The name table (struct mq_namespace,
 * ipc/mqueue.h) holds one reference on each named queue's inode; mq_unlink
 * drops it, and the queue goes with its last open descriptor.
 *
 * A sender that finds the queue full and a receiver that finds it empty
 * sleep on the queue's one wait queue, which every change wakes (pollers
 * too); each looks again. The sleep ends for room or a message, a signal
 * (EINTR, or a restart after a stop), a kill, O_NONBLOCK (EAGAIN at once)
 * or the absolute CLOCK_REALTIME deadline (ETIMEDOUT).
 *
 * mq_notify registers one process to hear, once, of a message arriving
 * in the empty queue while no receiver waits: by a signal (SIGEV_SIGNAL,
 * si_code SI_MESGQ) or by nothing (SIGEV_NONE). SIGEV_THREAD names a
 * netlink socket for the kernel to write to; rewind has no netlink, so
 * it answers as Linux does for a descriptor that is not one (ENOTSOCK,
 * EINVAL) and libc's SIGEV_THREAD fails earlier, at its socket() call.
 *
 * RLIMIT_MSGQUEUE bounds the bytes a user's queues may hold at their
 * fullest, charged to the creator's real user when the queue is made
 * (maxmsg times the message size plus the kernel's header per message).
 */
#include "ipc/mqueue.h"
#include "fs/unix.h"
#include "fs/vfs.h"
#include "kernel/process/cred.h"
#include "kernel/process/rlimit.h"
#include "kernel/process/task.h"
#include "kernel/process/user_count.h"
#include "kernel/sched/sched.h"
#include "kernel/signal/signal.h"
#include "kernel/syscall/syscall.h"
#include "kernel/time/timekeeping.h"
#include "kernel/vdso/vvar.h"
#include "kernel/lib/string.h"
#include "kernel/lib/vsprintf.h"
#include "kernel/time/clock.h"
#include "kernel/time/time64.h"
#include "mm/kmalloc.h"
#include "uapi/magic.h"
#include "uapi/mqueue.h"
#include "uapi/netlink.h"
#include "uapi/resource.h"
#include "uapi/time.h"

struct mq_msg {
	struct list_head link;
	unsigned prio;
	size_t size;
	char text[];
};

struct mqueue {
	struct list_head link; /* in the namespace's queues while it has a name */
	struct mq_namespace *ns;
	struct inode *inode;
	char name[NAME_MAX + 1];
	struct mutex lock; /* all below */
	struct wait_queue wq;
	struct list_head messages; /* highest priority first, oldest first within one */
	long maxmsg, msgsize, curmsgs;
	unsigned long qsize; /* bytes of text queued: QSIZE */
	unsigned receivers;  /* sleeping in mq_timedreceive: a notification waits for none */
	int notify_owner;    /* the registered process (tgid), 0 for none */
	struct kernel_sigevent notify;
	/* SIGEV_THREAD's: the netlink socket (referenced) that hears the cookie */
	struct unix_sock *notify_sock;
	char notify_cookie[NOTIFY_COOKIE_LEN];
	struct user_charge charge; /* RLIMIT_MSGQUEUE's user */
	unsigned long charged;
};

struct mq_namespace mq_init_ns = {
	.lock = MUTEX_INIT(mq_init_ns.lock, "mq_names"),
	.queues = LIST_HEAD_INIT(mq_init_ns.queues),
	.queues_max = 256,
	.msg_max = 10,
	.msgsize_max = 8192,
	.msg_default = 10,
	.msgsize_default = 8192,
};

static const struct file_operations mqueue_fops;
static const struct inode_operations mqueue_iops;

/* The queue behind an open file, or NULL when it is not a queue descriptor. */
static struct mqueue *
file_queue(struct file *f)
{
	return f->inode->fops == &mqueue_fops ? f->inode->private : NULL;
}

/* ---- names ------------------------------------------------------------------ */

/* A queue name after libc took its '/': ENAMETOOLONG past NAME_MAX, EACCES for "", ".", ".." or a '/'. */
static int
check_name(const char *name)
{
	size_t len = strlen(name);

	if (len > NAME_MAX)
		return -ENAMETOOLONG;
	if (len == 0 || strcmp(name, ".") == 0 || strcmp(name, "..") == 0 || strchr(name, '/'))
		return -EACCES;
	return 0;
}

/* The named queue, ns->lock held; NULL if none. */
static struct mqueue *
find_queue(struct mq_namespace *ns, const char *name)
{
	struct list_head *pos;

	list_for_each(pos, &ns->queues) {
		struct mqueue *q = list_entry(pos, struct mqueue, link);
		if (strcmp(q->name, name) == 0)
			return q;
	}
	return NULL;
}

struct inode *
mq_name_inode(struct mq_namespace *ns, const char *name)
{
	mutex_lock(&ns->lock);
	struct mqueue *q = find_queue(ns, name);
	struct inode *inode = q ? inode_get(q->inode) : NULL;
	mutex_unlock(&ns->lock);
	return inode;
}

bool
mq_nth_name(struct mq_namespace *ns, u64 n, char name[NAME_MAX + 1], u64 *ino)
{
	struct list_head *pos;
	bool found = false;

	mutex_lock(&ns->lock);
	list_for_each(pos, &ns->queues) {
		struct mqueue *q = list_entry(pos, struct mqueue, link);
		if (n-- == 0) {
			memcpy(name, q->name, strlen(q->name) + 1);
			*ino = q->inode->ino;
			found = true;
			break;
		}
	}
	mutex_unlock(&ns->lock);
	return found;
}

/* ---- making and freeing a queue --------------------------------------------- */

/* Linux's mq_attr_ok: 0, -EINVAL (out of the limits; root's are the hard ones) or -EOVERFLOW. */
static int
check_attr(struct mq_namespace *ns, const struct kernel_mq_attr *attr)
{
	bool resource = capable(CAP_SYS_RESOURCE);
	unsigned long max_msg = resource ? MQ_HARD_MSGMAX : READ_ONCE(ns->msg_max);
	unsigned long max_size = resource ? MQ_HARD_MSGSIZEMAX : READ_ONCE(ns->msgsize_max);

	if (attr->mq_maxmsg <= 0 || attr->mq_msgsize <= 0)
		return -EINVAL;
	if ((unsigned long)attr->mq_maxmsg > max_msg || (unsigned long)attr->mq_msgsize > max_size)
		return -EINVAL;
	return 0;
}

/* Charges q's bytes at its fullest to the caller's real user: 0 or -EMFILE past RLIMIT_MSGQUEUE. */
static int
charge_queue(struct mqueue *q)
{
	unsigned long bytes = (unsigned long)q->maxmsg * (sizeof(struct mq_msg) + q->msgsize);

	q->charge = USER_CHARGE(current_uids().real);
	if (user_count_add(&q->charge, USER_MQ_BYTES, (long)bytes) > rlimit(RLIMIT_MSGQUEUE)) {
		user_count_add(&q->charge, USER_MQ_BYTES, -(long)bytes);
		return -EMFILE;
	}
	q->charged = bytes;
	return 0;
}

/* The last reference to the queue's inode is gone: its messages, charge and count go. */
static void
mqueue_evict(struct inode *inode)
{
	struct mqueue *q = inode->private;

	while (!list_empty(&q->messages)) {
		struct mq_msg *m = list_first_entry(&q->messages, struct mq_msg, link);
		list_del(&m->link);
		kfree(m);
	}
	if (q->charged)
		user_count_add(&q->charge, USER_MQ_BYTES, -(long)q->charged);
	if (q->notify_sock)
		netlink_notify(q->notify_sock, NULL, 0);
	__atomic_fetch_sub(&q->ns->queues_count, 1, __ATOMIC_RELAXED); /* ns->lock may be held */
	kfree(q);
}

/*
 * A new named queue (ns->lock held): its inode holds the name's reference.
 * -ENOSPC past queues_max (root is not bound), -EINVAL for attributes out
 * of bounds, -EMFILE past RLIMIT_MSGQUEUE, -ENOMEM.
 */
static int
create_queue(struct mq_namespace *ns, const char *name, u32 mode, const struct kernel_mq_attr *attr,
	     struct mqueue **out)
{
	int err = attr ? check_attr(ns, attr) : 0;

	if (err)
		return err;
	if (READ_ONCE(ns->queues_count) >= READ_ONCE(ns->queues_max) && !capable(CAP_SYS_RESOURCE))
		return -ENOSPC;
	struct super_block *sb = ns->sb;
	struct mqueue *q = sb ? kzalloc(sizeof(*q)) : NULL;
	struct inode *inode =
		q ? inode_alloc(sb, S_IFREG | (mode & 0777), &mqueue_iops, &mqueue_fops) : NULL;
	if (!inode) {
		kfree(q);
		return -ENOMEM;
	}
	q->ns = ns;
	q->inode = inode;
	memcpy(q->name, name, strlen(name) + 1);
	mutex_init(&q->lock, "mqueue");
	wait_queue_init(&q->wq);
	list_init(&q->messages);
	q->maxmsg = attr ? attr->mq_maxmsg
			 : (long)MIN(READ_ONCE(ns->msg_max), READ_ONCE(ns->msg_default));
	q->msgsize = attr ? attr->mq_msgsize
			  : (long)MIN(READ_ONCE(ns->msgsize_max), READ_ONCE(ns->msgsize_default));
	inode->private = q;
	inode->uid = current_fsuid();
	inode->gid = current_fsgid();
	__atomic_fetch_add(&ns->queues_count, 1, __ATOMIC_RELAXED);
	err = charge_queue(q);
	if (err) {
		inode_put(inode);
		return err;
	}
	list_add_tail(&q->link, &ns->queues);
	*out = q;
	return 0;
}

/* Takes q's name away (ns->lock held): the name's reference on the inode goes. */
static void
unlink_queue(struct mqueue *q)
{
	list_del(&q->link);
	list_init(&q->link);
	inode_put(q->inode);
}

/* ---- mq_open and mq_unlink ---------------------------------------------------- */

/* May the caller open the existing q as oflag asks (Linux's prepare_open): 0 or -errno. */
static int
may_open_queue(struct mqueue *q, int oflag)
{
	static const u32 want[3] = { MAY_READ, MAY_WRITE, MAY_READ | MAY_WRITE };

	if ((oflag & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL))
		return -EEXIST;
	if ((oflag & O_ACCMODE) == O_ACCMODE)
		return -EINVAL;
	return inode_permission(q->inode, want[oflag & O_ACCMODE]);
}

/* The queue name names, made if O_CREAT asks: a file on it, referenced, in *out. */
static int
open_queue(struct mq_namespace *ns, const char *name, int oflag, u32 mode,
	   const struct kernel_mq_attr *attr, bool *created, struct file **out)
{
	struct mqueue *q;
	int err = 0;

	mutex_lock(&ns->lock);
	q = find_queue(ns, name);
	*created = !q;
	if (q)
		err = may_open_queue(q, oflag);
	else if (!(oflag & O_CREAT))
		err = -ENOENT;
	else
		err = create_queue(ns, name, mode & ~current_umask(), attr, &q);
	if (!err) {
		*out = file_alloc(q->inode, NULL, (u32)oflag & (O_ACCMODE | O_NONBLOCK));
		if (!*out)
			err = -ENOMEM;
	}
	if (err && *created && q) /* made but not opened: it goes again */
		unlink_queue(q);
	mutex_unlock(&ns->lock);
	return err;
}

static long
do_mq_open(const char __user *uname, int oflag, u32 mode, const struct kernel_mq_attr *attr)
{
	struct mq_namespace *ns = &mq_init_ns;
	char *name;
	struct file *f;
	bool created;
	int err = getname(uname, &name);

	if (err)
		return err;
	err = check_name(name);
	if (!err)
		err = open_queue(ns, name, oflag, mode, attr, &created, &f);
	if (err) {
		putname(name);
		return err;
	}
	int fd = fd_alloc(f, 0, oflag & O_CLOEXEC);
	if (fd < 0 && created) { /* EMFILE: as Linux, which takes the fd first, nothing is made */
		mutex_lock(&ns->lock);
		struct mqueue *q = find_queue(ns, name);
		if (q && q == file_queue(f))
			unlink_queue(q);
		mutex_unlock(&ns->lock);
	}
	if (fd < 0)
		file_put(f);
	putname(name);
	return fd;
}

SYSCALL4(mq_open, const char __user *, name, int, oflag, u32, mode,
	 const struct kernel_mq_attr __user *, uattr)
{
	struct kernel_mq_attr attr;

	if (uattr && copy_from_user(&attr, uattr, sizeof(attr)))
		return -EFAULT;
	return do_mq_open(name, oflag, mode, (oflag & O_CREAT) && uattr ? &attr : NULL);
}

/* Whether the caller may take q's name: the queue directory is sticky and world-writable. */
static int
may_unlink_queue(struct mqueue *q)
{
	return q->inode->uid == current_fsuid() || capable(CAP_FOWNER) ? 0 : -EACCES;
}

int
mq_unlink_name(struct mq_namespace *ns, const char *name)
{
	mutex_lock(&ns->lock);
	struct mqueue *q = find_queue(ns, name);
	int err = q ? may_unlink_queue(q) : -ENOENT;
	if (!err)
		unlink_queue(q);
	mutex_unlock(&ns->lock);
	return err;
}

SYSCALL1(mq_unlink, const char __user *, uname)
{
	char *name;
	int err = getname(uname, &name);

	if (err)
		return err;
	err = check_name(name);
	if (!err)
		err = mq_unlink_name(&mq_init_ns, name);
	putname(name);
	return err;
}

/* ---- sleeping --------------------------------------------------------------- */

/* The CLOCK_MONOTONIC ns an absolute CLOCK_REALTIME timespec stands for: 0, -EFAULT, -EINVAL. */
static int
read_deadline(const struct kernel_timespec __user *uts, u64 *deadline)
{
	struct kernel_timespec ts;
	u64 ns;

	if (copy_from_user(&ts, uts, sizeof(ts)))
		return -EFAULT;
	int err = timespec_to_ns(&ts, &ns);
	if (err)
		return err;
	s64 offset = timekeeping_realtime_offset_ns(); /* a wall-clock instant before boot: past */
	*deadline = offset > 0 && ns < (u64)offset ? 0 : ns - (u64)offset;
	return 0;
}

/*
 * Waits (q->lock held, let go while asleep) until ready(q): 0, -EAGAIN
 * for a non-blocking descriptor, -ETIMEDOUT past the deadline (NULL:
 * none), -ERESTARTSYS for a signal or a kill.
 */
static long
wait_until(struct mqueue *q, bool (*ready)(const struct mqueue *q), bool nonblock,
	   const u64 *deadline)
{
	for (;;) {
		if (ready(q))
			return 0;
		if (nonblock)
			return -EAGAIN;
		if (task_interrupted())
			return -ERESTARTSYS;
		u64 now = timekeeping_read_ns(VVAR_CLOCK_MONOTONIC);
		if (deadline && now >= *deadline)
			return -ETIMEDOUT;
		WAIT_ENTRY(we);
		prepare_to_wait(&q->wq, &we);
		mutex_unlock(&q->lock);
		if (deadline)
			schedule_timeout_ns(*deadline - now);
		else
			schedule();
		finish_wait(&q->wq, &we);
		mutex_lock(&q->lock);
	}
}

static bool
has_room(const struct mqueue *q)
{
	return q->curmsgs < q->maxmsg;
}

static bool
has_message(const struct mqueue *q)
{
	return q->curmsgs > 0;
}

/*
 * Ends q's registration (q->lock held). A SIGEV_THREAD one's socket is
 * returned, its cookie in cookie with the last byte saying why (Linux's
 * NOTIFY_WOKENUP or NOTIFY_REMOVED), for the caller to send once q->lock
 * is dropped (netlink_notify); NULL otherwise.
 */
static struct unix_sock *
end_registration(struct mqueue *q, char why, char cookie[NOTIFY_COOKIE_LEN])
{
	struct unix_sock *sock = q->notify_sock;

	if (sock) {
		memcpy(cookie, q->notify_cookie, NOTIFY_COOKIE_LEN);
		cookie[NOTIFY_COOKIE_LEN - 1] = why;
	}
	q->notify_owner = 0;
	q->notify_sock = NULL;
	return sock;
}

/*
 * The registered notification, once (q->lock held): the queue just got
 * its first message. A SIGEV_THREAD one's socket is returned to be sent
 * the cookie, as end_registration.
 */
static struct unix_sock *
notify_owner(struct mqueue *q, char cookie[NOTIFY_COOKIE_LEN])
{
	if (!q->notify_owner || q->curmsgs != 1 || q->receivers)
		return NULL;
	if (q->notify.sigev_notify == SIGEV_SIGNAL) {
		struct kernel_siginfo info = { .signo = q->notify.sigev_signo, .code = SI_MESGQ };
		info.kill.pid = current()->tgid;
		info.kill.uid = current_uids().real;
		info.kill.value = q->notify.sigev_value;
		u64 flags = spin_lock_irqsave(&tasks_lock);
		struct task *t = task_find(q->notify_owner);
		if (t && t->state != TASK_ZOMBIE && info.signo)
			signal_send_process(t, &info);
		spin_unlock_irqrestore(&tasks_lock, flags);
	}
	return end_registration(q, NOTIFY_WOKENUP, cookie);
}

/* ---- mq_timedsend and mq_timedreceive ------------------------------------------ */

/* The queue of descriptor fd open for fmode (FMODE_READ or FMODE_WRITE): else -EBADF. */
static struct mqueue *
queue_for(struct fd f, u32 fmode)
{
	if (!f.file || !file_queue(f.file) || !(f.file->fmode & fmode))
		return NULL;
	return file_queue(f.file);
}

/* Inserts m behind every message of its priority or higher (q->lock held). */
static void
enqueue(struct mqueue *q, struct mq_msg *m)
{
	struct list_head *pos;

	list_for_each(pos, &q->messages) {
		if (list_entry(pos, struct mq_msg, link)->prio < m->prio)
			break;
	}
	list_add_tail(&m->link, pos); /* before pos: after the last of higher or equal priority */
	q->curmsgs++;
	q->qsize += m->size;
}

static long
do_mq_timedsend(int mqdes, const char __user *umsg, size_t len, unsigned prio, const u64 *deadline)
{
	struct fd f = fdget(mqdes);
	struct mqueue *q = queue_for(f, FMODE_WRITE);
	long err = 0;

	if (!q) {
		fdput(f);
		return -EBADF;
	}
	if (len > (size_t)q->msgsize) {
		fdput(f);
		return -EMSGSIZE;
	}
	struct unix_sock *sock = NULL;
	char cookie[NOTIFY_COOKIE_LEN];
	struct mq_msg *m = kmalloc(sizeof(*m) + len);
	if (!m)
		err = -ENOMEM;
	else if (copy_from_user(m->text, umsg, len))
		err = -EFAULT;
	if (!err) {
		m->prio = prio;
		m->size = len;
		mutex_lock(&q->lock);
		err = wait_until(q, has_room, f.file->flags & O_NONBLOCK, deadline);
		if (!err) {
			enqueue(q, m);
			m = NULL;
			sock = notify_owner(q, cookie);
			inode_touch(q->inode);
			wake_up_all(&q->wq);
		}
		mutex_unlock(&q->lock);
	}
	if (sock)
		netlink_notify(sock, cookie, NOTIFY_COOKIE_LEN);
	kfree(m);
	fdput(f);
	return err;
}

SYSCALL5(mq_timedsend, int, mqdes, const char __user *, msg, size_t, len, unsigned, prio,
	 const struct kernel_timespec __user *, timeout)
{
	u64 deadline;

	if (prio >= MQ_PRIO_MAX)
		return -EINVAL;
	if (timeout) {
		int err = read_deadline(timeout, &deadline);
		if (err)
			return err;
	}
	return do_mq_timedsend(mqdes, msg, len, prio, timeout ? &deadline : NULL);
}

/* The oldest message of the highest priority, taken off q (which has one; q->lock held). */
static struct mq_msg *
dequeue(struct mqueue *q)
{
	struct mq_msg *m = list_first_entry(&q->messages, struct mq_msg, link);

	list_del(&m->link);
	q->curmsgs--;
	q->qsize -= m->size;
	return m;
}

static long
do_mq_timedreceive(int mqdes, char __user *umsg, size_t len, unsigned __user *uprio,
		   const u64 *deadline)
{
	struct fd f = fdget(mqdes);
	struct mqueue *q = queue_for(f, FMODE_READ);
	struct mq_msg *m = NULL;
	long ret;

	if (!q) {
		fdput(f);
		return -EBADF;
	}
	if (len < (size_t)q->msgsize) {
		fdput(f);
		return -EMSGSIZE;
	}
	mutex_lock(&q->lock);
	q->receivers++;
	ret = wait_until(q, has_message, f.file->flags & O_NONBLOCK, deadline);
	q->receivers--;
	if (!ret) {
		m = dequeue(q);
		inode_touch(q->inode);
		wake_up_all(&q->wq);
	}
	mutex_unlock(&q->lock);
	fdput(f);
	if (!m)
		return ret;
	ret = (long)m->size; /* a fault loses the message, as in Linux */
	if (copy_to_user(umsg, m->text, m->size) ||
	    (uprio && copy_to_user(uprio, &m->prio, sizeof(m->prio))))
		ret = -EFAULT;
	kfree(m);
	return ret;
}

SYSCALL5(mq_timedreceive, int, mqdes, char __user *, msg, size_t, len, unsigned __user *, prio,
	 const struct kernel_timespec __user *, timeout)
{
	u64 deadline;

	if (timeout) {
		int err = read_deadline(timeout, &deadline);
		if (err)
			return err;
	}
	return do_mq_timedreceive(mqdes, msg, len, prio, timeout ? &deadline : NULL);
}

/* ---- mq_notify and mq_getsetattr ------------------------------------------------ */

/* Linux's checks of a notification's kind and signal: 0 or -EINVAL. */
static int
check_notification(const struct kernel_sigevent *ev)
{
	switch (ev->sigev_notify) {
	case SIGEV_NONE:
	case SIGEV_THREAD:
		return 0;
	case SIGEV_SIGNAL:
		return (unsigned)ev->sigev_signo <= _NSIG ? 0 : -EINVAL;
	default:
		return -EINVAL;
	}
}

/*
 * SIGEV_THREAD's cookie (NOTIFY_COOKIE_LEN bytes at sigev_value) and its
 * netlink socket (the fd in sigev_signo), referenced, in Linux's order:
 * EFAULT, EBADF, ENOTSOCK, EINVAL for a socket of another family.
 */
static int
thread_socket(const struct kernel_sigevent *ev, char cookie[NOTIFY_COOKIE_LEN],
	      struct unix_sock **sock)
{
	if (copy_from_user(cookie, (const void __user *)ev->sigev_value, NOTIFY_COOKIE_LEN))
		return -EFAULT;
	struct fd f = fdget(ev->sigev_signo);
	if (!f.file)
		return -EBADF;
	int err;
	*sock = netlink_sock_of_file(f.file, &err);
	fdput(f);
	return err;
}

/*
 * Registers ev (sock and cookie for SIGEV_THREAD, taken over), or with
 * ev NULL removes the caller's registration: a SIGEV_THREAD one hears
 * NOTIFY_REMOVED.
 */
static long
do_mq_notify(int mqdes, const struct kernel_sigevent *ev, struct unix_sock *sock,
	     const char cookie[NOTIFY_COOKIE_LEN])
{
	struct fd f = fdget(mqdes);
	struct mqueue *q = f.file ? file_queue(f.file) : NULL;
	struct unix_sock *removed = NULL;
	char removed_cookie[NOTIFY_COOKIE_LEN];
	int me = current()->tgid;
	long err = 0;

	if (!q) {
		err = -EBADF;
		goto out;
	}
	mutex_lock(&q->lock);
	if (!ev) {
		if (q->notify_owner == me)
			removed = end_registration(q, NOTIFY_REMOVED, removed_cookie);
	} else if (q->notify_owner) {
		err = -EBUSY;
	} else {
		q->notify_owner = me;
		q->notify = *ev;
		if (sock) {
			q->notify_sock = sock;
			memcpy(q->notify_cookie, cookie, NOTIFY_COOKIE_LEN);
			sock = NULL;
		}
	}
	mutex_unlock(&q->lock);
out:
	fdput(f);
	if (sock)
		netlink_notify(sock, NULL, 0); /* not registered: dropped */
	if (removed)
		netlink_notify(removed, removed_cookie, NOTIFY_COOKIE_LEN);
	return err;
}

SYSCALL2(mq_notify, int, mqdes, const struct kernel_sigevent __user *, unotification)
{
	struct kernel_sigevent ev;
	struct unix_sock *sock = NULL;
	char cookie[NOTIFY_COOKIE_LEN];

	if (unotification) {
		if (copy_from_user(&ev, unotification, sizeof(ev)))
			return -EFAULT;
		int err = check_notification(&ev);
		if (!err && ev.sigev_notify == SIGEV_THREAD)
			err = thread_socket(&ev, cookie, &sock);
		if (err)
			return err;
	}
	return do_mq_notify(mqdes, unotification ? &ev : NULL, sock, cookie);
}

SYSCALL3(mq_getsetattr, int, mqdes, const struct kernel_mq_attr __user *, unew,
	 struct kernel_mq_attr __user *, uold)
{
	struct kernel_mq_attr new, old = { 0 };

	if (unew) {
		if (copy_from_user(&new, unew, sizeof(new)))
			return -EFAULT;
		if (new.mq_flags & ~(long)O_NONBLOCK)
			return -EINVAL;
	}
	struct fd f = fdget(mqdes);
	struct mqueue *q = f.file ? file_queue(f.file) : NULL;
	if (!q) {
		fdput(f);
		return -EBADF;
	}
	mutex_lock(&q->lock);
	old.mq_flags = f.file->flags & O_NONBLOCK;
	old.mq_maxmsg = q->maxmsg;
	old.mq_msgsize = q->msgsize;
	old.mq_curmsgs = q->curmsgs;
	if (unew)
		WRITE_ONCE(f.file->flags, (f.file->flags & ~O_NONBLOCK) | (u32) new.mq_flags);
	mutex_unlock(&q->lock);
	fdput(f);
	return uold && copy_to_user(uold, &old, sizeof(old)) ? -EFAULT : 0;
}

/* ---- the descriptor as a file ------------------------------------------------- */

/* Linux's line: bytes queued, and the notification registered (its kind, signal and process). */
static long
mqueue_read(struct file *f, char __user *buf, size_t n, u64 *pos)
{
	struct mqueue *q = file_queue(f);
	char line[96];

	mutex_lock(&q->lock);
	int owner = q->notify_owner;
	int len = kscnprintf(
		line, sizeof(line), "QSIZE:%-10lu NOTIFY:%-5d SIGNO:%-5d NOTIFY_PID:%-6d\n",
		q->qsize, owner ? q->notify.sigev_notify : 0,
		owner && q->notify.sigev_notify == SIGEV_SIGNAL ? q->notify.sigev_signo : 0, owner);
	mutex_unlock(&q->lock);
	if (*pos >= (u64)len)
		return 0;
	size_t count = MIN(n, (size_t)len - *pos);
	if (copy_to_user(buf, line + *pos, count))
		return -EFAULT;
	*pos += count;
	return (long)count;
}

static unsigned
mqueue_poll(struct file *f, struct poll_table *pt)
{
	struct mqueue *q = file_queue(f);

	poll_wait(f, &q->wq, pt);
	unsigned mask = 0;
	if (READ_ONCE(q->curmsgs))
		mask |= POLLIN | POLLRDNORM;
	if (READ_ONCE(q->curmsgs) < q->maxmsg)
		mask |= POLLOUT | POLLWRNORM;
	return mask;
}

/* The last descriptor of this open is gone: the notification it registered goes, as Linux's flush. */
static void
mqueue_release(struct file *f)
{
	struct mqueue *q = file_queue(f);

	struct unix_sock *sock = NULL;
	char cookie[NOTIFY_COOKIE_LEN];

	mutex_lock(&q->lock);
	if (q->notify_owner == current()->tgid)
		sock = end_registration(q, NOTIFY_REMOVED, cookie);
	mutex_unlock(&q->lock);
	if (sock)
		netlink_notify(sock, cookie, NOTIFY_COOKIE_LEN);
}

static const struct file_operations mqueue_fops = {
	.read = mqueue_read,
	.poll = mqueue_poll,
	.release = mqueue_release,
};

static const struct inode_operations mqueue_iops = { .evict = mqueue_evict };
