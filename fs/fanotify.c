/*
 * fanotify.c - fanotify_init and fanotify_mark: a group (a file on the
 * anonymous inode) from which a listener reads what happens to the files
 * under its marks, each event with a file descriptor opened for the
 * object, as Linux's fs/notify/fanotify/.
 *
 * A mark is a group's interest in one inode (and, with
 * FAN_EVENT_ON_CHILD, a directory's children), in every file below a
 * mount's root, or in every file of a file-system instance; its ignored
 * mask says which events it suppresses, and a write (FAN_MODIFY) clears
 * that mask unless FAN_MARK_IGNORED_SURV_MODIFY kept it. The hooks of
 * fs/notify.c hand each open, read, write and close of a file here
 * (fanotify_file_event); read(2) gives whole struct
 * fanotify_event_metadata records, opening each event's file with the
 * group's event_f_flags (FMODE_NONOTIFY: the listener's own use makes no
 * events). An event is merged into a queued one about the same file by
 * the same process, as Linux's fanotify_merge; past max_queued one
 * FAN_Q_OVERFLOW ends the queue. Permission events are fs/fanotify_perm.c's.
 *
 * Where rewind differs: only the events that carry a file (the
 * FANOTIFY_PATH_EVENTS: open, open for exec, read, write, close) are
 * reported, for the fid reporting modes (FAN_REPORT_FID and its kin,
 * needed by the directory-entry events) are not built: fanotify_init
 * refuses them with EINVAL, as a Linux built without them would; a mount
 * mark covers every mount of its instance that shows the mark's files
 * (rewind's files do not record their mount); a truncate's FAN_MODIFY
 * is not told (it reaches notify_inode, without the file).
 *
 * Marks are few: the events look through every group's list of marks,
 * and only while there are marks (fanotify_marks). One spinlock guards
 * groups, marks, queues and permission events.
 */
#include "fs/fanotify.h"
#include "fs/fs.h"
#include "fs/mnt_namespace.h"
#include "fs/mount.h"
#include "fs/namei.h"
#include "fs/proc/text.h"
#include "kernel/process/cred.h"
#include "kernel/process/task.h"
#include "kernel/sched/sched.h"
#include "kernel/syscall/syscall.h"
#include "mm/kmalloc.h"
#include "uapi/ioctls.h"
#include "uapi/magic.h"

/* Linux's defaults (/proc/sys/fs/fanotify). */
#define MAX_QUEUED_EVENTS 16384
#define MAX_USER_GROUPS	  128
#define MAX_MARKS	  8192
/* How many events of its bucket a new event looks at to merge into (Linux's FANOTIFY_MAX_MERGE_EVENTS). */
#define MAX_MERGE_EVENTS 128

/* The events that carry a file, which rewind reports (Linux's FANOTIFY_PATH_EVENTS). */
#define PATH_EVENTS (FAN_ACCESS | FAN_MODIFY | FAN_CLOSE | FAN_OPEN | FAN_OPEN_EXEC)
/* Events a group that does not report fids cannot have (Linux's FANOTIFY_INODE_EVENTS and FAN_FS_ERROR). */
#define FID_EVENTS                                                                      \
	(FAN_MOVE | FAN_CREATE | FAN_DELETE | FAN_RENAME | FAN_ATTRIB | FAN_MOVE_SELF | \
	 FAN_DELETE_SELF | FAN_FS_ERROR)
#define EVENT_FLAGS (FAN_EVENT_ON_CHILD | FAN_ONDIR)
#define MARK_TYPES  (FAN_MARK_MOUNT | FAN_MARK_FILESYSTEM)
#define MARK_FLAGS                                                                               \
	(FAN_MARK_ADD | FAN_MARK_REMOVE | FAN_MARK_DONT_FOLLOW | FAN_MARK_ONLYDIR | MARK_TYPES | \
	 FAN_MARK_IGNORED_MASK | FAN_MARK_IGNORED_SURV_MODIFY | FAN_MARK_FLUSH)
#define FID_FLAGS                                                                        \
	(FAN_REPORT_FID | FAN_REPORT_DIR_FID | FAN_REPORT_NAME | FAN_REPORT_TARGET_FID | \
	 FAN_REPORT_PIDFD)
