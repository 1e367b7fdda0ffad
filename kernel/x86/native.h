/*
 * native.h - the x86 instructions behind the paravirt boundary: CR2/CR3
 * reads and writes, TLB flushes, the interrupt flag, halt and the TSC, each
 * as a __native_* inline function. A PARAVIRT=n kernel inlines them at
 * every caller (kernel/x86/paravirt.h); a PARAVIRT=y kernel wraps them in
 * the out-of-line natives its ops table holds (kernel/x86/paravirt.c).
 * Callers use paravirt.h's names, never these.
 */
#ifndef REWIND_NATIVE_H
#define REWIND_NATIVE_H

#include "kernel/lib/types.h"

struct spinlock;

static inline u64
__native_read_cr2(void)
{
	u64 v;
	__asm__ __volatile__("mov %%cr2, %0" : "=r"(v));
	return v;
}

static inline u64
__native_read_cr3(void)
{
	u64 v;
	__asm__ __volatile__("mov %%cr3, %0" : "=r"(v));
	return v;
}

static inline void
__native_write_cr3(u64 v)
{
	__asm__ __volatile__("mov %0, %%cr3" : : "r"(v) : "memory");
}

static inline void
__native_flush_tlb_single(u64 addr)
{
	__asm__ __volatile__("invlpg (%0)" : : "r"(addr) : "memory");
}

/* Drops every translation, global (kernel) ones included: PGE off and on again. */
static inline void
__native_flush_tlb_global(void)
{
	u64 cr4;
	__asm__ __volatile__("mov %%cr4, %0" : "=r"(cr4));
	__asm__ __volatile__("mov %0, %%cr4" : : "r"(cr4 & ~(1ul << 7)) : "memory");
	__asm__ __volatile__("mov %0, %%cr4" : : "r"(cr4) : "memory");
}

#ifdef HOSTED
/*
 * Host unit tests run kernel code (locks included) in user mode, where
 * cli/sti/popf would fault or be ignored: there the flag is only pretended.
 */
static inline u64
__native_save_fl(void)
{
	return 1ul << 9;
}
static inline void
__native_restore_fl(u64 f)
{
	(void)f;
}
static inline void
__native_irq_disable(void)
{
}
static inline void
__native_irq_enable(void)
{
}
#else
static inline u64
__native_save_fl(void)
{
	u64 f;
	__asm__ __volatile__("pushfq; popq %0" : "=r"(f) : : "memory");
	return f;
}

static inline void
__native_restore_fl(u64 f)
{
	__asm__ __volatile__("pushq %0; popfq" : : "r"(f) : "memory", "cc");
}

static inline void
__native_irq_disable(void)
{
	__asm__ __volatile__("cli" ::: "memory");
}
static inline void
__native_irq_enable(void)
{
	__asm__ __volatile__("sti" ::: "memory");
}
#endif
/* sti's one-instruction shadow makes "sti; hlt" wake-up-safe. */
static inline void
__native_safe_halt(void)
{
	__asm__ __volatile__("sti; hlt" ::: "memory");
}
static inline void
__native_halt(void)
{
	__asm__ __volatile__("hlt" ::: "memory");
}

static inline u64
__native_read_tsc(void)
{
	u32 lo, hi;
	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((u64)hi << 32) | lo;
}

/* Nanoseconds since boot from the TSC (kernel/time/tsc.c): Linux's sched_clock. */
u64 native_sched_clock(void);
/* The ticket lock taken with interrupts already saved and off (locking/spinlock.c). */
void default_spin_lock_flags(struct spinlock *l, u64 flags);

#endif
