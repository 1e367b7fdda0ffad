/*
 * paravirt.h - the paravirt boundary (DESIGN.md §1.7).
 *
 * Every page-table entry read and write, CR3 load, TLB flush, interrupt-flag
 * change, halt and TSC read in the kernel goes through the functions in this
 * header and nowhere else. Today each one is the native instruction sequence
 * (the native_* functions below, inlined). The paravirt regression (Linux
 * 2.6.2x CONFIG_PARAVIRT, seed 003) later switches what stands behind these
 * names - an indirect call through an ops table, or a patched call site -
 * without touching a single caller in mm/ or kernel/.
 *
 * Page-table entries have one type per level (pgd/pud/pmd/pte), as in Linux,
 * because the regression's profile names the per-level accessors.
 */
#ifndef REWIND_PARAVIRT_H
#define REWIND_PARAVIRT_H

#include "kernel/lib/types.h"

/* ---- native implementations ---------------------------------------------- */

static inline u64
native_read_cr3(void)
{
	u64 v;
	__asm__ __volatile__("mov %%cr3, %0" : "=r"(v));
	return v;
}

static inline void
native_write_cr3(u64 v)
{
	__asm__ __volatile__("mov %0, %%cr3" : : "r"(v) : "memory");
}

static inline void
native_flush_tlb_one(u64 addr)
{
	__asm__ __volatile__("invlpg (%0)" : : "r"(addr) : "memory");
}

#ifdef HOSTED
/*
 * Host unit tests run kernel code (locks included) in user mode, where
 * cli/sti/popf would fault or be ignored: there the flag is only pretended.
 */
static inline u64
native_save_fl(void)
{
	return 1ul << 9;
}
static inline void
native_restore_fl(u64 f)
{
	(void)f;
}
static inline void
native_irq_disable(void)
{
}
static inline void
native_irq_enable(void)
{
}
#else
static inline u64
native_save_fl(void)
{
	u64 f;
	__asm__ __volatile__("pushfq; popq %0" : "=r"(f) : : "memory");
	return f;
}

static inline void
native_restore_fl(u64 f)
{
	__asm__ __volatile__("pushq %0; popfq" : : "r"(f) : "memory", "cc");
}

static inline void
native_irq_disable(void)
{
	__asm__ __volatile__("cli" ::: "memory");
}
static inline void
native_irq_enable(void)
{
	__asm__ __volatile__("sti" ::: "memory");
}
#endif
/* sti's one-instruction shadow makes "sti; hlt" wake-up-safe. */
static inline void
native_safe_halt(void)
{
	__asm__ __volatile__("sti; hlt" ::: "memory");
}
static inline void
native_halt(void)
{
	__asm__ __volatile__("hlt" ::: "memory");
}

static inline u64
native_read_tsc(void)
{
	u32 lo, hi;
	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((u64)hi << 32) | lo;
}

/* ---- the interface the rest of the kernel uses --------------------------- */

static inline u64
read_cr3(void)
{
	return native_read_cr3();
}
static inline void
write_cr3(u64 v)
{
	native_write_cr3(v);
}
static inline void
flush_tlb_one(u64 addr)
{
	native_flush_tlb_one(addr);
}
/* Reloading CR3 drops every non-global translation. */
static inline void
flush_tlb_all(void)
{
	native_write_cr3(native_read_cr3());
}

static inline void
native_flush_tlb_global(void)
{
	u64 cr4;
	__asm__ __volatile__("mov %%cr4, %0" : "=r"(cr4));
	__asm__ __volatile__("mov %0, %%cr4"
			     :
			     : "r"(cr4 & ~(1ul << 7))
			     : "memory"); /* PGE off: all go */
	__asm__ __volatile__("mov %0, %%cr4" : : "r"(cr4) : "memory");
}

/* Drops every translation, global (kernel) ones included. */
static inline void
flush_tlb_all_global(void)
{
	native_flush_tlb_global();
}

static inline u64
save_fl(void)
{
	return native_save_fl();
}
static inline void
restore_fl(u64 f)
{
	native_restore_fl(f);
}
static inline void
local_irq_disable(void)
{
	native_irq_disable();
}
static inline void
local_irq_enable(void)
{
	native_irq_enable();
}
static inline void
safe_halt(void)
{
	native_safe_halt();
}
static inline void
halt(void)
{
	native_halt();
}
static inline u64
rdtsc(void)
{
	return native_read_tsc();
}

static inline u64
local_irq_save(void)
{
	u64 f = save_fl();
	local_irq_disable();
	return f;
}

static inline void
local_irq_restore(u64 f)
{
	restore_fl(f);
}
static inline bool
irqs_enabled(void)
{
	return save_fl() & (1ul << 9);
}

/*
 * One entry type per paging level. PT_LEVEL(name) makes name_t, name_val() to read
 * the raw bits, make_name() to build one, and set_name() to store one.
 */
#define PT_LEVEL(name)                                                   \
	typedef struct {                                                 \
		u64 val;                                                 \
	} name##_t;                                                      \
	static inline u64 native_##name##_val(name##_t e)                \
	{                                                                \
		return e.val;                                            \
	}                                                                \
	static inline name##_t native_make_##name(u64 v)                 \
	{                                                                \
		return (name##_t){ v };                                  \
	}                                                                \
	static inline void native_set_##name(name##_t *slot, name##_t e) \
	{                                                                \
		WRITE_ONCE(slot->val, e.val);                            \
	}                                                                \
	static inline u64 name##_val(name##_t e)                         \
	{                                                                \
		return native_##name##_val(e);                           \
	}                                                                \
	static inline name##_t make_##name(u64 v)                        \
	{                                                                \
		return native_make_##name(v);                            \
	}                                                                \
	static inline void set_##name(name##_t *slot, name##_t e)        \
	{                                                                \
		native_set_##name(slot, e);                              \
	}
PT_LEVEL(pgd)
PT_LEVEL(pud)
PT_LEVEL(pmd)
PT_LEVEL(pte)
#undef PT_LEVEL

#endif
