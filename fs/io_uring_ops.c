/*
 * io_uring_ops.c - what each io_uring request does, and how one that
 * would block waits instead of holding up io_uring_enter.
 *
 * A request runs inline at submission when its file is ready for it:
 * regular files always are, so their reads and writes complete before
 * io_uring_enter returns (Linux too completes most file I/O inline). A
 * read or write on a file that is not ready (an empty pipe, a full one, a
 * socket without data) is armed instead: wait-queue entries go on the
 * file's queues through its poll op, as Linux's "poll-driven retry"
 * (io_arm_poll_handler), and the wake-up puts the request on the ring's
 * woken list. Its owner runs it again, in the submitter's own memory, the
 * next time it is in io_uring_enter (a waiter there is woken for it): a
 * retry that finds the file ready does the I/O and posts the completion,
 * else it stays armed. POLL_ADD is the same wait with the mask as its
 * result. A file opened O_NONBLOCK is not waited on: its -EAGAIN is the
 * completion, as in Linux. Requests linked with IOSQE_IO_LINK start one
 * after another; one that waits keeps the rest of its chain until it
 * completes.
 */
#include "fs/io_uring.h"
#include "kernel/process/task.h"
#include "mm/kmalloc.h"
#include "mm/vm.h"
#include "uapi/errno.h"
#include "uapi/fcntl.h"

#define POLL_ALWAYS (POLLERR | POLLHUP) /* a poll waits for these whatever it asks */

bool
io_op_supported(unsigned op)
{
	switch (op) {
	case IORING_OP_NOP:
	case IORING_OP_READV:
	case IORING_OP_WRITEV:
	case IORING_OP_FSYNC:
	case IORING_OP_READ_FIXED:
	case IORING_OP_WRITE_FIXED:
	case IORING_OP_POLL_ADD:
	case IORING_OP_POLL_REMOVE:
	case IORING_OP_SENDMSG:
	case IORING_OP_RECVMSG:
	case IORING_OP_OPENAT:
	case IORING_OP_CLOSE:
	case IORING_OP_STATX:
	case IORING_OP_READ:
	case IORING_OP_WRITE:
		return true;
	}
	return false;
}

/* Whether the operation works on sqe->fd (the registered file with IOSQE_FIXED_FILE). */
static bool
op_needs_file(unsigned op)
{
	return op != IORING_OP_NOP && op != IORING_OP_POLL_REMOVE && op != IORING_OP_OPENAT &&
	       op != IORING_OP_CLOSE && op != IORING_OP_STATX;
}

/* The mask a request waits for before it runs; 0 for one that never waits. */
static unsigned
op_events(const struct io_uring_sqe *sqe)
{
	switch (sqe->opcode) {
	case IORING_OP_READV:
	case IORING_OP_READ_FIXED:
	case IORING_OP_READ:
	case IORING_OP_RECVMSG:
		return POLLIN | POLLRDNORM | POLL_ALWAYS;
	case IORING_OP_WRITEV:
	case IORING_OP_WRITE_FIXED:
	case IORING_OP_WRITE:
	case IORING_OP_SENDMSG:
		return POLLOUT | POLLWRNORM | POLL_ALWAYS;
	case IORING_OP_POLL_ADD:
		return sqe->poll32_events | POLL_ALWAYS;
	}
	return 0;
}

/* The access mode a read or write needs of its file (checked before it waits), or 0. */
static u32
op_fmode(unsigned op)
{
	switch (op) {
	case IORING_OP_READV:
	case IORING_OP_READ_FIXED:
	case IORING_OP_READ:
		return FMODE_READ;
	case IORING_OP_WRITEV:
	case IORING_OP_WRITE_FIXED:
	case IORING_OP_WRITE:
		return FMODE_WRITE;
	}
	return 0;
}

/* The request's file, referenced (a registered one with IOSQE_FIXED_FILE): 0 or -EBADF. */
static int
req_get_file(struct io_req *req)
{
	struct io_ring_ctx *ctx = req->ctx;
	int fd = req->sqe.fd;

	if (!(req->sqe.flags & IOSQE_FIXED_FILE)) {
		req->file = fd_get(fd);
		return req->file ? 0 : -EBADF;
	}
	if (fd < 0 || (unsigned)fd >= ctx->nr_files || !ctx->files[fd])
		return -EBADF;
	req->file = ctx->files[fd];
	file_get(req->file);
	return 0;
}

static void
req_free(struct io_req *req)
{
	if (req->file)
		file_put(req->file);
	if (req->mm)
		mm_put(req->mm);
	kfree(req);
}

/* ---- the operations ------------------------------------------------------------ */

