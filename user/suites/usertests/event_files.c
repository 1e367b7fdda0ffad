/*
 * event_files.c - usertests: files that stand for events rather than data:
 * eventfd (a counter; its semaphore mode; blocking, EAGAIN and EINVAL
 * edges; readiness through poll and epoll), signalfd (the mask, the
 * siginfo record, reading consumes the signal, a sleeper woken) and
 * timerfd (every clock, relative and absolute, periodic, disarming,
 * cancelled by a change of the wall clock).
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
#include <sys/timerfd.h>
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

	CHECK_EQ(read(fd, &v, sizeof(v)), sizeof(v));
	return v;
}

static void
write_u64(int fd, uint64_t v)
{
	CHECK_EQ(write(fd, &v, sizeof(v)), sizeof(v));
}

TEST(eventfd_flags)
{
	CHECK_ERR(EINVAL, syscall(SYS_eventfd2, 0, 0x10));
	int fd = CHECK_OK(syscall(SYS_eventfd, 0));
	CHECK(fcntl(fd, F_GETFD) == 0 && (fcntl(fd, F_GETFL) & O_ACCMODE) == O_RDWR);
	expect_fd_link(fd, "anon_inode:[eventfd]");
	fd = CHECK_OK(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
	CHECK(fcntl(fd, F_GETFD) == FD_CLOEXEC && (fcntl(fd, F_GETFL) & O_NONBLOCK));
}

TEST(eventfd_counter)
{
	uint64_t v = 0;
	int fd = CHECK_OK(eventfd(3, EFD_NONBLOCK));

	CHECK_EQ(read_u64(fd), 3);
	CHECK_ERR(EAGAIN, read(fd, &v, sizeof(v)));
	write_u64(fd, 5);
	write_u64(fd, 2);
	CHECK_EQ(read_u64(fd), 7);
	/* Short buffers, the one value a write may not add, a sum past the maximum. */
	CHECK_ERR(EINVAL, read(fd, &v, 4));
	CHECK_ERR(EINVAL, write(fd, &v, 4));
	v = UINT64_MAX;
	CHECK_ERR(EINVAL, write(fd, &v, sizeof(v)));
	write_u64(fd, UINT64_MAX - 1);
	v = 1;
	CHECK_ERR(EAGAIN, write(fd, &v, sizeof(v)));
	struct pollfd pfd = { .fd = fd, .events = POLLIN | POLLOUT };
	CHECK(poll(&pfd, 1, 0) == 1 && pfd.revents == POLLIN); /* full: not writable */
	CHECK_EQ(read_u64(fd), UINT64_MAX - 1);
	CHECK(poll(&pfd, 1, 0) == 1 && pfd.revents == POLLOUT);
	CHECK_ERR(EFAULT, write(fd, (void *)8, 8));
	write_u64(fd, 1);
	CHECK_ERR(EFAULT, read(fd, (void *)8, 8));
}

TEST(eventfd_semaphore)
{
	uint64_t v;
	int fd = CHECK_OK(eventfd(3, EFD_SEMAPHORE | EFD_NONBLOCK));

	for (int i = 0; i < 3; i++)
		CHECK_EQ(read_u64(fd), 1);
	CHECK_ERR(EAGAIN, read(fd, &v, sizeof(v)));
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
	int fd = CHECK_OK(eventfd(0, 0));
	int ep = CHECK_OK(epoll_create1(0));

	ev = (struct epoll_event){ .events = EPOLLIN | EPOLLET, .data.fd = fd };
	CHECK_OK(epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev));
	CHECK_EQ(epoll_wait(ep, &ev, 1, 0), 0);
	pid_t pid = run_later(add_nine, fd);
	CHECK_EQ(read_u64(fd), 9); /* slept until the child wrote */
	expect_exit(pid, 0, "writer");
	CHECK_EQ(epoll_wait(ep, &ev, 1, 0), 0); /* woken, but read empty since */
	write_u64(fd, 1);
	CHECK(epoll_wait(ep, &ev, 1, 0) == 1 && ev.data.fd == fd && ev.events == EPOLLIN);
	CHECK_EQ(epoll_wait(ep, &ev, 1, 0), 0); /* edge-triggered: no new write */
	write_u64(fd, 1);
	CHECK_EQ(epoll_wait(ep, &ev, 1, 0), 1);
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
	CHECK_OK(sigprocmask(SIG_BLOCK, &set, NULL));
	return set;
}

