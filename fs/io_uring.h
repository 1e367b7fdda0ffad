/*
 * io_uring.h - what the parts of io_uring share: the instance behind an
 * io_uring fd (its shared rings, registered resources, requests still
 * waiting) and a request. fs/io_uring.c has the rings, setup and enter;
 * fs/io_uring_register.c the registered resources; fs/io_uring_ops.c the
 * operations and the poll-driven retry of those that would block.
 */
#ifndef REWIND_IO_URING_H
#define REWIND_IO_URING_H

#include "fs/vfs.h"
#include "kernel/sched/wait.h"
#include "locking/mutex.h"
#include "uapi/io_uring.h"
#include "uapi/uio.h"

struct mm;

/* Pages shared with user space through mmap, reached by offset (never across a page). */
struct io_region {
	struct page **pages;
	unsigned nr_pages;
};

struct io_ring_ctx {
	struct mutex lock;	   /* submission, registration, the pending list */
	struct spinlock cq_lock;   /* posting completions, the overflow and woken lists */
	struct wait_queue cq_wait; /* io_uring_enter's waiters, poll and epoll on the ring */
	unsigned flags;		   /* IORING_SETUP_* */
	unsigned sq_entries, cq_entries;
	struct io_region rings; /* heads, tails, flags, the completion entries, the SQ array */
	struct io_region sqes;	/* the submission entries */
	unsigned sq_array_off;	/* where the SQ array starts in rings */
	u32 cached_sq_head;	/* entries consumed so far (the kernel's copy of sq.head) */
	u32 cached_cq_tail;	/* completions posted so far */
	struct list_head
		overflow; /* struct io_overflow_cqe: completions the full ring had no room for */
	struct list_head pending;  /* struct io_req: requests armed on a file's wait queue */
	struct list_head woken;	   /* the pending ones a wake-up has reached, to run again */
	struct kernel_iovec *bufs; /* registered buffers (REGISTER_BUFFERS) */
	unsigned nr_bufs;
	struct file **files; /* registered files (REGISTER_FILES), NULL slots empty */
	unsigned nr_files;
	struct file *eventfd;	   /* REGISTER_EVENTFD: signalled for each completion */
	struct mem_charge *charge; /* the creator's: the ring pages and the overflow list */
};

/* A wait-queue entry of an armed request (a file may wake two queues: read and write sides). */
struct io_poll_entry {
	struct wait_entry we;
	struct wait_queue *q;
	struct io_req *req;
};

/* An operation taken from the submission ring. */
struct io_req {
	struct io_ring_ctx *ctx;
	struct io_uring_sqe sqe; /* the program's entry, copied */
	struct file *file;	 /* referenced, or NULL for an operation without one */
	struct list_head
		link; /* ctx->pending while armed; its leader's chain while it waits there */
	struct list_head
		chain; /* the requests linked behind it (IOSQE_IO_LINK), to start after it */
	struct list_head woken_link; /* ctx->woken, under cq_lock */
	bool woken;		     /* on ctx->woken */
	struct mm *mm;		     /* referenced while armed: whose memory the retry uses */
	unsigned events;	     /* the POLL* mask it waits for */
	struct io_poll_entry entries[2];
	unsigned nr_entries;
	struct poll_table pt;
};

/* ---- fs/io_uring.c ---- */

/* Posts a completion (the overflow list when the ring is full): any context. */
void io_post_cqe(struct io_ring_ctx *ctx, u64 user_data, s32 res, u32 flags);
/* Whether f is an io_uring instance (registering one in another is refused). */
bool file_is_io_uring(const struct file *f);

/* ---- fs/io_uring_ops.c ---- */

/*
 * Runs one request and the chain linked behind it (ctx->lock held): each
 * completes, or the first whose file is not ready is armed on its file's
 * wait queues to run again once the file is ready, keeping the rest of the
 * chain. Consumes req and its chain.
 */
void io_issue(struct io_req *req);
/* Completes a chain that never started (an entry of it could not) with ECANCELED. */
void io_cancel_chain(struct io_req *head);
/* Runs again the armed requests a wake-up reached, in the submitter's memory. */
void io_run_woken(struct io_ring_ctx *ctx);
/* Cancels and frees every armed request (the ring's release). */
void io_cancel_pending(struct io_ring_ctx *ctx);
/* Whether the operation code is one rewind runs (REGISTER_PROBE). */
bool io_op_supported(unsigned op);

/* ---- fs/io_uring_register.c ---- */

/* io_uring_register's work (ctx->lock held): 0, a count, or -errno. */
long io_register(struct io_ring_ctx *ctx, unsigned opcode, void __user *arg, unsigned nr_args);
/* Drops every registered buffer, file and the eventfd (the ring's release). */
void io_unregister_all(struct io_ring_ctx *ctx);

#endif
