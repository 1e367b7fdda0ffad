/*
 * mutex.h - a sleeping lock for long critical sections in process context
 * (file-system structures, exec): waiters sleep on a wait queue instead of
 * spinning. Not for interrupt handlers. Counted by lockstat under its name.
 */
#ifndef REWIND_MUTEX_H
#define REWIND_MUTEX_H

#include "kernel/sched/wait.h"
#include "locking/lockstat.h"

struct mutex {
	struct task *owner; /* NULL when free; guarded by waiters.lock */
	struct wait_queue waiters;
	const char *name;
	struct lock_track stat;
};

/* clang-format off */
#define MUTEX_INIT(m, n) { .owner = NULL, .waiters = WAIT_QUEUE_INIT((m).waiters), .name = (n) }
/* clang-format on */

void mutex_init(struct mutex *m, const char *name);
void mutex_lock(struct mutex *m);
bool mutex_trylock(struct mutex *m);
void mutex_unlock(struct mutex *m);
bool mutex_is_held_by_me(const struct mutex *m);

#endif
