/*
 * poll.c - poll and ppoll: wait until one of several files is ready.
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
 * ppoll's signal mask waits for signals. Not here: what "ready" means for
 * a file (its poll operation; without one a file is always readable and
 * writable, as in Linux).
 */
#include "fs/vfs.h"
#include "uapi/errno.h"
#include "kernel/sched/sched.h"
#include "kernel/syscall/syscall.h"
#include "kernel/time/tsc.h"
#include "uapi/time.h"
#include "mm/kmalloc.h"

#define DEFAULT_POLLMASK (POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM)
#define POLL_INLINE	 8
#define POLL_CHUNK	 32

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

struct poll_table {
	unsigned n; /* inline entries in use */
	struct poll_entry inline_e[POLL_INLINE];
	struct poll_chunk *chunks; /* once the inline ones are used up; newest first */
	int error;		   /* -ENOMEM: a queue could not be waited on */
	struct wait_queue self;	   /* so the task sleeps even with no file to wait on */
	struct wait_entry self_we;
};

static void
poll_table_init(struct poll_table *pt)
{
	pt->n = 0;
	pt->chunks = NULL;
	pt->error = 0;
	wait_queue_init(&pt->self);
	list_init(&pt->self_we.link);
	prepare_to_wait(&pt->self, &pt->self_we);
}

static struct poll_entry *
poll_entry_new(struct poll_table *pt)
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
	if (!pt)
		return;
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
poll_table_free(struct poll_table *pt)
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
	struct file *f = fd_get(pfd->fd);
	if (!f)
		return POLLNVAL;
	unsigned mask = f->ops->poll ? f->ops->poll(f, pt) : DEFAULT_POLLMASK;
	file_put(f);
	return (short)(mask & ((u16)pfd->events | POLLERR | POLLHUP));
}

/* One pass over every fd: how many have events. */
static int
poll_pass(struct kernel_pollfd *fds, unsigned nfds, struct poll_table *pt)
{
	int ready = 0;

	for (unsigned i = 0; i < nfds; i++) {
		fds[i].revents = poll_one(&fds[i], pt);
		if (fds[i].revents)
			ready++;
	}
	return ready;
}

/*
 * Polls until something is ready, *timeout_ns (negative: forever) passes,
 * or a signal comes; *timeout_ns is left with the time that remained.
 */
static long
do_poll(struct kernel_pollfd *fds, unsigned nfds, s64 *timeout_ns)
{
	u64 deadline = *timeout_ns > 0 ? ns_since_boot() + (u64)*timeout_ns : 0;
	struct poll_table pt;
	long ret;

	if (*timeout_ns == 0)
		return poll_pass(fds, nfds, NULL);
	for (;;) {
		poll_table_init(&pt);
		ret = poll_pass(fds, nfds, &pt);
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
	struct kernel_pollfd *fds = NULL;
	size_t size = (size_t)nfds * sizeof(*fds);

	if (nfds > NR_OPEN)
		return -EINVAL;
	if (nfds && !(fds = kmalloc(size)))
		return -ENOMEM;
	long ret = copy_from_user(fds, ufds, size);
	if (!ret)
		ret = do_poll(fds, nfds, timeout_ns);
	if (ret >= 0 && copy_to_user(ufds, fds, size))
		ret = -EFAULT;
	kfree(fds);
	return ret;
}

SYSCALL3(poll, struct kernel_pollfd __user *, fds, unsigned, nfds, int, timeout_ms)
{
	s64 timeout_ns = timeout_ms < 0 ? -1 : (s64)timeout_ms * 1000000;

	return poll_user(fds, nfds, &timeout_ns);
}

#define NSEC_PER_SEC 1000000000l

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
	long ret = poll_user(fds, nfds, &timeout_ns);
	if (tsp && timeout_ns >= 0) {
		/* The time left, as Linux reports it; a read-only timespec is not an error. */
		ts = (struct kernel_timespec){ timeout_ns / NSEC_PER_SEC,
					       timeout_ns % NSEC_PER_SEC };
		(void)copy_to_user(tsp, &ts, sizeof(ts));
	}
	return ret;
}
