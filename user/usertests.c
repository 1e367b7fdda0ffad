/*
 * usertests.c - the user-space test suite: the Linux system-call ABI as
 * rewind's user programs see it.
 *
 *	usertests [NAME-PREFIX...]     run all tests, or those whose names start so
 *
 * One line per test ("ok NAME", "FAIL NAME: why", "skip NAME: why"), then
 * the sum "usertests: N passed, N failed"; the exit status is 0 only if
 * nothing failed. The harness is lib/testing.h: each test runs in its own
 * child process, here also in a fresh empty directory under $TMPDIR
 * (default /tmp), so that a crash, a leaked fd or a stray file in one test
 * cannot hurt the next.
 *
 * The suite must pass on a Linux host as an ordinary process (that is how
 * it is checked), so every expectation is what Linux does. Tests that need
 * rewind itself (knobs, its `int 0x80` entry) detect /proc/sys/rewind and
 * are skipped elsewhere. No test depends on how fast anything is: sleeps are
 * only checked to last at least as long as asked.
 *
 * Bad input is passed with raw syscall() wherever the libc wrapper would
 * check it, change it, or crash on it first (the vDSO clock_gettime would
 * fault on a bad pointer in user mode, for instance).
 *
 * The program also runs as its own helper for the exec tests:
 * `usertests --helper NAME ARGS...` (see run_helper()).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/times.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "lib/procfile.h"
#include "lib/testing.h"

#define PAGE		4096
#define HELPER_FD_ENV	"USERTESTS_REPORT_FD"

#ifndef ARCH_SET_FS
#define ARCH_SET_FS	0x1002
#define ARCH_GET_FS	0x1003
#endif

/* Addresses no user pointer may reach: low, non-canonical, kernel direct map, kernel text. */
static const unsigned long bad_addrs[] = {
	1, 0x0000800000000000UL, 0xffff800000000000UL, 0xffffffff80000000UL,
};
#define NBAD	(sizeof(bad_addrs) / sizeof(bad_addrs[0]))

static char self_path[PATH_MAX];	/* this program, absolute, for execve */

/* --- small helpers -------------------------------------------------------- */

static int
create_file(const char *path, const void *data, size_t len, mode_t mode)
{
	int fd = EXPECT_OK(open(path, O_RDWR | O_CREAT | O_TRUNC, mode));

	if (len)
		CHECK(write(fd, data, len) == (ssize_t)len);
	return fd;
}

static void
make_file(const char *path, const void *data, size_t len)
{
	close(create_file(path, data, len, 0644));
}

static void
fill_pattern(unsigned char *p, size_t len, unsigned seed)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (unsigned char)(i * 7 + seed + (i >> 12));
}

static bool
has_pattern(const unsigned char *p, size_t len, unsigned seed)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] != (unsigned char)(i * 7 + seed + (i >> 12)))
			return false;
	return true;
}

static bool
all_bytes(const void *p, size_t len, unsigned char c)
{
	for (size_t i = 0; i < len; i++)
		if (((const unsigned char *)p)[i] != c)
			return false;
	return true;
}

