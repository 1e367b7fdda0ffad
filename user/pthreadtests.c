/*
 * pthreadtests.c - threads as musl's pthreads use them: clone, futex
 * (private and process-shared), thread-local storage, thread and process
 * exit, page faults and mappings shared by threads, CPU time, CPU
 * affinity, and TLB shootdown as threads on other CPUs see it.
 *
 *	pthreadtests [NAME-PREFIX...]     run all tests, or those whose names start so
 *
 * The output is usertests' (lib/testing.h): "ok NAME", "FAIL NAME: why",
 * "skip NAME: why", then "pthreadtests: N passed, N failed"; the exit
 * status is 0 only if nothing failed. Each test is a forked child, so a
 * thread that crashes or hangs takes down its test alone. Tests about how
 * a whole process ends (exit from a thread, a faulting thread, a stale TLB
 * entry) fork once more and judge that grandchild's wait status.
 *
 * Every expectation is Linux's, and the suite passes on a Linux host. No
 * test depends on speed: timeouts are checked to last at least as long as
 * asked, and the only deadlines are generous ones that turn a hang (a lost
 * wake-up, a thread that never ends) into a failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/testing.h"

#define PAGE		4096
#define MS		1000000LL	/* ns */
#define DEADLINE_NS	(10000 * MS)	/* what only a hang exceeds, even under TCG */
#define MAX_CPUS	64

/* futex(2), Linux's values (musl-gcc has no kernel headers). */
#define FUTEX_WAIT_PRIVATE		128
#define FUTEX_WAKE_PRIVATE		129
#define FUTEX_CMP_REQUEUE_PRIVATE	132
#define FUTEX_WAIT_BITSET_PRIVATE	137
#define FUTEX_BITSET_MATCH_ANY		0xffffffffu

/* --- threads -------------------------------------------------------------- */

static pthread_t
start_thread(void *(*fn)(void *), void *arg)
{
	pthread_t t;
	int err = pthread_create(&t, NULL, fn, arg);

	if (err)
		fail("pthread_create failed with %s", errname(err));
	return t;
}

static void *
join_thread(pthread_t t)
{
	void *ret;
	int err = pthread_join(t, &ret);

	if (err)
		fail("pthread_join failed with %s", errname(err));
	return ret;
}

static pid_t
tid(void)
{
	return syscall(SYS_gettid);
}

/* Sleeps ms milliseconds (nanosleep resumed after any interruption). */
static void
sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * MS };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/*
 * Holds each thread until all of them have arrived, so that they run their
 * loops at the same time instead of one after another as they are created.
 */
struct gate {
	atomic_int arrived;
	int expected;
};

static void
gate_wait(struct gate *g)
{
	long long deadline = mono_ns() + DEADLINE_NS;

	atomic_fetch_add(&g->arrived, 1);
	while (atomic_load(&g->arrived) < g->expected) {
		if (mono_ns() > deadline)
			fail("only %d of %d threads started within 10 s",
			     atomic_load(&g->arrived), g->expected);
		sched_yield();
	}
}

/* Waits until *word >= value; what it waits for is named in the failure. */
static void
await_count(atomic_ulong *word, unsigned long value, const char *what)
{
	long long deadline = mono_ns() + DEADLINE_NS;

	while (atomic_load(word) < value) {
		if (mono_ns() > deadline)
			fail("%s: %lu of %lu within 10 s", what, atomic_load(word), value);
		sched_yield();
	}
}

/* --- CPUs ----------------------------------------------------------------- */

/* The CPUs this process may run on, in order; how many there are. */
static int
allowed_cpus(int cpus[MAX_CPUS])
{
	cpu_set_t set;
	int n = 0;

	EXPECT_OK(sched_getaffinity(0, sizeof(set), &set));
	for (int c = 0; c < MAX_CPUS; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	return n;
}

/* The first two allowed CPUs (0 and 1 on rewind), or skips the test. */
static void
two_cpus(int *a, int *b)
{
	int cpus[MAX_CPUS];

	if (allowed_cpus(cpus) < 2)
		skip("only one CPU online");
	*a = cpus[0];
	*b = cpus[1];
}

/* Restricts thread (0: the caller) to one CPU. */
static void
pin(pid_t thread, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(thread, sizeof(set), &set) < 0)
		fail("sched_setaffinity(%d, {%d}) failed with %s", thread, cpu, errname(errno));
}

/* --- child processes ------------------------------------------------------- */

/*
 * Runs fn(arg) in a forked child, which exits 0 if fn returns; the child's
 * wait status. A child still running after the deadline fails the test
 * (and is sent SIGKILL, which rewind may not deliver yet).
 */
static int
run_child(void (*fn)(void *), void *arg)
{
	long long deadline = mono_ns() + 3 * DEADLINE_NS;
	pid_t pid = xfork(), got;
	int status;

	if (pid == 0) {
		fn(arg);
		_exit(0);
	}
	while ((got = waitpid(pid, &status, WNOHANG)) == 0) {
		if (mono_ns() > deadline) {
			kill(pid, SIGKILL);
			fail("child process still running after 30 s");
		}
		sleep_ms(2);
	}
	if (got < 0)
		fail("waitpid(%d) failed with %s", pid, errname(errno));
	return status;
}

/* === mutual exclusion ====================================================== */

struct lock_ops {
	void (*lock)(void *);
	void (*unlock)(void *);
};

struct counter_run {
	const struct lock_ops *ops;
	void *lock;
	struct gate gate;
	long iterations;
	long value;		/* not atomic on purpose: only the lock protects it */
};

