/*
 * timer.c - kernel timers; see timer.h.
 *
 * Each CPU has its own queue of armed timers (a timer base, as Linux's
 * timer and hrtimer bases): a pairing heap by deadline
 * (kernel/lib/pairing_heap.c) under the base's own lock. A timer goes on
 * the queue of the CPU that arms it and fires there: only that CPU's timer
 * interrupt runs its queue, and an idle CPU whose tick stopped (tick.c,
 * NO_HZ_IDLE) counts to its own queue's first deadline only. One queue for
 * the machine, as before, woke every tickless CPU for every timer, the
 * first to take the lock running it; now one process's timers wake the
 * one CPU it armed them on, and the CPUs do not share a lock to arm them.
 *
 * A user arms as many timers as RLIMIT_SIGPENDING allows (POSIX timers),
 * all on one CPU if it likes, so with interrupts off nothing may cost
 * O(n): arming is O(1), disarming and taking the first due O(log n)
 * amortized; a sorted list, as once, made 1000 timers a stall. A tick
 * that has nothing due only compares the TSC with its base's
 * next_deadline, without the lock. Arming asks this CPU's timer for an
 * interrupt at the deadline (timer_interrupt_at), and each timer
 * interrupt asks for the next deadline of its own queue (drivers/lapic.c
 * through sched_next_event), so that a timer fires on time, not at the
 * next tick.
 *
 * Invariants:
 * - t->base is the base t was last armed on (this CPU's at timer_init);
 *   it changes only with that base's lock and the new one's both held, so
 *   holding the lock of the base t->base names, after reading it again
 *   under the lock, pins t (lock_timer_base);
 * - under a base's lock: t->armed iff t is in that base's heap, and
 *   next_deadline is the heap's minimum deadline, ~0 when it is empty;
 * - a due timer is taken out of its base (and put back there first if it
 *   is periodic, so that disarming it is always one operation under one
 *   lock), then its function runs with the lock dropped, counted in
 *   t->running under that base's lock. A timer whose function is running
 *   is never moved: re-armed from another CPU it stays on the base that
 *   runs it (whose CPU programs its next timer event after the call,
 *   from its own next_deadline), so that timer_cancel, under t->base's
 *   lock, sees the count and waits for the call before the timer's memory
 *   goes (Linux's rule for a running timer in __mod_timer);
 * - only a base's own CPU runs its timers, with interrupts off, so calls
 *   of one timer's function never overlap.
 */
#include "kernel/time/timer.h"
#include "kernel/time/clock.h"
#include "kernel/time/tsc.h"
#include "kernel/x86/paravirt.h"
#include "kernel/x86/percpu.h"
#include "kernel/x86/x86.h"
#include "locking/spinlock.h"

#define MAX_AHEAD_NS (1ul << 62) /* far enough: no overflow in TSC cycles */

struct timer_base {
	struct spinlock lock;
	struct pheap pending;
	u64 next_deadline;	/* the first pending deadline; READ_ONCE outside the lock */
} __attribute__((aligned(64))); /* one cache line per CPU: arming here does not slow a neighbour */

static bool
earlier(const struct pheap_node *a, const struct pheap_node *b)
{
	return container_of(a, struct timer, node)->deadline <
	       container_of(b, struct timer, node)->deadline;
}

static struct timer_base bases[MAX_CPUS] = {
	[0 ... MAX_CPUS - 1] = {
		.lock = SPINLOCK_INIT("timers"),
		.pending = { .before = earlier },
		.next_deadline = ~0ul,
	},
};

static struct timer_base *
this_base(void)
{
	return &bases[this_cpu()->id];
}

void
timer_init(struct timer *t, void (*fn)(struct timer *, u64))
{
	*t = (struct timer){ .fn = fn, .base = this_base() };
}

/*
 * Locks the base t is on and returns it, interrupts off (*flags to restore
 * them). t->base may change while we wait for its lock: read it again
 * under the lock until it holds still.
 */
