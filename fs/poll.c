/*
 * poll.c - poll, ppoll, select and pselect6: wait until one of several files is ready.
 *
 * Each pass asks every file's poll operation for its ready mask; the
 * operation first calls poll_wait() on each wait queue whose wake-up could
 * change that mask, which queues this task there and marks it sleeping.
 * If nothing is ready the task then sleeps (schedule, or with a timeout),
 * and any wake-up on any of those queues makes it run the next pass. As
 * the task is queued before each mask is computed, a wake-up between the
 * test and the sleep is never lost (see kernel/sched/wait.h). The table also
 * holds a reference on every file it waits on, so a close by another
 * thread cannot free a queue it is on.
 *
 * Timeouts: 0 polls once, negative waits forever, positive sleeps with
 * schedule_timeout_ns() until the deadline (measured with ns_since_boot,
 * so an early wake-up that finds nothing ready sleeps for what is left).
 * ppoll's and pselect6's signal masks are in force while they wait.
 *
 * select and pselect6 are the same loop over bitmaps (fd_sets) instead of
 * pollfds: each fd in a set is asked its poll mask, and the sets are
 * written back holding the ready fds, as Linux's fs/select.c does. Not here: what "ready" means for
 * a file (its poll operation; without one a file is always readable and
 * writable, as in Linux).
 */
#include "fs/vfs.h"
#include "uapi/errno.h"
#include "kernel/lib/string.h"
#include "kernel/sched/sched.h"
#include "kernel/signal/signal.h"
#include "kernel/syscall/syscall.h"
#include "kernel/time/tsc.h"
#include "uapi/personality.h"
#include "uapi/time.h"
#include "mm/kmalloc.h"
#include "kernel/time/time64.h"

#define DEFAULT_POLLMASK (POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM)
#define POLL_INLINE	 8
#define POLL_CHUNK	 32
/*
 * poll's pollfds and select's six bitmaps live on the stack when they fit
 * in this many bytes (Linux's POLL_STACK_ALLOC and SELECT_STACK_ALLOC are
 * 256 too): the common small call allocates nothing.
 */
#define STACK_TABLE_BYTES 256

struct poll_entry {
	struct wait_entry we;
	struct wait_queue *q;
	struct file *file; /* referenced: keeps q alive */
};

struct poll_chunk {
	struct poll_chunk *next;
	unsigned n; /* entries in use */
	struct poll_entry e[POLL_CHUNK];
};

/* poll's and select's table: the queues the task sleeps on. */
struct poll_wait_table {
	struct poll_table pt;
	unsigned n; /* inline entries in use */
	struct poll_entry inline_e[POLL_INLINE];
	struct poll_chunk *chunks; /* once the inline ones are used up; newest first */
	int error;		   /* -ENOMEM: a queue could not be waited on */
	struct wait_queue self;	   /* so the task sleeps even with no file to wait on */
	struct wait_entry self_we;
};

static void poll_queue_task(struct file *f, struct wait_queue *q, struct poll_table *table);

static void
poll_table_init(struct poll_wait_table *pt)
{
	pt->pt.queue = poll_queue_task;
	pt->n = 0;
	pt->chunks = NULL;
	pt->error = 0;
	wait_queue_init(&pt->self);
	list_init(&pt->self_we.link);
	prepare_to_wait(&pt->self, &pt->self_we);
}

static struct poll_entry *
poll_entry_new(struct poll_wait_table *pt)
{
	struct poll_chunk *c = pt->chunks;

	if (pt->n < POLL_INLINE)
		return &pt->inline_e[pt->n++];
	if (!c || c->n == POLL_CHUNK) {
		c = kmalloc(sizeof(*c));
		if (!c)
			return NULL;
		c->n = 0;
		c->next = pt->chunks;
		pt->chunks = c;
	}
	return &c->e[c->n++];
}

void
poll_wait(struct file *f, struct wait_queue *q, struct poll_table *pt)
{
	if (pt)
		pt->queue(f, q, pt);
}

unsigned
file_poll(struct file *f, struct poll_table *pt)
{
	return f->ops->poll ? f->ops->poll(f, pt) : DEFAULT_POLLMASK;
}

static void
poll_queue_task(struct file *f, struct wait_queue *q, struct poll_table *table)
{
	struct poll_wait_table *pt = container_of(table, struct poll_wait_table, pt);
	struct poll_entry *e = poll_entry_new(pt);
	if (!e) {
		pt->error = -ENOMEM;
		return;
	}
	e->q = q;
	e->file = file_get(f);
	list_init(&e->we.link); /* a wait entry starts unlinked */
	prepare_to_wait(q, &e->we);
}