#define COUNTER_THREADS	8
#define COUNTER_ITERS	20000

static void *
counter_thread(void *arg)
{
	struct counter_run *r = arg;

	gate_wait(&r->gate);
	for (long i = 0; i < r->iterations; i++) {
		r->ops->lock(r->lock);
		/* A separate load and store, so that two threads inside at once lose an update. */
		long v = *(volatile long *)&r->value;
		*(volatile long *)&r->value = v + 1;
		r->ops->unlock(r->lock);
	}
	return NULL;
}

/* Runs n counter threads on r and waits for them. */
static void
run_counters(struct counter_run *r, int n)
{
	pthread_t t[COUNTER_THREADS];

	for (int i = 0; i < n; i++)
		t[i] = start_thread(counter_thread, r);
	for (int i = 0; i < n; i++)
		join_thread(t[i]);
}

static void
expect_count(const struct counter_run *r)
{
	long want = (long)r->gate.expected * r->iterations;

	if (r->value != want)
		fail("counter is %ld after %d threads x %ld increments: %ld updates lost",
		     r->value, r->gate.expected, r->iterations, want - r->value);
}

/* COUNTER_THREADS threads add 1 COUNTER_ITERS times each under the lock; no update may be lost. */
static void
count_under_lock(const struct lock_ops *ops, void *lock)
{
	struct counter_run r = { ops, lock, { 0, COUNTER_THREADS }, COUNTER_ITERS, 0 };

	run_counters(&r, COUNTER_THREADS);
	expect_count(&r);
}

static void
mutex_lock(void *m)
{
	int err = pthread_mutex_lock(m);

	if (err)
		fail("pthread_mutex_lock failed with %s", errname(err));
}

static void
mutex_unlock(void *m)
{
	int err = pthread_mutex_unlock(m);

	if (err)
		fail("pthread_mutex_unlock failed with %s", errname(err));
}

static const struct lock_ops mutex_ops = { mutex_lock, mutex_unlock };

TEST(mutex_counter)
{
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

	count_under_lock(&mutex_ops, &m);
}

/*
 * A process-shared mutex in a MAP_SHARED page: half the threads in a
 * forked child, half here. Its futex is a shared one, named by the page,
 * not by the address space. The page is touched before fork (rewind shares
 * anonymous MAP_SHARED pages only once they exist: docs/userspace.md).
 */
TEST(pshared_mutex)
{
	struct shared {
		pthread_mutex_t m;
		struct counter_run r;
	} *s = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pthread_mutexattr_t attr;

	if (s == MAP_FAILED)
		fail("mmap of a shared page failed with %s", errname(errno));
	memset(s, 0, sizeof(*s));
	CHECK(pthread_mutexattr_init(&attr) == 0);
	CHECK(pthread_mutexattr_setpshared(&attr, PTHREAD_PROCESS_SHARED) == 0);
	CHECK(pthread_mutex_init(&s->m, &attr) == 0);
	s->r = (struct counter_run){ &mutex_ops, &s->m, { 0, COUNTER_THREADS }, COUNTER_ITERS, 0 };
	pid_t pid = xfork();
	run_counters(&s->r, COUNTER_THREADS / 2);
	if (pid == 0)
		_exit(0);
	expect_exit(pid, 0, "the child's counter threads");
	expect_count(&s->r);
}

/* A test-and-test-and-set spinlock on C11 atomics: acquire on taking, release on giving. */
static void
spin_lock(void *p)
{
	atomic_int *locked = p;
	unsigned spins = 0;

	while (atomic_exchange_explicit(locked, 1, memory_order_acquire)) {
		while (atomic_load_explicit(locked, memory_order_relaxed)) {
			/*
			 * More threads than CPUs: the holder may be preempted,
			 * and spinning out our time slice would only delay it.
			 */
			if (++spins % 256 == 0)
				sched_yield();
			else
				__builtin_ia32_pause();
		}
	}
}

static void
spin_unlock(void *p)
{
	atomic_store_explicit((atomic_int *)p, 0, memory_order_release);
}

TEST(spinlock_counter)
{
	static const struct lock_ops spin_ops = { spin_lock, spin_unlock };
	atomic_int locked = 0;

	count_under_lock(&spin_ops, &locked);
}

/* === condition variables and barriers ===================================== */

#define QUEUE_SIZE	4		/* small, so that producers wait too */
#define PRODUCERS	3
#define CONSUMERS	3
#define ITEMS		2000		/* per producer */

struct queue {
	pthread_mutex_t lock;
	pthread_cond_t not_empty, not_full;
	int items[QUEUE_SIZE];
	int head, count;
	bool done;			/* no more items will come */
	int next_producer;
	atomic_uchar seen[PRODUCERS * ITEMS];
	atomic_int consumed;
};

static void *
producer(void *arg)
{
	struct queue *q = arg;

	pthread_mutex_lock(&q->lock);
	int first = q->next_producer++ * ITEMS;
	pthread_mutex_unlock(&q->lock);
	for (int i = first; i < first + ITEMS; i++) {
		pthread_mutex_lock(&q->lock);
		while (q->count == QUEUE_SIZE)
			pthread_cond_wait(&q->not_full, &q->lock);
		q->items[(q->head + q->count++) % QUEUE_SIZE] = i;
		pthread_cond_signal(&q->not_empty);
		pthread_mutex_unlock(&q->lock);
	}
	return NULL;
}

