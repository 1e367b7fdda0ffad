/*
 * unit.h - the host unit-test harness.
 *
 * A test program is one file, tests/unit/test_<thing>.c, that #includes the
 * kernel .c files it exercises (they compile unchanged with -DHOSTED) and
 * defines tests with UNIT_TEST(name) { ... CHECK(...); ... }. The harness
 * runs them all, prints one line per test and then "N passed, N failed",
 * and exits non-zero on any failure. tools/run-unit-tests adds the counts
 * of all the programs up.
 *
 * printk is replaced by a version that keeps the lines it is given (so tests
 * can assert on warnings: unit_logged) and prints them only with
 * UNIT_VERBOSE=1.
 * panic() longjmps back into unit_panics(), so tests can assert that bad
 * input is caught; a panic outside unit_panics() aborts the program.
 * Every test starts on the harness's CPU 0: the GS base points at a struct
 * cpu (percpu.h), for the kernel code that keeps per-CPU state (the page
 * allocator's lists); a test may point it at CPUs of its own.
 */
#ifndef REWIND_UNIT_H
#define REWIND_UNIT_H

#include <asm/prctl.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "kernel/lib/types.h"
#include "kernel/x86/percpu.h"

struct unit_test {
	const char *name;
	void (*fn)(void);
};

#define UNIT_TEST(fn_)                                                   \
	static void fn_(void);                                           \
	static const struct unit_test unit_##fn_ __section("unit_tests") \
		__used __aligned(8) = { #fn_, fn_ };                     \
	static void fn_(void)

extern const struct unit_test __start_unit_tests[], __stop_unit_tests[];

static int unit_failures_in_test __attribute__((unused)); /* unused in a hosted benchmark */

#define CHECK(cond)                                                                         \
	do {                                                                                \
		if (!(cond)) {                                                              \
			printf("    %s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
			unit_failures_in_test++;                                            \
		}                                                                           \
	} while (0)

#define CHECK_EQ(a, b)                                                                         \
	do {                                                                                   \
		long long a_ = (long long)(a), b_ = (long long)(b);                            \
		if (a_ != b_) {                                                                \
			printf("    %s:%d: CHECK_EQ(%s, %s) failed: %lld != %lld\n", __FILE__, \
			       __LINE__, #a, #b, a_, b_);                                      \
			unit_failures_in_test++;                                               \
		}                                                                              \
	} while (0)

#define CHECK_STR(a, b)                                                                   \
	do {                                                                              \
		const char *a_ = (a), *b_ = (b);                                          \
		if (!a_ || !b_ || strcmp(a_, b_) != 0) {                                  \
			printf("    %s:%d: CHECK_STR(%s, %s) failed: \"%s\" != \"%s\"\n", \
			       __FILE__, __LINE__, #a, #b, a_ ? a_ : "(null)",            \
			       b_ ? b_ : "(null)");                                       \
			unit_failures_in_test++;                                          \
		}                                                                         \
	} while (0)

/* A small deterministic generator (xorshift64): a failing run can be repeated. */
static u64 rng_state __attribute__((unused)) = 0x2545f4914f6cdd1dull;

static inline u64
rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* ---- the kernel's printk, hosted ---------------------------------------- */

/*
 * Every line is kept, so that tests can assert on what the code reports:
 * unit_last_log is the last line, unit_log the lines since unit_log_clear()
 * (as many as fit), unit_log_count how many there were and unit_log_level
 * the last one's level.
 */
static char unit_last_log[1024];
static char unit_log[32768];
static size_t unit_log_len;
static int unit_log_count, unit_log_level = -1;

#include "kernel/printk.h"
#include "kernel/lib/vsprintf.c"

void
vprintk(int level, const char *fmt, va_list ap)
{
	size_t n;

	kvsnprintf(unit_last_log, sizeof(unit_last_log), fmt, ap);
	unit_log_count++;
	unit_log_level = level;
	n = strlen(unit_last_log);
	if (unit_log_len + n < sizeof(unit_log)) {
		memcpy(unit_log + unit_log_len, unit_last_log, n + 1);
		unit_log_len += n;
	}
	if (getenv("UNIT_VERBOSE"))
		printf("    printk(%d): %s", level, unit_last_log);
}

void
printk(int level, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vprintk(level, fmt, ap);
	va_end(ap);
}

static void __attribute__((unused)) unit_log_clear(void)
{
	unit_log[0] = '\0';
	unit_log_len = 0;
	unit_log_count = 0;
	unit_log_level = -1;
	unit_last_log[0] = '\0';
}

/* Whether the lines since unit_log_clear() hold the formatted text; if not, they are shown. */
static bool __printf(1, 2) __attribute__((unused)) unit_logged(const char *fmt, ...)
{
	char want[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(want, sizeof(want), fmt, ap);
	va_end(ap);
	if (strstr(unit_log, want))
		return true;
	printf("    not in the log: \"%s\"; the log:\n%s", want, unit_log);
	return false;
}

/* Hosted, no message is rate-limited: a test sees every line its code prints. */
__attribute__((weak)) bool
ratelimit_allow(struct ratelimit *rl, unsigned *dropped)
{
	(void)rl;
	*dropped = 0;
	return true;
}

/* ---- the kernel's panic, hosted ------------------------------------------ */

static jmp_buf *unit_panic_jmp;
static char unit_panic_msg[256];

void panic(const char *fmt, ...) __attribute__((noreturn));
void
panic(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(unit_panic_msg, sizeof(unit_panic_msg), fmt, ap);
	va_end(ap);
	if (!unit_panic_jmp) {
		printf("    unexpected panic: %s\n", unit_panic_msg);
		fflush(stdout);
		abort();
	}
	longjmp(*unit_panic_jmp, 1);
}

/* Whether fn panics (the message is then in unit_panic_msg). */
static inline bool
unit_panics(void (*fn)(void))
{
	jmp_buf env;

	unit_panic_msg[0] = '\0';
	unit_panic_jmp = &env;
	if (setjmp(env)) {
		unit_panic_jmp = NULL;
		return true;
	}
	fn();
	unit_panic_jmp = NULL;
	return false;
}

/* ---- this CPU, hosted ------------------------------------------------------ */

static struct cpu unit_cpus[4] __attribute__((unused));

/* Runs the calling thread on the harness's CPU id from here on (this_cpu()). */
static void __attribute__((unused)) unit_run_on_cpu(u32 id)
{
	unit_cpus[id].self = &unit_cpus[id];
	unit_cpus[id].id = id;
	if (syscall(SYS_arch_prctl, ARCH_SET_GS, &unit_cpus[id]) != 0)
		abort();
}

/* A hosted benchmark that borrows a test world (fs_host.h) brings its own main. */
#ifndef UNIT_NO_MAIN
int
main(int argc, char **argv)
{
	int passed = 0, failed = 0;
	const char *prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];

	for (const struct unit_test *t = __start_unit_tests; t < __stop_unit_tests; t++) {
		unit_failures_in_test = 0;
		unit_run_on_cpu(0);
		t->fn();
		if (unit_failures_in_test) {
			printf("FAIL %s.%s\n", prog, t->name);
			failed++;
		} else {
			printf("ok   %s.%s\n", prog, t->name);
			passed++;
		}
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
#endif

#endif
