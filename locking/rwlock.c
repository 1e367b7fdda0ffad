/*
 * rwlock.c - the reader-writer spinlock's waits (rwlock.h): a reader
 * queueing behind a writer, a writer waiting for the readers in to leave.
 * The instrumented reader paths are spinlock.c's, beside the held-lock
 * records they keep.
 */
#include "locking/rwlock.h"
#include "kernel/panic.h"
#include "locking/lockdebug.h"

/* The reader found a writer in or waiting: behind it, in arrival order. */
void
read_lock_queued(struct rwlock *l)
{
	__atomic_sub_fetch(&l->cnts, RW_READER, __ATOMIC_RELAXED);
	spin_lock(&l->wait_lock);
	/* No writer is in while we hold wait_lock: our count admits us at once. */
	__atomic_add_fetch(&l->cnts, RW_READER, __ATOMIC_ACQUIRE);
	spin_unlock(&l->wait_lock);
}

void
write_wait_for_readers(struct rwlock *l)
{
	/* One of the readers waited for is this CPU: it would wait for itself forever. */
	if (lockdebug_on() && spin_holds_shared(&l->wait_lock))
		panic("rwlock %s write-locked by a CPU that reads it, at %p", l->wait_lock.name,
		      __builtin_return_address(0));
	while (__atomic_load_n(&l->cnts, __ATOMIC_ACQUIRE) != RW_WRITER)
		cpu_relax();
}