#define CLASSES (FAN_CLASS_CONTENT | FAN_CLASS_PRE_CONTENT)
/* What only CAP_SYS_ADMIN may ask of fanotify_init (Linux's FANOTIFY_ADMIN_INIT_FLAGS). */
#define ADMIN_INIT_FLAGS (CLASSES | FAN_REPORT_TID | FAN_UNLIMITED_QUEUE | FAN_UNLIMITED_MARKS)
#define INIT_FLAGS                                                                          \
	(FAN_CLOEXEC | FAN_NONBLOCK | CLASSES | FAN_UNLIMITED_QUEUE | FAN_UNLIMITED_MARKS | \
	 FAN_REPORT_TID | FID_FLAGS)
/* event_f_flags a group may give its events' files (Linux's FANOTIFY_INIT_ALL_EVENT_F_BITS). */
#define EVENT_F_FLAGS                                                                       \
	(O_ACCMODE | O_APPEND | O_NONBLOCK | __O_SYNC | O_DSYNC | O_CLOEXEC | O_LARGEFILE | \
	 O_NOATIME)

#define RECORD_SIZE ((unsigned)sizeof(struct kernel_fanotify_event_metadata))

struct fan_mark {
	struct list_head link;	/* in its group's marks */
	unsigned type;		/* 0 (an inode), FAN_MARK_MOUNT or FAN_MARK_FILESYSTEM */
	struct inode *inode;	/* an inode mark's, referenced */
	struct dentry *root;	/* a mount mark's: the mount's root, referenced */
	struct super_block *sb; /* a mount or filesystem mark's, referenced */
	u32 mask, ignored;
	bool survives_modify; /* FAN_MARK_IGNORED_SURV_MODIFY */
	bool asks_perm;	      /* counted in fanotify_perm_marks */
};

struct spinlock fanotify_lock = SPINLOCK_INIT("fanotify");
struct list_head fanotify_groups = LIST_HEAD_INIT(fanotify_groups);
u32 fanotify_marks;
static const struct file_operations fanotify_fops;

/* ---- which marks hear an event ------------------------------------------------ */

bool
fan_object_get(struct file *f, struct fan_object *o)
{
	if (f->fmode & (FMODE_PATH | FMODE_NONOTIFY))
		return false;
	*o = (struct fan_object){ .inode = f->inode,
				  .dentry = f->dentry,
				  .isdir = S_ISDIR(f->inode->mode) };
	if (f->dentry) {
		struct dentry *p = dget_parent(f->dentry);
		if (p != f->dentry) {
			o->parent_dentry = p;
			o->parent = p->inode;
		} else {
			dput(p);
		}
	}
	return true;
}

void
fan_object_put(struct fan_object *o)
{
	if (o->parent_dentry)
		dput(o->parent_dentry);
}

/*
 * Whether m covers o: as the object's own mark (*via_parent false), or as
 * the mark of the directory o is in (*via_parent true).
 */
static bool
mark_covers(const struct fan_mark *m, const struct fan_object *o, bool *via_parent)
{
	*via_parent = false;
	switch (m->type) {
	case FAN_MARK_INODE:
		*via_parent = m->inode == o->parent;
		return m->inode == o->inode || *via_parent;
	case FAN_MARK_MOUNT:
		return o->dentry && o->inode->sb == m->sb && dentry_is_ancestor(m->root, o->dentry);
	default:
		return o->inode->sb == m->sb;
	}
}

/*
 * Whether a mask (FAN_ONDIR, FAN_EVENT_ON_CHILD in it) applies to an
 * event about a directory, or to a child's heard by its parent's mark
 * (Linux's fsnotify_mask_applicable).
 */
static bool
applies(u32 mask, bool isdir, bool via_parent)
{
	if (isdir && !(mask & FAN_ONDIR))
		return false;
	return !via_parent || (mask & FAN_EVENT_ON_CHILD);
}

/*
 * The events m's ignored mask suppresses. FAN_MARK_IGNORED_MASK's mask
 * has no flags of its own: as Linux's legacy rule, it holds for
 * directories always, and for children when the mark hears them.
 */
static u32
ignored_by(const struct fan_mark *m, bool isdir, bool via_parent)
{
	if (!m->ignored)
		return 0;
	u32 flags = FAN_ONDIR | (m->mask & FAN_EVENT_ON_CHILD);
	return applies(m->ignored | flags, isdir, via_parent) ? m->ignored : 0;
}

