/*
 * ktest.h - in-kernel self-tests, run at boot with the `ktest` flag.
 *
 * A test is KTEST(name) { ... CHECK(cond); ... } anywhere in the kernel
 * (tests/kernel/ by convention); it registers itself in the `ktests` linker
 * section. The runner prints one line per test, then
 * "ktest: N passed, N failed", and ends QEMU with the verdict. CHECK and
 * CHECK_EQ are the host unit tests' words too (tests/unit/unit.h): a failed
 * check is reported and the test goes on.
 */
#ifndef REWIND_KTEST_H
#define REWIND_KTEST_H

#include "kernel/lib/types.h"
#include "kernel/printk.h"

struct ktest {
	const char *name;
	void (*fn)(void);
};

#define KTEST(fn_)                                                \
	static void fn_(void);                                    \
	static const struct ktest ktest_##fn_ __section("ktests") \
		__used __aligned(8) = { #fn_, fn_ };              \
	static void fn_(void)

void ktest_fail(const char *file, int line, const char *what);

#define CHECK(cond)                                            \
	do {                                                   \
		if (!(cond))                                   \
			ktest_fail(__FILE__, __LINE__, #cond); \
	} while (0)

#define CHECK_EQ(a, b)                                                                \
	do {                                                                          \
		long long a_ = (long long)(a), b_ = (long long)(b);                   \
		if (a_ != b_) {                                                       \
			pr_err("ktest:     %s == %lld, expected %lld\n", #a, a_, b_); \
			ktest_fail(__FILE__, __LINE__, #a " == " #b);                 \
		}                                                                     \
	} while (0)

/* Runs every self-test and prints the verdict; returns the number that failed. */
int ktest_run_all(void);
/* How many failed in the run (0 if none ran): power-off under `run=` reports it. */
int ktest_failed_count(void);

struct expected_trap;
/*
 * Calls fn() expecting exception `vector` inside it; when it comes, the call
 * is abandoned and this returns true with the trap's details in *out.
 * Returns false if fn returned normally.
 */
bool ktest_call_expecting_trap(unsigned vector, void (*fn)(void), struct expected_trap *out);

#endif
