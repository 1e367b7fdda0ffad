/*
 * rwlock.h - reader-writer spinlocks: any number of readers hold the lock
 * at once, a writer holds it alone; nobody sleeps. For data read far more
 * often than changed, whose readers would otherwise exclude each other
 * (the page-cache index of a file that hundreds of threads pread,
 * fs/filemap.c).
 *
 * The lock word counts readers (in units of RW_READER) beside one writer
 * bit; wait_lock, a ticket spinlock (spinlock.h), is the queue of everyone
 * who could not get in at once, in arrival order. As Linux's queued
 * rwlock (qrwlock), with one difference: a writer holds wait_lock for its
 * whole hold, so that spinlock.c's instruments (lockstat, lockdebug's
 * checks of recursion, of sleeping and of returning to user mode with it
 * held) see every writer as a spinlock holder without code of their own.
 *
 *  - A reader adds RW_READER. If the writer bit was clear it is in: the
 *    writer sets the bit before it looks at the readers, so one of the
 *    two sees the other. If the bit was set, it takes its count back and
 *    queues on wait_lock; holding it, no writer is in (only wait_lock's
 *    holder sets the bit), so it adds its count and passes wait_lock on.
 *  - A writer takes wait_lock, sets the bit (new readers now queue behind
 *    it) and waits for the readers already in to leave.
 * Fair to writers: once a writer holds wait_lock no new reader enters,
 * and readers queued on wait_lock came after earlier writers. A reader
 * that takes the lock again while holding it may wait for a writer that
 * waits for it: recursion is a deadlock, and lockdebug catches it.
 *
 * Instrumentation: with lockstat or lockdebug on, readers take the out-of-
 * line paths of spinlock.c, which count the acquisition as shared and, under
 * lockdebug, record the read hold on the CPU's stack of held spinlocks
 * (spinlock.c), so that the context checks see it as a held spinlock.
 * Host unit tests: tests/unit/test_rwlock.c.
 */
#ifndef REWIND_RWLOCK_H
#define REWIND_RWLOCK_H

#include "locking/spinlock.h"

#define RW_WRITER 1u /* a writer is in, or waits for the readers in to leave */
#define RW_READER 2u /* one reader, in the count above the writer bit */

struct rwlock {
	u32 cnts;		   /* readers * RW_READER | RW_WRITER */
	struct spinlock wait_lock; /* the queue; a writer holds it; the lock's name */
};

static inline void
rwlock_init(struct rwlock *l, const char *name)
{
	l->cnts = 0;
	spin_lock_init(&l->wait_lock, name);
}

/* Out of line: the waits (rwlock.c) and the instrumented reader paths (spinlock.c). */
void read_lock_tracked(struct rwlock *l);
void read_unlock_tracked(struct rwlock *l);
void read_lock_queued(struct rwlock *l);
void write_wait_for_readers(struct rwlock *l);

static inline void
read_lock(struct rwlock *l)
{
	if (spin_instrumented()) {
		read_lock_tracked(l);
		return;
	}
	if (unlikely(__atomic_add_fetch(&l->cnts, RW_READER, __ATOMIC_ACQUIRE) & RW_WRITER))
		read_lock_queued(l);
}

static inline void
read_unlock(struct rwlock *l)
{
	if (spin_instrumented()) {
		read_unlock_tracked(l);
		return;
	}
	__atomic_sub_fetch(&l->cnts, RW_READER, __ATOMIC_RELEASE);
}

static inline void
write_lock(struct rwlock *l)
{
	spin_lock(&l->wait_lock);
	if (__atomic_fetch_or(&l->cnts, RW_WRITER, __ATOMIC_ACQUIRE) != 0)
		write_wait_for_readers(l);
}

static inline void
write_unlock(struct rwlock *l)
{
	/* Atomic: readers meanwhile add and take back their counts. */
	__atomic_and_fetch(&l->cnts, ~RW_WRITER, __ATOMIC_RELEASE);
	spin_unlock(&l->wait_lock);
}

#endif