static void *
consumer(void *arg)
{
	struct queue *q = arg;

	for (;;) {
		pthread_mutex_lock(&q->lock);
		while (q->count == 0 && !q->done)
			pthread_cond_wait(&q->not_empty, &q->lock);
		if (q->count == 0) {
			pthread_mutex_unlock(&q->lock);
			return NULL;
		}
		int item = q->items[q->head];
		q->head = (q->head + 1) % QUEUE_SIZE;
		q->count--;
		pthread_cond_signal(&q->not_full);
		pthread_mutex_unlock(&q->lock);
		/* Outside the lock: a duplicate delivery shows as a count of 2. */
		atomic_fetch_add(&q->seen[item], 1);
		atomic_fetch_add(&q->consumed, 1);
	}
}

TEST(cond_queue)
{
	static struct queue q = {
		.lock = PTHREAD_MUTEX_INITIALIZER,
		.not_empty = PTHREAD_COND_INITIALIZER,
		.not_full = PTHREAD_COND_INITIALIZER,
	};
	pthread_t p[PRODUCERS], c[CONSUMERS];

	for (int i = 0; i < CONSUMERS; i++)
		c[i] = start_thread(consumer, &q);
	for (int i = 0; i < PRODUCERS; i++)
		p[i] = start_thread(producer, &q);
	for (int i = 0; i < PRODUCERS; i++)
		join_thread(p[i]);
	/* Every consumer must see the end, whichever condition it sleeps on: broadcast. */
	pthread_mutex_lock(&q.lock);
	q.done = true;
	pthread_cond_broadcast(&q.not_empty);
	pthread_mutex_unlock(&q.lock);
	for (int i = 0; i < CONSUMERS; i++)
		join_thread(c[i]);
	for (int i = 0; i < PRODUCERS * ITEMS; i++)
		if (q.seen[i] != 1)
			fail("item %d consumed %d times, want once", i, q.seen[i]);
	CHECK(q.consumed == PRODUCERS * ITEMS);
	CHECK(q.count == 0);
}

#define BARRIER_THREADS	6
#define ROUNDS		100

struct barrier_run {
	pthread_barrier_t barrier;
	atomic_int slot[BARRIER_THREADS];
	atomic_int next_index;
	atomic_int serial;		/* PTHREAD_BARRIER_SERIAL_THREAD returns */
};

static void
barrier_wait(struct barrier_run *r)
{
	int ret = pthread_barrier_wait(&r->barrier);

	if (ret == PTHREAD_BARRIER_SERIAL_THREAD)
		atomic_fetch_add(&r->serial, 1);
	else if (ret)
		fail("pthread_barrier_wait failed with %s", errname(ret));
}

/* Each round: write my slot, wait; all slots must show this round; wait again before the next. */
static void *
barrier_thread(void *arg)
{
	struct barrier_run *r = arg;
	int me = atomic_fetch_add(&r->next_index, 1);

	for (int round = 1; round <= ROUNDS; round++) {
		atomic_store(&r->slot[me], round);
		barrier_wait(r);
		for (int i = 0; i < BARRIER_THREADS; i++)
			if (atomic_load(&r->slot[i]) != round)
				fail("round %d: thread %d passed the barrier while thread %d was in round %d",
				     round, me, i, atomic_load(&r->slot[i]));
		barrier_wait(r);
	}
	return NULL;
}

TEST(barrier_rounds)
{
	static struct barrier_run r;
	pthread_t t[BARRIER_THREADS];

	CHECK(pthread_barrier_init(&r.barrier, NULL, BARRIER_THREADS) == 0);
	for (int i = 0; i < BARRIER_THREADS; i++)
		t[i] = start_thread(barrier_thread, &r);
	for (int i = 0; i < BARRIER_THREADS; i++)
		join_thread(t[i]);
	if (r.serial != 2 * ROUNDS)
		fail("%d waits returned PTHREAD_BARRIER_SERIAL_THREAD over %d barrier cycles, want one each",
		     r.serial, 2 * ROUNDS);
	CHECK(pthread_barrier_destroy(&r.barrier) == 0);
}

/* === creating, joining and ending threads ================================= */

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
		CHECK(r.ran == BATCH);
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
	CHECK(total == TOTAL);
}

static atomic_ulong detached_ran;

static void *
detached_thread(void *arg)
{
	if (arg)	/* half of them detach themselves, the rest are created detached */
		CHECK(pthread_detach(pthread_self()) == 0);
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

	CHECK(pthread_attr_init(&attr) == 0);
	CHECK(pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED) == 0);
	for (int round = 0; round < ROUNDS_OF; round++) {
		for (int i = 0; i < PER_ROUND; i++) {
			pthread_t t;
			int err = i % 2 ? pthread_create(&t, NULL, detached_thread, (void *)1) :
					  pthread_create(&t, &attr, detached_thread, NULL);
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
		fail("thread %d starts with tls_value %d, tls_name '%s': not the initial image",
		     me, tls_value, tls_name);
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
		fail("thread %d: its __thread variables now hold %d, '%s'", me, tls_value, tls_name);
	return NULL;
}

TEST(tls)
{
	enum { N = 8 };
	static struct tls_run r;
	pthread_t t[N];

	CHECK(pthread_barrier_init(&r.all_alive, NULL, N) == 0);
	tls_value = 7;
	for (int i = 0; i < N; i++)
		t[i] = start_thread(tls_thread, &r);
	for (int i = 0; i < N; i++)
		join_thread(t[i]);
	CHECK(tls_value == 7);
	for (int i = 0; i < N; i++) {
		if (r.pid[i] != getpid())
			fail("getpid() in thread %d is %d, in main %d", i, r.pid[i], getpid());
		if (r.tid[i] == tid() || r.addr[i] == &tls_value)
			fail("thread %d shares the main thread's tid or __thread variable", i);
		for (int j = 0; j < i; j++)
			if (r.tid[i] == r.tid[j] || r.addr[i] == r.addr[j])
				fail("threads %d and %d share tid %d or __thread address %p",
				     j, i, r.tid[i], (void *)r.addr[i]);
	}
	CHECK(tid() == getpid());	/* the main thread is the group leader */
}

static void __attribute__((noreturn))
exit_deep(int depth)
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

	CHECK(join_thread(quitter) == (void *)(uintptr_t)1234);
	CHECK(join_thread(worker) == (void *)(uintptr_t)5678);
	CHECK(worker_steps == 1000);
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

	EXPECT_OK(pipe(p));
	struct exiter e = { p[1], 23, 100 };
	int status = run_child(main_pthread_exit_child, &e);
	char c;

	expect_exited(status, 23, "main thread's pthread_exit, then exit(23) in another thread");
	close(p[1]);
	CHECK(read(p[0], &c, 1) == 1);
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

	EXPECT_OK(pipe(p));
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

/* === timeouts ============================================================== */

#define TIMEOUT_MS	200

/* The clock's now plus ms: an absolute deadline, as pthread timed waits take. */
static struct timespec
deadline_in(clockid_t clock, long ms)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	ts.tv_nsec += ms % 1000 * MS;
	ts.tv_sec += ms / 1000 + ts.tv_nsec / 1000000000;
	ts.tv_nsec %= 1000000000;
	return ts;
}