static bool
signal_is_pending(int sig)
{
	sigset_t pending;

	CHECK_OK(sigpending(&pending));
	return sigismember(&pending, sig);
}

TEST(signalfd_errors)
{
	unsigned long long mask = 0;
	int p[2];

	CHECK_OK(pipe(p));
	CHECK_ERR(EINVAL, syscall(SYS_signalfd4, -1, &mask, 4, 0));
	CHECK_ERR(EFAULT, syscall(SYS_signalfd4, -1, (void *)8, 8, 0));
	CHECK_ERR(EINVAL, syscall(SYS_signalfd4, -1, &mask, 8, 0x10));
	CHECK_ERR(EBADF, syscall(SYS_signalfd4, 999, &mask, 8, 0));
	CHECK_ERR(EINVAL, syscall(SYS_signalfd4, p[0], &mask, 8, 0)); /* not a signalfd */
	int fd = CHECK_OK(syscall(SYS_signalfd4, -1, &mask, 8, SFD_CLOEXEC | SFD_NONBLOCK));
	CHECK(fcntl(fd, F_GETFD) == FD_CLOEXEC && (fcntl(fd, F_GETFL) & O_NONBLOCK));
	expect_fd_link(fd, "anon_inode:[signalfd]");
	struct signalfd_siginfo si;
	CHECK_ERR(EINVAL, read(fd, &si, sizeof(si) - 1));
	CHECK_ERR(EAGAIN, read(fd, &si, sizeof(si)));
	CHECK_ERR(EINVAL, write(fd, &si, sizeof(si)));
}

TEST(signalfd_reads_and_consumes)
{
	struct signalfd_siginfo si[2];
	sigset_t set = block_signals(SIGUSR1, 0);
	int fd = CHECK_OK(signalfd(-1, &set, SFD_NONBLOCK));
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	CHECK_EQ(sizeof(si[0]), 128);
	CHECK_EQ(poll(&pfd, 1, 0), 0);
	CHECK_OK(kill(getpid(), SIGUSR1));
	CHECK(poll(&pfd, 1, 0) == 1 && pfd.revents == POLLIN);
	CHECK_EQ(read(fd, si, sizeof(si)), sizeof(si[0]));
	CHECK(si[0].ssi_signo == SIGUSR1 && si[0].ssi_code == SI_USER);
	CHECK(si[0].ssi_pid == (unsigned)getpid() && si[0].ssi_uid == getuid());
	CHECK(!signal_is_pending(SIGUSR1)); /* read: consumed */
	/* A changed mask takes SIGUSR2 too; sigqueue's value comes through. */
	set = block_signals(SIGUSR1, SIGUSR2);
	CHECK_EQ(signalfd(fd, &set, 0), fd);
	CHECK_OK(sigqueue(getpid(), SIGUSR2, (union sigval){ .sival_int = 42 }));
	CHECK_OK(kill(getpid(), SIGUSR1));
	CHECK_EQ(read(fd, si, sizeof(si)), 2 * sizeof(si[0])); /* both in one read, lowest first */
	CHECK(si[0].ssi_signo == SIGUSR1 && si[1].ssi_signo == SIGUSR2);
	CHECK(si[1].ssi_code == SI_QUEUE && si[1].ssi_int == 42);
	/* A signal outside the mask stays pending. */
	block_signals(SIGTERM, 0);
	CHECK_OK(kill(getpid(), SIGTERM));
	CHECK_ERR(EAGAIN, read(fd, si, sizeof(si)));
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
	int fd = CHECK_OK(signalfd(-1, &set, 0));
	int ep = CHECK_OK(epoll_create1(0));

	ev = (struct epoll_event){ .events = EPOLLIN, .data.fd = fd };
	CHECK_OK(epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev));
	pid_t pid = run_later(send_usr1, getpid());
	CHECK(epoll_wait(ep, &ev, 1, -1) == 1 && ev.data.fd == fd);
	CHECK(read(fd, &si, sizeof(si)) == sizeof(si) && si.ssi_signo == SIGUSR1);
	CHECK_EQ(si.ssi_pid, (unsigned)pid);
	expect_exit(pid, 0, "sender");
	CHECK_EQ(epoll_wait(ep, &ev, 1, 0), 0);
	/* A blocking read sleeps until a signal of the mask comes. */
	pid = run_later(send_usr1, getpid());
	CHECK(read(fd, &si, sizeof(si)) == sizeof(si) && si.ssi_signo == SIGUSR1);
	expect_exit(pid, 0, "sender");
}