static long long
cpu_ns(clockid_t clock)
{
	struct timespec ts;

	EXPECT_OK(clock_gettime(clock, &ts));
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long long
tv_us(struct timeval tv)
{
	return tv.tv_sec * 1000000LL + tv.tv_usec;
}

/*
 * Burns CPU until this process's CPU clock advanced by ns. Bounded by a
 * generous wall-clock limit so that a clock that never moves fails the test
 * instead of hanging it.
 */
static void
burn_cpu(long long ns)
{
	long long start = cpu_ns(CLOCK_PROCESS_CPUTIME_ID);
	long long deadline = mono_ns() + 30 * 1000000000LL;
	volatile unsigned long sink = 0;

	while (cpu_ns(CLOCK_PROCESS_CPUTIME_ID) - start < ns) {
		for (int i = 0; i < 100000; i++)
			sink += i;
		if (mono_ns() > deadline)
			fail("CLOCK_PROCESS_CPUTIME_ID did not advance by %lld ns in 30 s", ns);
	}
}

/* Execs this program as a helper; the helper reports failures through our report pipe. */
static void __attribute__((noreturn))
exec_helper(char *argv[])
{
	char env_fd[64];
	char *envp[] = { env_fd, "USERTESTS_MARK=exec", NULL };
	int fd = EXPECT_OK(fcntl(test_report_fd, F_DUPFD, 20));	/* without FD_CLOEXEC */

	argv[0] = self_path;
	snprintf(env_fd, sizeof(env_fd), "%s=%d", HELPER_FD_ENV, fd);
	execve(self_path, argv, envp);
	fail("execve(%s) failed with %s", self_path, errname(errno));
}

/* === processes ============================================================ */

TEST(getpid)
{
	pid_t me = getpid(), pid;
	int p[2];

	CHECK(me > 0);
	CHECK(syscall(SYS_gettid) == me);
	CHECK(syscall(SYS_set_tid_address, NULL) == me);
	CHECK(getuid() == geteuid());
	CHECK(getgid() == getegid());
	EXPECT_OK(pipe(p));
	pid = xfork();
	if (pid == 0) {
		pid_t mine = getpid();

		if (getppid() != me)
			fail("child: getppid() = %d, want %d", getppid(), me);
		write(p[1], &mine, sizeof(mine));
		_exit(0);
	}
	pid_t told;

	CHECK(read(p[0], &told, sizeof(told)) == sizeof(told));
	CHECK(told == pid);
	CHECK(pid != me);
	expect_exit(pid, 0, "getpid child");
}

TEST(fork_wait)
{
	pid_t pid = xfork();
	int status;
	struct rusage ru;

	if (pid == 0)
		_exit(42);
	CHECK(wait4(pid, &status, 0, &ru) == pid);
	CHECK(WIFEXITED(status));
	CHECK(WEXITSTATUS(status) == 42);
	EXPECT_ERR(ECHILD, wait4(pid, &status, 0, NULL));
}

TEST(fork_many)
{
	enum { N = 24 };
	pid_t pids[N];
	bool seen[N] = { false };

	for (int i = 0; i < N; i++) {
		pids[i] = xfork();
		if (pids[i] == 0)
			_exit(100 + i);
	}
	/* Reap in whatever order they end, matching pid to exit code. */
	for (int n = 0; n < N; n++) {
		int status;
		pid_t got = EXPECT_OK(wait(&status));
		int i = WEXITSTATUS(status) - 100;

		CHECK(WIFEXITED(status) && i >= 0 && i < N);
		CHECK(pids[i] == got && !seen[i]);
		seen[i] = true;
	}
	EXPECT_ERR(ECHILD, wait(NULL));
}

TEST(exit_codes)
{
	pid_t pid;

	pid = xfork();
	if (pid == 0)
		exit(256 + 3);		/* only the low 8 bits reach the parent */
	expect_exit(pid, 3, "exit(259)");
	pid = xfork();
	if (pid == 0)
		_exit(255);
	expect_exit(pid, 255, "_exit(255)");
	pid = xfork();
	if (pid == 0)
		syscall(SYS_exit, 7);	/* the one-thread exit, not exit_group */
	expect_exit(pid, 7, "SYS_exit");
	pid = xfork();
	if (pid == 0)
		syscall(SYS_exit_group, 9);
	expect_exit(pid, 9, "SYS_exit_group");
}

TEST(wait_options)
{
	int p[2], status;
	pid_t pid;
	char c = 'x';

	EXPECT_ERR(ECHILD, wait4(-1, &status, WNOHANG, NULL));
	EXPECT_ERR(ECHILD, wait4(1, &status, 0, NULL));
	EXPECT_OK(pipe(p));
	pid = xfork();
	if (pid == 0) {
		close(p[1]);
		read(p[0], &c, 1);	/* until the parent says go */
		_exit(5);
	}
	close(p[0]);
	/* The child is blocked in read(): it cannot have ended yet. */
	CHECK(wait4(pid, &status, WNOHANG, NULL) == 0);
	CHECK(wait4(-1, &status, WNOHANG, NULL) == 0);
	EXPECT_ERR(EINVAL, syscall(SYS_wait4, pid, &status, 0x1000, NULL));
	CHECK(write(p[1], &c, 1) == 1);
	expect_exit(pid, 5, "reader child");
	for (unsigned i = 0; i < NBAD; i++) {
		pid = xfork();
		if (pid == 0)
			_exit(0);
		EXPECT_ERR(EFAULT, syscall(SYS_wait4, pid, bad_addrs[i], 0, NULL));
		/* Linux reaps the child even when it cannot store the status. */
		waitpid(pid, NULL, WNOHANG);
	}
}

TEST(wait4_rusage)
{
	struct rusage ru, children;
	int status;
	pid_t pid = xfork();

	if (pid == 0) {
		burn_cpu(30 * 1000000LL);
		_exit(0);
	}
	CHECK(wait4(pid, &status, 0, &ru) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* The child ran for 30 ms of CPU time; its rusage must show some. */
	CHECK(tv_us(ru.ru_utime) + tv_us(ru.ru_stime) > 0);
	CHECK(ru.ru_utime.tv_usec < 1000000 && ru.ru_stime.tv_usec < 1000000);
	EXPECT_OK(getrusage(RUSAGE_CHILDREN, &children));
	CHECK(tv_us(children.ru_utime) + tv_us(children.ru_stime) > 0);
	for (unsigned i = 0; i < NBAD; i++)
		EXPECT_ERR(EFAULT, syscall(SYS_getrusage, RUSAGE_SELF, bad_addrs[i]));
	EXPECT_ERR(EINVAL, syscall(SYS_getrusage, 12345, &ru));
}

TEST(cpu_time)
{
	struct rusage r0, r1;
	struct tms t0, t1;
	long long p0, p1, th0, th1;

	EXPECT_OK(getrusage(RUSAGE_SELF, &r0));
	EXPECT_OK(times(&t0));
	p0 = cpu_ns(CLOCK_PROCESS_CPUTIME_ID);
	th0 = cpu_ns(CLOCK_THREAD_CPUTIME_ID);
	burn_cpu(30 * 1000000LL);
	EXPECT_OK(getrusage(RUSAGE_SELF, &r1));
	EXPECT_OK(times(&t1));
	p1 = cpu_ns(CLOCK_PROCESS_CPUTIME_ID);
	th1 = cpu_ns(CLOCK_THREAD_CPUTIME_ID);
	CHECK(p1 - p0 >= 30 * 1000000LL);
	CHECK(th1 > th0);
	CHECK(tv_us(r1.ru_utime) + tv_us(r1.ru_stime) > tv_us(r0.ru_utime) + tv_us(r0.ru_stime));
	/* 30 ms always crosses at least one 10 ms clock tick of times(). */
	CHECK(t1.tms_utime + t1.tms_stime > t0.tms_utime + t0.tms_stime);
	for (unsigned i = 0; i < NBAD; i++)
		EXPECT_ERR(EFAULT, syscall(SYS_times, bad_addrs[i]));
}

/*
 * Memory of every kind (data, bss, heap, stack, anonymous mmap) must be
 * private after fork: each side sees only its own writes.
 */
static char cow_data[PAGE] = { 1 };
static char cow_bss[3 * PAGE];

TEST(fork_cow)
{
	enum { ANON = 256 * PAGE, HEAP = 16 * PAGE, STACK = 2 * PAGE };
	unsigned char stack[STACK];
	unsigned char *heap = malloc(HEAP);
	unsigned char *anon = map_anon(ANON, PROT_READ | PROT_WRITE);
	struct { unsigned char *p; size_t len; } r[] = {
		{ (unsigned char *)cow_data, sizeof(cow_data) },
		{ (unsigned char *)cow_bss, sizeof(cow_bss) },
		{ heap, HEAP }, { stack, STACK }, { anon, ANON },
	};
	int to_child[2], to_parent[2];
	char c;
	pid_t pid;

	CHECK(heap != NULL);
	for (unsigned i = 0; i < 5; i++)
		fill_pattern(r[i].p, r[i].len, 1);
	EXPECT_OK(pipe(to_child));
	EXPECT_OK(pipe(to_parent));
	pid = xfork();
	if (pid == 0) {
		for (unsigned i = 0; i < 5; i++) {
			if (!has_pattern(r[i].p, r[i].len, 1))
				fail("child: region %u lost the parent's data", i);
			fill_pattern(r[i].p, r[i].len, 2);
		}
		write(to_parent[1], "w", 1);
		read(to_child[0], &c, 1);
		for (unsigned i = 0; i < 5; i++)
			if (!has_pattern(r[i].p, r[i].len, 2))
				fail("child: region %u sees the parent's later writes", i);
		_exit(0);
	}
	CHECK(read(to_parent[0], &c, 1) == 1);
	for (unsigned i = 0; i < 5; i++) {
		if (!has_pattern(r[i].p, r[i].len, 1))
			fail("parent: region %u sees the child's writes", i);
		fill_pattern(r[i].p, r[i].len, 3);
	}
	CHECK(write(to_child[1], "g", 1) == 1);
	expect_exit(pid, 0, "cow child");
	for (unsigned i = 0; i < 5; i++)
		CHECK(has_pattern(r[i].p, r[i].len, 3));
}

/* The kernel itself writing into a copy-on-write page (read()) must copy it too. */
TEST(fork_cow_syscall)
{
	static unsigned char buf[2 * PAGE];
	unsigned char src[2 * PAGE];
	int fd, p[2];
	char c;
	pid_t pid;

	memset(src, 'F', sizeof(src));
	make_file("f", src, sizeof(src));
	memset(buf, 'P', sizeof(buf));
	EXPECT_OK(pipe(p));
	pid = xfork();
	if (pid == 0) {
		fd = EXPECT_OK(open("f", O_RDONLY));
		CHECK(read(fd, buf + 100, PAGE) == PAGE);	/* straddles two pages */
		CHECK(all_bytes(buf + 100, PAGE, 'F'));
		write(p[1], "r", 1);
		_exit(0);
	}
	CHECK(read(p[0], &c, 1) == 1);
	expect_exit(pid, 0, "read() in child");
	CHECK(all_bytes(buf, sizeof(buf), 'P'));
}

TEST(fork_fd_sharing)
{
	int fd = create_file("f", "", 0, 0644);
	pid_t pid = xfork();

	if (pid == 0) {
		CHECK(write(fd, "child", 5) == 5);
		_exit(0);
	}
	expect_exit(pid, 0, "writer child");
	/* The open file description, and so the offset, is shared. */
	CHECK(lseek(fd, 0, SEEK_CUR) == 5);
	CHECK(write(fd, "parent", 6) == 6);
	char buf[16] = "";

	CHECK(pread(fd, buf, sizeof(buf), 0) == 11);
	CHECK(memcmp(buf, "childparent", 11) == 0);
}

/* An orphan is adopted by init (or on a Linux host, by the nearest subreaper). */
TEST(orphan)
{
	int p[2];
	pid_t middle, orphan_ppid;

	EXPECT_OK(pipe(p));
	middle = xfork();
	if (middle == 0) {
		pid_t me = getpid();

		if (xfork() == 0) {
			long long deadline = mono_ns() + 30 * 1000000000LL;
			pid_t now;

			close(p[0]);
			while ((now = getppid()) == me && mono_ns() < deadline)
				sched_yield();
			write(p[1], &now, sizeof(now));
			_exit(0);
		}
		_exit(0);
	}
	close(p[1]);
	expect_exit(middle, 0, "middle child");
	CHECK(read(p[0], &orphan_ppid, sizeof(orphan_ppid)) == sizeof(orphan_ppid));
	if (orphan_ppid == middle)
		fail("the orphan still has its dead parent %d as parent", middle);
	if (on_rewind() && orphan_ppid != 1)
		fail("the orphan's new parent is %d, want init (1)", orphan_ppid);
}

TEST(sched_yield)
{
	for (int i = 0; i < 100; i++)
		CHECK(sched_yield() == 0);
}

/* The thread pointer musl set at start-up is what the kernel has in FS. */
TEST(arch_prctl)
{
	unsigned long fs = 0, self;

	__asm__ volatile("mov %%fs:0, %0" : "=r"(self));
	EXPECT_OK(syscall(SYS_arch_prctl, ARCH_GET_FS, &fs));
	CHECK(fs == self);
	EXPECT_OK(syscall(SYS_arch_prctl, ARCH_SET_FS, self));
	errno = 0;			/* errno lives in TLS: it must still work */
	CHECK(errno == 0);
	EXPECT_ERR(EINVAL, syscall(SYS_arch_prctl, 0x9999, 0));
	EXPECT_ERR(EPERM, syscall(SYS_arch_prctl, ARCH_SET_FS, 0xffff800000000000UL));
	EXPECT_ERR(EFAULT, syscall(SYS_arch_prctl, ARCH_GET_FS, bad_addrs[2]));
}

TEST(enosys)
{
	EXPECT_ERR(ENOSYS, syscall(1000));
	EXPECT_ERR(ENOSYS, syscall(100000));
	EXPECT_ERR(ENOSYS, syscall(-1L));
}

/* rewind's `int 0x80` entry uses the x86-64 numbers (Linux's uses i386's). */
TEST(int80)
{
	long ret;

	if (!on_rewind())
		skip("int 0x80 is rewind's x86-64 trap entry only on rewind");
	__asm__ volatile("int $0x80" : "=a"(ret) : "a"((long)SYS_getpid) : "rcx", "r11", "memory");
	CHECK(ret == getpid());
	__asm__ volatile("int $0x80" : "=a"(ret) : "a"(1000L) : "rcx", "r11", "memory");
	CHECK(ret == -ENOSYS);
}

/* === faults: the process dies with Linux's signal, the kernel goes on ===== */

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
	(void)*(volatile int *)0x0000800000000000UL;	/* #GP, not #PF */
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

	p[0] = 0xc3;			/* ret, in a page without PROT_EXEC */
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
	__asm__ volatile("hlt");	/* ring 0 only: #GP */
}

static void
fault_int3(void)
{
	__asm__ volatile("int3");
}

static volatile int bottomless = 1;	/* hides the endlessness from the compiler */

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

TEST(fault_null)		{ expect_killed(fault_null, SIGSEGV, "write to NULL"); }
TEST(fault_kernel_addr)		{ expect_killed(fault_kernel, SIGSEGV, "read of kernel text"); }
TEST(fault_noncanonical)	{ expect_killed(fault_noncanonical, SIGSEGV, "non-canonical read"); }
TEST(fault_readonly)		{ expect_killed(fault_readonly, SIGSEGV, "write to PROT_READ page"); }
TEST(fault_nx)			{ expect_killed(fault_nx, SIGSEGV, "jump to non-exec page"); }
TEST(fault_ud2)			{ expect_killed(fault_ud2, SIGILL, "ud2"); }
TEST(fault_div0)		{ expect_killed(fault_div0, SIGFPE, "division by zero"); }
TEST(fault_privileged)		{ expect_killed(fault_privileged, SIGSEGV, "hlt in user mode"); }
TEST(fault_int3)		{ expect_killed(fault_int3, SIGTRAP, "int3"); }
TEST(fault_stack_overflow)	{ expect_killed(fault_stack_overflow, SIGSEGV, "endless recursion"); }

/* === execve =============================================================== */

TEST(exec_basic)
{
	char *argv[] = { "usertests", "--helper", "exit", "33", NULL };
	pid_t pid = xfork();

	if (pid == 0)
		exec_helper(argv);
	expect_exit(pid, 33, "helper exit 33");
}

TEST(exec_chain)
{
	char *argv[] = { "usertests", "--helper", "chain", "6", NULL };
	pid_t pid = xfork();

	if (pid == 0)
		exec_helper(argv);
	expect_exit(pid, 42, "six execs in a row");
}

TEST(exec_tree)
{
	char *argv[] = { "usertests", "--helper", "tree", "3", NULL };
	pid_t pid = xfork();

	if (pid == 0)
		exec_helper(argv);
	expect_exit(pid, 8, "fork+exec tree of depth 3");
}

TEST(exec_args)
{
	static char big[5000];
	char *argv[] = { "usertests", "--helper", "args", "", "two words", big, "last", NULL };
	pid_t pid;

	memset(big, 'x', sizeof(big) - 1);
	pid = xfork();
	if (pid == 0)
		exec_helper(argv);
	expect_exit(pid, 0, "argv, envp and auxv check");
}

TEST(exec_fds)
{
	char *argv[] = { "usertests", "--helper", "fds", NULL, NULL, NULL };
	char a[16], b[16];
	int kept, closed;
	pid_t pid;

	make_file("f", "0123456789", 10);
	kept = EXPECT_OK(open("f", O_RDONLY));
	closed = EXPECT_OK(open("f", O_RDONLY | O_CLOEXEC));
	CHECK(lseek(kept, 4, SEEK_SET) == 4);
	snprintf(a, sizeof(a), "%d", kept);
	snprintf(b, sizeof(b), "%d", closed);
	argv[3] = a;
	argv[4] = b;
	pid = xfork();
	if (pid == 0)
		exec_helper(argv);
	expect_exit(pid, 0, "fds across exec");
}

TEST(exec_keeps_pid)
{
	char *argv[] = { "usertests", "--helper", "pid", NULL, NULL, NULL };
	char mine[16], parent[16];
	pid_t pid = xfork();

	if (pid == 0) {
		snprintf(mine, sizeof(mine), "%d", getpid());
		snprintf(parent, sizeof(parent), "%d", getppid());
		argv[3] = mine;
		argv[4] = parent;
		exec_helper(argv);
	}
	expect_exit(pid, 0, "pid across exec");
}

/*
 * execve of path in a child; returns the errno it failed with, or -1 if it
 * did not fail (the child was replaced, then ended as *status says).
 *
 * The files tried are mostly broken copies of this program, so a kernel
 * that wrongly runs one runs us: the arguments must then make that copy
 * exit at once (HARMLESS_ARGS), not start the whole suite again.
 */
#define HARMLESS_ARGS(path)	{ (char *)(path), "--helper", "exit", "0", NULL }

static int
exec_errno(const char *path, char *const argv[], char *const envp[], int *status)
{
	pid_t pid = xfork();

	if (pid == 0) {
		syscall(SYS_execve, path, argv, envp);
		_exit(errno < 256 ? errno : 255);
	}
	*status = wait_status(pid);
	if (WIFEXITED(*status) && WEXITSTATUS(*status) > 0 && WEXITSTATUS(*status) < 256)
		return WEXITSTATUS(*status);
	return -1;
}

static void
expect_exec_fails(const char *path, int want, int also_ok)
{
	char *argv[] = HARMLESS_ARGS(path), *envp[] = { NULL };
	int status, e = exec_errno(path, argv, envp, &status);
	char how[64];

	if (e == want || (also_ok && e == also_ok))
		return;
	if (e < 0) {
		describe_status(status, how, sizeof(how));
		fail("execve(%s) did not fail: the process ran and %s; want %s",
		     path, how, errname(want));
	}
	fail("execve(%s) failed with %s, want %s", path, errname(e), errname(want));
}

/* Our own executable, read whole: the model for the malformed ones. */
static unsigned char *
read_self(size_t *len)
{
	struct stat st;
	int fd = EXPECT_OK(open(self_path, O_RDONLY));
	unsigned char *buf;

	EXPECT_OK(fstat(fd, &st));
	buf = malloc(st.st_size);
	CHECK(buf != NULL);
	CHECK(read(fd, buf, st.st_size) == st.st_size);
	close(fd);
	*len = st.st_size;
	return buf;
}

/* Writes image as an executable file. */
static void
write_exe(const char *name, const void *image, size_t len)
{
	close(create_file(name, image, len, 0755));
}

TEST(exec_enoexec)
{
	size_t len;
	unsigned char *self = read_self(&len), *img = malloc(len);
	Elf64_Ehdr *eh = (Elf64_Ehdr *)img;
	static const struct {
		const char *name;
		size_t off, size;	/* field of the ELF header to overwrite */
		unsigned long value;
	} patches[] = {
		{ "bad-magic", 1, 1, 'X' },
		{ "bad-machine", offsetof(Elf64_Ehdr, e_machine), 2, 0x7777 },
		{ "bad-type-rel", offsetof(Elf64_Ehdr, e_type), 2, ET_REL },
		{ "bad-type-core", offsetof(Elf64_Ehdr, e_type), 2, ET_CORE },
		{ "bad-phentsize", offsetof(Elf64_Ehdr, e_phentsize), 2, 32 },
		{ "no-phdrs", offsetof(Elf64_Ehdr, e_phnum), 2, 0 },
		{ "too-many-phdrs", offsetof(Elf64_Ehdr, e_phnum), 2, 0xffff },
	};

	CHECK(img != NULL && len > sizeof(*eh));
	CHECK(memcmp(self, ELFMAG, SELFMAG) == 0);
	write_exe("empty", "", 0);
	expect_exec_fails("./empty", ENOEXEC, 0);
	write_exe("text", "this is a text file, not a program\n", 35);
	expect_exec_fails("./text", ENOEXEC, 0);
	write_exe("truncated", self, EI_NIDENT);
	expect_exec_fails("./truncated", ENOEXEC, 0);
	for (unsigned i = 0; i < sizeof(patches) / sizeof(patches[0]); i++) {
		memcpy(img, self, len);
		memcpy(img + patches[i].off, &patches[i].value, patches[i].size);
		write_exe(patches[i].name, img, len);
		char path[64];

		snprintf(path, sizeof(path), "./%s", patches[i].name);
		expect_exec_fails(path, ENOEXEC, 0);
	}
	/*
	 * Program headers past the end of the file: Linux reports its short
	 * read of them as EIO; ENOEXEC says the same.
	 */
	memcpy(img, self, sizeof(*eh));
	eh->e_phoff = 4 * PAGE;
	write_exe("phdrs-past-end", img, sizeof(*eh));
	expect_exec_fails("./phdrs-past-end", ENOEXEC, EIO);
	free(img);
	free(self);
}

/*
 * Executables whose header is fine but whose segments are not: Linux finds
 * some of these only after the old program is gone and then kills the
 * process. Either way the program must not run, and the kernel goes on.
 */
TEST(exec_bad_segments)
{
	size_t len;
	unsigned char *self = read_self(&len), *img = malloc(len);
	Elf64_Ehdr *eh = (Elf64_Ehdr *)img;
	static const char *const names[] = {
		"kernel-segment", "segment-past-eof", "entry-unmapped", "filesz-gt-memsz",
	};

	CHECK(img != NULL);
	for (unsigned i = 0; i < 4; i++) {
		Elf64_Phdr *ph, *load = NULL;

		memcpy(img, self, len);
		ph = (Elf64_Phdr *)(img + eh->e_phoff);
		for (int k = eh->e_phnum - 1; k >= 0; k--)
			if (ph[k].p_type == PT_LOAD && (ph[k].p_flags & PF_X))
				load = &ph[k];
		CHECK(load != NULL);
		if (i == 0)
			load->p_vaddr = load->p_paddr = 0xffff800000000000UL + (load->p_vaddr & 0xfff);
		else if (i == 1)
			load->p_offset += 0x10000000;
		else if (i == 2)
			eh->e_entry = 0x10;
		else
			load->p_filesz = load->p_memsz + 0x100000;
		write_exe(names[i], img, len);

		char path[64], *argv[] = HARMLESS_ARGS(path), *envp[] = { NULL };
		int status, e;

		snprintf(path, sizeof(path), "./%s", names[i]);
		e = exec_errno(path, argv, envp, &status);
		if (e < 0 && !WIFSIGNALED(status))
			fail("%s: the program ran and exited with %d", names[i], WEXITSTATUS(status));
	}
	free(img);
	free(self);
}

TEST(exec_errors)
{
	char *argv[] = HARMLESS_ARGS(self_path), *envp[] = { NULL };
	int status;

	make_file("plain", "x", 1);
	EXPECT_OK(mkdir("dir", 0755));
	expect_exec_fails("./missing", ENOENT, 0);
	expect_exec_fails("./dir", EACCES, 0);
	expect_exec_fails("./plain/x", ENOTDIR, 0);
	for (unsigned i = 0; i < NBAD; i++) {
		CHECK(exec_errno((char *)bad_addrs[i], argv, envp, &status) == EFAULT);
		CHECK(exec_errno(self_path, (char **)bad_addrs[i], envp, &status) == EFAULT);
		CHECK(exec_errno(self_path, argv, (char **)bad_addrs[i], &status) == EFAULT);
		char *bad_argv[] = { self_path, "--helper", (char *)bad_addrs[i], NULL };

		CHECK(exec_errno(self_path, bad_argv, envp, &status) == EFAULT);
	}
}

/* === memory =============================================================== */

TEST(brk)
{
	unsigned long cur = syscall(SYS_brk, 0), want = cur + 3 * PAGE + 5;
	unsigned char *p = (unsigned char *)cur;

	CHECK(cur != 0);
	/* musl's malloc counts on brk() answering exactly the address asked for. */
	CHECK((unsigned long)syscall(SYS_brk, want) == want);
	memset(p, 0xab, 3 * PAGE + 5);
	CHECK((unsigned long)syscall(SYS_brk, cur) == cur);
	CHECK((unsigned long)syscall(SYS_brk, want) == want);
	/* Shrinking freed the whole pages; they come back zeroed. */
	unsigned long whole = (cur + PAGE - 1) & ~(unsigned long)(PAGE - 1);

	CHECK(all_bytes((unsigned char *)whole, want - whole, 0));
	CHECK((unsigned long)syscall(SYS_brk, cur) == cur);
	/* A request it cannot grant leaves the break where it was. */
	CHECK((unsigned long)syscall(SYS_brk, 1) == cur);
	CHECK((unsigned long)syscall(SYS_brk, 0xffff800000000000UL) == cur);
	CHECK((unsigned long)syscall(SYS_brk, 0) == cur);
}

static unsigned char *unmapped_page;

static void
touch_unmapped(void)
{
	(void)*(volatile unsigned char *)unmapped_page;
}

static void
write_unmapped(void)
{
	*(volatile unsigned char *)unmapped_page = 1;
}

TEST(mmap_anon)
{
	enum { LEN = 16 * PAGE };
	unsigned char *p = map_anon(LEN, PROT_READ | PROT_WRITE);

	CHECK(((unsigned long)p & (PAGE - 1)) == 0);
	CHECK(all_bytes(p, LEN, 0));
	fill_pattern(p, LEN, 5);
	CHECK(has_pattern(p, LEN, 5));
	EXPECT_OK(munmap(p, LEN));
	unmapped_page = p + 5 * PAGE;
	expect_killed(touch_unmapped, SIGSEGV, "read after munmap");
	/* The same range mapped again is fresh zeroed memory. */
	CHECK(mmap(p, LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == p);
	CHECK(all_bytes(p, LEN, 0));
}

/* Splitting one mapping with munmap and mprotect, then filling the hole again. */
TEST(mmap_split)
{
	static unsigned char ref[4 * PAGE];
	unsigned char *p = map_anon(4 * PAGE, PROT_READ | PROT_WRITE);

	fill_pattern(ref, 4 * PAGE, 9);
	memcpy(p, ref, 4 * PAGE);
	EXPECT_OK(munmap(p + PAGE, PAGE));
	unmapped_page = p + PAGE;
	expect_killed(touch_unmapped, SIGSEGV, "read of the unmapped middle page");
	CHECK(memcmp(p, ref, PAGE) == 0);
	EXPECT_OK(mprotect(p + 2 * PAGE, PAGE, PROT_READ));
	unmapped_page = p + 2 * PAGE;
	expect_killed(write_unmapped, SIGSEGV, "write to the read-only page");
	CHECK(memcmp(p + 2 * PAGE, ref + 2 * PAGE, 2 * PAGE) == 0);
	EXPECT_OK(mprotect(p + 2 * PAGE, PAGE, PROT_READ | PROT_WRITE));
	p[2 * PAGE] = 1;
	CHECK(mmap(p + PAGE, PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == p + PAGE);
	CHECK(all_bytes(p + PAGE, PAGE, 0));
	CHECK(memcmp(p + 3 * PAGE, ref + 3 * PAGE, PAGE) == 0);
	EXPECT_OK(munmap(p, 4 * PAGE));
}

TEST(mprotect)
{
	unsigned char *p = map_anon(2 * PAGE, PROT_READ | PROT_WRITE);

	p[0] = 7;
	EXPECT_OK(mprotect(p, PAGE, PROT_NONE));
	unmapped_page = p;
	expect_killed(touch_unmapped, SIGSEGV, "read of a PROT_NONE page");
	EXPECT_OK(mprotect(p, PAGE, PROT_READ));
	CHECK(p[0] == 7);
	EXPECT_ERR(EINVAL, syscall(SYS_mprotect, p + 1, PAGE, PROT_READ));	/* musl would round it */
	EXPECT_ERR(EINVAL, syscall(SYS_mprotect, p, PAGE, 0x100));
	EXPECT_OK(munmap(p + PAGE, PAGE));
	EXPECT_ERR(ENOMEM, mprotect(p + PAGE, PAGE, PROT_READ));
}

/* Code written to memory runs once the page is made executable. */
TEST(mmap_exec)
{
	static const unsigned char code[] = { 0xb8, 42, 0, 0, 0, 0xc3 };	/* mov $42,%eax; ret */
	unsigned char *p = map_anon(PAGE, PROT_READ | PROT_WRITE);

	memcpy(p, code, sizeof(code));
	EXPECT_OK(mprotect(p, PAGE, PROT_READ | PROT_EXEC));
	CHECK(((int (*)(void))p)() == 42);
}

TEST(madvise_dontneed)
{
	unsigned char *p = map_anon(4 * PAGE, PROT_READ | PROT_WRITE), *f;
	unsigned char data[2 * PAGE];
	int fd;

	memset(p, 0x5a, 4 * PAGE);
	EXPECT_OK(madvise(p + PAGE, 2 * PAGE, MADV_DONTNEED));
	CHECK(p[0] == 0x5a && p[3 * PAGE] == 0x5a);
	CHECK(all_bytes(p + PAGE, 2 * PAGE, 0));
	/* A private file mapping drops its copies and shows the file again. */
	memset(data, 'd', sizeof(data));
	fd = create_file("f", data, sizeof(data), 0644);
	f = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	CHECK(f != MAP_FAILED);
	memset(f, 'w', 2 * PAGE);
	EXPECT_OK(madvise(f, 2 * PAGE, MADV_DONTNEED));
	CHECK(all_bytes(f, 2 * PAGE, 'd'));
	EXPECT_ERR(EINVAL, madvise(p + 1, PAGE, MADV_DONTNEED));
	EXPECT_ERR(EINVAL, madvise(p, PAGE, 12345));
}

TEST(mmap_file)
{
	enum { LEN = 3 * PAGE + 100 };
	static unsigned char data[LEN], back[LEN];
	unsigned char *m, *w;
	int fd;

	fill_pattern(data, LEN, 11);
	fd = create_file("f", data, LEN, 0644);
	m = mmap(NULL, 4 * PAGE, PROT_READ, MAP_PRIVATE, fd, 0);
	CHECK(m != MAP_FAILED);
	CHECK(memcmp(m, data, LEN) == 0);
	CHECK(all_bytes(m + LEN, 4 * PAGE - LEN, 0));	/* past EOF in the last page */
	/* An offset maps from that page of the file on. */
	w = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, PAGE);
	CHECK(w != MAP_FAILED);
	CHECK(memcmp(w, data + PAGE, PAGE) == 0);
	/* Private writes stay private: the file and other mappings keep the data. */
	memset(w, 0, PAGE);
	CHECK(memcmp(m + PAGE, data + PAGE, PAGE) == 0);
	CHECK(pread(fd, back, LEN, 0) == LEN);
	CHECK(memcmp(back, data, LEN) == 0);
	/* A shared read-only mapping sees later writes through the file. */
	unsigned char *s = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, 0);

	CHECK(s != MAP_FAILED);
	CHECK(pwrite(fd, "new", 3, 10) == 3);
	CHECK(memcmp(s + 10, "new", 3) == 0);
	EXPECT_OK(munmap(m, 4 * PAGE));
	EXPECT_OK(munmap(w, PAGE));
	EXPECT_OK(munmap(s, PAGE));
}

TEST(mmap_errors)
{
	int fd = create_file("f", "data", 4, 0644), wfd, rfd;
	void *p = map_anon(PAGE, PROT_READ);

	wfd = EXPECT_OK(open("f", O_WRONLY));
	rfd = EXPECT_OK(open("f", O_RDONLY));
	/* Raw calls: musl checks the offset and length itself. */
	EXPECT_ERR(EINVAL, syscall(SYS_mmap, NULL, 0, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
	EXPECT_ERR(EINVAL, syscall(SYS_mmap, NULL, PAGE, PROT_READ, MAP_ANONYMOUS, -1, 0));
	EXPECT_ERR(EINVAL, syscall(SYS_mmap, 0x10000001, PAGE, PROT_READ,
				   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0));
	EXPECT_ERR(EINVAL, syscall(SYS_mmap, NULL, PAGE, PROT_READ, MAP_PRIVATE, fd, 100));
	EXPECT_ERR(EBADF, syscall(SYS_mmap, NULL, PAGE, PROT_READ, MAP_PRIVATE, -1, 0));
	EXPECT_ERR(EBADF, syscall(SYS_mmap, NULL, PAGE, PROT_READ, MAP_PRIVATE, 999, 0));
	EXPECT_ERR(EACCES, syscall(SYS_mmap, NULL, PAGE, PROT_READ, MAP_PRIVATE, wfd, 0));
	EXPECT_ERR(EACCES, syscall(SYS_mmap, NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, rfd, 0));
	EXPECT_ERR(ENOMEM, syscall(SYS_mmap, NULL, 1UL << 62, PROT_READ,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
	EXPECT_ERR(ENOMEM, syscall(SYS_mmap, 0xffff800000000000UL, PAGE, PROT_READ,
				   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0));
	EXPECT_ERR(EINVAL, munmap((char *)p + 1, PAGE));
	EXPECT_ERR(EINVAL, munmap(p, 0));
}

TEST(malloc)
{
	enum { BIG = 16 << 20, N = 2000 };
	unsigned char *big = malloc(BIG);
	static unsigned char *small[N];

	CHECK(big != NULL);
	fill_pattern(big, BIG, 3);
	for (int i = 0; i < N; i++) {
		small[i] = malloc(1 + i % 300);
		CHECK(small[i] != NULL);
		memset(small[i], i & 0xff, 1 + i % 300);
	}
	for (int i = 0; i < N; i++) {
		CHECK(all_bytes(small[i], 1 + i % 300, i & 0xff));
		free(small[i]);
	}
	CHECK(has_pattern(big, BIG, 3));
	free(big);
}

/* Linux gives a process megabytes of stack; programs count on it. */
static int
use_stack(int kib)
{
	volatile char frame[1024];

	frame[0] = (char)kib;
	frame[sizeof(frame) - 1] = 1;
	return kib ? use_stack(kib - 1) + frame[0] - (char)kib : frame[0];
}

TEST(stack_1mib)
{
	CHECK(use_stack(1024) == 0);
}

/* The kernel itself faults in untouched pages that a system call writes or reads. */
TEST(syscall_demand_paging)
{
	enum { LEN = 4 * PAGE };
	static unsigned char data[LEN];
	unsigned char *p = map_anon(LEN, PROT_READ | PROT_WRITE);
	unsigned char *q = map_anon(LEN, PROT_READ | PROT_WRITE);
	int fd;

	fill_pattern(data, LEN, 13);
	fd = create_file("f", data, LEN, 0644);
	CHECK(pread(fd, p, LEN, 0) == LEN);
	CHECK(memcmp(p, data, LEN) == 0);
	CHECK(pwrite(fd, q, LEN, 0) == LEN);	/* q was never touched: zeros */
	CHECK(pread(fd, p, LEN, 0) == LEN);
	CHECK(all_bytes(p, LEN, 0));
}

/* === bad pointers ========================================================= */

TEST(efault_read_write)
{
	int fd = create_file("f", "0123456789", 10, 0644), p[2];
	unsigned char *ro = map_anon(PAGE, PROT_READ), *none = map_anon(PAGE, PROT_NONE);

	EXPECT_OK(pipe(p));
	CHECK(write(p[1], "abc", 3) == 3);
	for (unsigned i = 0; i < NBAD; i++) {
		void *bad = (void *)bad_addrs[i];

		EXPECT_ERR(EFAULT, syscall(SYS_pread64, fd, bad, 4, 0));
		EXPECT_ERR(EFAULT, syscall(SYS_pwrite64, fd, bad, 4, 0));
		CHECK(lseek(fd, 0, SEEK_SET) == 0);
		EXPECT_ERR(EFAULT, syscall(SYS_read, fd, bad, 4));
		EXPECT_ERR(EFAULT, syscall(SYS_write, fd, bad, 4));
		EXPECT_ERR(EFAULT, syscall(SYS_read, p[0], bad, 1));
		EXPECT_ERR(EFAULT, syscall(SYS_write, p[1], bad, 1));
	}
	/* Mapped is not enough: the page must allow the access. */
	EXPECT_ERR(EFAULT, syscall(SYS_pread64, fd, ro, 4, 0));
	EXPECT_ERR(EFAULT, syscall(SYS_pwrite64, fd, none, 4, 0));
	/* Nothing was written through the bad pointers, and the pipe kept its data. */
	char buf[16];

	CHECK(pread(fd, buf, 16, 0) == 10 && memcmp(buf, "0123456789", 10) == 0);
	CHECK(read(p[0], buf, 3) == 3 && memcmp(buf, "abc", 3) == 0);
}

TEST(efault_paths)
{
	mkdir("d", 0755);
	make_file("f", "", 0);
	for (unsigned i = 0; i < NBAD; i++) {
		unsigned long bad = bad_addrs[i];

		EXPECT_ERR(EFAULT, syscall(SYS_open, bad, O_RDONLY));
		EXPECT_ERR(EFAULT, syscall(SYS_openat, AT_FDCWD, bad, O_RDONLY));
		EXPECT_ERR(EFAULT, syscall(SYS_creat, bad, 0644));
		EXPECT_ERR(EFAULT, syscall(SYS_stat, bad, &(struct stat){ 0 }));
		EXPECT_ERR(EFAULT, syscall(SYS_lstat, bad, &(struct stat){ 0 }));
		EXPECT_ERR(EFAULT, syscall(SYS_newfstatat, AT_FDCWD, bad, &(struct stat){ 0 }, 0));
		EXPECT_ERR(EFAULT, syscall(SYS_mkdir, bad, 0755));
		EXPECT_ERR(EFAULT, syscall(SYS_rmdir, bad));
		EXPECT_ERR(EFAULT, syscall(SYS_unlink, bad));
		EXPECT_ERR(EFAULT, syscall(SYS_chdir, bad));
		EXPECT_ERR(EFAULT, syscall(SYS_access, bad, F_OK));
		EXPECT_ERR(EFAULT, syscall(SYS_rename, bad, "g"));
		EXPECT_ERR(EFAULT, syscall(SYS_rename, "f", bad));
	}
	/* A name that runs into unmapped memory without its NUL. */
	char *p = map_anon(2 * PAGE, PROT_READ | PROT_WRITE);

	EXPECT_OK(munmap(p + PAGE, PAGE));
	memset(p, 'a', PAGE);
	EXPECT_ERR(EFAULT, syscall(SYS_open, p + PAGE - 10, O_RDONLY));
}

TEST(efault_structs)
{
	int fd = create_file("f", "x", 1, 0644), p[2];
	int dir = EXPECT_OK(open(".", O_RDONLY | O_DIRECTORY));
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	for (unsigned i = 0; i < NBAD; i++) {
		unsigned long bad = bad_addrs[i];

		EXPECT_ERR(EFAULT, syscall(SYS_fstat, fd, bad));
		EXPECT_ERR(EFAULT, syscall(SYS_stat, "f", bad));
		EXPECT_ERR(EFAULT, syscall(SYS_newfstatat, AT_FDCWD, "f", bad, 0));
		EXPECT_ERR(EFAULT, syscall(SYS_uname, bad));
		EXPECT_ERR(EFAULT, syscall(SYS_clock_gettime, CLOCK_MONOTONIC, bad));
		EXPECT_ERR(EFAULT, syscall(SYS_clock_getres, CLOCK_MONOTONIC, bad));
		EXPECT_ERR(EFAULT, syscall(SYS_gettimeofday, bad, NULL));
		EXPECT_ERR(EFAULT, syscall(SYS_nanosleep, bad, NULL));
		EXPECT_ERR(EFAULT, syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, bad, NULL));
		EXPECT_ERR(EFAULT, syscall(SYS_getrandom, bad, 16, 0));
		EXPECT_ERR(EFAULT, syscall(SYS_pipe2, bad, 0));
		EXPECT_ERR(EFAULT, syscall(SYS_pipe, bad));
		EXPECT_ERR(EFAULT, syscall(SYS_getcwd, bad, 256));
		EXPECT_ERR(EFAULT, syscall(SYS_poll, bad, 1, 0));
		EXPECT_ERR(EFAULT, syscall(SYS_readv, fd, bad, 1));
		EXPECT_ERR(EFAULT, syscall(SYS_writev, fd, bad, 1));
		EXPECT_ERR(EFAULT, syscall(SYS_getdents64, dir, bad, 4096));
		CHECK(lseek(fd, 0, SEEK_SET) == 0);	/* at EOF nothing would be copied */
		EXPECT_ERR(EFAULT, syscall(SYS_readv, fd, &(struct iovec){ (void *)bad, 1 }, 1));
		EXPECT_ERR(EFAULT, syscall(SYS_writev, fd, &(struct iovec){ (void *)bad, 1 }, 1));
	}
	/* Something that succeeds with a good struct, for contrast. */
	EXPECT_OK(syscall(SYS_poll, &pfd, 1, 0));
	EXPECT_OK(syscall(SYS_pipe2, p, 0));
}

/* === files ================================================================ */

TEST(file_rw)
{
	char buf[64];
	int fd = create_file("f", "hello, world", 12, 0644);
	struct stat st;

	CHECK(lseek(fd, 0, SEEK_CUR) == 12);
	CHECK(lseek(fd, 0, SEEK_SET) == 0);
	CHECK(read(fd, buf, sizeof(buf)) == 12 && memcmp(buf, "hello, world", 12) == 0);
	CHECK(read(fd, buf, sizeof(buf)) == 0);		/* end of file */
	CHECK(lseek(fd, 7, SEEK_SET) == 7);
	CHECK(write(fd, "rewind", 6) == 6);
	CHECK(lseek(fd, -6, SEEK_END) == 7);
	CHECK(lseek(fd, 2, SEEK_CUR) == 9);
	CHECK(pread(fd, buf, 20, 0) == 13 && memcmp(buf, "hello, rewind", 13) == 0);
	CHECK(pwrite(fd, "H", 1, 0) == 1);
	CHECK(lseek(fd, 0, SEEK_CUR) == 9);		/* pread/pwrite keep the offset */
	EXPECT_OK(fstat(fd, &st));
	CHECK(S_ISREG(st.st_mode) && st.st_size == 13 && st.st_nlink == 1);
	/* Writing past the end leaves a hole that reads as zeros. */
	CHECK(pwrite(fd, "!", 1, 10000) == 1);
	CHECK(pread(fd, buf, 10, 9990) == 10 && all_bytes(buf, 10, 0));
	CHECK(pread(fd, buf, 10, 10000) == 1 && buf[0] == '!');
	EXPECT_ERR(EINVAL, lseek(fd, -1, SEEK_SET));
	EXPECT_ERR(EINVAL, lseek(fd, -20000, SEEK_END));
	EXPECT_ERR(EINVAL, lseek(fd, 0, 7));
	EXPECT_ERR(EINVAL, syscall(SYS_pread64, fd, buf, 1, -1L));
	close(fd);
	EXPECT_ERR(EBADF, close(fd));
}

/* Odd-sized writes and reads across page boundaries: the page cache's edges. */
TEST(file_pages)
{
	enum { LEN = 5 * PAGE + 123 };
	static unsigned char data[LEN], back[LEN];
	int fd = create_file("f", "", 0, 0644);
	size_t off;

	fill_pattern(data, LEN, 17);
	for (off = 0; off < LEN; off += 1000)
		CHECK(write(fd, data + off, off + 1000 <= LEN ? 1000 : LEN - off) > 0);
	CHECK(lseek(fd, 0, SEEK_SET) == 0);
	for (off = 0; off < LEN;) {
		ssize_t n = read(fd, back + off, 777);

		CHECK(n > 0);
		off += n;
	}
	CHECK(memcmp(data, back, LEN) == 0);
	/* Rewrite a range straddling two pages, then check the neighbours. */
	memset(data + PAGE - 10, 'Z', 20);
	CHECK(pwrite(fd, data + PAGE - 10, 20, PAGE - 10) == 20);
	CHECK(pread(fd, back, LEN, 0) == LEN);
	CHECK(memcmp(data, back, LEN) == 0);
}

TEST(open_flags)
{
	char buf[16];
	int fd;

	make_file("f", "0123456789", 10);
	fd = EXPECT_OK(open("f", O_WRONLY | O_APPEND));
	CHECK(lseek(fd, 0, SEEK_SET) == 0);
	CHECK(write(fd, "ab", 2) == 2);			/* appended regardless */
	CHECK(lseek(fd, 0, SEEK_CUR) == 12);
	EXPECT_ERR(EBADF, read(fd, buf, 1));
	close(fd);
	fd = EXPECT_OK(open("f", O_RDONLY));
	CHECK(read(fd, buf, 16) == 12 && memcmp(buf, "0123456789ab", 12) == 0);
	EXPECT_ERR(EBADF, write(fd, "x", 1));
	close(fd);
	fd = EXPECT_OK(open("f", O_RDWR | O_TRUNC));
	CHECK(read(fd, buf, 16) == 0);
	close(fd);
	EXPECT_ERR(EEXIST, open("f", O_RDWR | O_CREAT | O_EXCL, 0644));
	EXPECT_ERR(ENOENT, open("missing", O_RDONLY));
	EXPECT_ERR(ENOENT, open("missing/f", O_RDWR | O_CREAT, 0644));
	EXPECT_ERR(ENOENT, open("", O_RDONLY));
	EXPECT_ERR(ENOTDIR, open("f", O_RDONLY | O_DIRECTORY));
	EXPECT_ERR(ENOTDIR, open("f/", O_RDONLY));
	fd = EXPECT_OK(syscall(SYS_creat, "c", 0644));
	CHECK(write(fd, "c", 1) == 1);
	EXPECT_ERR(EBADF, read(fd, buf, 1));		/* creat opens write-only */
}

TEST(readv_writev)
{
	char a[3], b[5], c[40];
	struct iovec out[] = {
		{ "abc", 3 }, { "", 0 }, { "defgh", 5 }, { "ijklmnopqrstuvwxyz", 18 },
	};
	struct iovec in[] = { { a, 3 }, { b, 5 }, { c, sizeof(c) } };
	int fd = create_file("f", "", 0, 0644), p[2];

	CHECK(writev(fd, out, 4) == 26);
	CHECK(lseek(fd, 0, SEEK_SET) == 0);
	CHECK(readv(fd, in, 3) == 26);
	CHECK(memcmp(a, "abc", 3) == 0 && memcmp(b, "defgh", 5) == 0);
	CHECK(memcmp(c, "ijklmnopqrstuvwxyz", 18) == 0);
	CHECK(writev(fd, out, 0) == 0);
	EXPECT_OK(pipe(p));
	CHECK(writev(p[1], out, 4) == 26);
	CHECK(readv(p[0], in, 3) == 26);
	CHECK(memcmp(c, "ijklmnopqrstuvwxyz", 18) == 0);
	EXPECT_ERR(EINVAL, syscall(SYS_writev, fd, out, -1));
	EXPECT_ERR(EINVAL, syscall(SYS_writev, fd, out, 1025));
	EXPECT_ERR(EINVAL, syscall(SYS_readv, fd, in, -1));
	EXPECT_ERR(EBADF, writev(999, out, 1));
	EXPECT_ERR(EBADF, readv(999, in, 1));
}

TEST(stat)
{
	struct stat a, b, c;
	int fd = create_file("f", "12345", 5, 0644), dir;

	EXPECT_OK(mkdir("d", 0755));
	EXPECT_OK(stat("f", &a));
	EXPECT_OK(fstat(fd, &b));
	EXPECT_OK(lstat("f", &c));
	CHECK(S_ISREG(a.st_mode) && a.st_size == 5);
	CHECK(a.st_ino == b.st_ino && a.st_ino == c.st_ino && a.st_dev == b.st_dev);
	CHECK((a.st_mode & 0777 & ~0644) == 0 && (a.st_mode & 0600) == 0600);	/* 0644 less the umask */
	EXPECT_OK(stat("d", &b));
	CHECK(S_ISDIR(b.st_mode) && b.st_ino != a.st_ino);
	dir = EXPECT_OK(open("d", O_RDONLY | O_DIRECTORY));
	make_file("d/g", "", 0);
	EXPECT_OK(fstatat(dir, "g", &c, 0));
	CHECK(S_ISREG(c.st_mode) && c.st_size == 0);
	EXPECT_OK(fstatat(AT_FDCWD, "f", &c, 0));
	CHECK(c.st_ino == a.st_ino);
	EXPECT_ERR(ENOENT, stat("missing", &c));
	EXPECT_ERR(ENOTDIR, stat("f/x", &c));
	EXPECT_ERR(EINVAL, syscall(SYS_newfstatat, AT_FDCWD, "f", &c, 0x80000));
	/* The root is its own parent. */
	EXPECT_OK(stat("/", &a));
	EXPECT_OK(stat("/..", &b));
	CHECK(S_ISDIR(a.st_mode) && a.st_ino == b.st_ino);
}

TEST(dir_ops)
{
	make_file("f", "", 0);
	EXPECT_OK(mkdir("d", 0755));
	EXPECT_OK(mkdir("d/sub/", 0755));		/* a trailing slash is fine */
	EXPECT_ERR(EEXIST, mkdir("d", 0755));
	EXPECT_ERR(EEXIST, mkdir("f", 0755));
	EXPECT_ERR(ENOENT, mkdir("missing/x", 0755));
	EXPECT_ERR(ENOTDIR, mkdir("f/x", 0755));
	EXPECT_ERR(ENOTEMPTY, rmdir("d"));
	EXPECT_ERR(ENOTDIR, rmdir("f"));
	EXPECT_ERR(ENOENT, rmdir("missing"));
	EXPECT_ERR(EINVAL, rmdir("d/sub/."));
	EXPECT_ERR(EISDIR, unlink("d"));
	EXPECT_ERR(ENOENT, unlink("missing"));
	EXPECT_ERR(EISDIR, open("d", O_WRONLY));
	EXPECT_ERR(EISDIR, open("d", O_RDWR));
	int fd = EXPECT_OK(open("d", O_RDONLY));
	char c;

	EXPECT_ERR(EISDIR, read(fd, &c, 1));
	EXPECT_OK(rmdir("d/sub"));
	EXPECT_OK(rmdir("d"));
	EXPECT_ERR(ENOENT, open("d", O_RDONLY));
	EXPECT_OK(unlink("f"));
	EXPECT_ERR(ENOENT, unlink("f"));
}

struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/*
 * Reads all entries of dirfd with buffers of bufsize bytes; calls fn for
 * each and checks the record framing. Returns the number of entries.
 */
static int
for_each_dirent(int dirfd, size_t bufsize, void (*fn)(struct linux_dirent64 *, void *), void *arg)
{
	char buf[4096] __attribute__((aligned(8)));
	int count = 0;
	long n;

	CHECK(bufsize <= sizeof(buf));
	while ((n = syscall(SYS_getdents64, dirfd, buf, bufsize)) > 0) {
		for (long off = 0; off < n;) {
			struct linux_dirent64 *d = (struct linux_dirent64 *)(buf + off);

			CHECK(d->d_reclen % 8 == 0 && d->d_reclen > offsetof(struct linux_dirent64, d_name));
			CHECK(off + d->d_reclen <= n);
			CHECK(strlen(d->d_name) < d->d_reclen - offsetof(struct linux_dirent64, d_name));
			fn(d, arg);
			count++;
			off += d->d_reclen;
		}
	}
	if (n < 0)
		fail("getdents64 failed with %s", errname(errno));
	return count;
}

enum { NFILES = 60 };

struct seen {
	int files[NFILES];
	int dots, dotdots, dirs;
};

static void
dirent_name(int i, char *buf, size_t size)
{
	/* Names of many lengths, so that records vary in size. */
	int len = snprintf(buf, size, "file-%d-", i);

	for (int k = 0; k < i * 3 && (size_t)len + 1 < size; k++)
		buf[len++] = (char)('a' + k % 26);
	buf[len] = '\0';
}

static void
note_dirent(struct linux_dirent64 *d, void *arg)
{
	struct seen *s = arg;
	char name[256];

	if (!strcmp(d->d_name, ".")) {
		s->dots++;
		return;
	}
	if (!strcmp(d->d_name, "..")) {
		s->dotdots++;
		return;
	}
	if (!strcmp(d->d_name, "subdir")) {
		CHECK(d->d_type == DT_DIR || d->d_type == DT_UNKNOWN);
		s->dirs++;
		return;
	}
	for (int i = 0; i < NFILES; i++) {
		dirent_name(i, name, sizeof(name));
		if (!strcmp(d->d_name, name)) {
			CHECK(d->d_type == DT_REG || d->d_type == DT_UNKNOWN);
			s->files[i]++;
			return;
		}
	}
	fail("getdents64 returned an unknown name '%s'", d->d_name);
}

static void
check_listing(int dirfd, size_t bufsize, int removed_every)
{
	struct seen s = { { 0 }, 0, 0, 0 };

	CHECK(lseek(dirfd, 0, SEEK_SET) == 0);
	for_each_dirent(dirfd, bufsize, note_dirent, &s);
	CHECK(s.dots == 1 && s.dotdots == 1 && s.dirs == 1);
	for (int i = 0; i < NFILES; i++) {
		int want = removed_every && i % removed_every == 0 ? 0 : 1;

		if (s.files[i] != want)
			fail("entry %d listed %d times, want %d (buffer %zu)", i, s.files[i], want, bufsize);
	}
}

TEST(getdents)
{
	char name[256], buf[512];
	int dirfd, fd;

	EXPECT_OK(mkdir("d", 0755));
	EXPECT_OK(mkdir("d/subdir", 0755));
	for (int i = 0; i < NFILES; i++) {
		char path[300];

		dirent_name(i, name, sizeof(name));
		snprintf(path, sizeof(path), "d/%s", name);
		make_file(path, "", 0);
	}
	dirfd = EXPECT_OK(open("d", O_RDONLY | O_DIRECTORY));
	check_listing(dirfd, 4096, 0);
	check_listing(dirfd, 300, 0);		/* one or two entries per call */
	for (int i = 0; i < NFILES; i += 3) {
		char path[300];

		dirent_name(i, name, sizeof(name));
		snprintf(path, sizeof(path), "d/%s", name);
		EXPECT_OK(unlink(path));
	}
	check_listing(dirfd, 4096, 3);
	CHECK(lseek(dirfd, 0, SEEK_SET) == 0);	/* at the end nothing would be too big */
	EXPECT_ERR(EINVAL, syscall(SYS_getdents64, dirfd, buf, 1));
	fd = create_file("f", "", 0, 0644);
	EXPECT_ERR(ENOTDIR, syscall(SYS_getdents64, fd, buf, sizeof(buf)));
	EXPECT_ERR(EBADF, syscall(SYS_getdents64, 999, buf, sizeof(buf)));
}

TEST(rename)
{
	char buf[8];
	int fd;

	make_file("a", "AAA", 3);
	make_file("b", "BBB", 3);
	EXPECT_OK(rename("a", "c"));
	EXPECT_ERR(ENOENT, open("a", O_RDONLY));
	EXPECT_OK(rename("c", "b"));			/* replaces b */
	fd = EXPECT_OK(open("b", O_RDONLY));
	CHECK(read(fd, buf, 8) == 3 && memcmp(buf, "AAA", 3) == 0);
	EXPECT_OK(rename("b", "b"));
	EXPECT_OK(mkdir("d", 0755));
	EXPECT_OK(mkdir("e", 0755));
	EXPECT_OK(mkdir("full", 0755));
	make_file("full/x", "", 0);
	EXPECT_ERR(EINVAL, rename("d", "d/inside"));
	EXPECT_ERR(EISDIR, rename("b", "d"));
	EXPECT_ERR(ENOTDIR, rename("d", "b"));
	EXPECT_ERR(ENOTEMPTY, rename("d", "full"));
	EXPECT_ERR(ENOENT, rename("missing", "x"));
	EXPECT_OK(rename("b", "d/moved"));		/* across directories */
	EXPECT_OK(rename("d", "e"));			/* over an empty directory */
	fd = EXPECT_OK(open("e/moved", O_RDONLY));
	CHECK(read(fd, buf, 8) == 3 && memcmp(buf, "AAA", 3) == 0);
}

TEST(ftruncate)
{
	char buf[PAGE + 100];
	int fd = create_file("f", "0123456789", 10, 0644), ro;
	struct stat st;

	EXPECT_OK(ftruncate(fd, 2 * PAGE + 5));
	EXPECT_OK(fstat(fd, &st));
	CHECK(st.st_size == 2 * PAGE + 5);
	CHECK(pread(fd, buf, 20, 0) == 20 && memcmp(buf, "0123456789", 10) == 0);
	CHECK(all_bytes(buf + 10, 10, 0));
	EXPECT_OK(ftruncate(fd, 3));
	CHECK(pread(fd, buf, 20, 0) == 3);
	/* Growing again must not bring back the cut bytes of the same page. */
	EXPECT_OK(ftruncate(fd, 10));
	CHECK(pread(fd, buf, 20, 0) == 10 && memcmp(buf, "012", 3) == 0 && all_bytes(buf + 3, 7, 0));
	EXPECT_ERR(EINVAL, ftruncate(fd, -1));
	ro = EXPECT_OK(open("f", O_RDONLY));
	EXPECT_ERR(EINVAL, ftruncate(ro, 0));
	EXPECT_ERR(EBADF, ftruncate(999, 0));
}

TEST(fsync)
{
	int fd = create_file("f", "x", 1, 0644), p[2];

	EXPECT_OK(fsync(fd));
	EXPECT_ERR(EBADF, fsync(999));
	EXPECT_OK(pipe(p));
	EXPECT_ERR(EINVAL, fsync(p[0]));
}

TEST(cwd)
{
	char buf[PATH_MAX], start[PATH_MAX];
	size_t len;

	CHECK(getcwd(start, sizeof(start)) != NULL);
	CHECK(start[0] == '/');
	EXPECT_OK(mkdir("sub", 0755));
	EXPECT_OK(chdir("sub"));
	CHECK(getcwd(buf, sizeof(buf)) != NULL);
	len = strlen(start);
	CHECK(strncmp(buf, start, len) == 0 && strcmp(buf + len, "/sub") == 0);
	make_file("here", "", 0);
	EXPECT_OK(chdir(".."));
	EXPECT_OK(access("sub/here", F_OK));
	CHECK(getcwd(buf, sizeof(buf)) != NULL && strcmp(buf, start) == 0);
	EXPECT_ERR(ERANGE, syscall(SYS_getcwd, buf, 1));
	EXPECT_ERR(ENOENT, chdir("missing"));
	EXPECT_ERR(ENOTDIR, chdir("sub/here"));
	EXPECT_OK(chdir("/"));
	CHECK(getcwd(buf, sizeof(buf)) != NULL && strcmp(buf, "/") == 0);
}

TEST(access)
{
	make_file("f", "", 0);
	EXPECT_OK(access("f", F_OK));
	EXPECT_OK(access("f", R_OK | W_OK));
	EXPECT_OK(access(".", R_OK | W_OK | X_OK));
	EXPECT_ERR(ENOENT, access("missing", F_OK));
	EXPECT_ERR(EINVAL, access("f", 0x100));
}

TEST(path_walk)
{
	static char longname[300], longpath[PATH_MAX + 100];
	struct stat a, b;

	EXPECT_OK(mkdir("a", 0755));
	EXPECT_OK(mkdir("a/b", 0755));
	make_file("a/b/f", "x", 1);
	EXPECT_OK(stat("a/b/f", &a));
	EXPECT_OK(stat("./a/../a/b/./f", &b));
	CHECK(a.st_ino == b.st_ino);
	EXPECT_OK(stat("a//b///f", &b));
	CHECK(a.st_ino == b.st_ino);
	EXPECT_OK(stat("a/b/../../a/b/f", &b));
	EXPECT_ERR(ENOTDIR, stat("a/b/f/", &b));
	EXPECT_ERR(ENOTDIR, stat("a/b/f/..", &b));
	EXPECT_ERR(ENOENT, stat("a/missing/../b/f", &b));
	memset(longname, 'n', 256);
	EXPECT_ERR(ENAMETOOLONG, open(longname, O_RDONLY | O_CREAT, 0644));
	memset(longpath, 'p', sizeof(longpath) - 1);
	for (size_t i = 100; i < sizeof(longpath) - 1; i += 100)
		longpath[i] = '/';
	EXPECT_ERR(ENAMETOOLONG, stat(longpath, &b));
}

TEST(openat)
{
	int dir, file, fd;
	char abs[PATH_MAX];

	EXPECT_OK(mkdir("d", 0755));
	EXPECT_OK(mkdir("d/e", 0755));
	make_file("d/e/f", "F", 1);
	dir = EXPECT_OK(open("d", O_RDONLY | O_DIRECTORY));
	fd = EXPECT_OK(openat(dir, "e/f", O_RDONLY));
	close(fd);
	fd = EXPECT_OK(openat(dir, "new", O_RDWR | O_CREAT, 0644));
	close(fd);
	EXPECT_OK(access("d/new", F_OK));
	file = EXPECT_OK(open("d/e/f", O_RDONLY));
	EXPECT_ERR(ENOTDIR, openat(file, "x", O_RDONLY));
	EXPECT_ERR(EBADF, openat(999, "x", O_RDONLY));
	/* An absolute path ignores the directory fd, even a bad one. */
	CHECK(getcwd(abs, sizeof(abs) - 10) != NULL);
	strcat(abs, "/d/e/f");
	fd = EXPECT_OK(openat(999, abs, O_RDONLY));
	close(fd);
	fd = EXPECT_OK(openat(AT_FDCWD, "d/e/f", O_RDONLY));
}

TEST(unlink_open_file)
{
	char buf[8];
	int fd = create_file("f", "abc", 3, 0644);
	struct stat st;

	EXPECT_OK(unlink("f"));
	EXPECT_ERR(ENOENT, stat("f", &st));
	/* The inode lives on while it is open. */
	CHECK(write(fd, "def", 3) == 3);
	CHECK(pread(fd, buf, 8, 0) == 6 && memcmp(buf, "abcdef", 6) == 0);
	EXPECT_OK(fstat(fd, &st));
	CHECK(st.st_nlink == 0 && st.st_size == 6);
	/* A new file of the same name is a different file. */
	make_file("f", "new", 3);
	CHECK(pread(fd, buf, 8, 0) == 6);
}

TEST(dev_null_zero)
{
	char buf[100];
	int null = EXPECT_OK(open("/dev/null", O_RDWR));
	int zero = EXPECT_OK(open("/dev/zero", O_RDWR));

	CHECK(read(null, buf, sizeof(buf)) == 0);
	CHECK(write(null, buf, sizeof(buf)) == sizeof(buf));
	memset(buf, 0xff, sizeof(buf));
	CHECK(read(zero, buf, sizeof(buf)) == sizeof(buf));
	CHECK(all_bytes(buf, sizeof(buf), 0));
	CHECK(write(zero, buf, sizeof(buf)) == sizeof(buf));
}

/* /etc/usertests.dat is made by user/user.mk: 300 numbered lines. */
TEST(initrd_file)
{
	static char text[32768], line[128];
	size_t off = 0;
	ssize_t n = read_text_file("/etc/usertests.dat", text, sizeof(text));

	if (n < 0 && errno == ENOENT && !on_rewind())
		skip("no /etc/usertests.dat (it comes with rewind's initrd)");
	if (n < 0)
		fail("/etc/usertests.dat: %s", errname(errno));
	for (int i = 1; i <= 300; i++) {
		int len = snprintf(line, sizeof(line),
				   "usertests.dat line %04d: the initrd keeps every byte\n", i);

		if ((size_t)n < off + len || memcmp(text + off, line, len) != 0)
			fail("/etc/usertests.dat differs in line %d", i);
		off += len;
	}
	CHECK((size_t)n == off);
}

/* === file descriptors ===================================================== */

TEST(dup)
{
	int fd = create_file("f", "", 0, 0644), g, d;

	d = EXPECT_OK(dup(fd));
	CHECK(d != fd);
	CHECK(write(d, "abc", 3) == 3);
	CHECK(lseek(fd, 0, SEEK_CUR) == 3);		/* one shared offset */
	close(d);
	g = EXPECT_OK(open("f", O_RDONLY));
	CHECK(g == d);					/* the lowest free number */
	CHECK(dup2(fd, 50) == 50);
	CHECK(lseek(50, 0, SEEK_CUR) == 3);
	CHECK(dup2(fd, fd) == fd);
	CHECK(dup2(fd, g) == g);			/* closes what g was */
	CHECK(write(g, "d", 1) == 1);
	CHECK(syscall(SYS_dup3, fd, 51, O_CLOEXEC) == 51);
	CHECK(fcntl(51, F_GETFD) == FD_CLOEXEC);
	CHECK(fcntl(50, F_GETFD) == 0);
	/* Raw calls: musl answers these two itself, or uses dup2 without flags. */
	EXPECT_ERR(EINVAL, syscall(SYS_dup3, fd, fd, 0));
	EXPECT_ERR(EINVAL, syscall(SYS_dup3, fd, 52, 0x1));
	EXPECT_ERR(EBADF, dup(-1));
	EXPECT_ERR(EBADF, dup(999));
	EXPECT_ERR(EBADF, dup2(999, 53));
	EXPECT_ERR(EBADF, dup2(fd, -1));
	EXPECT_ERR(EBADF, dup2(fd, 1 << 30));
	EXPECT_ERR(EBADF, close(-1));
}

TEST(fcntl)
{
	int fd = create_file("f", "", 0, 0644), p[2], d;
	char c;

	CHECK((fcntl(fd, F_GETFL) & O_ACCMODE) == O_RDWR);
	CHECK(fcntl(fd, F_GETFD) == 0);
	EXPECT_OK(fcntl(fd, F_SETFD, FD_CLOEXEC));
	CHECK(fcntl(fd, F_GETFD) == FD_CLOEXEC);
	EXPECT_OK(fcntl(fd, F_SETFL, O_APPEND | O_RDONLY));	/* the access mode stays */
	CHECK((fcntl(fd, F_GETFL) & (O_ACCMODE | O_APPEND)) == (O_RDWR | O_APPEND));
	d = EXPECT_OK(fcntl(fd, F_DUPFD, 60));
	CHECK(d >= 60 && fcntl(d, F_GETFD) == 0);
	d = EXPECT_OK(fcntl(fd, F_DUPFD_CLOEXEC, 70));
	CHECK(d >= 70 && fcntl(d, F_GETFD) == FD_CLOEXEC);
	EXPECT_OK(pipe(p));
	EXPECT_OK(fcntl(p[0], F_SETFL, O_NONBLOCK));
	CHECK(fcntl(p[0], F_GETFL) & O_NONBLOCK);
	EXPECT_ERR(EAGAIN, read(p[0], &c, 1));
	EXPECT_ERR(EINVAL, fcntl(fd, 9999));
	EXPECT_ERR(EBADF, fcntl(999, F_GETFD));
	EXPECT_ERR(EINVAL, fcntl(fd, F_DUPFD, -1));
}

TEST(ebadf)
{
	char buf[8];
	struct stat st;
	int closed = create_file("f", "", 0, 0644);

	close(closed);
	int bad[] = { -1, 999, closed, 1 << 20 };

	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int fd = bad[i];

		EXPECT_ERR(EBADF, read(fd, buf, 1));
		EXPECT_ERR(EBADF, write(fd, buf, 1));
		EXPECT_ERR(EBADF, pread(fd, buf, 1, 0));
		EXPECT_ERR(EBADF, pwrite(fd, buf, 1, 0));
		EXPECT_ERR(EBADF, close(fd));
		EXPECT_ERR(EBADF, syscall(SYS_fstat, fd, &st));
		EXPECT_ERR(EBADF, lseek(fd, 0, SEEK_SET));
		EXPECT_ERR(EBADF, fsync(fd));
		EXPECT_ERR(EBADF, ioctl(fd, TCGETS, buf));
		EXPECT_ERR(EBADF, syscall(SYS_getdents64, fd, buf, sizeof(buf)));
		EXPECT_ERR(EBADF, syscall(SYS_newfstatat, fd, "x", &st, 0));
	}
}

/* === pipes and poll ======================================================= */

TEST(pipe_basic)
{
	int p[2];
	char buf[16];

	EXPECT_OK(pipe(p));
	CHECK(write(p[1], "hello", 5) == 5);
	CHECK(write(p[1], "world", 5) == 5);
	CHECK(read(p[0], buf, 3) == 3 && memcmp(buf, "hel", 3) == 0);
	CHECK(read(p[0], buf, 16) == 7 && memcmp(buf, "loworld", 7) == 0);
	EXPECT_ERR(ESPIPE, lseek(p[0], 0, SEEK_SET));
	EXPECT_ERR(ESPIPE, pread(p[0], buf, 1, 0));
	EXPECT_ERR(ESPIPE, pwrite(p[1], buf, 1, 0));
	EXPECT_ERR(EBADF, write(p[0], "x", 1));
	EXPECT_ERR(EBADF, read(p[1], buf, 1));
	struct stat st;

	EXPECT_OK(fstat(p[0], &st));
	CHECK(S_ISFIFO(st.st_mode));
	EXPECT_OK(pipe2(p, O_CLOEXEC | O_NONBLOCK));
	CHECK(fcntl(p[0], F_GETFD) == FD_CLOEXEC && fcntl(p[1], F_GETFD) == FD_CLOEXEC);
	EXPECT_ERR(EAGAIN, read(p[0], buf, 1));
	EXPECT_ERR(EINVAL, pipe2(p, 0x1));
}

TEST(pipe_eof_epipe)
{
	int p[2];
	char c;

	signal(SIGPIPE, SIG_IGN);	/* so that write() reports EPIPE */
	EXPECT_OK(pipe(p));
	CHECK(write(p[1], "x", 1) == 1);
	close(p[1]);
	CHECK(read(p[0], &c, 1) == 1);
	CHECK(read(p[0], &c, 1) == 0);	/* no writer left: end of file */
	EXPECT_OK(pipe(p));
	close(p[0]);
	EXPECT_ERR(EPIPE, write(p[1], "x", 1));
}

TEST(pipe_capacity)
{
	static char buf[1 << 20];
	int p[2];
	ssize_t n, total = 0;

	EXPECT_OK(pipe2(p, O_NONBLOCK));
	fill_pattern((unsigned char *)buf, sizeof(buf), 21);
	while ((n = write(p[1], buf + total, 1000)) > 0)
		total += n;
	CHECK(n == -1 && errno == EAGAIN);
	CHECK(total >= 4096);			/* at least PIPE_BUF */
	static char back[1 << 20];
	ssize_t got = 0;

	while ((n = read(p[0], back + got, 777)) > 0)
		got += n;
	CHECK(n == -1 && errno == EAGAIN);
	CHECK(got == total);
	CHECK(memcmp(buf, back, total) == 0);
}

/* A megabyte through a pipe between two processes, with blocking on both sides. */
TEST(pipe_transfer)
{
	enum { LEN = 1 << 20 };
	static unsigned char buf[LEN];
	int p[2];
	size_t got = 0;
	pid_t pid;

	EXPECT_OK(pipe(p));
	pid = xfork();
	if (pid == 0) {
		close(p[0]);
		fill_pattern(buf, LEN, 23);
		for (size_t off = 0; off < LEN;) {
			ssize_t n = write(p[1], buf + off, 5000 < LEN - off ? 5000 : LEN - off);

			if (n <= 0)
				fail("writer: write failed with %s", errname(errno));
			off += n;
		}
		_exit(0);
	}
	close(p[1]);
	for (;;) {
		char chunk[3000];
		ssize_t n = read(p[0], chunk, sizeof(chunk));

		CHECK(n >= 0 && got + n <= LEN);
		if (n == 0)
			break;
		memcpy(buf + got, chunk, n);
		got += n;
	}
	CHECK(got == LEN);
	CHECK(has_pattern(buf, LEN, 23));
	expect_exit(pid, 0, "writer");
}

TEST(poll_pipe)
{
	int p[2];
	struct pollfd f[2];
	char c;

	EXPECT_OK(pipe(p));
	f[0] = (struct pollfd){ .fd = p[0], .events = POLLIN };
	f[1] = (struct pollfd){ .fd = p[1], .events = POLLOUT };
	CHECK(poll(f, 2, 0) == 1);
	CHECK(f[0].revents == 0 && f[1].revents == POLLOUT);
	CHECK(write(p[1], "x", 1) == 1);
	CHECK(poll(f, 2, 0) == 2);
	CHECK(f[0].revents == POLLIN);
	CHECK(read(p[0], &c, 1) == 1);
	close(p[1]);
	CHECK(poll(f, 1, 0) == 1);
	CHECK(f[0].revents & POLLHUP);		/* writer gone */
	EXPECT_OK(pipe(p));
	close(p[0]);
	f[0] = (struct pollfd){ .fd = p[1], .events = POLLOUT };
	CHECK(poll(f, 1, 0) == 1);
	CHECK(f[0].revents & POLLERR);		/* reader gone */
	/* A negative fd is skipped; a closed one is reported, not an error. */
	f[0] = (struct pollfd){ .fd = -1, .events = POLLIN };
	f[1] = (struct pollfd){ .fd = 999, .events = POLLIN };
	CHECK(poll(f, 2, 0) == 1);
	CHECK(f[0].revents == 0 && f[1].revents == POLLNVAL);
	EXPECT_ERR(EINVAL, syscall(SYS_poll, f, 1L << 30, 0));
}

TEST(poll_wakeup)
{
	int p[2];
	struct pollfd f;
	long long t0;
	pid_t pid;

	EXPECT_OK(pipe(p));
	/* An empty pipe times out, after at least the time asked for. */
	f = (struct pollfd){ .fd = p[0], .events = POLLIN };
	t0 = mono_ns();
	CHECK(poll(&f, 1, 30) == 0);
	CHECK(mono_ns() - t0 >= 30 * 1000000LL);
	/* A writer wakes a reader that waits without a time limit. */
	pid = xfork();
	if (pid == 0) {
		struct timespec ts = { 0, 50 * 1000000 };

		nanosleep(&ts, NULL);
		write(p[1], "w", 1);
		_exit(0);
	}
	CHECK(poll(&f, 1, -1) == 1 && f.revents == POLLIN);
	expect_exit(pid, 0, "writer");
}

/* === terminals ============================================================ */

TEST(ioctl_not_a_tty)
{
	struct termios t;
	struct winsize w;
	int fd = create_file("f", "", 0, 0644), p[2];
	int null = EXPECT_OK(open("/dev/null", O_RDWR));

	EXPECT_OK(pipe(p));
	EXPECT_ERR(ENOTTY, ioctl(fd, TCGETS, &t));
	EXPECT_ERR(ENOTTY, ioctl(fd, TIOCGWINSZ, &w));
	EXPECT_ERR(ENOTTY, ioctl(p[0], TCGETS, &t));
	EXPECT_ERR(ENOTTY, ioctl(null, TCGETS, &t));
	EXPECT_ERR(EBADF, ioctl(999, TCGETS, &t));
}

/* The console: stdin, stdout or stderr when it is a terminal (always on rewind). */
static int
console_fd(void)
{
	struct termios t;

	for (int fd = 0; fd < 3; fd++)
		if (ioctl(fd, TCGETS, &t) == 0)
			return fd;
	if (on_rewind())
		return EXPECT_OK(open("/dev/console", O_RDWR));
	skip("no terminal on fds 0-2");
}

TEST(ioctl_console)
{
	int fd = console_fd();
	struct termios t;
	struct winsize w;
	struct pollfd f = { .fd = fd, .events = POLLOUT };

	EXPECT_OK(ioctl(fd, TCGETS, &t));
	EXPECT_OK(ioctl(fd, TIOCGWINSZ, &w));
	for (unsigned i = 0; i < NBAD; i++) {
		EXPECT_ERR(EFAULT, syscall(SYS_ioctl, fd, TCGETS, bad_addrs[i]));
		EXPECT_ERR(EFAULT, syscall(SYS_ioctl, fd, TIOCGWINSZ, bad_addrs[i]));
	}
	EXPECT_ERR(ENOTTY, ioctl(fd, 0x5401ff, &t));
	CHECK(poll(&f, 1, 0) == 1 && (f.revents & POLLOUT));
}

/* === time, randomness, identity =========================================== */

TEST(clocks)
{
	struct timespec a, b, c, res;
	struct timeval tv;
	time_t t;

	for (int i = 0; i < 1000; i++) {
		EXPECT_OK(clock_gettime(CLOCK_MONOTONIC, &a));
		EXPECT_OK(syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &b));	/* not the vDSO */
		EXPECT_OK(clock_gettime(CLOCK_MONOTONIC, &c));
		CHECK(a.tv_nsec >= 0 && a.tv_nsec < 1000000000 && b.tv_nsec < 1000000000);
		CHECK(a.tv_sec < b.tv_sec || (a.tv_sec == b.tv_sec && a.tv_nsec <= b.tv_nsec));
		CHECK(b.tv_sec < c.tv_sec || (b.tv_sec == c.tv_sec && b.tv_nsec <= c.tv_nsec));
	}
	/* gettimeofday and time agree with CLOCK_REALTIME, which they lie between. */
	EXPECT_OK(clock_gettime(CLOCK_REALTIME, &a));
	EXPECT_OK(gettimeofday(&tv, NULL));
	t = time(NULL);
	EXPECT_OK(clock_gettime(CLOCK_REALTIME, &c));
	CHECK(tv.tv_usec >= 0 && tv.tv_usec < 1000000);
	CHECK(tv_us(tv) >= a.tv_sec * 1000000LL + a.tv_nsec / 1000);
	CHECK(tv_us(tv) <= c.tv_sec * 1000000LL + c.tv_nsec / 1000);
	/* time() is the last tick's second (on Linux too): just after a second begins it may lag one. */
	CHECK(t >= a.tv_sec - 1 && t <= c.tv_sec);
	EXPECT_OK(clock_getres(CLOCK_MONOTONIC, &res));
	CHECK(res.tv_sec == 0 && res.tv_nsec > 0);
	EXPECT_ERR(EINVAL, syscall(SYS_clock_gettime, 12345, &a));
	EXPECT_ERR(EINVAL, syscall(SYS_clock_getres, 12345, &a));
}

TEST(nanosleep)
{
	struct timespec ts = { 0, 20 * 1000000 }, bad = { 0, 1000000000 }, neg = { -1, 0 };
	long long t0 = mono_ns();
	struct timespec until;

	EXPECT_OK(nanosleep(&ts, NULL));
	CHECK(mono_ns() - t0 >= 20 * 1000000LL);
	EXPECT_ERR(EINVAL, syscall(SYS_nanosleep, &bad, NULL));
	EXPECT_ERR(EINVAL, syscall(SYS_nanosleep, &neg, NULL));
	/* clock_nanosleep to an absolute time: it is that time, or later, after. */
	EXPECT_OK(clock_gettime(CLOCK_MONOTONIC, &until));
	until.tv_nsec += 20 * 1000000;
	if (until.tv_nsec >= 1000000000) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000;
	}
	EXPECT_OK(syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL));
	CHECK(mono_ns() >= until.tv_sec * 1000000000LL + until.tv_nsec);
	/* A time already past returns at once. */
	EXPECT_OK(syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL));
	EXPECT_OK(syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, &(struct timespec){ 0, 1000 }, NULL));
	EXPECT_ERR(EINVAL, syscall(SYS_clock_nanosleep, 12345, 0, &ts, NULL));
	EXPECT_ERR(EINVAL, syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, &bad, NULL));
}

