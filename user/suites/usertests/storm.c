/*
 * storm.c - usertests: a timer and pipe storm by user nobody (uid 65534)
 * leaves root's processes running, and the out-of-memory killer picks the
 * stormer. The hog arms as many 1 ns periodic POSIX timers as it may with
 * their signal blocked (once a machine-wide hang), SIGEV_NONE ones and
 * ones whose signal is ignored; a root worker must still get through its
 * iterations (scheduled, system calls answered). Then the hog fills memory
 * with empty 64 KiB pipes (the per-user soft limit lifted for the test, as
 * a machine with many users would reach the same) and touches memory: the
 * victim must be the hog, whose pipes are charged to it, not the root
 * bystander with more resident pages. Only where RAM is at most 2 GiB.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <time.h>
#include <unistd.h>

#define SOFT		"/proc/sys/fs/pipe-user-pages-soft"
#define BYSTANDER_BYTES (48 << 20)
#define WORKER_ROUNDS	2000
#define SIGNAL_TIMERS	1000
#define NONE_TIMERS	30
#define IGNORED_TIMERS	10
#define STORM_SIGNAL	(SIGRTMIN + 3)
#define IGNORED_SIGNAL	(SIGRTMIN + 4)
#define HOG_FILES	20000

/* struct sigevent as the kernel reads it. */
struct raw_sigevent {
	union sigval value;
	int signo;
	int notify;
	int pad[12];
};

/* Timers of 1 ns, every 1 ns, until count or the limit: how many. */
static int
arm_timers(int count, int notify, int signo)
{
	struct itimerspec every_ns = { { 0, 1 }, { 0, 1 } };
	int made = 0;

	for (; made < count; made++) {
		struct raw_sigevent ev = { .signo = signo, .notify = notify };
		int id;
		if (syscall(SYS_timer_create, CLOCK_MONOTONIC, &ev, &id) != 0)
			break;
		CHECK_OK(syscall(SYS_timer_settime, id, 0, &every_ns, NULL));
	}
	return made;
}

static void
tell(int fd, char c)
{
	CHECK_EQ(write(fd, &c, 1), 1);
}

static char
hear(int fd)
{
	char c = 0;

	CHECK_EQ(read(fd, &c, 1), 1);
	return c;
}

/* As nobody: the timers, a word to the parent, then pipes and memory until killed. */
static void __attribute__((noreturn)) storm(int to_parent, int from_parent)
{
	sigset_t blocked;

	CHECK_OK(setresgid(NOBODY_ID, NOBODY_ID, NOBODY_ID));
	CHECK_OK(setresuid(NOBODY_ID, NOBODY_ID, NOBODY_ID));
	sigemptyset(&blocked);
	sigaddset(&blocked, STORM_SIGNAL);
	sigprocmask(SIG_BLOCK, &blocked, NULL);
	signal(IGNORED_SIGNAL, SIG_IGN);
	int made = arm_timers(SIGNAL_TIMERS, SIGEV_SIGNAL, STORM_SIGNAL);
	made += arm_timers(NONE_TIMERS, SIGEV_NONE, STORM_SIGNAL);
	made += arm_timers(IGNORED_TIMERS, SIGEV_SIGNAL, IGNORED_SIGNAL);
	tell(to_parent, made >= 100 ? 't' : 'f'); /* at least 100 timers, whatever the limits */
	hear(from_parent);
	int p[2];
	while (pipe(p) == 0)
		;
	if (errno != ENOMEM && errno != ENFILE && errno != EMFILE)
		_exit(4);
	hog_memory();
}

/* As root: its memory, then WORKER_ROUNDS of work and system calls while the timers run. */
static void __attribute__((noreturn)) bystander(int to_parent, int from_parent)
{
	char *mine = mmap(NULL, BYSTANDER_BYTES, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	CHECK(mine != MAP_FAILED);
	memset(mine, 5, BYSTANDER_BYTES);
	tell(to_parent, 'r');
	hear(from_parent);
	pid_t parent = getppid();
	for (int i = 0; i < WORKER_ROUNDS; i++) {
		CHECK_EQ(getppid(), parent);
		sched_yield();
	}
	tell(to_parent, 'd');
	hear(from_parent); /* after the hog's end */
	_exit(all_bytes(mine, BYSTANDER_BYTES, 5) ? 0 : 5);
}

TEST(timer_and_pipe_storm_by_nobody)
{
	struct sysinfo si;
	int up[2], down_b[2], down_h[2];

	if (geteuid() != 0)
		skip("not root: cannot become nobody");
	CHECK_OK(sysinfo(&si));
	if ((unsigned long long)si.totalram * si.mem_unit > (2ull << 30))
		skip("more than 2 GiB of RAM: not exhausting this machine");
	CHECK_OK(pipe(up));
	CHECK_OK(pipe(down_b));
	CHECK_OK(pipe(down_h));
	pid_t by = xfork();
	if (by == 0)
		bystander(up[1], down_b[0]);
	CHECK_EQ(hear(up[0]), 'r');
	unsigned long soft = read_number(SOFT);
	struct rlimit files = { HOG_FILES, HOG_FILES };
	pid_t hog = xfork();
	if (hog == 0) {
		CHECK_OK(setrlimit(RLIMIT_NOFILE, &files));
		storm(up[1], down_h[0]);
	}
	CHECK_EQ(hear(up[0]), 't');
	tell(down_b[1], 'g'); /* the worker's rounds, beside the armed timers */
	CHECK_EQ(hear(up[0]), 'd');
	write_number(SOFT, 0);
	tell(down_h[1], 'g');
	int status = wait_status(hog);
	write_number(SOFT, soft);
	expect_signaled(status, SIGKILL, "the hog, by the OOM killer");
	tell(down_b[1], 'e');
	expect_exited(wait_status(by), 0, "the root bystander");
}
