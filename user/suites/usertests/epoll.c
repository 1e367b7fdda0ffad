/*
 * epoll.c - usertests: epoll. Creating instances, epoll_ctl's errors in
 * Linux's order, level- and edge-triggered and one-shot reports, a writer
 * waking a sleeper, nested instances with Linux's loop and depth limits,
 * a file forgotten on its last close, the masks and timeouts of
 * epoll_pwait and epoll_pwait2, EPOLLEXCLUSIVE waking one instance of many.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef SYS_epoll_pwait2
#define SYS_epoll_pwait2 441
#endif

/* Watches fd in ep for events, with fd as the data. */
static int
watch(int ep, int fd, unsigned events)
{
	struct epoll_event ev = { .events = events, .data.fd = fd };

	return epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
}

/* One event from ep without waiting: how many (0 or 1), the event in *ev. */
static int
ready(int ep, struct epoll_event *ev)
{
	return epoll_wait(ep, ev, 1, 0);
}

TEST(epoll_create_flags)
{
	struct stat st;
	char link[64], target[64];
	int ep;

	CHECK_ERR(EINVAL, syscall(SYS_epoll_create, 0)); /* musl's wrapper drops the size */
	CHECK_ERR(EINVAL, syscall(SYS_epoll_create, -1));
	CHECK_ERR(EINVAL, epoll_create1(1));
	ep = CHECK_OK(epoll_create(1));
	CHECK_EQ(fcntl(ep, F_GETFD), 0);
	ep = CHECK_OK(epoll_create1(EPOLL_CLOEXEC));
	CHECK_EQ(fcntl(ep, F_GETFD), FD_CLOEXEC);
	/* A nameless file: mode 0600 and no file type, as Linux's anonymous inode. */
	CHECK_OK(fstat(ep, &st));
	CHECK((st.st_mode & S_IFMT) == 0 && (st.st_mode & 07777) == 0600);
	snprintf(link, sizeof(link), "/proc/self/fd/%d", ep);
	ssize_t n = readlink(link, target, sizeof(target) - 1);
	CHECK(n > 0);
	target[n > 0 ? n : 0] = '\0';
	CHECK_EQ(strcmp(target, "anon_inode:[eventpoll]"), 0);
	CHECK_ERR(ENXIO, open(link, O_RDONLY)); /* no file to open anew */
}

TEST(epoll_ctl_errors)
{
	struct epoll_event ev = { .events = EPOLLIN };
	int p[2], ep = CHECK_OK(epoll_create1(0)), other = CHECK_OK(epoll_create1(0));
	int file = create_file("f", "x", 1, 0644);

	CHECK_OK(pipe(p));
	CHECK_ERR(EBADF, epoll_ctl(-1, EPOLL_CTL_ADD, p[0], &ev));
	CHECK_ERR(EBADF, epoll_ctl(ep, EPOLL_CTL_ADD, 999, &ev));
	CHECK_ERR(EPERM, epoll_ctl(ep, EPOLL_CTL_ADD, file, &ev)); /* regular files: not pollable */
	CHECK_ERR(EINVAL, epoll_ctl(ep, EPOLL_CTL_ADD, ep, &ev));
	CHECK_ERR(EINVAL, epoll_ctl(p[1], EPOLL_CTL_ADD, p[0], &ev)); /* not an epoll fd */
	CHECK_ERR(EINVAL, epoll_ctl(ep, 77, p[0], &ev));
	CHECK_ERR(EFAULT, syscall(SYS_epoll_ctl, ep, EPOLL_CTL_ADD, p[0], (void *)1));
	CHECK_ERR(ENOENT, epoll_ctl(ep, EPOLL_CTL_MOD, p[0], &ev));
	CHECK_ERR(ENOENT, epoll_ctl(ep, EPOLL_CTL_DEL, p[0], &ev));
	CHECK_OK(epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev));
	CHECK_ERR(EEXIST, epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev));
	CHECK_OK(epoll_ctl(ep, EPOLL_CTL_MOD, p[0], &ev));
	CHECK_OK(syscall(SYS_epoll_ctl, ep, EPOLL_CTL_DEL, p[0], NULL)); /* DEL reads no event */
	/* EPOLLEXCLUSIVE: only on ADD, not on an epoll fd, not with EPOLLONESHOT. */
	ev.events = EPOLLIN | EPOLLEXCLUSIVE;
	CHECK_ERR(EINVAL, epoll_ctl(ep, EPOLL_CTL_ADD, other, &ev));
	ev.events = EPOLLIN | EPOLLEXCLUSIVE | EPOLLONESHOT;
	CHECK_ERR(EINVAL, epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev));
	ev.events = EPOLLIN | EPOLLEXCLUSIVE;
	CHECK_OK(epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev));
	CHECK_ERR(EINVAL, epoll_ctl(ep, EPOLL_CTL_MOD, p[0], &ev));
	ev.events = EPOLLIN;
	CHECK_ERR(EINVAL, epoll_ctl(ep, EPOLL_CTL_MOD, p[0], &ev)); /* an exclusive item stays so */
}

