/*
 * limits.c - usertests: resource limits (getrlimit, setrlimit, prlimit64)
 * and the user ids that decide who may raise them. Each limit is checked
 * where Linux enforces it: fds (RLIMIT_NOFILE), file size (RLIMIT_FSIZE:
 * SIGXFSZ and EFBIG), address space and data (RLIMIT_AS, RLIMIT_DATA:
 * mmap and brk), stack growth (RLIMIT_STACK), tasks (RLIMIT_NPROC), CPU
 * time (RLIMIT_CPU: SIGXCPU, then SIGKILL at the hard limit), and
 * fs.nr_open, which bounds RLIMIT_NOFILE and the fd tables unshare copies.
 * Limits are changed in a child (each test runs in its own anyway); the
 * tests that need an unprivileged process give up root first when they
 * run as root, as on rewind, and expect root's exemptions only as root.
 */
#define _GNU_SOURCE
#include "usertests.h"
#include "lib/procfile.h"
#include "uapi/capability.h" /* CAP_SYS_RESOURCE: musl has no <linux/capability.h> */

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define NR_OPEN_ 1048576 /* fs.nr_open's default: no RLIMIT_NOFILE above it */

static struct rlimit
get_limit(int resource)
{
	struct rlimit r;

	CHECK_OK(getrlimit(resource, &r));
	return r;
}

static void
set_soft(int resource, rlim_t cur)
{
	struct rlimit r = get_limit(resource);

	r.rlim_cur = cur;
	CHECK_OK(setrlimit(resource, &r));
}

/*
 * Whether this process may raise a hard limit: CAP_SYS_RESOURCE among its
 * effective capabilities where /proc/self/status shows them (root in a
 * container may lack it), else root.
 */
static bool
may_raise_hard_limits(void)
{
	char text[4096], *cap;
	unsigned long long caps;
	int fd = open("/proc/self/status", O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, text, sizeof(text) - 1);

	if (fd >= 0)
		close(fd);
	if (n > 0) {
		text[n] = '\0';
		cap = strstr(text, "\nCapEff:");
		if (cap && sscanf(cap, "\nCapEff: %llx", &caps) == 1)
			return caps & (1ull << CAP_SYS_RESOURCE);
	}
	return geteuid() == 0;
}

/* Makes this process an ordinary user's, if it is root. */
static void
give_up_root(void)
{
	uid_t r, e, s;

	if (geteuid() == 0)
		CHECK_OK(setuid(NOBODY_ID));
	CHECK_OK(getresuid(&r, &e, &s));
	CHECK(e != 0 && r == e && s == e);
}

