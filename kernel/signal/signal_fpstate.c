/*
 * signal_fpstate.c - the FPU state in a signal frame, as Linux lays it out
 * so that glibc's, libgcc's and gdb's readers find it: with XSAVE, the
 * XSAVE standard image (xstate_size() bytes) whose FXSAVE region carries
 * struct kernel_fpx_sw_bytes in its software-reserved bytes (FP_XSTATE_MAGIC1,
 * the sizes, XCR0), followed by FP_XSTATE_MAGIC2; without XSAVE, the bare
 * FXSAVE image with those bytes zeroed.
 *
 * rt_sigreturn takes back a frame with both magics and matching sizes as an
 * XSAVE image (a component left out of its xfeatures, or of its header,
 * is reset, as Linux restores it), and anything else as an FXSAVE image
 * whose other components start fresh (Linux's fx_only). A header XRSTOR
 * would refuse fails the sigreturn (SIGSEGV), as Linux's faulting XRSTOR.
 */
#include "kernel/signal/signal_internal.h"
#include "kernel/lib/string.h"
#include "kernel/x86/fpu.h"
#include "kernel/x86/xstate.h"
#include "mm/uaccess.h"

/* The image and the magic after it: what a frame keeps 64-aligned under the siginfo. */
size_t
signal_fpstate_size(void)
{
	return xstate_size() ? xstate_size() + FP_XSTATE_MAGIC2_SIZE : FXSAVE_SIZE;
}

/* The software bytes that mark an XSAVE image (Linux's fx_sw_reserved). */
static struct kernel_fpx_sw_bytes
xsave_sw_bytes(void)
{
	return (struct kernel_fpx_sw_bytes){
		.magic1 = FP_XSTATE_MAGIC1,
		.extended_size = (u32)signal_fpstate_size(),
		.xfeatures = xstate_features(),
		.xstate_size = (u32)xstate_size(),
	};
}

bool
signal_fpstate_save(u64 ufx)
{
	/* Zeroed: XSAVE leaves reserved bytes alone, and they must not carry kernel stack. */
	struct fpu_state fpu = { 0 };
	struct kernel_fpx_sw_bytes sw = { 0 };
	u32 magic2 = FP_XSTATE_MAGIC2;

	fpu_save(&fpu);
	if (xstate_size())
		sw = xsave_sw_bytes();
	memcpy(fpu.bytes + XSTATE_SW_BYTES, &sw, sizeof(sw));
	size_t size = xstate_size() ? xstate_size() : FXSAVE_SIZE;
	if (copy_to_user((void __user *)ufx, &fpu, size))
		return false;
	return !xstate_size() ||
	       !copy_to_user((void __user *)(ufx + size), &magic2, sizeof(magic2));
}

/* Whether the image at ufx, its FXSAVE region in fpu, says it is a whole XSAVE one. */
static bool
is_xsave_frame(u64 ufx, const struct fpu_state *fpu, u64 *xfeatures)
{
	struct kernel_fpx_sw_bytes sw, want = xsave_sw_bytes();
	u32 magic2;

	if (!xstate_size())
		return false;
	memcpy(&sw, fpu->bytes + XSTATE_SW_BYTES, sizeof(sw));
	if (sw.magic1 != FP_XSTATE_MAGIC1 || sw.xstate_size != want.xstate_size ||
	    sw.extended_size != want.extended_size)
		return false;
	if (copy_from_user(&magic2, (const void __user *)(ufx + xstate_size()), sizeof(magic2)) ||
	    magic2 != FP_XSTATE_MAGIC2)
		return false;
	*xfeatures = sw.xfeatures;
	return true;
}

/* Reads the image at ufx into fpu, ready for XRSTOR; false if unreadable or refused. */
static bool
read_frame_fpstate(u64 ufx, struct fpu_state *fpu)
{
	u64 xfeatures = XFEATURE_MASK_FP | XFEATURE_MASK_SSE; /* an FXSAVE image's */
	u64 header;

	if (copy_from_user(fpu, (const void __user *)ufx, FXSAVE_SIZE))
		return false;
	bool xsave = is_xsave_frame(ufx, fpu, &xfeatures);
	memset(fpu->bytes + XSTATE_SW_BYTES, 0, FXSAVE_SIZE - XSTATE_SW_BYTES);
	if (xsave) {
		if (copy_from_user(fpu->bytes + FXSAVE_SIZE,
				   (const void __user *)(ufx + FXSAVE_SIZE),
				   xstate_size() - FXSAVE_SIZE) ||
		    !xstate_header_valid(fpu))
			return false;
		memcpy(&header, fpu->bytes + XSTATE_HEADER, sizeof(header));
	} else {
		header = xstate_features(); /* the rest of fpu is 0: their initial state */
	}
	header &= xfeatures;
	memcpy(fpu->bytes + XSTATE_HEADER, &header, sizeof(header));
	fpu_sanitize(fpu);
	return true;
}

bool
signal_fpstate_restore(u64 ufx)
{
	struct fpu_state fpu = { 0 };

	if (!ufx)
		fpu_reset_state(&fpu);
	else if (!read_frame_fpstate(ufx, &fpu))
		return false;
	fpu_restore(&fpu);
	return true;
}
