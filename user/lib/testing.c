/*
 * testing.c - see testing.h.
 */
#define _GNU_SOURCE
#include "lib/testing.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int test_report_fd = 2;

extern const struct test __start_tests[], __stop_tests[];

/* --- reporting ------------------------------------------------------------ */

const char *
errname(int e)
{
	static const char *const names[] = {
		[EPERM] = "EPERM",
		[ENOENT] = "ENOENT",
		[ESRCH] = "ESRCH",
		[EINTR] = "EINTR",
		[EIO] = "EIO",
		[E2BIG] = "E2BIG",
		[ENOEXEC] = "ENOEXEC",
		[EBADF] = "EBADF",
		[ECHILD] = "ECHILD",
		[EAGAIN] = "EAGAIN",
		[ENOMEM] = "ENOMEM",
		[EACCES] = "EACCES",
		[EFAULT] = "EFAULT",
		[EBUSY] = "EBUSY",
		[EEXIST] = "EEXIST",
		[ENODEV] = "ENODEV",
		[ENOTDIR] = "ENOTDIR",
		[EISDIR] = "EISDIR",
		[EINVAL] = "EINVAL",
		[ENFILE] = "ENFILE",
		[EMFILE] = "EMFILE",
		[ENOTTY] = "ENOTTY",
		[ETXTBSY] = "ETXTBSY",
		[EFBIG] = "EFBIG",
		[ENOSPC] = "ENOSPC",
		[ESPIPE] = "ESPIPE",
		[EPIPE] = "EPIPE",
		[ERANGE] = "ERANGE",
		[EDEADLK] = "EDEADLK",
		[ENAMETOOLONG] = "ENAMETOOLONG",
		[ENOSYS] = "ENOSYS",
		[ENOTEMPTY] = "ENOTEMPTY",
		[ELOOP] = "ELOOP",
		[ENOMSG] = "ENOMSG",
		[EIDRM] = "EIDRM",
		[EOVERFLOW] = "EOVERFLOW",
		[ETIMEDOUT] = "ETIMEDOUT",
	};
	static char bufs[4][32];
	static unsigned next;
	/* Atomic, so that threads failing at once do not share a buffer. */
	char *buf = bufs[__atomic_fetch_add(&next, 1, __ATOMIC_RELAXED) % 4];

	if (e > 0 && (size_t)e < sizeof(names) / sizeof(names[0]) && names[e])
		snprintf(buf, sizeof(bufs[0]), "%s (%d)", names[e], e);
	else
		snprintf(buf, sizeof(bufs[0]), "errno %d", e);
	return buf;
}

/*
 * One write of the whole line, then _exit: exit_group, so a test ends at
 * once even when the caller is one of several threads.
 */
static void __attribute__((noreturn)) report(int code, const char *fmt, va_list ap)
{
	char msg[600];
	int len = vsnprintf(msg, sizeof(msg) - 1, fmt, ap);

	if (len > (int)sizeof(msg) - 2)
		len = sizeof(msg) - 2;
	msg[len++] = '\n';
	write(test_report_fd, msg, len);
	_exit(code);
}

void
fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(1, fmt, ap);
}

void
skip(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(EXIT_SKIP, fmt, ap);
}

void
check_err(long ret, int want, const char *what, int line)
{
	int got = errno;

	if (ret != -1)
		fail("line %d: %s returned %ld, want %s", line, what, ret, errname(want));
	if (got != want)
		fail("line %d: %s failed with %s, want %s", line, what, errname(got),
		     errname(want));
}

long
check_ok(long ret, const char *what, int line)
{
	if (ret == -1)
		fail("line %d: %s failed with %s", line, what, errname(errno));
	return ret;
}

/* --- processes, time, memory ---------------------------------------------- */

pid_t
xfork(void)
{
	pid_t pid = fork();

	if (pid < 0)
		fail("fork failed with %s", errname(errno));
	return pid;
}

int
wait_status(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			fail("waitpid(%d) failed with %s", pid, errname(errno));
	return status;
}