u32
fan_group_mask(struct fan_group *g, const struct fan_object *o, u32 mask)
{
	u32 wanted = 0, ignored = 0;
	struct list_head *pos;

	list_for_each(pos, &g->marks) {
		struct fan_mark *m = list_entry(pos, struct fan_mark, link);
		bool via_parent;
		if (!mark_covers(m, o, &via_parent))
			continue;
		/* A write ends the ignoring, as Linux's send_to_group, before it is judged. */
		if ((mask & FAN_MODIFY) && !m->survives_modify)
			m->ignored = 0;
		ignored |= ignored_by(m, o->isdir, via_parent);
		if (applies(m->mask, o->isdir, via_parent))
			wanted |= m->mask;
	}
	return mask & wanted & ~ignored & ~EVENT_FLAGS;
}

/* ---- the queue ------------------------------------------------------------- */

static int
event_pid(const struct fan_group *g)
{
	return g->flags & FAN_REPORT_TID ? current()->pid : current()->tgid;
}

struct fan_event *
fan_event_new(struct fan_group *g, const struct fan_object *o, u32 mask)
{
	struct fan_event *e = kzalloc(sizeof(*e));

	if (e) {
		e->group = g;
		e->mask = mask;
		e->isdir = o->isdir;
		e->pid = event_pid(g);
		e->dentry = o->dentry ? dget(o->dentry) : NULL;
		list_init(&e->link);
		list_init(&e->merge_link);
		list_init(&e->asker_link);
	}
	return e;
}

/* The bucket of g's merge table where events about dentry by pid are. */
static struct list_head *
merge_bucket(struct fan_group *g, const struct dentry *dentry, int pid)
{
	uintptr_t p = (uintptr_t)dentry >> 6;

	return &g->merge[(p ^ (p >> 7) ^ (uintptr_t)pid) % MERGE_BUCKETS];
}

void
fan_event_free(struct fan_event *e)
{
	if (e == &e->group->overflow)
		return;
	if (e->dentry)
		dput(e->dentry);
	kfree(e);
}

bool
fan_queue(struct fan_group *g, struct fan_event *e)
{
	bool queued = g->queued < g->max_queued && e != &g->overflow;

	if (!queued) {
		e = &g->overflow;
		if (!list_empty(&e->link))
			return false;
	}
	list_add_tail(&e->link, &g->queue);
	if (e != &g->overflow && !(e->mask & FAN_PERM_EVENTS) && e->dentry)
		list_add(&e->merge_link, merge_bucket(g, e->dentry, e->pid));
	g->queued++;
	wake_up_all(&g->wq);
	return queued;
}

/*
 * Adds mask to a recent queued event about o by this process, if there
 * is one (fanotify_lock held), as Linux's fanotify_merge: never into a
 * permission event (they are not in the buckets).
 */
static bool
merged(struct fan_group *g, const struct fan_object *o, u32 mask)
{
	int pid = event_pid(g);
	unsigned looked = 0;
	struct list_head *bucket = merge_bucket(g, o->dentry, pid);

	if (!o->dentry)
		return false;
	for (struct list_head *pos = bucket->next; pos != bucket && looked < MAX_MERGE_EVENTS;
	     pos = pos->next, looked++) {
		struct fan_event *e = list_entry(pos, struct fan_event, merge_link);
		if (e->dentry == o->dentry && e->pid == pid && e->isdir == o->isdir) {
			e->mask |= mask;
			return true;
		}
	}
	return false;
}

void
fanotify_file_event(struct file *f, u32 in_mask)
{
	struct fan_object o;
	u32 mask = in_mask & PATH_EVENTS;

	if (!fan_object_get(f, &o))
		return;
	if ((mask & FAN_OPEN) && (f->fmode & FMODE_EXEC))
		mask |= FAN_OPEN_EXEC;
	spin_lock(&fanotify_lock);
	struct list_head *pos;
	list_for_each(pos, &fanotify_groups) {
		struct fan_group *g = list_entry(pos, struct fan_group, link);
		u32 m = fan_group_mask(g, &o, mask);
		if (!m || merged(g, &o, m))
			continue;
		struct fan_event *e = g->queued < g->max_queued ? fan_event_new(g, &o, m) : NULL;
		if (!e)
			e = &g->overflow; /* full, or no memory: the queue overflows */
		fan_queue(g, e);
	}
	spin_unlock(&fanotify_lock);
	fan_object_put(&o);
}

