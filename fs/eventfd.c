/*
 * eventfd.c - eventfd and eventfd2: a 64-bit counter as a file, for one
 * thread or process to signal another (and to wake an epoll instance).
 *
 * As Linux's fs/eventfd.c: a write of 8 bytes adds to the counter, waiting
 * (or EAGAIN) while the sum would pass 0xfffffffffffffffe; a read of 8
 * bytes waits (or EAGAIN) while it is 0, then returns it and resets it to
 * 0, or with EFD_SEMAPHORE returns 1 and takes 1. Readable while above 0,
 * writable while below the maximum. One wait queue serves both sides and
 * poll, so any change wakes readers, writers and watching epoll instances.
 */
#include "fs/vfs.h"
#include "kernel/sched/sched.h"
#include "kernel/syscall/syscall.h"
#include "mm/kmalloc.h"
#include "uapi/errno.h"

#define EFD_SEMAPHORE 1u
#define EFD_CLOEXEC   O_CLOEXEC
#define EFD_NONBLOCK  O_NONBLOCK
#define EFD_MAX	      0xfffffffffffffffeull /* the counter never holds ~0 */

struct eventfd {
	struct spinlock lock; /* count */
	u64 count;
	bool semaphore;
	struct wait_queue wq;
};

/* Runs step(ctx, arg) under the lock: whether it could act. */
static bool
try_step(struct eventfd *ctx, bool (*step)(struct eventfd *ctx, u64 *arg), u64 *arg)
{
	u64 flags = spin_lock_irqsave(&ctx->lock);
	bool done = step(ctx, arg);

	spin_unlock_irqrestore(&ctx->lock, flags);
	return done;
}

/*
 * Waits until step(ctx, arg) succeeds, then wakes the other side: 0,
 * -EAGAIN for a non-blocking file that would wait, or -ERESTARTSYS.
 */
static long
eventfd_wait(struct file *f, bool (*step)(struct eventfd *ctx, u64 *arg), u64 *arg)
{
	struct eventfd *ctx = f->private;
	long ret = wait_event_nonblock(&ctx->wq, f->flags & O_NONBLOCK, try_step(ctx, step, arg));

	if (!ret)
		wake_up_all(&ctx->wq);
	return ret;
}

/* A read's step: takes the count (or 1) into *value when there is one. */
static bool
take_count(struct eventfd *ctx, u64 *value)
{
	if (!ctx->count)
		return false;
	*value = ctx->semaphore ? 1 : ctx->count;
	ctx->count -= *value;
	return true;
}

/* A write's step: adds *value when the sum stays at or below EFD_MAX. */
static bool
add_count(struct eventfd *ctx, u64 *value)
{
	if (EFD_MAX - ctx->count < *value)
		return false;
	ctx->count += *value;
	return true;
}

static long
eventfd_read(struct file *f, char __user *buf, size_t n, u64 *pos)
{
	u64 value;

	if (n < sizeof(value))
		return -EINVAL;
	long ret = eventfd_wait(f, take_count, &value);
	if (ret)
		return ret;
	return copy_to_user(buf, &value, sizeof(value)) ? -EFAULT : (long)sizeof(value);
}

static long
eventfd_write(struct file *f, const char __user *buf, size_t n, u64 *pos)
{
	u64 value;

	if (n < sizeof(value))
		return -EINVAL;
	if (copy_from_user(&value, buf, sizeof(value)))
		return -EFAULT;
	if (value == ~0ull)
		return -EINVAL;
	long ret = eventfd_wait(f, add_count, &value);
	return ret ? ret : (long)sizeof(value);
}

static unsigned
eventfd_poll(struct file *f, struct poll_table *pt)
{
	struct eventfd *ctx = f->private;
	unsigned mask = 0;

	poll_wait(f, &ctx->wq, pt);
	u64 count = READ_ONCE(ctx->count);
	if (count > 0)
		mask |= POLLIN | POLLRDNORM;
	if (count < EFD_MAX)
		mask |= POLLOUT | POLLWRNORM;
	return mask;
}

static void
eventfd_release(struct file *f)
{
	kfree(f->private);
}

static const struct file_operations eventfd_fops = {
	.read = eventfd_read,
	.write = eventfd_write,
	.poll = eventfd_poll,
	.release = eventfd_release,
	.name = "[eventfd]",
};

bool
file_is_eventfd(const struct file *f)
{
	return f->ops == &eventfd_fops;
}

/* Adds n without waiting, stopping at EFD_MAX as Linux's eventfd_signal. */
static bool
add_saturating(struct eventfd *ctx, u64 *n)
{
	ctx->count += MIN(*n, EFD_MAX - ctx->count);
	return true;
}

void
eventfd_signal(struct file *f, u64 n)
{
	struct eventfd *ctx = f->private;

	try_step(ctx, add_saturating, &n);
	wake_up_all(&ctx->wq);
}

static long
do_eventfd(unsigned initval, int flags)
{
	if (flags & ~(EFD_SEMAPHORE | EFD_CLOEXEC | EFD_NONBLOCK))
		return -EINVAL;
	struct eventfd *ctx = kzalloc(sizeof(*ctx));
	if (!ctx)
		return -ENOMEM;
	spin_lock_init(&ctx->lock, "eventfd");
	wait_queue_init(&ctx->wq);
	ctx->count = initval;
	ctx->semaphore = flags & EFD_SEMAPHORE;
	int fd = anon_inode_getfd(&eventfd_fops, ctx,
				  O_RDWR | (flags & (EFD_CLOEXEC | EFD_NONBLOCK)));
	if (fd < 0)
		kfree(ctx);
	return fd;
}

SYSCALL2(eventfd2, unsigned, initval, int, flags)
{
	return do_eventfd(initval, flags);
}

SYSCALL1(eventfd, unsigned, initval)
{
	return do_eventfd(initval, 0);
}
