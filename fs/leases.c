/*
 * leases.c - file leases, fcntl's F_SETLEASE and F_GETLEASE, as Linux's
 * fs/locks.c has them: a process holding a lease on a regular file hears
 * (by a signal) when another open is about to conflict with it, and has
 * lease-break-time seconds to finish with the file and give the lease up
 * before the opener goes ahead anyway.
 *
 * A lease belongs to an open file description, like an OFD lock, and goes
 * with its last reference. It is a read lease (F_RDLCK: no one else may
 * write the file) or a write lease (F_WRLCK: no one else may open it at
 * all). Only the file's owner, or a privileged process (CAP_LEASE), may
 * take one (EACCES), on a regular file only (EINVAL). A read lease needs
 * the file open for writing nowhere (EAGAIN); a write lease needs it open
 * nowhere but in the description asking (EAGAIN), which is what the
 * inode's writecount and readcount count (Linux's check_conflicting_open).
 * A write lease cannot be had beside anyone else's lease (EAGAIN).
 *
 * The break (Linux's __break_lease): an open for writing (or truncate(2))
 * conflicts with every lease, an open for reading with a write lease,
 * whoever opens - the holder too, as in Linux. Each conflicting lease is
 * marked with what it must become (F_UNLCK for a writer, F_RDLCK for a
 * reader) and the deadline, and its holder - the process that set it -
 * gets SIGIO, or the signal F_SETSIG chose with si_code POLL_MSG and
 * si_fd (Linux sends to the file's F_SETOWN owner, which F_SETLEASE sets
 * to the caller; rewind has no F_SETOWN, so the setter is the owner). The
 * opener then waits until no lease is in its way - the holder downgraded
 * or unlocked (F_SETLEASE), or closed - or until the deadline, when the
 * lease is downgraded or removed for it; with O_NONBLOCK it gets
 * EWOULDBLOCK at once, the break still under way. F_GETLEASE during a
 * break answers what the lease is being broken to.
 *
 * Leases live in the inode's lock context beside the other locks
 * (fs/locks.h), under locks_mutex; waiters sleep on lock_wait, which every
 * lease change wakes, and forget_waiters_of wakes those that the holder's
 * change of its leases or locks, or its close, kept waiting.
 */
#include "fs/locks.h"
#include "kernel/process/cred.h"
#include "kernel/sched/sched.h"
#include "kernel/signal/signal.h"
#include "kernel/lib/vsprintf.h"
#include "kernel/time/time64.h"
#include "kernel/time/tsc.h"
#include "mm/kmalloc.h"
#include "uapi/poll.h"

unsigned long lease_break_time = 45;

struct lease {
	struct list_head link; /* in the inode's ctx->leases */
	struct file *file;     /* the owner: the open file description (not referenced) */
	int pid;	       /* the setter's tgid: whom a break signals */
	int fd;		       /* the setter's fd: the signal's si_fd */
	short type;	       /* F_RDLCK or F_WRLCK */
	u64 downgrade_at;      /* ns since boot when a pending downgrade happens anyway; 0: none */
	u64 unlock_at;	       /* the same for a pending removal */
};

/* What the lease is on its way to: what F_GETLEASE and /proc/locks say (target_leasetype). */
static short
target_type(const struct lease *l)
{
	if (l->unlock_at)
		return F_UNLCK;
	if (l->downgrade_at)
		return F_RDLCK;
	return l->type;
}

static bool
breaking(const struct lease *l)
{
	return l->unlock_at || l->downgrade_at;
}

static struct lease *
lease_of(struct file_lock_context *ctx, struct file *f)
{
	struct list_head *pos;

	list_for_each(pos, &ctx->leases) {
		struct lease *l = list_entry(pos, struct lease, link);
		if (l->file == f)
			return l;
	}
	return NULL;
}

/*
 * l becomes type (F_UNLCK: goes): what the holder's F_SETLEASE and a
 * timed-out break do, as Linux's lease_modify. A pending downgrade is
 * satisfied by anything; a pending removal only by F_UNLCK.
 */
static void
lease_change(struct lease *l, short type)
{
	forget_waiters_of(l->file); /* they look again, and queue on what is left */
	if (type == F_UNLCK) {
		list_del(&l->link);
		kfree(l);
		return;
	}
	l->type = type;
	if (type == F_RDLCK)
		l->downgrade_at = 0;
}

static bool
past(u64 deadline, u64 now)
{
	return deadline && now >= deadline;
}

/* Breaks whose time is up happen now (Linux's time_out_leases): whether any did. */
static bool
time_out_leases(struct file_lock_context *ctx)
{
	struct list_head *pos, *next;
	u64 now = ns_since_boot();
	bool changed = false;

	for (pos = ctx->leases.next; pos != &ctx->leases; pos = next) {
		next = pos->next;
		struct lease *l = list_entry(pos, struct lease, link);
		if (past(l->downgrade_at, now)) {
			lease_change(l, F_RDLCK);
			changed = true;
		}
		if (past(l->unlock_at, now)) {
			lease_change(l, F_UNLCK);
			changed = true;
		}
	}
	return changed;
}