void
describe_status(int status, char *buf, size_t size)
{
	if (WIFSIGNALED(status))
		snprintf(buf, size, "killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(buf, size, "exited with %d", WEXITSTATUS(status));
}

void
expect_exited(int status, int code, const char *what)
{
	char how[64];

	if (WIFEXITED(status) && WEXITSTATUS(status) == code)
		return;
	describe_status(status, how, sizeof(how));
	fail("%s: child %s, want exit %d", what, how, code);
}

void
expect_signaled(int status, int sig, const char *what)
{
	char how[64];

	if (WIFSIGNALED(status) && WTERMSIG(status) == sig)
		return;
	describe_status(status, how, sizeof(how));
	fail("%s: child %s, want killed by %s", what, how, strsignal(sig));
}

void
expect_exit(pid_t pid, int code, const char *what)
{
	expect_exited(wait_status(pid), code, what);
}

void
expect_killed(void (*fn)(void), int sig, const char *what)
{
	pid_t pid = xfork();

	if (pid == 0) {
		fn();
		_exit(0);
	}
	expect_signaled(wait_status(pid), sig, what);
}

/* The state letter of /proc/<pid>/stat (after the last ')', which ends the name); 0 if unreadable. */
static char
proc_state_of(pid_t pid)
{
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	char *paren = strrchr(buf, ')');
	return paren && paren[1] == ' ' ? paren[2] : 0;
}

void
wait_until_asleep(pid_t pid)
{
	long long give_up = mono_ns() + 60 * 1000000000LL;
	struct timespec nap = { 0, 1000000 };

	while (proc_state_of(pid) != 'S') {
		if (mono_ns() > give_up)
			fail("process %d never went to sleep (state '%c')", (int)pid,
			     proc_state_of(pid));
		nanosleep(&nap, NULL);
	}
}

bool
on_rewind(void)
{
	return access("/proc/sys/rewind", F_OK) == 0;
}

long long
mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void *
map_anon(size_t len, int prot)
{
	void *p = mmap(NULL, len, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		fail("mmap of %zu anonymous bytes failed with %s", len, errname(errno));
	return p;
}

/* --- the runner ----------------------------------------------------------- */

/* Reads what the test child (and its helpers) reported, as one line. */
static void
read_report(int fd, char *msg, size_t size)
{
	char raw[1024];
	size_t len = 0, out = 0;
	ssize_t n;

	while (len + 1 < sizeof(raw) && (n = read(fd, raw + len, sizeof(raw) - 1 - len)) > 0)
		len += n;
	while (len && raw[len - 1] == '\n')
		len--;
	for (size_t i = 0; i < len && out + 3 < size; i++) {
		if (raw[i] == '\n') {
			msg[out++] = ';';
			msg[out++] = ' ';
		} else {
			msg[out++] = raw[i];
		}
	}
	msg[out] = '\0';
}

enum result { PASSED, FAILED, SKIPPED };

static enum result
run_test(const struct test *t, const struct test_hooks *hooks)
{
	char msg[1024], how[64];
	int p[2], status;
	pid_t pid;

	if (hooks->prepare && !hooks->prepare(t->name, msg, sizeof(msg))) {
		printf("FAIL %s: %s\n", t->name, msg);
		return FAILED;
	}
	if (pipe2(p, O_CLOEXEC) < 0) {
		printf("FAIL %s: cannot set up: %s\n", t->name, strerror(errno));
		return FAILED;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		test_report_fd = p[1];
		if (hooks->enter)
			hooks->enter(t->name);
		t->fn();
		_exit(0);
	}
	close(p[1]);
	if (pid < 0) {
		close(p[0]);
		printf("FAIL %s: fork: %s\n", t->name, strerror(errno));
		return FAILED;
	}
	status = wait_status(pid);
	/* A grandchild may still hold the pipe: read what is there, do not wait for EOF. */
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	read_report(p[0], msg, sizeof(msg));
	close(p[0]);
	if (hooks->finish)
		hooks->finish(t->name);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		printf("ok %s\n", t->name);
		return PASSED;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == EXIT_SKIP) {
		printf("skip %s: %s\n", t->name, msg);
		return SKIPPED;
	}
	describe_status(status, how, sizeof(how));
	if (WIFSIGNALED(status))
		printf("FAIL %s: crashed (%s)%s%s\n", t->name, how, *msg ? ": " : "", msg);
	else if (*msg)
		printf("FAIL %s: %s\n", t->name, msg);
	else
		printf("FAIL %s: %s\n", t->name, how);
	return FAILED;
}

static int
by_place(const void *a, const void *b)
{
	const struct test *x = *(const struct test *const *)a, *y = *(const struct test *const *)b;
	int files = strcmp(x->file, y->file);

	return files ? files : x->line - y->line;
}

static bool
selected(const struct test *t, int nargs, char **args)
{
	if (nargs == 0)
		return true;
	for (int i = 0; i < nargs; i++)
		if (!strncmp(t->name, args[i], strlen(args[i])))
			return true;
	return false;
}

int
test_run_all(const char *suite, int nargs, char **args, const struct test_hooks *hooks)
{
	static const struct test_hooks none;
	int counts[3] = { 0, 0, 0 }, run = 0;
	size_t ntests = __stop_tests - __start_tests;
	const struct test *tests[ntests + 1];

	for (size_t i = 0; i < ntests; i++)
		tests[i] = &__start_tests[i];
	qsort(tests, ntests, sizeof(tests[0]), by_place);
	for (size_t i = 0; i < ntests; i++) {
		if (!selected(tests[i], nargs, args))
			continue;
		counts[run_test(tests[i], hooks ? hooks : &none)]++;
		run++;
	}
	if (!run) {
		printf("%s: no test name starts with the given words\n", suite);
		counts[FAILED]++;
	}
	printf("%s: %d passed, %d failed\n", suite, counts[PASSED], counts[FAILED]);
	fflush(stdout);
	return counts[FAILED] ? 1 : 0;
}