static void
expect_timed_out(int err, long long took, long ms, const char *what)
{
	if (err != ETIMEDOUT)
		fail("%s returned %s, want ETIMEDOUT", what, err ? errname(err) : "0");
	if (took < ms * MS)
		fail("%s timed out after %lld us, before its %ld ms", what, took / 1000, ms);
}

struct timedlock_run {
	pthread_mutex_t m;
	long timeout_ms;
	int err;
	long long took;
};

static void *
timedlock_thread(void *arg)
{
	struct timedlock_run *r = arg;
	long long start = mono_ns();
	struct timespec until = deadline_in(CLOCK_REALTIME, r->timeout_ms);

	r->err = pthread_mutex_timedlock(&r->m, &until);
	r->took = mono_ns() - start;
	if (r->err == 0)
		pthread_mutex_unlock(&r->m);
	return NULL;
}

TEST(mutex_timedlock)
{
	struct timedlock_run r = { PTHREAD_MUTEX_INITIALIZER, TIMEOUT_MS, -1, 0 };
	struct timespec past = { 0, 0 };

	/* Held by us: the other thread's attempt times out. */
	pthread_mutex_lock(&r.m);
	join_thread(start_thread(timedlock_thread, &r));
	expect_timed_out(r.err, r.took, TIMEOUT_MS, "pthread_mutex_timedlock");
	/* A deadline already past: at once. */
	CHECK(pthread_mutex_timedlock(&r.m, &past) == ETIMEDOUT);
	/* Released while the other thread waits: it gets the lock. */
	r.timeout_ms = DEADLINE_NS / MS;
	pthread_t t = start_thread(timedlock_thread, &r);
	sleep_ms(50);
	pthread_mutex_unlock(&r.m);
	join_thread(t);
	if (r.err)
		fail("pthread_mutex_timedlock on a mutex released after 50 ms returned %s",
		     errname(r.err));
}

struct condwait_run {
	pthread_mutex_t m;
	pthread_cond_t c;
	bool ready;
};

static void *
signal_after_50ms(void *arg)
{
	struct condwait_run *r = arg;

	sleep_ms(50);
	pthread_mutex_lock(&r->m);
	r->ready = true;
	pthread_cond_signal(&r->c);
	pthread_mutex_unlock(&r->m);
	return NULL;
}

/* Both clocks a condition variable may use: a timeout, then a signal before the timeout. */
TEST(cond_timedwait)
{
	static const clockid_t clocks[] = { CLOCK_REALTIME, CLOCK_MONOTONIC };

	for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		struct condwait_run r = { .ready = false };
		pthread_mutexattr_t ma;
		pthread_condattr_t ca;
		const char *what = clocks[i] == CLOCK_REALTIME ?
			"pthread_cond_timedwait (CLOCK_REALTIME)" :
			"pthread_cond_timedwait (CLOCK_MONOTONIC)";

		/* Error-checking, so that unlock proves the wait gave the mutex back to us. */
		pthread_mutexattr_init(&ma);
		pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_ERRORCHECK);
		CHECK(pthread_mutex_init(&r.m, &ma) == 0);
		pthread_condattr_init(&ca);
		CHECK(pthread_condattr_setclock(&ca, clocks[i]) == 0);
		CHECK(pthread_cond_init(&r.c, &ca) == 0);

		pthread_mutex_lock(&r.m);
		long long start = mono_ns();
		struct timespec until = deadline_in(clocks[i], TIMEOUT_MS);
		int err = pthread_cond_timedwait(&r.c, &r.m, &until);
		expect_timed_out(err, mono_ns() - start, TIMEOUT_MS, what);
		CHECK(pthread_mutex_unlock(&r.m) == 0);

		pthread_mutex_lock(&r.m);
		pthread_t t = start_thread(signal_after_50ms, &r);
		until = deadline_in(clocks[i], DEADLINE_NS / MS);
		err = 0;
		while (!r.ready && !err)
			err = pthread_cond_timedwait(&r.c, &r.m, &until);
		if (err)
			fail("%s signalled after 50 ms returned %s", what, errname(err));
		CHECK(pthread_mutex_unlock(&r.m) == 0);
		join_thread(t);
	}
}

