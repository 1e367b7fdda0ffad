/*
 * test_traps.c - self-tests of the exception and interrupt paths: the IDT
 * stubs (with and without CPU error codes), the exception table, the
 * symbol table and backtraces, and interrupt delivery through the LAPIC.
 */
#include "kernel/backtrace.h"
#include "kernel/x86/irq.h"
#include "kernel/ksyms.h"
#include "kernel/ktest.h"
#include "kernel/x86/paravirt.h"
#include "kernel/x86/percpu.h"
#include "kernel/lib/string.h"
#include "kernel/x86/traps.h"
#include "kernel/time/tsc.h"
#include "drivers/lapic.h"
#include "mm/extable.h"
#include "mm/kmalloc.h"

static void
do_ud2(void)
{
	__asm__ __volatile__("ud2");
}

static void
do_divide_by_zero(void)
{
	__asm__ __volatile__("xorl %%ecx, %%ecx; divl %%ecx" ::: "eax", "ecx", "edx");
}

static void
do_bad_segment_load(void)
{
	/* Selector 0x3ff8 is far past the GDT's limit: #GP with that selector as error code. */
	__asm__ __volatile__("movl $0x3ff8, %%eax; movl %%eax, %%fs" ::: "eax");
}

KTEST(exceptions_without_error_code_resume)
{
	struct expected_trap e;

	CHECK(ktest_call_expecting_trap(VEC_INVALID_OPCODE, do_ud2, &e));
	CHECK_EQ(e.error, 0);
	CHECK(ksym_lookup(e.rip, NULL, NULL) &&
	      strcmp(ksym_lookup(e.rip, NULL, NULL), "do_ud2") == 0);
	CHECK(ktest_call_expecting_trap(VEC_DIVIDE, do_divide_by_zero, &e));
}

KTEST(exception_error_code_reaches_the_handler)
{
	struct expected_trap e;

	CHECK(ktest_call_expecting_trap(VEC_GENERAL_PROTECTION, do_bad_segment_load, &e));
	CHECK_EQ(e.error, 0x3ff8);
}

KTEST(exception_table_turns_faults_into_efault)
{
	u64 v = 1;

	CHECK_EQ(probe_read_u64(NULL, &v), -14); /* #PF, unmapped */
	CHECK_EQ(v, 0);
	CHECK_EQ(probe_read_u64((void *)0x0000800000000000ul, &v), -14); /* #GP, non-canonical */
	CHECK_EQ(probe_write_u64((void *)0xfffffffffffff000ul, 1), -14);
	CHECK_EQ(probe_read_u64(&v, &v), 0);
}

static __attribute__((noinline)) u64
leaf_collecting_backtrace(u64 *pcs, int *n)
{
	*n = backtrace_collect((u64)__builtin_return_address(0), 0, current_rbp(), pcs,
			       BACKTRACE_MAX);
	return pcs[0];
}

KTEST(symbols_and_backtraces)
{
	u64 pcs[BACKTRACE_MAX], off, size;
	int n;

	u64 main_addr = ksym_address("kernel_main");
	CHECK(main_addr != 0);
	const char *name = ksym_lookup(main_addr + 5, &off, &size);
	CHECK(name && strcmp(name, "kernel_main") == 0);
	CHECK_EQ(off, 5);
	CHECK(size > 5);
	CHECK(ksym_lookup(0x1000, NULL, NULL) == NULL);

	leaf_collecting_backtrace(pcs, &n);
	CHECK(n >= 3); /* this test, the runner, kernel_main at least */
	bool saw_runner = false;
	for (int i = 0; i < n; i++) {
		const char *s = ksym_lookup(pcs[i] - 1, NULL, NULL);
		if (s && strcmp(s, "ktest_run_all") == 0)
			saw_runner = true;
	}
	CHECK(saw_runner);
}

static __attribute__((noinline)) u64
return_address_of_this_call(void)
{
	return (u64)__builtin_return_address(0);
}

/*
 * The profiler's walk, at an NMI that landed a few instructions into a
 * frameless function while rbp still holds someone else's frame pointer -
 * the user's, on the entry and exit paths. The frame at rbp lies outside
 * the stack and must not be read: it was, and a user rbp made the NMI take
 * a page fault (docs/profiler.md, "Faults in the NMI"). The decoy there
 * holds the same return address, which the old walk took for proof that
 * the function had its own frame, dropping the caller.
 */
KTEST(profiler_walk_reads_no_frame_outside_the_stack)
{
	u64 ret = return_address_of_this_call();
	u64 stack[8] = { ret }, pcs[4];
	u64 *decoy = kmalloc(2 * sizeof(u64)); /* direct map: below every kernel stack */

	CHECK(decoy != NULL);
	decoy[0] = 0;
	decoy[1] = ret;
	u64 rip = (u64)return_address_of_this_call + 4;
	int n = backtrace_collect_bounded(rip, (u64)stack, (u64)decoy, pcs, 4);
	kfree(decoy);
	CHECK_EQ(n, 2);
	CHECK_EQ(pcs[1], ret);
}

/*
 * A fault inside the NMI handler comes back by return_within_nmi
 * (entry_64.asm), which must resume at the fixup with the registers and
 * flags as they were: interrupts stay off, as in an NMI.
 */
KTEST(exception_inside_the_nmi_handler_resumes_without_iretq)
{
	struct cpu *c = this_cpu();
	u64 v = 1, flags = local_irq_save();

	c->in_nmi = true;
	int err = probe_read_u64(NULL, &v);
	bool irqs_on = irqs_enabled();
	int ok = probe_read_u64(&v, &v);
	c->in_nmi = false;
	local_irq_restore(flags);
	CHECK_EQ(err, -14);
	CHECK_EQ(ok, 0);
	CHECK(!irqs_on);
}

#define VEC_SELFTEST 0xf8
static volatile int selftest_irqs;

static void
count_selftest_irq(struct trap_frame *f)
{
	selftest_irqs++;
}

KTEST(self_ipi_is_delivered_and_acknowledged)
{
	irq_register(VEC_SELFTEST, count_selftest_irq, "selftest");
	for (int round = 1; round <= 3; round++) {
		lapic_send_ipi(this_cpu()->apic_id, VEC_SELFTEST);
		u64 deadline =
			rdtsc() + 20 * tsc_hz; /* a hang guard: a loaded host can stall a vCPU */
		while (selftest_irqs < round && rdtsc() < deadline)
			safe_halt();
		/* A missing EOI would block every later round. */
		CHECK_EQ(selftest_irqs, round);
	}
	CHECK_EQ(irq_count(VEC_SELFTEST), 3);
	irq_register(VEC_SELFTEST, NULL, NULL);
}
