/*
 * pidfd.c - usertests: process file descriptors. pidfd_open's checks and
 * flags, a pidfd that polls readable once its process exited (zombie or
 * reaped), waitid(P_PIDFD), pidfd_send_signal's rules (kill's
 * permission, rt_sigqueueinfo's for a caller's siginfo, ESRCH after the
 * reap), the "Pid:" line of its /proc fdinfo, and pidfd_getfd (a
 * close-on-exec copy of another process's open file, ptrace's permission).
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef PIDFD_NONBLOCK
#define PIDFD_NONBLOCK O_NONBLOCK
#endif

static int
pidfd_open(pid_t pid, unsigned flags)
{
	return syscall(SYS_pidfd_open, pid, flags);
}

static int
pidfd_send_signal(int pidfd, int sig, siginfo_t *info, unsigned flags)
{
	return syscall(SYS_pidfd_send_signal, pidfd, sig, info, flags);
}

/* A child that waits until *release is closed by the parent, then exits 7. */
static int
pidfd_getfd(int pidfd, int targetfd, unsigned flags)
{
	return syscall(SYS_pidfd_getfd, pidfd, targetfd, flags);
}

static pid_t
child_until_closed(int *release)
{
	int p[2];

	CHECK_OK(pipe(p));
	pid_t pid = xfork();
	if (pid == 0) {
		char c;
		close(p[1]);
		read(p[0], &c, 1);
		_exit(7);
	}
	close(p[0]);
	*release = p[1];
	return pid;
}

static short
poll_now(int fd, int timeout_ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	CHECK(poll(&pfd, 1, timeout_ms) >= 0);
	return pfd.revents;
}

TEST(pidfd_open_checks)
{
	CHECK_ERR(EINVAL, pidfd_open(getpid(), 1));
	CHECK_ERR(EINVAL, pidfd_open(0, 0));
	CHECK_ERR(EINVAL, pidfd_open(-1, 0));
	pid_t gone = xfork();
	if (gone == 0)
		_exit(0);
	expect_exited(wait_status(gone), 0, "the child");
	CHECK_ERR(ESRCH, pidfd_open(gone, 0));

	int fd = CHECK_OK(pidfd_open(getpid(), 0));
	CHECK_EQ(fcntl(fd, F_GETFD), FD_CLOEXEC);
	CHECK_EQ(fcntl(fd, F_GETFL) & O_NONBLOCK, 0);
	close(fd);
	fd = CHECK_OK(pidfd_open(getpid(), PIDFD_NONBLOCK));
	CHECK(fcntl(fd, F_GETFL) & O_NONBLOCK);
	close(fd);
}

TEST(pidfd_polls_readable_once_exited)
{
	int release;
	pid_t pid = child_until_closed(&release);
	int fd = CHECK_OK(pidfd_open(pid, 0));

	CHECK_EQ(poll_now(fd, 0), 0);
	close(release);
	CHECK(poll_now(fd, -1) & POLLIN); /* a zombie */
	siginfo_t info = { 0 };
	CHECK_OK(waitid(P_PIDFD, fd, &info, WEXITED));
	CHECK_EQ(info.si_pid, pid);
	CHECK_EQ(info.si_status, 7);
	CHECK(poll_now(fd, 0) & POLLIN); /* reaped */
	CHECK_ERR(ESRCH, pidfd_send_signal(fd, 0, NULL, 0));
	close(fd);
}

/* waitid through a PIDFD_NONBLOCK pidfd does not wait: EAGAIN while the child runs. */
TEST(pidfd_nonblocking_waitid)
{
	int release;
	pid_t pid = child_until_closed(&release);
	int fd = CHECK_OK(pidfd_open(pid, PIDFD_NONBLOCK));
	siginfo_t info = { 0 };

	CHECK_ERR(EAGAIN, waitid(P_PIDFD, fd, &info, WEXITED));
	CHECK_ERR(EINVAL, waitid(P_PIDFD, -1, &info, WEXITED));
	close(release);
	CHECK(poll_now(fd, -1) & POLLIN);
	CHECK_OK(waitid(P_PIDFD, fd, &info, WEXITED));
	CHECK_EQ(info.si_pid, pid);
	close(fd);
}

