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
 * kernel/paravirt.h.
 */
#ifndef REWIND_SPINLOCK_H
#define REWIND_SPINLOCK_H

#include "kernel/types.h"
#include "kernel/paravirt.h"
#include "kernel/x86.h"

struct spinlock {
	u32 next;	/* next ticket to hand out */
	u32 owner;	/* ticket now allowed in */
	const char *name;
};

#define SPINLOCK_INIT(n) { .next = 0, .owner = 0, .name = (n) }

static inline void
spin_lock_init(struct spinlock *l, const char *name)
{
	l->next = 0;
	l->owner = 0;
	l->name = name;
}

static inline void
spin_lock(struct spinlock *l)
{
	u32 ticket = __atomic_fetch_add(&l->next, 1, __ATOMIC_RELAXED);
	while (__atomic_load_n(&l->owner, __ATOMIC_ACQUIRE) != ticket)
		cpu_relax();
}

static inline bool
spin_trylock(struct spinlock *l)
{
	u32 owner = __atomic_load_n(&l->owner, __ATOMIC_RELAXED);
	u32 expect = owner;
	return __atomic_compare_exchange_n(&l->next, &expect, owner + 1, false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static inline void
spin_unlock(struct spinlock *l)
{
	__atomic_store_n(&l->owner, l->owner + 1, __ATOMIC_RELEASE);
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
