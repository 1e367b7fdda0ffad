/*
 * rwsem_xadd.c - the slow paths of the xadd count layout: Linux 3.15's
 * x86-64 rwsem-xadd (policy off) and the writer spinning that 3.16-rc1
 * added on top of it, with the fixes that followed up to 4.x (policies
 * osq, owner-null-fix, deceive-fix, reader-owned).
 *
 * The count (64 bits, signed):
 *
 *   low 32 bits   the active part: lockers that hold the lock or are
 *                 trying to (each reader 1, a writer 1)
 *   high 32 bits  0, or negative: RWSEM_WAITING_BIAS (-2^32) once for a
 *                 writer that holds or tries, once more while anyone is queued
 *
 * so: 0 free; n > 0 n readers, nobody queued; WAITING_BIAS free but
 * tasks queued; WAITING_BIAS + n readers with tasks queued;
 * ACTIVE_WRITE_BIAS (= WAITING_BIAS + 1) a writer, nobody queued;
 * below WAITING_BIAS a writer and tasks queued (or in transit). A reader's
 * fast path adds 1 and succeeds if the result is not negative; a writer's
 * adds ACTIVE_WRITE_BIAS and succeeds if the old active part was 0 - so a
 * writer takes a lock whose count is exactly WAITING_BIAS ahead of the
 * queue: writers steal. A release that leaves the count negative with no
 * active part wakes the queue.
 *
 * Invariants: the WAITING_BIAS for the queue is added by the task that
 * queues onto an empty list, and removed by whoever empties the list
 * (a waker granting the last readers, a writer taking the lock as the
 * only waiter); the wait lock guards the list and is taken only here. The
 * wake routine is called with the wait lock held and a nonempty list:
 *
 *   - a writer at the head is woken but not given the lock (it retries,
 *     and another writer may steal it first); with WAKE_READERS (from a
 *     writer's slow path) it is not even woken;
 *   - readers at the head are given the lock together: one read bias is
 *     added first to see whether a writer stole the lock meanwhile (then
 *     it is taken back), then one bias for each reader of the leading run
 *     (up to the first queued writer), in one add that also removes the
 *     WAITING_BIAS if the run emptied the queue; each is then taken off the
 *     list and granted (rwsem_grant_reader).
 *
 * Readers queue by giving back their bias and adding the WAITING_BIAS if
 * first; if the lock turned out free (count == WAITING_BIAS), or only
 * readers hold it and the reader was first in line, it runs the wake
 * routine itself, perhaps granting itself.
 *
 * Writers (`off`, 3.15): queue at once, folding the give-back of the
 * write bias into the queueing add; if others were queued and only
 * readers hold the lock, wake the readers ahead; then, under the wait lock,
 * cmpxchg WAITING_BIAS into ACTIVE_WRITE_BIAS (plus WAITING_BIAS again if
 * others still wait) whenever the active part is 0, sleeping between tries.
 *
 * Writers that spin (3.16 on): give the write bias back first - the
 * spinner is then neither active nor queued, so it adds nothing that would
 * turn new readers away - then, if the owner looks worth it, queue on the
 * osq and, at its head, loop: spin while the owning writer runs, try an
 * unqueued steal (count 0 or WAITING_BIAS -> + ACTIVE_WRITE_BIAS), stop
 * when the policy says so. A spin that fails queues as 3.15 did (the bias
 * was given back, so the first waiter adds WAITING_BIAS alone). The
 * policies differ only in when to spin:
 *
 *   osq             can spin: the owner runs, or there is no owner (readers
 *                   never set it, so a read-held lock looks ownerless);
 *                   loop: with no owner, only need_resched stops the spin -
 *                   a writer burns its slice while readers come and go
 *   owner-null-fix  as osq, but no owner at the start means no spinning
 *   deceive-fix     no owner: spin only if nobody is active; spinning on an
 *                   owner stops when it leaves its CPU or we must reschedule;
 *                   an owner gone NULL is worth more spinning only if the
 *                   count shows no reader came in
 *   reader-owned    readers mark the owner field (RWSEM_XADD_READER_OWNED);
 *                   a marked lock is never spun on; no owner is spinnable
 *
 * Spinning happens with interrupts on (the tick must be able to end the
 * slice) and needs no preempt_disable: rewind's kernel code is never
 * preempted, so the spinner keeps its CPU and its osq node until it
 * leaves. An owner mark left by another policy is read as "no owner" by
 * osq, owner-null-fix and deceive-fix, which knew no marks.
 */
