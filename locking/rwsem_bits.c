/*
 * rwsem_bits.c - the bit-field count layout and its slow paths: Linux
 * 5.3's rwsem rework (policy handoff).
 *
 * The count:
 *
 *   bit 0        WRITER_LOCKED: a writer holds it
 *   bit 1        FLAG_WAITERS: the wait list is not empty
 *   bit 2        FLAG_HANDOFF: a starved waiter asked for the lock to be handed to it
 *   bits 8..62   readers that hold it or are trying to (READER_BIAS = 256 each)
 *   bit 63       READFAIL: a guard against the reader count overflowing
 *
 * A reader's fast path adds READER_BIAS and succeeds unless the result
 * has the writer, waiters, hand-off or guard bit: unlike the xadd layout,
 * a queued waiter turns new readers away at once. A writer's fast path is
 * one cmpxchg from 0 (free, nobody queued) to WRITER_LOCKED. The owner
 * word holds the writer, or the last reader to enter with READER_OWNED
 * (bit 0), and NONSPINNABLE (bit 1) once a writer gave up spinning on
 * these readers.
 *
 * Invariants: FLAG_WAITERS is set by the first waiter to queue and
 * cleared by whoever empties the queue, under the wait lock; FLAG_HANDOFF
 * is set only while someone waits, by the first waiter (a writer in its
 * try, or the wake routine on behalf of a reader at the head) after
 * waiting longer than RWSEM_WAIT_TIMEOUT_NS, and cleared when that waiter
 * gets the lock. While it is set nobody may steal: the fast paths fail
 * (the bit is in both tests), a spinner's unqueued try refuses, and a
 * queued writer that is not first refuses - so the lock goes to the head.
 *
 * Writers spin before they queue (osq as in 3.16), but differently: a
 * running writer owner is spun on while it runs; readers are spun on only
 * for a bounded time - (20 + readers, at most 30) / 2 microseconds from
 * when the spinner first saw them - after which the writer marks the lock
 * NONSPINNABLE (no writer spins on this reader phase again) and queues;
 * an ownerless lock is spun on until need_resched.
 *
 * The wake routine: a writer at the head is woken (not granted); readers
 * - all queued readers, writers skipped, up to 256 - are granted in one
 * add, after a first single grant that backs out if a writer stole the
 * lock (and then asks for the hand-off if the head reader waited too
 * long). Readers are woken after the wait lock is dropped (5.3's wake_q;
 * the frames stay valid by rwsem_grant_reader's handshake), a writer under
 * it (without task reference counts, a writer that left the queue meanwhile
 * could be gone).
 *
 * Not modelled: 5.3's reader optimistic spinning and its adaptive
 * disabling (Linux removed reader spinning again in 5.11), and RT tasks.
 */
#include "locking/rwsem_internal.h"
#include "kernel/panic.h"
#include "kernel/sched/sched.h"
#include "locking/lockdebug.h"
#include "kernel/time/tsc.h"

#define BITS_POLICY RWSEM_SPIN_HANDOFF /* the policy these figures count under */

enum writer_state { WRITER_NOT_FIRST, WRITER_FIRST, WRITER_HANDOFF };

#define MAX_READERS_WAKEUP 256

static inline struct task *
bits_owner_task(unsigned long o)
{
	return (struct task *)(o & ~RWSEM_BITS_OWNER_FLAGS);
}

void
rwsem_bits_set_reader_owned(struct rwsem *s)
{
	unsigned long keep = READ_ONCE(s->owner) & RWSEM_BITS_NONSPINNABLE;

	WRITE_ONCE(s->owner, (unsigned long)current() | RWSEM_BITS_READER_OWNED | keep);
}

/* Readers still hold it: writers stop spinning on them. */
static void
bits_set_nonspinnable(struct rwsem *s)
{
	unsigned long o = READ_ONCE(s->owner);

	while ((o & RWSEM_BITS_READER_OWNED) && !(o & RWSEM_BITS_NONSPINNABLE))
		if (__atomic_compare_exchange_n(&s->owner, &o, o | RWSEM_BITS_NONSPINNABLE, false,
						__ATOMIC_RELAXED, __ATOMIC_RELAXED))
			break;
}

static void
bits_clear_nonspinnable(struct rwsem *s)
{
	if (READ_ONCE(s->owner) & RWSEM_BITS_NONSPINNABLE)
		__atomic_fetch_and(&s->owner, ~RWSEM_BITS_NONSPINNABLE, __ATOMIC_RELAXED);
}

/* ---- waking ----------------------------------------------------------------------------------- */

