/*
 * processes.c - usertests: process identity, fork and wait, exit codes,
 * CPU time, copy-on-write after fork, orphans and subreapers, timer slack,
 * CLONE_PARENT's siblings, PR_SET_TSC, and the odd system calls a process makes about
 * itself (sched_yield, arch_prctl, unknown numbers, rewind's int 0x80
 * entry).
 */
#define _GNU_SOURCE
#include "usertests.h"
#include "lib/procfile.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "uapi/capability.h" /* musl has no <linux/capability.h> */
#include "uapi/prctl.h"	     /* ARCH_SET_FS: musl has no <asm/prctl.h> */

static long long
cpu_ns(clockid_t clock)
{
	struct timespec ts;

	CHECK_OK(clock_gettime(clock, &ts));
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
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

TEST(getpid)
{
	pid_t me = getpid(), pid;
	int p[2];

	CHECK(me > 0);
	CHECK_EQ(syscall(SYS_gettid), me);
	CHECK_EQ(syscall(SYS_set_tid_address, NULL), me);
	CHECK_EQ(getuid(), geteuid());
	CHECK_EQ(getgid(), getegid());
	CHECK_OK(pipe(p));
	pid = xfork();
	if (pid == 0) {
		pid_t mine = getpid();

		if (getppid() != me)
			fail("child: getppid() = %d, want %d", getppid(), me);
		write(p[1], &mine, sizeof(mine));
		_exit(0);
	}
	pid_t told;

	CHECK_EQ(read(p[0], &told, sizeof(told)), sizeof(told));
	CHECK_EQ(told, pid);
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
	CHECK_EQ(wait4(pid, &status, 0, &ru), pid);
	CHECK(WIFEXITED(status));
	CHECK_EQ(WEXITSTATUS(status), 42);
	CHECK_ERR(ECHILD, wait4(pid, &status, 0, NULL));
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
		pid_t got = CHECK_OK(wait(&status));
		int i = WEXITSTATUS(status) - 100;

		CHECK(WIFEXITED(status) && i >= 0 && i < N);
		CHECK(pids[i] == got && !seen[i]);
		seen[i] = true;
	}
	CHECK_ERR(ECHILD, wait(NULL));
}

