/*
 * event_files.c - usertests: files that stand for events rather than data:
 * eventfd (a counter; its semaphore mode; blocking, EAGAIN and EINVAL
 * edges; readiness through poll and epoll) and signalfd (the mask, the
 * siginfo record, reading consumes the signal, a sleeper woken).
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* What /proc/self/fd says fd is. */
static void
expect_fd_link(int fd, const char *want)
{
	char link[64], target[64];

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, target, sizeof(target) - 1);
	CHECK(n > 0);
	target[n > 0 ? n : 0] = '\0';
	if (strcmp(target, want) != 0)
		fail("fd %d is '%s', want '%s'", fd, target, want);
}

static uint64_t
read_u64(int fd)
{
	uint64_t v = 0;

	CHECK(read(fd, &v, sizeof(v)) == sizeof(v));
	return v;
}

static void
write_u64(int fd, uint64_t v)
{
	CHECK(write(fd, &v, sizeof(v)) == sizeof(v));
}

TEST(eventfd_flags)
{
	EXPECT_ERR(EINVAL, syscall(SYS_eventfd2, 0, 0x10));
	int fd = EXPECT_OK(syscall(SYS_eventfd, 0));
	CHECK(fcntl(fd, F_GETFD) == 0 && (fcntl(fd, F_GETFL) & O_ACCMODE) == O_RDWR);
	expect_fd_link(fd, "anon_inode:[eventfd]");
	fd = EXPECT_OK(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
	CHECK(fcntl(fd, F_GETFD) == FD_CLOEXEC && (fcntl(fd, F_GETFL) & O_NONBLOCK));
}

TEST(eventfd_counter)
{
	uint64_t v = 0;
	int fd = EXPECT_OK(eventfd(3, EFD_NONBLOCK));

	CHECK(read_u64(fd) == 3);
	EXPECT_ERR(EAGAIN, read(fd, &v, sizeof(v)));
	write_u64(fd, 5);
	write_u64(fd, 2);
	CHECK(read_u64(fd) == 7);
	/* Short buffers, the one value a write may not add, a sum past the maximum. */
	EXPECT_ERR(EINVAL, read(fd, &v, 4));
	EXPECT_ERR(EINVAL, write(fd, &v, 4));
	v = UINT64_MAX;
	EXPECT_ERR(EINVAL, write(fd, &v, sizeof(v)));
	write_u64(fd, UINT64_MAX - 1);
	v = 1;
	EXPECT_ERR(EAGAIN, write(fd, &v, sizeof(v)));
	struct pollfd pfd = { .fd = fd, .events = POLLIN | POLLOUT };
	CHECK(poll(&pfd, 1, 0) == 1 && pfd.revents == POLLIN); /* full: not writable */
	CHECK(read_u64(fd) == UINT64_MAX - 1);
	CHECK(poll(&pfd, 1, 0) == 1 && pfd.revents == POLLOUT);
	EXPECT_ERR(EFAULT, write(fd, (void *)8, 8));
	write_u64(fd, 1);
	EXPECT_ERR(EFAULT, read(fd, (void *)8, 8));
}

TEST(eventfd_semaphore)
{
	uint64_t v;
	int fd = EXPECT_OK(eventfd(3, EFD_SEMAPHORE | EFD_NONBLOCK));

	for (int i = 0; i < 3; i++)
		CHECK(read_u64(fd) == 1);
	EXPECT_ERR(EAGAIN, read(fd, &v, sizeof(v)));
}

static void
add_nine(long fd)
{
	uint64_t nine = 9;

	write((int)fd, &nine, sizeof(nine));
}

TEST(eventfd_wakes_reader_and_epoll)
{
	struct epoll_event ev;
	int fd = EXPECT_OK(eventfd(0, 0));
	int ep = EXPECT_OK(epoll_create1(0));

	ev = (struct epoll_event){ .events = EPOLLIN | EPOLLET, .data.fd = fd };
	EXPECT_OK(epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev));
	CHECK(epoll_wait(ep, &ev, 1, 0) == 0);
	pid_t pid = run_later(add_nine, fd);
	CHECK(read_u64(fd) == 9); /* slept until the child wrote */
	expect_exit(pid, 0, "writer");
	CHECK(epoll_wait(ep, &ev, 1, 0) == 0); /* woken, but read empty since */
	write_u64(fd, 1);
	CHECK(epoll_wait(ep, &ev, 1, 0) == 1 && ev.data.fd == fd && ev.events == EPOLLIN);
	CHECK(epoll_wait(ep, &ev, 1, 0) == 0); /* edge-triggered: no new write */
	write_u64(fd, 1);
	CHECK(epoll_wait(ep, &ev, 1, 0) == 1);
}

/* Blocks sigs (so they stay pending for the signalfd) and returns the set. */
static sigset_t
block_signals(int a, int b)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, a);
	if (b)
		sigaddset(&set, b);
	EXPECT_OK(sigprocmask(SIG_BLOCK, &set, NULL));
	return set;
}