TEST(getrandom)
{
	unsigned char a[256], b[256];

	memset(a, 0, sizeof(a));
	memset(b, 0, sizeof(b));
	CHECK(getrandom(a, sizeof(a), 0) == sizeof(a));
	CHECK(getrandom(b, sizeof(b), GRND_NONBLOCK) == sizeof(b));
	CHECK(!all_bytes(a, sizeof(a), 0));
	CHECK(memcmp(a, b, sizeof(a)) != 0);
	CHECK(getrandom(a, 0, 0) == 0);
	EXPECT_ERR(EINVAL, syscall(SYS_getrandom, a, 16, 0x1000));
}

TEST(uname)
{
	struct utsname u;

	EXPECT_OK(uname(&u));
	CHECK(u.sysname[0] && u.release[0] && u.version[0]);
	CHECK(strcmp(u.machine, "x86_64") == 0);
}

/* The auxiliary vector the kernel put on our initial stack. */
TEST(auxv)
{
	unsigned char *random = (unsigned char *)getauxval(AT_RANDOM);

	CHECK(getauxval(AT_PAGESZ) == PAGE);
	CHECK(getauxval(AT_PHDR) != 0);
	CHECK(getauxval(AT_PHENT) == sizeof(Elf64_Phdr));
	CHECK(getauxval(AT_PHNUM) > 0);
	CHECK(getauxval(AT_ENTRY) != 0);
	CHECK(getauxval(AT_UID) == getuid() && getauxval(AT_EUID) == geteuid());
	CHECK(getauxval(AT_GID) == getgid() && getauxval(AT_EGID) == getegid());
	CHECK(random != NULL && !all_bytes(random, 16, 0));
	/* AT_PHDR points at our own program headers: the first is in memory. */
	const Elf64_Phdr *ph = (const Elf64_Phdr *)getauxval(AT_PHDR);
	int loads = 0;

	for (unsigned long i = 0; i < getauxval(AT_PHNUM); i++)
		loads += ph[i].p_type == PT_LOAD;
	CHECK(loads > 0);
}