#include "locking/rwsem_internal.h"
#include "kernel/panic.h"
#include "kernel/sched/sched.h"
#include "locking/lockdebug.h"

/* The wake routine; wait lock held, list not empty. */
static void
do_wake(struct rwsem *s, enum rwsem_wake_type type, int p)
{
	struct rwsem_waiter *w = rwsem_first_waiter(s);
	long adjustment = 0, woken = 0;
	bool queue_emptied = true;
	struct list_head *pos;

	/* Invariants: the queue's WAITING_BIAS is in while anyone is queued. */
	LOCKDEBUG_ASSERT(READ_ONCE(s->count) < 0, s->name);
	if (w->type == RWSEM_WAITING_FOR_WRITE) {
		if (type == WAKE_ANY)
			wake_up_task(w->task); /* it stays queued and retries: no grant */
		return;
	}
	if (type != WAKE_READ_OWNED) {
		adjustment = RWSEM_ACTIVE_READ_BIAS;
		for (;;) {
			long old = rwsem_add_return(s, adjustment) - adjustment;
			if (likely(old >= RWSEM_WAITING_BIAS))
				break;
			/* A writer stole the lock: take the grant back, unless it just left. */
			if (rwsem_add_return(s, -adjustment) & RWSEM_ACTIVE_MASK)
				return;
		}
		if (p == RWSEM_SPIN_READER_OWNED)
			WRITE_ONCE(s->owner, RWSEM_XADD_READER_OWNED);
	}
	list_for_each(pos, &s->wait_list) {
		if (list_entry(pos, struct rwsem_waiter, link)->type == RWSEM_WAITING_FOR_WRITE) {
			queue_emptied = false;
			break;
		}
		woken++;
	}
	adjustment = woken * RWSEM_ACTIVE_READ_BIAS - adjustment;
	if (queue_emptied)
		adjustment -= RWSEM_WAITING_BIAS;
	if (adjustment)
		rwsem_add_return(s, adjustment);
	while (woken--) {
		w = rwsem_first_waiter(s);
		list_del(&w->link);
		rwsem_grant_reader(w);
	}
}

u64
rwsem_xadd_down_read_failed(struct rwsem *s, int p)
{
	u64 waited = lockstat_wait_start();
	struct rwsem_waiter w = { .task = current(),
				  .type = RWSEM_WAITING_FOR_READ,
				  .waking = true };
	long adjustment = -RWSEM_ACTIVE_READ_BIAS, count;
	u64 flags = spin_lock_irqsave(&s->wait_lock);

	if (list_empty(&s->wait_list))
		adjustment += RWSEM_WAITING_BIAS;
	list_add_tail(&w.link, &s->wait_list);
	count = rwsem_add_return(s, adjustment);
	/* Nobody active: wake the head. Only readers active and we were first: join them. */
	if (count == RWSEM_WAITING_BIAS ||
	    (count > RWSEM_WAITING_BIAS && adjustment != -RWSEM_ACTIVE_READ_BIAS))
		do_wake(s, WAKE_ANY, p);
	spin_unlock_irqrestore(&s->wait_lock, flags);
	rwsem_wait_for_grant(&w, p);
	return waited;
}

/*
 * A queued writer's wait between tries: drops the wait lock, sleeps until
 * nobody is active (the release that makes it so wakes the head), retakes
 * the lock; returns the count seen. The caller marked itself sleeping.
 */
static long
sleep_while_active(struct rwsem *s, int p, u64 *flags)
{
	long count;

	spin_unlock_irqrestore(&s->wait_lock, *flags);
	do {
		rwsem_event(p, RWSEM_EV_SLEEPS, 1);
		schedule();
		set_current_sleeping();
	} while ((count = READ_ONCE(s->count)) & RWSEM_ACTIVE_MASK);
	*flags = spin_lock_irqsave(&s->wait_lock);
	return count;
}

/* The writer has the lock: off the queue, running, wait lock dropped. */
static void
leave_queue(struct rwsem *s, struct rwsem_waiter *w, u64 flags)
{
	WRITE_ONCE(current()->state, TASK_RUNNABLE);
	list_del(&w->link);
	spin_unlock_irqrestore(&s->wait_lock, flags);
}

/* ---- 3.15: writers queue at once ------------------------------------------------------------ */