/* READ_FIXED, WRITE_FIXED: the range must lie inside registered buffer buf_index. */
static long
fixed_range_check(struct io_req *req)
{
	struct io_ring_ctx *ctx = req->ctx;
	const struct io_uring_sqe *sqe = &req->sqe;

	if (sqe->buf_index >= ctx->nr_bufs)
		return -EFAULT;
	const struct kernel_iovec *b = &ctx->bufs[sqe->buf_index];
	u64 start = (u64)b->iov_base, end = start + b->iov_len;
	if (sqe->addr < start || sqe->addr > end || sqe->len > end - sqe->addr)
		return -EFAULT;
	return 0;
}

/* READ, WRITE and their FIXED and vectored kinds, at sqe->off (-1: the file's offset). */
static long
op_rw(struct io_req *req, bool write, bool vectored)
{
	const struct io_uring_sqe *sqe = &req->sqe;
	struct kernel_iovec one = { .iov_base = (void *)sqe->addr, .iov_len = sqe->len };
	struct kernel_iovec *iov = &one;
	long total = MIN(sqe->len, MAX_RW_COUNT);
	int cnt = 1;

	if (sqe->rw_flags)
		return -EOPNOTSUPP; /* RWF_* per request are not built */
	if (vectored) {
		cnt = (int)sqe->len;
		total = iovec_import((const struct kernel_iovec __user *)sqe->addr, cnt, &iov);
		if (total <= 0)
			return total;
	}
	long ret = vfs_rw_iov_at(req->file, write, iov, cnt, total, (s64)sqe->off);
	if (vectored)
		kfree(iov);
	return ret;
}

static long
op_fsync(struct io_req *req)
{
	if (req->sqe.fsync_flags & ~IORING_FSYNC_DATASYNC)
		return -EINVAL;
	return vfs_fsync(req->file);
}

static long
op_close(struct io_req *req)
{
	if (req->sqe.flags & IOSQE_FIXED_FILE)
		return -EBADF;
	if (req->sqe.off || req->sqe.addr || req->sqe.len || req->sqe.rw_flags)
		return -EINVAL;
	struct file *f = fd_get(req->sqe.fd);
	if (!f)
		return -EBADF;
	bool ring = file_is_io_uring(f); /* a ring may not close itself, nor another */
	file_put(f);
	return ring ? -EBADF : fd_close(req->sqe.fd);
}

static long
op_openat(struct io_req *req)
{
	if (req->sqe.flags & IOSQE_FIXED_FILE)
		return -EBADF;
	return openat_user(req->sqe.fd, (const char __user *)req->sqe.addr,
			   (int)req->sqe.open_flags, req->sqe.len, 0);
}

/* STATX: sqe->fd is the directory, addr the path, len the mask, addr2 the buffer. */
static long
op_statx(struct io_req *req)
{
	const struct io_uring_sqe *sqe = &req->sqe;

	if (sqe->flags & IOSQE_FIXED_FILE)
		return -EBADF;
	return statx_user(sqe->fd, (const char __user *)sqe->addr, (int)sqe->statx_flags, sqe->len,
			  (struct kernel_statx __user *)sqe->addr2);
}

/* SENDMSG, RECVMSG: through the socket calls, which find the socket by its fd. */
static long
op_msg(struct io_req *req, bool send)
{
	if (req->sqe.flags & IOSQE_FIXED_FILE)
		return -EINVAL;
	void __user *msg = (void __user *)req->sqe.addr;
	return send ? do_sendmsg(req->sqe.fd, msg, req->sqe.msg_flags)
		    : do_recvmsg(req->sqe.fd, msg, req->sqe.msg_flags);
}

static long op_poll_remove(struct io_req *req);

/* The operation's result, its file ready for it. */
static long
io_execute(struct io_req *req)
{
	switch (req->sqe.opcode) {
	case IORING_OP_NOP:
		return 0;
	case IORING_OP_READV:
		return op_rw(req, false, true);
	case IORING_OP_WRITEV:
		return op_rw(req, true, true);
	case IORING_OP_READ_FIXED:
		return fixed_range_check(req) ?: op_rw(req, false, false);
	case IORING_OP_WRITE_FIXED:
		return fixed_range_check(req) ?: op_rw(req, true, false);
	case IORING_OP_READ:
		return op_rw(req, false, false);
	case IORING_OP_WRITE:
		return op_rw(req, true, false);
	case IORING_OP_FSYNC:
		return op_fsync(req);
	case IORING_OP_POLL_ADD:
		return file_poll(req->file, NULL) & req->events;
	case IORING_OP_POLL_REMOVE:
		return op_poll_remove(req);
	case IORING_OP_SENDMSG:
		return op_msg(req, true);
	case IORING_OP_RECVMSG:
		return op_msg(req, false);
	case IORING_OP_OPENAT:
		return op_openat(req);
	case IORING_OP_CLOSE:
		return op_close(req);
	case IORING_OP_STATX:
		return op_statx(req);
	}
	return -EINVAL;
}