static bool
signal_is_pending(int sig)
{
	sigset_t pending;

	EXPECT_OK(sigpending(&pending));
	return sigismember(&pending, sig);
}

TEST(signalfd_errors)
{
	unsigned long long mask = 0;
	int p[2];

	EXPECT_OK(pipe(p));
	EXPECT_ERR(EINVAL, syscall(SYS_signalfd4, -1, &mask, 4, 0));
	EXPECT_ERR(EFAULT, syscall(SYS_signalfd4, -1, (void *)8, 8, 0));
	EXPECT_ERR(EINVAL, syscall(SYS_signalfd4, -1, &mask, 8, 0x10));
	EXPECT_ERR(EBADF, syscall(SYS_signalfd4, 999, &mask, 8, 0));
	EXPECT_ERR(EINVAL, syscall(SYS_signalfd4, p[0], &mask, 8, 0)); /* not a signalfd */
	int fd = EXPECT_OK(syscall(SYS_signalfd4, -1, &mask, 8, SFD_CLOEXEC | SFD_NONBLOCK));
	CHECK(fcntl(fd, F_GETFD) == FD_CLOEXEC && (fcntl(fd, F_GETFL) & O_NONBLOCK));
	expect_fd_link(fd, "anon_inode:[signalfd]");
	struct signalfd_siginfo si;
	EXPECT_ERR(EINVAL, read(fd, &si, sizeof(si) - 1));
	EXPECT_ERR(EAGAIN, read(fd, &si, sizeof(si)));
	EXPECT_ERR(EINVAL, write(fd, &si, sizeof(si)));
}

TEST(signalfd_reads_and_consumes)
{
	struct signalfd_siginfo si[2];
	sigset_t set = block_signals(SIGUSR1, 0);
	int fd = EXPECT_OK(signalfd(-1, &set, SFD_NONBLOCK));
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	CHECK(sizeof(si[0]) == 128);
	CHECK(poll(&pfd, 1, 0) == 0);
	EXPECT_OK(kill(getpid(), SIGUSR1));
	CHECK(poll(&pfd, 1, 0) == 1 && pfd.revents == POLLIN);
	CHECK(read(fd, si, sizeof(si)) == sizeof(si[0]));
	CHECK(si[0].ssi_signo == SIGUSR1 && si[0].ssi_code == SI_USER);
	CHECK(si[0].ssi_pid == (unsigned)getpid() && si[0].ssi_uid == getuid());
	CHECK(!signal_is_pending(SIGUSR1)); /* read: consumed */
	/* A changed mask takes SIGUSR2 too; sigqueue's value comes through. */
	set = block_signals(SIGUSR1, SIGUSR2);
	CHECK(signalfd(fd, &set, 0) == fd);
	EXPECT_OK(sigqueue(getpid(), SIGUSR2, (union sigval){ .sival_int = 42 }));
	EXPECT_OK(kill(getpid(), SIGUSR1));
	CHECK(read(fd, si, sizeof(si)) == 2 * sizeof(si[0])); /* both in one read, lowest first */
	CHECK(si[0].ssi_signo == SIGUSR1 && si[1].ssi_signo == SIGUSR2);
	CHECK(si[1].ssi_code == SI_QUEUE && si[1].ssi_int == 42);
	/* A signal outside the mask stays pending. */
	block_signals(SIGTERM, 0);
	EXPECT_OK(kill(getpid(), SIGTERM));
	EXPECT_ERR(EAGAIN, read(fd, si, sizeof(si)));
	CHECK(signal_is_pending(SIGTERM));
}

static void
send_usr1(long pid)
{
	kill((pid_t)pid, SIGUSR1);
}

TEST(signalfd_wakes_reader_and_epoll)
{
	struct signalfd_siginfo si;
	struct epoll_event ev;
	sigset_t set = block_signals(SIGUSR1, 0);
	int fd = EXPECT_OK(signalfd(-1, &set, 0));
	int ep = EXPECT_OK(epoll_create1(0));

	ev = (struct epoll_event){ .events = EPOLLIN, .data.fd = fd };
	EXPECT_OK(epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev));
	pid_t pid = run_later(send_usr1, getpid());
	CHECK(epoll_wait(ep, &ev, 1, -1) == 1 && ev.data.fd == fd);
	CHECK(read(fd, &si, sizeof(si)) == sizeof(si) && si.ssi_signo == SIGUSR1);
	CHECK(si.ssi_pid == (unsigned)pid);
	expect_exit(pid, 0, "sender");
	CHECK(epoll_wait(ep, &ev, 1, 0) == 0);
	/* A blocking read sleeps until a signal of the mask comes. */
	pid = run_later(send_usr1, getpid());
	CHECK(read(fd, &si, sizeof(si)) == sizeof(si) && si.ssi_signo == SIGUSR1);
	expect_exit(pid, 0, "sender");
}