/* === futexes: across processes through shared memory (no threads) ======= */

/* Linux's futex(2) values (musl has no <linux/futex.h>). */
#define FUTEX_WAIT			0
#define FUTEX_WAKE			1
#define FUTEX_REQUEUE			3
#define FUTEX_CMP_REQUEUE		4
#define FUTEX_WAIT_BITSET		9
#define FUTEX_WAKE_BITSET		10
#define FUTEX_PRIVATE_FLAG		128
#define FUTEX_CLOCK_REALTIME		256
#define FUTEX_BITSET_MATCH_ANY		0xffffffffu

#define WAITER_LIMIT_NS	(10 * 1000000000LL)	/* far longer than any wake-up here takes */

static long
futex(uint32_t *word, int op, uint32_t val, const struct timespec *timeout, uint32_t val3)
{
	return syscall(SYS_futex, word, op, val, timeout, NULL, val3);
}

/* The requeues take a count where the waits take a timeout. */
static long
futex_requeue(uint32_t *from, int op, int nr_wake, long nr_requeue, uint32_t *to, uint32_t val3)
{
	return syscall(SYS_futex, from, op, nr_wake, nr_requeue, to, val3);
}

/* Words that this process and its children share: the page is faulted in before any fork. */
static uint32_t *
shared_words(void)
{
	uint32_t *p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		fail("mmap of a shared anonymous page failed with %s", errname(errno));
	memset(p, 0, PAGE);
	return p;
}

