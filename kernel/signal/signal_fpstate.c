/*
 * signal_fpstate.c - the FPU state in a signal frame, as Linux lays it out
 * so that glibc's, libgcc's and gdb's readers find it: with XSAVE, the
 * XSAVE standard image (xstate_size() bytes) whose FXSAVE region carries
 * struct kernel_fpx_sw_bytes in its software-reserved bytes (FP_XSTATE_MAGIC1,
 * the sizes, XCR0), followed by FP_XSTATE_MAGIC2; without XSAVE, the bare
 * FXSAVE image with those bytes zeroed.
 *
 * As Linux's copy_fpstate_to_sigframe and __fpu_restore_sig, the registers
 * go straight between the CPU and the frame: XSAVE writes the image into
 * user memory (its header cleared first, since XSAVE sets only the bits of
 * the components it saves), and rt_sigreturn XRSTORs from it, with no
 * kernel copy in between. The kernel never uses these registers, so they
 * hold the interrupted state until then (fpu.h).
 *
 * rt_sigreturn takes back a frame with both magics and matching sizes as an
 * XSAVE image of the components its software bytes name (the others reset,
 * as a component left out of the header is), and anything else as an
 * FXSAVE image whose other components start fresh (Linux's fx_only). An
 * image XRSTOR or FXRSTOR refuses (header, reserved MXCSR bits, alignment)
 * fails the sigreturn (SIGSEGV) with the FPU reset, as on Linux.
 */
#include "kernel/signal/signal_internal.h"
#include "kernel/x86/fpu.h"
#include "kernel/x86/xstate.h"
#include "mm/uaccess.h"

#define XSTATE_HEADER_WORDS 8 /* the 64-byte header, all of which XRSTOR wants 0 but xfeatures */
#define SW_BYTES_WORDS	    (sizeof(struct kernel_fpx_sw_bytes) / sizeof(u64))

/* The image and the magic after it: what a frame keeps 64-aligned under the siginfo. */
size_t
signal_fpstate_size(void)
{
	return xstate_size() ? xstate_size() + FP_XSTATE_MAGIC2_SIZE : FXSAVE_SIZE;
}

/* The software bytes that mark an XSAVE image of size bytes holding features (Linux's fx_sw_reserved). */
static inline struct kernel_fpx_sw_bytes
xsave_sw_bytes(size_t size, u64 features)
{
	return (struct kernel_fpx_sw_bytes){
		.magic1 = FP_XSTATE_MAGIC1,
		.extended_size = (u32)(size + FP_XSTATE_MAGIC2_SIZE),
		.xfeatures = features,
		.xstate_size = (u32)size,
	};
}

bool
signal_fpstate_save(u64 ufx)
{
	size_t size = xstate_size(); /* 0 without XSAVE: the software bytes zeroed */
	u64 features = xstate_features();
	union {
		struct kernel_fpx_sw_bytes sw;
		u64 words[SW_BYTES_WORDS];
	} sw = { .sw = size ? xsave_sw_bytes(size, features) : (struct kernel_fpx_sw_bytes){ 0 } };
	u64 __user *sw_words = (u64 __user *)(ufx + XSTATE_SW_BYTES);
	u64 __user *header = (u64 __user *)(ufx + XSTATE_HEADER);
	int err = 0;

	if (!user_access_begin((void __user *)ufx,
			       size ? size + FP_XSTATE_MAGIC2_SIZE : FXSAVE_SIZE))
		return false;
	/* Nothing but the stores and XSAVE until user_access_end (uaccess.h). */
	if (size) {
#pragma GCC unroll 8
		for (size_t i = 0; i < XSTATE_HEADER_WORDS; i++)
			unsafe_put_user(0, header + i, err);
		unsafe_put_user(FP_XSTATE_MAGIC2, (u32 __user *)(ufx + size), err);
	}
	if (!err)
		err = fpu_save_to_user(ufx, features);
#pragma GCC unroll 8
	for (size_t i = 0; i < SW_BYTES_WORDS; i++)
		unsafe_put_user(sw.words[i], sw_words + i, err);
	user_access_end();
	return !err;
}

/* Whether the image at ufx says it is a whole XSAVE one; the components it holds in *xfeatures. */
static bool
is_xsave_frame(u64 ufx, u64 *xfeatures)
{
	struct kernel_fpx_sw_bytes __user *usw = (void __user *)(ufx + XSTATE_SW_BYTES);
	size_t size = xstate_size();
	struct kernel_fpx_sw_bytes sw, want = xsave_sw_bytes(size, xstate_features());
	u32 magic2;
	int err = 0;

	if (!size || !user_access_begin((const void __user *)ufx, want.extended_size))
		return false;
	unsafe_get_user(sw.magic1, &usw->magic1, err);
	unsafe_get_user(sw.extended_size, &usw->extended_size, err);
	unsafe_get_user(sw.xfeatures, &usw->xfeatures, err);
	unsafe_get_user(sw.xstate_size, &usw->xstate_size, err);
	unsafe_get_user(magic2, (u32 __user *)(ufx + size), err);
	user_access_end();
	if (err || sw.magic1 != FP_XSTATE_MAGIC1 || sw.xstate_size != want.xstate_size ||
	    sw.extended_size != want.extended_size || magic2 != FP_XSTATE_MAGIC2)
		return false;
	*xfeatures = sw.xfeatures & want.xfeatures;
	return true;
}

/* Loads the image at ufx into the registers; false (the registers then unknown) if refused. */
static bool
load_frame_fpstate(u64 ufx)
{
	u64 xfeatures = XFEATURE_MASK_FP | XFEATURE_MASK_SSE; /* an FXSAVE image's */
	bool xsave = is_xsave_frame(ufx, &xfeatures);
	bool loads_mxcsr = xfeatures & (XFEATURE_MASK_SSE | XFEATURE_MASK_YMM);
	u32 mxcsr, allowed = fpu_mxcsr_mask();
	int err = 0;

	if (!user_access_begin((const void __user *)ufx, xsave ? xstate_size() : FXSAVE_SIZE))
		return false;
	/*
	 * Reserved MXCSR bits make the CPU's XRSTOR fault, but not every
	 * emulator's: refused here too, so that the answer is Linux's on each.
	 */
	unsafe_get_user(mxcsr, (u32 __user *)(ufx + XSTATE_MXCSR), err);
	if (!err && !(loads_mxcsr && (mxcsr & ~allowed)))
		err = xsave ? fpu_xrstor_from_user(ufx, xfeatures) : fpu_fxrstor_from_user(ufx);
	else
		err = -EFAULT;
	user_access_end();
	if (err)
		return false;
	/* Left out of the frame: XRSTOR left them alone, and they start fresh. */
	if (xstate_features() & ~xfeatures)
		fpu_restore_initial(xstate_features() & ~xfeatures);
	return true;
}

bool
signal_fpstate_restore(u64 ufx)
{
	if (ufx && load_frame_fpstate(ufx))
		return true;
	/* No image: a fresh state. A refused one: reset too, as Linux's fpu__clear_user_states. */
	fpu_restore_initial(xstate_features());
	return !ufx;
}
