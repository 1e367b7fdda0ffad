/*
 * paravirt.h - the paravirt boundary (docs/design.md, "The paravirt
 * boundary"; regression 3).
 *
 * Every page-table entry read and write, CR2/CR3 access, TLB flush,
 * interrupt-flag change, halt, TSC read, sched_clock and irq-saving spin
 * lock in the kernel goes through the functions in this header and nowhere
 * else. What stands behind them is a build option:
 *
 *   PARAVIRT=n  the native instructions, inlined (the seed's "non pv"
 *               kernel): no table, no call sites;
 *   PARAVIRT=y  (the default) Linux 2.6.2x's CONFIG_PARAVIRT: each name is a
 *               call site "call *pv_ops.<group>.<op>(%rip)" recorded in the
 *               .parainstructions section, and the table holds out-of-line
 *               native functions (native_pte_val, native_read_tsc, ...) that
 *               a profile names. kernel/x86/paravirt.c rewrites the sites
 *               for the `paravirt=` knob: indirect (as built), patched
 *               (2.6.25's native_patch) or ident (2.6.30's identity
 *               accessors); kernel/x86/paravirt_patch.c says byte for byte
 *               what each mode puts in a site.
 *
 * The table is grouped as Linux's (cpu, irq, time, mmu, lock). Ordinary
 * ops are compiled with Linux's full caller-saved clobber set (rax, rcx,
 * rdx, rsi, rdi, r8-r11), so the compiler spills around every pte_val()
 * even once the site is patched: the register-pressure cost of §3.3. The
 * four irq-flag ops are callee-save (only rax clobbered): their natives are
 * written in assembly and touch nothing else, as in 2009's form. The entry
 * code's cli, swapgs, iretq and sysret go through the same table
 * (paravirt_asm.inc).
 *
 * How the page-table accessors (pte_val, make_pte and their pmd/pud/pgd
 * twins) are compiled is a second build option, because it is a property
 * of every site's code, not of what a site holds:
 *
 *   PV_CALLEE_SAVE=n  (the default) 2.6.25: full-clobber sites, the C
 *                     natives in the table;
 *   PV_CALLEE_SAVE=y  2.6.30 (ecb93d1c, da5de7c2): callee-save sites (only
 *                     rax clobbered), so the compiler keeps values in
 *                     caller-saved registers across them; each slot is a
 *                     struct pv_callee_save holding a register-saving thunk
 *                     (__raw_callee_save_native_pte_val ...) in front of
 *                     the C native, so that nothing but a callee-save
 *                     function can be stored there.
 *
 * The boundary is three headers, as Linux's: kernel/x86/native.h holds
 * the instructions (__native_read_cr3 ...), kernel/x86/paravirt_types.h
 * the entry types, the ops table and the call-site machinery, and this one
 * the names the rest of the kernel calls (read_cr3, flush_tlb_single,
 * pte_val ...), each either a call site or the inlined instruction.
 */
#ifndef REWIND_PARAVIRT_H
#define REWIND_PARAVIRT_H

#include "kernel/lib/types.h"
#include "kernel/x86/native.h"
#include "kernel/x86/paravirt_types.h"

#ifdef CONFIG_PARAVIRT
/* ---- PARAVIRT=y: each name is a call site through pv_ops -------------------------- */

/* True while the sites are being rewritten: an NMI handler must run none of them. */
bool paravirt_text_changing(void);

