/*
 * testing.h - the harness shared by rewind's user-space test programs
 * (usertests, pthreadtests): tests that register themselves, one forked
 * child per test, failure reasons through a pipe, and the output format
 * the boot tests parse:
 *
 *	ok fork_wait
 *	FAIL pipe_eof: line 812: read(p[0], buf, 1) failed with EBADF (9), want 0
 *	skip knobs: no /proc/sys/rewind (not running on rewind)
 *	usertests: 97 passed, 1 failed
 *
 * A test is a function that returns to pass; a failed check ends the whole
 * test process (from any of its threads) with one line of reason. Because
 * each test is its own process, a crash, a leaked fd or a stray thread in
 * one test cannot hurt the next: the runner sees a crash as "FAIL NAME:
 * crashed (...)". A skipped test counts as neither passed nor failed.
 *
 * The words are the kernel's and the host unit tests' (kernel/ktest.h,
 * tests/unit/unit.h), where they mean the same; which to use when:
 *
 *	CHECK(cond)		a condition; the failure quotes it
 *	CHECK_EQ(a, b)		a value; the failure gives both values
 *	CHECK_OK(call)		a system call that must succeed (not return -1);
 *				returns its value; the failure names errno
 *	CHECK_ERR(err, call)	a system call that must fail with errno err
 *	expect_exited() ...	how a child must end (the helpers below)
 *	fail(fmt, ...)		a failure no check can word: a reason in
 *				prose with the figures that explain it
 *	skip(fmt, ...)		the test does not apply here (no such
 *				interface, not on rewind): no CHECK says that
 *
 * Unlike the kernel's, a failed check here ends the test: what follows it
 * usually needs what it checked.
 */
#ifndef USER_TESTING_H
#define USER_TESTING_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define EXIT_SKIP 77 /* a test child's "skipped" */

struct test {
	const char *name;
	void (*fn)(void);
	const char *file; /* tests run file by file, by name, */
	int line;	  /* each file's in the order of its lines */
};

/*
 * Tests register themselves in a linker section; the compiler may emit
 * them in any order, so the runner sorts them by file and line.
 */
#define TEST(name)                                                                            \
	static void test_##name(void);                                                        \
	static const struct test testrec_##name                                               \
		__attribute__((used, section("tests"), aligned(8))) = { #name, test_##name,   \
									__FILE__, __LINE__ }; \
	static void test_##name(void)

/* Where fail() and skip() write: the runner's pipe in a test child, else stderr. */
extern int test_report_fd;

/* Ends the test (or the helper process it runs in) as failed, with a reason. */
void fail(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
/* Ends the test as skipped, with a reason. */
void skip(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

#define CHECK(cond)                                           \
	do {                                                  \
		if (!(cond))                                  \
			fail("line %d: %s", __LINE__, #cond); \
	} while (0)

/*
 * a == b, compared in the type C's == would use (that of 0 ? a : b), each
 * evaluated once; a failure prints both as integers, b the one wanted.
 */
#define CHECK_EQ(a, b)                                                               \
	do {                                                                         \
		__typeof__(0 ? (a) : (b)) check_a_ = (a), check_b_ = (b);            \
		if (!(check_a_ == check_b_))                                         \
			fail("line %d: %s == %s: %lld, want %lld", __LINE__, #a, #b, \
			     (long long)check_a_, (long long)check_b_);              \
	} while (0)

/* call must fail with errno err; the text of call is the failure message. */
#define CHECK_ERR(err, call) check_err((long)(call), (err), #call, __LINE__)
/* call must succeed (not return -1); its value is returned. */
#define CHECK_OK(call) check_ok((long)(call), #call, __LINE__)

void check_err(long ret, int want, const char *what, int line);
long check_ok(long ret, const char *what, int line);

/* "EBADF (9)": the symbolic name where known; a few buffers in turn, so one message can name two. */
const char *errname(int e);

/* fork(), failing the test if it fails. */
pid_t xfork(void);
/* waitpid(pid) retried over EINTR; the wait status. */
int wait_status(pid_t pid);
/* "exited with 3" or "killed by signal 11 (...)". */
void describe_status(int status, char *buf, size_t size);
/* Fails the test unless a child's wait status is an exit with code. */
void expect_exited(int status, int code, const char *what);
/* Fails the test unless a child's wait status is death by signal sig. */
void expect_signaled(int status, int sig, const char *what);
/* Waits for child pid and fails the test unless it exited with code. */
void expect_exit(pid_t pid, int code, const char *what);
/* Runs fn in a child and fails the test unless the child is killed by signal sig. */
void expect_killed(void (*fn)(void), int sig, const char *what);
/*
 * Waits until process pid sleeps (state S in /proc/<pid>/stat), for a test
 * whose next step needs the child blocked in a call: a fixed nap is not
 * enough on a loaded host. Fails after 60 s, a hang guard only.
 */
void wait_until_asleep(pid_t pid);

/* Whether this runs on rewind (its knob directory exists), for tests of rewind's own interfaces. */
bool on_rewind(void);
/* CLOCK_MONOTONIC in ns. */
long long mono_ns(void);
/* A private anonymous mapping, failing the test if mmap fails. */
void *map_anon(size_t len, int prot);

/* What a program adds around each test; any hook may be NULL. */
struct test_hooks {
	/* In the runner, before the test's child starts; false fails the test with why. */
	bool (*prepare)(const char *test, char *why, size_t size);
	/* In the test's child, before the test function. */
	void (*enter)(const char *test);
	/* In the runner, once the test's child has ended. */
	void (*finish)(const char *test);
};

/*
 * Runs every registered test whose name starts with one of args[0..nargs)
 * (all of them when nargs is 0), prints one line per test and the summary
 * "SUITE: N passed, N failed"; returns the exit status for main (0 only if
 * nothing failed).
 */
int test_run_all(const char *suite, int nargs, char **args, const struct test_hooks *hooks);

#endif