/* Grants the readers bits_mark_wake moved to wake; wait lock not held. */
static void
bits_grant_all(struct list_head *wake)
{
	while (!list_empty(wake)) {
		struct rwsem_waiter *w = list_first_entry(wake, struct rwsem_waiter, link);
		list_del(&w->link);
		rwsem_grant_reader(w);
	}
}

/* Wait lock held, list not empty; readers to grant go to wake. */
static void
bits_mark_wake(struct rwsem *s, enum rwsem_wake_type type, struct list_head *wake)
{
	struct rwsem_waiter *w = rwsem_first_waiter(s);
	long adjustment = 0, woken = 0;
	struct list_head *pos, *next;

	/* Invariants: FLAG_WAITERS is set while anyone is queued; the low bits hold no stray flag. */
	LOCKDEBUG_ASSERT((READ_ONCE(s->count) & (RWSEM_READER_BIAS - 1) &
			  ~(RWSEM_WRITER_LOCKED | RWSEM_FLAG_HANDOFF)) == RWSEM_FLAG_WAITERS,
			 s->name);
	if (w->type == RWSEM_WAITING_FOR_WRITE) {
		if (type == WAKE_ANY)
			wake_up_task(w->task);
		return;
	}
	if (type != WAKE_READ_OWNED) {
		adjustment = RWSEM_READER_BIAS;
		long old = __atomic_fetch_add(&s->count, adjustment, __ATOMIC_ACQ_REL);
		if (unlikely(old & RWSEM_WRITER_MASK)) {
			/* A writer stole it. Waited too long: no more stealing. */
			if (!(old & RWSEM_FLAG_HANDOFF) && ns_since_boot() > w->timeout) {
				adjustment -= RWSEM_FLAG_HANDOFF;
				rwsem_event(BITS_POLICY, RWSEM_EV_HANDOFFS, 1);
			}
			__atomic_fetch_add(&s->count, -adjustment, __ATOMIC_ACQ_REL);
			return;
		}
		WRITE_ONCE(s->owner, (unsigned long)w->task | RWSEM_BITS_READER_OWNED);
	}
	for (pos = s->wait_list.next; pos != &s->wait_list; pos = next) {
		next = pos->next;
		w = list_entry(pos, struct rwsem_waiter, link);
		if (w->type == RWSEM_WAITING_FOR_WRITE)
			continue;
		list_del(&w->link);
		list_add_tail(&w->link, wake);
		if (++woken >= MAX_READERS_WAKEUP)
			break;
	}
	adjustment = woken * RWSEM_READER_BIAS - adjustment;
	if (list_empty(&s->wait_list))
		adjustment -= RWSEM_FLAG_WAITERS;
	/* Readers got it: a reader's hand-off request is served. */
	if (woken && (READ_ONCE(s->count) & RWSEM_FLAG_HANDOFF))
		adjustment -= RWSEM_FLAG_HANDOFF;
	if (adjustment)
		__atomic_fetch_add(&s->count, adjustment, __ATOMIC_ACQ_REL);
}

static void
bits_wake_with(struct rwsem *s, enum rwsem_wake_type type)
{
	struct list_head wake = LIST_HEAD_INIT(wake);
	u64 flags = spin_lock_irqsave(&s->wait_lock);

	if (!list_empty(&s->wait_list))
		bits_mark_wake(s, type, &wake);
	spin_unlock_irqrestore(&s->wait_lock, flags);
	bits_grant_all(&wake);
}

void
rwsem_bits_wake(struct rwsem *s)
{
	bits_wake_with(s, WAKE_ANY);
}

void
rwsem_bits_downgrade_wake(struct rwsem *s)
{
	bits_wake_with(s, WAKE_READ_OWNED);
}

/* ---- readers ------------------------------------------------------------------------------------ */

