/*
 * inotify.c - inotify_init, inotify_init1, inotify_add_watch and
 * inotify_rm_watch: a file (on the anonymous inode, as eventfd) from which
 * a program reads what happens to the files and directories it watches.
 *
 * As Linux's fs/notify/inotify/: a watch is one instance's interest in one
 * inode (adding it again changes its mask and gives the same wd); the
 * hooks of fs/notify.c hand each event to the watches on its inode, which
 * queue a struct inotify_event for their instance. read() gives whole
 * events (EINVAL when the buffer cannot hold the next one) and waits for
 * one unless O_NONBLOCK; an event identical to the last one queued is
 * dropped; past max_queued_events one IN_Q_OVERFLOW (wd -1) ends the
 * queue; a file in O_ASYNC mode has its owner signalled (POLL_IN) as
 * each event is queued. A watch that goes - inotify_rm_watch, IN_ONESHOT after its
 * event, its inode's last name removed - queues IN_IGNORED. Each real
 * user may have max_user_instances instances (EMFILE) and
 * max_user_watches watches (ENOSPC), all three limits in
 * /proc/sys/fs/inotify (fs/proc/sysctl.c).
 *
 * A watch holds a reference on its inode, as Linux's mark connector
 * does, so that a watched inode whose dentries come and go (procfs) stays
 * watched. The watches are found by inode in a hash table, and the inode
 * only counts them (inode->watches, the hooks' test): struct inode stays
 * in its kmalloc size class. One spinlock guards the table, the counts,
 * every instance's watches and queue: events are rare beside the calls
 * that make them, and the hooks never take it while nobody watches.
 */
#include "fs/notify.h"
#include "fs/proc/text.h"
#include "kernel/lib/string.h"
#include "kernel/process/cred.h"
#include "kernel/sched/sched.h"
#include "kernel/syscall/syscall.h"
#include "mm/kmalloc.h"
#include "uapi/ioctls.h"

unsigned long inotify_max_queued_events = 16384;
unsigned long inotify_max_user_instances = 128;
unsigned long inotify_max_user_watches = 8192;

/* What a watch keeps of inotify_add_watch's mask (Linux's INOTIFY_USER_MASK). */
#define WATCH_BITS (IN_ALL_EVENTS | IN_ONESHOT | IN_EXCL_UNLINK)
/* Anything else in a mask is ignored, but a mask must have one of these (Linux's ALL_INOTIFY_BITS). */
#define ADD_WATCH_BITS                                                                           \
	(IN_ALL_EVENTS | IN_UNMOUNT | IN_Q_OVERFLOW | IN_IGNORED | IN_ONLYDIR | IN_DONT_FOLLOW | \
	 IN_EXCL_UNLINK | IN_MASK_CREATE | IN_MASK_ADD | IN_ISDIR | IN_ONESHOT)

struct queued_event {
	struct list_head link;		/* in its instance's queue */
	struct kernel_inotify_event ev; /* ev.len: the name's bytes, NUL-padded */
	char name[];
};

struct inotify {
	struct list_head link;	       /* in instances */
	u32 uid;		       /* the real uid that made it: whose limits it counts in */
	struct list_head queue;	       /* queued_events, oldest first */
	unsigned queued;	       /* the overflow event included */
	unsigned max_queued;	       /* max_queued_events when it was made, as Linux */
	unsigned bytes;		       /* what reading the whole queue gives (FIONREAD) */
	struct queued_event *overflow; /* IN_Q_OVERFLOW, in the queue at most once */
	struct list_head watches;      /* struct watch, by wd */
	unsigned nr_watches;
	int last_wd;
	struct wait_queue wq;	 /* readers, poll and epoll */
	struct list_head fasync; /* its file if in O_ASYNC mode (fs/fasync.c) */
};

struct watch {
	struct hlist_node inode_link; /* in its inode's bucket of watch_table */
	struct list_head link;	      /* in its instance's watches; then on a list to free */
	struct inotify *in;
	struct inode *inode; /* referenced */
	int wd;
	u32 mask; /* WATCH_BITS */
};

static struct spinlock inotify_lock = SPINLOCK_INIT("inotify");
#define WATCH_TABLE_SIZE 256
static struct hlist_head watch_table[WATCH_TABLE_SIZE];
static struct list_head instances = LIST_HEAD_INIT(instances);
static const struct file_operations inotify_fops;

