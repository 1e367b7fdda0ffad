/*
 * locks.c - POSIX record locks: fcntl's F_GETLK, F_SETLK and F_SETLKW, as
 * Linux's fs/locks.c has them for POSIX (not OFD, not flock) locks.
 *
 * A lock covers bytes [start, end] of an inode (end LOCK_EOF: however far
 * the file grows), is shared (F_RDLCK) or exclusive (F_WRLCK), and belongs
 * to a process - its fd table, as Linux's fl_owner is current->files - so
 * that its threads share locks and a child of fork has none of them. Two
 * locks conflict when their owners differ, their ranges overlap and one of
 * them is exclusive. An owner's own locks never conflict: a new request
 * replaces whatever of its locks it overlaps (splitting one that reaches
 * past it on both sides) and merges with its own adjacent locks of the
 * same type, so that an owner's locks on an inode are always disjoint.
 *
 * Closing any descriptor of a file drops all of its process's locks on
 * that inode (POSIX's surprising rule, fdtable.c calls locks_remove_posix
 * on every close); exit closes everything, so locks go with their process.
 * A lock F_SETLKW obtains after another thread closed its fd is undone
 * (EBADF), or it would escape that rule.
 *
 * F_SETLKW sleeps interruptibly until nothing is in the way; every unlock
 * wakes every waiter, which looks again. Before sleeping it follows the
 * chain "the owner in my way waits for the owner in its way..." and fails
 * with EDEADLK if the chain comes back to itself (Linux's
 * posix_locks_deadlock, with the same depth limit); a waiter leaves that
 * chain as soon as the owner it waits for changes its locks, as Linux
 * takes it off the blocker's list when it wakes it.
 *
 * One mutex guards every inode's list and the waiters; it is taken with
 * nothing else held and takes nothing but kmalloc.
 */
#include "fs/vfs.h"
#include "uapi/errno.h"
#include "kernel/process/task.h"
#include "kernel/sched/sched.h"
#include "kernel/signal/signal.h"
#include "mm/kmalloc.h"

#define LOCK_EOF	INT64_MAX
#define MAX_DEADLK_LOOP 10 /* Linux's MAX_DEADLK_ITERATIONS */

/* An inode's locks, made at its first lock and freed when the last goes (Linux's i_flctx). */
struct file_lock_context {
	struct list_head locks;
};

struct file_lock {
	struct list_head link; /* in inode->flctx->locks */
	struct files *owner;
	int pid; /* the owner's tgid, for F_GETLK */
	short type;
	s64 start, end;
};

/* An owner asleep in F_SETLKW, and whose lock it waits for. */
struct lock_waiter {
	struct list_head link;
	struct files *owner, *blocker;
};

static struct mutex locks_mutex = MUTEX_INIT(locks_mutex, "file_locks");
static struct list_head waiters = LIST_HEAD_INIT(waiters);
static struct wait_queue lock_wait = WAIT_QUEUE_INIT(lock_wait);

static struct files *
current_owner(void)
{
	return current()->files;
}

static bool
overlap(const struct file_lock *a, s64 start, s64 end)
{
	return a->start <= end && start <= a->end;
}

/* A lock of another owner in the way of [start, end] of type, or NULL (locks_mutex held). */
static struct file_lock *
find_conflict(struct inode *inode, struct files *owner, short type, s64 start, s64 end)
{
	struct list_head *pos;

	if (!inode->flctx)
		return NULL;
	list_for_each(pos, &inode->flctx->locks) {
		struct file_lock *l = list_entry(pos, struct file_lock, link);
		if (l->owner != owner && overlap(l, start, end) &&
		    (l->type == F_WRLCK || type == F_WRLCK))
			return l;
	}
	return NULL;
}

/* Whether owner waiting for blocker would close a cycle of waiters (locks_mutex held). */
static bool
would_deadlock(struct files *owner, struct files *blocker)
{
	for (int i = 0; i < MAX_DEADLK_LOOP; i++) {
		struct files *next = NULL;
		struct list_head *pos;
		list_for_each(pos, &waiters) {
			struct lock_waiter *w = list_entry(pos, struct lock_waiter, link);
			if (w->owner == blocker) {
				next = w->blocker;
				break;
			}
		}
		if (!next)
			return false;
		if (next == owner)
			return true;
		blocker = next;
	}
	return false;
}

/*
 * owner's locks changed: whoever waited for it is no longer known to wait
 * (it will look again, and queue again if still in the way), so that a
 * deadlock check never follows a wait that is over (locks_mutex held).
 * The caller wakes the waiters once the mutex is dropped.
 */
static void
forget_waiters_of(struct files *owner)
{
	struct list_head *pos, *next;

	for (pos = waiters.next; pos != &waiters; pos = next) {
		next = pos->next;
		if (list_entry(pos, struct lock_waiter, link)->blocker == owner)
			list_del(pos);
	}
}

static void ctx_put_if_empty(struct inode *inode);