/* The first page of the file at path, mapped on its own by the calling process. */
static uint32_t *
file_words(const char *path, int prot, int flags)
{
	int fd = EXPECT_OK(open(path, O_RDWR));
	uint32_t *p = mmap(NULL, PAGE, prot, flags, fd, 0);

	if (p == MAP_FAILED)
		fail("mmap of %s failed with %s", path, errname(errno));
	close(fd);
	return p;
}

/* The time ns from now on clock, as an absolute timespec. */
static struct timespec
time_in(clockid_t clock, long long ns)
{
	struct timespec ts;

	EXPECT_OK(clock_gettime(clock, &ts));
	ns += ts.tv_sec * 1000000000LL + ts.tv_nsec;
	return (struct timespec){ ns / 1000000000LL, ns % 1000000000LL };
}

/*
 * A forked child's wait on *word (which holds 0): it must end with a
 * wake-up (0), not the long time limit, or the child fails.
 */
static void __attribute__((noreturn))
wait_to_be_woken(uint32_t *word, int op, uint32_t bitset)
{
	struct timespec rel = { WAITER_LIMIT_NS / 1000000000LL, 0 };
	struct timespec abs = time_in(CLOCK_MONOTONIC, WAITER_LIMIT_NS);
	long r = futex(word, op, 0, op == FUTEX_WAIT ? &rel : &abs, bitset);

	if (r != 0)
		fail("waiter: futex op %d returned %ld (%s), want 0 (woken)", op, r,
		     r < 0 ? errname(errno) : "?");
	_exit(0);
}

