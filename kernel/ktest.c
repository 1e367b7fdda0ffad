/*
 * ktest.c - the self-test runner; see ktest.h.
 *
 * Tests run one after another on the boot CPU with interrupts on, in link
 * order. A failed check is recorded and the test goes on, so one run shows
 * every broken check; a test that faults fatally ends the run through
 * panic (which, under `ktest`, ends QEMU with a failure status).
 */
#include "kernel/ktest.h"
#include "kernel/x86/percpu.h"
#include "kernel/x86/traps.h"
#include "kernel/time/tsc.h"

extern const struct ktest __start_ktests[], __stop_ktests[];

static int failures_in_test;
static int failed_tests; /* of the last run, for the power-off's verdict */

void
ktest_fail(const char *file, int line, const char *what)
{
	pr_err("ktest:     %s:%d: check failed: %s\n", file, line, what);
	failures_in_test++;
}

int
ktest_run_all(void)
{
	int passed = 0, failed = 0;

	pr_notice("ktest: running %d self-tests\n", (int)(__stop_ktests - __start_ktests));
	for (const struct ktest *t = __start_ktests; t < __stop_ktests; t++) {
		u64 start = ns_since_boot();
		failures_in_test = 0;
		t->fn();
		u64 us = (ns_since_boot() - start) / 1000;
		if (failures_in_test) {
			pr_notice("ktest: FAIL %s (%lu us)\n", t->name, us);
			failed++;
		} else {
			pr_notice("ktest: ok   %s (%lu us)\n", t->name, us);
			passed++;
		}
	}
	pr_notice("ktest: %d passed, %d failed\n", passed, failed);
	failed_tests = failed;
	return failed;
}

int
ktest_failed_count(void)
{
	return failed_tests;
}

bool
ktest_call_expecting_trap(unsigned vector, void (*fn)(void), struct expected_trap *e)
{
	*e = (struct expected_trap){ .vector = vector };
	expect_trap(e);
	/*
	 * Save the callee-saved registers (fn may have changed them when the
	 * trap abandons it), then record where to resume - just after the
	 * call - and the stack pointer to resume with.
	 */
	__asm__ __volatile__(
		"pushq %%rbx\n\t"
		"pushq %%rbp\n\t"
		"pushq %%r12\n\t"
		"pushq %%r13\n\t"
		"pushq %%r14\n\t"
		"pushq %%r15\n\t"
		"leaq 1f(%%rip), %%rax\n\t"
		"movq %%rax, %c[resume](%[e])\n\t"
		"movq %%rsp, %c[rsp](%[e])\n\t"
		"call *%[fn]\n"
		"1:\n\t"
		"popq %%r15\n\t"
		"popq %%r14\n\t"
		"popq %%r13\n\t"
		"popq %%r12\n\t"
		"popq %%rbp\n\t"
		"popq %%rbx\n\t"
		:
		: [e] "r"(e), [fn] "r"(fn), [resume] "i"(offsetof(struct expected_trap, resume)),
		  [rsp] "i"(offsetof(struct expected_trap, resume_rsp))
		: "rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "memory", "cc");
	this_cpu()->expected_trap = NULL;
	return e->hit;
}
