/*
 * userfaultfd.c - userfaultfd(2) and /dev/userfaultfd: a file through
 * which a process handles the page faults of memory it registered, as
 * Linux's fs/userfaultfd.c.
 *
 * UFFDIO_API negotiates the features first; UFFDIO_REGISTER marks areas of
 * the creator's address space (mm/userfaultfd.h says which). A fault there
 * queues a message (struct uffd_msg, UFFD_EVENT_PAGEFAULT) and sleeps
 * without the mmap lock; a read(2) of the file takes the message, and the
 * reader's UFFDIO_COPY, UFFDIO_ZEROPAGE or UFFDIO_CONTINUE fills the page
 * in and wakes the faults on its range (UFFDIO_WAKE wakes alone), which are
 * then tried again. Closing the file unregisters its areas and wakes every
 * fault, which then proceeds as if no userfaultfd had been there.
 *
 * Without CAP_SYS_PTRACE only UFFD_USER_MODE_ONLY descriptors may be made,
 * unless vm.unprivileged_userfaultfd is 1 (fs/proc/sysctl.c): a descriptor
 * that stops the kernel's own accesses (a read(2) into a registered page
 * waits too) lets its owner stretch a kernel race window at will. Opening
 * /dev/userfaultfd (root's) is the other way to the full kind.
 *
 * Not offered (UFFDIO_API reports the features there are): the events
 * (fork, remap, remove, unmap), write protection, huge pages, poison,
 * MISSING registration of file areas.
 */
#include "fs/vfs.h"
#include "kernel/process/cred.h"
#include "kernel/process/task.h"
#include "kernel/sched/sched.h"
#include "kernel/syscall/syscall.h"
#include "kernel/x86/traps.h"
#include "mm/kmalloc.h"
#include "mm/uaccess.h"
#include "mm/userfaultfd.h"
#include "mm/vm_internal.h"
#include "mm/hugetlb.h"
#include "kernel/lib/string.h"
#include "uapi/capability.h"
#include "uapi/errno.h"
#include "uapi/poll.h"
#include "uapi/userfaultfd.h"

/* vm.unprivileged_userfaultfd: whether anyone may have kernel faults handled (Linux's default 0). */
unsigned long unprivileged_userfaultfd;

#define UFFD_FEATURES (UFFD_FEATURE_SIGBUS | UFFD_FEATURE_MINOR_SHMEM | UFFD_FEATURE_EXACT_ADDRESS)
#define UFFD_API_IOCTLS \
	((1ull << _UFFDIO_REGISTER) | (1ull << _UFFDIO_UNREGISTER) | (1ull << _UFFDIO_API))
#define UFFD_RANGE_IOCTLS \
	((1ull << _UFFDIO_WAKE) | (1ull << _UFFDIO_COPY) | (1ull << _UFFDIO_ZEROPAGE))

struct userfaultfd_ctx {
	int refs;		 /* atomic: the file's, and each waiting fault's */
	struct mm *mm;		 /* whose areas it registers (referenced) */
	unsigned flags;		 /* UFFD_USER_MODE_ONLY */
	bool api_done;		 /* UFFDIO_API succeeded */
	u64 features;		 /* the UFFD_FEATURE_* asked for */
	bool released;		 /* the file is closed: faults no longer wait */
	struct spinlock lock;	 /* faults */
	struct list_head faults; /* of struct pending_fault, oldest first */
	struct wait_queue wq;	 /* faults waiting, readers, pollers */
};

/* A fault waiting for the reader, on the faulting task's stack. */
struct pending_fault {
	struct list_head link; /* in ctx->faults until woken */
	u64 page;	       /* the faulting page's address */
	bool read;	       /* its message was read */
	bool woken;
	struct uffd_msg msg;
};

static void
ctx_put(struct userfaultfd_ctx *ctx)
{
	if (__atomic_sub_fetch(&ctx->refs, 1, __ATOMIC_ACQ_REL))
		return;
	mm_put(ctx->mm);
	kfree(ctx);
}

/* ---- the fault side ------------------------------------------------------------- */

