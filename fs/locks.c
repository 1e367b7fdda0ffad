/*
 * locks.c - file locks, as Linux's fs/locks.c has them: POSIX record locks
 * (fcntl's F_GETLK, F_SETLK, F_SETLKW), open file description ("OFD")
 * record locks (F_OFD_GETLK, F_OFD_SETLK, F_OFD_SETLKW) and flock(2).
 *
 * Record locks cover bytes [start, end] of an inode (end LOCK_EOF: however
 * far the file grows) and are shared (F_RDLCK) or exclusive (F_WRLCK). A
 * POSIX lock belongs to a process - its fd table, as Linux's fl_owner is
 * current->files - so that its threads share locks and a child of fork has
 * none of them; an OFD lock belongs to the open file description (struct
 * file), so that dup'd and inherited fds share it and two open()s of one
 * file by one process are two owners. Both kinds live in one list and
 * conflict with each other: two locks conflict when their owners differ,
 * their ranges overlap and one of them is exclusive. An owner's own locks
 * never conflict: a new request replaces whatever of its locks it overlaps
 * (splitting one that reaches past it on both sides) and merges with its
 * own adjacent locks of the same type, so that an owner's locks on an
 * inode are always disjoint.
 *
 * flock(2) locks are whole-file, shared (LOCK_SH) or exclusive (LOCK_EX),
 * belong to the open file description, and live in a list of their own:
 * they never meet record locks (Linux keeps them apart too). A description
 * holds at most one; changing its type drops it before asking for the
 * other, as Linux does, so a conversion that has to wait or fails has let
 * go of the old lock.
 *
 * Closing any descriptor of a file drops all of its process's POSIX locks
 * on that inode (POSIX's surprising rule, fdtable.c calls
 * locks_remove_posix on every close); exit closes everything, so POSIX
 * locks go with their process. A POSIX lock F_SETLKW obtains after another
 * thread closed its fd is undone (EBADF), or it would escape that rule.
 * OFD and flock locks go when the description's last reference does
 * (file.c calls locks_remove_file from file_put).
 *
 * A request that has to wait sleeps interruptibly until nothing is in the
 * way. Only a change of the locks of the owner in its way can clear that,
 * so each change wakes just the waiters of its owner, which look again (as
 * Linux's locks_wake_up_blocks wakes only a lock's blocked requests): an
 * unlock nobody waits for wakes nobody and takes no wait-queue lock, and
 * one inode's unlock does not wake another inode's waiters. Before sleeping,
 * a POSIX request follows the chain "the owner in my way waits for the
 * owner in its way..." and fails with EDEADLK if the chain comes back to
 * itself (Linux's posix_locks_deadlock, with the same depth limit); a
 * waiter leaves that chain as soon as the owner it waits for changes its
 * locks, as Linux takes it off the blocker's list when it wakes it. OFD and
 * flock waiters are not in the chain, as in Linux: a description is no
 * task that could be found waiting.
 *
 * /proc/locks lists every lock, one line each in Linux's format, from a
 * list of every inode's lock context (Linux keeps a global list of locks),
 * each followed by its waiters' "->" lines, as Linux shows its blocked
 * requests: every sleeping request is on the waiters list, naming the lock
 * it waits for (fs/locks.h).
 *
 * Every lock is charged to whoever takes it, as pipe buffers are: one to
 * the taker's real user, whose count the locks_user_max knob bounds (root
 * exempt; past it ENOLCK, Linux's errno for a lock it cannot allocate),
 * and its bytes to the taker's process, whose size the OOM killer weighs
 * (mm/oom_kill.c). Linux charges lock memory to the taker's memory cgroup
 * (SLAB_ACCOUNT) and has no count of its own; rewind has no cgroups, and
 * without a bound one user's locks could take every page the kernel has.
 * An unlock needs a new lock only to split one in two; it then fails at
 * the limit, as Linux's when the allocation fails.
 *
 * One mutex guards every inode's lists, that list and the waiters. Nothing but
 * kmalloc, the charges' spinlocks and, to wake a waiter, its run queue's lock
 * is taken under it, so it nests inside whatever a caller of file_put holds.
 */
