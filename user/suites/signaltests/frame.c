/*
 * frame.c - signaltests: the signal frame. Every register and the SSE
 * state survive an asynchronous signal; the handler starts with a clean
 * FPU and may edit the interrupted one in the frame; and the frame may go
 * on the alternate signal stack, even when the ordinary stack overflowed.
 */
#define _GNU_SOURCE
#include "signaltests.h"

#include <errno.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#define NREGS 16 /* rax rbx rcx rdx rsi rdi rbp r8-r15, then xmm0 and xmm15 halves */
static volatile int alarms;
static volatile long spin_budget;
static unsigned long regs_out[NREGS + 4];
static const unsigned long xmm_in[4] = {
	0x1111222233334444ul,
	0x5555666677778888ul,
	0x99990000aaaabbbbul,
	0xccccddddeeeeffffull,
};

/* SIGALRM: count, and wreck every register the interrupted code holds. */
static void
clobber_all(int sig, siginfo_t *info, void *uc)
{
	(void)sig, (void)info, (void)uc;
	alarms++;
	__asm__ volatile(
		"mov $-1, %%rax; mov $-1, %%rbx; mov $-1, %%rcx; mov $-1, %%rdx\n"
		"mov $-1, %%rsi; mov $-1, %%rdi; mov $-1, %%r8; mov $-1, %%r9\n"
		"mov $-1, %%r10; mov $-1, %%r11; mov $-1, %%r12; mov $-1, %%r13\n"
		"mov $-1, %%r14; mov $-1, %%r15; pcmpeqd %%xmm0, %%xmm0; pcmpeqd %%xmm15, %%xmm15" ::
			: "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12",
			  "r13", "r14", "r15", "xmm0", "xmm15");
}

/*
 * Loads a known value into every general register (rsp aside) and into
 * xmm0 and xmm15, spins until `alarms` reaches 5 (or the budget runs out),
 * and stores them all to regs_out. The red zone is stepped over first:
 * the compiler may keep something there.
 */
static void
spin_with_known_registers(void)
{
	__asm__ volatile(
		"sub $128, %%rsp\n"
		"push %%rbp\n"
		"movdqu %[xin], %%xmm0\n"
		"movdqu 16+%[xin], %%xmm15\n"
		"mov $0x1000000000000001, %%rax\n"
		"mov $0x1000000000000002, %%rbx\n"
		"mov $0x1000000000000003, %%rcx\n"
		"mov $0x1000000000000004, %%rdx\n"
		"mov $0x1000000000000005, %%rsi\n"
		"mov $0x1000000000000006, %%rdi\n"
		"mov $0x1000000000000007, %%rbp\n"
		"mov $0x1000000000000008, %%r8\n"
		"mov $0x1000000000000009, %%r9\n"
		"mov $0x100000000000000a, %%r10\n"
		"mov $0x100000000000000b, %%r11\n"
		"mov $0x100000000000000c, %%r12\n"
		"mov $0x100000000000000d, %%r13\n"
		"mov $0x100000000000000e, %%r14\n"
		"mov $0x100000000000000f, %%r15\n"
		"1: cmpl $5, %[alarms]\n"
		"jge 2f\n"
		"decq %[budget]\n"
		"jnz 1b\n"
		"2: mov %%rax, 0+%[out]\n"
		"mov %%rbx, 8+%[out]\n"
		"mov %%rcx, 16+%[out]\n"
		"mov %%rdx, 24+%[out]\n"
		"mov %%rsi, 32+%[out]\n"
		"mov %%rdi, 40+%[out]\n"
		"mov %%rbp, 48+%[out]\n"
		"mov %%r8, 56+%[out]\n"
		"mov %%r9, 64+%[out]\n"
		"mov %%r10, 72+%[out]\n"
		"mov %%r11, 80+%[out]\n"
		"mov %%r12, 88+%[out]\n"
		"mov %%r13, 96+%[out]\n"
		"mov %%r14, 104+%[out]\n"
		"mov %%r15, 112+%[out]\n"
		"movdqu %%xmm0, 128+%[out]\n"
		"movdqu %%xmm15, 144+%[out]\n"
		"pop %%rbp\n"
		"add $128, %%rsp\n"
		: [out] "=m"(regs_out), [alarms] "+m"(alarms), [budget] "+m"(spin_budget)
		: [xin] "m"(xmm_in)
		: "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12", "r13",
		  "r14", "r15", "xmm0", "xmm15", "cc", "memory");
}

TEST(registers_survive_async_signals)
{
	struct itimerval it = { .it_interval = { 0, 2000 }, .it_value = { 0, 2000 } };

	set_handler(SIGALRM, clobber_all, SA_RESTART);
	spin_budget = 20000000000L;
	CHECK_OK(setitimer(ITIMER_REAL, &it, NULL));
	spin_with_known_registers();
	arm_timer_ms(0);
	if (alarms < 5)
		fail("only %d SIGALRMs arrived while spinning", alarms);
	for (int i = 0; i < 15; i++)
		if (regs_out[i] != 0x1000000000000001ul + i)
			fail("register %d is %#lx after the signals, want %#lx", i, regs_out[i],
			     0x1000000000000001ul + i);
	for (int i = 0; i < 4; i++)
		if (regs_out[16 + i] != xmm_in[i])
			fail("xmm word %d is %#lx after the signals, want %#lx", i,
			     regs_out[16 + i], xmm_in[i]);
}

static unsigned
read_mxcsr(void)
{
	unsigned v;

	__asm__ volatile("stmxcsr %0" : "=m"(v));
	return v;
}

static void
write_mxcsr(unsigned v)
{
	__asm__ volatile("ldmxcsr %0" : : "m"(v));
}

