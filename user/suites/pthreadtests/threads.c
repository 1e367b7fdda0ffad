/*
 * threads.c - pthreadtests: creating, joining and ending threads: return
 * values, many threads, detached ones, thread-local storage, pthread_exit,
 * exit() from any thread, a fault in one thread ending them all, and a
 * child forked by one thread waited for by another.
 */
#define _GNU_SOURCE
#include "pthreadtests.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void *
return_arg_squared(void *arg)
{
	uintptr_t i = (uintptr_t)arg;

	return (void *)(i * i + 1);
}

TEST(join_values)
{
	enum { N = 16 };
	pthread_t t[N];

	for (uintptr_t i = 0; i < N; i++)
		t[i] = start_thread(return_arg_squared, (void *)i);
	/* Backwards: the later ones may still run, the earlier have likely ended. */
	for (int i = N - 1; i >= 0; i--) {
		uintptr_t got = (uintptr_t)join_thread(t[i]);
		if (got != (uintptr_t)i * i + 1)
			fail("thread %d returned %lu, want %lu", i, (unsigned long)got,
			     (unsigned long)i * i + 1);
	}
}

struct tid_record {
	atomic_int ran;
	pid_t tids[8];
};

static void *
record_tid(void *arg)
{
	struct tid_record *r = arg;

	r->tids[atomic_fetch_add(&r->ran, 1)] = tid();
	return NULL;
}

TEST(create_join_many)
{
	enum { TOTAL = 200, BATCH = 8 };
	int total = 0;

	for (int done = 0; done < TOTAL; done += BATCH) {
		struct tid_record r = { 0 };
		pthread_t t[BATCH];

		for (int i = 0; i < BATCH; i++)
			t[i] = start_thread(record_tid, &r);
		for (int i = 0; i < BATCH; i++)
			join_thread(t[i]);
		CHECK_EQ(r.ran, BATCH);
		/* The threads of a batch lived at the same time, at least in part: distinct ids. */
		for (int i = 0; i < BATCH; i++) {
			if (r.tids[i] <= 0 || r.tids[i] == getpid())
				fail("a thread's gettid() is %d (process %d)", r.tids[i], getpid());
			for (int j = 0; j < i; j++)
				if (r.tids[i] == r.tids[j] && r.tids[i] != 0)
					fail("two live threads share tid %d", r.tids[i]);
		}
		total += r.ran;
	}
	CHECK_EQ(total, TOTAL);
}

static atomic_ulong detached_ran;

static void *
detached_thread(void *arg)
{
	if (arg) /* half of them detach themselves, the rest are created detached */
		CHECK_EQ(pthread_detach(pthread_self()), 0);
	atomic_fetch_add(&detached_ran, 1);
	return NULL;
}

/*
 * Detached threads free their own stack as they exit (musl unmaps it just
 * before the exit system call): many rounds, so that a leak or a thread
 * that does not really end shows up as a failure to create more.
 */
TEST(detached)
{
	enum { ROUNDS_OF = 8, PER_ROUND = 16 };
	pthread_attr_t attr;

	CHECK_EQ(pthread_attr_init(&attr), 0);
	CHECK_EQ(pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED), 0);
	for (int round = 0; round < ROUNDS_OF; round++) {
		for (int i = 0; i < PER_ROUND; i++) {
			pthread_t t;
			int err = i % 2 ? pthread_create(&t, NULL, detached_thread, (void *)1)
					: pthread_create(&t, &attr, detached_thread, NULL);
			if (err)
				fail("round %d: pthread_create of a detached thread failed with %s",
				     round, errname(err));
		}
		await_count(&detached_ran, (round + 1) * PER_ROUND, "detached threads that ran");
	}
	pthread_attr_destroy(&attr);
}

static __thread int tls_value = 42;
static __thread char tls_name[32] = "initial";

struct tls_run {
	pthread_barrier_t all_alive;
	atomic_int next_index;
	int *addr[8];
	pid_t tid[8], pid[8];
};

static void *
tls_thread(void *arg)
{
	struct tls_run *r = arg;
	int me = atomic_fetch_add(&r->next_index, 1);

	if (tls_value != 42 || strcmp(tls_name, "initial"))
		fail("thread %d starts with tls_value %d, tls_name '%s': not the initial image", me,
		     tls_value, tls_name);
	tls_value = 1000 + me;
	snprintf(tls_name, sizeof(tls_name), "thread %d", me);
	r->addr[me] = &tls_value;
	r->tid[me] = tid();
	r->pid[me] = getpid();
	/* All alive at once, each having written its own copy; then check that none was overwritten. */
	pthread_barrier_wait(&r->all_alive);
	char want[32];
	snprintf(want, sizeof(want), "thread %d", me);
	if (tls_value != 1000 + me || strcmp(tls_name, want))
		fail("thread %d: its __thread variables now hold %d, '%s'", me, tls_value,
		     tls_name);
	return NULL;
}