TEST(pidfd_send_signal_kills)
{
	int release, p[2];
	pid_t pid = child_until_closed(&release);
	int fd = CHECK_OK(pidfd_open(pid, 0));

	CHECK_ERR(EINVAL, pidfd_send_signal(fd, SIGKILL, NULL, 0x80)); /* no flag of any Linux */
	CHECK_ERR(EINVAL, pidfd_send_signal(fd, 65, NULL, 0));
	CHECK_OK(pipe(p));
	CHECK_ERR(EBADF, pidfd_send_signal(p[0], SIGKILL, NULL, 0));
	CHECK_ERR(EBADF, pidfd_send_signal(-1, SIGKILL, NULL, 0));
	close(p[0]);
	close(p[1]);
	CHECK_ERR(EFAULT, pidfd_send_signal(fd, SIGKILL, (siginfo_t *)8, 0));
	CHECK_OK(pidfd_send_signal(fd, 0, NULL, 0));
	CHECK_OK(pidfd_send_signal(fd, SIGKILL, NULL, 0));
	int status = wait_status(pid);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	close(release);
	close(fd);
}

/* As Linux, an open /proc/<pid> directory serves as well; a /proc/<pid>/task/<tid> one does not. */
TEST(pidfd_send_signal_through_proc_dir)
{
	char path[64];
	int release;
	pid_t pid = child_until_closed(&release);

	snprintf(path, sizeof(path), "/proc/%d/task/%d", pid, pid);
	int task = CHECK_OK(open(path, O_RDONLY | O_DIRECTORY));
	CHECK_ERR(EBADF, pidfd_send_signal(task, 0, NULL, 0));
	snprintf(path, sizeof(path), "/proc/%d", pid);
	int dir = CHECK_OK(open(path, O_RDONLY | O_DIRECTORY));
	CHECK_OK(pidfd_send_signal(dir, SIGKILL, NULL, 0));
	int status = wait_status(pid);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	close(release);
	close(task);
	close(dir);
}

/*
 * A /proc/<pid> directory stays its process's: once a new process has the
 * same pid (ns_last_pid arranges that), the old fd reaches nothing (ESRCH)
 * and a new lookup finds another inode, as Linux's.
 */
TEST(pidfd_proc_dir_survives_pid_reuse)
{
	char path[64];
	struct stat old_st, new_st;
	int release, again;

	if (geteuid() != 0)
		skip("needs root, to write ns_last_pid");
	pid_t pid = child_until_closed(&release);
	snprintf(path, sizeof(path), "/proc/%d", pid);
	int dir = CHECK_OK(open(path, O_RDONLY | O_DIRECTORY));
	CHECK_OK(fstat(dir, &old_st));
	close(release);
	expect_exited(wait_status(pid), 7, "the child");
	write_number("/proc/sys/kernel/ns_last_pid", pid - 1);
	pid_t reused = child_until_closed(&again);
	if (reused == pid) {
		CHECK_ERR(ESRCH, pidfd_send_signal(dir, SIGKILL, NULL, 0));
		CHECK_OK(stat(path, &new_st));
		CHECK(new_st.st_ino != old_st.st_ino);
	}
	close(again);
	expect_exited(wait_status(reused), 7, "the second child");
	close(dir);
	if (reused != pid)
		skip("another process took pid %d first", pid);
}

/* A caller's siginfo: any code to itself, only a negative one but SI_TKILL to another. */
TEST(pidfd_send_signal_siginfo)
{
	int release;
	pid_t pid = child_until_closed(&release);
	int fd = CHECK_OK(pidfd_open(pid, 0));
	siginfo_t info = { .si_signo = SIGUSR1, .si_code = SI_USER };

	CHECK_ERR(EPERM, pidfd_send_signal(fd, SIGUSR1, &info, 0));
	info.si_code = SI_TKILL;
	CHECK_ERR(EPERM, pidfd_send_signal(fd, SIGUSR1, &info, 0));
	CHECK_ERR(EINVAL, pidfd_send_signal(fd, SIGUSR2, &info, 0)); /* si_signo differs */
	info.si_signo = SIGTERM;
	info.si_code = SI_QUEUE;
	info.si_value.sival_int = 42;
	CHECK_OK(pidfd_send_signal(fd, SIGTERM, &info, 0));
	int status = wait_status(pid);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
	close(release);
	close(fd);

	block_signal(SIGUSR1);
	int self = CHECK_OK(pidfd_open(getpid(), 0));
	info = (siginfo_t){ .si_signo = SIGUSR1, .si_code = SI_USER };
	info.si_pid = 12345;
	CHECK_OK(pidfd_send_signal(self, SIGUSR1, &info, 0));
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	siginfo_t got;
	CHECK_EQ(sigwaitinfo(&set, &got), SIGUSR1);
	CHECK_EQ(got.si_pid, 12345);
	close(self);
}

