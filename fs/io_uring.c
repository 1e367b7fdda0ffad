/*
 * io_uring.c - io_uring_setup and io_uring_enter: a submission ring and a
 * completion ring shared with the program through mmap, as Linux 6.1's
 * io_uring/io_uring.c.
 *
 * The rings live in one region laid out as Linux's struct io_rings (the
 * heads and tails, the masks, sizes, flags and counters, the completion
 * entries from byte 64, the SQ index array on the cache line after them);
 * the 64-byte submission entries are a second region. IORING_OFF_SQ_RING and IORING_OFF_CQ_RING both map the first
 * (IORING_FEAT_SINGLE_MMAP), IORING_OFF_SQES the second. The pages are
 * the ring's own (page->mapping is the file's inode, so the fault path
 * takes them as the file's); they go when the fd's last reference does,
 * which is after the last mapping, each area holding the file.
 *
 * io_uring_enter consumes up to to_submit entries in ring order, each
 * copied before it runs (IORING_FEAT_SUBMIT_STABLE), then with
 * IORING_ENTER_GETEVENTS sleeps interruptibly, under the given signal
 * mask (and, with IORING_ENTER_EXT_ARG, a timeout), until min_complete
 * completions are in the ring. A completion that
 * finds the ring full waits on an overflow list (IORING_FEAT_NODROP) with
 * IORING_SQ_CQ_OVERFLOW set in the SQ flags, and moves in at the next
 * io_uring_enter that finds room; only when even that list's memory
 * cannot be had is it lost, counted in the CQ's overflow word.
 */
#include "fs/io_uring.h"
#include "kernel/sched/sched.h"
#include "kernel/syscall/syscall.h"
#include "mm/kmalloc.h"
#include "mm/oom_kill.h"
#include "mm/page_alloc.h"
#include "mm/uaccess.h"
#include "kernel/time/time64.h"
#include "kernel/time/tsc.h"
#include "uapi/errno.h"

#define IORING_MAX_ENTRIES    32768
#define IORING_MAX_CQ_ENTRIES (2 * IORING_MAX_ENTRIES)

/* Where struct io_rings keeps each field (Linux 6.1: packed words, the CQEs on a cache line). */
enum {
	RING_SQ_HEAD = 0,
	RING_SQ_TAIL = 4,
	RING_CQ_HEAD = 8,
	RING_CQ_TAIL = 12,
	RING_SQ_MASK = 16,
	RING_CQ_MASK = 20,
	RING_SQ_ENTRIES = 24,
	RING_CQ_ENTRIES = 28,
	RING_SQ_DROPPED = 32,
	RING_SQ_FLAGS = 36,
	RING_CQ_FLAGS = 40,
	RING_CQ_OVERFLOW = 44,
	RING_CQES = 64,
};

#define SETUP_FLAGS_BUILT                                                     \
	(IORING_SETUP_CQSIZE | IORING_SETUP_CLAMP | IORING_SETUP_SUBMIT_ALL | \
	 IORING_SETUP_COOP_TASKRUN)
#define FEATURES_BUILT                                                              \
	(IORING_FEAT_SINGLE_MMAP | IORING_FEAT_NODROP | IORING_FEAT_SUBMIT_STABLE | \
	 IORING_FEAT_RW_CUR_POS | IORING_FEAT_EXT_ARG)

/* A completion the ring had no room for. */
struct io_overflow_cqe {
	struct list_head link;
	struct io_uring_cqe cqe;
};

static void *
region_at(const struct io_region *r, u64 off)
{
	return (char *)page_address(r->pages[off >> PAGE_SHIFT]) + (off & (PAGE_SIZE - 1));
}

static u32 *
ring_word(struct io_ring_ctx *ctx, unsigned off)
{
	return region_at(&ctx->rings, off);
}

static void
region_free(struct io_region *r)
{
	for (unsigned i = 0; i < r->nr_pages && r->pages[i]; i++) {
		r->pages[i]->mapping = NULL;
		put_page(r->pages[i]);
	}
	kfree(r->pages);
}

/* Zeroed pages for size bytes: 0 or -ENOMEM (free with region_free either way). */
static int
region_alloc(struct io_region *r, u64 size)
{
	r->nr_pages = (unsigned)((size + PAGE_SIZE - 1) >> PAGE_SHIFT);
	r->pages = kzalloc(r->nr_pages * sizeof(*r->pages));
	if (!r->pages)
		return -ENOMEM;
	for (unsigned i = 0; i < r->nr_pages; i++) {
		r->pages[i] = alloc_shared_page();
		if (!r->pages[i])
			return -ENOMEM;
		r->pages[i]->index = i;
	}
	return 0;
}