/* ---- the file ---------------------------------------------------------------- */

/* Takes g's oldest event if a record fits in room: 1 taken, 0 none queued, -EINVAL too small. */
static int
dequeue_event(struct fan_group *g, size_t room, struct fan_event **out)
{
	int ret = 0;

	spin_lock(&fanotify_lock);
	if (!list_empty(&g->queue)) {
		ret = -EINVAL;
		if (room >= RECORD_SIZE) {
			struct fan_event *e = list_first_entry(&g->queue, struct fan_event, link);
			list_del(&e->link);
			list_del(&e->merge_link);
			g->queued--;
			e->state = PERM_READING;
			*out = e;
			ret = 1;
		}
	}
	spin_unlock(&fanotify_lock);
	return ret;
}

/* The fd of e's file for the listener, or FAN_NOFD for none, or -errno. */
static int
event_fd(struct fan_group *g, struct fan_event *e)
{
	struct file *f;

	if (!e->dentry)
		return FAN_NOFD;
	int err = file_open_unnotified(e->dentry, g->event_f_flags & ~O_CLOEXEC, &f);
	return err ? err : fd_install_new(f, g->event_f_flags & O_CLOEXEC);
}

/* Copies e to buf, with an fd for its file: the record's size or -errno. */
static long
report(struct fan_group *g, struct fan_event *e, char __user *buf)
{
	int fd = event_fd(g, e);
	long ret = fd < 0 && fd != FAN_NOFD ? (long)fd : (long)RECORD_SIZE;

	if (ret > 0) {
		struct kernel_fanotify_event_metadata md = {
			.event_len = RECORD_SIZE,
			.vers = FANOTIFY_METADATA_VERSION,
			.metadata_len = RECORD_SIZE,
			.mask = e->mask,
			.fd = fd,
			.pid = e->pid,
		};
		if (copy_to_user(buf, &md, sizeof(md))) {
			if (fd >= 0)
				fd_close(fd);
			ret = -EFAULT;
		}
	}
	if (e->mask & FAN_PERM_EVENTS)
		fan_perm_reported(e, fd, ret > 0); /* refused when it could not be told */
	else
		fan_event_free(e);
	return ret;
}

static long
fanotify_read(struct file *f, char __user *buf, size_t n, u64 *pos)
{
	struct fan_group *g = f->private;
	size_t done = 0;

	for (;;) {
		struct fan_event *e;
		int got = dequeue_event(g, n - done, &e);
		if (got == 1) {
			long ret = report(g, e, buf + done);
			if (ret < 0)
				return done && ret != -EFAULT ? (long)done : ret;
			done += (size_t)ret;
			continue;
		}
		if (done)
			return (long)done;
		if (got < 0)
			return got;
		long ret = wait_event_nonblock(&g->wq, f->flags & O_NONBLOCK, READ_ONCE(g->queued));
		if (ret)
			return ret;
	}
}

static long
fanotify_write(struct file *f, const char __user *buf, size_t n, u64 *pos)
{
	return fan_perm_write(f->private, buf, n);
}

static unsigned
fanotify_poll(struct file *f, struct poll_table *pt)
{
	struct fan_group *g = f->private;

	poll_wait(f, &g->wq, pt);
	return READ_ONCE(g->queued) ? POLLIN | POLLRDNORM : 0;
}

static long
fanotify_ioctl(struct file *f, unsigned cmd, unsigned long arg)
{
	struct fan_group *g = f->private;

	if (cmd != FIONREAD)
		return -ENOTTY;
	int bytes = (int)(READ_ONCE(g->queued) * RECORD_SIZE);
	return copy_to_user((void __user *)arg, &bytes, sizeof(bytes)) ? -EFAULT : 0;
}

/* ---- marks -------------------------------------------------------------- */

