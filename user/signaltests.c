/*
 * signaltests.c - POSIX signals as Linux x86-64 delivers them: handlers
 * with their siginfo and ucontext, the frame on the user stack and
 * rt_sigreturn (every register back, FPU included), faults turned into
 * signals, masks, sigsuspend, the alternate stack, interrupted and
 * restarted system calls, timers, default actions, and the signals that
 * end a process.
 *
 *	signaltests [NAME-PREFIX...]     run all tests, or those whose names start so
 *
 * The output is usertests' (lib/testing.h), one forked child per test, so
 * the handlers and masks a test installs die with it. Every expectation is
 * Linux's: the suite passes on a Linux host, which is how the ABI is
 * checked. Tests about how a process ends fork once more and judge that
 * grandchild's wait status. No test depends on speed: timers only have to
 * fire at some point, and deadlines are generous ones that turn a hang
 * into a failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "lib/procfile.h"
#include "lib/testing.h"

#define PAGE		4096
#define MS		1000000LL	/* ns */
#define SIGSET_SIZE	8		/* the kernel's sigset_t */
#define PF_WRITE_USER	6		/* page-fault error code: a write from user mode */
#define TRAP_PAGE_FAULT	14

/* --- helpers -------------------------------------------------------------- */

typedef void (*sa_handler_fn)(int, siginfo_t *, void *);

static void
set_handler(int sig, sa_handler_fn fn, int flags)
{
	struct sigaction sa = { .sa_sigaction = fn, .sa_flags = SA_SIGINFO | flags };

	sigemptyset(&sa.sa_mask);
	if (sigaction(sig, &sa, NULL) < 0)
		fail("sigaction(%d) failed with %s", sig, errname(errno));
}

static void
set_disposition(int sig, void (*fn)(int))
{
	struct sigaction sa = { .sa_handler = fn };

	sigemptyset(&sa.sa_mask);
	if (sigaction(sig, &sa, NULL) < 0)
		fail("sigaction(%d) failed with %s", sig, errname(errno));
}

static void
mask_signal(int how, int sig)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, sig);
	if (sigprocmask(how, &set, NULL) < 0)
		fail("sigprocmask failed with %s", errname(errno));
}

static bool
is_blocked(int sig)
{
	sigset_t set;

	sigprocmask(SIG_BLOCK, NULL, &set);
	return sigismember(&set, sig);
}

/* A one-shot ITIMER_REAL in ms (0 disarms). */
static void
arm_timer_ms(long ms)
{
	struct itimerval it = { .it_value = { ms / 1000, (ms % 1000) * 1000 } };

	if (setitimer(ITIMER_REAL, &it, NULL) < 0)
		fail("setitimer failed with %s", errname(errno));
}

/* Runs fn in a child process; its wait status. */
static int
run_child(void (*fn)(void))
{
	pid_t pid = xfork();

	if (pid == 0) {
		fn();
		_exit(0);
	}
	return wait_status(pid);
}

/* What the last handler saw. */
static volatile sig_atomic_t handled, handled_sig;
static siginfo_t last_info;
static ucontext_t last_uc;
static volatile bool sig_was_blocked_inside;

static void
record(int sig, siginfo_t *info, void *ucv)
{
	handled++;
	handled_sig = sig;
	last_info = *info;
	memcpy(&last_uc, ucv, sizeof(last_uc));
	sig_was_blocked_inside = is_blocked(sig);
}

static void
count(int sig, siginfo_t *info, void *uc)
{
	(void)sig, (void)info, (void)uc;
	handled++;
}

/* Waits (up to 10 s) until a handler has run n times in all. */
static void
wait_handled(int n, const char *what)
{
	long long deadline = mono_ns() + 10000 * MS;

	while (handled < n) {
		if (mono_ns() > deadline)
			fail("%s: handler ran %d times after 10 s, want %d", what, (int)handled, n);
		usleep(1000);
	}
}

/* === handlers: siginfo, ucontext, mask ==================================== */

TEST(handler_siginfo_from_kill)
{
	set_handler(SIGUSR1, record, 0);
	EXPECT_OK(kill(getpid(), SIGUSR1));
	CHECK(handled == 1);
	CHECK(handled_sig == SIGUSR1);
	CHECK(last_info.si_signo == SIGUSR1);
	CHECK(last_info.si_code == SI_USER);
	CHECK(last_info.si_pid == getpid());
	CHECK(sig_was_blocked_inside);			/* no SA_NODEFER */
	CHECK(!sigismember(&last_uc.uc_sigmask, SIGUSR1));	/* the mask before */
	CHECK(!is_blocked(SIGUSR1));			/* restored by rt_sigreturn */
}

TEST(handler_siginfo_from_tkill)
{
	set_handler(SIGUSR2, record, 0);
	EXPECT_OK(syscall(SYS_tgkill, getpid(), gettid(), SIGUSR2));
	CHECK(handled == 1);
	CHECK(last_info.si_code == SI_TKILL);
	CHECK(last_info.si_pid == getpid());
}