#define MXCSR_DEFAULT	 0x1f80
#define MXCSR_ROUND_ZERO 0x6000
static volatile unsigned handler_mxcsr, frame_mxcsr;

/* The handler starts with a clean FPU; the frame holds the interrupted one, which it may edit. */
static void
look_at_fpu(int sig, siginfo_t *info, void *ucv)
{
	ucontext_t *uc = ucv;

	(void)sig, (void)info;
	handler_mxcsr = read_mxcsr();
	frame_mxcsr = uc->uc_mcontext.fpregs ? uc->uc_mcontext.fpregs->mxcsr : 0;
	if (uc->uc_mcontext.fpregs)
		uc->uc_mcontext.fpregs->mxcsr = MXCSR_DEFAULT | 0x2000; /* round down */
	handled++;
}

TEST(fpu_state_in_frame)
{
	set_handler(SIGUSR1, look_at_fpu, 0);
	write_mxcsr(MXCSR_DEFAULT | MXCSR_ROUND_ZERO);
	raise(SIGUSR1);
	unsigned after = read_mxcsr();
	write_mxcsr(MXCSR_DEFAULT);
	CHECK_EQ(handled, 1);
	CHECK_EQ(handler_mxcsr, MXCSR_DEFAULT);
	CHECK_EQ(frame_mxcsr, (MXCSR_DEFAULT | MXCSR_ROUND_ZERO));
	CHECK_EQ(after, (MXCSR_DEFAULT | 0x2000));
}

/* Reserved MXCSR bits in the frame must not hurt the kernel: sanitized, or SIGSEGV. */
static void
poison_mxcsr(int sig, siginfo_t *info, void *ucv)
{
	ucontext_t *uc = ucv;

	(void)sig, (void)info;
	if (uc->uc_mcontext.fpregs)
		uc->uc_mcontext.fpregs->mxcsr = 0xffffffff;
}

static void
return_with_bad_mxcsr(void)
{
	set_handler(SIGUSR1, poison_mxcsr, 0);
	raise(SIGUSR1);
}

TEST(fpu_bad_mxcsr_in_frame)
{
	int status = run_child(return_with_bad_mxcsr);

	if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0) &&
	    !(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV)) {
		char how[64];
		describe_status(status, how, sizeof(how));
		fail("child %s, want exit 0 or SIGSEGV", how);
	}
}

/* === the alternate signal stack ============================================ */

static char *alt_base;
static volatile uintptr_t handler_local_addr;
static volatile int alt_flags_inside, alt_change_errno;

static void
on_alt(int sig, siginfo_t *info, void *uc)
{
	stack_t now, ss = { .ss_sp = alt_base, .ss_size = SIGSTKSZ };
	volatile char here;

	(void)sig, (void)info, (void)uc;
	handler_local_addr = (uintptr_t)&here;
	sigaltstack(NULL, &now);
	alt_flags_inside = now.ss_flags;
	alt_change_errno = sigaltstack(&ss, NULL) < 0 ? errno : 0;
	handled++;
}

TEST(sigaltstack_used)
{
	stack_t ss = { .ss_size = SIGSTKSZ }, old;

	alt_base = map_anon(SIGSTKSZ, PROT_READ | PROT_WRITE);
	ss.ss_sp = alt_base;
	CHECK_OK(sigaltstack(&ss, NULL));
	set_handler(SIGUSR1, on_alt, SA_ONSTACK);
	raise(SIGUSR1);
	CHECK_EQ(handled, 1);
	CHECK(handler_local_addr >= (uintptr_t)alt_base);
	CHECK(handler_local_addr < (uintptr_t)alt_base + SIGSTKSZ);
	CHECK_EQ(alt_flags_inside, SS_ONSTACK);
	CHECK_EQ(alt_change_errno, EPERM);
	CHECK_OK(sigaltstack(NULL, &old));
	CHECK_EQ(old.ss_flags, 0);
	CHECK(old.ss_sp == alt_base && old.ss_size == (size_t)SIGSTKSZ);
}

TEST(sigaltstack_errors)
{
	stack_t ss = { .ss_sp = map_anon(PAGE, PROT_READ | PROT_WRITE), .ss_size = 100 };

	CHECK_ERR(ENOMEM, sigaltstack(&ss, NULL));
	ss.ss_size = PAGE;
	ss.ss_flags = 0x1234;
	CHECK_ERR(EINVAL, sigaltstack(&ss, NULL));
	CHECK_ERR(EFAULT, syscall(SYS_sigaltstack, (void *)1, NULL));
	ss.ss_flags = SS_DISABLE;
	CHECK_OK(sigaltstack(&ss, NULL));
	stack_t old;
	CHECK_OK(sigaltstack(NULL, &old));
	CHECK_EQ(old.ss_flags, SS_DISABLE);
}

/* The classic use: a stack overflow handled on the alternate stack. */
static volatile int bottomless = 1;

static int
recurse(int depth)
{
	volatile char frame[4096];

	frame[0] = (char)depth;
	return bottomless ? recurse(depth + 1) + frame[0] : 0;
}

TEST(sigaltstack_stack_overflow_recovered)
{
	stack_t ss = { .ss_size = 4 * SIGSTKSZ };

	ss.ss_sp = map_anon(ss.ss_size, PROT_READ | PROT_WRITE);
	CHECK_OK(sigaltstack(&ss, NULL));
	set_handler(SIGSEGV, record_and_jump, SA_ONSTACK);
	if (sigsetjmp(recover, 1) == 0) {
		recurse(0);
		fail("endless recursion returned");
	}
	CHECK_EQ(handled, 1);
	CHECK_EQ(last_info.si_signo, SIGSEGV);
}
