/*
 * timerfd.c - timerfd_create, timerfd_settime, timerfd_gettime: a timer
 * whose expiries are read from a file (and wake poll and epoll).
 *
 * As Linux's fs/timerfd.c: reading 8 bytes gives the expiries since the
 * last read (waiting for one, or EAGAIN) and resets them; settime arms it
 * (relative, or TFD_TIMER_ABSTIME on the timer's clock), 0 disarms, and
 * each new setting forgets the expiries not read; gettime gives the time
 * to the next expiry and the interval. Clocks: REALTIME, MONOTONIC,
 * BOOTTIME and their ALARM twins (rewind does not suspend, so an alarm
 * clock is its base clock); an ALARM clock is CAP_WAKE_ALARM's, as Linux's
 * (EPERM), since on a machine that suspends it would wake the machine.
 *
 * The expiries come from a kernel timer (kernel/time/timer.h) on a TSC
 * deadline: an absolute REALTIME time is turned into one when armed, so a
 * later change of the wall clock does not move it; a timer armed with
 * TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET on a REALTIME clock is
 * cancelled by that change instead: its read fails with ECANCELED
 * (timerfd_clock_was_set, called when the wall clock is set).
 */
#include "fs/vfs.h"
#include "kernel/process/cred.h"
#include "kernel/lib/string.h"
#include "kernel/sched/sched.h"
#include "kernel/syscall/syscall.h"
#include "kernel/time/clock.h"
#include "kernel/time/timer.h"
#include "kernel/time/tsc.h"
#include "mm/kmalloc.h"
#include "uapi/errno.h"
#include "uapi/time.h"

#define TFD_TIMER_ABSTIME	1u
#define TFD_TIMER_CANCEL_ON_SET 2u
#define TFD_CLOEXEC		O_CLOEXEC
#define TFD_NONBLOCK		O_NONBLOCK

struct timerfd {
	struct timer timer;
	int clock;	      /* the base clock: an ALARM clock's twin */
	struct spinlock lock; /* ticks, cancelled */
	u64 ticks;	      /* expiries not read yet */
	bool cancelled;	      /* the wall clock was set under a CANCEL_ON_SET timer */
	bool cancel_on_set;   /* in cancel_list */
	u64 interval_ns;
	struct list_head cancel_link;
	struct wait_queue wq;
};

/* Timers armed with TFD_TIMER_CANCEL_ON_SET, for timerfd_clock_was_set. */
static struct spinlock cancel_lock = SPINLOCK_INIT("timerfd_cancel");
static struct list_head cancel_list = LIST_HEAD_INIT(cancel_list);

static void
timerfd_expired(struct timer *t, u64 expiries)
{
	struct timerfd *ctx = container_of(t, struct timerfd, timer);
	u64 flags = spin_lock_irqsave(&ctx->lock);

	ctx->ticks += expiries;
	spin_unlock_irqrestore(&ctx->lock, flags);
	wake_up_all(&ctx->wq);
}

void
timerfd_clock_was_set(void)
{
	u64 flags = spin_lock_irqsave(&cancel_lock);
	struct list_head *pos;

	list_for_each(pos, &cancel_list) {
		struct timerfd *ctx = list_entry(pos, struct timerfd, cancel_link);
		spin_lock(&ctx->lock);
		ctx->cancelled = true;
		spin_unlock(&ctx->lock);
		wake_up_all(&ctx->wq);
	}
	spin_unlock_irqrestore(&cancel_lock, flags);
}

/* Puts ctx on or off the list of timers a wall-clock change cancels. */
static void
set_cancel_on_set(struct timerfd *ctx, bool on)
{
	u64 flags = spin_lock_irqsave(&cancel_lock);

	if (on && !ctx->cancel_on_set)
		list_add_tail(&ctx->cancel_link, &cancel_list);
	else if (!on && ctx->cancel_on_set)
		list_del(&ctx->cancel_link);
	ctx->cancel_on_set = on;
	spin_unlock_irqrestore(&cancel_lock, flags);
}

/*
 * Takes the expiries into *ticks: 0, -ECANCELED once after a wall-clock
 * change cancelled the timer, or 1 when there is nothing yet.
 */
static long
take_ticks(struct timerfd *ctx, u64 *ticks)
{
	u64 flags = spin_lock_irqsave(&ctx->lock);
	long ret = 1;

	if (ctx->cancelled) {
		ctx->cancelled = false;
		ret = -ECANCELED;
	} else if (ctx->ticks) {
		*ticks = ctx->ticks;
		ctx->ticks = 0;
		ret = 0;
	}
	spin_unlock_irqrestore(&ctx->lock, flags);
	return ret;
}

static long
timerfd_read(struct file *f, char __user *buf, size_t n, u64 *pos)
{
	struct timerfd *ctx = f->private;
	u64 ticks;
	long taken = 1; /* take_ticks's answer */

	if (n < sizeof(ticks))
		return -EINVAL;
	long ret = wait_event_nonblock(&ctx->wq, f->flags & O_NONBLOCK,
				       (taken = take_ticks(ctx, &ticks)) != 1);
	if (ret || taken)
		return ret ? ret : taken;
	return copy_to_user(buf, &ticks, sizeof(ticks)) ? -EFAULT : (long)sizeof(ticks);
}