/* ---- taking and giving up ------------------------------------------------------- */

/* Linux's check_conflicting_open: whether opens other than f's forbid a lease of type. */
static bool
conflicting_open(struct file *f, short type)
{
	struct inode *inode = f->inode;

	__atomic_thread_fence(
		__ATOMIC_SEQ_CST); /* pairs with break_lease's, after an open counts */
	s32 writers = __atomic_load_n(&inode->writecount, __ATOMIC_RELAXED);
	if (type == F_RDLCK)
		return writers > 0;
	u32 readers = __atomic_load_n(&inode->readcount, __ATOMIC_RELAXED);
	return writers != ((f->fmode & FMODE_WRITE) ? 1 : 0) ||
	       readers != ((f->fmode & FMODE_READER) ? 1 : 0);
}

/* Gives f a lease of type, or changes the one it holds (locks_mutex held): 0 or -errno. */
static long
lease_add(int fd, struct file *f, short type)
{
	struct inode *inode = f->inode;
	struct file_lock_context *ctx = ctx_get(inode);

	if (!ctx)
		return -ENOLCK;
	time_out_leases(ctx);
	long err = conflicting_open(f, type) ? -EAGAIN : 0;
	struct lease *mine = lease_of(ctx, f);
	struct list_head *pos;
	list_for_each(pos, &ctx->leases) {
		struct lease *l = list_entry(pos, struct lease, link);
		if (l == mine)
			continue;
		if (type == F_WRLCK || l->unlock_at) /* no new lease while someone opens to write */
			err = -EAGAIN;
	}
	if (!err && !mine) {
		mine = kzalloc(sizeof(*mine));
		if (!mine)
			err = -ENOLCK;
		else {
			mine->file = f;
			list_add_tail(&mine->link, &ctx->leases);
		}
	}
	if (err) {
		ctx_put_if_empty(inode);
		return err;
	}
	lease_change(mine, type);
	mine->pid = current()->tgid; /* the holder a break signals, as F_SETLEASE's __f_setown */
	mine->fd = fd;
	return 0;
}

/* Whether the caller may lease inode: its owner, or CAP_LEASE (Linux's generic_setlease). */
static bool
may_lease(struct inode *inode)
{
	return current_fsuid() == inode->uid || capable(CAP_LEASE);
}

long
fcntl_setlease(int fd, struct file *f, unsigned long arg)
{
	if (arg != F_RDLCK && arg != F_WRLCK && arg != F_UNLCK)
		return -EINVAL;
	if (!may_lease(f->inode))
		return -EACCES;
	if (!S_ISREG(f->inode->mode))
		return -EINVAL;
	mutex_lock(&locks_mutex);
	long err;
	if (arg != F_UNLCK)
		err = lease_add(fd, f, (short)arg);
	else
		err = leases_remove_file(f) ? 0 : -EAGAIN; /* none to give up: Linux's answer */
	mutex_unlock(&locks_mutex);
	wake_up_all(&lock_wait); /* a downgrade or removal may let an opener in */
	return err;
}

long
fcntl_getlease(struct file *f)
{
	long type = F_UNLCK;

	if (!READ_ONCE(f->inode->flctx))
		return type;
	mutex_lock(&locks_mutex);
	struct file_lock_context *ctx = f->inode->flctx;
	bool changed = ctx && time_out_leases(ctx);
	struct lease *l = ctx ? lease_of(ctx, f) : NULL;
	if (l)
		type = target_type(l);
	if (ctx)
		ctx_put_if_empty(f->inode);
	mutex_unlock(&locks_mutex);
	if (changed)
		wake_up_all(&lock_wait);
	return type;
}

bool
leases_remove_file(struct file *f)
{
	struct file_lock_context *ctx = f->inode->flctx;
	struct lease *l = ctx ? lease_of(ctx, f) : NULL;

	if (!l)
		return false;
	lease_change(l, F_UNLCK);
	ctx_put_if_empty(f->inode);
	return true;
}

void
file_count_reader(struct file *f)
{
	f->fmode |= FMODE_READER;
	__atomic_add_fetch(&f->inode->readcount, 1, __ATOMIC_RELAXED);
}

/* ---- breaking ------------------------------------------------------------------- */

/* Linux's leases_conflict: a writer is in every lease's way, a reader in a write lease's. */
static bool
in_the_way(const struct lease *l, bool want_write)
{
	return want_write || l->type == F_WRLCK;
}

/* The first lease in the way: or NULL; what a breaker is shown waiting for. */
static struct lease *
first_in_the_way(struct file_lock_context *ctx, bool want_write)
{
	struct list_head *pos;

	list_for_each(pos, &ctx->leases) {
		struct lease *l = list_entry(pos, struct lease, link);
		if (in_the_way(l, want_write))
			return l;
	}
	return NULL;
}

