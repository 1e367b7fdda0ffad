/*
 * rwsem_internal.h - what rwsem.c (the interface and fast paths),
 * rwsem_xadd.c and rwsem_bits.c (the slow paths of the two count layouts)
 * share: the layouts' constants, the waiter, the owner field's marks, the
 * slow-path entry points. Not for users of the lock: locking/rwsem.h.
 */
#ifndef REWIND_RWSEM_INTERNAL_H
#define REWIND_RWSEM_INTERNAL_H

#include "kernel/process/task.h"
#include "kernel/x86/percpu.h"
#include "kernel/x86/x86.h"
#include "locking/rwsem.h"
#include "locking/rwsem_policy.h"

/* The `rwsem_spin` knob (rwsem.c): enum rwsem_spin_policy. */
extern int rwsem_spin;

/* The policy an xadd-layout lock follows now, read once: handoff needs the other layout. */
static inline int
rwsem_xadd_policy(void)
{
	int p = READ_ONCE(rwsem_spin);

	return p == RWSEM_SPIN_HANDOFF ? RWSEM_SPIN_READER_OWNED : p;
}

/* ---- the xadd layout (rwsem_xadd.c explains it) ------------------------------------ */

#define RWSEM_ACTIVE_MASK	0xffffffffl
#define RWSEM_ACTIVE_BIAS	1l
#define RWSEM_WAITING_BIAS	(-RWSEM_ACTIVE_MASK - 1)
#define RWSEM_ACTIVE_READ_BIAS	RWSEM_ACTIVE_BIAS
#define RWSEM_ACTIVE_WRITE_BIAS (RWSEM_WAITING_BIAS + RWSEM_ACTIVE_BIAS)

/* 19c5d690's mark: readers hold it (never a task's address). */
#define RWSEM_XADD_READER_OWNED 1ul

/* ---- the bit-field layout (rwsem_bits.c explains it) ----------------------------- */

#define RWSEM_WRITER_LOCKED (1l << 0)
#define RWSEM_FLAG_WAITERS  (1l << 1)
#define RWSEM_FLAG_HANDOFF  (1l << 2)
#define RWSEM_READER_SHIFT  8
#define RWSEM_READER_BIAS   (1l << RWSEM_READER_SHIFT)
#define RWSEM_READER_MASK   (~(RWSEM_READER_BIAS - 1) & ~RWSEM_FLAG_READFAIL)
#define RWSEM_FLAG_READFAIL ((long)(1ul << 63))
#define RWSEM_WRITER_MASK   RWSEM_WRITER_LOCKED
#define RWSEM_LOCK_MASK	    (RWSEM_WRITER_MASK | RWSEM_READER_MASK)
#define RWSEM_READ_FAILED_MASK \
	(RWSEM_WRITER_MASK | RWSEM_FLAG_WAITERS | RWSEM_FLAG_HANDOFF | RWSEM_FLAG_READFAIL)

/* Owner-word flags of the bit-field layout (task pointers are 8-byte aligned). */
#define RWSEM_BITS_READER_OWNED 1ul /* readers: the task part is the last reader to enter */
#define RWSEM_BITS_NONSPINNABLE 2ul /* a writer timed out spinning on these readers */
#define RWSEM_BITS_OWNER_FLAGS	3ul

/* A waiter timed out (5.3: DIV_ROUND_UP(HZ, 250) jiffies, 4 ms at HZ=1000) may ask for a hand-off. */
#define RWSEM_WAIT_TIMEOUT_NS 4000000ull

/* ---- waiters --------------------------------------------------------------------------- */

/* What the wake routines (both layouts) are asked to do; wait lock held. */
enum rwsem_wake_type {
	WAKE_ANY,	 /* a release: wake a writer at the head, or grant the readers */
	WAKE_READERS,	 /* from a writer's slow path: grant readers ahead, never wake a writer */
	WAKE_READ_OWNED, /* a downgrade: the caller holds a read bias already */
};

enum rwsem_waiter_type { RWSEM_WAITING_FOR_READ, RWSEM_WAITING_FOR_WRITE };

/*
 * On the waiting task's stack, queued on wait_list under wait_lock.
 * A reader is granted the lock by its waker: taken off the list, then
 * task = NULL, then woken. From task = NULL on the reader may return, but
 * its waker still needs the task to wake it (rewind has no task
 * reference counts), so the reader waits for `waking` to clear before its
 * frame - and perhaps the task - can go (rwsem_grant_reader).
 */
struct rwsem_waiter {
	struct list_head link;
	struct task *task; /* NULL: this reader holds the lock now */
	int type;	   /* enum rwsem_waiter_type */
	bool waking;	   /* the waker has not finished with task yet */
	u64 timeout;	   /* ns_since_boot() after which a hand-off may be asked (bits layout) */
};

/* Hands the lock to a reader already taken off the queue, and wakes it. */
void rwsem_grant_reader(struct rwsem_waiter *w);
/* A queued reader sleeps until granted; counts its sleeps under policy p. */
void rwsem_wait_for_grant(struct rwsem_waiter *w, int p);

static inline struct rwsem_waiter *
rwsem_first_waiter(const struct rwsem *s)
{
	return list_first_entry(&s->wait_list, struct rwsem_waiter, link);
}

/* Whether exactly one task waits (the caller, in the write paths). */
static inline bool
rwsem_one_waiter(const struct rwsem *s)
{
	return !list_empty(&s->wait_list) && s->wait_list.next == s->wait_list.prev;
}

/* ---- shared small things ------------------------------------------------------------------ */

static inline bool
rwsem_need_resched(void)
{
	return READ_ONCE(this_cpu()->need_resched);
}

/*
 * Whether a task is running on a CPU now. rewind has no RCU: the owner
 * may have released the lock and exited since it was read, but a task's
 * memory stays mapped (kmalloc and the page allocator never unmap the
 * direct map), so the read is safe; a stale answer costs one more look at
 * the owner field, which every spin loop re-reads.
 */
static inline bool
rwsem_task_on_cpu(const struct task *t)
{
	return READ_ONCE(t->on_cpu);
}

/* Counts a slow-path event of policy p, when lockstat collects. */
static inline void
rwsem_event(int p, enum lockstat_rwsem_event e, u64 n)
{
	if (lockstat_on())
		lockstat_rwsem_add((unsigned)p, e, n);
}

/* Compare-and-swap of the count: true and done, or false with *old the value found. */
static inline bool
rwsem_cmpxchg(struct rwsem *s, long *old, long new)
{
	return __atomic_compare_exchange_n(&s->count, old, new, false, __ATOMIC_ACQ_REL,
					   __ATOMIC_RELAXED);
}

/* Adds v to the count; returns the new value (lock xadd). */
static inline long
rwsem_add_return(struct rwsem *s, long v)
{
	return __atomic_add_fetch(&s->count, v, __ATOMIC_ACQ_REL);
}

/* ---- the slow paths; each returns when the lock is held, with the wait's start (lockstat) --- */

u64 rwsem_xadd_down_read_failed(struct rwsem *s, int p);
u64 rwsem_xadd_down_write_failed(struct rwsem *s, int p);
void rwsem_xadd_wake(struct rwsem *s);
void rwsem_xadd_downgrade_wake(struct rwsem *s, int p);

u64 rwsem_bits_down_read_slowpath(struct rwsem *s, long count);
u64 rwsem_bits_down_write_slowpath(struct rwsem *s);
void rwsem_bits_wake(struct rwsem *s);
void rwsem_bits_downgrade_wake(struct rwsem *s);
void rwsem_bits_set_reader_owned(struct rwsem *s);

#endif