static unsigned
timerfd_poll(struct file *f, struct poll_table *pt)
{
	struct timerfd *ctx = f->private;

	poll_wait(f, &ctx->wq, pt);
	return READ_ONCE(ctx->ticks) || READ_ONCE(ctx->cancelled) ? POLLIN | POLLRDNORM : 0;
}

static void
timerfd_release(struct file *f)
{
	struct timerfd *ctx = f->private;

	timer_cancel(&ctx->timer);
	set_cancel_on_set(ctx, false);
	kfree(ctx);
}

static const struct file_operations timerfd_fops = {
	.read = timerfd_read,
	.poll = timerfd_poll,
	.release = timerfd_release,
	.name = "[timerfd]",
};

/* The clock a timerfd runs on for clockid, or -EINVAL. */
static int
timerfd_base_clock(int clockid)
{
	switch (clockid) {
	case CLOCK_REALTIME:
	case CLOCK_MONOTONIC:
	case CLOCK_BOOTTIME:
		return clockid;
	case CLOCK_REALTIME_ALARM:
		return CLOCK_REALTIME;
	case CLOCK_BOOTTIME_ALARM:
		return CLOCK_BOOTTIME;
	default:
		return -EINVAL;
	}
}

SYSCALL2(timerfd_create, int, clockid, int, flags)
{
	int clock = timerfd_base_clock(clockid);

	if (clock < 0 || (flags & ~(TFD_CLOEXEC | TFD_NONBLOCK)))
		return -EINVAL;
	if (clock != clockid && !capable(CAP_WAKE_ALARM))
		return -EPERM;
	struct timerfd *ctx = kzalloc(sizeof(*ctx));
	if (!ctx)
		return -ENOMEM;
	timer_init(&ctx->timer, timerfd_expired);
	ctx->clock = clock;
	spin_lock_init(&ctx->lock, "timerfd");
	list_init(&ctx->cancel_link);
	wait_queue_init(&ctx->wq);
	int fd = anon_inode_getfd(&timerfd_fops, ctx,
				  O_RDWR | (flags & (TFD_CLOEXEC | TFD_NONBLOCK)));
	if (fd < 0)
		kfree(ctx);
	return fd;
}

/* The timerfd behind fd, referenced, or NULL with *err set (EBADF, EINVAL). */
static struct file *
timerfd_get(int fd, long *err)
{
	struct file *f = fd_get(fd);

	*err = -EBADF;
	if (f && f->ops != &timerfd_fops) {
		file_put(f);
		f = NULL;
		*err = -EINVAL;
	}
	return f;
}

/* The time to the next expiry and the interval, as gettime gives them. */
static struct kernel_itimerspec
timerfd_current(struct timerfd *ctx)
{
	u64 left = timer_remaining(&ctx->timer, rdtsc());

	return (struct kernel_itimerspec){ .it_interval = ns_to_timespec(ctx->interval_ns),
					   .it_value = ns_to_timespec(
						   left ? MAX(tsc_cycles_to_ns(left), 1) : 0) };
}

/* Arms ctx for value (absolute on its clock if abs) and interval, in ns; value 0 disarms. */
static void
timerfd_arm(struct timerfd *ctx, u64 value, u64 interval, bool abs)
{
	u64 flags = spin_lock_irqsave(&ctx->lock);

	ctx->ticks = 0;
	ctx->cancelled = false;
	spin_unlock_irqrestore(&ctx->lock, flags);
	ctx->interval_ns = value ? interval : 0;
	if (!value) {
		timer_arm(&ctx->timer, 0, 0);
		return;
	}
	if (abs) {
		s64 now = clock_read_ns(ctx->clock);
		value = value > (u64)now ? value - (u64)now : 0;
	}
	u64 now_tsc = rdtsc();
	timer_arm(&ctx->timer, now_tsc + MAX(tsc_ns_to_cycles(value), 1),
		  interval ? MAX(tsc_ns_to_cycles(interval), 1) : 0);
}

SYSCALL4(timerfd_settime, int, ufd, int, flags, const struct kernel_itimerspec __user *, utmr,
	 struct kernel_itimerspec __user *, otmr)
{
	struct kernel_itimerspec new, old;
	u64 value, interval;
	long err;

	if (copy_from_user(&new, utmr, sizeof(new)))
		return -EFAULT;
	if ((flags & ~(TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET)) ||
	    timespec_to_ns(&new.it_value, &value) || timespec_to_ns(&new.it_interval, &interval))
		return -EINVAL;
	struct file *f = timerfd_get(ufd, &err);
	if (!f)
		return err;
	struct timerfd *ctx = f->private;
	old = timerfd_current(ctx);
	set_cancel_on_set(ctx, value && ctx->clock == CLOCK_REALTIME &&
				       (flags & TFD_TIMER_ABSTIME) &&
				       (flags & TFD_TIMER_CANCEL_ON_SET));
	timerfd_arm(ctx, value, interval, flags & TFD_TIMER_ABSTIME);
	file_put(f);
	if (otmr && copy_to_user(otmr, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

SYSCALL2(timerfd_gettime, int, ufd, struct kernel_itimerspec __user *, otmr)
{
	long err;
	struct file *f = timerfd_get(ufd, &err);

	if (!f)
		return err;
	struct kernel_itimerspec cur = timerfd_current(f->private);
	file_put(f);
	return copy_to_user(otmr, &cur, sizeof(cur)) ? -EFAULT : 0;
}