/* Counts m in the hooks' tests (step 1) or takes it out (step -1) (fanotify_lock held). */
static void
mark_count(struct fan_mark *m, int step)
{
	__atomic_add_fetch(&fanotify_marks, step, __ATOMIC_RELAXED);
	if (m->type == FAN_MARK_INODE)
		__atomic_add_fetch(&m->inode->watches, step, __ATOMIC_RELAXED);
	if (m->type != FAN_MARK_INODE || S_ISDIR(m->inode->mode))
		__atomic_add_fetch(&notify_wide_watches, step, __ATOMIC_RELAXED);
}

/* Keeps fanotify_perm_marks right after m's mask changed (fanotify_lock held). */
static void
mark_perm_recount(struct fan_mark *m)
{
	bool asks = (m->mask & FAN_PERM_EVENTS) != 0;

	if (asks != m->asks_perm)
		__atomic_add_fetch(&fanotify_perm_marks, asks ? 1 : -1, __ATOMIC_RELAXED);
	m->asks_perm = asks;
}

/* Takes m off its group onto doomed, for marks_free (fanotify_lock held). */
static void
mark_detach(struct fan_group *g, struct fan_mark *m, struct list_head *doomed)
{
	m->mask = 0;
	mark_perm_recount(m);
	mark_count(m, -1);
	list_del(&m->link);
	g->nr_marks--;
	list_add_tail(&m->link, doomed);
}

/* Frees detached marks (no lock held: an inode or dentry may go). */
static void
marks_free(struct list_head *doomed)
{
	while (!list_empty(doomed)) {
		struct fan_mark *m = list_first_entry(doomed, struct fan_mark, link);
		list_del(&m->link);
		if (m->inode)
			inode_put(m->inode);
		if (m->root)
			dput(m->root);
		if (m->sb)
			sb_put(m->sb);
		kfree(m);
	}
}

/* g's mark of type on the object of proto, or NULL (fanotify_lock held). */
static struct fan_mark *
mark_find(struct fan_group *g, const struct fan_mark *proto)
{
	struct list_head *pos;

	list_for_each(pos, &g->marks) {
		struct fan_mark *m = list_entry(pos, struct fan_mark, link);
		if (m->type == proto->type && m->inode == proto->inode && m->root == proto->root &&
		    m->sb == proto->sb)
			return m;
	}
	return NULL;
}

/* Adds mask to g's mark on proto's object, making it if new: 0 or -errno. */
static long
mark_add(struct fan_group *g, const struct fan_mark *proto, u32 mask, u32 flags)
{
	struct fan_mark *fresh = kzalloc(sizeof(*fresh));
	long ret = 0;

	if (!fresh)
		return -ENOMEM;
	spin_lock(&fanotify_lock);
	struct fan_mark *m = mark_find(g, proto);
	if (!m && g->nr_marks >= g->max_marks) {
		ret = -ENOSPC;
	} else if (!m) {
		*fresh = *proto;
		m = fresh;
		fresh = NULL;
		if (m->inode)
			inode_get(m->inode);
		if (m->root)
			dget(m->root);
		if (m->sb)
			sb_get(m->sb);
		list_add_tail(&m->link, &g->marks);
		g->nr_marks++;
		mark_count(m, 1);
	}
	if (m && !ret) {
		if (flags & FAN_MARK_IGNORED_MASK) {
			m->ignored |= mask;
			m->survives_modify |= (flags & FAN_MARK_IGNORED_SURV_MODIFY) != 0;
		} else {
			m->mask |= mask;
		}
		mark_perm_recount(m);
	}
	spin_unlock(&fanotify_lock);
	kfree(fresh);
	return ret;
}

/* Takes mask from g's mark on proto's object, which goes when nothing is left: 0 or -ENOENT. */
static long
mark_remove(struct fan_group *g, const struct fan_mark *proto, u32 mask, u32 flags)
{
	struct list_head doomed = LIST_HEAD_INIT(doomed);
	long ret = -ENOENT;

	spin_lock(&fanotify_lock);
	struct fan_mark *m = mark_find(g, proto);
	if (m) {
		if (flags & FAN_MARK_IGNORED_MASK)
			m->ignored &= ~mask;
		else
			m->mask &= ~mask;
		mark_perm_recount(m);
		if (!(m->mask & ~EVENT_FLAGS) && !m->ignored)
			mark_detach(g, m, &doomed);
		ret = 0;
	}
	spin_unlock(&fanotify_lock);
	marks_free(&doomed);
	return ret;
}

