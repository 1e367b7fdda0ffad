/*
 * rwsem.h - the sleeping reader-writer semaphore behind each address
 * space's mmap lock: mmap, munmap, mprotect and brk take it for writing,
 * the page-fault handler for reading.
 *
 * This is the pre-3.16 Linux behaviour (sleep at once when the lock is
 * busy, wake waiters in FIFO order, a woken writer takes the lock, a batch
 * of readers at the queue's head takes it together). The rwsem regression
 * milestone makes the slow path selectable (optimistic spinning and its
 * fixes) behind this same interface.
 *
 * lockstat counts it under its name: read and write acquisitions, read
 * and write contentions (a taker that had to queue) apart, and the hold
 * times of writers.
 */
#ifndef REWIND_RWSEM_H
#define REWIND_RWSEM_H

#include "kernel/lib/list.h"
#include "kernel/lib/types.h"
#include "locking/lockstat.h"
#include "locking/spinlock.h"

struct task;

struct rwsem {
	struct spinlock lock;	  /* guards everything below */
	long count;		  /* > 0: that many readers; -1: one writer; 0: free */
	struct task *owner;	  /* the writer, for debugging and later spinning */
	struct list_head waiters; /* struct rwsem_waiter, FIFO */
	const char *name;
	struct lock_track stat; /* held_since: the writer's */
};

/* clang-format off */
#define RWSEM_INIT(s, n) { .lock = SPINLOCK_INIT("rwsem"), .count = 0, .owner = NULL, \
			   .waiters = LIST_HEAD_INIT((s).waiters), .name = (n) }
/* clang-format on */

void rwsem_init(struct rwsem *s, const char *name);
void down_read(struct rwsem *s);
void up_read(struct rwsem *s);
void down_write(struct rwsem *s);
void up_write(struct rwsem *s);
bool down_read_trylock(struct rwsem *s);
bool down_write_trylock(struct rwsem *s);

#endif
