/*
 * xstate.h - the XSAVE feature set rewind turns on, and a task's FPU
 * state in the XSAVE standard format, as ptrace's NT_X86_XSTATE regset
 * shows it to debuggers (Linux's struct xregs_state in its uabi form).
 *
 * rewind enables XSAVE (CR4.OSXSAVE) with XCR0 = x87 | SSE: exactly what
 * FXSAVE switches, so that a task's state stays its FXSAVE image and the
 * XSAVE view is made from it on demand. AVX and later stay off.
 */
#ifndef REWIND_XSTATE_H
#define REWIND_XSTATE_H

#include "kernel/process/task.h"

#define XFEATURE_MASK_FP     (1ull << 0)
#define XFEATURE_MASK_SSE    (1ull << 1)
#define XSTATE_USER_FEATURES (XFEATURE_MASK_FP | XFEATURE_MASK_SSE) /* XCR0 */

/* The legacy FXSAVE region (512 bytes) and the XSAVE header (64): x87 and SSE only. */
struct xstate_image {
	u8 bytes[576];
};

/* Turns XSAVE on with XCR0 = XSTATE_USER_FEATURES, if the CPU has it (fpu_init_cpu). */
void xstate_init_cpu(void);
/* The image's size, CPUID 0xD's for the enabled features; 0 when the CPU has no XSAVE. */
size_t xstate_size(void);
/*
 * The XSAVE image of fx: header xfeatures and bytes 464..471 (the
 * software-reserved words, Linux's xstate_fx_sw_bytes) both XCR0.
 */
void xstate_from_fpu(const struct fpu_state *fx, struct xstate_image *x);
/*
 * Writes x into fx as XRSTOR would (a component not in the header's
 * xfeatures is reset to its initial state); -EINVAL for a header or MXCSR
 * Linux refuses (validate_user_xstate_header), fx then unchanged.
 */
int xstate_to_fpu(const struct xstate_image *x, struct fpu_state *fx);

#endif