TEST(rlimit_rules)
{
	struct rlimit r = get_limit(RLIMIT_NOFILE), got, old;

	CHECK(r.rlim_cur <= r.rlim_max);
	/* prlimit64 on itself, by pid 0 and by its own pid, reads the same. */
	CHECK_OK(syscall(SYS_prlimit64, 0, RLIMIT_NOFILE, NULL, &got));
	CHECK(got.rlim_cur == r.rlim_cur && got.rlim_max == r.rlim_max);
	CHECK_OK(syscall(SYS_prlimit64, getpid(), RLIMIT_NOFILE, NULL, &got));
	CHECK(got.rlim_cur == r.rlim_cur && got.rlim_max == r.rlim_max);
	/* Bad resource, soft above hard, no such process, bad pointers. */
	CHECK_ERR(EINVAL, syscall(SYS_getrlimit, 16, &got));
	CHECK_ERR(EINVAL, syscall(SYS_prlimit64, 0, 1000, NULL, &got));
	struct rlimit inverted = { r.rlim_max, r.rlim_max - 1 };
	CHECK_ERR(EINVAL, syscall(SYS_setrlimit, RLIMIT_NOFILE, &inverted));
	CHECK_ERR(ESRCH, syscall(SYS_prlimit64, 0x3ffffff, RLIMIT_NOFILE, NULL, &got));
	CHECK_ERR(EFAULT, syscall(SYS_getrlimit, RLIMIT_NOFILE, bad_addrs[0]));
	CHECK_ERR(EFAULT, syscall(SYS_setrlimit, RLIMIT_NOFILE, bad_addrs[1]));
	/* Lower the soft limit, then back up to the hard one: anyone may. */
	struct rlimit lower = { 100, r.rlim_max };
	CHECK_OK(syscall(SYS_prlimit64, 0, RLIMIT_NOFILE, &lower, &old));
	CHECK_EQ(old.rlim_cur, r.rlim_cur);
	CHECK_EQ(get_limit(RLIMIT_NOFILE).rlim_cur, 100);
	CHECK_OK(setrlimit(RLIMIT_NOFILE, &r));
	/* No RLIMIT_NOFILE above fs.nr_open, not even for root. */
	struct rlimit huge = { NR_OPEN_ + 1, NR_OPEN_ + 1 };
	CHECK_ERR(EPERM, setrlimit(RLIMIT_NOFILE, &huge));
	/* A lowered hard limit comes back up only with privilege. */
	struct rlimit lowered = { 64, 64 }, back = { 64, 4096 };
	CHECK_OK(setrlimit(RLIMIT_NOFILE, &lowered));
	if (may_raise_hard_limits())
		CHECK_OK(setrlimit(RLIMIT_NOFILE, &back));
	else
		CHECK_ERR(EPERM, setrlimit(RLIMIT_NOFILE, &back));
}

/* Without root: a hard limit only goes down; ids only among those held; limits of root's processes are out of reach. */
TEST(rlimit_unprivileged)
{
	struct rlimit hard = { 512, 512 }, raise = { 512, 513 }, got;
	uid_t r, e, s;

	give_up_root();
	CHECK_OK(setrlimit(RLIMIT_NOFILE, &hard));
	CHECK_ERR(EPERM, setrlimit(RLIMIT_NOFILE, &raise));
	CHECK_EQ(get_limit(RLIMIT_NOFILE).rlim_max, 512);
	CHECK_ERR(EPERM, setuid(0));
	CHECK_ERR(EPERM, setresuid(-1, 0, -1));
	CHECK_OK(getresuid(&r, &e, &s));
	CHECK(e != 0);
	/* init runs as root: another user may not read its limits. */
	CHECK_ERR(EPERM, syscall(SYS_prlimit64, 1, RLIMIT_NOFILE, NULL, &got));
}

TEST(rlimit_inherited_by_fork)
{
	set_soft(RLIMIT_NOFILE, 77);
	set_soft(RLIMIT_FSIZE, 123456);
	pid_t pid = xfork();
	if (pid == 0) {
		CHECK_EQ(get_limit(RLIMIT_NOFILE).rlim_cur, 77);
		CHECK_EQ(get_limit(RLIMIT_FSIZE).rlim_cur, 123456);
		_exit(0);
	}
	expect_exit(pid, 0, "child reading its limits");
}

TEST(rlimit_nofile)
{
	int fds[2], fd, last = -1;

	set_soft(RLIMIT_NOFILE, 16);
	while ((fd = open("/dev/null", O_RDONLY)) >= 0)
		last = fd;
	CHECK_EQ(errno, EMFILE);
	CHECK_EQ(last, 15);
	CHECK_ERR(EMFILE, dup(0));
	CHECK_ERR(EMFILE, pipe(fds));
	CHECK_ERR(EMFILE, fcntl(0, F_DUPFD, 3));
	CHECK_ERR(EBADF, dup2(0, 16));
	CHECK_ERR(EINVAL, fcntl(0, F_DUPFD, 16));
	CHECK_OK(close(last));
	CHECK_EQ(dup2(0, 15), 15);
	/* A lower limit closes nothing: fds above it still work. */
	set_soft(RLIMIT_NOFILE, 8);
	CHECK_OK(fcntl(15, F_GETFD));
	CHECK_OK(close(15));
	CHECK_ERR(EMFILE, open("/dev/null", O_RDONLY));
	set_soft(RLIMIT_NOFILE, 64);
	CHECK_EQ(open("/dev/null", O_RDONLY), 15);
}

