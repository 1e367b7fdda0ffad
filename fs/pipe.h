/*
 * pipe.h - a pipe's ring inside the kernel: what pipe.c (read, write,
 * FIFOs, sizes) and splice.c (splice, tee, vmsplice) share. Everything
 * here is called with the pipe's lock held, except where it says not.
 */
#ifndef REWIND_PIPE_H
#define REWIND_PIPE_H

#include "fs/pipe_accounting.h"
#include "fs/vfs.h"

/*
 * The packets in a pipe (Linux's PIPE_BUF_FLAG_PACKET buffers): each
 * O_DIRECT write of up to PIPE_BUF bytes is one, and a read takes at most
 * one of them. A ring of [start, end) byte counters, oldest first, with a
 * slot per page of the pipe, as Linux has a buffer per page (a packet
 * write waits for a free one); allocated at the first packet.
 */
struct pipe_packet {
	u32 start, end; /* in the pipe's head and tail counters */
};

struct pipe_packets {
	struct pipe_packet *ring; /* NULL until a packet is written */
	u32 slots;		  /* the ring's size: the pipe's pages */
	u32 first, count;	  /* the oldest packet's slot, and how many */
};

struct pipe {
	struct mutex lock;
	char *buf;		     /* size bytes, a ring */
	u32 size;		     /* a power of two of pages; changes under the lock */
	struct pipe_account account; /* the pages, charged to the creator's user */
	struct mem_charge *charge;   /* and to its process; NULL if none could be had */
	u32 head, tail;		     /* bytes ever written and read (mod 2^32) */
	u32 readers, writers;	     /* open ends */
	u32 r_counter, w_counter;    /* opens ever of each end (FIFOs wait for them to move) */
	struct wait_queue rd_wait;   /* readers wait for data or no writers */
	struct wait_queue wr_wait;   /* writers wait for room or no readers */
	struct list_head fasync_readers, fasync_writers; /* the ends in O_ASYNC mode (fasync.c) */
	struct pipe_packets packets; /* O_DIRECT writes: where each packet lies in the ring */
};

/* The pipe behind f (a pipe's end or an open FIFO), or NULL (Linux's get_pipe_info). */
struct pipe *pipe_of(struct file *f);

/* Bytes in p, and room for more: single reads, so callers without the lock may test them. */
u32 pipe_used(struct pipe *p);
u32 pipe_room(struct pipe *p);

/*
 * Waits until p holds data or has no writers (then it stays empty: end of
 * file): 0, -EAGAIN if nonblock, or a signal's -ERESTARTSYS/-EINTR.
 */
int pipe_wait_readable(struct pipe *p, bool nonblock);
/*
 * Waits until p has room for need bytes (and, for a packet, a free packet
 * slot): 0, -EPIPE (with SIGPIPE) when no reader is left, -EAGAIN if
 * nonblock, or a signal's error.
 */
int pipe_wait_writable(struct pipe *p, u32 need, bool packet, bool nonblock);

/*
 * Data came (or the last writer left): wakes p's readers and signals its
 * O_ASYNC readers' owners (POLL_IN). Without the lock.
 */
void pipe_wake_readers(struct pipe *p);
/* Room came (or the last reader left): the same for p's writers (POLL_OUT). */
void pipe_wake_writers(struct pipe *p);

/* Copies n (<= used) bytes from p's head of data to buf, leaving them there: 0 or -EFAULT. */
int pipe_peek_to_user(struct pipe *p, char __user *buf, u32 n);
/* Drops n (<= used) bytes, and the packets they end, from p's head of data (the caller wakes p's writers). */
void pipe_consume(struct pipe *p, u32 n);
/* Appends n (<= room) bytes from buf to p: 0 or -EFAULT (the caller wakes p's readers). */
int pipe_append_from_user(struct pipe *p, const char __user *buf, u32 n);
/* Appends to `to` n bytes of from's data, skipping none, consuming none (both locks held). */
void pipe_copy_data(struct pipe *from, struct pipe *to, u32 n);

#endif