/* The handler's first instruction: where is rsp? (rsp + 8) % 16 == 0, as after a call. */
static volatile uintptr_t entry_rsp;
void rsp_probe(int, siginfo_t *, void *);
__asm__(".text\n"
	"rsp_probe:\n"
	"	mov %rsp, entry_rsp(%rip)\n"
	"	ret\n");

TEST(handler_stack_alignment)
{
	set_handler(SIGUSR1, rsp_probe, 0);
	raise(SIGUSR1);
	CHECK(entry_rsp != 0);
	if ((entry_rsp + 8) % 16 != 0)
		fail("rsp at handler entry %#lx: (rsp + 8) %% 16 != 0", (unsigned long)entry_rsp);
}

/* SA_NODEFER leaves the signal unblocked; sa_mask adds to the mask; SA_RESETHAND runs once. */
TEST(handler_flags)
{
	struct sigaction sa = { .sa_sigaction = record, .sa_flags = SA_SIGINFO | SA_NODEFER | SA_RESETHAND };
	struct sigaction now;

	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGUSR2);
	EXPECT_OK(sigaction(SIGUSR1, &sa, NULL));
	raise(SIGUSR1);
	CHECK(handled == 1);
	CHECK(!sig_was_blocked_inside);
	EXPECT_OK(sigaction(SIGUSR1, NULL, &now));
	CHECK(now.sa_handler == SIG_DFL);

	sa.sa_flags = SA_SIGINFO;
	EXPECT_OK(sigaction(SIGUSR1, &sa, NULL));
	raise(SIGUSR1);
	CHECK(handled == 2);
	CHECK(sig_was_blocked_inside);
}

/* A handler may fail the test from inside, so this one checks sa_mask itself. */
static void
check_usr2_blocked(int sig, siginfo_t *info, void *uc)
{
	(void)sig, (void)info, (void)uc;
	if (!is_blocked(SIGUSR2))
		fail("sa_mask's SIGUSR2 is not blocked in the handler");
	handled++;
}

TEST(handler_sa_mask)
{
	struct sigaction sa = { .sa_sigaction = check_usr2_blocked, .sa_flags = SA_SIGINFO };

	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGUSR2);
	EXPECT_OK(sigaction(SIGUSR1, &sa, NULL));
	raise(SIGUSR1);
	CHECK(handled == 1);
	CHECK(!is_blocked(SIGUSR2));
}

/* === faults as signals ===================================================== */

static sigjmp_buf recover;

static void
record_and_jump(int sig, siginfo_t *info, void *uc)
{
	record(sig, info, uc);
	siglongjmp(recover, 1);
}

TEST(segv_null_write_siginfo)
{
	set_handler(SIGSEGV, record_and_jump, 0);
	if (sigsetjmp(recover, 1) == 0) {
		*(volatile int *)0 = 1;
		fail("the write to NULL did not fault");
	}
	CHECK(handled == 1);
	CHECK(last_info.si_signo == SIGSEGV);
	CHECK(last_info.si_code == SEGV_MAPERR);
	CHECK(last_info.si_addr == NULL);
	CHECK(last_uc.uc_mcontext.gregs[REG_TRAPNO] == TRAP_PAGE_FAULT);
	CHECK((last_uc.uc_mcontext.gregs[REG_ERR] & PF_WRITE_USER) == PF_WRITE_USER);
	CHECK(last_uc.uc_mcontext.gregs[REG_CR2] == 0);
	CHECK(!is_blocked(SIGSEGV));		/* siglongjmp restored the mask */
}

/* Return from the handler after making the page writable: the write then happens. */
static char *readonly_page;

static void
unprotect(int sig, siginfo_t *info, void *uc)
{
	record(sig, info, uc);
	if (mprotect(readonly_page, PAGE, PROT_READ | PROT_WRITE) < 0)
		fail("mprotect in the handler failed with %s", errname(errno));
}

TEST(segv_readonly_fixed_in_handler)
{
	readonly_page = map_anon(PAGE, PROT_READ);
	set_handler(SIGSEGV, unprotect, 0);
	((volatile char *)readonly_page)[100] = 42;
	CHECK(handled == 1);
	CHECK(last_info.si_code == SEGV_ACCERR);
	CHECK(last_info.si_addr == readonly_page + 100);
	CHECK(readonly_page[100] == 42);
}

/* divl with a zero divisor at a known address. */
extern const char div_insn[];

static void
divide_by_zero(void)
{
	__asm__ volatile("mov $1, %%eax; xor %%edx, %%edx\n"
			 ".globl div_insn\n"
			 "div_insn: divl %0" : : "r"(0) : "eax", "edx");
}