/* Drops g's marks of type (FAN_MARK_FLUSH), or all of them (type -1). */
static void
marks_flush(struct fan_group *g, int type)
{
	struct list_head doomed = LIST_HEAD_INIT(doomed);
	struct list_head *pos, *next;

	spin_lock(&fanotify_lock);
	for (pos = g->marks.next; pos != &g->marks; pos = next) {
		struct fan_mark *m = list_entry(pos, struct fan_mark, link);
		next = pos->next;
		if (type < 0 || m->type == (unsigned)type)
			mark_detach(g, m, &doomed);
	}
	spin_unlock(&fanotify_lock);
	marks_free(&doomed);
}

/* ---- release --------------------------------------------------------------- */

static void
group_free(struct fan_group *g)
{
	kfree(g);
}

/*
 * The last close: the marks go, the permission events are allowed (their
 * tasks wake), and what was queued is dropped.
 */
static void
fanotify_release(struct file *f)
{
	struct fan_group *g = f->private;
	struct list_head dropped = LIST_HEAD_INIT(dropped);

	marks_flush(g, -1);
	spin_lock(&fanotify_lock);
	list_del(&g->link);
	fan_perm_release(g);
	while (!list_empty(&g->queue)) {
		struct fan_event *e = list_first_entry(&g->queue, struct fan_event, link);
		list_del(&e->link);
		if (e != &g->overflow)
			list_add_tail(&e->link, &dropped);
	}
	spin_unlock(&fanotify_lock);
	while (!list_empty(&dropped)) {
		struct fan_event *e = list_first_entry(&dropped, struct fan_event, link);
		list_del(&e->link);
		fan_event_free(e);
	}
	group_free(g);
}

/*
 * /proc/<pid>/fdinfo lines as Linux's fanotify_show_fdinfo: the group's
 * flags, then one line per mark. Linux ends an inode mark's line with the
 * inode's file handle; rewind's stops at ignored_mask, as inotify's does.
 */
static void
fanotify_show_fdinfo(struct file *f, struct procbuf *b)
{
	struct fan_group *g = f->private;
	struct list_head *pos;

	procbuf_printf(b, "fanotify flags:%x event-flags:%x\n", g->flags & INIT_FLAGS,
		       g->event_f_flags);
	spin_lock(&fanotify_lock);
	list_for_each(pos, &g->marks) {
		struct fan_mark *m = list_entry(pos, struct fan_mark, link);
		unsigned mflags = m->survives_modify ? FAN_MARK_IGNORED_SURV_MODIFY : 0;
		if (m->type == FAN_MARK_INODE)
			procbuf_printf(b, "fanotify ino:%lx sdev:%x ", (unsigned long)m->inode->ino,
				       (unsigned)m->inode->sb->dev);
		else if (m->type == FAN_MARK_MOUNT)
			procbuf_printf(b, "fanotify mnt_id:%x ", (unsigned)m->sb->mnt_id);
		else
			procbuf_printf(b, "fanotify sdev:%x ", (unsigned)m->sb->dev);
		procbuf_printf(b, "mflags:%x mask:%x ignored_mask:%x\n", mflags, m->mask,
			       m->ignored);
	}
	spin_unlock(&fanotify_lock);
}

static const struct file_operations fanotify_fops = {
	.show_fdinfo = fanotify_show_fdinfo,
	.read = fanotify_read,
	.write = fanotify_write,
	.poll = fanotify_poll,
	.ioctl = fanotify_ioctl,
	.release = fanotify_release,
	.name = "[fanotify]",
};

/* ---- fanotify_init ----------------------------------------------------------- */

/* The groups uid has made (fanotify_lock held): what MAX_USER_GROUPS limits. */
static unsigned
groups_of_user(u32 uid)
{
	unsigned n = 0;
	struct list_head *pos;

	list_for_each(pos, &fanotify_groups)
		n += list_entry(pos, struct fan_group, link)->uid == uid;
	return n;
}

