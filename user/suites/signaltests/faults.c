/*
 * faults.c - signaltests: faults turned into signals (page faults, #GP,
 * division by zero, int3, ud2) with the siginfo and trap state Linux
 * gives them, and a handler that fixes the fault and returns.
 */
#define _GNU_SOURCE
#include "signaltests.h"

#include <errno.h>
#include <sys/mman.h>

#define PF_WRITE_USER	6 /* page-fault error code: a write from user mode */
#define TRAP_PAGE_FAULT 14

TEST(segv_null_write_siginfo)
{
	set_handler(SIGSEGV, record_and_jump, 0);
	if (sigsetjmp(recover, 1) == 0) {
		*(volatile int *)0 = 1;
		fail("the write to NULL did not fault");
	}
	CHECK_EQ(handled, 1);
	CHECK_EQ(last_info.si_signo, SIGSEGV);
	CHECK_EQ(last_info.si_code, SEGV_MAPERR);
	CHECK_EQ(last_info.si_addr, NULL);
	CHECK_EQ(last_uc.uc_mcontext.gregs[REG_TRAPNO], TRAP_PAGE_FAULT);
	CHECK_EQ((last_uc.uc_mcontext.gregs[REG_ERR] & PF_WRITE_USER), PF_WRITE_USER);
	CHECK_EQ(last_uc.uc_mcontext.gregs[REG_CR2], 0);
	CHECK(!is_blocked(SIGSEGV)); /* siglongjmp restored the mask */
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
	CHECK_EQ(handled, 1);
	CHECK_EQ(last_info.si_code, SEGV_ACCERR);
	CHECK_EQ(last_info.si_addr, readonly_page + 100);
	CHECK_EQ(readonly_page[100], 42);
}

/* divl with a zero divisor at a known address. */
extern const char div_insn[];

static void
divide_by_zero(void)
{
	__asm__ volatile(
		"mov $1, %%eax; xor %%edx, %%edx\n"
		".globl div_insn\n"
		"div_insn: divl %0"
		:
		: "r"(0)
		: "eax", "edx");
}

TEST(sigfpe_intdiv)
{
	set_handler(SIGFPE, record_and_jump, 0);
	if (sigsetjmp(recover, 1) == 0) {
		divide_by_zero();
		fail("the division by zero did not fault");
	}
	CHECK_EQ(last_info.si_signo, SIGFPE);
	CHECK_EQ(last_info.si_code, FPE_INTDIV);
	CHECK_EQ(last_info.si_addr, (void *)div_insn);
	CHECK_EQ(last_uc.uc_mcontext.gregs[REG_RIP], (greg_t)div_insn);
}

extern const char after_int3[];

/* int3 traps after the instruction; Linux reports SI_KERNEL, and returning goes on. */
TEST(sigtrap_int3)
{
	set_handler(SIGTRAP, record, 0);
	__asm__ volatile("int3\n.globl after_int3\nafter_int3:");
	CHECK_EQ(handled, 1);
	CHECK_EQ(last_info.si_signo, SIGTRAP);
	CHECK_EQ(last_info.si_code, SI_KERNEL);
	CHECK_EQ(last_uc.uc_mcontext.gregs[REG_RIP], (greg_t)after_int3);
}

extern const char ud2_insn[];

TEST(sigill_ud2)
{
	set_handler(SIGILL, record_and_jump, 0);
	if (sigsetjmp(recover, 1) == 0) {
		__asm__ volatile(".globl ud2_insn\nud2_insn: ud2");
		fail("ud2 did not fault");
	}
	CHECK_EQ(last_info.si_code, ILL_ILLOPN);
	CHECK_EQ(last_info.si_addr, (void *)ud2_insn);
}

/* #GP: SIGSEGV with SI_KERNEL and no address. */
TEST(segv_general_protection)
{
	set_handler(SIGSEGV, record_and_jump, 0);
	if (sigsetjmp(recover, 1) == 0) {
		__asm__ volatile("hlt");
		fail("hlt did not fault");
	}
	CHECK_EQ(last_info.si_code, SI_KERNEL);
	CHECK_EQ(last_info.si_addr, NULL);
	CHECK_EQ(last_uc.uc_mcontext.gregs[REG_TRAPNO], 13);
}