static void
region_set_owner(struct io_region *r, struct inode *inode)
{
	for (unsigned i = 0; i < r->nr_pages; i++)
		r->pages[i]->mapping = inode;
}

/* Weighs bytes more (or less) in the creator's charge, for the OOM killer's choice. */
static void
ctx_charge(struct io_ring_ctx *ctx, s64 bytes)
{
	if (ctx->charge)
		mem_charge_add_bytes(ctx->charge, bytes);
}

/* Completions in the ring the program has not consumed yet. */
static u32
cq_ready(struct io_ring_ctx *ctx)
{
	return ctx->cached_cq_tail -
	       __atomic_load_n(ring_word(ctx, RING_CQ_HEAD), __ATOMIC_ACQUIRE);
}

static bool
cq_has_room(struct io_ring_ctx *ctx)
{
	return cq_ready(ctx) < ctx->cq_entries;
}

/* Writes a completion into the ring (cq_lock held, room checked). */
static void
cq_write(struct io_ring_ctx *ctx, const struct io_uring_cqe *cqe)
{
	unsigned idx = ctx->cached_cq_tail & (ctx->cq_entries - 1);

	*(struct io_uring_cqe *)region_at(&ctx->rings, RING_CQES + idx * sizeof(*cqe)) = *cqe;
	ctx->cached_cq_tail++;
	__atomic_store_n(ring_word(ctx, RING_CQ_TAIL), ctx->cached_cq_tail, __ATOMIC_RELEASE);
}

void
io_post_cqe(struct io_ring_ctx *ctx, u64 user_data, s32 res, u32 flags)
{
	struct io_uring_cqe cqe = { .user_data = user_data, .res = res, .flags = flags };
	struct io_overflow_cqe *ocqe = NULL;

	if (!list_empty(&ctx->overflow) || !cq_has_room(ctx))
		ocqe = kmalloc(sizeof(*ocqe)); /* likely needed: taken before the lock */
	u64 irq = spin_lock_irqsave(&ctx->cq_lock);
	if (list_empty(&ctx->overflow) && cq_has_room(ctx)) {
		cq_write(ctx, &cqe);
	} else if (ocqe) {
		ocqe->cqe = cqe;
		list_add_tail(&ocqe->link, &ctx->overflow);
		ctx_charge(ctx, sizeof(*ocqe));
		__atomic_or_fetch(ring_word(ctx, RING_SQ_FLAGS), IORING_SQ_CQ_OVERFLOW,
				  __ATOMIC_RELAXED);
		ocqe = NULL;
	} else {
		__atomic_add_fetch(ring_word(ctx, RING_CQ_OVERFLOW), 1, __ATOMIC_RELAXED);
	}
	spin_unlock_irqrestore(&ctx->cq_lock, irq);
	kfree(ocqe);
	wake_up_all(&ctx->cq_wait);
	if (ctx->eventfd)
		eventfd_signal(ctx->eventfd, 1);
}

/* Moves what the overflow list holds into the ring as far as there is room. */
static void
cq_flush_overflow(struct io_ring_ctx *ctx)
{
	u64 irq = spin_lock_irqsave(&ctx->cq_lock);
	while (!list_empty(&ctx->overflow) && cq_has_room(ctx)) {
		struct io_overflow_cqe *o =
			list_first_entry(&ctx->overflow, struct io_overflow_cqe, link);
		cq_write(ctx, &o->cqe);
		list_del(&o->link);
		ctx_charge(ctx, -(s64)sizeof(*o));
		kfree(o);
	}
	if (list_empty(&ctx->overflow))
		__atomic_and_fetch(ring_word(ctx, RING_SQ_FLAGS), ~IORING_SQ_CQ_OVERFLOW,
				   __ATOMIC_RELAXED);
	spin_unlock_irqrestore(&ctx->cq_lock, irq);
}

/* ---- submission ---------------------------------------------------------------- */