TEST(sigfpe_intdiv)
{
	set_handler(SIGFPE, record_and_jump, 0);
	if (sigsetjmp(recover, 1) == 0) {
		divide_by_zero();
		fail("the division by zero did not fault");
	}
	CHECK(last_info.si_signo == SIGFPE);
	CHECK(last_info.si_code == FPE_INTDIV);
	CHECK(last_info.si_addr == (void *)div_insn);
	CHECK(last_uc.uc_mcontext.gregs[REG_RIP] == (greg_t)div_insn);
}

extern const char after_int3[];

/* int3 traps after the instruction; Linux reports SI_KERNEL, and returning goes on. */
TEST(sigtrap_int3)
{
	set_handler(SIGTRAP, record, 0);
	__asm__ volatile("int3\n.globl after_int3\nafter_int3:");
	CHECK(handled == 1);
	CHECK(last_info.si_signo == SIGTRAP);
	CHECK(last_info.si_code == SI_KERNEL);
	CHECK(last_uc.uc_mcontext.gregs[REG_RIP] == (greg_t)after_int3);
}

extern const char ud2_insn[];

TEST(sigill_ud2)
{
	set_handler(SIGILL, record_and_jump, 0);
	if (sigsetjmp(recover, 1) == 0) {
		__asm__ volatile(".globl ud2_insn\nud2_insn: ud2");
		fail("ud2 did not fault");
	}
	CHECK(last_info.si_code == ILL_ILLOPN);
	CHECK(last_info.si_addr == (void *)ud2_insn);
}

/* #GP: SIGSEGV with SI_KERNEL and no address. */
TEST(segv_general_protection)
{
	set_handler(SIGSEGV, record_and_jump, 0);
	if (sigsetjmp(recover, 1) == 0) {
		__asm__ volatile("hlt");
		fail("hlt did not fault");
	}
	CHECK(last_info.si_code == SI_KERNEL);
	CHECK(last_info.si_addr == NULL);
	CHECK(last_uc.uc_mcontext.gregs[REG_TRAPNO] == 13);
}

/* === registers and FPU across an asynchronous signal ======================== */

#define NREGS	16	/* rax rbx rcx rdx rsi rdi rbp r8-r15, then xmm0 and xmm15 halves */
static volatile int alarms;
static volatile long spin_budget;
static unsigned long regs_out[NREGS + 4];
static const unsigned long xmm_in[4] = {
	0x1111222233334444ul, 0x5555666677778888ul, 0x99990000aaaabbbbul, 0xccccddddeeeeffffull,
};

/* SIGALRM: count, and wreck every register the interrupted code holds. */
static void
clobber_all(int sig, siginfo_t *info, void *uc)
{
	(void)sig, (void)info, (void)uc;
	alarms++;
	__asm__ volatile("mov $-1, %%rax; mov $-1, %%rbx; mov $-1, %%rcx; mov $-1, %%rdx\n"
			 "mov $-1, %%rsi; mov $-1, %%rdi; mov $-1, %%r8; mov $-1, %%r9\n"
			 "mov $-1, %%r10; mov $-1, %%r11; mov $-1, %%r12; mov $-1, %%r13\n"
			 "mov $-1, %%r14; mov $-1, %%r15; pcmpeqd %%xmm0, %%xmm0; pcmpeqd %%xmm15, %%xmm15"
			 ::: "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11",
			 "r12", "r13", "r14", "r15", "xmm0", "xmm15");
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
		: "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12",
		  "r13", "r14", "r15", "xmm0", "xmm15", "cc", "memory");
}

TEST(registers_survive_async_signals)
{
	struct itimerval it = { .it_interval = { 0, 2000 }, .it_value = { 0, 2000 } };

	set_handler(SIGALRM, clobber_all, SA_RESTART);
	spin_budget = 20000000000L;
	EXPECT_OK(setitimer(ITIMER_REAL, &it, NULL));
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
			fail("xmm word %d is %#lx after the signals, want %#lx", i, regs_out[16 + i], xmm_in[i]);
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
	__asm__ volatile("ldmxcsr %0" :: "m"(v));
}

#define MXCSR_DEFAULT		0x1f80
#define MXCSR_ROUND_ZERO	0x6000
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
		uc->uc_mcontext.fpregs->mxcsr = MXCSR_DEFAULT | 0x2000;	/* round down */
	handled++;
}

TEST(fpu_state_in_frame)
{
	set_handler(SIGUSR1, look_at_fpu, 0);
	write_mxcsr(MXCSR_DEFAULT | MXCSR_ROUND_ZERO);
	raise(SIGUSR1);
	unsigned after = read_mxcsr();
	write_mxcsr(MXCSR_DEFAULT);
	CHECK(handled == 1);
	CHECK(handler_mxcsr == MXCSR_DEFAULT);
	CHECK(frame_mxcsr == (MXCSR_DEFAULT | MXCSR_ROUND_ZERO));
	CHECK(after == (MXCSR_DEFAULT | 0x2000));
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
	EXPECT_OK(sigaltstack(&ss, NULL));
	set_handler(SIGUSR1, on_alt, SA_ONSTACK);
	raise(SIGUSR1);
	CHECK(handled == 1);
	CHECK(handler_local_addr >= (uintptr_t)alt_base);
	CHECK(handler_local_addr < (uintptr_t)alt_base + SIGSTKSZ);
	CHECK(alt_flags_inside == SS_ONSTACK);
	CHECK(alt_change_errno == EPERM);
	EXPECT_OK(sigaltstack(NULL, &old));
	CHECK(old.ss_flags == 0);
	CHECK(old.ss_sp == alt_base && old.ss_size == SIGSTKSZ);
}

