/*
 * asm-offsets.c - the numbers the assembly shares with C, computed by the
 * compiler from the C definitions: where struct cpu keeps the stack
 * pointers the syscall entry swaps, the layouts of struct trap_frame and
 * of the context-switch frame (kernel/sched/switch.h), the selectors,
 * vectors and MSR the entry code uses, and the paravirt slots and site
 * records of paravirt_asm.inc.
 *
 * Never linked. The Makefile compiles this file to assembly with the
 * kernel's flags and turns each ASM_CONST marker in it into a line
 * "%define NAME value" of $(BUILD)/generated/asm-offsets.inc, which the .asm
 * files include: a field moved in C moves in the assembly at the next
 * build (Linux's asm-offsets; docs/design.md, "Traps, interrupts, faults").
 */
#include "kernel/lib/types.h"
#include "kernel/sched/switch.h"
#include "kernel/x86/paravirt.h"
#include "kernel/x86/percpu.h"
#include "kernel/x86/traps.h"
#include "kernel/x86/x86.h"

/*
 * One marker line in the compiler's output, "@asm-const NAME $value"; the
 * Makefile's sed reads it. (%c0 would drop the "$", but gcc refuses it for
 * a constant beyond 32 bits, as the MSR number is.)
 */
#define ASM_CONST(name, value) \
	__asm__ __volatile__("\n.ascii \"@asm-const " #name " %0\"" : : "i"((u64)(value)))

/* The offset of a context-switch frame field (kernel/sched/switch.h): SW_RBP. */
#define SW(name, field) ASM_CONST(SW_##name, offsetof(struct switch_frame, field))

/* The offset of a trap frame field, as the .asm files name it: TF_RIP. */
#define TF(name, field) ASM_CONST(TF_##name, offsetof(struct trap_frame, field))

void asm_offsets(void);

void
asm_offsets(void)
{
	ASM_CONST(CPU_USER_RSP, offsetof(struct cpu, user_rsp));
	ASM_CONST(CPU_KERNEL_RSP, offsetof(struct cpu, kernel_rsp));

	SW(R15, r15);
	SW(R14, r14);
	SW(R13, r13);
	SW(R12, r12);
	SW(RBX, rbx);
	SW(RBP, rbp);
	SW(RET, ret);

	TF(R15, r15);
	TF(R14, r14);
	TF(R13, r13);
	TF(R12, r12);
	TF(R11, r11);
	TF(R10, r10);
	TF(R9, r9);
	TF(R8, r8);
	TF(RBP, rbp);
	TF(RDI, rdi);
	TF(RSI, rsi);
	TF(RDX, rdx);
	TF(RCX, rcx);
	TF(RBX, rbx);
	TF(RAX, rax);
	TF(VECTOR, vector);
	TF(ERROR, error);
	TF(RIP, rip);
	TF(CS, cs);
	TF(RFLAGS, rflags);
	TF(RSP, rsp);
	TF(SS, ss);
	ASM_CONST(TF_SIZE, sizeof(struct trap_frame));

	ASM_CONST(USER_CS, USER_CS);
	ASM_CONST(USER_DS, USER_DS);
	ASM_CONST(MSR_GS_BASE, MSR_GS_BASE);

	ASM_CONST(VEC_NMI, VEC_NMI);
	ASM_CONST(VEC_DOUBLE_FAULT, VEC_DOUBLE_FAULT);
	ASM_CONST(VEC_INVALID_TSS, VEC_INVALID_TSS);
	ASM_CONST(VEC_PAGE_FAULT, VEC_PAGE_FAULT);
	ASM_CONST(VEC_ALIGNMENT_CHECK, VEC_ALIGNMENT_CHECK);
	ASM_CONST(VEC_MACHINE_CHECK, VEC_MACHINE_CHECK);
	ASM_CONST(VEC_CONTROL_PROTECTION, VEC_CONTROL_PROTECTION);
	ASM_CONST(VEC_VMM_COMMUNICATION, VEC_VMM_COMMUNICATION);
	ASM_CONST(VEC_SECURITY, VEC_SECURITY);
	ASM_CONST(VEC_SYSCALL_INSN, VEC_SYSCALL_INSN);

#ifdef CONFIG_PARAVIRT
	ASM_CONST(PV_CPU_SWAPGS, PV_TYPE(cpu.swapgs));
	ASM_CONST(PV_CPU_IRET, PV_TYPE(cpu.iret));
	ASM_CONST(PV_CPU_USERGS_SYSRET64, PV_TYPE(cpu.usergs_sysret64));
	ASM_CONST(PV_IRQ_DISABLE, PV_TYPE(irq.irq_disable));
	ASM_CONST(CLBR_RAX, CLBR_RAX);
	ASM_CONST(PV_RECORD_ADDR, offsetof(struct paravirt_site, addr));
	ASM_CONST(PV_RECORD_TYPE, offsetof(struct paravirt_site, type));
	ASM_CONST(PV_RECORD_LEN, offsetof(struct paravirt_site, len));
	ASM_CONST(PV_RECORD_CLOBBERS, offsetof(struct paravirt_site, clobbers));
	ASM_CONST(PV_RECORD_SIZE, sizeof(struct paravirt_site));
#endif
}