/* fanotify_init's checks, in Linux 6.1's order: 0 or -errno. */
static long
init_flags_check(u32 flags, u32 event_f_flags)
{
	if (!capable(CAP_SYS_ADMIN) && ((flags & ADMIN_INIT_FLAGS) || !(flags & FID_FLAGS)))
		return -EPERM; /* the unprivileged may only have fid groups, which rewind lacks */
	if (flags & ~INIT_FLAGS)
		return -EINVAL;
	if ((flags & FAN_REPORT_PIDFD) && (flags & FAN_REPORT_TID))
		return -EINVAL;
	if ((event_f_flags & ~EVENT_F_FLAGS) || (event_f_flags & O_ACCMODE) == O_ACCMODE)
		return -EINVAL;
	return flags & FID_FLAGS ? -EINVAL : 0; /* not built: see the header */
}

static struct fan_group *
group_new(u32 flags, u32 event_f_flags)
{
	struct fan_group *g = kzalloc(sizeof(*g));

	if (!g)
		return NULL;
	g->uid = current_uids().real;
	g->flags = flags;
	g->event_f_flags =
		event_f_flags | O_LARGEFILE; /* Linux's force_o_largefile, shown in fdinfo */
	list_init(&g->marks);
	list_init(&g->queue);
	for (int i = 0; i < MERGE_BUCKETS; i++)
		list_init(&g->merge[i]);
	list_init(&g->awaiting);
	wait_queue_init(&g->wq);
	g->max_marks = flags & FAN_UNLIMITED_MARKS ? UINT32_MAX : MAX_MARKS;
	g->max_queued = flags & FAN_UNLIMITED_QUEUE ? UINT32_MAX : MAX_QUEUED_EVENTS;
	g->overflow = (struct fan_event){ .group = g, .mask = FAN_Q_OVERFLOW };
	list_init(&g->overflow.link);
	list_init(&g->overflow.merge_link);
	list_init(&g->overflow.asker_link);
	return g;
}

SYSCALL2(fanotify_init, u32, flags, u32, event_f_flags)
{
	long err = init_flags_check(flags, event_f_flags);

	if (err)
		return err;
	struct fan_group *g = group_new(flags, event_f_flags);
	if (!g)
		return -ENOMEM;
	spin_lock(&fanotify_lock);
	bool room = groups_of_user(g->uid) < MAX_USER_GROUPS;
	if (room)
		list_add_tail(&g->link, &fanotify_groups);
	spin_unlock(&fanotify_lock);
	if (!room) {
		group_free(g);
		return -EMFILE;
	}
	u32 fflags = O_RDWR | (flags & FAN_CLOEXEC ? O_CLOEXEC : 0) |
		     (flags & FAN_NONBLOCK ? O_NONBLOCK : 0);
	int fd = anon_inode_getfd(&fanotify_fops, g, fflags);
	if (fd < 0) {
		spin_lock(&fanotify_lock);
		list_del(&g->link);
		spin_unlock(&fanotify_lock);
		group_free(g);
	}
	return fd;
}

/* ---- fanotify_mark ----------------------------------------------------------- */

/* fanotify_mark's checks that need no group, in Linux 6.1's order: 0 or -errno. */
static long
mark_args_check(u32 flags, u64 mask)
{
	u32 type = flags & MARK_TYPES;

	if ((mask >> 32) || (flags & ~MARK_FLAGS) || type == MARK_TYPES)
		return -EINVAL;
	switch (flags & (FAN_MARK_ADD | FAN_MARK_REMOVE | FAN_MARK_FLUSH)) {
	case FAN_MARK_ADD:
	case FAN_MARK_REMOVE:
		if (!mask)
			return -EINVAL;
		break;
	case FAN_MARK_FLUSH:
		if (flags & ~(MARK_TYPES | FAN_MARK_FLUSH))
			return -EINVAL;
		break;
	default:
		return -EINVAL;
	}
	if (mask & ~(PATH_EVENTS | FID_EVENTS | EVENT_FLAGS | FAN_PERM_EVENTS))
		return -EINVAL;
	return 0;
}

/* The group's own checks of a mark: 0 or -errno. */
static long
mark_group_check(struct fan_group *g, u32 flags, u32 mask)
{
	if ((flags & MARK_TYPES) && !capable(CAP_SYS_ADMIN))
		return -EPERM;
	if ((mask & FAN_PERM_EVENTS) && !(g->flags & CLASSES))
		return -EINVAL; /* a FAN_CLASS_NOTIF group is told, never asked */
	if ((mask & FAN_FS_ERROR) && !(flags & FAN_MARK_FILESYSTEM))
		return -EINVAL;
	if (mask & FID_EVENTS)
		return -EINVAL; /* they need a fid group */
	return 0;
}

