/*
 * rwsem.c - the sleeping reader-writer semaphore (pre-3.16 Linux policy);
 * see rwsem.h.
 *
 * State, under s->lock: count > 0 readers hold it, -1 a writer does, 0 free.
 * A task that cannot take the lock queues a waiter (FIFO) and sleeps. The
 * fast path takes the lock only if nobody is queued, so a stream of readers
 * cannot starve a queued writer. Release grants the lock to the queue head
 * *before* waking it (a hand-off): a woken waiter owns the lock and never
 * has to retry. If the head is a reader, every reader up to the first
 * writer is granted together.
 */
#include "locking/rwsem.h"
#include "kernel/panic.h"
#include "kernel/sched/sched.h"

struct rwsem_waiter {
	struct list_head link;
	struct task *task;
	bool writer;
	bool granted;
};

void
rwsem_init(struct rwsem *s, const char *name)
{
	spin_lock_init(&s->lock, "rwsem");
	s->count = 0;
	s->owner = NULL;
	list_init(&s->waiters);
	s->name = name;
	s->stat = (struct lock_track){ 0 };
}

/* Grants the lock to queued waiters while it is compatible; s->lock held. */
static void
grant_waiters(struct rwsem *s)
{
	while (!list_empty(&s->waiters)) {
		struct rwsem_waiter *w = list_first_entry(&s->waiters, struct rwsem_waiter, link);
		if (w->writer ? s->count != 0 : s->count < 0)
			return;
		s->count = w->writer ? -1 : s->count + 1;
		if (w->writer)
			s->owner = w->task;
		/* Once granted is set the waiter may return and its entry vanish. */
		struct task *t = w->task;
		bool writer = w->writer;
		list_del(&w->link);
		WRITE_ONCE(w->granted, true);
		wake_up_task(t);
		if (writer)
			return;
	}
}

static void
wait_for_grant(struct rwsem *s, bool writer, u64 flags)
{
	struct rwsem_waiter w = { .task = current(), .writer = writer, .granted = false };
	u64 waited_since = lockstat_wait_start();

	list_add_tail(&w.link, &s->waiters);
	for (;;) {
		set_current_sleeping();
		spin_unlock_irqrestore(&s->lock, flags);
		if (READ_ONCE(w.granted))
			break;
		schedule();
		flags = spin_lock_irqsave(&s->lock);
		if (w.granted) {
			spin_unlock_irqrestore(&s->lock, flags);
			break;
		}
	}
	WRITE_ONCE(current()->state, TASK_RUNNABLE);
	lock_acquired(&s->stat, s->name, writer ? LOCK_EXCLUSIVE : LOCK_SHARED, waited_since);
}

bool
down_read_trylock(struct rwsem *s)
{
	u64 flags = spin_lock_irqsave(&s->lock);
	bool got = s->count >= 0 && list_empty(&s->waiters);

	if (got)
		s->count++;
	spin_unlock_irqrestore(&s->lock, flags);
	if (got)
		lock_acquired(&s->stat, s->name, LOCK_SHARED, 0);
	return got;
}

bool
down_write_trylock(struct rwsem *s)
{
	u64 flags = spin_lock_irqsave(&s->lock);
	bool got = s->count == 0 && list_empty(&s->waiters);

	if (got) {
		s->count = -1;
		s->owner = current();
	}
	spin_unlock_irqrestore(&s->lock, flags);
	if (got)
		lock_acquired(&s->stat, s->name, LOCK_EXCLUSIVE, 0);
	return got;
}

void
down_read(struct rwsem *s)
{
	u64 flags = spin_lock_irqsave(&s->lock);

	if (s->count >= 0 && list_empty(&s->waiters)) {
		s->count++;
		spin_unlock_irqrestore(&s->lock, flags);
		lock_acquired(&s->stat, s->name, LOCK_SHARED, 0);
		return;
	}
	wait_for_grant(s, false, flags);
}

void
down_write(struct rwsem *s)
{
	u64 flags = spin_lock_irqsave(&s->lock);

	if (s->count == 0 && list_empty(&s->waiters)) {
		s->count = -1;
		s->owner = current();
		spin_unlock_irqrestore(&s->lock, flags);
		lock_acquired(&s->stat, s->name, LOCK_EXCLUSIVE, 0);
		return;
	}
	wait_for_grant(s, true, flags);
}

void
up_read(struct rwsem *s)
{
	u64 flags = spin_lock_irqsave(&s->lock);

	BUG_ON(s->count <= 0);
	if (--s->count == 0)
		grant_waiters(s);
	spin_unlock_irqrestore(&s->lock, flags);
}

void
up_write(struct rwsem *s)
{
	lock_released(&s->stat, s->name);
	u64 flags = spin_lock_irqsave(&s->lock);

	BUG_ON(s->count != -1);
	s->count = 0;
	s->owner = NULL;
	grant_waiters(s);
	spin_unlock_irqrestore(&s->lock, flags);
}