u64
rwsem_bits_down_read_slowpath(struct rwsem *s, long count)
{
	u64 waited = lockstat_wait_start();
	struct rwsem_waiter w = { .task = current(),
				  .type = RWSEM_WAITING_FOR_READ,
				  .waking = true,
				  .timeout = ns_since_boot() + RWSEM_WAIT_TIMEOUT_NS };
	struct list_head wake = LIST_HEAD_INIT(wake);
	long adjustment = -RWSEM_READER_BIAS;
	u64 flags = spin_lock_irqsave(&s->wait_lock);

	if (list_empty(&s->wait_list)) {
		/* Nobody queued and no writer nor hand-off: our bias already holds it. */
		if (!(READ_ONCE(s->count) & (RWSEM_WRITER_MASK | RWSEM_FLAG_HANDOFF))) {
			spin_unlock_irqrestore(&s->wait_lock, flags);
			rwsem_bits_set_reader_owned(s);
			return waited;
		}
		adjustment += RWSEM_FLAG_WAITERS;
	}
	list_add_tail(&w.link, &s->wait_list);
	count = __atomic_add_fetch(&s->count, adjustment, __ATOMIC_ACQ_REL);
	if (!(count & RWSEM_LOCK_MASK)) {
		bits_clear_nonspinnable(s);
		bits_mark_wake(s, WAKE_ANY, &wake); /* free: wake the head */
	} else if (!(count & RWSEM_WRITER_MASK) && (adjustment & RWSEM_FLAG_WAITERS)) {
		bits_mark_wake(s, WAKE_ANY,
			       &wake); /* readers hold it and we are first: join them */
	}
	spin_unlock_irqrestore(&s->wait_lock, flags);
	bits_grant_all(&wake);
	rwsem_wait_for_grant(&w, BITS_POLICY);
	return waited;
}

/* ---- writers: spinning -------------------------------------------------------------------------- */

enum owner_state {
	OWNER_NULL = 1,
	OWNER_WRITER = 2,
	OWNER_READER = 4,
	OWNER_NONSPINNABLE = 8,
};
#define OWNER_SPINNABLE (OWNER_NULL | OWNER_WRITER | OWNER_READER)

static enum owner_state
bits_state_of(unsigned long o)
{
	if (o & RWSEM_BITS_NONSPINNABLE)
		return OWNER_NONSPINNABLE;
	if (o & RWSEM_BITS_READER_OWNED)
		return OWNER_READER;
	return o ? OWNER_WRITER : OWNER_NULL;
}

static bool
bits_can_spin_on_owner(struct rwsem *s)
{
	unsigned long o = READ_ONCE(s->owner);

	if (rwsem_need_resched() || (o & RWSEM_BITS_NONSPINNABLE))
		return false;
	return !bits_owner_task(o) || (o & RWSEM_BITS_READER_OWNED) ||
	       rwsem_task_on_cpu(bits_owner_task(o));
}

/* Spins while a writer owner runs; the owner's state when spinning on it must stop. */
static enum owner_state
bits_spin_on_owner(struct rwsem *s)
{
	unsigned long o = READ_ONCE(s->owner), now;
	enum owner_state st = bits_state_of(o);

	if (st != OWNER_WRITER)
		return st;
	for (;;) {
		if (READ_ONCE(s->count) & RWSEM_FLAG_HANDOFF)
			return OWNER_NONSPINNABLE; /* it goes to the head: nothing to steal */
		now = READ_ONCE(s->owner);
		if (now != o)
			return bits_state_of(now);
		if (rwsem_need_resched() || !rwsem_task_on_cpu(bits_owner_task(o)))
			return OWNER_NONSPINNABLE;
		cpu_relax();
	}
}

static bool
bits_try_write_lock_unqueued(struct rwsem *s)
{
	long count = READ_ONCE(s->count);

	while (!(count & (RWSEM_LOCK_MASK | RWSEM_FLAG_HANDOFF)))
		if (rwsem_cmpxchg(s, &count, count | RWSEM_WRITER_LOCKED))
			return true;
	return false;
}

/* How long a writer may spin on readers: more readers, longer (10..25 us). */
static u64
bits_reader_spin_deadline(struct rwsem *s)
{
	long readers = (READ_ONCE(s->count) & RWSEM_READER_MASK) >> RWSEM_READER_SHIFT;

	return ns_since_boot() + (u64)(20 + MIN(readers, 30l)) * 1000 / 2;
}

/* Never inlined: the profile's frame for the head spinner (optimistic_spin in rwsem_xadd.c). */
static __attribute__((noinline)) bool
bits_optimistic_spin(struct rwsem *s)
{
	bool counting = lockstat_on(), taken = false;
	enum owner_state prev = OWNER_NULL;
	u64 t0 = counting ? rdtsc() : 0, deadline = 0;
	unsigned loop = 0;

	if (!osq_lock(&s->osq))
		goto out;
	for (;;) {
		enum owner_state st = bits_spin_on_owner(s);
		if (!(st & OWNER_SPINNABLE))
			break;
		if (bits_try_write_lock_unqueued(s)) {
			taken = true;
			break;
		}
		if (st == OWNER_READER) {
			if (prev != OWNER_READER) {
				/* A new reader phase: its own time limit. */
				if (READ_ONCE(s->owner) & RWSEM_BITS_NONSPINNABLE)
					break;
				deadline = bits_reader_spin_deadline(s);
				loop = 0;
			} else if (!(++loop & 0xf) && ns_since_boot() > deadline) {
				bits_set_nonspinnable(s);
				break;
			}
		}
		if (st != OWNER_WRITER && rwsem_need_resched())
			break;
		prev = st;
		cpu_relax();
	}
	osq_unlock(&s->osq);
out:
	if (counting) {
		lockstat_rwsem_add(BITS_POLICY, RWSEM_EV_SPIN, rdtsc() - t0);
		lockstat_rwsem_add(BITS_POLICY, taken ? RWSEM_EV_SPIN_WON : RWSEM_EV_SPIN_FAILED,
				   1);
	}
	return taken;
}