/* The object fanotify_mark names: a dentry (referenced) or, for a nameless file, NULL and an inode. */
static long
mark_object(int dfd, const char __user *upath, u32 flags, struct dentry **d, struct inode **inode)
{
	long err;

	*d = NULL;
	if (!upath) {
		struct file *f = fd_get_raw(dfd);
		if (!f)
			return -EBADF;
		err = (flags & FAN_MARK_ONLYDIR) && !S_ISDIR(f->inode->mode) ? -ENOTDIR : 0;
		*d = !err && f->dentry ? dget(f->dentry) : NULL;
		*inode = inode_get(f->inode);
		file_put(f);
	} else {
		char *path;
		if ((err = getname(upath, &path)))
			return err;
		err = path_lookup_at(dfd, path, !(flags & FAN_MARK_DONT_FOLLOW), d);
		putname(path);
		if (err)
			return err;
		*inode = inode_get((*d)->inode);
		if ((flags & FAN_MARK_ONLYDIR) && !S_ISDIR((*inode)->mode))
			err = -ENOTDIR;
	}
	if (!err)
		err = inode_permission(*inode, MAY_READ); /* one watches only what one may read */
	if (err) {
		if (*d)
			dput(*d);
		inode_put(*inode);
	}
	return err;
}

/*
 * The mark to add or remove on the object: an inode mark, or the mount's
 * root or the instance for the others; 0 or -EINVAL where Linux refuses
 * the object (permission events on proc, whose opens could deadlock;
 * mount marks on the pipes' instance, which no mount shows).
 */
static long
mark_proto(u32 flags, u32 mask, struct dentry *d, struct inode *inode, struct fan_mark *proto)
{
	*proto = (struct fan_mark){ .type = flags & MARK_TYPES };
	if ((mask & FAN_PERM_EVENTS) && inode->sb->type->magic == PROC_SUPER_MAGIC)
		return -EINVAL;
	if (proto->type == FAN_MARK_INODE) {
		proto->inode = inode;
		return 0;
	}
	if (!d)
		return -EINVAL;
	proto->sb = inode->sb;
	if (proto->type == FAN_MARK_MOUNT) {
		spin_lock(&mount_lock);
		struct mount *m = mount_of_dentry(current_mnt_ns(), d);
		proto->root = m ? m->root : NULL;
		spin_unlock(&mount_lock);
		if (!proto->root)
			return -EINVAL;
	}
	return 0;
}

static long
do_mark(struct fan_group *g, u32 flags, u32 mask, int dfd, const char __user *upath)
{
	struct dentry *d;
	struct inode *inode;
	struct fan_mark proto;
	long err = mark_object(dfd, upath, flags, &d, &inode);

	if (err)
		return err;
	/* Event flags mean nothing in an ignored mask, nor ON_CHILD but on a directory's own mark. */
	if (flags & FAN_MARK_IGNORED_MASK)
		mask &= ~EVENT_FLAGS;
	if ((flags & MARK_TYPES) || !S_ISDIR(inode->mode))
		mask &= ~FAN_EVENT_ON_CHILD;
	err = mark_proto(flags, mask, d, inode, &proto);
	if (!err && (flags & FAN_MARK_ADD))
		err = mark_add(g, &proto, mask, flags);
	else if (!err)
		err = mark_remove(g, &proto, mask, flags);
	if (d)
		dput(d);
	inode_put(inode);
	return err;
}

SYSCALL5(fanotify_mark, int, fd, u32, flags, u64, mask, int, dfd, const char __user *, path)
{
	long err = mark_args_check(flags, mask);

	if (err)
		return err;
	struct file *f = fd_get(fd);
	if (!f)
		return -EBADF;
	struct fan_group *g = f->private;
	if (f->ops != &fanotify_fops)
		err = -EINVAL;
	else if (!(err = mark_group_check(g, flags, (u32)mask)) && (flags & FAN_MARK_FLUSH))
		marks_flush(g, (int)(flags & MARK_TYPES));
	else if (!err)
		err = do_mark(g, flags, (u32)mask, dfd, path);
	file_put(f);
	return err;
}