static void
poll_entry_done(struct poll_entry *e)
{
	finish_wait(e->q, &e->we);
	file_put(e->file);
}

/* Leaves every queue, drops the files, and marks the task running again. */
static void
poll_table_free(struct poll_wait_table *pt)
{
	struct poll_chunk *c, *next;

	for (unsigned i = 0; i < pt->n; i++)
		poll_entry_done(&pt->inline_e[i]);
	for (c = pt->chunks; c; c = next) {
		for (unsigned i = 0; i < c->n; i++)
			poll_entry_done(&c->e[i]);
		next = c->next;
		kfree(c);
	}
	finish_wait(&pt->self, &pt->self_we);
}

static short
poll_one(struct kernel_pollfd *pfd, struct poll_table *pt)
{
	if (pfd->fd < 0)
		return 0;
	struct fd f = fdget(pfd->fd);
	if (!f.file)
		return POLLNVAL;
	unsigned mask = file_poll(f.file, pt);
	fdput(f);
	return (short)(mask & ((u16)pfd->events | POLLERR | POLLHUP));
}

/* One pass over every fd: how many have events. */
struct poll_args {
	struct kernel_pollfd *fds;
	unsigned nfds;
};

static long
poll_pass(void *arg, struct poll_table *pt)
{
	struct poll_args *a = arg;
	int ready = 0;

	for (unsigned i = 0; i < a->nfds; i++) {
		a->fds[i].revents = poll_one(&a->fds[i], pt);
		if (a->fds[i].revents)
			ready++;
	}
	return ready;
}

/*
 * Runs pass (poll's or select's) until it finds something ready (or an
 * error), *timeout_ns (negative: forever) passes, or a signal comes;
 * *timeout_ns is left with the time that remained.
 */
static long
poll_loop(long (*pass)(void *arg, struct poll_table *pt), void *arg, s64 *timeout_ns)
{
	u64 deadline = *timeout_ns > 0 ? ns_since_boot() + (u64)*timeout_ns : 0;
	struct poll_wait_table pt;
	long ret;

	if (*timeout_ns == 0)
		return pass(arg, NULL);
	for (;;) {
		poll_table_init(&pt);
		ret = pass(arg, &pt.pt);
		if (!ret && pt.error)
			ret = pt.error;
		else if (!ret && task_interrupted())
			ret = -EINTR;
		if (ret)
			break;
		if (*timeout_ns < 0) {
			schedule();
		} else {
			u64 now = ns_since_boot();
			if (now >= deadline)
				break;
			schedule_timeout_ns(deadline - now);
		}
		poll_table_free(&pt);
	}
	poll_table_free(&pt);
	if (*timeout_ns > 0) {
		u64 now = ns_since_boot();
		*timeout_ns = now < deadline ? (s64)(deadline - now) : 0;
	}
	return ret;
}

/* Copies the pollfds in, polls, and copies the results out. */
static long
poll_user(struct kernel_pollfd __user *ufds, unsigned nfds, s64 *timeout_ns)
{
	struct kernel_pollfd on_stack[STACK_TABLE_BYTES / sizeof(struct kernel_pollfd)];
	struct kernel_pollfd *fds = on_stack;
	size_t size = (size_t)nfds * sizeof(*fds);

	if (nfds > fd_limit()) /* Linux: RLIMIT_NOFILE */
		return -EINVAL;
	if (nfds > ARRAY_SIZE(on_stack) && !(fds = kmalloc(size)))
		return -ENOMEM;
	long ret = copy_from_user(fds, ufds, size);
	struct poll_args a = { fds, nfds };
	if (!ret)
		ret = poll_loop(poll_pass, &a, timeout_ns);
	if (ret >= 0 && copy_to_user(ufds, fds, size))
		ret = -EFAULT;
	if (fds != on_stack)
		kfree(fds);
	return ret;
}

SYSCALL3(poll, struct kernel_pollfd __user *, fds, unsigned, nfds, int, timeout_ms)
{
	s64 timeout_ns = timeout_ms < 0 ? -1 : (s64)timeout_ms * 1000000;

	return poll_user(fds, nfds, &timeout_ns);
}

/* STICKY_TIMEOUTS (SVr4's select): the caller's timeout is never written back. */
static bool
timeout_sticky(void)
{
	return current()->personality & STICKY_TIMEOUTS;
}