static void
write_queue_315(struct rwsem *s, int p)
{
	struct rwsem_waiter w = { .task = current(), .type = RWSEM_WAITING_FOR_WRITE };
	long adjustment = -RWSEM_ACTIVE_WRITE_BIAS, count;
	u64 flags = spin_lock_irqsave(&s->wait_lock);

	if (list_empty(&s->wait_list))
		adjustment += RWSEM_WAITING_BIAS;
	list_add_tail(&w.link, &s->wait_list);
	count = rwsem_add_return(s, adjustment);
	/* Others queued before us and no writer active: readers hold it, let the queued ones in. */
	if (count > RWSEM_WAITING_BIAS && adjustment == -RWSEM_ACTIVE_WRITE_BIAS)
		do_wake(s, WAKE_READERS, p);

	set_current_sleeping();
	for (;;) {
		if (!(count & RWSEM_ACTIVE_MASK)) {
			long expect = RWSEM_WAITING_BIAS;
			long want = RWSEM_ACTIVE_WRITE_BIAS;
			if (!rwsem_one_waiter(s))
				want += RWSEM_WAITING_BIAS;
			if (READ_ONCE(s->count) == RWSEM_WAITING_BIAS &&
			    rwsem_cmpxchg(s, &expect, want))
				break;
		}
		count = sleep_while_active(s, p, &flags);
	}
	leave_queue(s, &w, flags);
}

/* ---- 3.16 on: spin first --------------------------------------------------------------------- */

/* The owning writer, or NULL: no owner, or readers' mark. */
static inline struct task *
writer_of(unsigned long owner)
{
	return owner == RWSEM_XADD_READER_OWNED ? NULL : (struct task *)owner;
}

static bool
can_spin_on_owner(struct rwsem *s, int p)
{
	unsigned long o = READ_ONCE(s->owner);
	struct task *owner = writer_of(o);

	if (rwsem_need_resched())
		return false;
	if (owner)
		return rwsem_task_on_cpu(owner);
	switch (p) {
	case RWSEM_SPIN_OSQ:
		return true; /* perhaps a writer that has not stored itself yet - or readers */
	/* lab rwsem: begin */
	case RWSEM_SPIN_OWNER_NULL_FIX:
		return false; /* readers, or a writer not yet stored: sleep, as 3.15 did */
	/* lab rwsem: end */
	case RWSEM_SPIN_DECEIVE_FIX:
		return !(READ_ONCE(s->count) & RWSEM_ACTIVE_MASK);
	default: /* reader-owned */
		return o != RWSEM_XADD_READER_OWNED;
	}
}

/* 3.16: spin while the owner runs; worth going on only if the owner went away. */
static bool
spin_on_owner_316(struct rwsem *s, struct task *owner)
{
	while (READ_ONCE(s->owner) == (unsigned long)owner && rwsem_task_on_cpu(owner)) {
		if (rwsem_need_resched())
			break;
		cpu_relax();
	}
	return writer_of(READ_ONCE(s->owner)) == NULL;
}

/* 4.1: as 3.16, but an owner off its CPU stops us, and NULL must mean free, not readers. */
static bool
spin_on_owner_41(struct rwsem *s, struct task *owner)
{
	long count;

	while (READ_ONCE(s->owner) == (unsigned long)owner) {
		if (!rwsem_task_on_cpu(owner) || rwsem_need_resched())
			return false;
		cpu_relax();
	}
	if (writer_of(READ_ONCE(s->owner)))
		return true; /* a new writer: spin on it */
	count = READ_ONCE(s->count);
	return count == 0 || count == RWSEM_WAITING_BIAS;
}

/* 19c5d690: spin on a running writer; go on unless readers have marked the lock. */
static bool
spin_on_owner_reader_owned(struct rwsem *s)
{
	unsigned long o = READ_ONCE(s->owner);
	struct task *owner = writer_of(o);

	if (owner) {
		while (READ_ONCE(s->owner) == o) {
			if (!rwsem_task_on_cpu(owner) || rwsem_need_resched())
				return false;
			cpu_relax();
		}
	}
	return READ_ONCE(s->owner) != RWSEM_XADD_READER_OWNED;
}

/* Steals a free lock, queued waiters or not, without queueing. */
static bool
try_write_lock_unqueued(struct rwsem *s)
{
	long count = READ_ONCE(s->count);

	while (count == 0 || count == RWSEM_WAITING_BIAS)
		if (rwsem_cmpxchg(s, &count, count + RWSEM_ACTIVE_WRITE_BIAS))
			return true;
	return false;
}

