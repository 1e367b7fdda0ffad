/*
 * mutex.h - a sleeping lock for long critical sections in process context
 * (file-system structures, exec): waiters sleep instead of spinning. Not
 * for interrupt handlers. Counted by lockstat under its name.
 *
 * The count is Linux 3.x's: 1 free, 0 held with nobody waiting, negative
 * held with perhaps someone waiting. Uncontended, mutex_lock is one atomic
 * decrement and mutex_unlock one atomic increment; only a result that
 * says "someone else is here" leads to the slow paths (mutex.c), the only
 * code that takes the wait lock.
 */
#ifndef REWIND_MUTEX_H
#define REWIND_MUTEX_H

#include "kernel/lib/list.h"
#include "locking/lockstat.h"
#include "locking/spinlock.h"

struct task;

struct mutex {
	long count;		    /* 1 free, 0 held, < 0 held and perhaps waited for */
	struct task *owner;	    /* the holder (plain stores; for checks and debugging) */
	struct spinlock wait_lock;  /* guards wait_list; only the slow paths take it */
	struct list_head wait_list; /* struct mutex_waiter, FIFO */
	const char *name;
	struct lock_track stat;
};

/* clang-format off */
#define MUTEX_INIT(m, n) { .count = 1, .owner = NULL, .wait_lock = SPINLOCK_INIT("mutex_wait"), \
			   .wait_list = LIST_HEAD_INIT((m).wait_list), .name = (n) }
/* clang-format on */

void mutex_init(struct mutex *m, const char *name);
void mutex_lock(struct mutex *m);
/*
 * mutex_lock, but a fatal signal (SIGKILL, exit_group) ends the wait: 0,
 * or -EINTR without the mutex (Linux's mutex_lock_killable). For system
 * calls, so that a task queued behind a long holder can still be killed.
 */
int mutex_lock_killable(struct mutex *m);
bool mutex_trylock(struct mutex *m);
void mutex_unlock(struct mutex *m);
bool mutex_is_held_by_me(const struct mutex *m);

#endif