static struct timer_base *
lock_timer_base(const struct timer *t, u64 *flags)
{
	for (;;) {
		struct timer_base *b = READ_ONCE(t->base);
		*flags = spin_lock_irqsave(&b->lock);
		if (READ_ONCE(t->base) == b)
			return b;
		spin_unlock_irqrestore(&b->lock, *flags);
	}
}

/* Locks a and b in address order (a fixed order: no deadlock); interrupts off. */
static void
lock_two_bases(struct timer_base *a, struct timer_base *b)
{
	if (a == b) {
		spin_lock(&a->lock);
	} else if (a < b) {
		spin_lock(&a->lock);
		spin_lock(&b->lock);
	} else {
		spin_lock(&b->lock);
		spin_lock(&a->lock);
	}
}

static void
unlock_two_bases(struct timer_base *a, struct timer_base *b)
{
	if (a != b)
		spin_unlock(&b->lock);
	spin_unlock(&a->lock);
}

static void
refresh_next_deadline(struct timer_base *b)
{
	struct pheap_node *first = pheap_min(&b->pending);

	WRITE_ONCE(b->next_deadline,
		   first ? container_of(first, struct timer, node)->deadline : ~0ul);
}

/* Adds t to b's heap; b locked and t->base == b. */
static void
insert(struct timer_base *b, struct timer *t)
{
	pheap_insert(&b->pending, &t->node);
	t->armed = true;
	refresh_next_deadline(b);
}

/* Takes t out of its base's heap if it is in it; t->base locked. */
static void
unlink(struct timer *t)
{
	if (!t->armed)
		return;
	pheap_remove(&t->base->pending, &t->node);
	t->armed = false;
	refresh_next_deadline(t->base);
}

void
timer_arm(struct timer *t, u64 deadline, u64 period)
{
	u64 flags = local_irq_save();
	struct timer_base *here = this_base(), *old;

	for (;;) {
		old = READ_ONCE(t->base);
		lock_two_bases(old, here);
		if (t->base == old)
			break;
		unlock_two_bases(old, here);
	}
	unlink(t);
	if (!t->running)
		WRITE_ONCE(t->base, here); /* both locks held */
	t->deadline = deadline;
	t->period = deadline ? period : 0;
	if (deadline)
		insert(t->base, t);
	bool mine = t->base == here;
	unlock_two_bases(old, here);
	if (deadline && mine)
		timer_interrupt_at(deadline);
	local_irq_restore(flags);
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
	return READ_ONCE(this_base()->next_deadline);
}

u64
timer_remaining(const struct timer *t, u64 now)
{
	u64 flags, left = 0;
	struct timer_base *b = lock_timer_base(t, &flags);

	if (t->armed)
		left = t->deadline > now ? t->deadline - now : 1;
	spin_unlock_irqrestore(&b->lock, flags);
	return left;
}

void
timer_cancel(struct timer *t)
{
	for (;;) {
		u64 flags;
		struct timer_base *b = lock_timer_base(t, &flags);
		unlink(t);
		t->period = 0;
		bool busy = t->running > 0;
		spin_unlock_irqrestore(&b->lock, flags);
		if (!busy)
			return;
		cpu_relax();
	}
}

/*
 * The first due timer of b, taken off its heap (and re-armed there if
 * periodic), or NULL; *expiries gets the periods it stands for. b locked.
 */
static struct timer *
take_due(struct timer_base *b, u64 now, u64 *expiries)
{
	struct pheap_node *first = pheap_min(&b->pending);
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
		insert(b, t);
	}
	t->running++;
	return t;
}

void
timers_run(void)
{
	struct timer_base *b = this_base();
	u64 now = rdtsc();

	if (now < READ_ONCE(b->next_deadline))
		return;
	u64 flags = spin_lock_irqsave(&b->lock);
	struct timer *t;
	u64 expiries;
	while ((t = take_due(b, now, &expiries)) != NULL) {
		spin_unlock_irqrestore(&b->lock, flags);
		t->fn(t, expiries);
		flags = spin_lock_irqsave(&b->lock);
		t->running--;
	}
	spin_unlock_irqrestore(&b->lock, flags);
}