TEST(epoll_wait_errors)
{
	struct epoll_event ev[2];
	int p[2], ep = CHECK_OK(epoll_create1(0));

	CHECK_OK(pipe(p));
	CHECK_ERR(EINVAL, epoll_wait(ep, ev, 0, 0));
	CHECK_ERR(EINVAL, epoll_wait(ep, ev, -1, 0));
	CHECK_ERR(EBADF, epoll_wait(-1, ev, 1, 0));
	CHECK_ERR(EINVAL, epoll_wait(p[0], ev, 1, 0));
	CHECK_ERR(EFAULT, syscall(SYS_epoll_wait, ep, (void *)0xffff800000000000ul, 1, 0));
	/* A bad buffer in user space is found when an event is copied to it. */
	CHECK_OK(watch(ep, p[1], EPOLLOUT));
	CHECK_ERR(EFAULT, syscall(SYS_epoll_wait, ep, (void *)8, 1, 0));
	CHECK(ready(ep, ev) == 1 && ev[0].data.fd == p[1]); /* the event was kept */
	unsigned long long mask = 0;
	CHECK_ERR(EINVAL, syscall(SYS_epoll_pwait, ep, ev, 1, 0, &mask, 4)); /* sigsetsize */
}

/*
 * Events are stored one by one: a fault part-way through the buffer - here
 * in the second event's data, its events field still on the good page -
 * ends the call with the events stored before it, and the event that could
 * not be stored stays ready for the next call.
 */
TEST(epoll_wait_stops_at_bad_event)
{
	long page = sysconf(_SC_PAGESIZE);
	char *map =
		mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int p[2], q[2], ep = CHECK_OK(epoll_create1(0));
	struct epoll_event ev[4];

	CHECK(map != MAP_FAILED);
	CHECK_OK(mprotect(map + page, page, PROT_NONE));
	CHECK_OK(pipe(p));
	CHECK_OK(pipe(q));
	CHECK_OK(watch(ep, p[1], EPOLLOUT));
	CHECK_OK(watch(ep, q[1], EPOLLOUT));
	struct epoll_event *edge = (struct epoll_event *)(map + page - sizeof(*edge) - 4);
	CHECK_EQ(epoll_wait(ep, edge, 2, 0), 1);
	CHECK(edge[0].events == EPOLLOUT && (edge[0].data.fd == p[1] || edge[0].data.fd == q[1]));
	/* Both again: the one reported (level-triggered) and the one kept. */
	CHECK_EQ(epoll_wait(ep, ev, 4, 0), 2);
	CHECK(ev[0].data.fd + ev[1].data.fd == p[1] + q[1]);
	CHECK_OK(munmap(map, 2 * page));
}

TEST(epoll_level_triggered)
{
	struct epoll_event ev;
	int p[2], ep = CHECK_OK(epoll_create1(0));
	char buf[8];

	CHECK_OK(pipe(p));
	CHECK_OK(watch(ep, p[0], EPOLLIN));
	CHECK_OK(watch(ep, p[1], EPOLLOUT));
	CHECK(ready(ep, &ev) == 1 && ev.data.fd == p[1] && ev.events == EPOLLOUT);
	struct epoll_event both[4];
	CHECK_EQ(write(p[1], "ab", 2), 2);
	CHECK_EQ(epoll_wait(ep, both, 4, 0), 2);
	/* Still readable: reported again, and again, until drained. */
	for (int i = 0; i < 3; i++)
		CHECK_EQ(epoll_wait(ep, both, 4, 0), 2);
	CHECK_EQ(read(p[0], buf, sizeof(buf)), 2);
	CHECK(epoll_wait(ep, both, 4, 0) == 1 && both[0].data.fd == p[1]);
	/* The writer gone: EPOLLHUP, though nobody asked for it. */
	close(p[1]);
	CHECK(ready(ep, &ev) == 1 && ev.data.fd == p[0] && ev.events == EPOLLHUP);
}