TEST(sigaltstack_errors)
{
	stack_t ss = { .ss_sp = map_anon(PAGE, PROT_READ | PROT_WRITE), .ss_size = 100 };

	EXPECT_ERR(ENOMEM, sigaltstack(&ss, NULL));
	ss.ss_size = PAGE;
	ss.ss_flags = 0x1234;
	EXPECT_ERR(EINVAL, sigaltstack(&ss, NULL));
	EXPECT_ERR(EFAULT, syscall(SYS_sigaltstack, (void *)1, NULL));
	ss.ss_flags = SS_DISABLE;
	EXPECT_OK(sigaltstack(&ss, NULL));
	stack_t old;
	EXPECT_OK(sigaltstack(NULL, &old));
	CHECK(old.ss_flags == SS_DISABLE);
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
	EXPECT_OK(sigaltstack(&ss, NULL));
	set_handler(SIGSEGV, record_and_jump, SA_ONSTACK);
	if (sigsetjmp(recover, 1) == 0) {
		recurse(0);
		fail("endless recursion returned");
	}
	CHECK(handled == 1);
	CHECK(last_info.si_signo == SIGSEGV);
}

/* === interrupted system calls ================================================ */

static int alarm_pipe[2];

/* SIGALRM: make the interrupted read able to finish. */
static void
feed_pipe(int sig, siginfo_t *info, void *uc)
{
	(void)sig, (void)info, (void)uc;
	handled++;
	write(alarm_pipe[1], "x", 1);
}

TEST(pipe_read_restarted_with_sa_restart)
{
	char c;

	EXPECT_OK(pipe(alarm_pipe));
	set_handler(SIGALRM, feed_pipe, SA_RESTART);
	arm_timer_ms(30);
	long n = read(alarm_pipe[0], &c, 1);
	CHECK(handled == 1);
	if (n != 1)
		fail("read returned %ld (%s), want 1 (restarted)", n, errname(errno));
	CHECK(c == 'x');
}

TEST(pipe_read_eintr_without_sa_restart)
{
	char c;

	EXPECT_OK(pipe(alarm_pipe));
	set_handler(SIGALRM, feed_pipe, 0);
	arm_timer_ms(30);
	EXPECT_ERR(EINTR, read(alarm_pipe[0], &c, 1));
	CHECK(handled == 1);
	CHECK(read(alarm_pipe[0], &c, 1) == 1);	/* the handler's byte is there */
}

TEST(nanosleep_eintr_with_remaining_time)
{
	struct timespec req = { 2, 0 }, rem = { 0, 0 };

	set_handler(SIGALRM, count, 0);
	arm_timer_ms(50);
	EXPECT_ERR(EINTR, nanosleep(&req, &rem));
	CHECK(handled == 1);
	long long left = rem.tv_sec * 1000 * MS + rem.tv_nsec;
	if (left <= 0 || left >= 2000 * MS)
		fail("remaining time %lld ns, want between 0 and 2 s", left);
}

TEST(wait4_eintr)
{
	int p[2];
	char c;

	EXPECT_OK(pipe(p));
	pid_t pid = xfork();
	if (pid == 0) {
		close(p[1]);
		read(p[0], &c, 1);	/* until the parent closes its end */
		_exit(3);
	}
	close(p[0]);
	set_handler(SIGALRM, count, 0);
	arm_timer_ms(30);
	int status;
	EXPECT_ERR(EINTR, waitpid(pid, &status, 0));
	close(p[1]);
	expect_exit(pid, 3, "the child");
}

TEST(pause_returns_eintr)
{
	set_handler(SIGALRM, count, SA_RESTART);	/* pause is never restarted */
	arm_timer_ms(20);
	EXPECT_ERR(EINTR, pause());
	CHECK(handled == 1);
}

/* === masks, pending, sigsuspend, sigtimedwait ==================================== */

TEST(blocked_signal_pends_until_unblocked)
{
	sigset_t pending;

	set_handler(SIGUSR1, record, 0);
	mask_signal(SIG_BLOCK, SIGUSR1);
	raise(SIGUSR1);
	raise(SIGUSR1);			/* a standard signal is pending once */
	CHECK(handled == 0);
	EXPECT_OK(sigpending(&pending));
	CHECK(sigismember(&pending, SIGUSR1));
	CHECK(!sigismember(&pending, SIGUSR2));
	mask_signal(SIG_UNBLOCK, SIGUSR1);	/* delivered on the way out of this call */
	CHECK(handled == 1);
	EXPECT_OK(sigpending(&pending));
	CHECK(!sigismember(&pending, SIGUSR1));
}