TEST(exit_codes)
{
	pid_t pid;

	pid = xfork();
	if (pid == 0)
		exit(256 + 3); /* only the low 8 bits reach the parent */
	expect_exit(pid, 3, "exit(259)");
	pid = xfork();
	if (pid == 0)
		_exit(255);
	expect_exit(pid, 255, "_exit(255)");
	pid = xfork();
	if (pid == 0)
		syscall(SYS_exit, 7); /* the one-thread exit, not exit_group */
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

	CHECK_ERR(ECHILD, wait4(-1, &status, WNOHANG, NULL));
	CHECK_ERR(ECHILD, wait4(1, &status, 0, NULL));
	CHECK_OK(pipe(p));
	pid = xfork();
	if (pid == 0) {
		close(p[1]);
		read(p[0], &c, 1); /* until the parent says go */
		_exit(5);
	}
	close(p[0]);
	/* The child is blocked in read(): it cannot have ended yet. */
	CHECK_EQ(wait4(pid, &status, WNOHANG, NULL), 0);
	CHECK_EQ(wait4(-1, &status, WNOHANG, NULL), 0);
	CHECK_ERR(EINVAL, syscall(SYS_wait4, pid, &status, 0x1000, NULL));
	CHECK_EQ(write(p[1], &c, 1), 1);
	expect_exit(pid, 5, "reader child");
	for (unsigned i = 0; i < NBAD; i++) {
		pid = xfork();
		if (pid == 0)
			_exit(0);
		CHECK_ERR(EFAULT, syscall(SYS_wait4, pid, bad_addrs[i], 0, NULL));
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
	CHECK_EQ(wait4(pid, &status, 0, &ru), pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* The child ran for 30 ms of CPU time; its rusage must show some. */
	CHECK(tv_us(ru.ru_utime) + tv_us(ru.ru_stime) > 0);
	CHECK(ru.ru_utime.tv_usec < 1000000 && ru.ru_stime.tv_usec < 1000000);
	CHECK_OK(getrusage(RUSAGE_CHILDREN, &children));
	CHECK(tv_us(children.ru_utime) + tv_us(children.ru_stime) > 0);
	for (unsigned i = 0; i < NBAD; i++)
		CHECK_ERR(EFAULT, syscall(SYS_getrusage, RUSAGE_SELF, bad_addrs[i]));
	CHECK_ERR(EINVAL, syscall(SYS_getrusage, 12345, &ru));
}

TEST(cpu_time)
{
	struct rusage r0, r1;
	struct tms t0, t1;
	long long p0, p1, th0, th1;

	CHECK_OK(getrusage(RUSAGE_SELF, &r0));
	CHECK_OK(times(&t0));
	p0 = cpu_ns(CLOCK_PROCESS_CPUTIME_ID);
	th0 = cpu_ns(CLOCK_THREAD_CPUTIME_ID);
	burn_cpu(30 * 1000000LL);
	CHECK_OK(getrusage(RUSAGE_SELF, &r1));
	CHECK_OK(times(&t1));
	p1 = cpu_ns(CLOCK_PROCESS_CPUTIME_ID);
	th1 = cpu_ns(CLOCK_THREAD_CPUTIME_ID);
	CHECK(p1 - p0 >= 30 * 1000000LL);
	CHECK(th1 > th0);
	CHECK(tv_us(r1.ru_utime) + tv_us(r1.ru_stime) > tv_us(r0.ru_utime) + tv_us(r0.ru_stime));
	/* 30 ms always crosses at least one 10 ms clock tick of times(). */
	CHECK(t1.tms_utime + t1.tms_stime > t0.tms_utime + t0.tms_stime);
	for (unsigned i = 0; i < NBAD; i++)
		CHECK_ERR(EFAULT, syscall(SYS_times, bad_addrs[i]));
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
	struct {
		unsigned char *p;
		size_t len;
	} r[] = {
		{ (unsigned char *)cow_data, sizeof(cow_data) },
		{ (unsigned char *)cow_bss, sizeof(cow_bss) },
		{ heap, HEAP },
		{ stack, STACK },
		{ anon, ANON },
	};
	int to_child[2], to_parent[2];
	char c;
	pid_t pid;

	CHECK(heap != NULL);
	for (unsigned i = 0; i < 5; i++)
		fill_pattern(r[i].p, r[i].len, 1);
	CHECK_OK(pipe(to_child));
	CHECK_OK(pipe(to_parent));
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
	CHECK_EQ(read(to_parent[0], &c, 1), 1);
	for (unsigned i = 0; i < 5; i++) {
		if (!has_pattern(r[i].p, r[i].len, 1))
			fail("parent: region %u sees the child's writes", i);
		fill_pattern(r[i].p, r[i].len, 3);
	}
	CHECK_EQ(write(to_child[1], "g", 1), 1);
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
	CHECK_OK(pipe(p));
	pid = xfork();
	if (pid == 0) {
		fd = CHECK_OK(open("f", O_RDONLY));
		CHECK_EQ(read(fd, buf + 100, PAGE), PAGE); /* straddles two pages */
		CHECK(all_bytes(buf + 100, PAGE, 'F'));
		write(p[1], "r", 1);
		_exit(0);
	}
	CHECK_EQ(read(p[0], &c, 1), 1);
	expect_exit(pid, 0, "read() in child");
	CHECK(all_bytes(buf, sizeof(buf), 'P'));
}

TEST(fork_fd_sharing)
{
	int fd = create_file("f", "", 0, 0644);
	pid_t pid = xfork();

	if (pid == 0) {
		CHECK_EQ(write(fd, "child", 5), 5);
		_exit(0);
	}
	expect_exit(pid, 0, "writer child");
	/* The open file description, and so the offset, is shared. */
	CHECK_EQ(lseek(fd, 0, SEEK_CUR), 5);
	CHECK_EQ(write(fd, "parent", 6), 6);
	char buf[16] = "";

	CHECK_EQ(pread(fd, buf, sizeof(buf), 0), 11);
	CHECK_EQ(memcmp(buf, "childparent", 11), 0);
}

/* An orphan is adopted by init (or on a Linux host, by the nearest subreaper). */
TEST(orphan)
{
	int p[2];
	pid_t middle, orphan_ppid;

	CHECK_OK(pipe(p));
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
	CHECK_EQ(read(p[0], &orphan_ppid, sizeof(orphan_ppid)), sizeof(orphan_ppid));
	if (orphan_ppid == middle)
		fail("the orphan still has its dead parent %d as parent", middle);
	if (on_rewind() && orphan_ppid != 1)
		fail("the orphan's new parent is %d, want init (1)", orphan_ppid);
}

/*
 * PR_SET_CHILD_SUBREAPER: orphans below this process come to it rather
 * than to init, to be waited for here; a fork child does not inherit it.
 */
TEST(child_subreaper_takes_orphans)
{
	int go[2], report[2], on = -1;
	pid_t me = getpid(), orphan = 0;

	CHECK_OK(prctl(PR_GET_CHILD_SUBREAPER, &on));
	CHECK_EQ(on, 0);
	CHECK_OK(prctl(PR_SET_CHILD_SUBREAPER, 1));
	CHECK_OK(prctl(PR_GET_CHILD_SUBREAPER, &on));
	CHECK_EQ(on, 1);
	CHECK_OK(pipe(go));
	CHECK_OK(pipe(report));
	pid_t middle = xfork();
	if (middle == 0) {
		int inherited = -1;
		pid_t pid = fork();
		if (pid == 0) {
			char c;
			_exit(read(go[0], &c, 1) == 1 && getppid() == me ? 5 : 6);
		}
		prctl(PR_GET_CHILD_SUBREAPER, &inherited);
		_exit(write(report[1], &pid, sizeof(pid)) == sizeof(pid) && inherited == 0 ? 0 : 1);
	}
	expect_exit(middle, 0, "the middle process, not a subreaper itself");
	CHECK_EQ(read(report[0], &orphan, sizeof(orphan)), (long)sizeof(orphan));
	CHECK_EQ(write(go[1], "x", 1), 1);
	expect_exit(orphan, 5, "the orphan, whose parent is now this process");
	close(go[0]);
	close(go[1]);
	close(report[0]);
	close(report[1]);
}

/* /proc/self/timerslack_ns as a number, or -1. */
static long
proc_timer_slack(void)
{
	char text[32];

	if (read_text_file("/proc/self/timerslack_ns", text, sizeof(text)) <= 0)
		return -1;
	return atol(text);
}

/*
 * The timer slack: set and read back by prctl and /proc/self/timerslack_ns
 * alike, 0 going back to the default, which a fork child takes from its
 * creator's slack then.
 */
TEST(timer_slack_is_kept_and_inherited)
{
	long start = CHECK_OK(prctl(PR_GET_TIMERSLACK));

	CHECK(start > 0);
	CHECK_EQ(proc_timer_slack(), start);
	CHECK_OK(prctl(PR_SET_TIMERSLACK, 70000));
	CHECK_EQ(prctl(PR_GET_TIMERSLACK), 70000);
	CHECK_EQ(proc_timer_slack(), 70000);
	pid_t pid = xfork();
	if (pid == 0) {
		bool same = prctl(PR_GET_TIMERSLACK) == 70000;
		prctl(PR_SET_TIMERSLACK, 1);
		prctl(PR_SET_TIMERSLACK, 0); /* back to the default: the parent's slack at fork */
		_exit(same && prctl(PR_GET_TIMERSLACK) == 70000 ? 0 : 1);
	}
	expect_exit(pid, 0, "a child with its creator's slack as its default");
	CHECK_OK(prctl(PR_SET_TIMERSLACK, 0));
	CHECK_EQ(prctl(PR_GET_TIMERSLACK), start);
}

TEST(sched_yield)
{
	for (int i = 0; i < 100; i++)
		CHECK_EQ(sched_yield(), 0);
}

/* The thread pointer musl set at start-up is what the kernel has in FS. */
TEST(arch_prctl)
{
	unsigned long fs = 0, self;

	__asm__ volatile("mov %%fs:0, %0" : "=r"(self));
	CHECK_OK(syscall(SYS_arch_prctl, ARCH_GET_FS, &fs));
	CHECK_EQ(fs, self);
	CHECK_OK(syscall(SYS_arch_prctl, ARCH_SET_FS, self));
	errno = 0; /* errno lives in TLS: it must still work */
	CHECK_EQ(errno, 0);
	CHECK_ERR(EINVAL, syscall(SYS_arch_prctl, 0x9999, 0));
	CHECK_ERR(EPERM, syscall(SYS_arch_prctl, ARCH_SET_FS, 0xffff800000000000UL));
	CHECK_ERR(EFAULT, syscall(SYS_arch_prctl, ARCH_GET_FS, bad_addrs[2]));
}

/*
 * clone(CLONE_PARENT) makes a sibling: the new process is its creator's
 * parent's child, to be waited for there (the creator gets ECHILD), and it
 * sees that parent with getppid.
 */
TEST(clone_parent_makes_a_sibling)
{
	int report[2];
	pid_t me = getpid(), sibling = 0;

	CHECK_OK(pipe(report));
	pid_t creator = xfork();
	if (creator == 0) {
		long r = syscall(SYS_clone, CLONE_PARENT | SIGCHLD, 0, NULL, NULL, 0);
		if (r == 0)
			syscall(SYS_exit_group, getppid() == me ? 7 : 8); /* nothing of libc here */
		if (r < 0)
			_exit(1);
		pid_t pid = (pid_t)r;
		bool not_mine = waitpid(pid, NULL, 0) < 0 && errno == ECHILD;
		_exit(write(report[1], &pid, sizeof(pid)) == sizeof(pid) && not_mine ? 0 : 2);
	}
	expect_exit(creator, 0, "the creator, which may not wait for its sibling");
	CHECK_EQ(read(report[0], &sibling, sizeof(sibling)), (long)sizeof(sibling));
	expect_exit(sibling, 7, "the sibling, its parent seen by getppid");
	close(report[0]);
	close(report[1]);
}

/*
 * clone(CLONE_SETTLS) refuses a thread pointer arch_prctl refuses: the
 * context switch would load it into FS with a WRMSR that faults in ring 0
 * on a non-canonical address. Linux: EPERM, and no child.
 */
TEST(clone_settls_checked)
{
	static const unsigned long bad_tls[] = { 0x0000800000000000UL, 0xdead000000000000UL,
						 0xffff800000000000UL };

	for (unsigned i = 0; i < sizeof(bad_tls) / sizeof(bad_tls[0]); i++) {
		long r = syscall(SYS_clone, SIGCHLD | CLONE_SETTLS, 0, NULL, NULL, bad_tls[i]);

		if (r == 0)
			syscall(SYS_exit_group,
				99); /* the child of a wrong success: nothing of libc */
		if (r > 0) {
			expect_exit((pid_t)r, 99, "child of clone with a bad TLS");
			fail("clone(CLONE_SETTLS, tls %#lx) made a child, want EPERM", bad_tls[i]);
		}
		CHECK_ERR(EPERM, r);
		CHECK_ERR(EPERM, syscall(SYS_arch_prctl, ARCH_SET_FS, bad_tls[i]));
	}
	CHECK_ERR(ECHILD, waitpid(-1, NULL, WNOHANG));
}

static volatile int vfork_child_done; /* set by a CLONE_VM child just before it leaves */

static void
nap_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

static int
late_vfork_child(void *arg)
{
	(void)arg;
	nap_ms(200);
	vfork_child_done = 1;
	_exit(0);
}

/*
 * clone(CLONE_VM | CLONE_VFORK) returns in the parent only once the child
 * has exited or exec'd (LTP clone05), here 200 ms late (docs/robustness.md, review 2 row 17).
 */
TEST(clone_vfork_suspends_parent)
{
	static char stack[64 * 1024] __attribute__((aligned(16)));

	vfork_child_done = 0;
	pid_t pid = clone(late_vfork_child, stack + sizeof(stack), CLONE_VM | CLONE_VFORK | SIGCHLD,
			  NULL);
	CHECK(pid > 0);
	CHECK_EQ(vfork_child_done, 1);
	expect_exit(pid, 0, "the CLONE_VFORK child");

	/* vfork() then execve: the parent goes on when the exec is done. */
	char *argv[] = { self_path, "--helper", "exit", "7", NULL };
	vfork_child_done = 0;
	pid = vfork();
	if (pid == 0) {
		nap_ms(200);
		vfork_child_done = 1;
		execv(self_path, argv);
		_exit(127);
	}
	CHECK(pid > 0);
	CHECK_EQ(vfork_child_done, 1);
	expect_exit(pid, 7, "the vfork child's program");
}

static volatile sig_atomic_t vfork_parent_signalled;

static void
note_vfork_signal(int sig)
{
	(void)sig;
	vfork_parent_signalled = 1;
}

/* A vfork parent whose child reports its pid on report and waits for a signal. */
static pid_t
start_vfork_parent(int report)
{
	pid_t parent = xfork();

	if (parent == 0) {
		signal(SIGUSR1, note_vfork_signal);
		pid_t child = vfork();
		if (child == 0) {
			pid_t me = getpid();
			if (write(report, &me, sizeof(me)) != sizeof(me))
				_exit(1);
			pause();
			_exit(0);
		}
		_exit(vfork_parent_signalled ? 5 : 6);
	}
	return parent;
}

/*
 * The vfork wait is killable and nothing else: SIGUSR1 waits (the handler
 * runs once the child is gone), SIGKILL ends it.
 */
TEST(vfork_parent_wait_killable)
{
	int report[2];
	pid_t child;

	CHECK_OK(pipe(report));
	pid_t parent = start_vfork_parent(report[1]);
	CHECK_EQ(read(report[0], &child, sizeof(child)), sizeof(child));
	nap_ms(50);
	CHECK_OK(kill(parent, SIGUSR1));
	nap_ms(100);
	CHECK_EQ(waitpid(parent, NULL, WNOHANG), 0); /* still in vfork */
	CHECK_OK(kill(child, SIGKILL));
	expect_exit(parent, 5, "the vfork parent, its child killed");

	parent = start_vfork_parent(report[1]);
	CHECK_EQ(read(report[0], &child, sizeof(child)), sizeof(child));
	CHECK_OK(kill(parent, SIGKILL));
	expect_signaled(wait_status(parent), SIGKILL, "the vfork parent killed");
	CHECK_OK(kill(child, SIGKILL));
}

TEST(enosys)
{
	/* First (the log line is rate-limited): a Linux number no Linux implements, which rewind's log line names. */
	CHECK_ERR(ENOSYS, syscall(SYS_tuxcall));
	CHECK_ERR(ENOSYS, syscall(1000));
	CHECK_ERR(ENOSYS, syscall(100000));
	CHECK_ERR(ENOSYS, syscall(-1L));
}

/* rewind's `int 0x80` entry uses the x86-64 numbers (Linux's uses i386's). */
TEST(int80)
{
	long ret;

	if (!on_rewind())
		skip("int 0x80 is rewind's x86-64 trap entry only on rewind");
	__asm__ volatile("int $0x80" : "=a"(ret) : "a"((long)SYS_getpid) : "rcx", "r11", "memory");
	CHECK_EQ(ret, getpid());
	__asm__ volatile("int $0x80" : "=a"(ret) : "a"(1000L) : "rcx", "r11", "memory");
	CHECK_EQ(ret, -ENOSYS);
}

static int pdeath_pipe[2];

/* Forks the child that asks for SIGKILL when this thread dies; returns once it has asked. */
static void *
fork_orphan_to_be(void *pidp)
{
	pid_t pid = fork();
	char c;

	if (pid == 0) {
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
			_exit(3);
		if (write(pdeath_pipe[1], "r", 1) != 1)
			_exit(4);
		for (;;)
			pause();
	}
	*(pid_t *)pidp = pid;
	if (pid > 0 && read(pdeath_pipe[0], &c, 1) != 1)
		*(pid_t *)pidp = -1;
	return NULL; /* this thread ends: its child is told, though the process lives on */
}

/* The middle process: a thread of it forks, then exits; the child must die of SIGKILL. */
static void
pdeath_middle(void)
{
	pthread_t t;
	pid_t child = 0;
	int status;

	if (pipe(pdeath_pipe) || pthread_create(&t, NULL, fork_orphan_to_be, &child) ||
	    pthread_join(t, NULL) || child <= 0)
		_exit(10);
	if (waitpid(child, &status, 0) != child)
		_exit(11);
	_exit(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL ? 0 : 12);
}

TEST(prctl_pdeathsig)
{
	int sig = -1;

	CHECK_ERR(EINVAL, prctl(PR_SET_PDEATHSIG, 65));
	CHECK_OK(prctl(PR_SET_PDEATHSIG, SIGUSR1));
	CHECK_OK(prctl(PR_GET_PDEATHSIG, &sig));
	CHECK_EQ(sig, SIGUSR1);
	CHECK_ERR(EFAULT, prctl(PR_GET_PDEATHSIG, (void *)1));
	pid_t pid = xfork();
	if (pid == 0) { /* fork does not pass it on */
		prctl(PR_GET_PDEATHSIG, &sig);
		_exit(sig);
	}
	expect_exited(wait_status(pid), 0, "a forked child's PR_GET_PDEATHSIG");
	CHECK_OK(prctl(PR_SET_PDEATHSIG, 0));

	pid = xfork();
	if (pid == 0)
		pdeath_middle();
	expect_exited(wait_status(pid), 0, "a child whose parent thread exited");
}

TEST(capget)
{
	struct kernel_cap_header hdr = { 0, 0 };
	struct kernel_cap_data data[2];

	CHECK_ERR(EINVAL, syscall(SYS_capget, &hdr, data));
	CHECK_EQ(hdr.version,
		 _LINUX_CAPABILITY_VERSION_3); /* the version the kernel prefers, written back */
	CHECK_OK(syscall(SYS_capget, &hdr, NULL));
	CHECK_OK(syscall(SYS_capget, &hdr, data));
	CHECK(!(data[0].effective & ~data[0].permitted) &&
	      !(data[1].effective & ~data[1].permitted));
	hdr.pid = -1;
	CHECK_ERR(EINVAL, syscall(SYS_capget, &hdr, data));
	hdr.pid = 0x3ffffff0;
	CHECK_ERR(ESRCH, syscall(SYS_capget, &hdr, data));
	CHECK_ERR(EFAULT, syscall(SYS_capget, (void *)1, data));
	if (geteuid() != 0)
		return;
	pid_t pid = xfork();
	if (pid == 0) { /* root that becomes another user keeps no capability */
		hdr.pid = 0;
		if (setuid(65534) || syscall(SYS_capget, &hdr, data))
			_exit(2);
		_exit(data[0].effective || data[0].permitted || data[1].effective ? 3 : 0);
	}
	expect_exited(wait_status(pid), 0, "capget after setuid");
}

static unsigned long long
read_tsc(void)
{
	unsigned lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return (unsigned long long)hi << 32 | lo;
}

/* PR_TSC_SIGSEGV reads back, a fork inherits it, a switch keeps it; then rdtsc faults. */
static void
rdtsc_under_tsc_sigsegv(void)
{
	int mode = 0, status;

	if (prctl(PR_SET_TSC, PR_TSC_SIGSEGV) || prctl(PR_GET_TSC, &mode) || mode != PR_TSC_SIGSEGV)
		_exit(2);
	pid_t pid = fork();
	if (pid == 0) {
		mode = 0;
		_exit(prctl(PR_GET_TSC, &mode) == 0 && mode == PR_TSC_SIGSEGV ? 0 : 3);
	}
	if (waitpid(pid, &status, 0) != pid || status != 0)
		_exit(4);
	sched_yield();
	read_tsc();
	_exit(5);
}

/* Back to PR_TSC_ENABLE, rdtsc works and counts up. */
static void
rdtsc_enabled_again(void)
{
	if (prctl(PR_SET_TSC, PR_TSC_SIGSEGV) || prctl(PR_SET_TSC, PR_TSC_ENABLE))
		_exit(2);
	unsigned long long t0 = read_tsc();
	_exit(read_tsc() > t0 ? 0 : 3);
}

TEST(prctl_tsc)
{
	int mode = 0;

	CHECK_OK(prctl(PR_GET_TSC, &mode));
	CHECK_EQ(mode, PR_TSC_ENABLE);
	CHECK_ERR(EINVAL, prctl(PR_SET_TSC, 0));
	CHECK_ERR(EINVAL, prctl(PR_SET_TSC, 3));
	CHECK_ERR(EFAULT, prctl(PR_GET_TSC, NULL));
	expect_killed(rdtsc_under_tsc_sigsegv, SIGSEGV, "rdtsc under PR_TSC_SIGSEGV");
	pid_t pid = xfork();
	if (pid == 0)
		rdtsc_enabled_again();
	expect_exit(pid, 0, "rdtsc after PR_TSC_ENABLE");
}