#include "fs/locks.h"
#include "uapi/errno.h"
#include "kernel/knobs.h"
#include "kernel/process/cred.h"
#include "kernel/process/task.h"
#include "kernel/process/user_count.h"
#include "kernel/sched/sched.h"
#include "kernel/signal/signal.h"
#include "kernel/syscall/syscall.h"
#include "kernel/lib/vsprintf.h"
#include "mm/kmalloc.h"
#include "mm/oom_kill.h"

#define MAX_DEADLK_LOOP 10 /* Linux's MAX_DEADLK_ITERATIONS */

struct mutex locks_mutex = MUTEX_INIT(locks_mutex, "file_locks");

KNOB_INT(locks_user_max, "locks_user_max", 16384, 0, INT32_MAX, true,
	 "file locks one user but root may hold (0: no limit); past it ENOLCK");
static struct list_head waiters = LIST_HEAD_INIT(waiters);
static struct list_head lock_contexts = LIST_HEAD_INIT(lock_contexts); /* every inode's */
struct wait_queue lock_wait = WAIT_QUEUE_INIT(lock_wait);

static bool
overlap(const struct file_lock *a, s64 start, s64 end)
{
	return a->start <= end && start <= a->end;
}

/* A lock of another owner on list head in the way of [start, end] of type, or NULL. */
static struct file_lock *
find_conflict(struct list_head *head, const void *owner, short type, s64 start, s64 end)
{
	struct list_head *pos;

	list_for_each(pos, head) {
		struct file_lock *l = list_entry(pos, struct file_lock, link);
		if (l->owner != owner && overlap(l, start, end) &&
		    (l->type == F_WRLCK || type == F_WRLCK))
			return l;
	}
	return NULL;
}

/* Charges l to the current user and process: false past the user's limit or without memory. */
static bool
lock_charge(struct file_lock *l)
{
	unsigned long limit = (unsigned long)READ_ONCE(locks_user_max);

	l->user = USER_CHARGE(current_uids().real);
	if (capable(CAP_SYS_RESOURCE) || !limit)
		limit = ~0ul;
	if (!user_count_add_one_within(&l->user, USER_FILE_LOCKS, limit))
		return false;
	l->charge = mem_charge_current();
	if (!l->charge) {
		user_count_add(&l->user, USER_FILE_LOCKS, -1);
		return false;
	}
	mem_charge_add_bytes(l->charge, (s64)sizeof(*l));
	return true;
}

/* A lock charged to the caller, or NULL (the caller's -ENOLCK). */
static struct file_lock *
lock_new(const void *owner, int pid, short type, s64 start, s64 end)
{
	struct file_lock *l = kmalloc(sizeof(*l));

	if (!l)
		return NULL;
	*l = (struct file_lock){
		.owner = owner, .pid = pid, .type = type, .start = start, .end = end
	};
	if (!lock_charge(l)) {
		kfree(l);
		return NULL;
	}
	return l;
}

/* Frees l (NULL: nothing) and gives its charges back. */
static void
lock_free(struct file_lock *l)
{
	if (!l)
		return;
	user_count_add(&l->user, USER_FILE_LOCKS, -1);
	mem_charge_add_bytes(l->charge, -(s64)sizeof(*l));
	mem_charge_put(l->charge);
	kfree(l);
}

/* inode's context, made if it has none: NULL when out of memory (locks_mutex held). */
struct file_lock_context *
ctx_get(struct inode *inode)
{
	struct file_lock_context *ctx = inode->flctx;

	if (!ctx && (ctx = kmalloc(sizeof(*ctx)))) {
		list_init(&ctx->records);
		list_init(&ctx->flocks);
		list_init(&ctx->leases);
		ctx->inode = inode;
		list_add_tail(&ctx->all, &lock_contexts);
		WRITE_ONCE(inode->flctx, ctx);
	}
	return ctx;
}

void
ctx_put_if_empty(struct inode *inode)
{
	struct file_lock_context *ctx = inode->flctx;

	if (ctx && list_empty(&ctx->records) && list_empty(&ctx->flocks) &&
	    list_empty(&ctx->leases)) {
		list_del(&ctx->all);
		kfree(ctx);
		WRITE_ONCE(inode->flctx, NULL);
	}
}

