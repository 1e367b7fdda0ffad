/*
 * storm.c - usertests: a timer, lock and pipe storm by user nobody (uid
 * 65534) leaves root's processes running, and the out-of-memory killer
 * picks the stormer. The hog arms as many 1 ns periodic POSIX timers as it
 * may with their signal blocked (once a machine-wide hang), SIGEV_NONE
 * ones and ones whose signal is ignored, takes file locks until refused
 * (rewind's per-user bound, lowered for the test) and makes pipes until
 * refused (Linux's pipe-user-pages-hard, set for the test); holding all
 * that, a root worker must still get through its iterations (scheduled,
 * system calls answered) and fork a child that exits and answers through
 * a pipe. Then the hog fills memory with empty 64 KiB pipes (the per-user
 * limits lifted, as a machine with many users would reach the same) and
 * touches memory: the victim must be the hog, whose pipes and locks are
 * charged to it, not the root bystander with more resident pages. Only
 * where RAM is at most 2 GiB.
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
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SOFT		 "/proc/sys/fs/pipe-user-pages-soft"
#define HARD		 "/proc/sys/fs/pipe-user-pages-hard"
#define LOCKS_KNOB	 "/proc/sys/rewind/locks_user_max"
#define STORM_LOCKS	 1000 /* rewind's bound on nobody's locks meanwhile; Linux has none */
#define STORM_PIPE_PAGES 4096 /* pipe-user-pages-hard meanwhile: 256 pipes of 64 KiB */
#define BYSTANDER_BYTES	 (48 << 20)
#define WORKER_ROUNDS	 2000
#define SIGNAL_TIMERS	 1000
#define NONE_TIMERS	 30
#define IGNORED_TIMERS	 10
#define STORM_SIGNAL	 (SIGRTMIN + 3)
#define IGNORED_SIGNAL	 (SIGRTMIN + 4)
#define HOG_FILES	 20000

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

/*
 * Write locks on every other byte of fd until refused: whether that was
 * ENOLCK at STORM_LOCKS locks, or, where there is no such bound (Linux),
 * STORM_LOCKS + 1 locks taken without a refusal.
 */
static bool
lock_until_refused(int fd)
{
	bool bounded = access(LOCKS_KNOB, F_OK) == 0;
	int taken = 0;

	while (taken <= STORM_LOCKS && record_lock(fd, F_SETLK, F_WRLCK, 2 * taken, 1) == 0)
		taken++;
	if (bounded)
		return taken == STORM_LOCKS && errno == ENOLCK;
	return taken == STORM_LOCKS + 1;
}

/* Pipes until refused: the errno. */
static int
pipes_until_refused(void)
{
	int p[2];

	while (pipe(p) == 0)
		;
	return errno;
}

/*
 * As nobody: the timers, locks on lock_fd and pipes, a word to the parent
 * after each, then (limits lifted) pipes and memory until killed.
 */
static void __attribute__((noreturn)) storm(int to_parent, int from_parent, int lock_fd)
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
	tell(to_parent, lock_until_refused(lock_fd) ? 'l' : 'f');
	tell(to_parent, pipes_until_refused() == ENFILE ? 'p' : 'f'); /* the user's pages */
	hear(from_parent);
	int why = pipes_until_refused();
	if (why != ENOMEM && why != ENFILE && why != EMFILE)
		_exit(4);
	hog_memory();
}

/* A child that exits at once, and one that answers through a pipe: whether both did. */
static bool
children_answer(void)
{
	int p[2];
	char c = 0;

	if (pipe(p) != 0)
		return false;
	pid_t quiet = fork();
	if (quiet == 0)
		_exit(0);
	pid_t answering = fork();
	if (answering == 0)
		_exit(write(p[1], "a", 1) == 1 ? 0 : 1);
	int quiet_status = -1, answer_status = -1;
	bool answered = read(p[0], &c, 1) == 1 && c == 'a';
	waitpid(quiet, &quiet_status, 0);
	waitpid(answering, &answer_status, 0);
	close(p[0]);
	close(p[1]);
	return answered && quiet_status == 0 && answer_status == 0;
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
	tell(to_parent, children_answer() ? 'd' : 'f');
	hear(from_parent); /* after the hog's end */
	_exit(all_bytes(mine, BYSTANDER_BYTES, 5) ? 0 : 5);
}

/* Sets path to n, returning what it was; 0 and nothing done where it does not exist. */
static unsigned long
swap_number(const char *path, unsigned long n)
{
	if (access(path, F_OK) != 0)
		return 0;
	unsigned long old = read_number(path);
	write_number(path, n);
	return old;
}

TEST(resource_storm_by_nobody)
{
	struct sysinfo si;
	int up[2], down_b[2], down_h[2];
	char lock_path[64];

	if (geteuid() != 0)
		skip("not root: cannot become nobody");
	CHECK_OK(sysinfo(&si));
	if ((unsigned long long)si.totalram * si.mem_unit > (2ull << 30))
		skip("more than 2 GiB of RAM: not exhausting this machine");
	CHECK_OK(pipe(up));
	CHECK_OK(pipe(down_b));
	CHECK_OK(pipe(down_h));
	snprintf(lock_path, sizeof(lock_path), "/tmp/storm_locks_%d", getpid());
	int lock_fd = CHECK_OK(open(lock_path, O_RDWR | O_CREAT | O_EXCL, 0600));
	CHECK_OK(unlink(lock_path)); /* the hog keeps the open file */
	pid_t by = xfork();
	if (by == 0)
		bystander(up[1], down_b[0]);
	CHECK_EQ(hear(up[0]), 'r');
	unsigned long soft = read_number(SOFT), hard = swap_number(HARD, STORM_PIPE_PAGES);
	unsigned long locks = swap_number(LOCKS_KNOB, STORM_LOCKS);
	struct rlimit files = { HOG_FILES, HOG_FILES };
	pid_t hog = xfork();
	if (hog == 0) {
		CHECK_OK(setrlimit(RLIMIT_NOFILE, &files));
		storm(up[1], down_h[0], lock_fd);
	}
	char timers = hear(up[0]), locked = hear(up[0]), piped = hear(up[0]);
	tell(down_b[1], 'g'); /* the worker's rounds and children, beside all the hog holds */
	char worked = hear(up[0]);
	write_number(SOFT, 0);
	write_number(HARD, 0);
	tell(down_h[1], 'g');
	int status = wait_status(hog);
	write_number(SOFT, soft);
	write_number(HARD, hard);
	swap_number(LOCKS_KNOB, locks);
	CHECK_EQ(timers, 't');
	CHECK_EQ(locked, 'l');
	CHECK_EQ(piped, 'p');
	CHECK_EQ(worked, 'd');
	expect_signaled(status, SIGKILL, "the hog, by the OOM killer");
	tell(down_b[1], 'e');
	expect_exited(wait_status(by), 0, "the root bystander");
}
