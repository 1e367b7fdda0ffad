/*
 * rwsem.c - the rwsem's interface: the `rwsem_spin` knob, the fast paths
 * of both count layouts, and how a policy switch at run time stays safe;
 * see rwsem.h.
 *
 * A fast path is one atomic instruction on the count (lock inc, lock
 * xadd or one cmpxchg), as Linux's inline x86 rwsem fast paths were; only
 * when its result says "busy" or "someone waits" does it call the
 * out-of-line slow path of its layout, the only code that takes the wait
 * lock. The count layouts and slow paths, each explained at the top of its
 * file:
 *
 *   rwsem_xadd.c   policies off, osq, owner-null-fix, deceive-fix, reader-owned:
 *                  Linux 3.15 .. 5.2's x86-64 count (ACTIVE and WAITING biases)
 *   rwsem_bits.c   policy handoff: Linux 5.3's count (writer, waiters and hand-off
 *                  bits, readers counted from bit 8)
 *
 * Switching the policy at run time. The knob is one int, and each lock
 * operation reads it once, at its start, and follows that one value to
 * its end: a writer that began spinning under `osq` finishes that spin
 * and queues by osq's rules even if the knob says `off` meanwhile. What
 * must never happen is that two operations on one lock read the count in
 * two layouts: a reader's +1 in the xadd layout is the writer bit in the
 * other. So a lock's layout is chosen once, by rwsem_init from the policy
 * then in force, and never changes. The five xadd policies share the
 * count's meaning and differ only in the writer's slow path and in the
 * owner marks (below), so a switch among them applies at once to every
 * lock, held, contended or not; every spin loop treats any owner value any
 * xadd policy can leave behind as something it understands. A switch to
 * or from `handoff` applies to the locks initialised afterwards - each new
 * address space's mmap lock, hence every process started after the switch
 * - while older locks run the nearest policy of their own layout
 * (reader-owned for an xadd lock, handoff for a bit-field one); the
 * per-policy figures in /proc/lockstat count the policy that ran.
 *
 * The owner field. Writers store themselves after taking the lock in every
 * policy, `off` included (3.15 had no owner field; the store is plain, to
 * a line the xadd just took, and it is what lets a switch to a spinning
 * policy see the writer that already holds the lock) and clear it before
 * releasing. Readers leave it alone except under reader-owned, where they
 * store RWSEM_XADD_READER_OWNED, which no reader clears (19c5d690), and in
 * the bit-field layout, where they store themselves with a reader flag.
 */
#include "locking/rwsem_internal.h"
#include "kernel/knobs.h"
#include "kernel/panic.h"
#include "kernel/sched/sched.h"
#include "locking/lockdebug.h"

#define RWSEM_POLICY_KNOB_NAME(id, name) name,
KNOB_ENUM(rwsem_spin, "rwsem_spin", RWSEM_SPIN_OFF, true,
	  "rwsem writer spinning: Linux 3.15 (off), 3.16-rc1 (osq) and the fixes after it",
	  RWSEM_POLICIES(RWSEM_POLICY_KNOB_NAME));
#undef RWSEM_POLICY_KNOB_NAME
BUILD_BUG_ON(ARRAY_SIZE(rwsem_spin_names) != RWSEM_SPIN_POLICIES);

void
rwsem_init(struct rwsem *s, const char *name)
{
	s->count = 0;
	s->owner = 0;
	osq_init(&s->osq);
	s->layout =
		READ_ONCE(rwsem_spin) == RWSEM_SPIN_HANDOFF ? RWSEM_LAYOUT_BITS : RWSEM_LAYOUT_XADD;
	spin_lock_init(&s->wait_lock, "rwsem_wait");
	list_init(&s->wait_list);
	s->name = name;
	s->stat = (struct lock_track){ 0 };
}

bool
rwsem_is_locked(const struct rwsem *s)
{
	return READ_ONCE(s->count) != 0;
}

static inline bool
bits_layout(const struct rwsem *s)
{
	return unlikely(s->layout == RWSEM_LAYOUT_BITS);
}