/* ---- the queue ------------------------------------------------------------- */

/* A name's bytes in the record: NUL-terminated, padded to the record's size (Linux's). */
static u32
padded_len(size_t len)
{
	return len ? ALIGN_UP((u32)len + 1, (u32)sizeof(struct kernel_inotify_event)) : 0;
}

static unsigned
record_size(const struct queued_event *e)
{
	return sizeof(e->ev) + e->ev.len;
}

/* Whether the newest event in in's queue says the same (Linux's inotify_merge). */
static bool
same_as_last(struct inotify *in, int wd, u32 mask, const char *name, size_t len)
{
	if (list_empty(&in->queue))
		return false;
	struct queued_event *last = list_entry(in->queue.prev, struct queued_event, link);
	if (last->ev.mask & IN_IGNORED || last->ev.mask != mask || last->ev.wd != wd ||
	    last->ev.len != padded_len(len))
		return false;
	return !len || (memcmp(last->name, name, len) == 0 && last->name[len] == '\0');
}

/* A new event, or NULL (then the queue overflows, as Linux's does when memory is short). */
static struct queued_event *
event_new(int wd, u32 mask, u32 cookie, const char *name, size_t len)
{
	u32 padded = padded_len(len);
	struct queued_event *e = kzalloc(sizeof(*e) + padded);

	if (e) {
		e->ev = (struct kernel_inotify_event){ wd, mask, cookie, padded };
		memcpy(e->name, name, len);
	}
	return e;
}

/* Queues an event for in (inotify_lock held) and wakes its readers. */
static void
queue_event(struct inotify *in, int wd, u32 mask, u32 cookie, const char *name, size_t len)
{
	struct queued_event *e = NULL;

	if (in->queued < in->max_queued) {
		if (same_as_last(in, wd, mask, name, len))
			return;
		e = event_new(wd, mask, cookie, name, len);
	}
	if (!e) {
		e = in->overflow;
		if (!list_empty(&e->link))
			return;
	}
	list_add_tail(&e->link, &in->queue);
	in->queued++;
	in->bytes += record_size(e);
	wake_up_all(&in->wq);
	kill_fasync(&in->fasync, POLL_IN);
}

static void
event_free(struct inotify *in, struct queued_event *e)
{
	if (e != in->overflow)
		kfree(e);
}

/* ---- watches ------------------------------------------------------------- */

/* Where inode's watches are, among others'. Inodes are 256-byte kmalloc objects. */
static struct hlist_head *
watches_of(const struct inode *inode)
{
	uintptr_t p = (uintptr_t)inode >> 8;

	return &watch_table[(p ^ (p >> 8)) % WATCH_TABLE_SIZE];
}

/*
 * Takes w off its inode and instance (inotify_lock held) onto doomed, for
 * watches_free once the lock is dropped; ignored: tell the instance.
 */
static void
watch_detach(struct watch *w, bool ignored, struct list_head *doomed)
{
	struct inotify *in = w->in;

	hlist_del(&w->inode_link);
	__atomic_sub_fetch(&w->inode->watches, 1, __ATOMIC_RELAXED); /* dnotify counts too */
	list_del(&w->link);
	in->nr_watches--;
	if (S_ISDIR(w->inode->mode))
		__atomic_sub_fetch(&notify_wide_watches, 1, __ATOMIC_RELAXED);
	if (ignored)
		queue_event(in, w->wd, IN_IGNORED, 0, NULL, 0);
	list_add_tail(&w->link, doomed);
}

/* Frees detached watches, dropping their inodes (no lock held: an inode may go). */
static void
watches_free(struct list_head *doomed)
{
	while (!list_empty(doomed)) {
		struct watch *w = list_first_entry(doomed, struct watch, link);
		list_del(&w->link);
		inode_put(w->inode);
		kfree(w);
	}
}

/*
 * IN_MOVE_SELF and IN_DELETE_SELF never carry IN_ISDIR in inotify: Linux
 * leaves it out of them so as not to surprise programs older than the flag.
 */
static u32
reported_mask(u32 mask)
{
	return mask & (IN_MOVE_SELF | IN_DELETE_SELF) ? mask & ~IN_ISDIR : mask;
}