TEST(tls)
{
	enum { N = 8 };
	static struct tls_run r;
	pthread_t t[N];

	CHECK_EQ(pthread_barrier_init(&r.all_alive, NULL, N), 0);
	tls_value = 7;
	for (int i = 0; i < N; i++)
		t[i] = start_thread(tls_thread, &r);
	for (int i = 0; i < N; i++)
		join_thread(t[i]);
	CHECK_EQ(tls_value, 7);
	for (int i = 0; i < N; i++) {
		if (r.pid[i] != getpid())
			fail("getpid() in thread %d is %d, in main %d", i, r.pid[i], getpid());
		if (r.tid[i] == tid() || r.addr[i] == &tls_value)
			fail("thread %d shares the main thread's tid or __thread variable", i);
		for (int j = 0; j < i; j++)
			if (r.tid[i] == r.tid[j] || r.addr[i] == r.addr[j])
				fail("threads %d and %d share tid %d or __thread address %p", j, i,
				     r.tid[i], (void *)r.addr[i]);
	}
	CHECK_EQ(tid(), getpid()); /* the main thread is the group leader */
}

static void __attribute__((noreturn)) exit_deep(int depth)
{
	if (depth == 0)
		pthread_exit((void *)(uintptr_t)1234);
	exit_deep(depth - 1);
}

static void *
pthread_exit_thread(void *arg)
{
	(void)arg;
	exit_deep(10);
}

static atomic_ulong worker_steps;

static void *
busy_worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < 1000; i++) {
		atomic_fetch_add(&worker_steps, 1);
		if (i % 50 == 0)
			sched_yield();
	}
	return (void *)(uintptr_t)5678;
}

/* pthread_exit ends one thread: its value reaches the joiner, the others go on. */
TEST(thread_exit)
{
	pthread_t worker = start_thread(busy_worker, NULL);
	pthread_t quitter = start_thread(pthread_exit_thread, NULL);

	CHECK_EQ(join_thread(quitter), (void *)(uintptr_t)1234);
	CHECK_EQ(join_thread(worker), (void *)(uintptr_t)5678);
	CHECK_EQ(worker_steps, 1000);
}

/* Writes a byte to fd, then ends the process from this thread with exit(code). */
struct exiter {
	int fd;
	int code;
	long delay_ms;
};

static void *
exit_process_thread(void *arg)
{
	struct exiter *e = arg;

	sleep_ms(e->delay_ms);
	write(e->fd, "x", 1);
	exit(e->code);
}

static void
main_pthread_exit_child(void *arg)
{
	start_thread(exit_process_thread, arg);
	pthread_exit(NULL);
}

/*
 * The main thread's pthread_exit does not end the process: the last thread
 * decides its status. The leader is gone meanwhile; wait4 must not report
 * the process until the other thread has ended it.
 */
TEST(main_thread_exit)
{
	int p[2];

	CHECK_OK(pipe(p));
	struct exiter e = { p[1], 23, 100 };
	int status = run_child(main_pthread_exit_child, &e);
	char c;

	expect_exited(status, 23, "main thread's pthread_exit, then exit(23) in another thread");
	close(p[1]);
	CHECK_EQ(read(p[0], &c, 1), 1);
}

static void *
block_in_read(void *arg)
{
	char c;

	read(*(int *)arg, &c, 1);
	fail("read from a pipe nobody writes returned");
}

static void *
block_in_sleep(void *arg)
{
	(void)arg;
	sleep(60);
	fail("sleep(60) returned in an exiting process");
}

static void *
block_in_cond_wait(void *arg)
{
	static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	static pthread_cond_t never = PTHREAD_COND_INITIALIZER;

	(void)arg;
	pthread_mutex_lock(&m);
	while (pthread_cond_wait(&never, &m) == 0)
		;
	fail("pthread_cond_wait failed");
}

static int atexit_fd = -1;

static void
say_atexit(void)
{
	write(atexit_fd, "a", 1);
}

static void
exit_from_thread_child(void *arg)
{
	struct exiter *e = arg;
	int idle[2];

	if (pipe(idle) < 0)
		fail("pipe failed with %s", errname(errno));
	atexit_fd = e->fd;
	atexit(say_atexit);
	start_thread(block_in_read, &idle[0]);
	start_thread(block_in_sleep, NULL);
	start_thread(block_in_cond_wait, NULL);
	/* The main thread is blocked too: in pthread_join, a futex wait. */
	join_thread(start_thread(exit_process_thread, e));
	fail("pthread_join returned on a thread that called exit()");
}

