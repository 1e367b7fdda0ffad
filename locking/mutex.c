/*
 * mutex.c - the sleeping mutex; see mutex.h.
 *
 * The owner field is guarded by the wait queue's spinlock. Unlock hands
 * nothing over: it clears the owner and wakes every waiter, and they race
 * for it again (simple, and fair enough for the kernel's few long sections).
 *
 * For lockstat, a mutex_lock that had to sleep is a contention, waiting
 * from its first failed try until it has the mutex.
 */
#include "locking/mutex.h"
#include "kernel/panic.h"
#include "kernel/sched/sched.h"

void
mutex_init(struct mutex *m, const char *name)
{
	m->owner = NULL;
	wait_queue_init(&m->waiters);
	m->name = name;
	m->stat = (struct lock_track){ 0 };
}

/* Takes the mutex if it is free; counts nothing. */
static bool
mutex_take(struct mutex *m)
{
	u64 flags = spin_lock_irqsave(&m->waiters.lock);
	bool got = m->owner == NULL;

	if (got)
		m->owner = current();
	spin_unlock_irqrestore(&m->waiters.lock, flags);
	return got;
}

bool
mutex_trylock(struct mutex *m)
{
	bool got = mutex_take(m);

	if (got)
		lock_acquired(&m->stat, m->name, LOCK_EXCLUSIVE, 0);
	return got;
}

void
mutex_lock(struct mutex *m)
{
	WAIT_ENTRY(e);
	u64 waited_since = 0;

	BUG_ON(m->owner == current());
	for (;;) {
		prepare_to_wait(&m->waiters, &e);
		if (mutex_take(m))
			break;
		if (!waited_since)
			waited_since = lockstat_wait_start();
		schedule();
	}
	finish_wait(&m->waiters, &e);
	lock_acquired(&m->stat, m->name, LOCK_EXCLUSIVE, waited_since);
}

void
mutex_unlock(struct mutex *m)
{
	BUG_ON(m->owner != current());
	lock_released(&m->stat, m->name);
	u64 flags = spin_lock_irqsave(&m->waiters.lock);
	m->owner = NULL;
	spin_unlock_irqrestore(&m->waiters.lock, flags);
	wake_up_all(&m->waiters);
}

bool
mutex_is_held_by_me(const struct mutex *m)
{
	return READ_ONCE(m->owner) == current();
}
