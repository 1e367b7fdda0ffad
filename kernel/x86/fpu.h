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

/* Enables FXSAVE/SSE and XSAVE (xstate.h) on this CPU and records the initial state. */
void fpu_init_cpu(void);
/* The state a new program starts with: x87 reset, all exceptions masked. */
void fpu_reset_state(struct fpu_state *s);
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

#endif