static long long
ts_ns(struct timespec ts)
{
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Arms fd relative, value and interval in ms (0 disarms). */
static void
arm_ms(int fd, long value_ms, long interval_ms)
{
	struct itimerspec its = { .it_value = { 0, value_ms * 1000000 },
				  .it_interval = { 0, interval_ms * 1000000 } };

	CHECK_OK(timerfd_settime(fd, 0, &its, NULL));
}

TEST(timerfd_errors)
{
	struct itimerspec its = { 0 };
	int p[2];

	CHECK_OK(pipe(p));
	CHECK_ERR(EINVAL, timerfd_create(CLOCK_PROCESS_CPUTIME_ID, 0));
	CHECK_ERR(EINVAL, timerfd_create(CLOCK_MONOTONIC_RAW, 0));
	CHECK_ERR(EINVAL, timerfd_create(CLOCK_MONOTONIC, 0x10));
	int fd = CHECK_OK(timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK));
	CHECK(fcntl(fd, F_GETFD) == FD_CLOEXEC && (fcntl(fd, F_GETFL) & O_NONBLOCK));
	expect_fd_link(fd, "anon_inode:[timerfd]");
	CHECK_ERR(EINVAL, timerfd_settime(fd, 0x10, &its, NULL));
	its.it_value.tv_nsec = 1000000000;
	CHECK_ERR(EINVAL, timerfd_settime(fd, 0, &its, NULL));
	its.it_value.tv_nsec = 0;
	CHECK_ERR(EFAULT, syscall(SYS_timerfd_settime, fd, 0, (void *)8, NULL));
	CHECK_ERR(EBADF, timerfd_settime(999, 0, &its, NULL));
	CHECK_ERR(EINVAL, timerfd_settime(p[0], 0, &its, NULL));
	CHECK_ERR(EINVAL, timerfd_gettime(p[0], &its));
	CHECK_ERR(EFAULT, syscall(SYS_timerfd_gettime, fd, (void *)8));
	uint64_t ticks;
	CHECK_ERR(EAGAIN, read(fd, &ticks, sizeof(ticks))); /* never armed */
	CHECK_ERR(EINVAL, read(fd, &ticks, 4));
}

TEST(timerfd_one_shot_and_periodic)
{
	struct itimerspec its, old;
	uint64_t ticks;
	int fd = CHECK_OK(timerfd_create(CLOCK_MONOTONIC, 0));

	long long t0 = mono_ns();
	arm_ms(fd, 30, 0);
	CHECK_OK(timerfd_gettime(fd, &its));
	CHECK(ts_ns(its.it_value) > 0 && ts_ns(its.it_value) <= 30000000 &&
	      ts_ns(its.it_interval) == 0);
	CHECK_EQ(read_u64(fd), 1); /* slept until it expired */
	CHECK(mono_ns() - t0 >= 30000000);
	CHECK_OK(timerfd_gettime(fd, &its));
	CHECK_EQ(ts_ns(its.it_value), 0); /* spent */
	/* Periodic: the expiries since the last read add up. */
	arm_ms(fd, 5, 5);
	struct timespec nap = { 0, 40 * 1000000 };
	nanosleep(&nap, NULL);
	ticks = read_u64(fd);
	CHECK(ticks >= 2);
	/* Disarming gives back what was set, and forgets expiries not read. */
	nanosleep(&nap, NULL);
	its = (struct itimerspec){ 0 };
	CHECK_OK(timerfd_settime(fd, 0, &its, &old));
	CHECK(ts_ns(old.it_interval) == 5000000 && ts_ns(old.it_value) <= 5000000);
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	CHECK_EQ(poll(&pfd, 1, 20), 0);
}

