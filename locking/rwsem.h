/*
 * rwsem.h - the sleeping reader-writer semaphore behind each address
 * space's mmap lock: mmap, munmap, mprotect and brk take it for writing,
 * the page-fault handler for reading (docs/seeds.md's seed 002 is about exactly this
 * pairing).
 *
 * Which Linux rwsem it is, is the run-time knob `rwsem_spin`
 * (locking/rwsem_policy.h lists the values): `off` is Linux 3.15's x86-64
 * rwsem-xadd, the others its optimistic-spinning successors, up to 5.3's
 * rework. How a lock behaves under each, and how a switch is safe while
 * locks are held: locking/rwsem.c; the count layouts: rwsem_xadd.c (off
 * to reader-owned) and rwsem_bits.c (handoff); the spin queue: osq.h.
 *
 * Every lock operation is process context only, never an interrupt
 * handler: a taker may sleep.
 *
 * lockstat counts it under its name: read and write acquisitions, read
 * and write contentions (a taker that took the slow path) apart, the hold
 * times of writers; and, per policy, the slow paths' spin time, spin
 * successes and failures, sleeps and hand-offs (lockstat.h).
 */
#ifndef REWIND_RWSEM_H
#define REWIND_RWSEM_H

#include "kernel/lib/list.h"
#include "kernel/lib/types.h"
#include "locking/lockstat.h"
#include "locking/osq.h"
#include "locking/spinlock.h"

enum rwsem_layout {
	RWSEM_LAYOUT_XADD, /* ACTIVE/WAITING biases (Linux <= 5.2 on x86-64): rwsem_xadd.c */
	RWSEM_LAYOUT_BITS, /* writer, waiters and hand-off bits, readers above (5.3): rwsem_bits.c */
};

struct rwsem {
	long count;		    /* the lock word, in this lock's layout */
	unsigned long owner;	    /* the writing task, or 0, or reader marks (per layout) */
	struct osq osq;		    /* writers queued to spin (spinning policies) */
	u8 layout;		    /* enum rwsem_layout: set by rwsem_init, never changed */
	struct spinlock wait_lock;  /* guards wait_list; only the slow paths take it */
	struct list_head wait_list; /* struct rwsem_waiter, FIFO */
	const char *name;
	struct lock_track stat; /* held_since: the writer's */
};

/* The layout comes from the policy in force now (rwsem.c says why). */
void rwsem_init(struct rwsem *s, const char *name);
void down_read(struct rwsem *s);
void up_read(struct rwsem *s);
void down_write(struct rwsem *s);
void up_write(struct rwsem *s);
/* The writer becomes a reader without letting any writer in between. */
void downgrade_write(struct rwsem *s);
bool down_read_trylock(struct rwsem *s);
bool down_write_trylock(struct rwsem *s);

/* Whether anyone holds it or waits for it (for assertions and tests). */
bool rwsem_is_locked(const struct rwsem *s);

#endif