/* One turn of the spin loop at the head of the osq: false to stop spinning. */
static bool
keep_spinning(struct rwsem *s, int p, bool *taken)
{
	struct task *owner = NULL;

	if (p == RWSEM_SPIN_READER_OWNED) {
		if (!spin_on_owner_reader_owned(s))
			return false;
	} else {
		owner = writer_of(READ_ONCE(s->owner));
		if (owner && !(p == RWSEM_SPIN_DECEIVE_FIX ? spin_on_owner_41(s, owner)
							   : spin_on_owner_316(s, owner)))
			return false;
	}
	if (try_write_lock_unqueued(s)) {
		*taken = true;
		return false;
	}
	/* No owner to watch: an owner may be about to store itself, or readers hold it. */
	if (p == RWSEM_SPIN_READER_OWNED)
		owner = writer_of(READ_ONCE(s->owner));
	if (!owner && rwsem_need_resched())
		return false;
	return true;
}

/*
 * Never inlined: a profile attributes the head spinner's samples to this
 * frame, as the queued spinners' go to osq_lock (the experiment counts both).
 */
static __attribute__((noinline)) bool
optimistic_spin(struct rwsem *s, int p)
{
	bool counting = lockstat_on(), taken = false;
	u64 t0;

	if (!can_spin_on_owner(s, p))
		return false;
	t0 = counting ? rdtsc() : 0;
	if (osq_lock(&s->osq)) {
		while (keep_spinning(s, p, &taken))
			cpu_relax();
		osq_unlock(&s->osq);
	}
	if (counting) {
		lockstat_rwsem_add((unsigned)p, RWSEM_EV_SPIN, rdtsc() - t0);
		lockstat_rwsem_add((unsigned)p, taken ? RWSEM_EV_SPIN_WON : RWSEM_EV_SPIN_FAILED,
				   1);
	}
	return taken;
}

/* 3.16's queued try: the lock is free (count WAITING_BIAS: only the queue's bias). */
static bool
try_write_lock(struct rwsem *s, long count)
{
	long expect = RWSEM_WAITING_BIAS;

	if (count & RWSEM_ACTIVE_MASK)
		return false;
	if (READ_ONCE(s->count) != RWSEM_WAITING_BIAS ||
	    !rwsem_cmpxchg(s, &expect, RWSEM_ACTIVE_WRITE_BIAS))
		return false;
	if (!rwsem_one_waiter(s))
		rwsem_add_return(s, RWSEM_WAITING_BIAS);
	return true;
}

static void
write_spin_then_queue(struct rwsem *s, int p)
{
	struct rwsem_waiter w = { .task = current(), .type = RWSEM_WAITING_FOR_WRITE };
	long count;
	u64 flags;

	/* Stop being active: a spinner must not hold readers off. */
	rwsem_add_return(s, -RWSEM_ACTIVE_WRITE_BIAS);
	if (optimistic_spin(s, p))
		return;

	flags = spin_lock_irqsave(&s->wait_lock);
	bool others_waiting = !list_empty(&s->wait_list);
	list_add_tail(&w.link, &s->wait_list);
	if (others_waiting) {
		count = READ_ONCE(s->count);
		if (count > RWSEM_WAITING_BIAS)
			do_wake(s, WAKE_READERS, p);
	} else {
		count = rwsem_add_return(s, RWSEM_WAITING_BIAS);
	}

	set_current_sleeping();
	while (!try_write_lock(s, count)) {
		count = sleep_while_active(s, p, &flags);
	}
	leave_queue(s, &w, flags);
}

u64
rwsem_xadd_down_write_failed(struct rwsem *s, int p)
{
	u64 waited = lockstat_wait_start();

	if (p == RWSEM_SPIN_OFF)
		write_queue_315(s, p);
	else
		write_spin_then_queue(s, p);
	return waited;
}

void
rwsem_xadd_wake(struct rwsem *s)
{
	int p = rwsem_xadd_policy();
	u64 flags = spin_lock_irqsave(&s->wait_lock);

	if (!list_empty(&s->wait_list))
		do_wake(s, WAKE_ANY, p);
	spin_unlock_irqrestore(&s->wait_lock, flags);
}

void
rwsem_xadd_downgrade_wake(struct rwsem *s, int p)
{
	u64 flags = spin_lock_irqsave(&s->wait_lock);

	if (!list_empty(&s->wait_list))
		do_wake(s, WAKE_READ_OWNED, p);
	spin_unlock_irqrestore(&s->wait_lock, flags);
}