void
inotify_deliver(struct inode *inode, u32 mask, u32 cookie, const char *name, size_t len,
		bool child_unlinked)
{
	struct list_head doomed = LIST_HEAD_INIT(doomed);
	struct hlist_node *n, *next;

	spin_lock(&inotify_lock);
	for (n = watches_of(inode)->first; n; n = next) {
		struct watch *w = container_of(n, struct watch, inode_link);
		next = n->next;
		if (w->inode != inode || !(w->mask & mask & IN_ALL_EVENTS))
			continue;
		if (name && child_unlinked && (w->mask & IN_EXCL_UNLINK))
			continue;
		queue_event(w->in, w->wd, reported_mask(mask), cookie, name, len);
		if (w->mask & IN_ONESHOT)
			watch_detach(w, true, &doomed);
	}
	spin_unlock(&inotify_lock);
	watches_free(&doomed);
}

void
inotify_inode_removed(struct inode *inode)
{
	struct list_head doomed = LIST_HEAD_INIT(doomed);
	struct hlist_node *n, *next;

	spin_lock(&inotify_lock);
	for (n = watches_of(inode)->first; n; n = next) {
		struct watch *w = container_of(n, struct watch, inode_link);
		next = n->next;
		if (w->inode != inode)
			continue;
		if (w->mask & IN_DELETE_SELF)
			queue_event(w->in, w->wd, IN_DELETE_SELF, 0, NULL, 0);
		watch_detach(w, true, &doomed);
	}
	spin_unlock(&inotify_lock);
	watches_free(&doomed);
}

/* in's watch on inode, or NULL (inotify_lock held). */
static struct watch *
watch_on(struct inotify *in, struct inode *inode)
{
	struct hlist_node *n;

	hlist_for_each(n, watches_of(inode))
	{
		struct watch *w = container_of(n, struct watch, inode_link);
		if (w->inode == inode && w->in == in)
			return w;
	}
	return NULL;
}

/* The watches of uid's instances (inotify_lock held): what max_user_watches limits. */
static unsigned long
watches_of_user(u32 uid)
{
	unsigned long n = 0;
	struct list_head *pos;

	list_for_each(pos, &instances) {
		struct inotify *in = list_entry(pos, struct inotify, link);
		if (in->uid == uid)
			n += in->nr_watches;
	}
	return n;
}

/* Adds in's watch on inode, or changes its mask: the wd, or -EEXIST, -ENOSPC, -ENOMEM. */
static long
watch_update(struct inotify *in, struct inode *inode, u32 mask)
{
	struct watch *fresh = kzalloc(sizeof(*fresh));
	long ret;

	if (!fresh)
		return -ENOMEM;
	spin_lock(&inotify_lock);
	struct watch *w = watch_on(in, inode);
	if (w && (mask & IN_MASK_CREATE)) {
		ret = -EEXIST;
	} else if (w) {
		w->mask = (mask & WATCH_BITS) | (mask & IN_MASK_ADD ? w->mask : 0);
		ret = w->wd;
	} else if (watches_of_user(in->uid) >= READ_ONCE(inotify_max_user_watches) ||
		   inode->watches == UINT16_MAX) {
		ret = -ENOSPC;
	} else {
		*fresh = (struct watch){ .in = in,
					 .inode = inode_get(inode),
					 .mask = mask & WATCH_BITS };
		fresh->wd = ++in->last_wd;
		list_add_tail(&fresh->link, &in->watches);
		in->nr_watches++;
		if (S_ISDIR(inode->mode))
			__atomic_add_fetch(&notify_wide_watches, 1, __ATOMIC_RELAXED);
		hlist_add_head(&fresh->inode_link, watches_of(inode));
		__atomic_add_fetch(&inode->watches, 1, __ATOMIC_RELAXED);
		ret = fresh->wd;
		fresh = NULL;
	}
	spin_unlock(&inotify_lock);
	kfree(fresh);
	return ret;
}

/* ---- the file ------------------------------------------------------------- */