/*
 * Tells l's holder to give way: SIGIO, or its F_SETSIG signal with
 * si_code POLL_MSG, the band and the fd, as Linux's send_sigio for
 * kill_fasync(..., SIGIO, POLL_MSG). A holder that is gone is not told.
 */
static void
signal_holder(const struct lease *l)
{
	int signum = READ_ONCE(l->file->signum);
	struct kernel_siginfo info = { .signo = signum ? signum : SIGIO, .code = SI_KERNEL };

	if (signum) {
		info.code = POLL_MSG;
		info.poll.band = POLLIN | POLLRDNORM | POLLMSG;
		info.poll.fd = l->fd;
	}
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct task *p = task_find(l->pid);
	if (p && READ_ONCE(p->sighand))
		signal_send_process(p, &info);
	spin_unlock_irqrestore(&tasks_lock, flags);
}

/* Marks each lease in the way for a break and signals its holder once per kind of break. */
static void
start_breaks(struct file_lock_context *ctx, bool want_write)
{
	u64 deadline = ns_since_boot() + READ_ONCE(lease_break_time) * (u64)NSEC_PER_SEC;
	struct list_head *pos;

	list_for_each(pos, &ctx->leases) {
		struct lease *l = list_entry(pos, struct lease, link);
		if (!in_the_way(l, want_write))
			continue;
		if (want_write ? l->unlock_at != 0 : breaking(l))
			continue; /* told already */
		if (want_write)
			l->unlock_at = deadline;
		else
			l->downgrade_at = deadline;
		signal_holder(l);
	}
}

/* The earliest deadline of the leases in the way (they are all breaking). */
static u64
first_deadline(struct file_lock_context *ctx, bool want_write)
{
	struct list_head *pos;
	u64 first = ~0ull;

	list_for_each(pos, &ctx->leases) {
		struct lease *l = list_entry(pos, struct lease, link);
		if (!in_the_way(l, want_write))
			continue;
		u64 at = want_write ? l->unlock_at : l->downgrade_at;
		if (at && at < first)
			first = at;
	}
	return first;
}

/* Waits, locks_mutex held and dropped meanwhile, until no lease is in the way: 0 or -errno. */
static int
wait_for_breaks(struct inode *inode, bool want_write)
{
	struct lock_waiter me = {
		.kind = WAIT_LEASE_BREAK,
		.request = { .owner = current()->files,
			     .pid = current()->tgid,
			     .type = want_write ? F_WRLCK : F_RDLCK,
			     .end = LOCK_EOF },
	};

	list_init(&me.link);
	for (;;) {
		struct file_lock_context *ctx = inode->flctx;
		if (ctx && time_out_leases(ctx))
			wake_up_all(&lock_wait); /* other openers may go too */
		if (!ctx || !first_in_the_way(ctx, want_write))
			return 0;
		if (task_interrupted())
			return -ERESTARTSYS;
		start_breaks(ctx, want_write); /* leases taken meanwhile, by a downgrade */
		u64 deadline = first_deadline(ctx, want_write), now = ns_since_boot();
		struct lease *blocking = first_in_the_way(ctx, want_write);
		WAIT_ENTRY(we);
		waiter_queue(&me, blocking->file, blocking);
		prepare_to_wait(&lock_wait, &we);
		mutex_unlock(&locks_mutex);
		if (deadline > now)
			schedule_timeout_ns(deadline - now);
		finish_wait(&lock_wait, &we);
		mutex_lock(&locks_mutex);
		waiter_dequeue(&me);
	}
}

int
break_lease(struct inode *inode, u32 flags)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST); /* the open is counted: a new lease sees it */
	if (!READ_ONCE(inode->flctx))
		return 0;
	bool want_write = (flags & O_ACCMODE) != O_RDONLY;
	mutex_lock(&locks_mutex);
	struct file_lock_context *ctx = inode->flctx;
	int err = 0;
	if (ctx && !list_empty(&ctx->leases)) {
		time_out_leases(ctx);
		if (first_in_the_way(ctx, want_write)) {
			start_breaks(ctx, want_write);
			err = (flags & O_NONBLOCK) ? -EAGAIN : wait_for_breaks(inode, want_write);
		}
	}
	if (inode->flctx)
		ctx_put_if_empty(inode);
	mutex_unlock(&locks_mutex);
	return err;
}

/* ---- /proc/locks ------------------------------------------------------------------ */

void
leases_show(struct file_lock_context *ctx, int *id, void (*emit)(void *arg, const char *line),
	    void *arg)
{
	struct list_head *pos;
	char line[128];

	list_for_each(pos, &ctx->leases) {
		struct lease *l = list_entry(pos, struct lease, link);
		struct file_lock shown = {
			.pid = l->pid, .type = target_type(l), .start = 0, .end = LOCK_EOF
		};
		format_lock_line(line, sizeof(line), ++*id, "",
				 breaking(l) ? "LEASE  BREAKING " : "LEASE  ACTIVE   ", &shown,
				 ctx->inode);
		emit(arg, line);
		show_waiters(l, *id, ctx->inode, emit, arg);
	}
}
