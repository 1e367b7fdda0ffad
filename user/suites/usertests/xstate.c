/*
 * xstate.c - usertests: the extended CPU state past SSE (XSAVE's AVX
 * component, the upper halves of YMM0-15) kept per thread as Linux keeps
 * it: across context switches, into a fork child, around a signal handler
 * (the frame's XSAVE image with FRAME_XSTATE_MAGIC1/2, which sigreturn takes
 * back), through ptrace's NT_X86_XSTATE, and AT_MINSIGSTKSZ large enough
 * for it. Every test holds a YMM register live inside one asm statement,
 * across the system calls that would lose it, so that no compiler code
 * runs in between. Skipped where the CPU or kernel has no AVX.
 */
#define _GNU_SOURCE
#include "usertests.h"
#include "tracer.h"

#include <cpuid.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#define XCR0_YMM	    (1u << 2)
#define XSAVE_SW_BYTES	    464 /* struct _fpx_sw_bytes in a signal frame */
#define XSAVE_HEADER	    512 /* xfeatures */
#define XSAVE_YMM_HI	    576 /* the upper halves of YMM0-15, 16 bytes each */
#define FRAME_XSTATE_MAGIC1 0x46505853u
#define FRAME_XSTATE_MAGIC2 0x46505845u
#define NOTE_X86_XSTATE	    0x202
#define HELD_YMM	    7 /* the register the tests hold: ymm7 */

struct ymm {
	uint64_t q[4];
} __attribute__((aligned(32)));

static uint64_t
xcr0(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return ((uint64_t)hi << 32) | lo;
}

/* Skips unless programs may use AVX: the CPU has it and the kernel saves it (XCR0). */
static void
require_avx(void)
{
	unsigned eax, ebx, ecx, edx;

	__cpuid(1, eax, ebx, ecx, edx);
	if (!(ecx & bit_OSXSAVE) || !(ecx & bit_AVX) || !(xcr0() & XCR0_YMM))
		skip("no AVX state enabled on this CPU");
}

/* The XSAVE image size for XCR0's components (CPUID 0xD's EBX). */
static unsigned
xsave_size(void)
{
	unsigned eax, ebx, ecx, edx;

	__cpuid_count(0xd, 0, eax, ebx, ecx, edx);
	return ebx;
}

static struct ymm
pattern(uint64_t seed)
{
	return (struct ymm){ { seed, ~seed, seed * 3, seed ^ 0x5555aaaa5555aaaaull } };
}

/* ymm7 loaded from in, `rounds` sched_yield calls, ymm7 stored to out. */
static void
yield_holding_ymm(const struct ymm *in, struct ymm *out, long rounds)
{
	__asm__ __volatile__(
		"vmovdqu %[in], %%ymm7\n"
		"1: mov %[nr], %%eax\n"
		"syscall\n"
		"dec %[rounds]\n"
		"jnz 1b\n"
		"vmovdqu %%ymm7, %[out]\n"
		: [out] "=m"(*out), [rounds] "+r"(rounds)
		: [in] "m"(*in), [nr] "i"(SYS_sched_yield)
		: "rax", "rcx", "r11", "xmm7", "memory");
}

static void
pin_to_first_cpu(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CHECK_OK(sched_getaffinity(0, sizeof(set), &set));
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &set)) {
			CPU_ZERO(&set);
			CPU_SET(cpu, &set);
			CHECK_OK(sched_setaffinity(0, sizeof(set), &set));
			return;
		}
}

struct holder {
	struct ymm in, out;
};

static void *
hold_ymm_while_yielding(void *arg)
{
	struct holder *h = arg;

	pin_to_first_cpu();
	yield_holding_ymm(&h->in, &h->out, 2000);
	return NULL;
}

/* Two threads on one CPU, each with its own ymm7, yield to each other: each keeps its own. */
TEST(avx_upper_halves_survive_context_switches_to_another_thread)
{
	struct holder a = { .in = pattern(0x1111222233334444ull) };
	struct holder b = { .in = pattern(0x9999888877776666ull) };
	pthread_t other;

	require_avx();
	CHECK_EQ(pthread_create(&other, NULL, hold_ymm_while_yielding, &b), 0);
	hold_ymm_while_yielding(&a);
	CHECK_EQ(pthread_join(other, NULL), 0);
	CHECK(memcmp(&a.out, &a.in, sizeof(a.in)) == 0);
	CHECK(memcmp(&b.out, &b.in, sizeof(b.in)) == 0);
}