/* === raw futex ============================================================= */

static long
futex(atomic_uint *word, int op, unsigned val, const struct timespec *ts, atomic_uint *word2,
      unsigned val3)
{
	return syscall(SYS_futex, word, op, val, ts, word2, val3);
}

struct futex_waiters {
	atomic_uint word;
	atomic_ulong returned;
};

/* Waits once on word (== 0); counts the wait's successful returns. */
static void *
futex_waiter(void *arg)
{
	struct futex_waiters *w = arg;

	while (futex(&w->word, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0) != 0)
		if (errno != EINTR)
			fail("FUTEX_WAIT on a word still 0 failed with %s", errname(errno));
	atomic_fetch_add(&w->returned, 1);
	return NULL;
}

/* The calls musl does not make for us: value mismatch, timeouts, wake counts. */
TEST(futex_wait_wake)
{
	enum { N = 3 };
	static struct futex_waiters w;
	struct timespec rel = { 0, TIMEOUT_MS * MS };
	long long start = mono_ns();
	pthread_t t[N];
	long woken = 0;

	EXPECT_ERR(EAGAIN, futex(&w.word, FUTEX_WAIT_PRIVATE, 1, NULL, NULL, 0));
	EXPECT_ERR(ETIMEDOUT, futex(&w.word, FUTEX_WAIT_PRIVATE, 0, &rel, NULL, 0));
	if (mono_ns() - start < TIMEOUT_MS * MS)
		fail("FUTEX_WAIT with a %d ms timeout returned after %lld us",
		     TIMEOUT_MS, (mono_ns() - start) / 1000);
	/* WAIT_BITSET's timeout is an absolute CLOCK_MONOTONIC time. */
	struct timespec until = deadline_in(CLOCK_MONOTONIC, TIMEOUT_MS);
	long long until_ns = until.tv_sec * 1000000000LL + until.tv_nsec;
	EXPECT_ERR(ETIMEDOUT, futex(&w.word, FUTEX_WAIT_BITSET_PRIVATE, 0, &until, NULL,
				    FUTEX_BITSET_MATCH_ANY));
	if (mono_ns() < until_ns)
		fail("FUTEX_WAIT_BITSET returned %lld us before its deadline",
		     (until_ns - mono_ns()) / 1000);
	CHECK(futex(&w.word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0) == 0);

	for (int i = 0; i < N; i++)
		t[i] = start_thread(futex_waiter, &w);
	/* One at a time until each has been woken: a waiter not asleep yet is not counted. */
	long long deadline = mono_ns() + DEADLINE_NS;
	while (woken < N && mono_ns() < deadline) {
		long n = EXPECT_OK(futex(&w.word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0));
		if (n > 1)
			fail("FUTEX_WAKE of 1 returned %ld", n);
		woken += n;
		sched_yield();
	}
	if (woken != N)
		fail("FUTEX_WAKE woke %ld of %d waiters in 10 s", woken, N);
	for (int i = 0; i < N; i++)
		join_thread(t[i]);
	CHECK(w.returned == N);
}

struct requeue_run {
	struct futex_waiters from;
	atomic_uint to;
};

TEST(futex_requeue)
{
	enum { N = 2 };
	static struct requeue_run r;
	pthread_t t[N];
	long moved = 0;

	for (int i = 0; i < N; i++)
		t[i] = start_thread(futex_waiter, &r.from);
	/* CMP_REQUEUE only while the word still holds the expected value. */
	EXPECT_ERR(EAGAIN, futex(&r.from.word, FUTEX_CMP_REQUEUE_PRIVATE, 0,
				 (const struct timespec *)(uintptr_t)INT_MAX, &r.to, 1));
	long long deadline = mono_ns() + DEADLINE_NS;
	while (moved < N && mono_ns() < deadline) {
		/* Wake none, move all: the timeout argument is the requeue count here. */
		moved += EXPECT_OK(futex(&r.from.word, FUTEX_CMP_REQUEUE_PRIVATE, 0,
					 (const struct timespec *)(uintptr_t)INT_MAX, &r.to, 0));
		sched_yield();
	}
	if (moved != N)
		fail("FUTEX_CMP_REQUEUE moved %ld of %d waiters in 10 s", moved, N);
	CHECK(r.from.returned == 0);
	/* They sleep on the second word now: a wake on the first finds nobody. */
	CHECK(futex(&r.from.word, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0) == 0);
	CHECK(futex(&r.to, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0) == N);
	for (int i = 0; i < N; i++)
		join_thread(t[i]);
	CHECK(r.from.returned == N);
}

/* === memory shared by threads ============================================= */

#define FAULT_THREADS	4
#define FAULT_PAGES	512

struct fault_run {
	unsigned char *region;
	struct gate gate;
	atomic_int next_index;
};

/*
 * Each thread writes its own byte in every page, all in the same order
 * from the same start, so that they keep meeting on the page not yet there.
 */
static void *
fault_writer(void *arg)
{
	struct fault_run *r = arg;
	int me = atomic_fetch_add(&r->next_index, 1);

	gate_wait(&r->gate);
	for (int page = 0; page < FAULT_PAGES; page++)
		r->region[page * PAGE + me] = 0x10 + me;
	return NULL;
}

/*
 * Threads on several CPUs fault in the same fresh pages at once: each page
 * must be installed once, so that no thread's write lands in a page that
 * another fault then replaces.
 */