static struct file_lock *
lock_new(struct files *owner, short type, s64 start, s64 end)
{
	struct file_lock *l = kmalloc(sizeof(*l));

	if (l)
		*l = (struct file_lock){ .owner = owner,
					 .pid = current()->tgid,
					 .type = type,
					 .start = start,
					 .end = end };
	return l;
}

/*
 * Puts l among its owner's locks in order of start (after the other
 * owners' locks if it is its owner's first), as Linux's posix_lock_inode
 * keeps them: F_GETLK reports the first lock in the way in list order, so
 * of one owner's locks it names the lowest, as LTP's fcntl tests expect.
 */
static void
insert_in_start_order(struct list_head *head, struct file_lock *added)
{
	struct list_head *pos;
	bool seen_owner = false;

	list_for_each(pos, head) {
		struct file_lock *l = list_entry(pos, struct file_lock, link);
		if (l->owner == added->owner) {
			seen_owner = true;
			if (l->start > added->start)
				break;
		} else if (seen_owner) {
			break;
		}
	}
	list_insert_between(&added->link, pos->prev, pos);
}

/*
 * Makes owner's locks on inode say type over [start, end] (F_UNLCK: none
 * there), nothing being in the way: 0 or -ENOLCK (locks_mutex held).
 */
static int
apply_lock(struct inode *inode, struct files *owner, short type, s64 start, s64 end)
{
	struct list_head *pos, *next;
	/* The one allocation that can be needed besides the new lock: a split's right part. */
	struct file_lock *spare = lock_new(owner, 0, 0, 0);
	struct file_lock *added = type != F_UNLCK ? lock_new(owner, type, start, end) : NULL;

	if (!inode->flctx && type != F_UNLCK && (inode->flctx = kmalloc(sizeof(*inode->flctx))))
		list_init(&inode->flctx->locks);
	if (!spare || (type != F_UNLCK && (!added || !inode->flctx))) {
		kfree(spare);
		kfree(added);
		return -ENOLCK;
	}
	if (!inode->flctx) { /* unlocking where nothing was ever locked */
		kfree(spare);
		return 0;
	}
	struct list_head *head = &inode->flctx->locks;
	for (pos = head->next; pos != head; pos = next) {
		next = pos->next;
		struct file_lock *l = list_entry(pos, struct file_lock, link);
		if (l->owner != owner)
			continue;
		bool adjacent = (l->end != LOCK_EOF && l->end + 1 == start) ||
				(end != LOCK_EOF && end + 1 == l->start);
		if (added && l->type == type && (overlap(l, start, end) || adjacent)) {
			/* Same type, touching: one lock covers both. */
			added->start = MIN(added->start, l->start);
			added->end = MAX(added->end, l->end);
			list_del(&l->link);
			kfree(l);
			continue;
		}
		if (!overlap(l, start, end))
			continue;
		if (l->start < start && l->end > end) { /* the request is inside l: split it */
			*spare = (struct file_lock){ .owner = owner,
						     .pid = l->pid,
						     .type = l->type,
						     .start = end + 1,
						     .end = l->end };
			list_add(&spare->link, &l->link);
			spare = NULL;
			l->end = start - 1;
		} else if (l->start < start) {
			l->end = start - 1;
		} else if (l->end > end) {
			l->start = end + 1;
		} else {
			list_del(&l->link);
			kfree(l);
		}
	}
	if (added)
		insert_in_start_order(head, added);
	kfree(spare);
	ctx_put_if_empty(inode);
	return 0;
}

/* The inode's last lock is gone: so goes its context (locks_mutex held). */
static void
ctx_put_if_empty(struct inode *inode)
{
	if (inode->flctx && list_empty(&inode->flctx->locks)) {
		kfree(inode->flctx);
		WRITE_ONCE(inode->flctx, NULL);
	}
}

/* flock's range as bytes [*start, *end]: Linux's flock_to_posix_lock. */
static int
flock_range(struct file *f, const struct kernel_flock *fl, s64 *start, s64 *end)
{
	s64 base;

	switch (fl->l_whence) {
	case SEEK_SET:
		base = 0;
		break;
	case SEEK_CUR:
		base = (s64)READ_ONCE(f->pos);
		break;
	case SEEK_END:
		base = (s64)i_size_read(f->inode);
		break;
	default:
		return -EINVAL;
	}
	if (__builtin_add_overflow(base, fl->l_start, start))
		return -EOVERFLOW;
	if (*start < 0)
		return -EINVAL;
	if (fl->l_len > 0) {
		if (__builtin_add_overflow(*start, fl->l_len - 1, end))
			return -EOVERFLOW;
	} else if (fl->l_len < 0) {
		*end = *start - 1;
		*start += fl->l_len;
		if (*start < 0)
			return -EINVAL;
	} else {
		*end = LOCK_EOF;
	}
	return 0;
}