static void
write_past_fsize(void)
{
	int fd = CHECK_OK(open("big", O_WRONLY | O_CREAT | O_TRUNC, 0644));

	set_soft(RLIMIT_FSIZE, 4096);
	CHECK_OK(lseek(fd, 4096, SEEK_SET));
	(void)write(fd, "x", 1); /* SIGXFSZ ends the process */
}

TEST(rlimit_fsize)
{
	static char buf[3000];
	int fd = CHECK_OK(open("f", O_RDWR | O_CREAT | O_TRUNC, 0644));

	expect_killed(write_past_fsize, SIGXFSZ, "a write at RLIMIT_FSIZE");
	signal(SIGXFSZ, SIG_IGN);
	set_soft(RLIMIT_FSIZE, 5000);
	CHECK_EQ(write(fd, buf, sizeof(buf)), 3000);
	/* A write across the limit is cut short at it; one at the limit fails. */
	CHECK_EQ(write(fd, buf, sizeof(buf)), 2000);
	CHECK_ERR(EFBIG, write(fd, buf, 1));
	CHECK_ERR(EFBIG, pwrite(fd, buf, 1, 1 << 20));
	/* Truncation may not grow past it either; shrinking is fine. */
	CHECK_ERR(EFBIG, ftruncate(fd, 5001));
	CHECK_OK(ftruncate(fd, 5000));
	CHECK_OK(ftruncate(fd, 10));
	struct stat st;
	CHECK_OK(fstat(fd, &st));
	CHECK_EQ(st.st_size, 10);
	/* Reading is not limited: only growth is. */
	set_soft(RLIMIT_FSIZE, 4);
	CHECK_EQ(pread(fd, buf, sizeof(buf), 0), 10);
}