TEST(epoll_edge_triggered)
{
	struct epoll_event ev;
	int p[2], ep = CHECK_OK(epoll_create1(0));

	CHECK_OK(pipe(p));
	CHECK_OK(watch(ep, p[0], EPOLLIN | EPOLLET));
	CHECK_EQ(ready(ep, &ev), 0);
	CHECK_EQ(write(p[1], "a", 1), 1);
	CHECK(ready(ep, &ev) == 1 && ev.events == EPOLLIN);
	CHECK_EQ(ready(ep, &ev), 0); /* no new edge, though still readable */
	CHECK_EQ(write(p[1], "b", 1), 1);
	CHECK(ready(ep, &ev) == 1 && ev.events == EPOLLIN);
}

TEST(epoll_oneshot)
{
	struct epoll_event ev;
	int p[2], ep = CHECK_OK(epoll_create1(0));

	CHECK_OK(pipe(p));
	CHECK_OK(watch(ep, p[0], EPOLLIN | EPOLLONESHOT));
	CHECK_EQ(write(p[1], "a", 1), 1);
	CHECK_EQ(ready(ep, &ev), 1);
	CHECK_EQ(write(p[1], "b", 1), 1);
	CHECK_EQ(ready(ep, &ev), 0); /* disabled until re-armed */
	ev = (struct epoll_event){ .events = EPOLLIN | EPOLLONESHOT, .data.u64 = 42 };
	CHECK_OK(epoll_ctl(ep, EPOLL_CTL_MOD, p[0], &ev));
	CHECK(ready(ep, &ev) == 1 && ev.data.u64 == 42);
	CHECK_EQ(ready(ep, &ev), 0);
}

TEST(epoll_wakes_sleeper)
{
	struct epoll_event ev;
	int p[2], ep = CHECK_OK(epoll_create1(0));

	CHECK_OK(pipe(p));
	CHECK_OK(watch(ep, p[0], EPOLLIN));
	long long t0 = mono_ns();
	CHECK_EQ(epoll_wait(ep, &ev, 1, 30), 0);
	CHECK(mono_ns() - t0 >= 30 * 1000000LL);
	pid_t pid = write_later(p[1]);
	CHECK(epoll_wait(ep, &ev, 1, -1) == 1 && ev.data.fd == p[0]);
	expect_exit(pid, 0, "writer");
}

static void
on_alarm(int sig)
{
	(void)sig;
}

TEST(epoll_interrupted)
{
	struct epoll_event ev;
	struct sigaction sa = { .sa_handler = on_alarm, .sa_flags = SA_RESTART };
	int ep = CHECK_OK(epoll_create1(0));

	/* EINTR even with SA_RESTART: epoll_wait is never restarted. */
	CHECK_OK(sigaction(SIGALRM, &sa, NULL));
	alarm(1);
	CHECK_ERR(EINTR, epoll_wait(ep, &ev, 1, 5000));
	/* epoll_pwait's mask holds SIGALRM off while it waits: the timeout ends it. */
	sigset_t block;
	sigemptyset(&block);
	sigaddset(&block, SIGALRM);
	CHECK_OK(sigprocmask(SIG_BLOCK, &block, NULL));
	raise(SIGALRM);
	CHECK_ERR(EINTR, epoll_pwait(ep, &ev, 1, 5000, &(sigset_t){ 0 }));
	raise(SIGALRM);
	CHECK_EQ(epoll_pwait(ep, &ev, 1, 20, &block), 0);
}

TEST(epoll_pwait2_timeout)
{
	struct epoll_event ev;
	struct timespec ts = { 0, 20 * 1000000 };
	int ep = CHECK_OK(epoll_create1(0));

	long long t0 = mono_ns();
	long r = syscall(SYS_epoll_pwait2, ep, &ev, 1, &ts, NULL, 8);
	if (r < 0 && errno == ENOSYS)
		skip("no epoll_pwait2 (Linux before 5.11)");
	CHECK(r == 0 && mono_ns() - t0 >= 20 * 1000000LL);
	ts.tv_nsec = 1000000000;
	CHECK_ERR(EINVAL, syscall(SYS_epoll_pwait2, ep, &ev, 1, &ts, NULL, 8));
	CHECK_ERR(EFAULT, syscall(SYS_epoll_pwait2, ep, &ev, 1, (void *)8, NULL, 8));
}

TEST(epoll_nested)
{
	struct epoll_event ev;
	struct pollfd pfd;
	int p[2], inner = CHECK_OK(epoll_create1(0)), outer = CHECK_OK(epoll_create1(0));

	CHECK_OK(pipe(p));
	CHECK_OK(watch(inner, p[0], EPOLLIN));
	CHECK_OK(watch(outer, inner, EPOLLIN));
	CHECK_EQ(ready(outer, &ev), 0);
	pfd = (struct pollfd){ .fd = inner, .events = POLLIN };
	CHECK_EQ(poll(&pfd, 1, 0), 0);
	CHECK_EQ(write(p[1], "a", 1), 1);
	CHECK(poll(&pfd, 1, 0) == 1 && pfd.revents == POLLIN);
	CHECK(ready(outer, &ev) == 1 && ev.data.fd == inner && ev.events == EPOLLIN);
	/* A writer wakes a task asleep on the outer instance, through the inner one. */
	char c;
	CHECK_EQ(read(p[0], &c, 1), 1);
	pid_t pid = write_later(p[1]);
	CHECK(epoll_wait(outer, &ev, 1, -1) == 1 && ev.data.fd == inner);
	expect_exit(pid, 0, "writer");
	/* Two instances watching each other: ELOOP. */
	CHECK_ERR(ELOOP, watch(inner, outer, EPOLLIN));
}