SYSCALL5(ppoll, struct kernel_pollfd __user *, fds, unsigned, nfds, struct kernel_timespec __user *,
	 tsp, const void __user *, sigmask, size_t, sigsetsize)
{
	struct kernel_timespec ts;
	s64 timeout_ns = -1;

	if (sigmask && sigsetsize != sizeof(u64))
		return -EINVAL;
	if (tsp) {
		if (copy_from_user(&ts, tsp, sizeof(ts)))
			return -EFAULT;
		if (ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= NSEC_PER_SEC)
			return -EINVAL;
		if (__builtin_mul_overflow(ts.tv_sec, NSEC_PER_SEC, &timeout_ns) ||
		    __builtin_add_overflow(timeout_ns, ts.tv_nsec, &timeout_ns))
			timeout_ns = INT64_MAX; /* centuries: as good as forever */
	}
	if (sigmask) {
		u64 mask;
		if (copy_from_user(&mask, sigmask, sizeof(mask)))
			return -EFAULT;
		signal_set_temporary_mask(mask);
	}
	long ret = poll_user(fds, nfds, &timeout_ns);
	if (sigmask)
		signal_restore_temporary_mask(ret == -EINTR);
	if (tsp && timeout_ns >= 0 && !timeout_sticky()) {
		/* The time left, as Linux reports it; a read-only timespec is not an error. */
		ts = (struct kernel_timespec){ timeout_ns / NSEC_PER_SEC,
					       timeout_ns % NSEC_PER_SEC };
		(void)copy_to_user(tsp, &ts, sizeof(ts));
	}
	return ret;
}

/* ---- select and pselect6 ----------------------------------------------------------------- */

/* What each of select's three sets waits for, in poll's terms (Linux's POLLIN_SET ...). */
#define SELECT_IN  (POLLIN | POLLRDNORM | POLLRDBAND | POLLHUP | POLLERR)
#define SELECT_OUT (POLLOUT | POLLWRNORM | POLLWRBAND | POLLERR)
#define SELECT_EX  POLLPRI

/*
 * The sets as select sees them: bitmaps of n bits in 64-bit words (an
 * fd_set's own layout), want[] copied in (zero for a set not given), got[]
 * the answer.
 */
struct select_args {
	unsigned n, words;
	u64 *want[3], *got[3];
};

static const unsigned select_mask[3] = { SELECT_IN, SELECT_OUT, SELECT_EX };

/* One pass: the number of bits set in got[], or -EBADF for an fd in a set that is not open. */
static long
select_pass(void *arg, struct poll_table *pt)
{
	struct select_args *a = arg;
	long ready = 0;

	for (unsigned w = 0; w < a->words; w++) {
		u64 all = a->want[0][w] | a->want[1][w] | a->want[2][w];
		for (int s = 0; s < 3; s++)
			a->got[s][w] = 0;
		while (all) {
			unsigned bit = (unsigned)__builtin_ctzll(all);
			u64 m = 1ull << bit;
			int fd = (int)(w * 64 + bit);
			all &= ~m;
			struct fd f = fdget_raw(fd);
			if (!f.file)
				return -EBADF;
			unsigned mask = 0; /* an O_PATH file is never ready, as in Linux */
			if (!(f.file->fmode & FMODE_PATH))
				mask = file_poll(f.file, pt);
			fdput(f);
			for (int s = 0; s < 3; s++) {
				if ((a->want[s][w] & m) && (mask & select_mask[s])) {
					a->got[s][w] |= m;
					ready++;
				}
			}
		}
	}
	return ready;
}

/*
 * Linux's core_sys_select: n below 0 is -EINVAL, above the fd table's size
 * it is cut down to it (no fd there can be open); each given set's first n
 * bits are read, and written back holding only the ready fds. On an error
 * or a signal the sets are left as they were.
 */