/* Takes in's oldest event if it fits in room: 1 taken, 0 none queued, -EINVAL too big. */
static int
take_event(struct inotify *in, size_t room, struct queued_event **out)
{
	int ret = 0;

	spin_lock(&inotify_lock);
	if (!list_empty(&in->queue)) {
		struct queued_event *e = list_first_entry(&in->queue, struct queued_event, link);
		if (record_size(e) > room) {
			ret = -EINVAL;
		} else {
			list_del(&e->link);
			in->queued--;
			in->bytes -= record_size(e);
			*out = e;
			ret = 1;
		}
	}
	spin_unlock(&inotify_lock);
	return ret;
}

static long
inotify_read(struct file *f, char __user *buf, size_t n, u64 *pos)
{
	struct inotify *in = f->private;
	size_t done = 0;

	for (;;) {
		struct queued_event *e;
		int got = take_event(in, n - done, &e);
		if (got == 1) {
			unsigned size = record_size(e);
			bool fault = copy_to_user(buf + done, &e->ev, sizeof(e->ev)) ||
				     copy_to_user(buf + done + sizeof(e->ev), e->name, e->ev.len);
			event_free(in, e);
			if (fault)
				return -EFAULT; /* the event is lost, as in Linux */
			done += size;
			continue;
		}
		if (done)
			return (long)done;
		if (got < 0)
			return got;
		/* Empty: wait, then take again (another reader may have been first). */
		long ret =
			wait_event_nonblock(&in->wq, f->flags & O_NONBLOCK, READ_ONCE(in->queued));
		if (ret)
			return ret;
	}
}

static unsigned
inotify_poll(struct file *f, struct poll_table *pt)
{
	struct inotify *in = f->private;

	poll_wait(f, &in->wq, pt);
	return READ_ONCE(in->queued) ? POLLIN | POLLRDNORM : 0;
}

static long
inotify_ioctl(struct file *f, unsigned cmd, unsigned long arg)
{
	struct inotify *in = f->private;

	if (cmd != FIONREAD)
		return -ENOTTY;
	int bytes = (int)READ_ONCE(in->bytes);
	return copy_to_user((void __user *)arg, &bytes, sizeof(bytes)) ? -EFAULT : 0;
}

static void
inotify_free(struct inotify *in)
{
	while (!list_empty(&in->queue)) {
		struct queued_event *e = list_first_entry(&in->queue, struct queued_event, link);
		list_del(&e->link);
		event_free(in, e);
	}
	kfree(in->overflow);
	kfree(in);
}

/* The last close: the watches go without IN_IGNORED, for nobody can read it. */
static void
inotify_release(struct file *f)
{
	struct inotify *in = f->private;
	struct list_head doomed = LIST_HEAD_INIT(doomed);

	spin_lock(&inotify_lock);
	while (!list_empty(&in->watches))
		watch_detach(list_first_entry(&in->watches, struct watch, link), false, &doomed);
	list_del(&in->link);
	spin_unlock(&inotify_lock);
	watches_free(&doomed);
	inotify_free(in);
}

static int
inotify_fasync(int fd, struct file *f, bool on)
{
	struct inotify *in = f->private;

	return fasync_helper(fd, f, on, &in->fasync);
}

/*
 * One /proc/<pid>/fdinfo line per watch, as Linux's inotify_show_fdinfo:
 * its wd, the inode and its device (st_dev's number), the mask kept. Linux
 * ends each with the inode's file handle; rewind has no file handles
 * (name_to_handle_at), so the line stops at ignored_mask.
 */
static void
inotify_show_fdinfo(struct file *f, struct procbuf *b)
{
	struct inotify *in = f->private;
	struct list_head *pos;

	spin_lock(&inotify_lock);
	list_for_each(pos, &in->watches) {
		struct watch *w = list_entry(pos, struct watch, link);
		procbuf_printf(b, "inotify wd:%x ino:%lx sdev:%x mask:%x ignored_mask:0\n", w->wd,
			       (unsigned long)w->inode->ino, (unsigned)w->inode->sb->dev, w->mask);
	}
	spin_unlock(&inotify_lock);
}

static const struct file_operations inotify_fops = {
	.show_fdinfo = inotify_show_fdinfo,
	.read = inotify_read,
	.poll = inotify_poll,
	.ioctl = inotify_ioctl,
	.fasync = inotify_fasync,
	.release = inotify_release,
	.name = "inotify",
};