/*
 * How many wait on the futex at word, waking none: requeueing them onto
 * the same futex leaves them where they are and counts them (Linux refuses
 * that only for PI futexes). Unlike a sleeping state in /proc, this cannot
 * mistake some other sleep on the way to the wait for the wait itself.
 */
static long
futex_waiters(uint32_t *word)
{
	return EXPECT_OK(futex_requeue(word, FUTEX_REQUEUE, 0, INT_MAX, word, 0));
}

/* Returns once n forked waiters are queued on the futex at word. */
static void
wait_for_waiters(uint32_t *word, long n)
{
	long long give_up = mono_ns() + WAITER_LIMIT_NS;

	while (futex_waiters(word) != n) {
		if (mono_ns() > give_up)
			fail("the futex has %ld waiters, want %ld", futex_waiters(word), n);
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	}
}

TEST(futex_value)
{
	uint32_t word = 1, *shared = shared_words();
	/* Pages not there yet: the word is read (0) after faulting them in. */
	uint32_t *fresh = map_anon(PAGE, PROT_READ | PROT_WRITE);
	uint32_t *fresh_shared = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	CHECK(fresh_shared != MAP_FAILED);
	EXPECT_ERR(EAGAIN, futex(&word, FUTEX_WAIT, 0, NULL, 0));
	EXPECT_ERR(EAGAIN, futex(&word, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 0, NULL, 0));
	EXPECT_ERR(EAGAIN, futex(&word, FUTEX_WAIT_BITSET, 0, NULL, FUTEX_BITSET_MATCH_ANY));
	EXPECT_ERR(EAGAIN, futex(shared, FUTEX_WAIT, 1, NULL, 0));
	EXPECT_ERR(EAGAIN, futex(fresh, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 1, NULL, 0));
	EXPECT_ERR(EAGAIN, futex(fresh + 1, FUTEX_WAIT, 1, NULL, 0));
	EXPECT_ERR(EAGAIN, futex(fresh_shared, FUTEX_WAIT, 1, NULL, 0));
	/* An empty bitset matches nobody. */
	EXPECT_ERR(EINVAL, futex(&word, FUTEX_WAIT_BITSET, 1, NULL, 0));
	EXPECT_ERR(EINVAL, futex(&word, FUTEX_WAKE_BITSET, 1, NULL, 0));
}