/* Whether the waiting fault is over: woken, the file closed, or a signal that ends the wait. */
static bool
fault_wait_over(struct userfaultfd_ctx *ctx, struct pending_fault *pf, bool user)
{
	if (READ_ONCE(pf->woken) || READ_ONCE(ctx->released))
		return true;
	/* A user fault stops for any signal and faults again after it; a kernel access only when killed. */
	return user ? signal_pending() : fatal_signal_pending();
}

enum fault_result
handle_userfault(struct mm *mm, struct vma *v, u64 addr, u64 error)
{
	struct userfaultfd_ctx *ctx = v->uffd;
	bool user = error & PF_USER;

	if ((ctx->features & UFFD_FEATURE_SIGBUS) ||
	    (!user && (ctx->flags & UFFD_USER_MODE_ONLY))) {
		up_read(&mm->mmap_lock);
		return FAULT_BUS;
	}
	struct pending_fault pf = { .page = addr & PAGE_MASK };
	pf.msg.event = UFFD_EVENT_PAGEFAULT;
	pf.msg.arg.pagefault.address = ctx->features & UFFD_FEATURE_EXACT_ADDRESS ? addr : pf.page;
	if (error & PF_WRITE)
		pf.msg.arg.pagefault.flags |= UFFD_PAGEFAULT_FLAG_WRITE;
	if (v->file)
		pf.msg.arg.pagefault.flags |= UFFD_PAGEFAULT_FLAG_MINOR;
	/* The file's release clears the areas under the mmap lock first: ctx lives while v says so. */
	__atomic_add_fetch(&ctx->refs, 1, __ATOMIC_RELAXED);
	spin_lock(&ctx->lock);
	list_add_tail(&pf.link, &ctx->faults);
	spin_unlock(&ctx->lock);
	up_read(&mm->mmap_lock);
	wake_up_all(&ctx->wq); /* the reader */

	WAIT_ENTRY(e);
	for (;;) {
		prepare_to_wait(&ctx->wq, &e);
		if (fault_wait_over(ctx, &pf, user))
			break;
		schedule();
	}
	finish_wait(&ctx->wq, &e);
	spin_lock(&ctx->lock);
	bool woken = pf.woken;
	if (!woken)
		list_del(&pf.link);
	spin_unlock(&ctx->lock);
	bool released = READ_ONCE(ctx->released);
	ctx_put(ctx);
	if (woken || released)
		return FAULT_RETRY;
	return user ? FAULT_OK : FAULT_BUS; /* interrupted (killed, for a kernel access) */
}

/* Wakes the faults on [start, start + len). */
static void
wake_range(struct userfaultfd_ctx *ctx, u64 start, u64 len)
{
	spin_lock(&ctx->lock);
	struct list_head *pos = ctx->faults.next;
	while (pos != &ctx->faults) {
		struct pending_fault *pf = list_entry(pos, struct pending_fault, link);
		pos = pos->next;
		if (pf->page >= start && pf->page - start < len) {
			list_del(&pf->link);
			WRITE_ONCE(pf->woken, true);
		}
	}
	spin_unlock(&ctx->lock);
	wake_up_all(&ctx->wq);
}

/* ---- the reader's side ------------------------------------------------------------ */

/* Copies the oldest unread message into *msg and marks it read: whether there was one. */
static bool
take_message(struct userfaultfd_ctx *ctx, struct uffd_msg *msg)
{
	struct list_head *pos;
	bool found = false;

	spin_lock(&ctx->lock);
	list_for_each(pos, &ctx->faults) {
		struct pending_fault *pf = list_entry(pos, struct pending_fault, link);
		if (!pf->read) {
			pf->read = found = true;
			*msg = pf->msg;
			break;
		}
	}
	spin_unlock(&ctx->lock);
	return found;
}

/* Whether a message waits to be read. */
static bool
message_pending(struct userfaultfd_ctx *ctx)
{
	struct list_head *pos;
	bool found = false;

	spin_lock(&ctx->lock);
	list_for_each(pos, &ctx->faults)
		if (!list_entry(pos, struct pending_fault, link)->read) {
			found = true;
			break;
		}
	spin_unlock(&ctx->lock);
	return found;
}

