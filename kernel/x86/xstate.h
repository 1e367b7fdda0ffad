/*
 * xstate.h - the XSAVE feature set rewind turns on, and the checks and
 * conversions of a task's XSAVE image that ptrace's NT_X86_XSTATE regset
 * needs, and the image's offsets the signal frame writes by (Linux's struct
 * xregs_state in its uabi form).
 *
 * rewind enables XSAVE (CR4.OSXSAVE) with XCR0 = x87 | SSE | AVX, those of
 * them the CPU has: the components whose state fits struct fpu_state.
 * AVX-512, MPX, PKRU and the supervisor components stay off (no program
 * could use them: rewind keeps no protection keys, and their images would
 * make every task's state several kilobytes).
 */
#ifndef REWIND_XSTATE_H
#define REWIND_XSTATE_H

#include "kernel/process/task.h"

#define XFEATURE_MASK_FP    (1ull << 0)
#define XFEATURE_MASK_SSE   (1ull << 1)
#define XFEATURE_MASK_YMM   (1ull << 2)
#define XFEATURE_MASK_KNOWN (XFEATURE_MASK_FP | XFEATURE_MASK_SSE | XFEATURE_MASK_YMM)

/* Offsets in the image. */
#define XSTATE_MXCSR	      24  /* MXCSR and MXCSR_MASK, inside the FXSAVE region */
#define XSTATE_SW_BYTES	      464 /* 464..511: software's, never the CPU's */
#define XSTATE_HEADER	      512 /* xfeatures (XSTATE_BV), xcomp_bv, reserved */
#define XSTATE_HEADER_XCOMP   520
#define XSTATE_HEADER_RESERVE 528
#define XSTATE_YMM	      576 /* the upper halves of YMM0-15 */

/* Turns XSAVE on with the XCR0 above, if the CPU has it (fpu_init_cpu). */
void xstate_init_cpu(void);
/* XCR0: the components a task's image holds; 0 when the CPU has no XSAVE. */
u64 xstate_features(void);
/* The image's size, CPUID 0xD's for XCR0; 0 when the CPU has no XSAVE. */
size_t xstate_size(void);

/* Whether XRSTOR takes x's header: features within XCR0, the standard format, reserved 0. */
bool xstate_header_valid(const struct fpu_state *x);
/*
 * Writes each component of XCR0 whose header bit is clear with the values
 * XRSTOR would give it (x87 reset, XMM and YMM registers 0) and sets its
 * bit, so that the bytes alone say what the registers hold.
 */
void xstate_materialize(struct fpu_state *x);

/*
 * A saved state s as NT_X86_XSTATE shows it in x (xstate_size() bytes):
 * s materialized first, bytes 464..471 XCR0 (Linux's xstate_fx_sw_bytes).
 */
void xstate_export(struct fpu_state *s, struct fpu_state *x);
/*
 * Sets s from the image x as XRSTOR would (a component whose xfeatures bit
 * is clear reset to its initial state); -EINVAL for a header or MXCSR Linux
 * refuses (validate_user_xstate_header), s then unchanged.
 */
int xstate_import(const struct fpu_state *x, struct fpu_state *s);

#endif