/* Epoll instances stacked n high over fd, each watching the one below: the top one. */
static int
stack_over(int fd, int n, int *bottom)
{
	for (int i = 0; i < n; i++) {
		int ep = CHECK_OK(epoll_create1(0));
		CHECK_OK(watch(ep, fd, EPOLLIN));
		if (i == 0 && bottom)
			*bottom = ep;
		fd = ep;
	}
	return fd;
}

TEST(epoll_nesting_limits)
{
	int p[2], bottom;

	CHECK_OK(pipe(p));
	/*
	 * Five instances may stack over a file; a sixth is EINVAL in Linux 6.1
	 * (LTP epoll_ctl04), ELOOP in newer ones (6.18).
	 */
	int top = stack_over(p[0], 5, &bottom);
	int sixth = CHECK_OK(epoll_create1(0));
	CHECK(watch(sixth, top, EPOLLIN) == -1 && (errno == EINVAL || errno == ELOOP));
	/* Closing the chain into a loop is ELOOP (LTP epoll_ctl05). */
	CHECK_OK(epoll_ctl(bottom, EPOLL_CTL_DEL, p[0], NULL));
	CHECK_ERR(ELOOP, watch(bottom, top, EPOLLIN));
}

TEST(epoll_forgets_closed_file)
{
	struct epoll_event ev;
	int p[2], ep = CHECK_OK(epoll_create1(0));

	CHECK_OK(pipe(p));
	CHECK_EQ(write(p[1], "a", 1), 1);
	int copy = CHECK_OK(dup(p[0]));
	CHECK_OK(watch(ep, p[0], EPOLLIN));
	/* Closing one fd leaves the open file, still watched under the old fd. */
	close(p[0]);
	CHECK(ready(ep, &ev) == 1 && ev.data.fd == p[0]);
	/* The last close removes it: nothing to report, and the fd is free to add again. */
	close(copy);
	CHECK_EQ(ready(ep, &ev), 0);
	CHECK_OK(pipe(p));
	CHECK_OK(watch(ep, p[0], EPOLLIN));
	CHECK_ERR(ENOENT, epoll_ctl(ep, EPOLL_CTL_DEL, copy, NULL));
}

/* Waits in its own epoll instance watching fd exclusively; reports the wake-up on report. */
static void
exclusive_waiter(int fd, int report)
{
	struct epoll_event ev;
	int ep = epoll_create1(0);

	if (ep < 0 || watch(ep, fd, EPOLLIN | EPOLLET | EPOLLEXCLUSIVE) < 0)
		_exit(2);
	if (epoll_wait(ep, &ev, 1, -1) != 1 || write(report, "w", 1) != 1)
		_exit(3);
	_exit(0);
}

TEST(epoll_exclusive_wakes_one)
{
	enum { WAITERS = 4 };
	int data[2], report[2];
	pid_t pids[WAITERS];
	char c;

	CHECK_OK(pipe(data));
	CHECK_OK(pipe2(report, O_NONBLOCK));
	for (int i = 0; i < WAITERS; i++) {
		pids[i] = xfork();
		if (pids[i] == 0)
			exclusive_waiter(data[0], report[1]);
	}
	for (int i = 0; i < WAITERS; i++)
		wait_until_asleep(pids[i]);
	for (int round = 0; round < 2; round++) {
		CHECK_EQ(write(data[1], "x", 1), 1);
		struct pollfd pfd = { .fd = report[0], .events = POLLIN };
		CHECK_EQ(poll(&pfd, 1, -1), 1);
		CHECK_EQ(read(report[0], &c, 1), 1);
		/* The others stay asleep: a herd would have reported by now. */
		struct timespec grace = { 0, 200 * 1000000 };
		nanosleep(&grace, NULL);
		CHECK_ERR(EAGAIN, read(report[0], &c, 1));
	}
	for (int i = 0; i < WAITERS; i++)
		kill(pids[i], SIGKILL);
	for (int i = 0; i < WAITERS; i++)
		wait_status(pids[i]);
}