static long
select_user(int n, u64 __user *uset[3], s64 *timeout_ns)
{
	struct select_args a;

	if (n < 0)
		return -EINVAL;
	if ((unsigned)n > fd_table_size())
		n = (int)fd_table_size();
	a.n = (unsigned)n;
	a.words = (a.n + 63) / 64;
	size_t bytes = a.words * sizeof(u64);
	u64 on_stack[STACK_TABLE_BYTES / sizeof(u64)];
	u64 *buf = on_stack;
	if (6 * bytes > sizeof(on_stack) && !(buf = kmalloc(6 * bytes)))
		return -ENOMEM;
	long ret = 0;
	for (int s = 0; s < 3; s++) {
		a.want[s] = buf + s * a.words;
		a.got[s] = buf + (3 + s) * a.words;
		memset(a.want[s], 0, bytes);
		if (uset[s] && copy_from_user(a.want[s], uset[s], bytes))
			ret = -EFAULT;
		if (a.n % 64 && a.words) /* bits past n are not looked at */
			a.want[s][a.words - 1] &= (1ull << (a.n % 64)) - 1;
	}
	if (!ret)
		ret = poll_loop(select_pass, &a, timeout_ns);
	if (ret == -EINTR)
		ret = -ERESTARTNOHAND; /* restarted with the time left when no handler runs */
	for (int s = 0; s < 3 && ret >= 0; s++)
		if (uset[s] && copy_to_user(uset[s], a.got[s], bytes))
			ret = -EFAULT;
	if (buf != on_stack)
		kfree(buf);
	return ret;
}

/* A timeout as Linux's poll_select_set_timeout takes it: -EINVAL unless normalized and >= 0. */
static long
timeout_from(s64 sec, s64 nsec, s64 *timeout_ns)
{
	if (sec < 0 || nsec < 0 || nsec >= NSEC_PER_SEC)
		return -EINVAL;
	if (__builtin_mul_overflow(sec, NSEC_PER_SEC, timeout_ns) ||
	    __builtin_add_overflow(*timeout_ns, nsec, timeout_ns))
		*timeout_ns = INT64_MAX;
	return 0;
}

/*
 * The time left goes back to the caller (Linux does, unlike POSIX; not for
 * a zero timeout). A timeout in read-only memory is not an error, but then
 * an interrupted call cannot be restarted with the time left: -EINTR.
 */
static long
select_finish(long ret, bool wrote)
{
	if (!wrote && ret == -ERESTARTNOHAND)
		return -EINTR;
	return ret;
}

SYSCALL5(select, int, n, u64 __user *, inp, u64 __user *, outp, u64 __user *, exp,
	 struct kernel_timeval __user *, tvp)
{
	u64 __user *uset[3] = { inp, outp, exp };
	struct kernel_timeval tv;
	s64 timeout_ns = -1;

	if (tvp) {
		if (copy_from_user(&tv, tvp, sizeof(tv)))
			return -EFAULT;
		if (timeout_from(tv.tv_sec + tv.tv_usec / 1000000,
				 (tv.tv_usec % 1000000) * NSEC_PER_USEC, &timeout_ns))
			return -EINVAL;
	}
	bool zero = timeout_ns == 0;
	long ret = select_user(n, uset, &timeout_ns);
	if (!tvp || zero)
		return ret;
	if (timeout_sticky())
		return select_finish(ret, false);
	tv = (struct kernel_timeval){ timeout_ns / NSEC_PER_SEC,
				      timeout_ns % NSEC_PER_SEC / NSEC_PER_USEC };
	return select_finish(ret, copy_to_user(tvp, &tv, sizeof(tv)) == 0);
}

/* pselect6's sixth argument: the mask and its size, in one structure (six registers only). */
struct pselect_sigmask {
	const u64 __user *set;
	size_t size;
};

SYSCALL6(pselect6, int, n, u64 __user *, inp, u64 __user *, outp, u64 __user *, exp,
	 struct kernel_timespec __user *, tsp, const struct pselect_sigmask __user *, sig)
{
	u64 __user *uset[3] = { inp, outp, exp };
	struct kernel_timespec ts;
	struct pselect_sigmask sm = { NULL, 0 };
	s64 timeout_ns = -1;

	if (sig && copy_from_user(&sm, sig, sizeof(sm)))
		return -EFAULT;
	if (tsp) {
		if (copy_from_user(&ts, tsp, sizeof(ts)))
			return -EFAULT;
		if (timeout_from(ts.tv_sec, ts.tv_nsec, &timeout_ns))
			return -EINVAL;
	}
	if (sm.set) {
		long err = signal_set_temporary_mask_user(sm.set, sm.size);
		if (err)
			return err;
	}
	bool zero = timeout_ns == 0;
	long ret = select_user(n, uset, &timeout_ns);
	if (sm.set)
		signal_restore_temporary_mask(ret == -ERESTARTNOHAND);
	if (!tsp || zero)
		return ret;
	if (timeout_sticky())
		return select_finish(ret, false);
	ts = (struct kernel_timespec){ timeout_ns / NSEC_PER_SEC, timeout_ns % NSEC_PER_SEC };
	return select_finish(ret, copy_to_user(tsp, &ts, sizeof(ts)) == 0);
}