/* Permission is kill's: nobody may hold init's pidfd but not signal it (signal 0 probes). */
static void
signal_init_as_nobody(const char *unused)
{
	int fd = CHECK_OK(pidfd_open(1, 0));

	(void)unused;
	CHECK_ERR(EPERM, pidfd_send_signal(fd, 0, NULL, 0));
	close(fd);
}

TEST(pidfd_send_signal_permission)
{
	if (geteuid() != 0)
		skip("needs root, to become nobody");
	as_nobody(signal_init_as_nobody, NULL);
}

TEST(pidfd_fdinfo_shows_pid)
{
	char path[64], text[512], want[32];
	int fd = CHECK_OK(pidfd_open(getpid(), 0));

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	int info = CHECK_OK(open(path, O_RDONLY));
	ssize_t n = CHECK_OK(read(info, text, sizeof(text) - 1));
	text[n] = '\0';
	snprintf(want, sizeof(want), "\nPid:\t%d\n", getpid());
	if (!strstr(text, want))
		fail("fdinfo of a pidfd: '%s', want a line '%s'", text, want + 1);
	close(info);
	close(fd);
}

/* The child's pipe, taken by the parent, is the same open file: what the parent writes the child reads. */
TEST(pidfd_getfd_copies_child_file)
{
	int report[2], inbox[2], theirs;

	CHECK_OK(pipe(report));
	pid_t pid = xfork();
	if (pid == 0) {
		char c = 0;
		if (pipe(inbox) < 0 || write(report[1], &inbox[1], sizeof(int)) != sizeof(int))
			_exit(1);
		read(inbox[0], &c, 1); /* written only through the parent's copy */
		_exit(c);
	}
	close(report[1]);
	CHECK_EQ(read(report[0], &theirs, sizeof(theirs)), (ssize_t)sizeof(theirs));
	int pidfd = CHECK_OK(pidfd_open(pid, 0));
	int mine = pidfd_getfd(pidfd, theirs, 0);
	if (mine < 0)
		kill(pid, SIGKILL); /* it would wait for our write forever */
	CHECK_OK(mine);
	CHECK_EQ(fcntl(mine, F_GETFD), FD_CLOEXEC);
	CHECK_EQ(write(mine, "\x2a", 1), 1);
	close(mine);
	int status;
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 42);
	close(pidfd);
	close(report[0]);
}

TEST(pidfd_getfd_checks)
{
	int self = CHECK_OK(pidfd_open(getpid(), 0)), p[2];

	CHECK_OK(pipe(p));
	CHECK_ERR(EINVAL, pidfd_getfd(self, p[0], 1));
	CHECK_ERR(EBADF, pidfd_getfd(-1, p[0], 0));
	CHECK_ERR(EBADF, pidfd_getfd(p[1], p[0], 0)); /* no pidfd */
	CHECK_ERR(EBADF, pidfd_getfd(self, -1, 0));
	CHECK_ERR(EBADF, pidfd_getfd(self, 1000000, 0));
	int release;
	pid_t pid = child_until_closed(&release);
	int gone = CHECK_OK(pidfd_open(pid, 0));
	close(release);
	CHECK_EQ(waitpid(pid, NULL, 0), pid);
	CHECK_ERR(ESRCH, pidfd_getfd(gone, 0, 0));
	close(gone);
	close(p[0]);
	close(p[1]);
	close(self);
}

/* Permission is ptrace attach's: nobody may not take init's files. */
static void
getfd_init_as_nobody(const char *unused)
{
	int fd = CHECK_OK(pidfd_open(1, 0));

	(void)unused;
	CHECK_ERR(EPERM, pidfd_getfd(fd, 0, 0));
	close(fd);
}

TEST(pidfd_getfd_permission)
{
	if (geteuid() != 0)
		skip("needs root, to become nobody");
	as_nobody(getfd_init_as_nobody, NULL);
}
