/*
 * wait.c - wait queues; see wait.h for the no-lost-wake-up argument.
 */
#include "kernel/sched/wait.h"
#include "kernel/sched/sched.h"
#include "kernel/signal/signal.h"
#include "kernel/process/task.h"
#include "locking/lockdebug.h"

void
wait_queue_init(struct wait_queue *q)
{
	spin_lock_init(&q->lock, "waitq");
	list_init(&q->waiters);
}

void
prepare_to_wait(struct wait_queue *q, struct wait_entry *e)
{
	might_sleep("prepare_to_wait");
	u64 flags = spin_lock_irqsave(&q->lock);

	e->task = current();
	e->func = NULL;
	e->exclusive = false;
	if (list_empty(&e->link))
		list_add_tail(&e->link, &q->waiters);
	set_current_sleeping();
	spin_unlock_irqrestore(&q->lock, flags);
}

void
finish_wait(struct wait_queue *q, struct wait_entry *e)
{
	u64 flags = spin_lock_irqsave(&q->lock);

	WRITE_ONCE(current()->state, TASK_RUNNABLE);
	list_del(&e->link);
	spin_unlock_irqrestore(&q->lock, flags);
}

static void
add_func_entry(struct wait_queue *q, struct wait_entry *e, wake_func_t func, bool exclusive)
{
	u64 flags = spin_lock_irqsave(&q->lock);

	e->task = NULL;
	e->func = func;
	e->exclusive = exclusive;
	list_add_tail(&e->link, &q->waiters);
	spin_unlock_irqrestore(&q->lock, flags);
}

void
add_wait_queue_func(struct wait_queue *q, struct wait_entry *e, wake_func_t func)
{
	add_func_entry(q, e, func, false);
}

void
add_wait_queue_exclusive_func(struct wait_queue *q, struct wait_entry *e, wake_func_t func)
{
	add_func_entry(q, e, func, true);
}

void
remove_wait_queue(struct wait_queue *q, struct wait_entry *e)
{
	u64 flags = spin_lock_irqsave(&q->lock);

	list_del(&e->link);
	spin_unlock_irqrestore(&q->lock, flags);
}

static bool
wake_entry(struct wait_entry *e)
{
	if (e->func)
		return e->func(e);
	wake_up_task(e->task);
	return true;
}

/*
 * Exclusive entries are queued at the tail as in Linux, but so are the
 * others here, so the walk skips them once one took it rather than stops.
 */
void
wake_up_common(struct wait_queue *q, bool one_exclusive)
{
	u64 flags = spin_lock_irqsave(&q->lock);
	bool exclusive_taken = false;
	struct list_head *pos;

	list_for_each(pos, &q->waiters) {
		struct wait_entry *e = list_entry(pos, struct wait_entry, link);
		if (!e->exclusive) {
			wake_entry(e);
		} else if (!exclusive_taken) {
			exclusive_taken = wake_entry(e) && one_exclusive;
		}
	}
	spin_unlock_irqrestore(&q->lock, flags);
}

/* A signal to act on, or exit_group / a fatal signal asked this task to go. */
bool
task_interrupted(void)
{
	return signal_pending();
}