static inline void
set_owner(struct rwsem *s)
{
	WRITE_ONCE(s->owner, (unsigned long)current());
}

/* 19c5d690: mark once per reader phase, so readers do not keep writing the line. */
static inline void
xadd_mark_readers(struct rwsem *s)
{
	if (READ_ONCE(s->owner) != RWSEM_XADD_READER_OWNED)
		WRITE_ONCE(s->owner, RWSEM_XADD_READER_OWNED);
}

/* ---- the x86-64 fast paths of the xadd layout ------------------------------------------- */

/* lock inc; whether the new count is negative (a writer holds it or someone waits). */
static inline bool
xadd_inc_negative(long *count)
{
	bool negative;

	__asm__ __volatile__("lock incq %0" : "+m"(*count), "=@ccs"(negative) : : "memory");
	return negative;
}

/* lock xadd: adds v, returns the old count. */
static inline long
xadd(long *count, long v)
{
	__asm__ __volatile__("lock xaddq %0, %1" : "+r"(v), "+m"(*count) : : "memory", "cc");
	return v;
}

/* After a release that left new: wake only if someone waits and nobody is active. */
static inline void
xadd_wake_if_idle(struct rwsem *s, long new)
{
	if (unlikely(new < 0) && !(new &RWSEM_ACTIVE_MASK))
		rwsem_xadd_wake(s);
}

/* ---- the interface ---------------------------------------------------------------------------- */

void
down_read(struct rwsem *s)
{
	u64 waited = 0;

	might_sleep(s->name);
	if (bits_layout(s)) {
		long c = __atomic_add_fetch(&s->count, RWSEM_READER_BIAS, __ATOMIC_ACQUIRE);
		if (unlikely(c & RWSEM_READ_FAILED_MASK))
			waited = rwsem_bits_down_read_slowpath(s, c);
		else
			rwsem_bits_set_reader_owned(s);
	} else {
		int p = rwsem_xadd_policy();
		if (unlikely(xadd_inc_negative(&s->count)))
			waited = rwsem_xadd_down_read_failed(s, p);
		if (p == RWSEM_SPIN_READER_OWNED)
			xadd_mark_readers(s);
	}
	lock_acquired(&s->stat, s->name, LOCK_SHARED, waited);
}

bool
down_read_trylock(struct rwsem *s)
{
	long c = READ_ONCE(s->count);

	if (bits_layout(s)) {
		while (!(c & RWSEM_READ_FAILED_MASK))
			if (rwsem_cmpxchg(s, &c, c + RWSEM_READER_BIAS)) {
				rwsem_bits_set_reader_owned(s);
				goto got;
			}
		return false;
	}
	int p = rwsem_xadd_policy();
	while (c >= 0)
		if (rwsem_cmpxchg(s, &c, c + RWSEM_ACTIVE_READ_BIAS)) {
			if (p == RWSEM_SPIN_READER_OWNED)
				xadd_mark_readers(s);
			goto got;
		}
	return false;
got:
	lock_acquired(&s->stat, s->name, LOCK_SHARED, 0);
	return true;
}

void
down_write(struct rwsem *s)
{
	u64 waited = 0;

	might_sleep(s->name);
	if (bits_layout(s)) {
		long c = 0;
		if (unlikely(!rwsem_cmpxchg(s, &c, RWSEM_WRITER_LOCKED)))
			waited = rwsem_bits_down_write_slowpath(s);
	} else {
		int p = rwsem_xadd_policy();
		/* Only the old active part matters: a count of WAITING_BIAS is stolen. */
		if (unlikely(xadd(&s->count, RWSEM_ACTIVE_WRITE_BIAS) & RWSEM_ACTIVE_MASK))
			waited = rwsem_xadd_down_write_failed(s, p);
	}
	set_owner(s);
	lock_acquired(&s->stat, s->name, LOCK_EXCLUSIVE, waited);
}