/* ---- waiting for a file ----------------------------------------------------------- */

/* A wake-up on one of the file's queues (its lock held, interrupts off): queue a retry. */
static bool
io_poll_wake(struct wait_entry *we)
{
	struct io_req *req = container_of(we, struct io_poll_entry, we)->req;
	struct io_ring_ctx *ctx = req->ctx;

	spin_lock(&ctx->cq_lock);
	if (!req->woken) {
		req->woken = true;
		list_add_tail(&req->woken_link, &ctx->woken);
	}
	spin_unlock(&ctx->cq_lock);
	wake_up_all(&ctx->cq_wait);
	return true;
}

/* The poll op's queue callback: an entry on each queue (the first two: read and write sides). */
static void
io_poll_queue(struct file *f, struct wait_queue *q, struct poll_table *pt)
{
	struct io_req *req = container_of(pt, struct io_req, pt);

	if (req->nr_entries == sizeof(req->entries) / sizeof(req->entries[0]))
		return;
	struct io_poll_entry *e = &req->entries[req->nr_entries++];
	e->req = req;
	e->q = q;
	list_init(&e->we.link);
	add_wait_queue_func(q, &e->we, io_poll_wake);
}

/* Takes an armed request off its file's queues and the ring's lists (ctx->lock held). */
static void
io_disarm(struct io_req *req)
{
	struct io_ring_ctx *ctx = req->ctx;

	for (unsigned i = 0; i < req->nr_entries; i++)
		remove_wait_queue(req->entries[i].q, &req->entries[i].we);
	req->nr_entries = 0;
	u64 irq = spin_lock_irqsave(&ctx->cq_lock);
	if (req->woken)
		list_del(&req->woken_link);
	req->woken = false;
	spin_unlock_irqrestore(&ctx->cq_lock, irq);
	list_del(&req->link);
}

/* Whether a multishot poll stays armed after it completed with mask. */
static bool
poll_rearms(struct io_req *req)
{
	return req->sqe.opcode == IORING_OP_POLL_ADD && (req->sqe.len & IORING_POLL_ADD_MULTI);
}

/* Whether req's result cancels the requests linked behind it (a short read or write does). */
static bool
link_broken(const struct io_req *req, long res)
{
	if (req->sqe.flags & IOSQE_IO_HARDLINK)
		return false;
	if (res < 0)
		return true;
	switch (req->sqe.opcode) {
	case IORING_OP_READ:
	case IORING_OP_WRITE:
	case IORING_OP_READ_FIXED:
	case IORING_OP_WRITE_FIXED:
		return res != req->sqe.len;
	}
	return false;
}

/* Posts the completion of each request on the list with res, and frees them. */
static void
complete_all(struct io_ring_ctx *ctx, struct list_head *list, long res)
{
	while (!list_empty(list)) {
		struct io_req *req = list_first_entry(list, struct io_req, link);
		list_del(&req->link);
		io_post_cqe(ctx, req->sqe.user_data, (s32)res, 0);
		req_free(req);
	}
}

/*
 * Posts req's completion (none for a success with IOSQE_CQE_SKIP_SUCCESS)
 * and frees it: the next request of its chain to start, which takes the
 * rest of the chain, or NULL - the chain's end, or a broken link, whose
 * followers complete with ECANCELED.
 */
static struct io_req *
io_finish(struct io_req *req, long res)
{
	struct io_ring_ctx *ctx = req->ctx;
	struct list_head rest = LIST_HEAD_INIT(rest);
	bool broken = link_broken(req, res);

	list_add(&rest, &req->chain); /* rest takes the chain's place as its head */
	list_del(&req->chain);
	if (res < 0 || !(req->sqe.flags & IOSQE_CQE_SKIP_SUCCESS))
		io_post_cqe(ctx, req->sqe.user_data, (s32)res, 0);
	req_free(req);
	if (list_empty(&rest))
		return NULL;
	if (broken) {
		complete_all(ctx, &rest, -ECANCELED);
		return NULL;
	}
	struct io_req *next = list_first_entry(&rest, struct io_req, link);
	list_del(&next->link);
	list_add(&next->chain, &rest);
	list_del(&rest);
	return next;
}

void
io_cancel_chain(struct io_req *head)
{
	struct list_head all = LIST_HEAD_INIT(all);

	list_add(&all, &head->chain);
	list_del(&head->chain);
	list_add(&head->link, &all);
	complete_all(head->ctx, &all, -ECANCELED);
}

