/*
 * timer.c - kernel timers; see timer.h.
 *
 * The armed timers of the whole machine are one pairing heap by deadline
 * (kernel/lib/pairing_heap.c) under one lock. A user arms as many as
 * RLIMIT_SIGPENDING allows (POSIX timers), so with interrupts
 * off nothing may cost O(n): arming is O(1), disarming and taking the
 * first due O(log n) amortized; a sorted list, as before, made 1000 timers
 * a machine-wide stall. A tick that has nothing due only compares the TSC
 * with next_deadline, without the lock. Arming asks this CPU's timer for
 * an interrupt at the deadline (timer_interrupt_at), and every CPU's timer
 * interrupt asks for the next one it sees, so that a timer fires on time,
 * not at the next tick. An idle CPU whose tick stopped (tick.c, NO_HZ_IDLE)
 * still counts to the heap's first deadline: a timer armed on a CPU that
 * then idles fires on time with every CPU tickless. Each idle CPU wakes
 * for it and the first to take the lock runs it: one heap for the machine
 * costs the others a wake-up, where Linux's per-CPU timer wheels wake one.
 *
 * Invariants (timers_lock): t->armed iff t is in the heap; next_deadline is
 * the heap's minimum deadline, ~0 when it is empty. A due timer is taken
 * out (and put back first if it is periodic, so that disarming it is
 * always one operation under the lock), then its function runs with the
 * lock dropped, counted in `running` so that timer_cancel() can wait for it
 * before the timer's memory goes.
 */
#include "kernel/time/timer.h"
#include "kernel/time/clock.h"
#include "kernel/time/tsc.h"
#include "kernel/x86/paravirt.h"
#include "kernel/x86/x86.h"
#include "locking/spinlock.h"

#define MAX_AHEAD_NS (1ul << 62) /* far enough: no overflow in TSC cycles */

static bool
earlier(const struct pheap_node *a, const struct pheap_node *b)
{
	return container_of(a, struct timer, node)->deadline <
	       container_of(b, struct timer, node)->deadline;
}

static struct pheap pending = { .before = earlier };
static struct spinlock timers_lock = SPINLOCK_INIT("timers");
static u64 next_deadline = ~0ul; /* the first pending deadline; READ_ONCE outside the lock */

void
timer_init(struct timer *t, void (*fn)(struct timer *, u64))
{
	*t = (struct timer){ .fn = fn };
}

static void
refresh_next_deadline(void)
{
	struct pheap_node *first = pheap_min(&pending);

	WRITE_ONCE(next_deadline, first ? container_of(first, struct timer, node)->deadline : ~0ul);
}

/* Adds t to the heap; timers_lock held. */
static void
insert(struct timer *t)
{
	pheap_insert(&pending, &t->node);
	t->armed = true;
	refresh_next_deadline();
}

/* Takes t out of the heap if it is in it; timers_lock held. */
static void
unlink(struct timer *t)
{
	if (!t->armed)
		return;
	pheap_remove(&pending, &t->node);
	t->armed = false;
	refresh_next_deadline();
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

void
timer_arm_at(struct timer *t, int clock, u64 expiry_ns)
{
	s64 now = clock_read_ns(clock);
	u64 ahead = expiry_ns > (u64)now ? MIN(expiry_ns - (u64)now, MAX_AHEAD_NS) : 0;

	timer_arm(t, rdtsc() + tsc_ns_to_cycles(ahead) + 1, 0); /* + 1: never 0, "disarmed" */
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

	if (t->armed)
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
	struct pheap_node *first = pheap_min(&pending);
	if (!first)
		return NULL;
	struct timer *t = container_of(first, struct timer, node);
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
