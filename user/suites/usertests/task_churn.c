/*
 * task_churn.c - usertests: thousands of threads and processes made and
 * ended, and what their end must give back: every kernel stack (rewind
 * keeps a few freed ones mapped for the next thread and unmaps the rest in
 * batches, mm/vmap.c), every task; and kernel.threads-max, which counts
 * tasks without walking them, refusing exactly the task over the limit.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "usertests.h"

#define THREAD_ROUNDS	100
#define THREADS_AT_ONCE 40 /* more than the stacks the kernel keeps: some are unmapped */
#define FORKS		1000
#define LEAK_WAIT_TRIES \
	300 /* 100 ms apart: a dead thread's stack is freed once its CPU leaves it */

struct kernel_counts {
	unsigned long pages, tasks;
};

/* rewind's /proc/objects pages and tasks (kernel/objcount.h); false where there is none (Linux). */
static bool
read_kernel_counts(struct kernel_counts *c)
{
	long pages = kernel_objects("pages"), tasks = kernel_objects("tasks");

	if (pages < 0 || tasks < 0)
		return false;
	*c = (struct kernel_counts){ (unsigned long)pages, (unsigned long)tasks };
	return true;
}

static void
run_in_child(void (*work)(void), const char *what)
{
	pid_t pid = xfork();

	if (pid == 0) {
		work();
		_exit(0);
	}
	expect_exited(wait_status(pid), 0, what);
}

static void
no_work(void)
{
}

/*
 * Runs work in a child and checks that, once it is reaped, the kernel holds
 * no more than before. A first round with no work touches every page this
 * process uses for a round (stack, counters), which /proc/objects counts.
 */
static void
expect_no_leak(void (*work)(void), const char *what)
{
	static struct kernel_counts before, after;

	run_in_child(no_work, "a child doing nothing");
	read_kernel_counts(&after);
	bool counted = read_kernel_counts(&before);
	run_in_child(work, what);
	if (!counted)
		return; /* Linux has no /proc/objects; the work itself is checked */
	for (int i = 0; i < LEAK_WAIT_TRIES; i++) {
		CHECK(read_kernel_counts(&after));
		if (after.pages <= before.pages && after.tasks <= before.tasks)
			return;
		nanosleep(&(struct timespec){ .tv_nsec = 100 * 1000 * 1000 }, NULL);
	}
	fail("%s: pages %lu -> %lu, tasks %lu -> %lu", what, before.pages, after.pages,
	     before.tasks, after.tasks);
}

static void *
thread_returns(void *arg)
{
	return arg;
}

static void
create_and_join_threads(void)
{
	pthread_t t[THREADS_AT_ONCE];

	for (int round = 0; round < THREAD_ROUNDS; round++) {
		for (long i = 0; i < THREADS_AT_ONCE; i++)
			CHECK_EQ(pthread_create(&t[i], NULL, thread_returns, (void *)i), 0);
		for (long i = 0; i < THREADS_AT_ONCE; i++) {
			void *ret;
			CHECK_EQ(pthread_join(t[i], &ret), 0);
			CHECK_EQ((long)ret, i);
		}
	}
}

/* 4,000 threads, 40 at a time: their stacks are reused or unmapped, none is lost. */
TEST(thread_churn_gives_back_stacks)
{
	expect_no_leak(create_and_join_threads, "4000 threads created and joined");
}

static void
fork_and_reap(void)
{
	for (int i = 0; i < FORKS; i++) {
		pid_t pid = xfork();
		if (pid == 0)
			_exit(i & 0x7f);
		expect_exited(wait_status(pid), i & 0x7f, "forked child");
	}
}

/* 1,000 processes forked and reaped, one at a time: each stack goes back. */
TEST(fork_churn_gives_back_stacks)
{
	expect_no_leak(fork_and_reap, "1000 forks reaped");
}

#define THREADS_MAX "/proc/sys/kernel/threads-max"
#define ROOM	    5 /* tasks threads-max leaves room for */

static void *
thread_waits(void *gate)
{
	char ch;

	(void)!read(*(int *)gate, &ch, 1);
	return NULL;
}

/*
 * With threads-max at the tasks there are (sysinfo's procs, Linux's
 * nr_threads) plus ROOM, exactly ROOM more threads and processes can be
 * made, then EAGAIN: the kernel's task count goes up and down with every
 * task, thread or process. Only on rewind, as threads_max_eagain.
 */
TEST(threads_max_counts_every_task)
{
	if (geteuid() != 0)
		skip("needs root");
	if (access("/proc/sys/rewind", F_OK) != 0)
		skip("not on rewind: a low threads-max would stop the host's other programs' forks");
	unsigned long old = read_number(THREADS_MAX);
	pid_t pid = xfork();
	if (pid == 0) {
		int gate[2];
		pthread_t t[20];
		struct sysinfo si;
		CHECK_OK(pipe(gate));
		CHECK_OK(sysinfo(&si));
		write_number(THREADS_MAX, si.procs + ROOM < 20 ? 20 : si.procs + ROOM);
		unsigned long room = read_number(THREADS_MAX) - si.procs;
		int threads = 0, forks = 0, err;
		while (threads < (int)room / 2 &&
		       (err = pthread_create(&t[threads], NULL, thread_waits, &gate[0])) == 0)
			threads++;
		CHECK_EQ(threads, (int)room / 2);
		for (pid_t c; (c = fork()) >= 0; forks++)
			if (c == 0) {
				close(gate[1]);
				_exit(thread_waits(&gate[0]) != NULL);
			}
		CHECK_EQ(errno, EAGAIN);
		CHECK_EQ(threads + forks, (int)room);
		CHECK_EQ(pthread_create(&t[0], NULL, thread_waits, &gate[0]), EAGAIN);
		close(gate[1]);
		for (int i = 0; i < threads; i++)
			CHECK_EQ(pthread_join(t[i], NULL), 0);
		while (wait(NULL) > 0)
			;
		_exit(0);
	}
	int status = wait_status(pid);
	write_number(THREADS_MAX, old);
	expect_exited(status, 0, "exactly threads-max tasks");
}
