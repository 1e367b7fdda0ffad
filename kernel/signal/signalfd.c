/*
 * signalfd.c - signalfd and signalfd4: the signals in a mask, read as
 * records from a file instead of delivered to handlers.
 *
 * As Linux's fs/signalfd.c: reading takes pending signals of the mask from
 * the reading thread and its process (the same dequeue as sigtimedwait,
 * so a signal read is consumed) as 128-byte struct signalfd_siginfo
 * records, as many as fit, waiting for the first unless O_NONBLOCK
 * (EAGAIN). The mask never holds SIGKILL or SIGSTOP; signalfd on an
 * existing signalfd replaces its mask. The signals are usually blocked, so
 * nothing else takes them first.
 *
 * Readiness: a file is readable while the reader has a pending signal in
 * its mask. Every signal queued wakes its process's sighand->signalfd_wq
 * (send_signal). poll and epoll wait on the queue of the process that
 * made the file, which the file keeps alive with a reference: in another
 * process (after fork) the file still reads that process's own signals,
 * but only its maker's signals wake a poll on it (Linux's is woken by the
 * signals of whoever polled it first, with its own caveats after fork).
 */
#include "kernel/signal/signal_internal.h"
#include "fs/vfs.h"
#include "kernel/lib/string.h"
#include "kernel/sched/sched.h"
#include "kernel/syscall/syscall.h"
#include "kernel/time/posix_timer.h"
#include "mm/kmalloc.h"
#include "uapi/errno.h"
#include "uapi/signal.h"

#define SFD_CLOEXEC  O_CLOEXEC
#define SFD_NONBLOCK O_NONBLOCK

/* What one read gives per signal: Linux's struct signalfd_siginfo, 128 bytes. */
struct signalfd_siginfo {
	u32 ssi_signo;
	s32 ssi_errno;
	s32 ssi_code;
	u32 ssi_pid;
	u32 ssi_uid;
	s32 ssi_fd;
	u32 ssi_tid;
	u32 ssi_band;
	u32 ssi_overrun;
	u32 ssi_trapno;
	s32 ssi_status;
	s32 ssi_int;
	u64 ssi_ptr;
	u64 ssi_utime;
	u64 ssi_stime;
	u64 ssi_addr;
	u16 ssi_addr_lsb;
	u16 pad2;
	s32 ssi_syscall;
	u64 ssi_call_addr;
	u32 ssi_arch;
	u8 pad[28];
};
_Static_assert(sizeof(struct signalfd_siginfo) == 128, "Linux's layout");

struct signalfd_ctx {
	u64 mask;	       /* atomic: signalfd4 on the file may change it */
	struct sighand *waker; /* referenced: its signalfd_wq wakes poll */
};

static bool
is_fault_signal(int sig)
{
	return sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE || sig == SIGTRAP;
}

/* A siginfo as its record, the fields its kind has (Linux's signalfd_copyinfo by siginfo_layout). */
static void
fill_record(const struct kernel_siginfo *info, struct signalfd_siginfo *r)
{
	memset(r, 0, sizeof(*r));
	r->ssi_signo = (u32)info->signo;
	r->ssi_errno = info->errno_;
	r->ssi_code = info->code;
	if (info->code == SI_TIMER) {
		r->ssi_tid = (u32)info->timer.tid;
		r->ssi_overrun = (u32)info->timer.overrun;
		r->ssi_ptr = info->timer.value;
		r->ssi_int = (s32)info->timer.value;
	} else if (info->code > 0 && info->code != SI_KERNEL && info->signo == SIGCHLD) {
		r->ssi_pid = (u32)info->child.pid;
		r->ssi_uid = info->child.uid;
		r->ssi_status = info->child.status;
		r->ssi_utime = (u64)info->child.utime;
		r->ssi_stime = (u64)info->child.stime;
	} else if (info->code > 0 && info->code != SI_KERNEL && is_fault_signal(info->signo)) {
		r->ssi_addr = info->fault.addr;
		r->ssi_addr_lsb = (u16)info->fault.addr_lsb;
	} else {
		r->ssi_pid = (u32)info->kill.pid;
		r->ssi_uid = info->kill.uid;
		if (info->code < 0 &&
		    info->code != SI_TKILL) { /* sigqueue and friends carry a value */
			r->ssi_ptr = info->kill.value;
			r->ssi_int = (s32)info->kill.value;
		}
	}
}