/* The next entry, copied into req, or false for an index past the SQE array (dropped). */
static bool
sq_take(struct io_ring_ctx *ctx, struct io_uring_sqe *out)
{
	unsigned slot = ctx->cached_sq_head++ & (ctx->sq_entries - 1);
	u32 idx = READ_ONCE(*ring_word(ctx, ctx->sq_array_off + slot * sizeof(u32)));

	__atomic_store_n(ring_word(ctx, RING_SQ_HEAD), ctx->cached_sq_head, __ATOMIC_RELEASE);
	if (idx >= ctx->sq_entries) {
		__atomic_add_fetch(ring_word(ctx, RING_SQ_DROPPED), 1, __ATOMIC_RELAXED);
		return false;
	}
	*out = *(struct io_uring_sqe *)region_at(&ctx->sqes, (u64)idx * sizeof(*out));
	return true;
}

/* Why an entry cannot even start (Linux's io_init_req): 0 or -errno for its completion. */
static int
sqe_check(const struct io_uring_sqe *sqe)
{
	if (sqe->flags & ~(IOSQE_FIXED_FILE | IOSQE_IO_DRAIN | IOSQE_IO_LINK | IOSQE_IO_HARDLINK |
			   IOSQE_ASYNC | IOSQE_CQE_SKIP_SUCCESS))
		return -EINVAL;
	if (sqe->opcode >= IORING_OP_LAST || !io_op_supported(sqe->opcode))
		return -EINVAL;
	return 0;
}

/*
 * Consumes up to n entries (ctx->lock held): how many, as Linux counts them
 * - an entry that cannot start completes with its error (and the chain it
 * was to join with ECANCELED) and ends the batch unless
 * IORING_SETUP_SUBMIT_ALL; an index past the array ends it uncounted. A
 * chain of linked entries starts once its last entry is in, or at the end
 * of the batch with what it has, as Linux's.
 */
static long
io_submit_sqes(struct io_ring_ctx *ctx, unsigned n)
{
	u32 tail = __atomic_load_n(ring_word(ctx, RING_SQ_TAIL), __ATOMIC_ACQUIRE);
	unsigned avail = MIN(tail - ctx->cached_sq_head, ctx->sq_entries);
	struct io_req *head = NULL; /* the chain being gathered */
	long done = 0;
	bool no_memory = false;

	for (n = MIN(n, avail); n; n--) {
		struct io_req *req = kzalloc(sizeof(*req));
		if (!req) {
			no_memory = true;
			break;
		}
		if (!sq_take(ctx, &req->sqe)) {
			kfree(req);
			break;
		}
		done++;
		req->ctx = ctx;
		list_init(&req->link);
		list_init(&req->chain);
		int err = sqe_check(&req->sqe);
		if (err) {
			io_post_cqe(ctx, req->sqe.user_data, err, 0);
			kfree(req);
			if (head)
				io_cancel_chain(head);
			head = NULL;
			if (!(ctx->flags & IORING_SETUP_SUBMIT_ALL))
				break;
			continue;
		}
		if (head)
			list_add_tail(&req->link, &head->chain);
		else
			head = req;
		if (!(req->sqe.flags & (IOSQE_IO_LINK | IOSQE_IO_HARDLINK))) {
			io_issue(head);
			head = NULL;
		}
	}
	if (head)
		io_issue(head);
	return done || !no_memory ? done : -EAGAIN;
}

/* ---- waiting -------------------------------------------------------------------- */

/* Runs the retries a wake-up asked for and moves overflowed completions in. */
static void
io_catch_up(struct io_ring_ctx *ctx)
{
	mutex_lock(&ctx->lock);
	io_run_woken(ctx);
	cq_flush_overflow(ctx);
	mutex_unlock(&ctx->lock);
}

static bool
woken_waiting(struct io_ring_ctx *ctx)
{
	return !list_empty(&ctx->woken);
}

/* What io_uring_enter waits with: a signal mask and, with IORING_ENTER_EXT_ARG, a timeout. */
struct io_wait_args {
	const u64 __user *sigmask;
	size_t sigsetsize;
	const struct kernel_timespec __user *ts;
};

/*
 * Sleeps until min completions are in the ring or, with a deadline
 * (ns_since_boot), until it passes: 0, -EINTR or -ETIME (0 anyway if some are).
 */