bool
down_write_trylock(struct rwsem *s)
{
	long c = 0;

	if (!rwsem_cmpxchg(s, &c, bits_layout(s) ? RWSEM_WRITER_LOCKED : RWSEM_ACTIVE_WRITE_BIAS))
		return false;
	set_owner(s);
	lock_acquired(&s->stat, s->name, LOCK_EXCLUSIVE, 0);
	return true;
}

void
up_read(struct rwsem *s)
{
	if (bits_layout(s)) {
		long c = __atomic_add_fetch(&s->count, -RWSEM_READER_BIAS, __ATOMIC_RELEASE);
		BUG_ON(c & RWSEM_WRITER_LOCKED);
		if (unlikely((c & (RWSEM_LOCK_MASK | RWSEM_FLAG_WAITERS)) == RWSEM_FLAG_WAITERS))
			rwsem_bits_wake(s);
		return;
	}
	long old = xadd(&s->count, -RWSEM_ACTIVE_READ_BIAS);
	BUG_ON(!(old & RWSEM_ACTIVE_MASK));
	xadd_wake_if_idle(s, old - RWSEM_ACTIVE_READ_BIAS);
}

void
up_write(struct rwsem *s)
{
	BUG_ON(READ_ONCE(s->owner) != (unsigned long)current());
	lock_released(&s->stat, s->name);
	if (bits_layout(s)) {
		__atomic_store_n(&s->owner, 0, __ATOMIC_RELAXED);
		long old = __atomic_fetch_add(&s->count, -RWSEM_WRITER_LOCKED, __ATOMIC_RELEASE);
		LOCKDEBUG_ASSERT(old & RWSEM_WRITER_LOCKED, s->name);
		if (unlikely(old & RWSEM_FLAG_WAITERS))
			rwsem_bits_wake(s);
		return;
	}
	WRITE_ONCE(s->owner, 0);
	long old = xadd(&s->count, -RWSEM_ACTIVE_WRITE_BIAS);
	/* The writer's WAITING_BIAS and its active 1 were in (rwsem_xadd.c's layout). */
	LOCKDEBUG_ASSERT(old < 0 && (old & RWSEM_ACTIVE_MASK) != 0, s->name);
	xadd_wake_if_idle(s, old - RWSEM_ACTIVE_WRITE_BIAS);
}

void
downgrade_write(struct rwsem *s)
{
	BUG_ON(READ_ONCE(s->owner) != (unsigned long)current());
	lock_released(&s->stat, s->name);
	if (bits_layout(s)) {
		rwsem_bits_set_reader_owned(s);
		long old = __atomic_fetch_add(&s->count, RWSEM_READER_BIAS - RWSEM_WRITER_LOCKED,
					      __ATOMIC_RELEASE);
		if (old & RWSEM_FLAG_WAITERS)
			rwsem_bits_downgrade_wake(s);
		return;
	}
	int p = rwsem_xadd_policy();
	WRITE_ONCE(s->owner, p == RWSEM_SPIN_READER_OWNED ? RWSEM_XADD_READER_OWNED : 0);
	/* The write bias becomes a read bias: take the waiting part away. */
	if (rwsem_add_return(s, -RWSEM_WAITING_BIAS) < 0)
		rwsem_xadd_downgrade_wake(s, p);
}

/* ---- granting a queued reader ------------------------------------------------------------------ */

void
rwsem_grant_reader(struct rwsem_waiter *w)
{
	struct task *t = w->task;

	__atomic_store_n(&w->task, NULL, __ATOMIC_RELEASE);
	wake_up_task(t);
	__atomic_store_n(&w->waking, false, __ATOMIC_RELEASE);
}

void
rwsem_wait_for_grant(struct rwsem_waiter *w, int p)
{
	for (;;) {
		set_current_sleeping();
		if (!__atomic_load_n(&w->task, __ATOMIC_ACQUIRE))
			break;
		rwsem_event(p, RWSEM_EV_SLEEPS, 1);
		schedule();
	}
	WRITE_ONCE(current()->state, TASK_RUNNABLE);
	while (__atomic_load_n(&w->waking, __ATOMIC_ACQUIRE))
		cpu_relax(); /* the waker is between our grant and its wake_up_task: a few instructions */
}
