/*
 * timer.c - kernel timers; see timer.h.
 *
 * One list for the whole machine, sorted by deadline, under one lock: there
 * are few timers (one per process using ITIMER_REAL at most), and a tick
 * that has nothing due only compares the TSC with next_deadline, without
 * the lock. Arming asks this CPU's timer for an interrupt at the deadline
 * (timer_interrupt_at), and every CPU's timer interrupt asks for the next
 * one it sees, so that a timer fires on time, not at the next tick. A due timer is taken off the list (and put back first if it is
 * periodic, so that disarming it is always one operation under the lock),
 * then its function runs with the lock dropped, counted in `running` so
 * that timer_cancel() can wait for it before the timer's memory goes.
 */
#include "kernel/time/timer.h"
#include "kernel/x86/paravirt.h"
#include "kernel/x86/x86.h"
#include "locking/spinlock.h"

static struct list_head pending = LIST_HEAD_INIT(pending);
static struct spinlock timers_lock = SPINLOCK_INIT("timers");
static u64 next_deadline = ~0ul; /* the first pending deadline; READ_ONCE outside the lock */

void
timer_init(struct timer *t, void (*fn)(struct timer *, u64))
{
	list_init(&t->link);
	t->deadline = 0;
	t->period = 0;
	t->fn = fn;
	t->running = 0;
}

/* Puts t in deadline order and refreshes next_deadline; timers_lock held. */
static void
insert(struct timer *t)
{
	struct list_head *pos = pending.next;

	while (pos != &pending && list_entry(pos, struct timer, link)->deadline <= t->deadline)
		pos = pos->next;
	list_add_tail(&t->link, pos);
	WRITE_ONCE(next_deadline, list_first_entry(&pending, struct timer, link)->deadline);
}

/* Takes t off the list if it is on it; timers_lock held. */
static void
unlink(struct timer *t)
{
	if (list_empty(&t->link))
		return;
	list_del(&t->link);
	WRITE_ONCE(next_deadline,
		   list_empty(&pending) ? ~0ul
					: list_first_entry(&pending, struct timer, link)->deadline);
}

void
timer_arm(struct timer *t, u64 deadline, u64 period)
{
	u64 flags = spin_lock_irqsave(&timers_lock);

	unlink(t);
	t->deadline = deadline;
	t->period = deadline ? period : 0;
	if (deadline)
		insert(t);
	spin_unlock_irqrestore(&timers_lock, flags);
	if (deadline)
		timer_interrupt_at(deadline);
}

u64
timers_next_deadline(void)
{
	return READ_ONCE(next_deadline);
}

u64
timer_remaining(const struct timer *t, u64 now)
{
	u64 flags = spin_lock_irqsave(&timers_lock);
	u64 left = 0;

	if (!list_empty(&t->link))
		left = t->deadline > now ? t->deadline - now : 1;
	spin_unlock_irqrestore(&timers_lock, flags);
	return left;
}

void
timer_cancel(struct timer *t)
{
	for (;;) {
		u64 flags = spin_lock_irqsave(&timers_lock);
		unlink(t);
		t->period = 0;
		bool busy = t->running > 0;
		spin_unlock_irqrestore(&timers_lock, flags);
		if (!busy)
			return;
		cpu_relax();
	}
}

/*
 * The first due timer, taken off the list (and re-armed if periodic), or
 * NULL; *expiries gets the periods it stands for. timers_lock held.
 */
static struct timer *
take_due(u64 now, u64 *expiries)
{
	if (list_empty(&pending))
		return NULL;
	struct timer *t = list_first_entry(&pending, struct timer, link);
	if (t->deadline > now)
		return NULL;
	unlink(t);
	*expiries = 1;
	if (t->period) {
		/* Expiries missed while nobody looked collapse into this one. */
		*expiries += (now - t->deadline) / t->period;
		t->deadline += *expiries * t->period;
		insert(t);
	}
	t->running++;
	return t;
}

void
timers_run(void)
{
	u64 now = rdtsc();

	if (now < READ_ONCE(next_deadline))
		return;
	u64 flags = spin_lock_irqsave(&timers_lock);
	struct timer *t;
	u64 expiries;
	while ((t = take_due(now, &expiries)) != NULL) {
		spin_unlock_irqrestore(&timers_lock, flags);
		t->fn(t, expiries);
		flags = spin_lock_irqsave(&timers_lock);
		t->running--;
	}
	spin_unlock_irqrestore(&timers_lock, flags);
}