/* ---- writers: queued ------------------------------------------------------------------------------- */

/*
 * Wait lock held. Takes the lock if free (and no hand-off is owed to
 * someone ahead), or, as a starved first waiter, sets the hand-off bit.
 */
static bool
bits_try_write_lock(struct rwsem *s, enum writer_state ws)
{
	long count = READ_ONCE(s->count), new;

	do {
		bool handoff = count & RWSEM_FLAG_HANDOFF;
		if (handoff && ws == WRITER_NOT_FIRST)
			return false;
		new = count;
		if (count & RWSEM_LOCK_MASK) {
			if (handoff || ws != WRITER_HANDOFF)
				return false;
			new |= RWSEM_FLAG_HANDOFF;
		} else {
			new |= RWSEM_WRITER_LOCKED;
			new &= ~RWSEM_FLAG_HANDOFF;
			if (rwsem_one_waiter(s))
				new &= ~RWSEM_FLAG_WAITERS;
		}
	} while (!rwsem_cmpxchg(s, &count, new));
	if (new &RWSEM_FLAG_HANDOFF) {
		rwsem_event(BITS_POLICY, RWSEM_EV_HANDOFFS, 1);
		return false;
	}
	return true;
}

u64
rwsem_bits_down_write_slowpath(struct rwsem *s)
{
	u64 waited = lockstat_wait_start();
	struct rwsem_waiter w = { .task = current(),
				  .type = RWSEM_WAITING_FOR_WRITE,
				  .timeout = ns_since_boot() + RWSEM_WAIT_TIMEOUT_NS };
	enum writer_state ws;
	u64 flags;

	if (bits_can_spin_on_owner(s) && bits_optimistic_spin(s))
		return waited;

	flags = spin_lock_irqsave(&s->wait_lock);
	ws = list_empty(&s->wait_list) ? WRITER_FIRST : WRITER_NOT_FIRST;
	list_add_tail(&w.link, &s->wait_list);
	if (ws == WRITER_NOT_FIRST) {
		long count = READ_ONCE(s->count);
		/* No writer holds it: free (a hand-off may be due) or readers - let those ahead in. */
		if (!(count & RWSEM_WRITER_MASK)) {
			struct list_head wake = LIST_HEAD_INIT(wake);
			bits_mark_wake(s, (count & RWSEM_READER_MASK) ? WAKE_READERS : WAKE_ANY,
				       &wake);
			if (!list_empty(&wake)) {
				spin_unlock_irqrestore(&s->wait_lock, flags);
				bits_grant_all(&wake);
				flags = spin_lock_irqsave(&s->wait_lock);
			}
		}
	} else {
		__atomic_fetch_or(&s->count, RWSEM_FLAG_WAITERS, __ATOMIC_ACQ_REL);
	}

	set_current_sleeping();
	while (!bits_try_write_lock(s, ws)) {
		spin_unlock_irqrestore(&s->wait_lock, flags);
		for (;;) {
			rwsem_event(BITS_POLICY, RWSEM_EV_SLEEPS, 1);
			schedule();
			set_current_sleeping();
			if (ws == WRITER_HANDOFF)
				break; /* the bit is ours: try whenever woken */
			if (ws == WRITER_NOT_FIRST && rwsem_first_waiter(s) == &w)
				ws = WRITER_FIRST;
			if (!(READ_ONCE(s->count) & RWSEM_LOCK_MASK))
				break;
			if (ws == WRITER_FIRST && ns_since_boot() > w.timeout) {
				ws = WRITER_HANDOFF; /* the bit is set by the next try */
				break;
			}
		}
		flags = spin_lock_irqsave(&s->wait_lock);
	}
	WRITE_ONCE(current()->state, TASK_RUNNABLE);
	list_del(&w.link);
	spin_unlock_irqrestore(&s->wait_lock, flags);
	return waited;
}
