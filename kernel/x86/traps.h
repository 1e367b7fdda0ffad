/*
 * traps.h - the interrupt descriptor table and the register frame that
 * every exception and interrupt entry builds (kernel/x86/entry_64.asm).
 */
#ifndef REWIND_TRAPS_H
#define REWIND_TRAPS_H

#include "kernel/lib/types.h"

/*
 * The stack image entry_64.asm's pushes build below the CPU's five words,
 * lowest address first. The assembly takes every offset from
 * kernel/x86/asm-offsets.c and checks its push order against this at
 * assembly time: fields may not be reordered without reordering the pushes.
 */
struct trap_frame {
	u64 r15, r14, r13, r12, r11, r10, r9, r8;
	u64 rbp, rdi, rsi, rdx, rcx, rbx, rax;
	u64 vector;
	/*
	 * The CPU's error code, or 0. A system call's frame (VEC_SYSCALL_INSN,
	 * VEC_SYSCALL_INT80) holds the call's number here instead, as Linux's
	 * orig_ax: ptrace's orig_rax, and what a signal restarts
	 * (kernel/syscall/syscall.h, SYSCALL_SETTLED).
	 */
	u64 error;
	u64 rip, cs, rflags, rsp, ss;
};

enum {
	VEC_DIVIDE = 0,
	VEC_DEBUG = 1,
	VEC_NMI = 2,
	VEC_BREAKPOINT = 3,
	VEC_OVERFLOW = 4,
	VEC_BOUND = 5,
	VEC_INVALID_OPCODE = 6,
	VEC_DEVICE_NOT_AVAILABLE = 7,
	VEC_DOUBLE_FAULT = 8,
	VEC_INVALID_TSS = 10,
	VEC_SEGMENT_NOT_PRESENT = 11,
	VEC_STACK_FAULT = 12,
	VEC_GENERAL_PROTECTION = 13,
	VEC_PAGE_FAULT = 14,
	VEC_X87 = 16,
	VEC_ALIGNMENT_CHECK = 17,
	VEC_MACHINE_CHECK = 18,
	VEC_SIMD = 19,
	VEC_VIRTUALIZATION = 20,
	VEC_CONTROL_PROTECTION = 21,
	VEC_HYPERVISOR_INJECTION = 28,
	VEC_VMM_COMMUNICATION = 29,
	VEC_SECURITY = 30,
	NUM_EXCEPTIONS = 32,
	VEC_SYSCALL_INT80 = 0x80, /* int $0x80: the trap entry to system calls */
	VEC_SYSCALL_INSN = 0x100, /* marks frames built by the syscall instruction */
};

/* Page-fault error-code bits. */
enum {
	PF_PRESENT = 1 << 0,
	PF_WRITE = 1 << 1,
	PF_USER = 1 << 2,
	PF_RESERVED = 1 << 3,
	PF_INSTR = 1 << 4,
	PF_PKEY = 1 << 5,
	PF_SHADOW_STACK = 1 << 6,
};

static inline bool
trap_from_user(const struct trap_frame *f)
{
	return (f->cs & 3) != 0;
}

void idt_init(void);
void idt_load(void);
const char *exception_name(unsigned vector);
/* Prints everything known about a fatal exception, then stops the machine. */
__noreturn void die(struct trap_frame *f, const char *why);
/* How entry_64.asm leaves a frame, as trap_dispatch returns it. */
enum trap_exit {
	TRAP_EXIT_IRETQ,
	TRAP_EXIT_SYSRET,     /* a user-mode trap whose frame sysret restores faithfully */
	TRAP_EXIT_WITHIN_NMI, /* an exception inside the NMI handler: popfq and ret, no iretq */
};
/* The C side of every gate entry (entry_64.asm): an enum trap_exit. */
int trap_dispatch(struct trap_frame *f);
/*
 * An exception taken in user mode, interrupts on: a page to fault in, or a
 * signal (which may end the process). cr2 is the fault address of a #PF.
 */
void user_exception(struct trap_frame *f, u64 cr2);

/*
 * A self-test can arm this CPU to expect one exception with a vector; the
 * trap is then recorded instead of being fatal and execution continues at
 * `resume`. Used to prove that NX and guard pages really fault.
 */
struct expected_trap {
	u64 vector;
	u64 resume;	/* new rip */
	u64 resume_rsp; /* new rsp, or 0 to keep it */
	bool hit;
	u64 error, cr2, rip;
};
void expect_trap(struct expected_trap *e);

#endif