TEST(futex_timeout)
{
	uint32_t word = 0;
	struct timespec rel = { 0, 50 * 1000000 }, abs;
	long long t0 = mono_ns();

	/* FUTEX_WAIT's timeout is relative: it lasts at least about that long (no upper bound). */
	EXPECT_ERR(ETIMEDOUT, futex(&word, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 0, &rel, 0));
	CHECK(mono_ns() - t0 >= 40 * 1000000LL);
	/* FUTEX_WAIT_BITSET's is an absolute time, on CLOCK_MONOTONIC or CLOCK_REALTIME. */
	t0 = mono_ns();
	abs = time_in(CLOCK_MONOTONIC, 30 * 1000000LL);
	EXPECT_ERR(ETIMEDOUT, futex(&word, FUTEX_WAIT_BITSET, 0, &abs, FUTEX_BITSET_MATCH_ANY));
	CHECK(mono_ns() - t0 >= 20 * 1000000LL);
	t0 = mono_ns();
	abs = time_in(CLOCK_REALTIME, 30 * 1000000LL);
	EXPECT_ERR(ETIMEDOUT, futex(&word, FUTEX_WAIT_BITSET | FUTEX_CLOCK_REALTIME, 0, &abs, 1));
	CHECK(mono_ns() - t0 >= 20 * 1000000LL);
	/* A time already past ends the wait at once, but the value is compared first. */
	abs = time_in(CLOCK_MONOTONIC, 0);
	EXPECT_ERR(ETIMEDOUT, futex(&word, FUTEX_WAIT_BITSET, 0, &abs, 1));
	EXPECT_ERR(EAGAIN, futex(&word, FUTEX_WAIT_BITSET, 1, &abs, 1));
	EXPECT_ERR(ETIMEDOUT, futex(&word, FUTEX_WAIT, 0, &(struct timespec){ 0, 0 }, 0));
	/* A malformed or unreadable timeout. */
	EXPECT_ERR(EINVAL, futex(&word, FUTEX_WAIT, 0, &(struct timespec){ 0, 1000000000 }, 0));
	EXPECT_ERR(EINVAL, futex(&word, FUTEX_WAIT_BITSET, 0, &(struct timespec){ -1, 0 }, 1));
	for (unsigned i = 0; i < NBAD; i++)
		EXPECT_ERR(EFAULT, syscall(SYS_futex, &word, FUTEX_WAIT, 0, bad_addrs[i], NULL, 0));
}

TEST(futex_wake_none)
{
	uint32_t words[2] = { 0, 0 }, *shared = shared_words();

	CHECK(futex(words, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 1, NULL, 0) == 0);
	CHECK(futex(words, FUTEX_WAKE, INT_MAX, NULL, 0) == 0);
	CHECK(futex(shared, FUTEX_WAKE, 1, NULL, 0) == 0);
	CHECK(futex(shared, FUTEX_WAKE_BITSET, 1, NULL, 0xff) == 0);
	CHECK(futex_requeue(words, FUTEX_REQUEUE, 1, 1, shared, 0) == 0);
	CHECK(futex_requeue(words, FUTEX_CMP_REQUEUE | FUTEX_PRIVATE_FLAG, 1, 1, &words[1], 0) == 0);
	EXPECT_ERR(EAGAIN, futex_requeue(words, FUTEX_CMP_REQUEUE, 1, 1, &words[1], 5));
	EXPECT_ERR(EINVAL, futex_requeue(words, FUTEX_REQUEUE, -1, 1, &words[1], 0));
	EXPECT_ERR(EINVAL, futex_requeue(words, FUTEX_CMP_REQUEUE, 1, -1, &words[1], 0));
}

TEST(futex_wake_child)
{
	uint32_t *shared = shared_words();
	char page[PAGE] = { 0 };
	pid_t pid = xfork();

	if (pid == 0)
		wait_to_be_woken(shared, FUTEX_WAIT, 0);
	wait_for_waiters(shared, 1);
	/* A private futex is this address space's own: the child's is another one. */
	CHECK(futex(shared, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 1, NULL, 0) == 0);
	CHECK(futex(shared, FUTEX_WAKE, 1, NULL, 0) == 1);
	expect_exit(pid, 0, "waiter on a shared anonymous page");

	/* A file page is one futex for every process that maps it, shared or privately. */
	make_file("f", page, sizeof(page));
	uint32_t *mine = file_words("f", PROT_READ | PROT_WRITE, MAP_SHARED);

	for (int flags = MAP_SHARED; flags <= MAP_PRIVATE; flags++) {
		pid = xfork();
		if (pid == 0)
			wait_to_be_woken(file_words("f", PROT_READ, flags), FUTEX_WAIT, 0);
		wait_for_waiters(mine, 1);
		CHECK(futex(mine, FUTEX_WAKE, 1, NULL, 0) == 1);
		expect_exit(pid, 0, flags == MAP_SHARED ? "waiter on a MAP_SHARED file" :
							"waiter on a MAP_PRIVATE file");
	}
}

TEST(futex_wake_bitset)
{
	uint32_t *shared = shared_words();
	pid_t pid = xfork();

	if (pid == 0)
		wait_to_be_woken(shared, FUTEX_WAIT_BITSET, 0x1);
	wait_for_waiters(shared, 1);
	CHECK(futex(shared, FUTEX_WAKE_BITSET, 1, NULL, 0x6) == 0);	/* no bit in common */
	CHECK(futex(shared, FUTEX_WAKE_BITSET, 1, NULL, 0x3) == 1);
	expect_exit(pid, 0, "waiter");
}

TEST(futex_requeue)
{
	uint32_t *w = shared_words();
	pid_t pids[2];

	for (int i = 0; i < 2; i++) {
		pids[i] = xfork();
		if (pids[i] == 0)
			wait_to_be_woken(&w[0], FUTEX_WAIT, 0);
	}
	wait_for_waiters(&w[0], 2);
	/* CMP_REQUEUE acts only while the word holds val3; it counts woken and moved. */
	EXPECT_ERR(EAGAIN, futex_requeue(&w[0], FUTEX_CMP_REQUEUE, 1, 1, &w[1], 1));
	CHECK(futex_requeue(&w[0], FUTEX_CMP_REQUEUE, 1, 1, &w[1], 0) == 2);
	CHECK(futex(&w[0], FUTEX_WAKE, 1, NULL, 0) == 0);
	CHECK(futex_requeue(&w[1], FUTEX_REQUEUE, 0, 1, &w[2], 0) == 1);
	CHECK(futex(&w[1], FUTEX_WAKE, 1, NULL, 0) == 0);
	CHECK(futex(&w[2], FUTEX_WAKE, INT_MAX, NULL, 0) == 1);
	expect_exit(pids[0], 0, "first waiter");
	expect_exit(pids[1], 0, "second waiter");
}

/*
 * Takes the turns numbered mine, mine + 2, ... on *turn: waits for the
 * other side to pass it, passes it back and wakes the other side. A lost
 * wake-up shows as a wait that runs into the long time limit.
 */
static void
take_turns(uint32_t *turn, uint32_t mine, uint32_t rounds)
{
	struct timespec limit = { WAITER_LIMIT_NS / 1000000000LL, 0 };

	for (uint32_t t = mine; t < 2 * rounds; t += 2) {
		uint32_t seen;

		while ((seen = __atomic_load_n(turn, __ATOMIC_ACQUIRE)) != t)
			if (futex(turn, FUTEX_WAIT, seen, &limit, 0) < 0 && errno != EAGAIN)
				fail("turn %u: futex wait failed with %s", t, errname(errno));
		__atomic_store_n(turn, t + 1, __ATOMIC_RELEASE);
		futex(turn, FUTEX_WAKE, 1, NULL, 0);
	}
}

TEST(futex_pingpong)
{
	uint32_t *turn = shared_words();
	pid_t pid = xfork();

	if (pid == 0) {
		take_turns(turn, 1, 2000);
		_exit(0);
	}
	take_turns(turn, 0, 2000);
	expect_exit(pid, 0, "the other player");
	CHECK(*turn == 4000);
}