long
fcntl_getlk(struct file *f, struct kernel_flock __user *ufl)
{
	struct kernel_flock fl;
	s64 start, end;

	if (copy_from_user(&fl, ufl, sizeof(fl)))
		return -EFAULT;
	if (fl.l_type != F_RDLCK && fl.l_type != F_WRLCK)
		return -EINVAL;
	int err = flock_range(f, &fl, &start, &end);
	if (err)
		return err;
	mutex_lock(&locks_mutex);
	struct file_lock *l = find_conflict(f->inode, current_owner(), fl.l_type, start, end);
	if (l) {
		fl.l_type = l->type;
		fl.l_whence = SEEK_SET;
		fl.l_start = l->start;
		fl.l_len = l->end == LOCK_EOF ? 0 : l->end - l->start + 1;
		fl.l_pid = l->pid;
	} else {
		fl.l_type = F_UNLCK; /* the rest is left as it was, as Linux */
	}
	mutex_unlock(&locks_mutex);
	return copy_to_user(ufl, &fl, sizeof(fl)) ? -EFAULT : 0;
}

/* Whether fd still names f in the caller's fd table. */
static bool
fd_still_names(int fd, struct file *f)
{
	struct file *now = fd_get_raw(fd);

	if (now)
		file_put(now);
	return now == f;
}

/*
 * A lock granted to fd after another thread closed it (or put another
 * file there) while F_SETLKW slept: that close dropped the process's locks
 * before this one existed, and no later close would find it, so it would
 * outlive the process. Undone, as Linux's fcntl_setlk: -EBADF. The fd
 * table's lock orders the check after the grant, and a close that comes
 * after the check finds the lock and drops it itself.
 */
static long
undo_if_closed(int fd, struct file *f, s64 start, s64 end)
{
	if (fd_still_names(fd, f))
		return 0;
	mutex_lock(&locks_mutex);
	apply_lock(f->inode, current_owner(), F_UNLCK, start, end);
	mutex_unlock(&locks_mutex);
	return -EBADF;
}

long
fcntl_setlk(int fd, struct file *f, bool wait, const struct kernel_flock __user *ufl)
{
	struct kernel_flock fl;
	s64 start, end;

	if (copy_from_user(&fl, ufl, sizeof(fl)))
		return -EFAULT;
	if (fl.l_type == F_RDLCK   ? !(f->fmode & FMODE_READ)
	    : fl.l_type == F_WRLCK ? !(f->fmode & FMODE_WRITE)
				   : fl.l_type != F_UNLCK)
		return fl.l_type == F_RDLCK || fl.l_type == F_WRLCK ? -EBADF : -EINVAL;
	int err = flock_range(f, &fl, &start, &end);
	if (err)
		return err;
	struct inode *inode = f->inode;
	struct files *owner = current_owner();
	struct lock_waiter me = { .owner = owner };
	WAIT_ENTRY(we);
	list_init(&me.link);
	mutex_lock(&locks_mutex);
	for (;;) {
		struct file_lock *l = fl.l_type == F_UNLCK
					      ? NULL
					      : find_conflict(inode, owner, fl.l_type, start, end);
		if (!l) {
			err = apply_lock(inode, owner, fl.l_type, start, end);
			if (!err)
				forget_waiters_of(owner);
			break;
		}
		if (!wait) {
			err = -EAGAIN;
			break;
		}
		if (would_deadlock(owner, l->owner)) {
			err = -EDEADLK;
			break;
		}
		if (task_interrupted()) {
			err = -ERESTARTSYS;
			break;
		}
		me.blocker = l->owner;
		list_add_tail(&me.link, &waiters);
		prepare_to_wait(&lock_wait, &we); /* before the unlock: no wake-up is lost */
		mutex_unlock(&locks_mutex);
		schedule();
		finish_wait(&lock_wait, &we);
		mutex_lock(&locks_mutex);
		list_del(&me.link); /* a no-op if forget_waiters_of took it out already */
	}
	mutex_unlock(&locks_mutex);
	if (!err && fl.l_type != F_UNLCK)
		err = undo_if_closed(fd, f, start, end);
	if (!err || err == -EBADF)
		wake_up_all(&lock_wait); /* what was unlocked or split may unblock someone */
	return err;
}

void
locks_remove_posix(struct file *f, struct files *owner)
{
	struct inode *inode = f->inode;
	struct list_head *pos, *next;
	bool removed = false;

	if (!READ_ONCE(inode->flctx)) /* the common case: no locks at all */
		return;
	mutex_lock(&locks_mutex);
	struct list_head *head = inode->flctx ? &inode->flctx->locks : NULL;
	for (pos = head ? head->next : NULL; head && pos != head; pos = next) {
		next = pos->next;
		struct file_lock *l = list_entry(pos, struct file_lock, link);
		if (l->owner == owner) {
			list_del(&l->link);
			kfree(l);
			removed = true;
		}
	}
	if (removed) {
		forget_waiters_of(owner);
		ctx_put_if_empty(inode);
	}
	mutex_unlock(&locks_mutex);
	if (removed)
		wake_up_all(&lock_wait);
}