/* Takes one pending signal of mask from the current thread or its process: 0 when none. */
static int
take_signal(u64 mask, struct kernel_siginfo *info)
{
	struct task *t = current();
	u64 flags = sighand_lock(t);
	bool timer;
	int sig = dequeue_signal(t, mask, info, &timer);

	sighand_unlock(t, flags);
	if (timer) /* a timer's signal, taken: the timer may arm again */
		posix_timer_delivered(info);
	return sig;
}

/* The first signal, waiting for it unless nonblocking: 0, -EAGAIN or -ERESTARTSYS. */
static long
wait_signal(struct file *f, u64 mask, struct kernel_siginfo *info)
{
	return wait_event_nonblock(&current()->sighand->signalfd_wq, f->flags & O_NONBLOCK,
				   take_signal(mask, info));
}

static long
signalfd_read(struct file *f, char __user *buf, size_t n, u64 *pos)
{
	struct signalfd_ctx *ctx = f->private;
	u64 mask = READ_ONCE(ctx->mask);
	size_t count = n / sizeof(struct signalfd_siginfo), done = 0;
	struct kernel_siginfo info;
	struct signalfd_siginfo r;

	if (!count)
		return -EINVAL;
	long ret = wait_signal(f, mask, &info);
	while (!ret) {
		fill_record(&info, &r);
		if (copy_to_user(buf + done * sizeof(r), &r, sizeof(r)))
			return done ? (long)(done * sizeof(r))
				    : -EFAULT; /* the signal is gone, as in Linux */
		if (++done == count || !take_signal(mask, &info))
			break;
	}
	return done ? (long)(done * sizeof(r)) : ret;
}

static unsigned
signalfd_poll(struct file *f, struct poll_table *pt)
{
	struct signalfd_ctx *ctx = f->private;
	struct task *t = current();

	poll_wait(f, &ctx->waker->signalfd_wq, pt);
	u64 pending = READ_ONCE(t->sig_pending.set) | READ_ONCE(t->group_leader->sig_shared.set);
	return pending & READ_ONCE(ctx->mask) ? POLLIN | POLLRDNORM : 0;
}

static void
signalfd_release(struct file *f)
{
	struct signalfd_ctx *ctx = f->private;

	sighand_put(ctx->waker);
	kfree(ctx);
}

static const struct file_operations signalfd_fops = {
	.read = signalfd_read,
	.poll = signalfd_poll,
	.release = signalfd_release,
	.name = "[signalfd]",
};

static long
do_signalfd(int ufd, const u64 __user *umask, size_t sizemask, int flags)
{
	u64 mask;

	if (sizemask != sizeof(mask))
		return -EINVAL;
	if (copy_from_user(&mask, umask, sizeof(mask)))
		return -EFAULT;
	if (flags & ~(SFD_CLOEXEC | SFD_NONBLOCK))
		return -EINVAL;
	mask &= ~UNBLOCKABLE;
	if (ufd != -1) {
		struct file *f = fd_get(ufd);
		if (!f)
			return -EBADF;
		struct signalfd_ctx *ctx = f->private;
		long ret = -EINVAL;
		if (f->ops == &signalfd_fops) {
			WRITE_ONCE(ctx->mask, mask);
			wake_up_all(&ctx->waker->signalfd_wq); /* readiness may have changed */
			ret = ufd;
		}
		file_put(f);
		return ret;
	}
	struct signalfd_ctx *ctx = kmalloc(sizeof(*ctx));
	if (!ctx)
		return -ENOMEM;
	ctx->mask = mask;
	ctx->waker = sighand_get(current()->sighand);
	int fd = anon_inode_getfd(&signalfd_fops, ctx,
				  O_RDWR | (flags & (SFD_CLOEXEC | SFD_NONBLOCK)));
	if (fd < 0) {
		sighand_put(ctx->waker);
		kfree(ctx);
	}
	return fd;
}

SYSCALL4(signalfd4, int, ufd, const u64 __user *, user_mask, size_t, sizemask, int, flags)
{
	return do_signalfd(ufd, user_mask, sizemask, flags);
}

SYSCALL3(signalfd, int, ufd, const u64 __user *, user_mask, size_t, sizemask)
{
	return do_signalfd(ufd, user_mask, sizemask, 0);
}