TEST(timerfd_every_clock)
{
	static const clockid_t clocks[] = { CLOCK_REALTIME, CLOCK_MONOTONIC, CLOCK_BOOTTIME,
					    CLOCK_REALTIME_ALARM, CLOCK_BOOTTIME_ALARM };

	for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		int fd = timerfd_create(clocks[i], 0);
		if (fd < 0 && errno == EPERM)
			continue; /* the alarm clocks want CAP_WAKE_ALARM */
		CHECK(fd >= 0);
		/* Absolute: 10 ms from now on the timer's own clock. */
		struct timespec now;
		clockid_t base = clocks[i] == CLOCK_REALTIME_ALARM   ? CLOCK_REALTIME
				 : clocks[i] == CLOCK_BOOTTIME_ALARM ? CLOCK_BOOTTIME
								     : clocks[i];
		CHECK_OK(clock_gettime(base, &now));
		long long at = ts_ns(now) + 10000000;
		struct itimerspec its = { .it_value = { at / 1000000000, at % 1000000000 } };
		CHECK_OK(timerfd_settime(fd, TFD_TIMER_ABSTIME, &its, NULL));
		CHECK_EQ(read_u64(fd), 1);
		CHECK_OK(clock_gettime(base, &now));
		CHECK(ts_ns(now) >= at);
		/* A time already past expires at once. */
		its.it_value = (struct timespec){ 1, 0 };
		CHECK_OK(timerfd_settime(fd, TFD_TIMER_ABSTIME, &its, NULL));
		CHECK_EQ(read_u64(fd), 1);
		close(fd);
	}
}

static void
alarm_timerfds_refused(const char *arg __attribute__((unused)))
{
	CHECK_ERR(EPERM, timerfd_create(CLOCK_REALTIME_ALARM, 0));
	CHECK_ERR(EPERM, timerfd_create(CLOCK_BOOTTIME_ALARM, TFD_CLOEXEC));
	close(CHECK_OK(timerfd_create(CLOCK_BOOTTIME, 0)));
}

/* A timer that could wake a suspended machine is CAP_WAKE_ALARM's (Linux's timerfd_create). */
TEST(timerfd_alarm_clocks_need_cap_wake_alarm)
{
	if (geteuid() != 0)
		skip("needs root to become nobody");
	as_nobody(alarm_timerfds_refused, NULL);
}

TEST(timerfd_wakes_epoll)
{
	struct epoll_event ev;
	int fd = CHECK_OK(timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK));
	int ep = CHECK_OK(epoll_create1(0));

	ev = (struct epoll_event){ .events = EPOLLIN, .data.fd = fd };
	CHECK_OK(epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev));
	CHECK_EQ(epoll_wait(ep, &ev, 1, 0), 0);
	arm_ms(fd, 20, 0);
	CHECK(epoll_wait(ep, &ev, 1, 5000) == 1 && ev.data.fd == fd);
	CHECK_EQ(read_u64(fd), 1);
	CHECK_EQ(epoll_wait(ep, &ev, 1, 0), 0);
}

/* Setting the wall clock (to what it says) cancels a CANCEL_ON_SET timer: ECANCELED. */
TEST(timerfd_cancel_on_set)
{
	if (!on_rewind())
		skip("sets the wall clock: only on rewind");
	int fd = CHECK_OK(timerfd_create(CLOCK_REALTIME, TFD_NONBLOCK));
	struct timespec now;
	CHECK_OK(clock_gettime(CLOCK_REALTIME, &now));
	struct itimerspec its = { .it_value = { now.tv_sec + 3600, 0 } };
	CHECK_OK(timerfd_settime(fd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, &its, NULL));
	uint64_t ticks;
	CHECK_ERR(EAGAIN, read(fd, &ticks, sizeof(ticks)));
	CHECK_OK(clock_gettime(CLOCK_REALTIME, &now));
	CHECK_OK(clock_settime(CLOCK_REALTIME, &now));
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	CHECK_EQ(poll(&pfd, 1, 0), 1);
	CHECK_ERR(ECANCELED, read(fd, &ticks, sizeof(ticks)));
	CHECK_ERR(EAGAIN, read(fd, &ticks, sizeof(ticks)));
	/* Without CANCEL_ON_SET the timer stays. */
	CHECK_OK(timerfd_settime(fd, TFD_TIMER_ABSTIME, &its, NULL));
	CHECK_OK(clock_settime(CLOCK_REALTIME, &now));
	CHECK_ERR(EAGAIN, read(fd, &ticks, sizeof(ticks)));
}