/* As many messages as fit in n bytes: waits for the first (unless O_NONBLOCK), not for more. */
static long
userfaultfd_read(struct file *f, char __user *buf, size_t n, u64 *pos)
{
	struct userfaultfd_ctx *ctx = f->private;
	struct uffd_msg msg;
	long done = 0;

	if (!ctx->api_done || n < sizeof(msg))
		return -EINVAL;
	while (n - done >= sizeof(msg)) {
		long err = wait_event_nonblock(&ctx->wq, done || (f->flags & O_NONBLOCK),
					       take_message(ctx, &msg));
		if (err)
			return done ? done : err;
		if (copy_to_user(buf + done, &msg, sizeof(msg)))
			return done ? done : -EFAULT;
		done += sizeof(msg);
	}
	return done;
}

static unsigned
userfaultfd_poll(struct file *f, struct poll_table *pt)
{
	struct userfaultfd_ctx *ctx = f->private;

	poll_wait(f, &ctx->wq, pt);
	if (!ctx->api_done)
		return POLLERR;
	return message_pending(ctx) ? POLLIN | POLLRDNORM : 0;
}

/*
 * The last close: the areas are unregistered under the mmap lock first, so
 * that no new fault can find ctx; the waiting ones then go on unhandled.
 */
static void
userfaultfd_release(struct file *f)
{
	struct userfaultfd_ctx *ctx = f->private;
	struct mm *mm = ctx->mm;

	down_write(&mm->mmap_lock);
	for (u64 a = 0;;) {
		struct vma *v = vma_above(mm, a);
		if (!v)
			break;
		a = v->end;
		if (v->uffd == ctx)
			vm_apply_userfaultfd(mm, v->start, v->end, 0,
					     NULL); /* no split: cannot fail */
	}
	up_write(&mm->mmap_lock);
	WRITE_ONCE(ctx->released, true);
	wake_up_all(&ctx->wq);
	ctx_put(ctx);
}

/* ---- the ioctls ------------------------------------------------------------------- */

/* Linux's validate_range: page-aligned, not empty, within user space above vm.mmap_min_addr. */
static int
validate_range(u64 start, u64 len)
{
	if ((start | len) & (PAGE_SIZE - 1) || !len || start < READ_ONCE(mmap_min_addr) ||
	    start >= USER_TOP || len > USER_TOP - start)
		return -EINVAL;
	return 0;
}

static long
uffdio_api(struct userfaultfd_ctx *ctx, struct uffdio_api __user *arg)
{
	struct uffdio_api api;

	if (ctx->api_done)
		return -EINVAL;
	if (copy_from_user(&api, arg, sizeof(api)))
		return -EFAULT;
	if (api.api != UFFD_API || (api.features & ~(u64)UFFD_FEATURES)) {
		memset(&api, 0, sizeof(api));
		return copy_to_user(arg, &api, sizeof(api)) ? -EFAULT : -EINVAL;
	}
	ctx->features = api.features;
	api.features = UFFD_FEATURES;
	api.ioctls = UFFD_API_IOCTLS;
	if (copy_to_user(arg, &api, sizeof(api)))
		return -EFAULT;
	ctx->api_done = true;
	return 0;
}

/* Whether v may be registered for modes (Linux's vma_can_userfault): 0 or -errno. */
static int
may_register(const struct vma *v, u32 modes, const struct userfaultfd_ctx *ctx)
{
	/* Huge pages would need 2 MiB copies (Linux's UFFDIO_COPY on hugetlb): not offered. */
	if (v->special || is_vm_hugetlb(v) ||
	    (v->file ? modes != VM_UFFD_MINOR : (modes & VM_UFFD_MINOR)))
		return -EINVAL;
	if (!(v->flags & VM_MAYWRITE))
		return -EPERM;
	if (v->uffd && v->uffd != ctx)
		return -EBUSY;
	return 0;
}

/*
 * Every area in [start, end) checked by may_register (and, with modes 0,
 * only that none is special), then all (un)registered. At least one area
 * must lie there (-ENOMEM above the last, else -EINVAL).
 */