static long
io_cqring_wait(struct io_ring_ctx *ctx, unsigned min, u64 deadline)
{
	long ret = 0;

	min = MIN(min, ctx->cq_entries);
	for (;;) {
		io_catch_up(ctx);
		WAIT_ENTRY(we);
		prepare_to_wait(&ctx->cq_wait, &we);
		bool ready = cq_ready(ctx) >= min;
		bool retry = !ready && woken_waiting(ctx);
		u64 now = deadline ? ns_since_boot() : 0;
		if (!ready && !retry && task_interrupted())
			ret = -EINTR;
		else if (!ready && !retry && deadline && now >= deadline)
			ret = -ETIME;
		else if (!ready && !retry && deadline)
			schedule_timeout_ns(deadline - now);
		else if (!ready && !retry)
			schedule();
		finish_wait(&ctx->cq_wait, &we);
		if (ready || ret)
			break;
	}
	return cq_ready(ctx) ? 0 : ret;
}

/* The wait with the caller's signal mask (if given) in force and its timeout (if given). */
static long
io_cqring_wait_masked(struct io_ring_ctx *ctx, unsigned min, const struct io_wait_args *a)
{
	struct kernel_timespec ts;
	u64 deadline = 0;

	io_catch_up(ctx);
	if (cq_ready(ctx) >= MIN(min, ctx->cq_entries))
		return 0; /* before the mask is looked at, as Linux */
	if (a->ts) {
		if (copy_from_user(&ts, a->ts, sizeof(ts)))
			return -EFAULT;
		s64 ns;
		if (__builtin_mul_overflow(ts.tv_sec, NSEC_PER_SEC, &ns) ||
		    __builtin_add_overflow(ns, ts.tv_nsec, &ns))
			ns = INT64_MAX; /* centuries: as good as forever */
		deadline = ns_since_boot() + (u64)MAX(ns, 0);
	}
	if (a->sigmask) {
		long err = signal_set_temporary_mask_user(a->sigmask, a->sigsetsize);
		if (err)
			return err;
	}
	long ret = io_cqring_wait(ctx, min, deadline);
	if (a->sigmask)
		signal_restore_temporary_mask(ret == -EINTR);
	return ret;
}

/* io_uring_enter's last two arguments: the sigset, or with EXT_ARG the getevents record. */
static long
io_wait_args_get(unsigned flags, const void __user *argp, size_t argsz, struct io_wait_args *a)
{
	struct io_uring_getevents_arg arg;

	*a = (struct io_wait_args){ .sigmask = argp, .sigsetsize = argsz };
	if (!(flags & IORING_ENTER_EXT_ARG))
		return 0;
	if (argsz != sizeof(arg))
		return -EINVAL;
	if (copy_from_user(&arg, argp, sizeof(arg)))
		return -EFAULT; /* pad is not looked at, as 6.1 */
	*a = (struct io_wait_args){ .sigmask = (const u64 __user *)arg.sigmask,
				    .sigsetsize = arg.sigmask_sz,
				    .ts = (const struct kernel_timespec __user *)arg.ts };
	return 0;
}

/* ---- the file ------------------------------------------------------------------- */

static struct page *
io_uring_get_page(struct file *f, u64 index)
{
	struct io_ring_ctx *ctx = f->private;
	const struct io_region *r = &ctx->rings;
	u64 first = 0;

	if (index >= IORING_OFF_SQES >> PAGE_SHIFT) {
		r = &ctx->sqes;
		first = IORING_OFF_SQES >> PAGE_SHIFT;
	} else if (index >= IORING_OFF_CQ_RING >> PAGE_SHIFT) {
		first = IORING_OFF_CQ_RING >> PAGE_SHIFT;
	}
	if (index - first >= r->nr_pages)
		return NULL;
	struct page *p = r->pages[index - first];
	get_page(p);
	return p;
}

/* Readable with completions to consume (or retries to run), writable with SQ room. */
static unsigned
io_uring_poll(struct file *f, struct poll_table *pt)
{
	struct io_ring_ctx *ctx = f->private;
	unsigned mask = 0;

	poll_wait(f, &ctx->cq_wait, pt);
	u32 sq_tail = READ_ONCE(*ring_word(ctx, RING_SQ_TAIL));
	if (sq_tail - ctx->cached_sq_head < ctx->sq_entries)
		mask |= POLLOUT | POLLWRNORM;
	if (cq_ready(ctx) || !list_empty(&ctx->overflow) || woken_waiting(ctx))
		mask |= POLLIN | POLLRDNORM;
	return mask;
}

