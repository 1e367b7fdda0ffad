/*
 * wait.h - wait queues: how a task sleeps until a condition holds.
 *
 * The sleeper puts itself on the queue and marks itself sleeping *before*
 * testing the condition; the waker changes the condition first and then
 * wakes the queue. Whichever order the two CPUs run in, the sleeper either
 * sees the new condition or is woken after it went to sleep: no lost
 * wake-ups. wait_event_interruptible() and wait_event_nonblock() package
 * that loop.
 *
 * An entry may instead carry a wake function (add_wait_queue_func): a
 * wake-up then calls it, under the queue's lock with interrupts off, in
 * place of waking a task. That is how an epoll instance hears from the
 * files it watches without a task sleeping on each (fs/eventpoll.c), as
 * Linux's wait_queue_entry.func.
 *
 * An entry may be exclusive (Linux's WQ_FLAG_EXCLUSIVE): wake_up() wakes
 * every non-exclusive entry but only the first exclusive one that takes
 * the wake-up, so one event on a file watched by many epoll instances with
 * EPOLLEXCLUSIVE wakes one of them, not the herd. wake_up_all() wakes all.
 * A wake function says whether it took the wake-up: an epoll instance with
 * nobody waiting in it passes it on to the next.
 */
#ifndef REWIND_WAIT_H
#define REWIND_WAIT_H

#include "uapi/errno.h"
#include "kernel/lib/list.h"
#include "kernel/signal/signal.h"
#include "kernel/lib/types.h"
#include "locking/spinlock.h"

struct task;

struct wait_queue {
	struct spinlock lock;
	struct list_head waiters; /* of struct wait_entry */
};

struct wait_entry;
/*
 * Called by a wake-up in place of waking e->task (under the queue's lock,
 * interrupts off). Returns whether it took the wake-up (counted only for
 * an exclusive entry).
 */
typedef bool (*wake_func_t)(struct wait_entry *e);

struct wait_entry {
	struct list_head link;
	struct task *task;
	wake_func_t func; /* NULL: wake task */
	bool exclusive;	  /* wake_up() stops waking exclusive entries after one took it */
};

/* A wait entry must start unlinked: WAIT_ENTRY(e) declares one. */
#define WAIT_ENTRY(e)                                                                          \
	struct wait_entry e = {                                                                \
		.link = LIST_HEAD_INIT(e.link), .task = NULL, .func = NULL, .exclusive = false \
	}

/* clang-format off */
#define WAIT_QUEUE_INIT(q) { .lock = SPINLOCK_INIT("waitq"), .waiters = LIST_HEAD_INIT((q).waiters) }
/* clang-format on */

void wait_queue_init(struct wait_queue *q);
/* Queues the current task and marks it sleeping; then test the condition. */
void prepare_to_wait(struct wait_queue *q, struct wait_entry *e);
/* Takes the current task off the queue and marks it running. */
void finish_wait(struct wait_queue *q, struct wait_entry *e);
/* Queues e with wake function func, leaving the current task's state alone. */
void add_wait_queue_func(struct wait_queue *q, struct wait_entry *e, wake_func_t func);
/* The same, exclusive: of the exclusive entries a wake_up() reaches, one takes it. */
void add_wait_queue_exclusive_func(struct wait_queue *q, struct wait_entry *e, wake_func_t func);
/* Takes e off q: once it returns, no wake-up of q is calling e's function. */
void remove_wait_queue(struct wait_queue *q, struct wait_entry *e);
/*
 * Wakes every non-exclusive entry, and of the exclusive ones all or, when
 * one_exclusive, up to the first that takes the wake-up.
 */
void wake_up_common(struct wait_queue *q, bool one_exclusive);

/* Wakes every task on the queue and calls every wake function. */
static inline void
wake_up_all(struct wait_queue *q)
{
	wake_up_common(q, false);
}

/* Wakes every non-exclusive entry and the first exclusive one that takes the wake-up. */
static inline void
wake_up(struct wait_queue *q)
{
	wake_up_common(q, true);
}
/* Whether the current task has a reason to stop sleeping early (a signal, or being killed). */
bool task_interrupted(void);

/*
 * Sleeps until cond is true. Returns 0, -EAGAIN at once when nonblock (a
 * file's O_NONBLOCK) and cond is false, or -ERESTARTSYS
 * (kernel/signal/signal.h) when a signal interrupts: the call is restarted
 * or fails with EINTR, depending on the handler (SA_RESTART), on the way
 * back to user mode. The entry is queued before cond is tested, so a
 * wake-up between the test and the sleep is not lost.
 */
#define wait_event_nonblock(q, nonblock, cond)       \
	({                                           \
		WAIT_ENTRY(we_);                     \
		long ret_ = 0;                       \
		for (;;) {                           \
			prepare_to_wait((q), &we_);  \
			if (cond)                    \
				break;               \
			if (nonblock) {              \
				ret_ = -EAGAIN;      \
				break;               \
			}                            \
			if (task_interrupted()) {    \
				ret_ = -ERESTARTSYS; \
				break;               \
			}                            \
			schedule();                  \
		}                                    \
		finish_wait((q), &we_);              \
		ret_;                                \
	})

#define wait_event_interruptible(q, cond) wait_event_nonblock(q, false, cond)

void schedule(void);

#endif