/* Arms req on its file's queues: true, or false with *res if the file is ready after all. */
static bool
io_arm(struct io_req *req, long *res)
{
	struct io_ring_ctx *ctx = req->ctx;

	if (file_is_io_uring(req->file) && req->file->private == ctx) {
		*res = -EINVAL; /* its own wake-up would be ours: Linux refuses it too */
		return false;
	}
	req->mm = current()->mm;
	mm_get(req->mm);
	list_init(&req->woken_link);
	list_add_tail(&req->link, &ctx->pending);
	req->pt.queue = io_poll_queue;
	unsigned mask = file_poll(req->file, &req->pt) & req->events;
	if (!mask)
		return true;
	if (poll_rearms(req)) {
		io_post_cqe(ctx, req->sqe.user_data, (s32)mask, IORING_CQE_F_MORE);
		return true;
	}
	io_disarm(req);
	*res = io_execute(req);
	return false;
}

/* Starts req: true when it waits, armed, for its file; else false with its result in *res. */
static bool
io_start(struct io_req *req, long *res)
{
	if (op_needs_file(req->sqe.opcode)) {
		int err = req_get_file(req);
		u32 need = op_fmode(req->sqe.opcode);
		if (err || (req->file->fmode & need) != need) {
			*res = err ? err : -EBADF;
			return false;
		}
		req->events = op_events(&req->sqe);
	}
	if (req->sqe.opcode == IORING_OP_POLL_ADD && (req->sqe.len & ~IORING_POLL_ADD_MULTI)) {
		*res = -EINVAL;
		return false;
	}
	bool waits = req->events &&
		     (req->sqe.opcode == IORING_OP_POLL_ADD || !(req->file->flags & O_NONBLOCK));
	if ((waits && !(file_poll(req->file, NULL) & req->events)) || poll_rearms(req))
		return io_arm(req,
			      res); /* a ready multishot gets its first event from the arming */
	*res = io_execute(req);
	return false;
}

void
io_issue(struct io_req *req)
{
	long res;

	while (req && !io_start(req, &res))
		req = io_finish(req, res);
}

/* An armed request whose file is ready (ctx->lock held): runs it, or posts a multishot's event. */
static void
io_run_ready(struct io_req *req, unsigned mask)
{
	if (poll_rearms(req)) {
		io_post_cqe(req->ctx, req->sqe.user_data, (s32)mask, IORING_CQE_F_MORE);
		return;
	}
	io_disarm(req);
	io_issue(io_finish(req, io_execute(req)));
}

/* The woken requests this task may run (its memory is theirs), moved to out. */
static void
take_runnable(struct io_ring_ctx *ctx, struct list_head *out)
{
	struct mm *mm = current()->mm;
	u64 irq = spin_lock_irqsave(&ctx->cq_lock);
	struct list_head *pos = ctx->woken.next;

	while (pos != &ctx->woken) {
		struct io_req *req = list_entry(pos, struct io_req, woken_link);
		pos = pos->next;
		if (req->mm != mm)
			continue;
		list_del(&req->woken_link);
		list_add_tail(&req->woken_link, out); /* still woken: a wake-up leaves it there */
	}
	spin_unlock_irqrestore(&ctx->cq_lock, irq);
}

void
io_run_woken(struct io_ring_ctx *ctx)
{
	struct list_head runnable = LIST_HEAD_INIT(runnable);

	take_runnable(ctx, &runnable);
	while (!list_empty(&runnable)) {
		struct io_req *req = list_first_entry(&runnable, struct io_req, woken_link);
		u64 irq = spin_lock_irqsave(&ctx->cq_lock);
		list_del(&req->woken_link);
		req->woken = false; /* a wake-up from here on queues it anew */
		spin_unlock_irqrestore(&ctx->cq_lock, irq);
		unsigned mask = file_poll(req->file, NULL) & req->events;
		if (mask)
			io_run_ready(req, mask); /* else still armed: the wake-up was for another */
	}
}

/* POLL_REMOVE: cancels the armed POLL_ADD whose user_data is sqe->addr. */
static long
op_poll_remove(struct io_req *req)
{
	struct io_ring_ctx *ctx = req->ctx;
	struct list_head *pos;

	list_for_each(pos, &ctx->pending) {
		struct io_req *armed = list_entry(pos, struct io_req, link);
		if (armed->sqe.opcode == IORING_OP_POLL_ADD &&
		    armed->sqe.user_data == req->sqe.addr) {
			io_disarm(armed);
			io_finish(armed, -ECANCELED); /* and its followers, if linked */
			return 0;
		}
	}
	return -ENOENT;
}

void
io_cancel_pending(struct io_ring_ctx *ctx)
{
	while (!list_empty(&ctx->pending)) {
		struct io_req *req = list_first_entry(&ctx->pending, struct io_req, link);
		io_disarm(req);
		while (!list_empty(&req->chain)) { /* its followers never started */
			struct io_req *next = list_first_entry(&req->chain, struct io_req, link);
			list_del(&next->link);
			req_free(next);
		}
		req_free(req);
	}
}