/* The fork child starts with its parent's YMM registers. */
TEST(avx_registers_are_copied_into_a_fork_child)
{
	struct ymm in = pattern(0x0123456789abcdefull), out;
	long pid;
	int status;

	require_avx();
	__asm__ __volatile__(
		"vmovdqu %[in], %%ymm7\n"
		"syscall\n"
		"vmovdqu %%ymm7, %[out]\n"
		: [out] "=m"(out), "=a"(pid)
		: [in] "m"(in), "a"((long)SYS_fork)
		: "rcx", "r11", "xmm7", "memory");
	if (pid == 0)
		_exit(memcmp(&out, &in, sizeof(in)) == 0 ? 0 : 1);
	CHECK(pid > 0);
	CHECK_EQ(waitpid((pid_t)pid, &status, 0), (pid_t)pid);
	CHECK_EQ(status, 0);
	CHECK(memcmp(&out, &in, sizeof(in)) == 0);
}

/* What the handler saw: ymm7 on entry, and the frame's image. */
static struct ymm handler_entry_ymm;
static unsigned char frame_image[16384];
static unsigned long frame_uc_flags;
static enum { CLOBBER, REWRITE_FRAME, DROP_XSAVE_MAGIC } handler_mode;
static const struct ymm rewritten = { { 1, 2, 0xfeedfacecafebeefull, 0x0badf00d0badf00dull } };

static void
clobbering_handler(int sig, siginfo_t *info, void *context)
{
	ucontext_t *uc = context;
	unsigned char *fpstate = (unsigned char *)uc->uc_mcontext.fpregs;
	static const struct ymm ones = { { ~0ull, ~0ull, ~0ull, ~0ull } };

	(void)sig;
	(void)info;
	__asm__ __volatile__("vmovdqu %%ymm7, %0" : "=m"(handler_entry_ymm));
	frame_uc_flags = uc->uc_flags;
	memcpy(frame_image, fpstate, xsave_size() + 4);
	__asm__ __volatile__("vmovdqu %0, %%ymm7" : : "m"(ones) : "xmm7");
	if (handler_mode == REWRITE_FRAME)
		memcpy(fpstate + XSAVE_YMM_HI + 16 * HELD_YMM, &rewritten.q[2], 16);
	if (handler_mode == DROP_XSAVE_MAGIC)
		memset(fpstate + XSAVE_SW_BYTES, 0, 4);
}

/* ymm7 loaded from in, SIGUSR1 sent to this thread (its handler runs on the way out), stored. */
static void
signal_holding_ymm(const struct ymm *in, struct ymm *out)
{
	long tid = syscall(SYS_gettid), ret;

	__asm__ __volatile__(
		"vmovdqu %[in], %%ymm7\n"
		"syscall\n"
		"vmovdqu %%ymm7, %[out]\n"
		: [out] "=m"(*out), "=a"(ret)
		: [in] "m"(*in), "a"((long)SYS_tgkill), "D"((long)getpid()), "S"(tid),
		  "d"((long)SIGUSR1)
		: "rcx", "r11", "xmm7", "memory");
	CHECK_EQ(ret, 0l);
}

static void
run_clobbering_handler(int mode, const struct ymm *in, struct ymm *out)
{
	struct sigaction sa = { .sa_sigaction = clobbering_handler, .sa_flags = SA_SIGINFO };

	handler_mode = mode;
	CHECK_OK(sigaction(SIGUSR1, &sa, NULL));
	signal_holding_ymm(in, out);
}

static uint32_t
image_u32(size_t off)
{
	uint32_t v;

	memcpy(&v, frame_image + off, sizeof(v));
	return v;
}

/*
 * A handler that clobbers ymm7 does not change the interrupted code's: the
 * frame holds it in Linux's layout and sigreturn restores it. The handler
 * itself starts with the upper halves clear (a fresh state).
 */