static volatile int rt_values[8], rt_count;

static void
record_rt(int sig, siginfo_t *info, void *uc)
{
	(void)sig, (void)uc;
	if (rt_count < 8)
		rt_values[rt_count] = info->si_value.sival_int;
	rt_count++;
}

TEST(realtime_signals_queue_in_order)
{
	int sig = SIGRTMIN + 1;

	set_handler(sig, record_rt, 0);
	mask_signal(SIG_BLOCK, sig);
	for (int i = 1; i <= 3; i++)
		EXPECT_OK(sigqueue(getpid(), sig, (union sigval){ .sival_int = i * 10 }));
	CHECK(rt_count == 0);
	mask_signal(SIG_UNBLOCK, sig);
	CHECK(rt_count == 3);
	CHECK(rt_values[0] == 10 && rt_values[1] == 20 && rt_values[2] == 30);
}

TEST(sigsuspend_waits_and_restores_mask)
{
	sigset_t wait_mask;

	set_handler(SIGUSR1, record, 0);
	mask_signal(SIG_BLOCK, SIGUSR1);
	pid_t pid = xfork();
	if (pid == 0) {
		usleep(20000);
		kill(getppid(), SIGUSR1);
		_exit(0);
	}
	sigemptyset(&wait_mask);
	EXPECT_ERR(EINTR, sigsuspend(&wait_mask));
	CHECK(handled == 1);
	CHECK(last_info.si_pid == pid);
	CHECK(sigismember(&last_uc.uc_sigmask, SIGUSR1));	/* the mask to go back to */
	CHECK(is_blocked(SIGUSR1));
	expect_exit(pid, 0, "the sender");
}

TEST(sigtimedwait_takes_blocked_signal)
{
	sigset_t set;
	siginfo_t info;
	struct timespec ts = { 0, 10 * MS };

	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	mask_signal(SIG_BLOCK, SIGUSR2);
	EXPECT_ERR(EAGAIN, sigtimedwait(&set, &info, &ts));
	raise(SIGUSR2);
	CHECK(sigtimedwait(&set, &info, &ts) == SIGUSR2);
	CHECK(info.si_signo == SIGUSR2 && info.si_code == SI_TKILL);
	sigset_t pending;
	sigpending(&pending);
	CHECK(!sigismember(&pending, SIGUSR2));
}

/* A signal sent to a sleeping sigtimedwait wakes it, even though it is blocked. */
TEST(sigtimedwait_woken_by_other_process)
{
	sigset_t set;
	siginfo_t info;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	mask_signal(SIG_BLOCK, SIGUSR1);
	pid_t pid = xfork();
	if (pid == 0) {
		usleep(20000);
		kill(getppid(), SIGUSR1);
		_exit(0);
	}
	CHECK(sigwaitinfo(&set, &info) == SIGUSR1);
	CHECK(info.si_pid == pid);
	expect_exit(pid, 0, "the sender");
}

/* === sending: processes, threads, children ======================================= */

static void
sleep_forever(void)
{
	for (;;)
		pause();
}

TEST(kill_child_wait_status)
{
	pid_t pid = xfork();

	if (pid == 0)
		sleep_forever();
	EXPECT_OK(kill(pid, SIGTERM));
	int status = wait_status(pid);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
	CHECK(status == SIGTERM);		/* no core bit */

	pid = xfork();
	if (pid == 0)
		sleep_forever();
	EXPECT_OK(kill(pid, SIGABRT));		/* a core signal: no core file either */
	status = wait_status(pid);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
}

TEST(sigkill_sleeping_child_that_blocks_all)
{
	int p[2];
	char c;

	EXPECT_OK(pipe(p));
	pid_t pid = xfork();
	if (pid == 0) {
		sigset_t all;
		sigfillset(&all);
		sigprocmask(SIG_BLOCK, &all, NULL);
		close(p[1]);
		read(p[0], &c, 1);		/* never returns: the parent keeps its end */
		_exit(1);
	}
	close(p[0]);
	usleep(20000);
	EXPECT_OK(kill(pid, SIGKILL));
	int status = wait_status(pid);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	close(p[1]);
}

TEST(kill_errors)
{
	EXPECT_ERR(EINVAL, kill(getpid(), 65));
	EXPECT_ERR(EINVAL, kill(getpid(), -1));
	EXPECT_OK(kill(getpid(), 0));
	pid_t pid = xfork();
	if (pid == 0)
		_exit(0);
	wait_status(pid);
	EXPECT_ERR(ESRCH, kill(pid, 0));	/* reaped: gone */
	EXPECT_ERR(EINVAL, syscall(SYS_tgkill, getpid(), 0, SIGUSR1));
	EXPECT_ERR(EINVAL, syscall(SYS_tgkill, 0, gettid(), SIGUSR1));
	EXPECT_ERR(ESRCH, syscall(SYS_tgkill, getpid() + 100000, gettid(), SIGUSR1));
	EXPECT_ERR(EINVAL, syscall(SYS_tkill, gettid(), 99));
}

