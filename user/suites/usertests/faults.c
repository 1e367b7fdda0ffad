/*
 * faults.c - usertests: a process that faults (bad address, no-exec page,
 * ud2, division by zero, privileged instruction, int3, endless recursion)
 * dies by Linux's signal for it, and the kernel goes on.
 */
#include "usertests.h"

#include <signal.h>
#include <sys/mman.h>

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