static int
change_registration(struct userfaultfd_ctx *ctx, u64 start, u64 end, u32 modes)
{
	struct mm *mm = ctx->mm;
	int err = 0;

	down_write(&mm->mmap_lock);
	struct vma *v = vma_above(mm, start);
	if (!v)
		err = -ENOMEM;
	else if (v->start >= end)
		err = -EINVAL;
	for (; !err && v && v->start < end; v = vma_next(mm, v))
		err = modes ? may_register(v, modes, ctx) : (v->special ? -EINVAL : 0);
	if (!err)
		err = vm_apply_userfaultfd(mm, start, end, modes, modes ? ctx : NULL);
	up_write(&mm->mmap_lock);
	return err;
}

static long
uffdio_register(struct userfaultfd_ctx *ctx, struct uffdio_register __user *arg)
{
	struct uffdio_register reg;

	if (copy_from_user(&reg, arg, sizeof(reg)))
		return -EFAULT;
	/* Write protection is not offered: EINVAL, as Linux built without it. */
	if (!reg.mode ||
	    (reg.mode & ~(u64)(UFFDIO_REGISTER_MODE_MISSING | UFFDIO_REGISTER_MODE_MINOR)))
		return -EINVAL;
	u32 modes = (reg.mode & UFFDIO_REGISTER_MODE_MISSING ? VM_UFFD_MISSING : 0) |
		    (reg.mode & UFFDIO_REGISTER_MODE_MINOR ? VM_UFFD_MINOR : 0);
	int err = validate_range(reg.range.start, reg.range.len);
	if (!err)
		err = change_registration(ctx, reg.range.start, reg.range.start + reg.range.len,
					  modes);
	if (err)
		return err;
	reg.ioctls = modes & VM_UFFD_MINOR ? (1ull << _UFFDIO_WAKE) | (1ull << _UFFDIO_CONTINUE)
					   : UFFD_RANGE_IOCTLS;
	return copy_to_user(&arg->ioctls, &reg.ioctls, sizeof(reg.ioctls)) ? -EFAULT : 0;
}

/* UFFDIO_UNREGISTER: the faults waiting there are woken, and then go on unhandled. */
static long
uffdio_unregister(struct userfaultfd_ctx *ctx, struct uffdio_range __user *arg)
{
	struct uffdio_range r;

	if (copy_from_user(&r, arg, sizeof(r)))
		return -EFAULT;
	int err = validate_range(r.start, r.len);
	if (!err)
		err = change_registration(ctx, r.start, r.start + r.len, 0);
	if (!err)
		wake_range(ctx, r.start, r.len);
	return err;
}

static long
uffdio_wake(struct userfaultfd_ctx *ctx, struct uffdio_range __user *arg)
{
	struct uffdio_range r;

	if (copy_from_user(&r, arg, sizeof(r)))
		return -EFAULT;
	int err = validate_range(r.start, r.len);
	if (!err)
		wake_range(ctx, r.start, r.len);
	return err;
}

/*
 * UFFDIO_COPY, _ZEROPAGE and _CONTINUE: fills [dst, dst + len) (mfill),
 * stores the bytes filled or -errno in *result, and wakes the range's
 * faults unless DONTWAKE (bit 0 of each one's mode). 0 when all was
 * filled, -EAGAIN when a part was, else the error.
 */
static long
fill_range(struct userfaultfd_ctx *ctx, u64 dst, u64 src, u64 len, u64 mode, u64 modes_known,
	   enum mfill_kind kind, long long __user *result)
{
	if ((mode & ~modes_known) || validate_range(dst, len) ||
	    (kind == MFILL_COPY && ((src & (PAGE_SIZE - 1)) || src + len < src)))
		return -EINVAL;
	long done = mfill(ctx->mm, ctx, dst, src, len, kind);
	long long out = done;
	if (copy_to_user(result, &out, sizeof(out)))
		return -EFAULT;
	if (done < 0)
		return done;
	if (!(mode & UFFDIO_COPY_MODE_DONTWAKE))
		wake_range(ctx, dst, done);
	return (u64)done == len ? 0 : -EAGAIN;
}

static long
uffdio_copy(struct userfaultfd_ctx *ctx, struct uffdio_copy __user *arg)
{
	struct uffdio_copy c;

	if (copy_from_user(&c, arg, sizeof(c)))
		return -EFAULT;
	return fill_range(ctx, c.dst, c.src, c.len, c.mode, UFFDIO_COPY_MODE_DONTWAKE, MFILL_COPY,
			  &arg->copy);
}

