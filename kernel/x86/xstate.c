/*
 * xstate.c - XSAVE turned on for user mode and the NT_X86_XSTATE image of
 * a task's FPU state; see xstate.h. The layout is the XSAVE standard
 * format: the FXSAVE region (x87 in bytes 0..159 with MXCSR at 24, XMM
 * registers in 160..415), the software-reserved bytes 464..511, then the
 * 64-byte header at 512 (xfeatures, xcomp_bv, reserved). gdb reads the
 * enabled features from byte 464 to choose its register description.
 */
#include "kernel/x86/xstate.h"
#include "kernel/lib/string.h"
#include "kernel/x86/fpu.h"
#include "kernel/x86/x86.h"
#include "uapi/errno.h"

#define CPUID1_ECX_XSAVE (1u << 26)
#define CR4_OSXSAVE	 (1ul << 18)
#define CPUID_XSTATE	 0xd

/* Offsets in the image. */
#define X87_SIZE	 160 /* the FP component: control words, pointers, ST0-7 */
#define MXCSR		 24  /* MXCSR and MXCSR_MASK, inside the FP component */
#define SSE_OFFSET	 160 /* XMM0-15 */
#define SSE_SIZE	 256
#define PADDING_OFFSET	 416 /* reserved: reads 0, as on Linux */
#define SW_BYTES	 464 /* software's: XCR0 in the first word for ptrace */
#define HEADER		 512
#define HEADER_XCOMP_BV	 520
#define HEADER_RESERVED	 528
#define X87_CONTROL_INIT 0x037f /* FCW after FNINIT: all exceptions masked */

static size_t image_size;

static void
xsetbv(u32 reg, u64 value)
{
	__asm__ __volatile__("xsetbv" : : "c"(reg), "a"((u32)value), "d"((u32)(value >> 32)));
}

void
xstate_init_cpu(void)
{
	if (!(cpuid(1, 0).ecx & CPUID1_ECX_XSAVE))
		return;
	write_cr4(read_cr4() | CR4_OSXSAVE);
	xsetbv(0, XSTATE_USER_FEATURES);
	/* EBX: the size XSAVE needs for the features XCR0 now enables. */
	size_t size = cpuid(CPUID_XSTATE, 0).ebx;
	WRITE_ONCE(image_size, MIN(size, sizeof(struct xstate_image)));
}

size_t
xstate_size(void)
{
	return READ_ONCE(image_size);
}

static u64
read_u64(const u8 *p)
{
	u64 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static void
write_u64(u8 *p, u64 v)
{
	memcpy(p, &v, sizeof(v));
}

void
xstate_from_fpu(const struct fpu_state *fx, struct xstate_image *x)
{
	memset(x, 0, sizeof(*x));
	memcpy(x->bytes, fx->bytes, PADDING_OFFSET);
	write_u64(x->bytes + SW_BYTES, XSTATE_USER_FEATURES);
	/* FXSAVE keeps no "in its initial state" bits: both components count as in use. */
	write_u64(x->bytes + HEADER, XSTATE_USER_FEATURES);
}

static bool
header_valid(const struct xstate_image *x)
{
	const u8 *reserved = x->bytes + HEADER_RESERVED;

	if (read_u64(x->bytes + HEADER) & ~XSTATE_USER_FEATURES)
		return false;
	if (read_u64(x->bytes + HEADER_XCOMP_BV)) /* the compacted format is not taken */
		return false;
	for (size_t i = 0; i < sizeof(x->bytes) - HEADER_RESERVED; i++)
		if (reserved[i])
			return false;
	return true;
}

/* The x87 registers as XRSTOR leaves them for a cleared FP bit; MXCSR is kept. */
static void
reset_x87(struct fpu_state *fx)
{
	u16 control = X87_CONTROL_INIT;

	memset(fx->bytes, 0, MXCSR);
	memset(fx->bytes + MXCSR + 8, 0, X87_SIZE - MXCSR - 8);
	memcpy(fx->bytes, &control, sizeof(control));
}

int
xstate_to_fpu(const struct xstate_image *x, struct fpu_state *fx)
{
	u64 features = read_u64(x->bytes + HEADER);
	u32 mxcsr;

	if (!header_valid(x))
		return -EINVAL;
	memcpy(&mxcsr, x->bytes + MXCSR, sizeof(mxcsr));
	if ((features & XSTATE_USER_FEATURES) && (mxcsr & ~fpu_mxcsr_mask()))
		return -EINVAL;
	if (features & XFEATURE_MASK_FP)
		memcpy(fx->bytes, x->bytes, X87_SIZE);
	else
		reset_x87(fx);
	if (features & XFEATURE_MASK_SSE) {
		memcpy(fx->bytes + MXCSR, x->bytes + MXCSR,
		       8); /* SSE needs MXCSR even without FP */
		memcpy(fx->bytes + SSE_OFFSET, x->bytes + SSE_OFFSET, SSE_SIZE);
	} else {
		memset(fx->bytes + SSE_OFFSET, 0, SSE_SIZE);
	}
	return 0;
}