TEST(avx_registers_survive_a_signal_handler_that_clobbers_them)
{
	struct ymm in = pattern(0x4242424242424242ull), out;
	const struct ymm zero = { { 0 } };

	require_avx();
	unsigned size = xsave_size();
	run_clobbering_handler(CLOBBER, &in, &out);
	CHECK(memcmp(&out, &in, sizeof(in)) == 0);
	CHECK(memcmp(&handler_entry_ymm.q[2], &zero.q[2], 16) == 0);
	CHECK(frame_uc_flags & 1); /* UC_FP_XSTATE */
	CHECK_EQ(image_u32(XSAVE_SW_BYTES), FRAME_XSTATE_MAGIC1);
	CHECK_EQ(image_u32(XSAVE_SW_BYTES + 4), size + 4); /* extended_size */
	CHECK_EQ(image_u32(XSAVE_SW_BYTES + 16), size);	   /* xstate_size */
	CHECK_EQ(image_u32(size), FRAME_XSTATE_MAGIC2);
	CHECK(image_u32(XSAVE_HEADER) & XCR0_YMM);
	CHECK(memcmp(frame_image + XSAVE_YMM_HI + 16 * HELD_YMM, &in.q[2], 16) == 0);
}

/* sigreturn loads the upper halves from the frame: a handler's change there is the code's. */
TEST(avx_upper_halves_come_back_from_the_signal_frame)
{
	struct ymm in = pattern(0x7777000011112222ull), out;

	require_avx();
	run_clobbering_handler(REWRITE_FRAME, &in, &out);
	CHECK(memcmp(&out.q[0], &in.q[0], 16) == 0);
	CHECK(memcmp(&out.q[2], &rewritten.q[2], 16) == 0);
}

/* A frame without FRAME_XSTATE_MAGIC1 is a bare FXSAVE image: the upper halves come back clear. */
TEST(avx_upper_halves_are_reset_by_a_sigreturn_without_the_xsave_magic)
{
	struct ymm in = pattern(0x3131313131313131ull), out;
	const struct ymm zero = { { 0 } };

	require_avx();
	run_clobbering_handler(DROP_XSAVE_MAGIC, &in, &out);
	CHECK(memcmp(&out.q[0], &in.q[0], 16) == 0);
	CHECK(memcmp(&out.q[2], &zero.q[2], 16) == 0);
}

/* The auxiliary vector's smallest signal stack has room for the XSAVE image and the frame. */
TEST(avx_at_minsigstksz_holds_the_xsave_image)
{
	require_avx();
	unsigned long min = getauxval(AT_MINSIGSTKSZ);
	CHECK(min >= xsave_size() + 4 + sizeof(siginfo_t));
	CHECK_EQ(min % 16, 0ul);
}

static struct ymm traced_in, traced_out;

/* Holds ymm7 across a SIGSTOP the tracer sees; exits 0 if it reads what the tracer left. */
static void
stop_holding_ymm(void)
{
	long ret;

	__asm__ __volatile__(
		"vmovdqu %[in], %%ymm7\n"
		"syscall\n"
		"vmovdqu %%ymm7, %[out]\n"
		: [out] "=m"(traced_out), "=a"(ret)
		: [in] "m"(traced_in), "a"((long)SYS_kill), "D"((long)getpid()), "S"((long)SIGSTOP)
		: "rcx", "r11", "xmm7", "memory");
	_exit(memcmp(&traced_out.q[2], &rewritten.q[2], 16) == 0 ? 0 : 1);
}

/* NT_X86_XSTATE shows a stopped tracee's upper halves and writes them. */
TEST(avx_upper_halves_through_ptrace_xstate_regset)
{
	static unsigned char image[16384] __attribute__((aligned(64)));
	struct iovec iov = { image, sizeof(image) };
	int status;

	require_avx();
	traced_in = pattern(0x5a5a5a5a00000001ull);
	pid_t pid = traced_child(stop_holding_ymm);
	CHECK_OK(trace(PTRACE_CONT, pid, 0, 0));
	expect_stop(pid, SIGSTOP);
	CHECK_OK(trace(PTRACE_GETREGSET, pid, NOTE_X86_XSTATE, (unsigned long)&iov));
	CHECK_EQ(iov.iov_len, (size_t)xsave_size());
	CHECK(memcmp(image + XSAVE_YMM_HI + 16 * HELD_YMM, &traced_in.q[2], 16) == 0);
	memcpy(image + XSAVE_YMM_HI + 16 * HELD_YMM, &rewritten.q[2], 16);
	CHECK_OK(trace(PTRACE_SETREGSET, pid, NOTE_X86_XSTATE, (unsigned long)&iov));
	CHECK_OK(trace(PTRACE_CONT, pid, 0, 0));
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	CHECK_EQ(status, 0);
}