static inline u64
read_tsc_op(void)
{
	return PVOP_CALL0(cpu.read_tsc);
}
static inline u64
save_fl(void)
{
	return PVOP_CALLEE0(irq.save_fl);
}
static inline void
restore_fl(u64 f)
{
	PVOP_CALLEE1(irq.restore_fl, f);
}
static inline void
local_irq_disable(void)
{
	PVOP_CALLEE0(irq.irq_disable);
}
static inline void
local_irq_enable(void)
{
	PVOP_CALLEE0(irq.irq_enable);
}
static inline void
safe_halt(void)
{
	PVOP_CALL0(irq.safe_halt);
}
static inline void
halt(void)
{
	PVOP_CALL0(irq.halt);
}
static inline u64
sched_clock(void)
{
	return PVOP_CALL0(time.sched_clock);
}
static inline u64
read_cr2(void)
{
	return PVOP_CALL0(mmu.read_cr2);
}
static inline u64
read_cr3(void)
{
	return PVOP_CALL0(mmu.read_cr3);
}
static inline void
write_cr3(u64 v)
{
	PVOP_CALL1(mmu.write_cr3, v);
}
/* Reloading CR3 drops every non-global translation. */
static inline void
flush_tlb_user(void)
{
	PVOP_CALL0(mmu.flush_tlb_user);
}
/* Drops every translation, global (kernel) ones included. */
static inline void
flush_tlb_global(void)
{
	PVOP_CALL0(mmu.flush_tlb_global);
}
static inline void
flush_tlb_single(u64 addr)
{
	PVOP_CALL1(mmu.flush_tlb_single, addr);
}
static inline void
spin_lock_flags(struct spinlock *l, u64 flags)
{
	PVOP_CALL2(lock.spin_lock_flags, l, flags);
}

#define PT_LEVEL(name)                                                   \
	static inline u64 name##_val(name##_t e)                         \
	{                                                                \
		return PVOP_ACCESSOR1(mmu.name##_val, e.val);            \
	}                                                                \
	static inline name##_t make_##name(u64 v)                        \
	{                                                                \
		return (name##_t){ PVOP_ACCESSOR1(mmu.make_##name, v) }; \
	}                                                                \
	static inline void set_##name(name##_t *slot, name##_t e)        \
	{                                                                \
		PVOP_CALL2(mmu.set_##name, slot, e.val);                 \
	}

#else
/* ---- PARAVIRT=n: the native instructions, inlined ----------------------------- */

static inline bool
paravirt_text_changing(void)
{
	return false;
}

static inline u64
read_tsc_op(void)
{
	return __native_read_tsc();
}
static inline u64
save_fl(void)
{
	return __native_save_fl();
}
static inline void
restore_fl(u64 f)
{
	__native_restore_fl(f);
}
static inline void
local_irq_disable(void)
{
	__native_irq_disable();
}
static inline void
local_irq_enable(void)
{
	__native_irq_enable();
}
static inline void
safe_halt(void)
{
	__native_safe_halt();
}
static inline void
halt(void)
{
	__native_halt();
}
static inline u64
sched_clock(void)
{
	return native_sched_clock();
}
static inline u64
read_cr2(void)
{
	return __native_read_cr2();
}
static inline u64
read_cr3(void)
{
	return __native_read_cr3();
}
static inline void
write_cr3(u64 v)
{
	__native_write_cr3(v);
}
static inline void
flush_tlb_user(void)
{
	__native_write_cr3(__native_read_cr3());
}
static inline void
flush_tlb_global(void)
{
	__native_flush_tlb_global();
}
static inline void
flush_tlb_single(u64 addr)
{
	__native_flush_tlb_single(addr);
}
static inline void
spin_lock_flags(struct spinlock *l, u64 flags)
{
	default_spin_lock_flags(l, flags);
}

#define PT_LEVEL(name)                                            \
	static inline u64 name##_val(name##_t e)                  \
	{                                                         \
		return e.val;                                     \
	}                                                         \
	static inline name##_t make_##name(u64 v)                 \
	{                                                         \
		return (name##_t){ v };                           \
	}                                                         \
	static inline void set_##name(name##_t *slot, name##_t e) \
	{                                                         \
		WRITE_ONCE(slot->val, e.val);                     \
	}
#endif /* CONFIG_PARAVIRT */

PT_LEVEL(pgd)
PT_LEVEL(pud)
PT_LEVEL(pmd)
PT_LEVEL(pte)
#undef PT_LEVEL

/* ---- derived from the ops above, the same in every build ----------------------- */

static inline u64
rdtsc(void)
{
	return read_tsc_op();
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

#endif