static volatile pid_t thread_tid, handler_tid;
static volatile bool thread_may_exit;

static void
record_tid(int sig, siginfo_t *info, void *uc)
{
	(void)sig, (void)info, (void)uc;
	handler_tid = gettid();
	handled++;
}

static void *
idle_thread(void *arg)
{
	(void)arg;
	thread_tid = gettid();
	while (!thread_may_exit)
		usleep(1000);
	return NULL;
}

/* A thread that idles until thread_may_exit, with SIGUSR1 recorded by record_tid; its id is thread_tid. */
static void
start_idle_thread(pthread_t *t)
{
	set_handler(SIGUSR1, record_tid, 0);
	if (pthread_create(t, NULL, idle_thread, NULL))
		fail("pthread_create failed");
	while (!thread_tid)
		usleep(1000);
}

TEST(tgkill_reaches_that_thread)
{
	pthread_t t;

	start_idle_thread(&t);
	CHECK(thread_tid != gettid());
	EXPECT_OK(syscall(SYS_tgkill, getpid(), thread_tid, SIGUSR1));
	wait_handled(1, "tgkill");
	CHECK(handler_tid == thread_tid);
	EXPECT_OK(pthread_kill(pthread_self(), SIGUSR1));
	CHECK(handled == 2);
	CHECK(handler_tid == gettid());
	thread_may_exit = true;
	pthread_join(t, NULL);
}

/* A process signal goes to a thread that does not block it. */
TEST(process_signal_to_unblocking_thread)
{
	pthread_t t;

	start_idle_thread(&t);
	mask_signal(SIG_BLOCK, SIGUSR1);
	EXPECT_OK(kill(getpid(), SIGUSR1));
	wait_handled(1, "kill with the main thread blocking");
	CHECK(handler_tid == thread_tid);
	thread_may_exit = true;
	pthread_join(t, NULL);
}

static volatile pid_t child_pid_seen;
static volatile int child_code_seen, child_status_seen;

static void
record_child(int sig, siginfo_t *info, void *uc)
{
	(void)sig, (void)uc;
	child_pid_seen = info->si_pid;
	child_code_seen = info->si_code;
	child_status_seen = info->si_status;
	handled++;
}

TEST(sigchld_handler)
{
	sigset_t empty;

	set_handler(SIGCHLD, record_child, 0);
	mask_signal(SIG_BLOCK, SIGCHLD);
	pid_t pid = xfork();
	if (pid == 0)
		_exit(7);
	sigemptyset(&empty);
	while (!handled)
		sigsuspend(&empty);
	CHECK(child_pid_seen == pid);
	CHECK(child_code_seen == CLD_EXITED);
	CHECK(child_status_seen == 7);
	expect_exit(pid, 7, "the child");

	handled = 0;
	pid = xfork();
	if (pid == 0)
		sleep_forever();
	kill(pid, SIGTERM);
	while (!handled)
		sigsuspend(&empty);
	CHECK(child_code_seen == CLD_KILLED);
	CHECK(child_status_seen == SIGTERM);
	wait_status(pid);
}

