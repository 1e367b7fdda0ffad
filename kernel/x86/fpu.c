/*
 * fpu.c - turning SSE on and the initial FPU image; see fpu.h.
 */
#include "kernel/x86/fpu.h"
#include "kernel/lib/string.h"
#include "kernel/x86/x86.h"
#include "kernel/x86/xstate.h"

#define CR0_MP		   (1ul << 1)
#define CR0_EM		   (1ul << 2)
#define CR0_TS		   (1ul << 3)
#define CR0_NE		   (1ul << 5)
#define CR4_OSXMMEXCPT	   (1ul << 10)
#define MXCSR_DEFAULT	   0x1f80 /* all SIMD exceptions masked, round to nearest */
#define FXSAVE_MXCSR	   24
#define FXSAVE_MXCSR_MASK  28
#define MXCSR_MASK_DEFAULT 0xffbf /* when the CPU reports 0 (Intel's rule) */

static struct fpu_state initial_state;

void
fpu_init_cpu(void)
{
	write_cr0((read_cr0() & ~(CR0_EM | CR0_TS)) | CR0_MP | CR0_NE);
	write_cr4(read_cr4() | CR4_OSFXSR | CR4_OSXMMEXCPT);
	u32 mxcsr = MXCSR_DEFAULT;
	__asm__ __volatile__("fninit; ldmxcsr %0" : : "m"(mxcsr));
	xstate_init_cpu();
	/* In XSAVE's format once it is on; the YMM upper halves are 0 after reset. */
	fpu_save(&initial_state);
}

void
fpu_reset_state(struct fpu_state *s)
{
	memcpy(s, &initial_state, sizeof(*s));
}

void
fpu_restore_initial(u64 mask)
{
	if (fpu_uses_xsave)
		__asm__ __volatile__("xrstor64 %0"
				     :
				     : "m"(initial_state), "a"((u32)mask), "d"((u32)(mask >> 32)));
	else
		__asm__ __volatile__("fxrstor64 %0" : : "m"(initial_state));
}

u32
fpu_mxcsr_mask(void)
{
	static u32 mask;
	u32 m = READ_ONCE(mask);

	if (!m) {
		struct fpu_state probe;
		fpu_save(&probe);
		memcpy(&m, probe.bytes + FXSAVE_MXCSR_MASK, sizeof(m));
		if (!m)
			m = MXCSR_MASK_DEFAULT;
		WRITE_ONCE(mask, m);
	}
	return m;
}

void
fpu_sanitize(struct fpu_state *s)
{
	u32 mxcsr;

	memcpy(&mxcsr, s->bytes + FXSAVE_MXCSR, sizeof(mxcsr));
	mxcsr &= fpu_mxcsr_mask();
	memcpy(s->bytes + FXSAVE_MXCSR, &mxcsr, sizeof(mxcsr));
}
