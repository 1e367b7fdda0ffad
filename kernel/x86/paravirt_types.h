/*
 * paravirt_types.h - what the paravirt boundary is built of (Linux's
 * paravirt_types.h): the page-table entry types, one per level, and in a
 * PARAVIRT=y kernel the ops table pv_ops, the call-site machinery that
 * compiles an accessor into a patchable "call *pv_ops.<group>.<op>(%rip)"
 * recorded in .parainstructions (PVOP_CALL*, PVOP_CALLEE*), the
 * register-saving thunks of callee-save slots and the out-of-line natives
 * the table holds. kernel/x86/paravirt.h says why it is built so; the
 * patcher (kernel/x86/paravirt.c, paravirt_patch.c) reads these records.
 */
#ifndef REWIND_PARAVIRT_TYPES_H
#define REWIND_PARAVIRT_TYPES_H

#include "kernel/lib/types.h"

struct spinlock;

/*
 * One type per level, as in Linux, because the regression's profile names
 * the per-level accessors (pte_val, pmd_val ...).
 */
#define PT_LEVEL_TYPE(name) \
	typedef struct {    \
		u64 val;    \
	} name##_t;
PT_LEVEL_TYPE(pgd)
PT_LEVEL_TYPE(pud)
PT_LEVEL_TYPE(pmd)
PT_LEVEL_TYPE(pte)
#undef PT_LEVEL_TYPE

#ifdef CONFIG_PARAVIRT
/*
 * swapgs, iret and usergs_sysret64 are the entry code's (paravirt_asm.inc):
 * jumped to or called with every register live, their natives in assembly.
 */
struct pv_cpu_ops {
	u64 (*read_tsc)(void);
	void (*swapgs)(void);
	void (*iret)(void);
	void (*usergs_sysret64)(void);
};

struct pv_irq_ops { /* callee-save: only rax clobbered */
	u64 (*save_fl)(void);
	void (*restore_fl)(u64 flags);
	void (*irq_disable)(void);
	void (*irq_enable)(void);
	void (*safe_halt)(void);
	void (*halt)(void);
};

struct pv_time_ops {
	u64 (*sched_clock)(void);
};

#ifdef CONFIG_PV_CALLEE_SAVE
/* A slot only a callee-save function may fill: PV_CALLEE_SAVE(f) names f's thunk. */
struct pv_callee_save {
	void *func;
};
#define PV_ACCESSOR_SLOT(field, decl) struct pv_callee_save field
#else
#define PV_ACCESSOR_SLOT(field, decl) decl
#endif

