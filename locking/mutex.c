/*
 * mutex.c - the sleeping mutex (Linux 3.x's count scheme); see mutex.h.
 *
 * Lock: an atomic decrement; from 1 to 0 it is ours. Otherwise the slow
 * path, under the wait lock, exchanges -1 into the count ("held, someone
 * may wait"): an old value of 1 means the lock was freed meanwhile and is
 * ours; else the task queues and sleeps, and retries the exchange each
 * time it is woken. Once it has the lock and nobody else is queued it sets
 * the count back to 0, so that its unlock takes the fast path.
 *
 * Unlock: an atomic increment; from 0 to 1 nobody waits. A result of 0 or
 * less means someone may: the slow path sets the count to 1 (free) and
 * wakes the first waiter, which retries; a task arriving meanwhile may take
 * the lock first (no hand-over: the woken one then sleeps again, and the
 * count it left at -1 sends the new holder's unlock to the slow path).
 *
 * No lost wake-up: a waiter marks itself sleeping before it lets go of the
 * wait lock, and an unlocker frees the count before it takes the wait lock
 * to wake the head, so either the waiter's exchange sees the free count,
 * or the wake comes after it marked itself. A waiter leaves the list only
 * under the wait lock, so the task an unlocker wakes is still there.
 *
 * mutex_lock_killable's waiter also leaves the list, without the mutex,
 * when its task has a fatal signal (Linux's TASK_KILLABLE wait): the
 * signal's wake-up ends its sleep, and it tries the exchange once more
 * before it gives up, so that a wake-up meant for it is never lost.
 *
 * For lockstat, a mutex_lock that took the slow path is a contention,
 * waiting from then until it has the mutex.
 */
#include "locking/mutex.h"
#include "kernel/panic.h"
#include "kernel/sched/sched.h"
#include "locking/lockdebug.h"
#include "kernel/process/task.h"
#include "uapi/errno.h"

struct mutex_waiter {
	struct list_head link;
	struct task *task;
};

void
mutex_init(struct mutex *m, const char *name)
{
	m->count = 1;
	m->owner = NULL;
	spin_lock_init(&m->wait_lock, "mutex_wait");
	list_init(&m->wait_list);
	m->name = name;
	m->stat = (struct lock_track){ 0 };
}

/*
 * Queues and sleeps until the mutex is ours: the time waited. killable:
 * gives up (*gave_up) when the task has a fatal signal and the mutex is
 * still held by another, having first tried to take it (a wake from the
 * unlocker is never lost: if the mutex was free we take it; if another
 * took it meanwhile, our exchange left -1, so its unlock wakes the next).
 */
static __attribute__((noinline)) u64
mutex_lock_slowpath(struct mutex *m, bool killable, bool *gave_up)
{
	u64 waited = lockstat_wait_start();
	struct mutex_waiter w = { .task = current() };

	spin_lock(&m->wait_lock);
	if (__atomic_exchange_n(&m->count, -1, __ATOMIC_ACQUIRE) == 1)
		goto taken;
	list_add_tail(&w.link, &m->wait_list);
	for (;;) {
		if (READ_ONCE(m->count) >= 0 &&
		    __atomic_exchange_n(&m->count, -1, __ATOMIC_ACQUIRE) == 1)
			break;
		if (killable && fatal_signal_pending()) {
			*gave_up = true;
			break;
		}
		set_current_sleeping();
		spin_unlock(&m->wait_lock);
		schedule();
		spin_lock(&m->wait_lock);
	}
	WRITE_ONCE(current()->state, TASK_RUNNABLE);
	list_del(&w.link);
	if (*gave_up) {
		spin_unlock(&m->wait_lock);
		return waited;
	}
taken:
	if (list_empty(&m->wait_list))
		__atomic_store_n(&m->count, 0, __ATOMIC_RELAXED);
	spin_unlock(&m->wait_lock);
	return waited;
}

static __attribute__((noinline)) void
mutex_unlock_slowpath(struct mutex *m)
{
	__atomic_store_n(&m->count, 1, __ATOMIC_RELEASE);
	spin_lock(&m->wait_lock);
	if (!list_empty(&m->wait_list))
		wake_up_task(list_first_entry(&m->wait_list, struct mutex_waiter, link)->task);
	spin_unlock(&m->wait_lock);
}

/*
 * The mutex is ours unless killable and a fatal signal came first: 0 or
 * -EINTR. Inlined into both callers, so mutex_lock's uncontended path is
 * the instructions it was before the killable variant came (the path
 * budgets in tests/path-budgets.txt hold it).
 */
static inline __attribute__((always_inline)) int
lock_common(struct mutex *m, bool killable)
{
	u64 waited = 0;

	might_sleep(m->name);
	BUG_ON(READ_ONCE(m->owner) == current());
	if (unlikely(__atomic_sub_fetch(&m->count, 1, __ATOMIC_ACQUIRE) < 0)) {
		bool gave_up = false;
		waited = mutex_lock_slowpath(m, killable, &gave_up);
		if (gave_up)
			return -EINTR;
	}
	WRITE_ONCE(m->owner, current());
	lock_acquired(&m->stat, m->name, LOCK_EXCLUSIVE, waited);
	return 0;
}

void
mutex_lock(struct mutex *m)
{
	lock_common(m, false);
}

int
mutex_lock_killable(struct mutex *m)
{
	return lock_common(m, true);
}

bool
mutex_trylock(struct mutex *m)
{
	long free = 1;

	if (!__atomic_compare_exchange_n(&m->count, &free, 0, false, __ATOMIC_ACQUIRE,
					 __ATOMIC_RELAXED))
		return false;
	WRITE_ONCE(m->owner, current());
	lock_acquired(&m->stat, m->name, LOCK_EXCLUSIVE, 0);
	return true;
}

void
mutex_unlock(struct mutex *m)
{
	BUG_ON(m->owner != current());
	lock_released(&m->stat, m->name);
	WRITE_ONCE(m->owner, NULL);
	if (unlikely(__atomic_add_fetch(&m->count, 1, __ATOMIC_RELEASE) <= 0))
		mutex_unlock_slowpath(m);
}

bool
mutex_is_held_by_me(const struct mutex *m)
{
	return READ_ONCE(m->owner) == current();
}