/* Ignored by default: the process goes on (no job control: the stopping ones are not tried). */
TEST(default_ignored_signals)
{
	static const int sigs[] = { SIGCHLD, SIGURG, SIGWINCH, SIGCONT };

	for (unsigned i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		EXPECT_OK(kill(getpid(), sigs[i]));
	set_disposition(SIGUSR1, SIG_IGN);
	EXPECT_OK(raise(SIGUSR1));
	/* Blocked and then ignored: the pending one is thrown away. */
	mask_signal(SIG_BLOCK, SIGUSR2);
	raise(SIGUSR2);
	set_disposition(SIGUSR2, SIG_IGN);
	sigset_t pending;
	sigpending(&pending);
	CHECK(!sigismember(&pending, SIGUSR2));
}

static void
write_to_closed_pipe(void)
{
	int p[2];

	pipe(p);
	close(p[0]);
	write(p[1], "x", 1);
}

TEST(sigpipe)
{
	expect_signaled(run_child(write_to_closed_pipe), SIGPIPE, "write to a pipe without readers");
	int p[2];
	EXPECT_OK(pipe(p));
	close(p[0]);
	set_disposition(SIGPIPE, SIG_IGN);
	EXPECT_ERR(EPIPE, write(p[1], "x", 1));
}

/* === signals that end the process ================================================ */

static void *
fault_in_thread(void *arg)
{
	(void)arg;
	usleep(10000);
	*(volatile int *)0 = 1;
	return NULL;
}

static void
thread_faults(void)
{
	pthread_t t;

	pthread_create(&t, NULL, fault_in_thread, NULL);
	sleep_forever();
}

TEST(segv_in_thread_kills_process)
{
	expect_signaled(run_child(thread_faults), SIGSEGV, "a thread wrote to NULL");
}

static void
fault_while_blocked(void)
{
	set_handler(SIGSEGV, count, 0);
	mask_signal(SIG_BLOCK, SIGSEGV);
	*(volatile int *)0 = 1;
}

static void
fault_in_own_handler(int sig, siginfo_t *info, void *uc)
{
	(void)sig, (void)info, (void)uc;
	*(volatile int *)0 = 2;		/* SIGSEGV is blocked in here */
}

static void
fault_while_handling(void)
{
	set_handler(SIGSEGV, fault_in_own_handler, 0);
	*(volatile int *)0 = 1;
}

static void
fault_while_ignored(void)
{
	set_disposition(SIGSEGV, SIG_IGN);
	*(volatile int *)0 = 1;
}

TEST(fault_signal_cannot_be_refused)
{
	expect_signaled(run_child(fault_while_blocked), SIGSEGV, "fault with SIGSEGV blocked");
	expect_signaled(run_child(fault_while_handling), SIGSEGV, "fault in the SIGSEGV handler");
	expect_signaled(run_child(fault_while_ignored), SIGSEGV, "fault with SIGSEGV ignored");
}

/* rt_sigreturn with rsp at an unmapped page: the frame cannot be read. */
static void
bad_sigreturn(void)
{
	__asm__ volatile("mov $16, %%rsp; mov %0, %%eax; syscall" :: "i"(SYS_rt_sigreturn));
}

/* A handler whose frame cannot be written: the stack pointer is garbage when the signal comes. */
static void
bad_frame_delivery(void)
{
	set_handler(SIGUSR1, count, 0);
	__asm__ volatile("mov %%rsp, %%r12; mov $4096, %%rsp; syscall; mov %%r12, %%rsp"
			 :: "a"(SYS_tkill), "D"(gettid()), "S"(SIGUSR1) : "r12", "rcx", "r11", "memory");
}

TEST(bad_signal_frames_kill)
{
	expect_signaled(run_child(bad_sigreturn), SIGSEGV, "rt_sigreturn with a bad frame");
	expect_signaled(run_child(bad_frame_delivery), SIGSEGV, "a signal frame on a bad stack");
}

/* A handler that returns to a non-canonical rip or rsp: the process dies, not the kernel. */
static void
noncanonical_rip(int sig, siginfo_t *info, void *ucv)
{
	(void)sig, (void)info;
	((ucontext_t *)ucv)->uc_mcontext.gregs[REG_RIP] = (greg_t)0x8000000000000000ul;
}

static void
noncanonical_rsp(int sig, siginfo_t *info, void *ucv)
{
	(void)sig, (void)info;
	((ucontext_t *)ucv)->uc_mcontext.gregs[REG_RSP] = (greg_t)0x8000000000000000ul;
}

static void
return_to_noncanonical_rip(void)
{
	set_handler(SIGUSR1, noncanonical_rip, 0);
	raise(SIGUSR1);
}

static void
return_to_noncanonical_rsp(void)
{
	set_handler(SIGUSR1, noncanonical_rsp, 0);
	raise(SIGUSR1);
}

static void
expect_segv_or_bus(int status, const char *what)
{
	if (WIFSIGNALED(status) && (WTERMSIG(status) == SIGSEGV || WTERMSIG(status) == SIGBUS))
		return;
	char how[64];
	describe_status(status, how, sizeof(how));
	fail("%s: child %s, want killed by SIGSEGV or SIGBUS", what, how);
}

TEST(sigreturn_to_noncanonical_kills)
{
	expect_segv_or_bus(run_child(return_to_noncanonical_rip), "rip 0x8000000000000000");
	expect_segv_or_bus(run_child(return_to_noncanonical_rsp), "rsp 0x8000000000000000");
}

/* === bad arguments ================================================================== */

TEST(sigaction_errors)
{
	struct sigaction sa = { .sa_handler = SIG_IGN }, old;

	EXPECT_ERR(EINVAL, sigaction(0, &sa, NULL));
	EXPECT_ERR(EINVAL, syscall(SYS_rt_sigaction, 65, NULL, &old, SIGSET_SIZE));
	EXPECT_ERR(EINVAL, sigaction(SIGKILL, &sa, NULL));
	EXPECT_ERR(EINVAL, sigaction(SIGSTOP, &sa, NULL));
	EXPECT_OK(sigaction(SIGKILL, NULL, &old));	/* reading is allowed */
	EXPECT_ERR(EINVAL, syscall(SYS_rt_sigaction, SIGUSR1, NULL, &old, 4));
	EXPECT_ERR(EFAULT, syscall(SYS_rt_sigaction, SIGUSR1, (void *)1, NULL, SIGSET_SIZE));
	EXPECT_ERR(EFAULT, syscall(SYS_rt_sigaction, SIGUSR1, NULL, (void *)1, SIGSET_SIZE));
	EXPECT_ERR(EINVAL, syscall(SYS_rt_sigprocmask, 7, &old.sa_mask, NULL, SIGSET_SIZE));
	EXPECT_ERR(EFAULT, syscall(SYS_rt_sigprocmask, SIG_BLOCK, (void *)1, NULL, SIGSET_SIZE));
	EXPECT_ERR(EINVAL, syscall(SYS_rt_sigprocmask, SIG_BLOCK, NULL, NULL, 4));
	EXPECT_ERR(EFAULT, syscall(SYS_rt_sigpending, (void *)1, SIGSET_SIZE));
	EXPECT_ERR(EFAULT, syscall(SYS_rt_sigsuspend, (void *)1, SIGSET_SIZE));
}

/* SIGKILL and SIGSTOP cannot be blocked: the kernel takes them out of any mask. */
TEST(sigkill_cannot_be_blocked)
{
	sigset_t all, now;

	sigfillset(&all);
	EXPECT_OK(syscall(SYS_rt_sigprocmask, SIG_BLOCK, &all, NULL, SIGSET_SIZE));
	EXPECT_OK(sigprocmask(SIG_BLOCK, NULL, &now));
	CHECK(!sigismember(&now, SIGKILL));
	CHECK(!sigismember(&now, SIGSTOP));
	CHECK(sigismember(&now, SIGTERM));
}

/* === /proc ========================================================================= */

static unsigned long long
status_mask(const char *text, const char *key)
{
	const char *v = find_field(text, key);

	if (!v)
		fail("/proc/self/status has no %s line", key);
	return strtoull(v, NULL, 16);
}

#define BIT(sig)	(1ull << ((sig) - 1))

TEST(status_signal_lines)
{
	char text[4096];

	set_disposition(SIGUSR1, SIG_IGN);
	set_handler(SIGUSR2, count, 0);
	mask_signal(SIG_BLOCK, SIGTERM);
	mask_signal(SIG_BLOCK, SIGHUP);
	raise(SIGTERM);			/* tkill: this thread's */
	kill(getpid(), SIGHUP);		/* the process's */
	if (read_text_file("/proc/self/status", text, sizeof(text)) < 0)
		fail("cannot read /proc/self/status: %s", errname(errno));
	CHECK(status_mask(text, "SigIgn") & BIT(SIGUSR1));
	CHECK(status_mask(text, "SigCgt") & BIT(SIGUSR2));
	CHECK(status_mask(text, "SigBlk") == (BIT(SIGTERM) | BIT(SIGHUP)));
	CHECK(status_mask(text, "SigPnd") == BIT(SIGTERM));
	CHECK(status_mask(text, "ShdPnd") == BIT(SIGHUP));
}

/* === timers ========================================================================= */

TEST(itimer_and_alarm)
{
	struct itimerval it = { .it_interval = { 1, 0 }, .it_value = { 100, 0 } }, old;

	EXPECT_OK(setitimer(ITIMER_REAL, &it, NULL));
	EXPECT_OK(getitimer(ITIMER_REAL, &old));
	CHECK(old.it_interval.tv_sec == 1 && old.it_interval.tv_usec == 0);
	CHECK(old.it_value.tv_sec >= 98 && old.it_value.tv_sec <= 100);
	CHECK(alarm(5) == 100);			/* rounded to the nearest second */
	CHECK(alarm(0) == 5);
	EXPECT_OK(getitimer(ITIMER_REAL, &old));
	CHECK(old.it_value.tv_sec == 0 && old.it_value.tv_usec == 0);
	it.it_value.tv_usec = 1000000;
	EXPECT_ERR(EINVAL, setitimer(ITIMER_REAL, &it, NULL));
	EXPECT_ERR(EINVAL, setitimer(99, &it, NULL));
	EXPECT_ERR(EFAULT, syscall(SYS_getitimer, ITIMER_REAL, (void *)1));
}

TEST(itimer_interval_repeats)
{
	struct itimerval it = { .it_interval = { 0, 5000 }, .it_value = { 0, 5000 } };

	set_handler(SIGALRM, count, SA_RESTART);
	EXPECT_OK(setitimer(ITIMER_REAL, &it, NULL));
	wait_handled(3, "a 5 ms interval timer");
	arm_timer_ms(0);
}

static void
die_by_alarm(void)
{
	alarm(1);
	sleep_forever();
}

TEST(alarm_default_kills)
{
	expect_signaled(run_child(die_by_alarm), SIGALRM, "alarm(1) without a handler");
}

int
main(int argc, char **argv)
{
	return test_run_all("signaltests", argc - 1, argv + 1, NULL);
}
