/*
 * faults.c - usertests: a process that faults (bad address, no-exec page,
 * ud2, division by zero, privileged instruction, int3, endless recursion)
 * dies by Linux's signal for it, and the kernel goes on; and an instruction
 * that may fault but need not (a user-mode iretq) runs.
 */
#include "usertests.h"

#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

static void
fault_null(void)
{
	*(volatile int *)0 = 1;
}

static void
fault_kernel(void)
{
	(void)*(volatile int *)0xffffffff80000000UL;
}

static void
fault_noncanonical(void)
{
	(void)*(volatile int *)0x0000800000000000UL; /* #GP, not #PF */
}

static void
fault_readonly(void)
{
	char *p = map_anon(PAGE, PROT_READ);

	*(volatile char *)p = 1;
}

static void
fault_nx(void)
{
	unsigned char *p = map_anon(PAGE, PROT_READ | PROT_WRITE);

	p[0] = 0xc3; /* ret, in a page without PROT_EXEC */
	((void (*)(void))p)();
}

static void
fault_ud2(void)
{
	__asm__ volatile("ud2");
}

static void
fault_div0(void)
{
	/* In assembly: the compiler turns a C 1/x into compares. */
	__asm__ volatile("mov $1, %%eax; xor %%edx, %%edx; divl %0" : : "r"(0) : "eax", "edx");
}

static void
fault_privileged(void)
{
	__asm__ volatile("hlt"); /* ring 0 only: #GP */
}

static void
fault_int3(void)
{
	__asm__ volatile("int3");
}

static volatile int bottomless = 1; /* hides the endlessness from the compiler */

static int
recurse(int depth)
{
	volatile char frame[4096];

	frame[0] = (char)depth;
	return bottomless ? recurse(depth + 1) + frame[0] : 0;
}

static void
fault_stack_overflow(void)
{
	recurse(0);
}

TEST(fault_null)
{
	expect_killed(fault_null, SIGSEGV, "write to NULL");
}
TEST(fault_kernel_addr)
{
	expect_killed(fault_kernel, SIGSEGV, "read of kernel text");
}
TEST(fault_noncanonical)
{
	expect_killed(fault_noncanonical, SIGSEGV, "non-canonical read");
}
TEST(fault_readonly)
{
	expect_killed(fault_readonly, SIGSEGV, "write to PROT_READ page");
}
TEST(fault_nx)
{
	expect_killed(fault_nx, SIGSEGV, "jump to non-exec page");
}
TEST(fault_ud2)
{
	expect_killed(fault_ud2, SIGILL, "ud2");
}
TEST(fault_div0)
{
	expect_killed(fault_div0, SIGFPE, "division by zero");
}
TEST(fault_privileged)
{
	expect_killed(fault_privileged, SIGSEGV, "hlt in user mode");
}
TEST(fault_int3)
{
	expect_killed(fault_int3, SIGTRAP, "int3");
}
TEST(fault_stack_overflow)
{
	expect_killed(fault_stack_overflow, SIGSEGV, "endless recursion");
}

/*
 * iretq to the next instruction with the program's own cs and ss, a new rsp
 * and the carry flag set: what a CPU does in ring 3. Returns the carry
 * flag and the stack pointer seen after it.
 */
static void
own_iretq(uint64_t *carry, uint64_t *rsp_after)
{
	uint64_t cs, ss;

	__asm__ volatile("mov %%cs, %0; mov %%ss, %1" : "=r"(cs), "=r"(ss));
	__asm__ volatile(
		"sub $128, %%rsp\n\t" /* past the red zone */
		"mov %%rsp, %%rax\n\t"
		"sub $64, %%rax\n\t" /* the rsp iretq loads */
		"push %[ss]\n\t"
		"push %%rax\n\t"
		"pushfq\n\t"
		"orq $1, (%%rsp)\n\t" /* CF */
		"push %[cs]\n\t"
		"lea 1f(%%rip), %%rax\n\t"
		"push %%rax\n\t"
		"iretq\n"
		"1:\n\t"
		"setc %%al\n\t"
		"movzbq %%al, %[carry]\n\t"
		"mov %%rsp, %[after]\n\t"
		"add $192, %%rsp" /* back where it began */
		: [carry] "=r"(*carry), [after] "=r"(*rsp_after)
		: [cs] "r"(cs), [ss] "r"(ss)
		: "rax", "memory", "cc");
}

/* A hang here (rewind under QEMU re-faulted the iretq forever) ends by the alarm. */
TEST(user_mode_iretq_returns)
{
	pid_t child = xfork();

	if (child == 0) {
		alarm(20);
		for (int i = 0; i < 3; i++) {
			uint64_t carry, rsp;
			uint64_t before = (uint64_t)__builtin_frame_address(0);
			own_iretq(&carry, &rsp);
			if (carry != 1 || rsp >= before)
				_exit(1);
		}
		_exit(0);
	}
	expect_exited(wait_status(child), 0, "three iretq to their own code");
}