/*
 * exit() from a thread ends the whole process with its status, even with
 * every other thread asleep in a system call (read, nanosleep, futex), and
 * runs the atexit handlers.
 */
TEST(exit_from_thread)
{
	int p[2];
	char got[2];

	CHECK_OK(pipe(p));
	struct exiter e = { p[1], 42, 50 };
	int status = run_child(exit_from_thread_child, &e);

	expect_exited(status, 42, "exit(42) from a thread");
	close(p[1]);
	CHECK(read(p[0], got, 2) == 2 && got[0] == 'x' && got[1] == 'a');
}

static void *
write_null(void *arg)
{
	sleep_ms((long)(uintptr_t)arg);
	*(volatile int *)0 = 1;
	return NULL;
}

static void
thread_faults_child(void *arg)
{
	(void)arg;
	start_thread(block_in_sleep, NULL);
	join_thread(start_thread(write_null, (void *)20));
	fail("pthread_join returned on a thread that wrote to NULL");
}

static void
main_faults_child(void *arg)
{
	(void)arg;
	start_thread(block_in_sleep, NULL);
	start_thread(busy_worker, NULL);
	write_null((void *)20);
}

/* A fault in any one thread kills the whole process with SIGSEGV, sleeping threads included. */
TEST(thread_fault)
{
	expect_signaled(run_child(thread_faults_child, NULL), SIGSEGV, "a thread wrote to NULL");
	expect_signaled(run_child(main_faults_child, NULL), SIGSEGV,
			"the main thread wrote to NULL");
}

/* Forks a child that ends with status 5 after a short sleep; returns its pid. */
static void *
fork_sleepy_child(void *arg)
{
	(void)arg;
	pid_t pid = fork();
	if (pid == 0) {
		usleep(50 * 1000);
		_exit(5);
	}
	return (void *)(intptr_t)pid;
}

/*
 * A child belongs to the process, not to the thread that forked it: another
 * thread waits for it, even after the forking thread has ended (Linux).
 */
TEST(wait_for_another_threads_child)
{
	pthread_t t;
	void *ret;
	int status;

	if (pthread_create(&t, NULL, fork_sleepy_child, NULL))
		fail("pthread_create failed");
	pthread_join(t, &ret);
	pid_t pid = (pid_t)(intptr_t)ret;
	CHECK(pid > 0);
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 5);
}

/*
 * The parent is the process's, not a thread's copy: after the parent
 * process ends and is reaped, a thread created before that sees the new
 * parent (init, or a subreaper on a host) exactly as the main thread does,
 * never the freed parent.
 */
static int go_fd;

static void *
ppid_after_go(void *arg)
{
	char c;

	(void)arg;
	if (read(go_fd, &c, 1) != 1)
		return (void *)-1L;
	return (void *)(long)getppid();
}

TEST(thread_getppid_after_reparent)
{
	int ready[2], go[2], result[2];

	CHECK(pipe(ready) == 0 && pipe(go) == 0 && pipe(result) == 0);
	pid_t middle = xfork();
	if (middle == 0) {
		if (xfork() == 0) { /* the grandchild: a thread made while its parent lives */
			pid_t first = getppid();
			go_fd = go[0];
			pthread_t t = start_thread(ppid_after_go, NULL);
			CHECK_EQ(write(ready[1], "r", 1), 1);
			long from_thread = (long)join_thread(t);
			long from_main = getppid();
			long answer[3] = { first, from_thread, from_main };
			CHECK_EQ(write(result[1], answer, sizeof(answer)), sizeof(answer));
			_exit(0);
		}
		char c;
		CHECK_EQ(read(ready[0], &c, 1), 1);
		_exit(0); /* the thread's parent ends */
	}
	expect_exit(middle, 0, "the middle process");
	/* Reaped and freed; let other tasks take its memory before the thread looks. */
	for (int i = 0; i < 4; i++) {
		pid_t p = xfork();
		if (p == 0)
			_exit(0);
		expect_exit(p, 0, "a filler child");
	}
	CHECK_EQ(write(go[1], "g", 1), 1);
	long answer[3];
	CHECK_EQ(read(result[0], answer, sizeof(answer)), sizeof(answer));
	if (answer[0] != middle)
		fail("the grandchild's parent was %ld, want %d", answer[0], (int)middle);
	if (answer[1] != answer[2] || answer[1] == middle || answer[1] <= 0)
		fail("after its parent %d was reaped: getppid() %ld in a thread, %ld in the main thread",
		     (int)middle, answer[1], answer[2]);
}