#define PV_LEVEL_OPS(name)                                             \
	PV_ACCESSOR_SLOT(name##_val, u64 (*name##_val)(name##_t e));   \
	PV_ACCESSOR_SLOT(make_##name, name##_t (*make_##name)(u64 v)); \
	void (*set_##name)(name##_t * slot, name##_t e);

struct pv_mmu_ops {
	u64 (*read_cr2)(void);
	u64 (*read_cr3)(void);
	void (*write_cr3)(u64 v);
	void (*flush_tlb_user)(void);
	void (*flush_tlb_global)(void);
	void (*flush_tlb_single)(u64 addr);
	PV_LEVEL_OPS(pgd)
	PV_LEVEL_OPS(pud)
	PV_LEVEL_OPS(pmd)
	PV_LEVEL_OPS(pte)
};
#undef PV_LEVEL_OPS
#undef PV_ACCESSOR_SLOT

struct pv_lock_ops {
	void (*spin_lock_flags)(struct spinlock *l, u64 flags);
};

/* One structure of slots laid end to end (Linux's paravirt_patch_template). */
struct paravirt_ops {
	struct pv_cpu_ops cpu;
	struct pv_irq_ops irq;
	struct pv_time_ops time;
	struct pv_mmu_ops mmu;
	struct pv_lock_ops lock;
};

extern struct paravirt_ops pv_ops;

/* A site's type: the index of its slot in pv_ops, as Linux's PARAVIRT_PATCH(op). */
#define PV_TYPE(op) (__builtin_offsetof(struct paravirt_ops, op) / sizeof(void *))
#define PV_NR_TYPES (sizeof(struct paravirt_ops) / sizeof(void *))

/* Which registers a site lets the callee clobber (Linux's CLBR_* bits). */
#define CLBR_RAX (1u << 0)
#define CLBR_RCX (1u << 1)
#define CLBR_RDX (1u << 2)
#define CLBR_RSI (1u << 3)
#define CLBR_RDI (1u << 4)
#define CLBR_R8	 (1u << 5)
#define CLBR_R9	 (1u << 6)
#define CLBR_R10 (1u << 7)
#define CLBR_R11 (1u << 8)
#define CLBR_ANY 0x1ffu

/* A page-table accessor's site in this build: what it lets its callee clobber, and its call. */
#ifdef CONFIG_PV_CALLEE_SAVE
#define PV_ACCESSOR_CLOBBERS   CLBR_RAX
#define PVOP_ACCESSOR1(op, a1) PVOP_CALLEE1(op, a1)
#else
#define PV_ACCESSOR_CLOBBERS   CLBR_ANY
#define PVOP_ACCESSOR1(op, a1) PVOP_CALL1(op, a1)
#endif

/* One record of .parainstructions: where a site is and what it calls. */
struct paravirt_site {
	u64 addr;
	u8 type;
	u8 len;
	u16 clobbers;
	u32 reserved;
};

/* The indirect call every site is built as: FF 15 disp32, 6 bytes. */
#define PV_SITE_LEN 6

/* clang-format off */
#define PV_SITE_ASM(insn)                               \
	"771:\n\t" insn "\n772:\n\t"                    \
	".pushsection .parainstructions,\"a\"\n\t"      \
	".balign 8\n\t"                                 \
	".quad 771b\n\t"                                \
	".byte %c[pv_type]\n\t"                         \
	".byte 772b-771b\n\t"                           \
	".short %c[pv_clobbers]\n\t"                    \
	".long 0\n\t"                                   \
	".popsection"
/* clang-format on */
#define PV_CALL_ASM PV_SITE_ASM("call *%c[pv_slot](%%rip)")
#define PV_SITE_IN(op, clobbers) \
	[pv_type] "i"(PV_TYPE(op)), [pv_clobbers] "i"(clobbers), [pv_slot] "i"(&pv_ops.op)

/*
 * A call in an asm statement must come after the frame is built (a
 * backtrace, and the profile, then name the caller): making the stack
 * pointer an operand tells the compiler so, as Linux's ASM_CALL_CONSTRAINT.
 */
register u64 pv_stack_pointer __asm__("rsp");

/* Full-clobber calls: 0, 1 or 2 arguments (rdi, rsi), the result in rax. */
#define PVOP_CALL0(op)                                                                             \
	({                                                                                         \
		u64 pv_rax_, pv_rdi_, pv_rsi_, pv_rdx_, pv_rcx_;                                   \
		__asm__ __volatile__(PV_CALL_ASM                                                   \
				     : "=a"(pv_rax_), "=D"(pv_rdi_), "=S"(pv_rsi_), "=d"(pv_rdx_), \
				       "=c"(pv_rcx_), "+r"(pv_stack_pointer)                       \
				     : PV_SITE_IN(op, CLBR_ANY)                                    \
				     : "r8", "r9", "r10", "r11", "memory", "cc");                  \
		(void)pv_rdi_, (void)pv_rsi_, (void)pv_rdx_, (void)pv_rcx_;                        \
		pv_rax_;                                                                           \
	})
#define PVOP_CALL1(op, a1)                                                                         \
	({                                                                                         \
		u64 pv_rax_, pv_rdi_ = (u64)(a1), pv_rsi_, pv_rdx_, pv_rcx_;                       \
		__asm__ __volatile__(PV_CALL_ASM                                                   \
				     : "=a"(pv_rax_), "+D"(pv_rdi_), "=S"(pv_rsi_), "=d"(pv_rdx_), \
				       "=c"(pv_rcx_), "+r"(pv_stack_pointer)                       \
				     : PV_SITE_IN(op, CLBR_ANY)                                    \
				     : "r8", "r9", "r10", "r11", "memory", "cc");                  \
		(void)pv_rsi_, (void)pv_rdx_, (void)pv_rcx_;                                       \
		pv_rax_;                                                                           \
	})
#define PVOP_CALL2(op, a1, a2)                                                                     \
	({                                                                                         \
		u64 pv_rax_, pv_rdi_ = (u64)(a1), pv_rsi_ = (u64)(a2), pv_rdx_, pv_rcx_;           \
		__asm__ __volatile__(PV_CALL_ASM                                                   \
				     : "=a"(pv_rax_), "+D"(pv_rdi_), "+S"(pv_rsi_), "=d"(pv_rdx_), \
				       "=c"(pv_rcx_), "+r"(pv_stack_pointer)                       \
				     : PV_SITE_IN(op, CLBR_ANY)                                    \
				     : "r8", "r9", "r10", "r11", "memory", "cc");                  \
		(void)pv_rdx_, (void)pv_rcx_;                                                      \
		pv_rax_;                                                                           \
	})
/* Callee-save calls: the native keeps every register but rax. */
#define PVOP_CALLEE0(op)                                                     \
	({                                                                   \
		u64 pv_rax_;                                                 \
		__asm__ __volatile__(PV_CALL_ASM                             \
				     : "=a"(pv_rax_), "+r"(pv_stack_pointer) \
				     : PV_SITE_IN(op, CLBR_RAX)              \
				     : "memory", "cc");                      \
		pv_rax_;                                                     \
	})
#define PVOP_CALLEE1(op, a1)                                                    \
	({                                                                      \
		u64 pv_rax_;                                                    \
		__asm__ __volatile__(PV_CALL_ASM                                \
				     : "=a"(pv_rax_), "+r"(pv_stack_pointer)    \
				     : "D"((u64)(a1)), PV_SITE_IN(op, CLBR_RAX) \
				     : "memory", "cc");                         \
		pv_rax_;                                                        \
	})

/*
 * The register-saving thunk __raw_callee_save_<func> (Linux's
 * PV_CALLEE_SAVE_REGS_THUNK): saves the caller-saved registers but rax,
 * calls the C function func (one argument in rdi, the result in rax),
 * restores them. It builds a frame, so that a backtrace from func names
 * the site's function, and the nine pushes leave the stack 16-byte aligned
 * at the call.
 */
/* clang-format off */
#define PV_CALLEE_SAVE_REGS_THUNK(func)                                              \
	void __raw_callee_save_##func(void);                                         \
	__asm__(".pushsection .text, \"ax\"\n\t"                                     \
		".globl __raw_callee_save_" #func "\n\t"                              \
		".type __raw_callee_save_" #func ", @function\n"                       \
		"__raw_callee_save_" #func ":\n\t"                                     \
		"push %rbp\n\tmov %rsp, %rbp\n\t"                                      \
		"push %rcx\n\tpush %rdx\n\tpush %rsi\n\tpush %rdi\n\t"                \
		"push %r8\n\tpush %r9\n\tpush %r10\n\tpush %r11\n\t"                  \
		"call " #func "\n\t"                                                   \
		"pop %r11\n\tpop %r10\n\tpop %r9\n\tpop %r8\n\t"                       \
		"pop %rdi\n\tpop %rsi\n\tpop %rdx\n\tpop %rcx\n\t"                     \
		"pop %rbp\n\tret\n\t"                                                  \
		".size __raw_callee_save_" #func ", . - __raw_callee_save_" #func "\n\t" \
		".popsection")
/* clang-format on */
#define PV_CALLEE_SAVE(func) ((struct pv_callee_save){ (void *)__raw_callee_save_##func })

/* The out-of-line natives the table holds (kernel/x86/paravirt.c). */
u64 native_read_tsc(void);
void native_swapgs(void);
void native_iret(void);
void native_usergs_sysret64(void);
u64 native_save_fl(void);
void native_restore_fl(u64 flags);
void native_irq_disable(void);
void native_irq_enable(void);
void native_safe_halt(void);
void native_halt(void);
u64 native_read_cr2(void);
u64 native_read_cr3(void);
void native_write_cr3(u64 v);
void native_flush_tlb_user(void);
void native_flush_tlb_global(void);
void native_flush_tlb_single(u64 addr);

#define PV_LEVEL_NATIVES(name)               \
	u64 native_##name##_val(name##_t e); \
	name##_t native_make_##name(u64 v);  \
	void native_set_##name(name##_t *slot, name##_t e);
PV_LEVEL_NATIVES(pgd)
PV_LEVEL_NATIVES(pud)
PV_LEVEL_NATIVES(pmd)
PV_LEVEL_NATIVES(pte)
#undef PV_LEVEL_NATIVES

/*
 * The natives' bodies, one definition shared by the kernel (paravirt.c)
 * and the hosted benchmark, which fills a table of its own with them.
 */
#define PV_DEFINE_LEVEL_NATIVES(name)                      \
	u64 native_##name##_val(name##_t e)                \
	{                                                  \
		return e.val;                              \
	}                                                  \
	name##_t native_make_##name(u64 v)                 \
	{                                                  \
		return (name##_t){ v };                    \
	}                                                  \
	void native_set_##name(name##_t *slot, name##_t e) \
	{                                                  \
		WRITE_ONCE(slot->val, e.val);              \
	}

/*
 * A level's slots in an initializer of the table: its natives, the
 * accessors behind the thunks PV_DEFINE_LEVEL_THUNKS made in a 2.6.30 build.
 */
#ifdef CONFIG_PV_CALLEE_SAVE
#define PV_DEFINE_LEVEL_THUNKS(name)                    \
	PV_CALLEE_SAVE_REGS_THUNK(native_##name##_val); \
	PV_CALLEE_SAVE_REGS_THUNK(native_make_##name)
#define PV_ACCESSOR_NATIVE(func) PV_CALLEE_SAVE(func)
#else
#define PV_ACCESSOR_NATIVE(func) func
#endif
#define PV_LEVEL_SLOTS(name)                                   \
	.name##_val = PV_ACCESSOR_NATIVE(native_##name##_val), \
	.make_##name = PV_ACCESSOR_NATIVE(native_make_##name), .set_##name = native_set_##name
#endif /* CONFIG_PARAVIRT */

#endif
