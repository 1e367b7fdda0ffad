/*
 * kcmp.c - usertests: kcmp(2), whether two processes share an open file,
 * an address space, an fd table, a root and cwd, or signal dispositions:
 * 0 for the same object, 1 or 2 for two (their order), and the errnos.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

enum { KCMP_FILE, KCMP_VM, KCMP_FILES, KCMP_FS, KCMP_SIGHAND, KCMP_IO, KCMP_SYSVSEM };

static long
kcmp(pid_t pid1, pid_t pid2, int type, unsigned long idx1, unsigned long idx2)
{
	return syscall(SYS_kcmp, pid1, pid2, type, idx1, idx2);
}

TEST(kcmp_files_of_one_process)
{
	pid_t me = getpid();
	int fd = CHECK_OK(open("/proc/self/stat", O_RDONLY));
	int dup_fd = CHECK_OK(dup(fd));
	int other = CHECK_OK(open("/proc/self/stat", O_RDONLY));

	CHECK_EQ(kcmp(me, me, KCMP_FILE, (unsigned long)fd, (unsigned long)dup_fd), 0l);
	long order = CHECK_OK(kcmp(me, me, KCMP_FILE, (unsigned long)fd, (unsigned long)other));
	CHECK(order == 1 || order == 2);
	CHECK_EQ(kcmp(me, me, KCMP_FILE, (unsigned long)other, (unsigned long)fd), 3 - order);
	CHECK_ERR(EBADF, kcmp(me, me, KCMP_FILE, (unsigned long)fd, 9999));
	CHECK_ERR(EINVAL, kcmp(me, me, 99, 0, 0));
	CHECK_ERR(EINVAL, kcmp(me, me, -1, 0, 0));
}

/* A forked child shares the open file but has its own memory, fd table and dispositions. */
TEST(kcmp_after_fork)
{
	int fd = CHECK_OK(open("/proc/self/stat", O_RDONLY));
	int p[2];
	char c;

	CHECK_OK(pipe(p));
	pid_t child = CHECK_OK(fork());
	if (child == 0) {
		read(p[0], &c, 1);
		_exit(0);
	}
	pid_t me = getpid();
	CHECK_EQ(kcmp(me, child, KCMP_FILE, (unsigned long)fd, (unsigned long)fd), 0l);
	CHECK(kcmp(me, child, KCMP_VM, 0, 0) != 0);
	CHECK(kcmp(me, child, KCMP_FILES, 0, 0) != 0);
	CHECK(kcmp(me, child, KCMP_FS, 0, 0) != 0);
	CHECK(kcmp(me, child, KCMP_SIGHAND, 0, 0) != 0);
	CHECK_EQ(kcmp(me, me, KCMP_VM, 0, 0), 0l);
	CHECK_ERR(ESRCH, kcmp(me, 0x3ffffff, KCMP_VM, 0, 0));
	CHECK_OK(write(p[1], "x", 1));
	expect_exit(child, 0, "the child");
}

static int pipe_fds[2];

/* Waits for the parent's byte, so that it lives while the parent compares. */
static int
share_child(void *arg __attribute__((unused)))
{
	char c;

	return read(pipe_fds[0], &c, 1) == 1 ? 0 : 1;
}

/* A clone with CLONE_FS, CLONE_FILES and CLONE_IO shares them, but not the address space. */
TEST(kcmp_clone_shares)
{
	static char stack[64 * 1024] __attribute__((aligned(16)));

	CHECK_OK(pipe(pipe_fds));
	pid_t child = CHECK_OK(clone(share_child, stack + sizeof(stack),
				     CLONE_FS | CLONE_FILES | CLONE_IO | SIGCHLD, NULL));
	CHECK_EQ(kcmp(getpid(), child, KCMP_FS, 0, 0), 0l);
	CHECK_EQ(kcmp(getpid(), child, KCMP_FILES, 0, 0), 0l);
	CHECK_EQ(kcmp(getpid(), child, KCMP_IO, 0, 0), 0l);
	CHECK(kcmp(getpid(), child, KCMP_VM, 0, 0) != 0);
	CHECK_OK(write(pipe_fds[1], "x", 1));
	expect_exit(child, 0, "the clone");
}

static void
kcmp_init_as_nobody(const char *arg __attribute__((unused)))
{
	CHECK_ERR(EPERM, kcmp(getpid(), 1, KCMP_VM, 0, 0));
}

TEST(kcmp_needs_inspect_right)
{
	if (geteuid() != 0)
		skip("needs root to become nobody");
	as_nobody(kcmp_init_as_nobody, NULL);
}