/* Whether owner waiting for blocker would close a cycle of waiters (locks_mutex held). */
static bool
would_deadlock(const void *owner, const void *blocker)
{
	for (int i = 0; i < MAX_DEADLK_LOOP; i++) {
		const void *next = NULL;
		struct list_head *pos;
		list_for_each(pos, &waiters) {
			struct lock_waiter *w = list_entry(pos, struct lock_waiter, link);
			if (w->kind == WAIT_POSIX && w->request.owner == blocker) {
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
 * and is woken (it will look again, and queue again if still in the way),
 * so that a deadlock check never follows a wait that is over and
 * /proc/locks never names a lock that is gone (locks_mutex held: the
 * waiter cannot leave its wait, and take its entry off the stack, before
 * the mutex is dropped).
 */
void
forget_waiters_of(const void *owner)
{
	struct list_head *pos, *next;

	for (pos = waiters.next; pos != &waiters; pos = next) {
		next = pos->next;
		struct lock_waiter *w = list_entry(pos, struct lock_waiter, link);
		if (w->blocker == owner) {
			list_del(pos);
			wake_up_task(w->task);
		}
	}
}

/* Drops every lock of owner on list head: whether there was one (locks_mutex held). */
static bool
remove_owned(struct list_head *head, const void *owner)
{
	struct list_head *pos, *next;
	bool removed = false;

	for (pos = head->next; pos != head; pos = next) {
		next = pos->next;
		struct file_lock *l = list_entry(pos, struct file_lock, link);
		if (l->owner == owner) {
			list_del(&l->link);
			lock_free(l);
			removed = true;
		}
	}
	return removed;
}

void
waiter_queue(struct lock_waiter *w, const void *blocker, const void *blocking)
{
	w->task = current();
	w->blocker = blocker;
	w->blocking = blocking;
	list_add_tail(&w->link, &waiters);
}

void
waiter_dequeue(struct lock_waiter *w)
{
	list_del(&w->link); /* a no-op if forget_waiters_of took it out already */
}

/*
 * w sleeps once for the lock blocking of blocker, dropping locks_mutex
 * meanwhile: the caller looks again when it returns (woken by
 * forget_waiters_of or a signal). Queued and marked asleep before the
 * unlock, so no wake-up between the look and the sleep is lost.
 */
static void
wait_for_unlock(struct lock_waiter *w, const void *blocker, const void *blocking)
{
	waiter_queue(w, blocker, blocking);
	set_current_sleeping();
	mutex_unlock(&locks_mutex);
	schedule();
	WRITE_ONCE(current()->state, TASK_RUNNABLE); /* a signal may have ended the sleep early */
	mutex_lock(&locks_mutex);
	waiter_dequeue(w);
}

/* ---- record locks: POSIX and OFD ---------------------------------------------- */

/* Who owns the record locks a request names: the description for OFD, else the process. */
struct record_owner {
	const void *owner;
	int pid;
	bool ofd;
};

static struct record_owner
record_owner_of(struct file *f, bool ofd)
{
	if (ofd)
		return (struct record_owner){ .owner = f, .pid = -1, .ofd = true };
	return (struct record_owner){ .owner = current()->files, .pid = current()->tgid };
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
 * Whether making owner's record locks on inode say type over [start, end]
 * cuts one of them in two: one of another type (or an unlock) strictly
 * inside it. Its owner's locks being disjoint, nothing else then changes
 * but the new lock's insertion (locks_mutex held).
 */
static bool
splits_a_lock(struct inode *inode, const void *owner, short type, s64 start, s64 end)
{
	struct list_head *pos;

	if (!inode->flctx)
		return false;
	list_for_each(pos, &inode->flctx->records) {
		struct file_lock *l = list_entry(pos, struct file_lock, link);
		if (l->owner == owner && l->type != type && l->start < start && l->end > end)
			return true;
	}
	return false;
}

/*
 * Makes ro's record locks on inode say type over [start, end] (F_UNLCK:
 * none there), nothing being in the way: 0 or -ENOLCK (locks_mutex held).
 */
static int
apply_lock(struct inode *inode, struct record_owner ro, short type, s64 start, s64 end)
{
	struct list_head *pos, *next;
	/* The one lock that can be needed besides the new one: a split's right part. */
	bool split = splits_a_lock(inode, ro.owner, type, start, end);
	struct file_lock *spare = split ? lock_new(ro.owner, ro.pid, 0, 0, 0) : NULL;
	struct file_lock *added =
		type != F_UNLCK ? lock_new(ro.owner, ro.pid, type, start, end) : NULL;

	if ((split && !spare) || (type != F_UNLCK && (!added || !ctx_get(inode)))) {
		lock_free(spare);
		lock_free(added);
		return -ENOLCK;
	}
	if (!inode->flctx) /* unlocking where nothing was ever locked */
		return 0;
	struct list_head *head = &inode->flctx->records;
	for (pos = head->next; pos != head; pos = next) {
		next = pos->next;
		struct file_lock *l = list_entry(pos, struct file_lock, link);
		if (l->owner != ro.owner)
			continue;
		bool adjacent = (l->end != LOCK_EOF && l->end + 1 == start) ||
				(end != LOCK_EOF && end + 1 == l->start);
		if (added && l->type == type && (overlap(l, start, end) || adjacent)) {
			/* Same type, touching: one lock covers both. */
			added->start = MIN(added->start, l->start);
			added->end = MAX(added->end, l->end);
			list_del(&l->link);
			lock_free(l);
			continue;
		}
		if (!overlap(l, start, end))
			continue;
		if (l->start < start && l->end > end) { /* the request is inside l: split it */
			spare->pid = l->pid;
			spare->type = l->type;
			spare->start = end + 1;
			spare->end = l->end;
			list_add(&spare->link, &l->link);
			l->end = start - 1;
		} else if (l->start < start) {
			l->end = start - 1;
		} else if (l->end > end) {
			l->start = end + 1;
		} else {
			list_del(&l->link);
			lock_free(l);
		}
	}
	if (added)
		insert_in_start_order(head, added);
	ctx_put_if_empty(inode);
	return 0;
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
fcntl_getlk(struct file *f, int cmd, struct kernel_flock __user *ufl)
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
	if (cmd == F_OFD_GETLK && fl.l_pid != 0) /* reserved, as Linux */
		return -EINVAL;
	struct record_owner ro = record_owner_of(f, cmd == F_OFD_GETLK);
	mutex_lock(&locks_mutex);
	struct file_lock *l = f->inode->flctx ? find_conflict(&f->inode->flctx->records, ro.owner,
							      fl.l_type, start, end)
					      : NULL;
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
 * A POSIX lock granted to fd after another thread closed it (or put
 * another file there) while F_SETLKW slept: that close dropped the
 * process's locks before this one existed, and no later close would find
 * it, so it would outlive the process. Undone, as Linux's fcntl_setlk:
 * -EBADF. The fd table's lock orders the check after the grant, and a close
 * that comes after the check finds the lock and drops it itself. (An OFD
 * lock needs no such check: the file it belongs to drops it when it goes.)
 */
static long
undo_if_closed(int fd, struct file *f, struct record_owner ro, s64 start, s64 end)
{
	if (fd_still_names(fd, f))
		return 0;
	mutex_lock(&locks_mutex);
	apply_lock(f->inode, ro, F_UNLCK, start, end);
	forget_waiters_of(ro.owner);
	mutex_unlock(&locks_mutex);
	return -EBADF;
}

/*
 * Takes ro's request type over [start, end] once nothing is in the way,
 * sleeping for it if wait: 0 or -errno (locks_mutex held, dropped while
 * asleep).
 */
static long
set_record_lock(struct inode *inode, struct record_owner ro, bool wait, short type, s64 start,
		s64 end)
{
	struct lock_waiter me = {
		.kind = ro.ofd ? WAIT_OFD : WAIT_POSIX,
		.request = { .owner = ro.owner,
			     .pid = ro.pid,
			     .type = type,
			     .start = start,
			     .end = end },
	};

	list_init(&me.link);
	for (;;) {
		struct file_lock *l =
			type == F_UNLCK || !inode->flctx
				? NULL
				: find_conflict(&inode->flctx->records, ro.owner, type, start, end);
		if (!l) {
			long err = apply_lock(inode, ro, type, start, end);
			if (!err)
				forget_waiters_of(ro.owner);
			return err;
		}
		if (!wait)
			return -EAGAIN;
		if (!ro.ofd && would_deadlock(ro.owner, l->owner))
			return -EDEADLK;
		if (task_interrupted())
			return -ERESTARTSYS;
		wait_for_unlock(&me, l->owner, l);
	}
}

long
fcntl_setlk(int fd, struct file *f, int cmd, const struct kernel_flock __user *ufl)
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
	bool ofd = cmd == F_OFD_SETLK || cmd == F_OFD_SETLKW;
	if (ofd && fl.l_pid != 0) /* reserved, as Linux */
		return -EINVAL;
	struct record_owner ro = record_owner_of(f, ofd);
	mutex_lock(&locks_mutex);
	err = set_record_lock(f->inode, ro, cmd == F_SETLKW || cmd == F_OFD_SETLKW, fl.l_type,
			      start, end);
	mutex_unlock(&locks_mutex);
	if (!err && fl.l_type != F_UNLCK && !ofd)
		err = undo_if_closed(fd, f, ro, start, end);
	return err;
}

/* ---- flock(2) ------------------------------------------------------------------ */

/* f's flock lock on its inode, or NULL (locks_mutex held). */
static struct file_lock *
flock_held(struct file *f)
{
	struct list_head *pos;

	if (!f->inode->flctx)
		return NULL;
	list_for_each(pos, &f->inode->flctx->flocks) {
		struct file_lock *l = list_entry(pos, struct file_lock, link);
		if (l->owner == f)
			return l;
	}
	return NULL;
}

/*
 * Gives f a flock lock of type (F_UNLCK: none), sleeping for it if wait:
 * 0 or -errno. Whatever lock f held of the other type is dropped first,
 * and stays dropped if the new one cannot be had (Linux's flock_lock_inode).
 */
static long
flock_set(struct file *f, short type, bool wait)
{
	struct inode *inode = f->inode;
	struct file_lock *added = NULL;
	struct lock_waiter me = { .kind = WAIT_FLOCK };
	long err = 0;

	list_init(&me.link);
	if (type != F_UNLCK && !(added = lock_new(f, current()->tgid, type, 0, LOCK_EOF)))
		return -ENOLCK;
	mutex_lock(&locks_mutex);
	struct file_lock *held = flock_held(f);
	if (held && held->type == type) {
		mutex_unlock(&locks_mutex);
		lock_free(added);
		return 0;
	}
	if (held) {
		list_del(&held->link);
		lock_free(held);
		forget_waiters_of(f); /* before any sleep below: it may unblock someone */
	}
	if (added)
		me.request = *added;
	while (added) {
		if (!ctx_get(inode)) {
			err = -ENOLCK;
			break;
		}
		struct file_lock *l = find_conflict(&inode->flctx->flocks, f, type, 0, LOCK_EOF);
		if (!l) {
			list_add_tail(&added->link, &inode->flctx->flocks);
			added = NULL;
			break;
		}
		if (!wait) {
			err = -EAGAIN; /* EWOULDBLOCK */
			break;
		}
		if (task_interrupted()) {
			err = -ERESTARTSYS;
			break;
		}
		wait_for_unlock(&me, l->owner, l);
	}
	ctx_put_if_empty(inode);
	mutex_unlock(&locks_mutex);
	lock_free(added);
	return err;
}

/* flock(2)'s operation, LOCK_NB aside, as a lock type; -1 if it is none. */
static short
flock_type(unsigned operation)
{
	switch (operation) {
	case LOCK_SH:
		return F_RDLCK;
	case LOCK_EX:
		return F_WRLCK;
	case LOCK_UN:
		return F_UNLCK;
	default:
		return -1;
	}
}

SYSCALL2(flock, int, fd, unsigned, operation)
{
	if (operation & LOCK_MAND) /* never did anything; Linux now ignores it */
		return 0;
	short type = flock_type(operation & ~LOCK_NB);
	if (type < 0) /* checked before the fd, as Linux */
		return -EINVAL;
	struct file *f = fd_get(fd);
	if (!f)
		return -EBADF;
	long err = type != F_UNLCK && !(f->fmode & (FMODE_READ | FMODE_WRITE))
			   ? -EBADF
			   : flock_set(f, type, !(operation & LOCK_NB));
	file_put(f);
	return err;
}

/* ---- /proc/locks ---------------------------------------------------------------- */

static const char *
type_name(short type)
{
	return type == F_WRLCK ? "WRITE" : type == F_RDLCK ? "READ" : "UNLCK";
}

/*
 * One lock's line as Linux's lock_get_status writes it: "1: POSIX  ADVISORY  WRITE 1234
 * 00:05:12345 0 EOF", the range inclusive; a waiter's has "-> " (prefix) after its
 * blocker's number. A lease breaker, which has no file, shows no inode ("<none>:0"), as
 * Linux's.
 */
void
format_lock_line(char *buf, size_t size, int id, const char *prefix, const char *columns,
		 const struct file_lock *l, const struct inode *inode)
{
	size_t n = (size_t)kscnprintf(buf, size, "%d: %s%s %s %d ", id, prefix, columns,
				      type_name(l->type), l->pid);
	if (inode)
		n += (size_t)kscnprintf(buf + n, size - n, "%02x:%02x:%lu ",
					dev_major(inode->sb->dev), dev_minor(inode->sb->dev),
					(unsigned long)inode->ino);
	else
		n += (size_t)kscnprintf(buf + n, size - n, "<none>:0 ");
	n += (size_t)kscnprintf(buf + n, size - n, "%ld ", (long)l->start);
	if (l->end == LOCK_EOF)
		kscnprintf(buf + n, size - n, "EOF\n");
	else
		kscnprintf(buf + n, size - n, "%ld\n", (long)l->end);
}

/* A lock's kind and status columns, padded as Linux pads them. */
static const char *
columns_of(enum waiter_kind kind)
{
	switch (kind) {
	case WAIT_POSIX:
		return "POSIX  ADVISORY ";
	case WAIT_OFD:
		return "OFDLCK ADVISORY ";
	case WAIT_FLOCK:
		return "FLOCK  ADVISORY ";
	default:
		return "LEASE  BREAKER  ";
	}
}

void
show_waiters(const void *blocking, int id, const struct inode *inode,
	     void (*emit)(void *arg, const char *line), void *arg)
{
	struct list_head *pos;
	char line[128];

	list_for_each(pos, &waiters) {
		struct lock_waiter *w = list_entry(pos, struct lock_waiter, link);
		if (w->blocking != blocking)
			continue;
		format_lock_line(line, sizeof(line), id, "-> ", columns_of(w->kind), &w->request,
				 w->kind == WAIT_LEASE_BREAK ? NULL : inode);
		emit(arg, line);
	}
}

/* Each line of a lock list, its waiters after it (locks_mutex held); id numbers the lines. */
static void
show_list(struct list_head *head, bool flock, const struct inode *inode, int *id,
	  void (*emit)(void *arg, const char *line), void *arg)
{
	char line[128];
	struct list_head *pos;

	list_for_each(pos, head) {
		struct file_lock *l = list_entry(pos, struct file_lock, link);
		enum waiter_kind kind = flock ? WAIT_FLOCK : l->pid < 0 ? WAIT_OFD : WAIT_POSIX;
		format_lock_line(line, sizeof(line), ++*id, "", columns_of(kind), l, inode);
		emit(arg, line);
		show_waiters(l, *id, inode, emit, arg);
	}
}

void
locks_show(void (*emit)(void *arg, const char *line), void *arg)
{
	struct list_head *pos;
	int id = 0;

	mutex_lock(&locks_mutex);
	list_for_each(pos, &lock_contexts) {
		struct file_lock_context *ctx = list_entry(pos, struct file_lock_context, all);
		show_list(&ctx->records, false, ctx->inode, &id, emit, arg);
		show_list(&ctx->flocks, true, ctx->inode, &id, emit, arg);
		leases_show(ctx, &id, emit, arg);
	}
	mutex_unlock(&locks_mutex);
}

/* ---- when an owner goes --------------------------------------------------------- */

/*
 * Drops owner's locks on inode, record and flock ones alike (and its lease,
 * when the owner is a file going away), and wakes whoever they held up.
 */
static void
remove_locks_of(struct inode *inode, const void *owner, bool file_goes)
{
	if (!READ_ONCE(inode->flctx)) /* the common case: no locks at all */
		return;
	mutex_lock(&locks_mutex);
	struct file_lock_context *ctx = inode->flctx;
	bool removed = ctx && remove_owned(&ctx->records, owner);
	if (ctx)
		removed |= remove_owned(&ctx->flocks, owner);
	if (ctx && file_goes)
		removed |= leases_remove_file((struct file *)owner);
	if (removed) {
		forget_waiters_of(owner);
		ctx_put_if_empty(inode);
	}
	mutex_unlock(&locks_mutex);
}

void
locks_remove_posix(struct file *f, struct files *owner)
{
	remove_locks_of(f->inode, owner, false);
}

void
locks_remove_file(struct file *f)
{
	remove_locks_of(f->inode, f, true);
}
