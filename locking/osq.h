/*
 * osq.h - the optimistic spin queue: an MCS-style queue of CPUs that want
 * to spin on one sleeping lock's owner, so that only the CPU at its head
 * spins on the lock itself (locking/osq.c has the algorithm).
 *
 * A CPU queues at most once at a time (spinning never sleeps and rewind's
 * kernel code is never preempted, so nothing else on that CPU can queue
 * meanwhile), which is why one node per CPU suffices and the queue is a
 * single int: the tail's CPU number + 1, 0 when empty.
 */
#ifndef REWIND_OSQ_H
#define REWIND_OSQ_H

#include "kernel/lib/types.h"

struct osq {
	int tail; /* CPU + 1 of the last queued CPU; 0: nobody queued */
};

/* clang-format off */
#define OSQ_INIT { .tail = 0 }
/* clang-format on */

static inline void
osq_init(struct osq *q)
{
	q->tail = 0;
}

/*
 * Queues this CPU and waits until it is the queue's head; true then.
 * False when this CPU must reschedule first (need_resched): it has left
 * the queue again and must not spin.
 */
bool osq_lock(struct osq *q);
/* The head leaves, passing the head to the next CPU queued, if any. */
void osq_unlock(struct osq *q);

static inline bool
osq_is_locked(const struct osq *q)
{
	return __atomic_load_n(&q->tail, __ATOMIC_RELAXED) != 0;
}

#endif