/* What the ring costs besides its overflow list: its pages and itself. */
static u64
ctx_bytes(const struct io_ring_ctx *ctx)
{
	return (u64)(ctx->rings.nr_pages + ctx->sqes.nr_pages) * PAGE_SIZE + sizeof(*ctx);
}

static void
io_ring_free(struct io_ring_ctx *ctx)
{
	while (!list_empty(&ctx->overflow)) {
		struct io_overflow_cqe *o =
			list_first_entry(&ctx->overflow, struct io_overflow_cqe, link);
		list_del(&o->link);
		ctx_charge(ctx, -(s64)sizeof(*o));
		kfree(o);
	}
	region_free(&ctx->rings);
	region_free(&ctx->sqes);
	if (ctx->charge) {
		mem_charge_add_bytes(ctx->charge, -(s64)ctx_bytes(ctx));
		mem_charge_put(ctx->charge);
	}
	kfree(ctx);
}

/* The last reference: armed requests are cancelled, registrations dropped, rings freed. */
static void
io_uring_release(struct file *f)
{
	struct io_ring_ctx *ctx = f->private;

	mutex_lock(&ctx->lock);
	io_cancel_pending(ctx);
	io_unregister_all(ctx);
	mutex_unlock(&ctx->lock);
	io_ring_free(ctx);
}

static const struct file_operations io_uring_fops = {
	.get_page = io_uring_get_page,
	.poll = io_uring_poll,
	.release = io_uring_release,
	.name = "[io_uring]",
};

bool
file_is_io_uring(const struct file *f)
{
	return f->ops == &io_uring_fops;
}

/* ---- setup ---------------------------------------------------------------------- */