TEST(futex_errors)
{
	uint32_t words[2] = { 0, 0 };
	uint32_t *odd = (uint32_t *)((char *)words + 1);
	uint32_t *gone = map_anon(PAGE, PROT_READ | PROT_WRITE);

	EXPECT_OK(munmap(gone, PAGE));
	/* A futex word is 4-byte aligned. */
	EXPECT_ERR(EINVAL, futex(odd, FUTEX_WAIT, 0, NULL, 0));
	EXPECT_ERR(EINVAL, futex(odd, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 1, NULL, 0));
	EXPECT_ERR(EINVAL, futex_requeue(words, FUTEX_REQUEUE, 1, 1, odd, 0));
	/* Memory that is not mapped, or not the user's. A private wake reads nothing. */
	EXPECT_ERR(EFAULT, futex(gone, FUTEX_WAIT, 0, NULL, 0));
	EXPECT_ERR(EFAULT, futex(gone, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 0, NULL, 0));
	EXPECT_ERR(EFAULT, futex(gone, FUTEX_WAKE, 1, NULL, 0));
	CHECK(futex(gone, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 1, NULL, 0) == 0);
	EXPECT_ERR(EFAULT, futex_requeue(words, FUTEX_CMP_REQUEUE, 1, 1, gone, 0));
	for (unsigned i = 1; i < NBAD; i++) {	/* bad_addrs[0] is odd */
		uint32_t *bad = (uint32_t *)bad_addrs[i];

		EXPECT_ERR(EFAULT, futex(bad, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 0, NULL, 0));
		EXPECT_ERR(EFAULT, futex(bad, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 1, NULL, 0));
		EXPECT_ERR(EFAULT, futex_requeue(words, FUTEX_REQUEUE, 1, 1, bad, 0));
	}
	/* Operations that do not exist (2 was FUTEX_FD), or that take no clock. */
	EXPECT_ERR(ENOSYS, futex(words, 2, 0, NULL, 0));
	EXPECT_ERR(ENOSYS, futex(words, 99, 0, NULL, 0));
	EXPECT_ERR(ENOSYS, futex(words, FUTEX_WAKE | FUTEX_CLOCK_REALTIME, 1, NULL, 0));
	EXPECT_ERR(ENOSYS, futex(words, FUTEX_WAIT | FUTEX_CLOCK_REALTIME, 1, NULL, 0));
}

/* === /proc and knobs ====================================================== */

TEST(proc_meminfo)
{
	char text[8192];
	unsigned long long total, mfree;

	EXPECT_OK(read_text_file("/proc/meminfo", text, sizeof(text)));
	CHECK(field_ull(text, "MemTotal", &total) == 0 && total > 0);
	CHECK(field_ull(text, "MemFree", &mfree) == 0 && mfree <= total);
	CHECK(strstr(text, " kB\n") != NULL);
}

TEST(proc_self_status)
{
	char text[4096], name[64], state[32];
	unsigned long long pid, ppid;

	const char *base = strrchr(self_path, '/') ? strrchr(self_path, '/') + 1 : self_path;

	EXPECT_OK(read_text_file("/proc/self/status", text, sizeof(text)));
	/* The name is the executable's file name, cut to 15 characters as Linux does. */
	CHECK(field_str(text, "Name", name, sizeof(name)) == 0 && strncmp(name, base, 15) == 0);
	CHECK(field_str(text, "State", state, sizeof(state)) == 0 && state[0] == 'R');
	CHECK(field_ull(text, "Pid", &pid) == 0 && pid == (unsigned long long)getpid());
	CHECK(field_ull(text, "PPid", &ppid) == 0 && ppid == (unsigned long long)getppid());
}

/* ps reads other processes' status files. */
TEST(proc_pid_status)
{
	char path[64], text[4096];
	unsigned long long ppid;
	int p[2];
	char c;
	pid_t pid;

	EXPECT_OK(pipe(p));
	pid = xfork();
	if (pid == 0) {
		close(p[1]);
		read(p[0], &c, 1);
		_exit(0);
	}
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	EXPECT_OK(read_text_file(path, text, sizeof(text)));
	CHECK(field_ull(text, "PPid", &ppid) == 0 && ppid == (unsigned long long)getpid());
	CHECK(find_field(text, "Name") && find_field(text, "State"));
	close(p[1]);
	expect_exit(pid, 0, "child");
	DIR *d = opendir("/proc");
	struct dirent *e;
	bool seen_self = false;
	char me[16];

	CHECK(d != NULL);
	snprintf(me, sizeof(me), "%d", getpid());
	while ((e = readdir(d)))
		seen_self |= !strcmp(e->d_name, me);
	closedir(d);
	CHECK(seen_self);
}

/* Finds the /proc/self/maps line whose range holds addr; returns its permissions. */
static bool
maps_perms(const char *text, unsigned long addr, char perms[5])
{
	for (const char *line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		unsigned long lo, hi;

		if (sscanf(line, "%lx-%lx %4s", &lo, &hi, perms) == 3 && addr >= lo && addr < hi)
			return true;
	}
	return false;
}

TEST(proc_self_maps)
{
	static char text[65536];
	char perms[5];
	int local = 0;
	static const int constant = 1;
	unsigned char *ro = map_anon(PAGE, PROT_READ);

	EXPECT_OK(read_text_file("/proc/self/maps", text, sizeof(text)));
	CHECK(maps_perms(text, (unsigned long)&local, perms) && !strcmp(perms, "rw-p"));
	CHECK(maps_perms(text, (unsigned long)test_proc_self_maps, perms) && !strcmp(perms, "r-xp"));
	CHECK(maps_perms(text, (unsigned long)&constant, perms) && perms[0] == 'r' && perms[1] == '-');
	CHECK(maps_perms(text, (unsigned long)ro, perms) && !strcmp(perms, "r--p"));
	CHECK(!maps_perms(text, 0, perms));
}

TEST(proc_misc)
{
	char text[65536];
	double up, idle;

	EXPECT_OK(read_text_file("/proc/uptime", text, sizeof(text)));
	CHECK(sscanf(text, "%lf %lf", &up, &idle) == 2 && up > 0);
	EXPECT_OK(read_text_file("/proc/cpuinfo", text, sizeof(text)));
	CHECK(strstr(text, "processor") != NULL);
	EXPECT_ERR(ENOENT, open("/proc/no-such-file", O_RDONLY));
}

/* Every knob reads; nonsense written to one is refused and changes nothing. */
static void
check_knob(const char *name)
{
	char path[300], before[256], after[256];
	int fd;

	snprintf(path, sizeof(path), "/proc/sys/rewind/%s", name);
	if (read_text_file(path, before, sizeof(before)) <= 0)
		fail("%s: empty or unreadable (%s)", path, errname(errno));
	fd = open(path, O_WRONLY);
	if (fd >= 0) {
		ssize_t n = write(fd, "no-such-value!\n", 15);

		if (n >= 0 || (errno != EINVAL && errno != EPERM && errno != EACCES))
			fail("%s: writing nonsense gave %zd (%s), want EINVAL", path, n, errname(errno));
		close(fd);
	} else if (errno != EACCES && errno != EPERM) {
		fail("%s: open for writing failed with %s", path, errname(errno));
	}
	CHECK(read_text_file(path, after, sizeof(after)) > 0);
	if (strcmp(before, after))
		fail("%s changed from '%s' to '%s' after a refused write", path, before, after);
}

TEST(knobs)
{
	DIR *d = opendir("/proc/sys/rewind");
	struct dirent *e;
	int n = 0;

	if (!d)
		skip("no /proc/sys/rewind (not running on rewind)");
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		check_knob(e->d_name);
		n++;
	}
	closedir(d);
	CHECK(n > 0);
	EXPECT_ERR(ENOENT, open("/proc/sys/rewind/no-such-knob", O_RDONLY));
}

/* === helpers: this program exec'd by the tests above ====================== */

static int
helper_chain(int n)
{
	char arg[16], *argv[] = { self_path, "--helper", "chain", arg, NULL };

	if (!getenv("USERTESTS_MARK"))
		fail("chain %d: the environment was lost", n);
	if (n == 0)
		return 42;
	snprintf(arg, sizeof(arg), "%d", n - 1);
	execv(self_path, argv);		/* the same environment */
	fail("chain %d: execve failed with %s", n, errname(errno));
}

/* tree N: two children each exec tree N-1; exits with the number of leaves. */
static int
helper_tree(int n)
{
	char arg[16], *argv[] = { self_path, "--helper", "tree", arg, NULL };
	int leaves = 0;

	if (n == 0)
		return 1;
	snprintf(arg, sizeof(arg), "%d", n - 1);
	pid_t kids[2];

	for (int i = 0; i < 2; i++) {
		kids[i] = xfork();
		if (kids[i] == 0) {
			execv(self_path, argv);
			fail("tree %d: execv failed with %s", n, errname(errno));
		}
	}
	for (int i = 0; i < 2; i++) {
		int status = wait_status(kids[i]);

		if (!WIFEXITED(status))
			fail("tree %d: a child did not exit normally", n);
		leaves += WEXITSTATUS(status);
	}
	return leaves;
}

static int
helper_args(int argc, char **argv)
{
	extern char **environ;
	int nenv = 0;

	if (argc != 5)
		fail("args: argc %d, want 5 after --helper args", argc + 2);
	if (strcmp(argv[1], "") || strcmp(argv[2], "two words") || strcmp(argv[4], "last"))
		fail("args: an argument changed on the way");
	if (strlen(argv[3]) != 4999 || strspn(argv[3], "x") != 4999)
		fail("args: the 5000-byte argument changed on the way");
	if (argv[argc] != NULL)
		fail("args: argv is not NULL-terminated");
	for (char **e = environ; *e; e++)
		nenv++;
	if (nenv != 2 || !getenv("USERTESTS_MARK") || strcmp(getenv("USERTESTS_MARK"), "exec"))
		fail("args: environment has %d entries, want exactly the 2 given", nenv);
	return 0;
}

static int
helper_fds(int kept, int closed)
{
	char buf[8];

	if (fcntl(closed, F_GETFD) != -1 || errno != EBADF)
		fail("fds: the O_CLOEXEC fd %d survived execve", closed);
	if (fcntl(kept, F_GETFD) != 0)
		fail("fds: fd %d was lost or is close-on-exec", kept);
	if (lseek(kept, 0, SEEK_CUR) != 4 || read(kept, buf, 3) != 3 || memcmp(buf, "456", 3))
		fail("fds: fd %d lost its file offset", kept);
	return 0;
}

static int
run_helper(int argc, char **argv)
{
	const char *fd = getenv(HELPER_FD_ENV);

	if (fd)
		test_report_fd = atoi(fd);
	if (argc >= 2 && !strcmp(argv[0], "exit"))
		return atoi(argv[1]);
	if (argc >= 2 && !strcmp(argv[0], "chain"))
		return helper_chain(atoi(argv[1]));
	if (argc >= 2 && !strcmp(argv[0], "tree"))
		return helper_tree(atoi(argv[1]));
	if (argc >= 1 && !strcmp(argv[0], "args"))
		return helper_args(argc, argv);
	if (argc >= 3 && !strcmp(argv[0], "fds"))
		return helper_fds(atoi(argv[1]), atoi(argv[2]));
	if (argc >= 3 && !strcmp(argv[0], "pid")) {
		if (getpid() != atoi(argv[1]) || getppid() != atoi(argv[2]))
			fail("pid: now %d (parent %d), before execve %s (parent %s)",
			     getpid(), getppid(), argv[1], argv[2]);
		return 0;
	}
	fail("unknown helper '%s'", argc ? argv[0] : "");
}

/* === the runner =========================================================== */

static char work_dir[PATH_MAX];		/* $TMPDIR/usertests.<pid>: one subdirectory per test */

/* Removes a directory tree; best effort, since the kernel under test may be at fault. */
static void
remove_tree(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;

	if (d) {
		while ((e = readdir(d))) {
			char child[PATH_MAX];
			struct stat st;

			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			snprintf(child, sizeof(child), "%s/%s", path, e->d_name);
			if (lstat(child, &st) == 0 && S_ISDIR(st.st_mode))
				remove_tree(child);
			else
				unlink(child);
		}
		closedir(d);
	}
	rmdir(path);
}

/* Where our executable is, as an absolute path, so that exec works from any directory. */
static void
find_self(const char *argv0)
{
	const char *path = getenv("PATH");
	char cwd[PATH_MAX];

	if (strchr(argv0, '/')) {
		int len;

		if (argv0[0] == '/' || !getcwd(cwd, sizeof(cwd)))
			len = snprintf(self_path, sizeof(self_path), "%s", argv0);
		else
			len = snprintf(self_path, sizeof(self_path), "%s/%s", cwd, argv0);
		if (len >= (int)sizeof(self_path))
			fprintf(stderr, "usertests: path of %s too long: exec tests will fail\n", argv0);
		return;
	}
	for (path = path ? path : "/bin"; *path;) {
		size_t len = strcspn(path, ":");

		snprintf(self_path, sizeof(self_path), "%.*s/%s", (int)len, path, argv0);
		if (access(self_path, X_OK) == 0 && self_path[0] == '/')
			return;
		path += len + (path[len] == ':');
	}
	snprintf(self_path, sizeof(self_path), "/bin/%s", argv0);
}

/* Each test's own directory: made before it starts, its working directory, removed after. */
static bool
test_dir(const char *test, char *path, size_t size)
{
	return snprintf(path, size, "%s/%s", work_dir, test) < (int)size;
}

static bool
make_test_dir(const char *test, char *why, size_t size)
{
	char dir[PATH_MAX];

	if (!test_dir(test, dir, sizeof(dir))) {
		snprintf(why, size, "%s/%s is too long a path", work_dir, test);
		return false;
	}
	if (mkdir(dir, 0755) < 0) {
		snprintf(why, size, "cannot set up: mkdir %s: %s", dir, strerror(errno));
		return false;
	}
	return true;
}

static void
enter_test_dir(const char *test)
{
	char dir[PATH_MAX];

	if (!test_dir(test, dir, sizeof(dir)) || chdir(dir) < 0)
		fail("chdir(%s) failed with %s", dir, errname(errno));
}

static void
remove_test_dir(const char *test)
{
	char dir[PATH_MAX];

	if (test_dir(test, dir, sizeof(dir)))
		remove_tree(dir);
}

int
main(int argc, char **argv)
{
	static const struct test_hooks hooks = { make_test_dir, enter_test_dir, remove_test_dir };
	const char *tmp = getenv("TMPDIR");
	int status;

	find_self(argv[0]);
	if (argc > 1 && !strcmp(argv[1], "--helper"))
		return run_helper(argc - 2, argv + 2);
	snprintf(work_dir, sizeof(work_dir), "%s/usertests.%d", tmp && *tmp ? tmp : "/tmp", getpid());
	if (mkdir(work_dir, 0755) < 0) {
		printf("usertests: cannot make %s: %s\n", work_dir, strerror(errno));
		printf("usertests: 0 passed, 1 failed\n");
		return 1;
	}
	status = test_run_all("usertests", argc - 1, argv + 1, &hooks);
	remove_tree(work_dir);
	return status;
}