static long
uffdio_zeropage(struct userfaultfd_ctx *ctx, struct uffdio_zeropage __user *arg)
{
	struct uffdio_zeropage z;

	if (copy_from_user(&z, arg, sizeof(z)))
		return -EFAULT;
	return fill_range(ctx, z.range.start, 0, z.range.len, z.mode, UFFDIO_ZEROPAGE_MODE_DONTWAKE,
			  MFILL_ZEROPAGE, &arg->zeropage);
}

static long
uffdio_continue(struct userfaultfd_ctx *ctx, struct uffdio_continue __user *arg)
{
	struct uffdio_continue c;

	if (copy_from_user(&c, arg, sizeof(c)))
		return -EFAULT;
	return fill_range(ctx, c.range.start, 0, c.range.len, c.mode, UFFDIO_CONTINUE_MODE_DONTWAKE,
			  MFILL_CONTINUE, &arg->mapped);
}

static long
userfaultfd_ioctl(struct file *f, unsigned cmd, unsigned long arg)
{
	struct userfaultfd_ctx *ctx = f->private;
	void __user *p = (void __user *)arg;

	if (cmd == UFFDIO_API)
		return uffdio_api(ctx, p);
	if (!ctx->api_done)
		return -EINVAL;
	switch (cmd) {
	case UFFDIO_REGISTER:
		return uffdio_register(ctx, p);
	case UFFDIO_UNREGISTER:
		return uffdio_unregister(ctx, p);
	case UFFDIO_WAKE:
		return uffdio_wake(ctx, p);
	case UFFDIO_COPY:
		return uffdio_copy(ctx, p);
	case UFFDIO_ZEROPAGE:
		return uffdio_zeropage(ctx, p);
	case UFFDIO_CONTINUE:
		return uffdio_continue(ctx, p);
	}
	return -EINVAL;
}

static const struct file_operations userfaultfd_fops = {
	.read = userfaultfd_read,
	.poll = userfaultfd_poll,
	.ioctl = userfaultfd_ioctl,
	.release = userfaultfd_release,
	.name = "[userfaultfd]",
};

/* A new userfaultfd for the caller's address space: its descriptor, or -errno. */
static long
new_userfaultfd(int flags)
{
	if (flags & ~(O_CLOEXEC | O_NONBLOCK | UFFD_USER_MODE_ONLY))
		return -EINVAL;
	struct userfaultfd_ctx *ctx = kzalloc(sizeof(*ctx));
	if (!ctx)
		return -ENOMEM;
	ctx->refs = 1;
	ctx->mm = current()->mm;
	mm_get(ctx->mm);
	ctx->flags = flags & UFFD_USER_MODE_ONLY;
	spin_lock_init(&ctx->lock, "userfaultfd");
	list_init(&ctx->faults);
	wait_queue_init(&ctx->wq);
	int fd = anon_inode_getfd(&userfaultfd_fops, ctx,
				  O_RDONLY | (flags & (O_CLOEXEC | O_NONBLOCK)));
	if (fd < 0)
		ctx_put(ctx);
	return fd;
}

SYSCALL1(userfaultfd, int, flags)
{
	if (!(flags & UFFD_USER_MODE_ONLY) && !capable(CAP_SYS_PTRACE) &&
	    !READ_ONCE(unprivileged_userfaultfd))
		return -EPERM;
	return new_userfaultfd(flags);
}

/* /dev/userfaultfd: whoever may open it (root, mode 0600) makes descriptors of the full kind. */
static long
userfaultfd_dev_ioctl(struct file *f, unsigned cmd, unsigned long flags)
{
	if (cmd != USERFAULTFD_IOC_NEW)
		return -EINVAL;
	return new_userfaultfd((int)flags);
}

static const struct file_operations userfaultfd_dev_fops = { .ioctl = userfaultfd_dev_ioctl };

void
userfaultfd_dev_init(void)
{
	devfs_register_mode("userfaultfd", MKDEV(10, 124), 0600, &userfaultfd_dev_fops, NULL);
}