TEST(concurrent_faults)
{
	struct fault_run r = { map_anon(FAULT_PAGES * PAGE, PROT_READ | PROT_WRITE),
			       { 0, FAULT_THREADS }, 0 };
	pthread_t t[FAULT_THREADS];

	for (int i = 0; i < FAULT_THREADS; i++)
		t[i] = start_thread(fault_writer, &r);
	for (int i = 0; i < FAULT_THREADS; i++)
		join_thread(t[i]);
	for (int page = 0; page < FAULT_PAGES; page++)
		for (int k = 0; k < FAULT_THREADS; k++)
			if (r.region[page * PAGE + k] != 0x10 + k)
				fail("page %d: thread %d's byte is %#x, want %#x (a write lost to a racing fault)",
				     page, k, r.region[page * PAGE + k], 0x10 + k);
}

#define CHURN_ROUNDS	200

/* Maps, fills, checks and unmaps a few pages, over and over. */
static void *
mmap_churner(void *arg)
{
	unsigned seed = (unsigned)(uintptr_t)arg;

	for (int round = 0; round < CHURN_ROUNDS; round++) {
		size_t len = (1 + (round + seed) % 4) * PAGE;
		unsigned long *p = map_anon(len, PROT_READ | PROT_WRITE);
		unsigned long mark = (unsigned long)seed << 32 | round;

		for (size_t i = 0; i < len / sizeof(*p); i += 64)
			p[i] = mark + i;
		for (size_t i = 0; i < len / sizeof(*p); i += 64)
			if (p[i] != mark + i)
				fail("thread %u round %d: a fresh mapping at %p holds %#lx, want %#lx",
				     seed, round, (void *)&p[i], p[i], mark + i);
		if (munmap(p, len) < 0)
			fail("munmap failed with %s", errname(errno));
	}
	return NULL;
}

/* mmap and munmap in several threads at once, as malloc does: the address space stays consistent. */
TEST(mmap_churn)
{
	enum { N = 4 };
	pthread_t t[N];

	for (uintptr_t i = 0; i < N; i++)
		t[i] = start_thread(mmap_churner, (void *)(i + 1));
	for (int i = 0; i < N; i++)
		join_thread(t[i]);
}

static volatile int recurse_limit = 1 << 20;	/* pages: far past any thread stack */

/*
 * Each level keeps a page of stack alive and touches all of it, so that
 * no access steps over the guard page into whatever lies below.
 */
static int
recurse(int depth)
{
	volatile char frame[PAGE];

	for (int i = PAGE - 64; i >= 0; i -= 64)
		frame[i] = (char)depth;
	if (depth >= recurse_limit)
		return 0;
	return recurse(depth + 1) + frame[0];
}

static void *
overflow_stack(void *arg)
{
	(void)arg;
	return (void *)(uintptr_t)recurse(0);
}

static void
stack_overflow_child(void *arg)
{
	pthread_attr_t attr;
	pthread_t t;

	(void)arg;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	if (pthread_create(&t, &attr, overflow_stack, NULL))
		fail("pthread_create failed");
	pthread_join(t, NULL);
}

/* A thread that runs off its stack hits musl's guard page: SIGSEGV for the process. */
TEST(thread_stack_overflow)
{
	expect_signaled(run_child(stack_overflow_child, NULL), SIGSEGV,
			"a thread overflowing its 64 KiB stack");
}

/* === CPU time ============================================================== */

#define BURN_MS		100
#define BURNERS		2