TEST(rlimit_as)
{
	enum { MIB = 1 << 20 };
	unsigned long brk0 = syscall(SYS_brk, 0);

	set_soft(RLIMIT_AS, 64 * MIB);
	CHECK_ERR(ENOMEM,
		  (long)mmap(NULL, 128 * MIB, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
	void *p = mmap(NULL, 4 * MIB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(p != MAP_FAILED);
	memset(p, 1, 4 * MIB);
	/* The heap is bounded too: brk stays where it was. */
	CHECK_EQ((unsigned long)syscall(SYS_brk, brk0 + 128 * MIB), brk0);
	CHECK_EQ((unsigned long)syscall(SYS_brk, brk0 + MIB), brk0 + MIB);
}

/*
 * RLIMIT_DATA bounds private writable memory: set 16 MiB above what the process has
 * already (VmData: its bss alone is about 15 MiB), a 32 MiB request fails, 1 MiB fits.
 */
TEST(rlimit_data)
{
	enum { MIB = 1 << 20 };
	unsigned long brk0 = syscall(SYS_brk, 0);
	unsigned long long data_kib;
	char status[4096];

	CHECK(read_text_file("/proc/self/status", status, sizeof(status)) > 0);
	CHECK_EQ(field_ull(status, "VmData", &data_kib), 0);
	set_soft(RLIMIT_DATA, data_kib * 1024 + 16 * MIB);
	/* Private writable memory counts; read-only and shared memory do not. */
	CHECK_ERR(ENOMEM, (long)mmap(NULL, 32 * MIB, PROT_READ | PROT_WRITE,
				     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
	void *ro = mmap(NULL, 32 * MIB, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(ro != MAP_FAILED);
	void *shared =
		mmap(NULL, 32 * MIB, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	CHECK(shared != MAP_FAILED);
	CHECK_EQ((unsigned long)syscall(SYS_brk, brk0 + 32 * MIB), brk0);
	CHECK_EQ((unsigned long)syscall(SYS_brk, brk0 + MIB), brk0 + MIB);
}

/* Uses about kib KiB of stack, a page at a time, in a way no compiler can fold. */
static int
stack_pages(int kib)
{
	volatile char frame[1024];

	frame[0] = (char)kib;
	frame[sizeof(frame) - 1] = 1;
	return kib > 0 ? stack_pages(kib - 1) + frame[0] - (char)kib : frame[0];
}

static void
overflow_small_stack(void)
{
	set_soft(RLIMIT_STACK, 512 * 1024);
	stack_pages(64 * 1024); /* 64 MiB: far past it */
}

TEST(rlimit_stack)
{
	/* Within the limit the stack grows; past it, SIGSEGV. */
	CHECK_EQ(stack_pages(4 * 1024), 0);
	expect_killed(overflow_small_stack, SIGSEGV, "recursing past RLIMIT_STACK");
	set_soft(RLIMIT_STACK, 1024 * 1024);
	CHECK_EQ(stack_pages(256), 0);
}

TEST(rlimit_nproc)
{
	pid_t pid;

	if (geteuid() == 0) { /* root is not held to it (Linux: the root user, CAP_SYS_RESOURCE) */
		set_soft(RLIMIT_NPROC, 0);
		pid = xfork();
		if (pid == 0)
			_exit(0);
		expect_exit(pid, 0, "root's child past RLIMIT_NPROC");
		set_soft(RLIMIT_NPROC, get_limit(RLIMIT_NPROC).rlim_max);
	}
	give_up_root();
	set_soft(RLIMIT_NPROC, 0);
	CHECK_ERR(EAGAIN, fork());
	set_soft(RLIMIT_NPROC, get_limit(RLIMIT_NPROC).rlim_max);
	pid = xfork();
	if (pid == 0)
		_exit(0);
	expect_exit(pid, 0, "child within RLIMIT_NPROC");
}

#define THREADS_MAX "/proc/sys/kernel/threads-max"

/* Forks children that wait for gate's EOF until a fork fails: how many were made, its errno in *err. */
static int
fork_until_refused(const int gate[2], int most, int *err)
{
	int made = 0;

	for (; made < most; made++) {
		pid_t c = fork();
		if (c < 0) {
			*err = errno;
			break;
		}
		if (c == 0) {
			char ch;
			close(gate[1]);
			_exit(read(gate[0], &ch, 1) == 0 ? 0 : 1);
		}
	}
	return made;
}

/*
 * kernel.threads-max bounds the tasks in all, root's too (Linux's
 * nr_threads check in copy_process): at 20, root's forks fail with EAGAIN
 * before 20 more; below 20 is EINVAL. Only on rewind: on a host, a low
 * threads-max would stop every other program's forks as well.
 */
TEST(threads_max_eagain)
{
	if (geteuid() != 0)
		skip("needs root");
	if (access("/proc/sys/rewind", F_OK) != 0)
		skip("not on rewind: a low threads-max would stop the host's other programs' forks");
	int fd = CHECK_OK(open(THREADS_MAX, O_WRONLY));
	CHECK_ERR(EINVAL, write(fd, "19\n", 3));
	close(fd);
	unsigned long old = read_number(THREADS_MAX);
	CHECK(old >= 20);
	pid_t pid = xfork();
	if (pid == 0) {
		int gate[2], err = 0;
		CHECK_OK(pipe(gate));
		write_number(THREADS_MAX, 20);
		int made = fork_until_refused(gate, 40, &err);
		close(gate[1]);
		while (wait(NULL) > 0)
			;
		_exit(err == EAGAIN && made < 20 ? 0 : 1);
	}
	int status = wait_status(pid);
	write_number(THREADS_MAX, old);
	expect_exited(status, 0, "forks at threads-max 20: EAGAIN");
}

/* Writes text to /proc/sys/fs/nr_open: 0, or -1 with errno. */
static int
set_nr_open(const char *text)
{
	int fd = open("/proc/sys/fs/nr_open", O_WRONLY);
	if (fd < 0)
		return -1;
	ssize_t n = write(fd, text, strlen(text));
	int saved = errno;
	close(fd);
	errno = saved;
	return n < 0 ? -1 : 0;
}

/*
 * fs.nr_open is the whole machine's: lowered only to 16384, above the fds
 * of the other programs running (on a shared host too), and only while a
 * child sharing our fd table, which holds fd 17000, tries to copy it: by
 * fork and by unshare(CLONE_FILES), both EMFILE as Linux's dup_fd.
 */
static int
unshare_over_nr_open(void)
{
	pid_t pid = CHECK_OK(syscall(SYS_clone, CLONE_FILES | SIGCHLD, 0, 0, 0, 0));
	if (pid == 0) {
		if (set_nr_open("16384") < 0)
			_exit(2);
		pid_t copy = fork();
		if (copy == 0)
			_exit(0);
		int fork_err = copy < 0 ? errno : 0;
		if (copy > 0)
			waitpid(copy, NULL, 0);
		int err = unshare(CLONE_FILES) < 0 ? errno : 0;
		struct rlimit above = { 16385, 16385 }; /* a lowering, but over fs.nr_open */
		int rlimit_err = setrlimit(RLIMIT_NOFILE, &above) < 0 ? errno : 0;
		_exit(fork_err == EMFILE && err == EMFILE && rlimit_err == EPERM ? 0 : 1);
	}
	int status;
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Linux's bounds [64, INT_MAX rounded down to whole words], EINVAL outside, and what it limits. */
TEST(nr_open_sysctl)
{
	char saved[32];

	if (geteuid() != 0)
		skip("needs root, to set fs.nr_open");
	CHECK_OK(read_text_file("/proc/sys/fs/nr_open", saved, sizeof(saved)));
	CHECK(strtoul(saved, NULL, 10) >= 17001);
	CHECK_ERR(EINVAL, set_nr_open("63"));
	CHECK_ERR(EINVAL, set_nr_open("2147483647"));
	struct rlimit hard = get_limit(RLIMIT_NOFILE);
	struct rlimit room = { 17001, hard.rlim_max > 17001 ? hard.rlim_max : 17001 };
	if (setrlimit(RLIMIT_NOFILE, &room) < 0)
		skip("cannot raise RLIMIT_NOFILE to 17001 (no CAP_SYS_RESOURCE here)");
	CHECK_EQ(dup2(2, 17000), 17000);
	int status = unshare_over_nr_open();
	int restored = set_nr_open(saved);
	close(17000);
	CHECK_OK(restored);
	CHECK_EQ(status, 0);
}

static volatile sig_atomic_t xcpu_count;
static int xcpu_report = -1;

static void
on_xcpu(int sig)
{
	(void)sig;
	xcpu_count++;
	if (write(xcpu_report, "x", 1) != 1)
		_exit(4);
}

/* Burns CPU under RLIMIT_CPU 1 s soft, 2 s hard: SIGXCPU first, then SIGKILL. */
static void
burn_past_cpu_limit(void)
{
	struct rlimit lim = { 1, 2 };

	signal(SIGXCPU, on_xcpu);
	if (setrlimit(RLIMIT_CPU, &lim) < 0)
		_exit(2);
	for (;;) {
		if (xcpu_count && getrlimit(RLIMIT_CPU, &lim) == 0 && lim.rlim_cur != 2)
			_exit(3); /* the soft limit went up by a second with the signal */
	}
}

TEST(rlimit_cpu)
{
	int p[2];
	char buf[8];

	CHECK_OK(pipe(p));
	pid_t pid = xfork();
	if (pid == 0) {
		close(p[0]);
		xcpu_report = p[1];
		burn_past_cpu_limit();
	}
	close(p[1]);
	expect_signaled(wait_status(pid), SIGKILL, "CPU burner at its hard limit");
	CHECK_EQ(read(p[0], buf, sizeof(buf)), 1); /* one SIGXCPU, at 1 s, before */
}
