/*
 * xstate.c - XSAVE turned on for user mode, and the checks and conversions
 * of a task's XSAVE image; see xstate.h. The layout is the XSAVE standard
 * format: the FXSAVE region (x87 in bytes 0..159 with MXCSR at 24, XMM
 * registers in 160..415), the software-reserved bytes 464..511, the 64-byte
 * header at 512 (xfeatures, xcomp_bv, reserved), then each component at the
 * offset CPUID 0xD gives it (AVX: 576). gdb reads the enabled features from
 * byte 464 to choose its register description.
 */
#include "kernel/x86/xstate.h"
#include "kernel/lib/string.h"
#include "kernel/x86/fpu.h"
#include "kernel/x86/x86.h"
#include "uapi/errno.h"

#define CPUID1_ECX_XSAVE (1u << 26)
#define CR4_OSXSAVE	 (1ul << 18)
#define CPUID_XSTATE	 0xd

#define X87_SIZE	 160 /* the FP component: control words, pointers, ST0-7 */
#define SSE_OFFSET	 160 /* XMM0-15 */
#define SSE_SIZE	 256
#define PADDING_OFFSET	 416 /* reserved: reads 0, as on Linux */
#define YMM_SIZE	 256
#define X87_CONTROL_INIT 0x037f /* FCW after FNINIT: all exceptions masked */

bool fpu_uses_xsave;
static u64 features;
static size_t image_size;

static void
xsetbv(u32 reg, u64 value)
{
	__asm__ __volatile__("xsetbv" : : "c"(reg), "a"((u32)value), "d"((u32)(value >> 32)));
}

/* The CPU's user components rewind knows, as far as struct fpu_state holds them. */
static u64
features_to_enable(void)
{
	struct cpuid_regs leaf = cpuid(CPUID_XSTATE, 0);
	u64 wanted = (leaf.eax | (u64)leaf.edx << 32) & XFEATURE_MASK_KNOWN;
	struct cpuid_regs ymm = cpuid(CPUID_XSTATE, 2); /* eax: size, ebx: offset */

	if ((wanted & XFEATURE_MASK_YMM) && (ymm.ebx != XSTATE_YMM || ymm.eax != YMM_SIZE))
		wanted &= ~XFEATURE_MASK_YMM;
	return wanted;
}

void
xstate_init_cpu(void)
{
	if (!(cpuid(1, 0).ecx & CPUID1_ECX_XSAVE))
		return;
	u64 enable = features_to_enable();
	write_cr4(read_cr4() | CR4_OSXSAVE);
	xsetbv(0, enable);
	/* EBX: the size XSAVE needs for the features XCR0 now enables. */
	size_t size = cpuid(CPUID_XSTATE, 0).ebx;
	if (size > sizeof(struct fpu_state))
		return; /* cannot happen for the known components: FXSAVE stays */
	WRITE_ONCE(image_size, size);
	WRITE_ONCE(features, enable);
	WRITE_ONCE(fpu_uses_xsave, true);
}

u64
xstate_features(void)
{
	return READ_ONCE(features);
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

bool
xstate_header_valid(const struct fpu_state *x)
{
	const u8 *reserved = x->bytes + XSTATE_HEADER_RESERVE;

	if (read_u64(x->bytes + XSTATE_HEADER) & ~xstate_features())
		return false;
	if (read_u64(x->bytes + XSTATE_HEADER_XCOMP)) /* the compacted format is not taken */
		return false;
	for (size_t i = 0; i < XSTATE_YMM - XSTATE_HEADER_RESERVE; i++)
		if (reserved[i])
			return false;
	return true;
}

/* The x87 registers as XRSTOR leaves them for a cleared FP bit; MXCSR is kept. */
static void
reset_x87(struct fpu_state *x)
{
	u16 control = X87_CONTROL_INIT;

	memset(x->bytes, 0, XSTATE_MXCSR);
	memset(x->bytes + XSTATE_MXCSR + 8, 0, X87_SIZE - XSTATE_MXCSR - 8);
	memcpy(x->bytes, &control, sizeof(control));
}

void
xstate_materialize(struct fpu_state *x)
{
	u64 missing = xstate_features() & ~read_u64(x->bytes + XSTATE_HEADER);

	if (!missing)
		return;
	if (missing & XFEATURE_MASK_FP)
		reset_x87(x);
	if (missing & XFEATURE_MASK_SSE)
		memset(x->bytes + SSE_OFFSET, 0, SSE_SIZE);
	if (missing & XFEATURE_MASK_YMM)
		memset(x->bytes + XSTATE_YMM, 0, YMM_SIZE);
	write_u64(x->bytes + XSTATE_HEADER, xstate_features());
}

void
xstate_export(struct fpu_state *s, struct fpu_state *x)
{
	xstate_materialize(s);
	memset(x, 0, sizeof(*x));
	memcpy(x->bytes, s->bytes, PADDING_OFFSET);
	memcpy(x->bytes + XSTATE_HEADER, s->bytes + XSTATE_HEADER, xstate_size() - XSTATE_HEADER);
	write_u64(x->bytes + XSTATE_SW_BYTES, xstate_features());
}

int
xstate_import(const struct fpu_state *x, struct fpu_state *s)
{
	u64 present = read_u64(x->bytes + XSTATE_HEADER);
	struct fpu_state image = *x;
	u32 mxcsr;

	if (!xstate_header_valid(x))
		return -EINVAL;
	memcpy(&mxcsr, x->bytes + XSTATE_MXCSR, sizeof(mxcsr));
	if ((present & (XFEATURE_MASK_SSE | XFEATURE_MASK_YMM)) && (mxcsr & ~fpu_mxcsr_mask()))
		return -EINVAL;
	/* MXCSR belongs to SSE and AVX: without either, the task keeps its own. */
	if (!(present & (XFEATURE_MASK_SSE | XFEATURE_MASK_YMM)))
		memcpy(image.bytes + XSTATE_MXCSR, s->bytes + XSTATE_MXCSR, 8);
	xstate_materialize(&image);
	memset(image.bytes + PADDING_OFFSET, 0, XSTATE_HEADER - PADDING_OFFSET);
	*s = image;
	return 0;
}