static long long
clock_ns(clockid_t clock)
{
	struct timespec ts;

	if (clock_gettime(clock, &ts) < 0)
		fail("clock_gettime(%d) failed with %s", (int)clock, errname(errno));
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long long
rusage_ns(const struct rusage *ru)
{
	return (ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) * 1000000000LL +
	       (ru->ru_utime.tv_usec + ru->ru_stime.tv_usec) * 1000LL;
}

struct burn_run {
	atomic_ulong burned;		/* threads done burning */
	atomic_bool release;
};

/* Uses BURN_MS of CPU time, by this thread's own clock; then waits, idle, until released. */
static void *
burner(void *arg)
{
	struct burn_run *r = arg;
	long long start = clock_ns(CLOCK_THREAD_CPUTIME_ID), deadline = mono_ns() + DEADLINE_NS;
	volatile unsigned long sink = 0;

	while (clock_ns(CLOCK_THREAD_CPUTIME_ID) - start < BURN_MS * MS) {
		for (int i = 0; i < 10000; i++)
			sink += i;
		if (mono_ns() > deadline)
			fail("CLOCK_THREAD_CPUTIME_ID did not advance by %d ms in 10 s", BURN_MS);
	}
	atomic_fetch_add(&r->burned, 1);
	while (!atomic_load(&r->release))
		sleep_ms(1);
	return NULL;
}

/* Starts BURNERS burners and waits until they have burned their time. */
static void
start_burners(struct burn_run *r, pthread_t t[BURNERS])
{
	for (int i = 0; i < BURNERS; i++)
		t[i] = start_thread(burner, r);
	await_count(&r->burned, BURNERS, "threads that burned their CPU time");
}

static void
end_burners(struct burn_run *r, pthread_t t[BURNERS])
{
	atomic_store(&r->release, true);
	for (int i = 0; i < BURNERS; i++)
		join_thread(t[i]);
}

/* Another thread's CPU-time clock (pthread_getcpuclockid) reads that thread's time. */
TEST(cputime_thread_clock)
{
	struct burn_run r = { 0, false };
	pthread_t t[BURNERS];
	clockid_t clock;

	start_burners(&r, t);
	CHECK(pthread_getcpuclockid(t[0], &clock) == 0);
	long long ns = clock_ns(clock);
	if (ns < BURN_MS * MS)
		fail("a thread that burned %d ms of CPU: its clock reads %lld us from another thread",
		     BURN_MS, ns / 1000);
	end_burners(&r, t);
}

/* The process's CPU time is all its threads', those that have ended included. */
TEST(cputime_process)
{
	struct burn_run r = { 0, false };
	pthread_t t[BURNERS];
	struct rusage ru;

	start_burners(&r, t);
	end_burners(&r, t);
	long long ns = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	if (ns < BURNERS * BURN_MS * MS)
		fail("CLOCK_PROCESS_CPUTIME_ID reads %lld us after %d threads burned %d ms each",
		     ns / 1000, BURNERS, BURN_MS);
	EXPECT_OK(getrusage(RUSAGE_SELF, &ru));
	if (rusage_ns(&ru) < BURNERS * BURN_MS * MS)
		fail("getrusage(RUSAGE_SELF) gives %lld us after %d threads burned %d ms each",
		     rusage_ns(&ru) / 1000, BURNERS, BURN_MS);
}

/* The parent's wait4 and RUSAGE_CHILDREN count every thread of a child. */
TEST(cputime_wait4)
{
	struct rusage ru;
	int status;
	pid_t pid;

	pid = xfork();
	if (pid == 0) {
		struct burn_run r = { 0, false };
		pthread_t t[BURNERS];

		start_burners(&r, t);
		end_burners(&r, t);
		_exit(0);
	}
	CHECK(wait4(pid, &status, 0, &ru) == pid);
	expect_exited(status, 0, "a child with CPU-burning threads");
	if (rusage_ns(&ru) < BURNERS * BURN_MS * MS)
		fail("wait4's rusage gives %lld us for a child whose %d threads burned %d ms each",
		     rusage_ns(&ru) / 1000, BURNERS, BURN_MS);
	EXPECT_OK(getrusage(RUSAGE_CHILDREN, &ru));
	if (rusage_ns(&ru) < BURNERS * BURN_MS * MS)
		fail("getrusage(RUSAGE_CHILDREN) gives %lld us for a child whose %d threads burned %d ms each",
		     rusage_ns(&ru) / 1000, BURNERS, BURN_MS);
}

/* === CPUs ================================================================== */

/* Checks, from the thread itself, that it runs on cpu, by both interfaces. */
static void
expect_on_cpu(int cpu, const char *when)
{
	unsigned got = ~0u, node = ~0u;

	if (sched_getcpu() != cpu)
		fail("%s: sched_getcpu() = %d, want %d", when, sched_getcpu(), cpu);
	if (syscall(SYS_getcpu, &got, &node, NULL) != 0 || got != (unsigned)cpu || node != 0)
		fail("%s: getcpu gave cpu %u node %u, want %d and 0", when, got, node, cpu);
}

struct affinity_run {
	int ncpus, cpus[MAX_CPUS];
	pid_t tid;
	atomic_ulong pinned_self;	/* 1 once the thread is done pinning itself */
	atomic_int target;		/* the CPU the main thread moved us to; -1 before */
	atomic_bool done;
};

static void *
affinity_thread(void *arg)
{
	struct affinity_run *r = arg;
	cpu_set_t got;
	char when[64];

	/* Pinned by itself to each CPU in turn, forwards and back. */
	for (int k = 0; k < 2 * r->ncpus; k++) {
		int cpu = r->cpus[k < r->ncpus ? k : 2 * r->ncpus - 1 - k];
		pin(0, cpu);
		snprintf(when, sizeof(when), "pinned to CPU %d", cpu);
		expect_on_cpu(cpu, when);
		EXPECT_OK(sched_getaffinity(0, sizeof(got), &got));
		if (CPU_COUNT(&got) != 1 || !CPU_ISSET(cpu, &got))
			fail("%s: sched_getaffinity has %d CPUs", when, CPU_COUNT(&got));
		for (int i = 0; i < 20; i++) {
			sched_yield();
			expect_on_cpu(cpu, when);
		}
	}
	/* Now moved by the main thread, as pthread_setaffinity_np does: it leaves when it next can. */
	r->tid = tid();
	atomic_store(&r->pinned_self, 1);
	long long deadline = mono_ns() + DEADLINE_NS;
	int target;
	while ((target = atomic_load(&r->target)) < 0 || sched_getcpu() != target) {
		if (mono_ns() > deadline)
			fail("pinned by another thread to CPU %d, still on CPU %d after 10 s",
			     target, sched_getcpu());
		sched_yield();
	}
	while (!atomic_load(&r->done))
		sched_yield();
	return NULL;
}

TEST(affinity_getcpu)
{
	static struct affinity_run r = { .target = -1 };
	cpu_set_t before, after, none;

	r.ncpus = allowed_cpus(r.cpus);
	if (r.ncpus < 2)
		skip("only one CPU online");
	EXPECT_OK(sched_getaffinity(0, sizeof(before), &before));
	CPU_ZERO(&none);
	EXPECT_ERR(EINVAL, sched_setaffinity(0, sizeof(none), &none));

	pthread_t t = start_thread(affinity_thread, &r);
	await_count(&r.pinned_self, 1, "threads done pinning themselves");
	int target = r.cpus[1];		/* its own last pin was to cpus[0] */
	pin(r.tid, target);
	EXPECT_OK(sched_getaffinity(r.tid, sizeof(after), &after));
	CHECK(CPU_COUNT(&after) == 1 && CPU_ISSET(target, &after));
	atomic_store(&r.target, target);
	/* The thread's affinity is its own: ours is what it was. */
	EXPECT_OK(sched_getaffinity(0, sizeof(after), &after));
	CHECK(CPU_EQUAL(&before, &after));
	atomic_store(&r.done, true);
	join_thread(t);
}

/* === TLB shootdown ========================================================= */

/*
 * A thread pinned to one CPU touches a page in a loop, so that its CPU
 * caches the translation; the main thread, pinned to another, unmaps the
 * page or takes the toucher's access away. Once that call returns, the
 * toucher's next access must fault and kill the process with SIGSEGV.
 * A CPU whose TLB was not shot down goes on with the stale entry: the
 * process lives, and the main thread sees the toucher's progress.
 */
enum tlb_change { TLB_MUNMAP, TLB_PROT_NONE, TLB_PROT_READ };

struct tlb_run {
	enum tlb_change change;
	int main_cpu, toucher_cpu;
	volatile unsigned long *page;
	atomic_ulong progress;		/* accesses done */
};

static void *
tlb_toucher(void *arg)
{
	struct tlb_run *r = arg;
	bool write = r->change == TLB_PROT_READ;
	unsigned long sink = 0;

	pin(0, r->toucher_cpu);
	for (unsigned long i = 1;; i++) {
		if (write)
			r->page[i % 512] = i;
		else
			sink += r->page[i % 512];
		atomic_store_explicit(&r->progress, i, memory_order_release);
	}
	return (void *)sink;
}

static void
tlb_child(void *arg)
{
	struct tlb_run *r = arg;
	static const char *const changes[] = { "munmap", "mprotect(PROT_NONE)", "mprotect(PROT_READ)" };
	const char *change = changes[r->change];

	pin(0, r->main_cpu);
	r->page = map_anon(PAGE, PROT_READ | PROT_WRITE);
	r->page[0] = 1;
	start_thread(tlb_toucher, r);
	await_count(&r->progress, 100000, "toucher accesses");
	if (r->change == TLB_MUNMAP)
		EXPECT_OK(munmap((void *)r->page, PAGE));
	else
		EXPECT_OK(mprotect((void *)r->page, PAGE, r->change == TLB_PROT_NONE ? PROT_NONE : PROT_READ));
	/*
	 * An access that began before the call may still be counted once;
	 * two more counts mean an access that began after the call returned.
	 */
	unsigned long seen = atomic_load_explicit(&r->progress, memory_order_acquire);
	long long deadline = mono_ns() + 5000 * MS;
	while (mono_ns() < deadline) {
		unsigned long now = atomic_load_explicit(&r->progress, memory_order_acquire);
		if (now > seen + 1)
			fail("CPU %d accessed the page %lu more times after %s on CPU %d returned "
			     "(stale TLB entry)", r->toucher_cpu, now - seen - 1, change, r->main_cpu);
	}
	fail("CPU %d was not stopped by a fault within 5 s of %s on CPU %d",
	     r->toucher_cpu, change, r->main_cpu);
}

static void
expect_tlb_fault(enum tlb_change change, const char *what)
{
	struct tlb_run r = { .change = change };

	two_cpus(&r.main_cpu, &r.toucher_cpu);
	expect_signaled(run_child(tlb_child, &r), SIGSEGV, what);
}

TEST(tlb_munmap)
{
	expect_tlb_fault(TLB_MUNMAP, "a thread reading a page that another CPU unmapped");
}

TEST(tlb_mprotect_none)
{
	expect_tlb_fault(TLB_PROT_NONE, "a thread reading a page another CPU made PROT_NONE");
}

TEST(tlb_mprotect_readonly)
{
	expect_tlb_fault(TLB_PROT_READ, "a thread writing a page another CPU made PROT_READ");
}

struct cow_run {
	int writer_cpu;
	volatile unsigned long *word;
	atomic_ulong writes;
	atomic_bool stop;
};

static void *
cow_writer(void *arg)
{
	struct cow_run *r = arg;

	pin(0, r->writer_cpu);
	for (unsigned long i = 1; !atomic_load_explicit(&r->stop, memory_order_relaxed); i++) {
		*r->word = i;
		atomic_store_explicit(&r->writes, i, memory_order_release);
	}
	return NULL;
}

/*
 * fork write-protects the parent's pages for copy-on-write while a thread
 * on another CPU writes one of them: that CPU's writable TLB entry must go
 * too, or the parent's writes land in the page the child now shares.
 */
TEST(fork_cow_threads)
{
	static struct cow_run r;
	int main_cpu;

	two_cpus(&main_cpu, &r.writer_cpu);
	pin(0, main_cpu);
	r.word = map_anon(PAGE, PROT_READ | PROT_WRITE);
	pthread_t t = start_thread(cow_writer, &r);
	await_count(&r.writes, 100000, "writes before fork");
	pid_t pid = xfork();
	if (pid == 0) {
		unsigned long first = *r.word;
		long long until = mono_ns() + 200 * MS;
		while (mono_ns() < until)
			if (*r.word != first)
				fail("the child's copy of the page changed from %lu to %lu after fork: "
				     "the parent's writer on CPU %d kept writing through a stale TLB entry",
				     first, *r.word, r.writer_cpu);
		_exit(0);
	}
	unsigned long at_fork = atomic_load(&r.writes);
	expect_exit(pid, 0, "child checking its copy-on-write page");
	await_count(&r.writes, at_fork + 1000, "parent writes after fork");
	atomic_store(&r.stop, true);
	join_thread(t);
}

int
main(int argc, char **argv)
{
	return test_run_all("pthreadtests", argc - 1, argv + 1, NULL);
}
