/*
 * fpu.h - user-mode x87/SSE/AVX register state. The kernel itself never uses
 * these registers (-mgeneral-regs-only), so a task's state stays live in the
 * CPU while it is in the kernel and is saved and restored only when the CPU
 * switches between two user tasks (eager switching, as Linux does today: a
 * lazy scheme would trade a test here for a #NM trap on a task's first use,
 * and nearly every program touches SSE in its first microseconds).
 *
 * With XSAVE (xstate.h) the image is XSAVE's standard format and holds every
 * component XCR0 enables; without it, FXSAVE's 512 bytes.
 */
#ifndef REWIND_FPU_H
#define REWIND_FPU_H

#include "kernel/process/task.h"
#include "mm/uaccess.h"

/* Enables FXSAVE/SSE and XSAVE (xstate.h) on this CPU and records the initial state. */
void fpu_init_cpu(void);
/* The state a new program starts with: x87 reset, all exceptions masked. */
void fpu_reset_state(struct fpu_state *s);
/*
 * Loads that state into the registers, of the components in mask only with
 * XSAVE (all of them without): a signal handler's fresh state, and a
 * component a sigreturn frame leaves out (Linux's restore from init_fpstate).
 */
void fpu_restore_initial(u64 mask);
/*
 * Clears the MXCSR bits the CPU refuses in an image from user space
 * (rt_sigreturn, ptrace), so that FXRSTOR cannot fault on it.
 */
void fpu_sanitize(struct fpu_state *s);
/* The MXCSR bits this CPU lets software set (FXSAVE's MXCSR_MASK). */
u32 fpu_mxcsr_mask(void);

/* Set once, before any user task runs, if XSAVE is on (xstate_init_cpu). */
extern bool fpu_uses_xsave;

/* EDX:EAX all ones: every component XCR0 enables. */
#define XSAVE_ALL_FEATURES 0xffffffffu

static inline void
fpu_save(struct fpu_state *s)
{
	if (fpu_uses_xsave)
		__asm__ __volatile__("xsave64 %0"
				     : "+m"(*s)
				     : "a"(XSAVE_ALL_FEATURES), "d"(XSAVE_ALL_FEATURES));
	else
		__asm__ __volatile__("fxsave64 %0" : "+m"(*s));
}

/* s's header must be valid (xstate.h's xstate_header_valid): XRSTOR faults otherwise. */
static inline void
fpu_restore(const struct fpu_state *s)
{
	if (fpu_uses_xsave)
		__asm__ __volatile__("xrstor64 %0"
				     :
				     : "m"(*s), "a"(XSAVE_ALL_FEATURES), "d"(XSAVE_ALL_FEATURES));
	else
		__asm__ __volatile__("fxrstor64 %0" : : "m"(*s));
}

/*
 * The signal frame's image, moved by one instruction between the registers
 * and user memory at buf (64-aligned), inside an open user-access window
 * (mm/uaccess.h), as Linux's xsave_to_user_sigframe and
 * xrstor_from_user_sigframe: a page fault the mapping allows is resolved
 * and the instruction run again; what cannot be (a bad address, an image
 * XRSTOR or FXRSTOR refuses: #GP) gives -EFAULT through the fixup. mask is
 * XSAVE's and XRSTOR's EDX:EAX (FXSAVE and FXRSTOR ignore it).
 */
#define FPU_USER_INSN(insn, buf, mask, err)                                                 \
	__asm__ __volatile__(                                                               \
		"1:	" insn " %[m]\n2:\n\t" EXTABLE_FIXUP(3, "movl %[efault], %[e]", 2b) \
			EXTABLE_ENTRY(1b, 3b)                                               \
		: [e] "+r"(err), [m] "+m"(*(struct fpu_state *)(buf))                       \
		: "a"((u32)(mask)), "d"((u32)((u64)(mask) >> 32)), [efault] "i"(-EFAULT))

/* XSAVE of the components in mask (the header's bits of the others untouched); FXSAVE without XSAVE. */
static inline int
fpu_save_to_user(u64 buf, u64 mask)
{
	int err = 0;

	if (fpu_uses_xsave)
		FPU_USER_INSN("xsave64", buf, mask, err);
	else
		FPU_USER_INSN("fxsave64", buf, mask, err);
	return err;
}

/* XRSTOR of the components in mask, the others left as they are; XSAVE must be on. */
static inline int
fpu_xrstor_from_user(u64 buf, u64 mask)
{
	int err = 0;

	FPU_USER_INSN("xrstor64", buf, mask, err);
	return err;
}

/* FXRSTOR of an FXSAVE image: x87 and SSE. */
static inline int
fpu_fxrstor_from_user(u64 buf)
{
	int err = 0;

	FPU_USER_INSN("fxrstor64", buf, 0, err);
	return err;
}

#endif