/* ---- the system calls ------------------------------------------------------ */

/* The instances uid has made (inotify_lock held): what max_user_instances limits. */
static unsigned long
instances_of_user(u32 uid)
{
	unsigned long n = 0;
	struct list_head *pos;

	list_for_each(pos, &instances)
		n += list_entry(pos, struct inotify, link)->uid == uid;
	return n;
}

/* A new instance counted in uid's, or NULL: *err says why. */
static struct inotify *
inotify_new(u32 uid, long *err)
{
	struct inotify *in = kzalloc(sizeof(*in));

	*err = -ENOMEM;
	if (!in || !(in->overflow = kzalloc(sizeof(*in->overflow)))) {
		kfree(in);
		return NULL;
	}
	in->uid = uid;
	list_init(&in->queue);
	list_init(&in->watches);
	wait_queue_init(&in->wq);
	list_init(&in->fasync);
	in->max_queued = (unsigned)READ_ONCE(inotify_max_queued_events);
	in->overflow->ev = (struct kernel_inotify_event){ .wd = -1, .mask = IN_Q_OVERFLOW };
	list_init(&in->overflow->link);
	spin_lock(&inotify_lock);
	bool room = instances_of_user(uid) < READ_ONCE(inotify_max_user_instances);
	if (room)
		list_add_tail(&in->link, &instances);
	spin_unlock(&inotify_lock);
	if (!room) {
		*err = -EMFILE;
		inotify_free(in);
		return NULL;
	}
	return in;
}

static long
do_inotify_init(int flags)
{
	long err;

	if (flags & ~(IN_CLOEXEC | IN_NONBLOCK))
		return -EINVAL;
	struct inotify *in = inotify_new(current_uids().real, &err);
	if (!in)
		return err;
	int fd = anon_inode_getfd(&inotify_fops, in, O_RDONLY | (u32)flags);
	if (fd < 0) {
		spin_lock(&inotify_lock);
		list_del(&in->link);
		spin_unlock(&inotify_lock);
		inotify_free(in);
	}
	return fd;
}

SYSCALL0(inotify_init)
{
	return do_inotify_init(0);
}

SYSCALL1(inotify_init1, int, flags)
{
	return do_inotify_init(flags);
}

/* The watch of inotify_add_watch once the instance is known: the wd or -errno. */
static long
add_watch_at(struct inotify *in, const char __user *upath, u32 mask)
{
	struct dentry *d;
	char *path;
	long err = getname(upath, &path);

	if (err)
		return err;
	err = path_lookup_at(AT_FDCWD, path, !(mask & IN_DONT_FOLLOW), &d);
	putname(path);
	if (err)
		return err;
	if ((mask & IN_ONLYDIR) && !S_ISDIR(d->inode->mode))
		err = -ENOTDIR;
	else
		err = inode_permission(d->inode, MAY_READ);
	if (!err)
		err = watch_update(in, d->inode, mask);
	dput(d);
	return err;
}

SYSCALL3(inotify_add_watch, int, fd, const char __user *, path, u32, mask)
{
	if ((mask & IN_MASK_ADD) && (mask & IN_MASK_CREATE))
		return -EINVAL;
	if (!(mask & ADD_WATCH_BITS))
		return -EINVAL;
	struct file *f = fd_get(fd);
	if (!f)
		return -EBADF;
	long ret = f->ops == &inotify_fops ? add_watch_at(f->private, path, mask) : -EINVAL;
	file_put(f);
	return ret;
}

SYSCALL2(inotify_rm_watch, int, fd, int, wd)
{
	struct list_head doomed = LIST_HEAD_INIT(doomed);
	struct file *f = fd_get(fd);
	long ret = -EINVAL;

	if (!f)
		return -EBADF;
	if (f->ops == &inotify_fops) {
		struct inotify *in = f->private;
		struct list_head *pos;
		spin_lock(&inotify_lock);
		list_for_each(pos, &in->watches) {
			struct watch *w = list_entry(pos, struct watch, link);
			if (w->wd == wd) {
				watch_detach(w, true, &doomed);
				ret = 0;
				break;
			}
		}
		spin_unlock(&inotify_lock);
	}
	file_put(f);
	watches_free(&doomed);
	return ret;
}
