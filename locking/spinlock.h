/*
 * spinlock.h - ticket spinlocks.
 *
 * A CPU takes a ticket with one atomic fetch-and-add on `next` and spins
 * until `owner` reaches it, so waiters are served strictly in arrival order
 * (no starvation under contention, which matters for the lock experiments).
 * Unlock is a plain release store of owner + 1: only the holder writes it.
 *
 * The _irqsave variants also disable interrupts on this CPU, for locks that
 * interrupt handlers take too. Interrupt-flag changes go through
 * kernel/x86/paravirt.h.
 *
 * Instrumentation: with the `lockstat` or `lockdebug` knob on, lock,
 * trylock and unlock take the out-of-line paths of spinlock.c, which count
 * the lock (lockstat.h) and record its holder for the debug checks; the
 * records are kept by the holding CPU, so the lock stays 16 bytes. With
 * both knobs off each fast path pays one load of lock_knobs (a cache line
 * only knob changes write) and a branch that is not taken.
 *
 * The out-of-line paths save every register they use, and the call to
 * them is hidden in an asm statement (as Linux's callee-save paravirt
 * thunks do), so that a function that takes a lock keeps its registers
 * and can stay a leaf: an ordinary call on the cold side would make it
 * save registers and build a frame on the hot side too. The price: such a
 * leaf has no frame of its own, and a backtrace from inside the slow path
 * skips the leaf's caller.
 *
 * Host unit tests (HOSTED) have no per-CPU data and get the bare ticket
 * lock.
 */
#ifndef REWIND_SPINLOCK_H
#define REWIND_SPINLOCK_H

#include "kernel/lib/types.h"
#include "kernel/x86/paravirt.h"
#include "kernel/x86/x86.h"
#include "locking/lockstat.h"

struct spinlock {
	u32 next;	  /* next ticket to hand out */
	u32 owner;	  /* ticket now allowed in */
	const char *name; /* also the lock's class for lockstat */
};

/* clang-format off */
#define SPINLOCK_INIT(n) { .next = 0, .owner = 0, .name = (n) }
/* clang-format on */

static inline void
spin_lock_init(struct spinlock *l, const char *name)
{
	l->next = 0;
	l->owner = 0;
	l->name = name;
}

/* ---- the ticket lock itself ---------------------------------------------------- */

static inline u32
arch_spin_take_ticket(struct spinlock *l)
{
	return __atomic_fetch_add(&l->next, 1, __ATOMIC_RELAXED);
}

static inline bool
arch_spin_served(struct spinlock *l, u32 ticket)
{
	return __atomic_load_n(&l->owner, __ATOMIC_ACQUIRE) == ticket;
}

static inline bool
arch_spin_trylock(struct spinlock *l)
{
	u32 owner = __atomic_load_n(&l->owner, __ATOMIC_RELAXED);
	u32 expect = owner;
	return __atomic_compare_exchange_n(&l->next, &expect, owner + 1, false, __ATOMIC_ACQUIRE,
					   __ATOMIC_RELAXED);
}

static inline void
arch_spin_unlock(struct spinlock *l)
{
	__atomic_store_n(&l->owner, l->owner + 1, __ATOMIC_RELEASE);
}

/* ---- with instrumentation ---------------------------------------------------------- */

/*
 * Called only from the asm statements below: they save every register
 * they use, and take the lock in %rdi.
 */
#define __callee_saves_all __attribute__((no_caller_saved_registers))

__callee_saves_all void spin_lock_tracked(struct spinlock *l);
__callee_saves_all bool spin_trylock_tracked(struct spinlock *l);
__callee_saves_all void spin_unlock_tracked(struct spinlock *l);

/*
 * Who holds l, if the instrumented path took it: the holder's CPU, and the
 * address it took the lock at (0 unless lockdebug was on).
 */
bool spin_lock_holder(const struct spinlock *l, u32 *cpu, u64 *pc);

/*
 * For lockdebug's context checks (lockdebug.h), interrupts off: how many
 * spinlocks this CPU holds by its records, not counting except (may be
 * NULL); *innermost and *pc: the last taken of them and where.
 */
u32 spin_held_here(const struct spinlock *except, const struct spinlock **innermost, u64 *pc);
/* Drops this CPU's records of locks released while the knobs were off. Interrupts off. */
void spin_held_forget_stale(void);

/*
 * Whether this CPU has a lockdebug record of a read hold of the rwlock
 * whose wait_lock is l (rwlock.h; spinlock.c keeps them beside its own).
 */
bool spin_holds_shared(const struct spinlock *l);

#ifdef HOSTED
static inline bool
spin_instrumented(void)
{
	return false;
}

static inline bool
spin_not_mine(const struct spinlock *l)
{
	(void)l;
	return false;
}
#else
/*
 * lockdebug's lockdep_assert_held: whether l is surely not held by this
 * CPU - free, or recorded as another CPU's. A holding lockdebug did not
 * record (taken before it went on) gives false.
 */
bool spin_not_mine(const struct spinlock *l);

static inline bool
spin_instrumented(void)
{
	return unlikely(READ_ONCE(lock_knobs.any) != 0);
}
#endif

static inline void
spin_lock(struct spinlock *l)
{
	if (spin_instrumented()) {
		__asm__ __volatile__("call spin_lock_tracked" : : "D"(l) : "memory", "cc");
		return;
	}
	u32 ticket = arch_spin_take_ticket(l);
	while (!arch_spin_served(l, ticket))
		cpu_relax();
}

static inline bool
spin_trylock(struct spinlock *l)
{
	bool got;

	if (spin_instrumented()) {
		__asm__ __volatile__("call spin_trylock_tracked"
				     : "=a"(got)
				     : "D"(l)
				     : "memory", "cc");
		return got;
	}
	return arch_spin_trylock(l);
}

static inline void
spin_unlock(struct spinlock *l)
{
	if (spin_instrumented()) {
		__asm__ __volatile__("call spin_unlock_tracked" : : "D"(l) : "memory", "cc");
		return;
	}
	arch_spin_unlock(l);
}

static inline bool
spin_is_locked(struct spinlock *l)
{
	return __atomic_load_n(&l->owner, __ATOMIC_RELAXED) !=
	       __atomic_load_n(&l->next, __ATOMIC_RELAXED);
}

static inline u64
spin_lock_irqsave(struct spinlock *l)
{
	u64 flags = local_irq_save();
#ifdef CONFIG_PARAVIRT
	/*
	 * pv_ops.lock, Linux 2.6.2x's __raw_spin_lock_flags; instrumented
	 * locks keep the inline path, so that lockdebug names the caller.
	 */
	if (!spin_instrumented()) {
		spin_lock_flags(l, flags);
		return flags;
	}
#endif
	spin_lock(l);
	return flags;
}

static inline void
spin_unlock_irqrestore(struct spinlock *l, u64 flags)
{
	spin_unlock(l);
	local_irq_restore(flags);
}

#endif