static unsigned
roundup_pow_of_two(unsigned n)
{
	unsigned p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

/* The ring sizes as Linux's io_uring_create decides them: 0 or -EINVAL. */
static int
ring_sizes(unsigned entries, struct io_uring_params *p)
{
	if (!entries)
		return -EINVAL;
	if (entries > IORING_MAX_ENTRIES) {
		if (!(p->flags & IORING_SETUP_CLAMP))
			return -EINVAL;
		entries = IORING_MAX_ENTRIES;
	}
	p->sq_entries = roundup_pow_of_two(entries);
	if (!(p->flags & IORING_SETUP_CQSIZE)) {
		p->cq_entries = 2 * p->sq_entries;
		return 0;
	}
	if (!p->cq_entries)
		return -EINVAL;
	if (p->cq_entries > IORING_MAX_CQ_ENTRIES) {
		if (!(p->flags & IORING_SETUP_CLAMP))
			return -EINVAL;
		p->cq_entries = IORING_MAX_CQ_ENTRIES;
	}
	p->cq_entries = roundup_pow_of_two(p->cq_entries);
	return p->cq_entries < p->sq_entries ? -EINVAL : 0;
}

/* The offsets io_uring_setup reports, and the SQ array's place after the CQEs. */
static void
ring_offsets(struct io_uring_params *p)
{
	unsigned cqes_end = RING_CQES + p->cq_entries * sizeof(struct io_uring_cqe);

	p->sq_off = (struct io_sqring_offsets){
		.head = RING_SQ_HEAD,
		.tail = RING_SQ_TAIL,
		.ring_mask = RING_SQ_MASK,
		.ring_entries = RING_SQ_ENTRIES,
		.flags = RING_SQ_FLAGS,
		.dropped = RING_SQ_DROPPED,
		.array = (cqes_end + 63) & ~63u,
	};
	p->cq_off = (struct io_cqring_offsets){
		.head = RING_CQ_HEAD,
		.tail = RING_CQ_TAIL,
		.ring_mask = RING_CQ_MASK,
		.ring_entries = RING_CQ_ENTRIES,
		.overflow = RING_CQ_OVERFLOW,
		.cqes = RING_CQES,
		.flags = RING_CQ_FLAGS,
	};
	p->features = FEATURES_BUILT;
}

static struct io_ring_ctx *
io_ring_alloc(const struct io_uring_params *p)
{
	struct io_ring_ctx *ctx = kzalloc(sizeof(*ctx));

	if (!ctx)
		return NULL;
	mutex_init(&ctx->lock, "io_uring");
	spin_lock_init(&ctx->cq_lock, "io_uring_cq");
	wait_queue_init(&ctx->cq_wait);
	list_init(&ctx->overflow);
	list_init(&ctx->pending);
	list_init(&ctx->woken);
	ctx->flags = p->flags;
	ctx->sq_entries = p->sq_entries;
	ctx->cq_entries = p->cq_entries;
	ctx->sq_array_off = p->sq_off.array;
	if (region_alloc(&ctx->rings, p->sq_off.array + p->sq_entries * sizeof(u32)) ||
	    region_alloc(&ctx->sqes, p->sq_entries * sizeof(struct io_uring_sqe))) {
		io_ring_free(ctx);
		return NULL;
	}
	ctx->charge = mem_charge_current();
	ctx_charge(ctx, (s64)ctx_bytes(ctx));
	*ring_word(ctx, RING_SQ_MASK) = p->sq_entries - 1;
	*ring_word(ctx, RING_CQ_MASK) = p->cq_entries - 1;
	*ring_word(ctx, RING_SQ_ENTRIES) = p->sq_entries;
	*ring_word(ctx, RING_CQ_ENTRIES) = p->cq_entries;
	return ctx;
}

static long
io_uring_create(unsigned entries, struct io_uring_params *p, struct io_uring_params __user *up)
{
	int err = ring_sizes(entries, p);

	if (err)
		return err;
	ring_offsets(p);
	struct io_ring_ctx *ctx = io_ring_alloc(p);
	if (!ctx)
		return -ENOMEM;
	struct file *f = anon_inode_getfile(&io_uring_fops, ctx, O_RDWR);
	if (!f) {
		io_ring_free(ctx);
		return -ENOMEM;
	}
	region_set_owner(&ctx->rings, f->inode);
	region_set_owner(&ctx->sqes, f->inode);
	if (copy_to_user(up, p, sizeof(*p))) {
		file_put(f);
		return -EFAULT;
	}
	return fd_install_new(f, true);
}

SYSCALL2(io_uring_setup, unsigned, entries, struct io_uring_params __user *, uparams)
{
	struct io_uring_params p;

	if (copy_from_user(&p, uparams, sizeof(p)))
		return -EFAULT;
	for (unsigned i = 0; i < sizeof(p.resv) / sizeof(p.resv[0]); i++)
		if (p.resv[i])
			return -EINVAL;
	if (p.flags & ~SETUP_FLAGS_BUILT)
		return -EINVAL;
	return io_uring_create(entries, &p, uparams);
}

/* The ring behind fd, referenced: -EBADF for no file, -EOPNOTSUPP for another kind. */
static long
io_ring_get(int fd, struct file **out)
{
	struct file *f = fd_get(fd);

	if (!f)
		return -EBADF;
	if (!file_is_io_uring(f)) {
		file_put(f);
		return -EOPNOTSUPP;
	}
	*out = f;
	return 0;
}

SYSCALL6(io_uring_enter, unsigned, fd, unsigned, to_submit, unsigned, min_complete, unsigned, flags,
	 const void __user *, argp, size_t, argsz)
{
	struct file *f;
	long submitted = 0, ret = 0;

	if (flags & ~(IORING_ENTER_GETEVENTS | IORING_ENTER_SQ_WAKEUP | IORING_ENTER_SQ_WAIT |
		      IORING_ENTER_EXT_ARG))
		return -EINVAL;
	long err = io_ring_get((int)fd, &f);
	if (err)
		return err;
	struct io_ring_ctx *ctx = f->private;
	if (to_submit) {
		mutex_lock(&ctx->lock);
		io_run_woken(ctx);
		cq_flush_overflow(ctx);
		submitted = io_submit_sqes(ctx, to_submit);
		mutex_unlock(&ctx->lock);
	}
	/* Linux waits only when the whole batch went in. */
	if ((flags & IORING_ENTER_GETEVENTS) && submitted == to_submit) {
		struct io_wait_args a;
		ret = io_wait_args_get(flags, argp, argsz, &a);
		if (!ret)
			ret = io_cqring_wait_masked(ctx, min_complete, &a);
	}
	file_put(f);
	return submitted ? submitted : ret;
}

SYSCALL4(io_uring_register, unsigned, fd, unsigned, opcode, void __user *, arg, unsigned, nr_args)
{
	struct file *f;
	long err = io_ring_get((int)fd, &f);

	if (err)
		return err;
	struct io_ring_ctx *ctx = f->private;
	mutex_lock(&ctx->lock);
	long ret = io_register(ctx, opcode, arg, nr_args);
	mutex_unlock(&ctx->lock);
	file_put(f);
	return ret;
}
