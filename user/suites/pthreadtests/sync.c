/*
 * sync.c - pthreadtests: mutual exclusion (mutexes, a process-shared one,
 * a spinlock on C11 atomics), condition variables and barriers, each
 * judged by threads that would lose updates or see a wrong order.
 */
#include "pthreadtests.h"

#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct lock_ops {
	void (*lock)(void *);
	void (*unlock)(void *);
};

struct counter_run {
	const struct lock_ops *ops;
	void *lock;
	struct gate gate;
	long iterations;
	long value; /* not atomic on purpose: only the lock protects it */
};

#define COUNTER_THREADS 8
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
		fail("counter is %ld after %d threads x %ld increments: %ld updates lost", r->value,
		     r->gate.expected, r->iterations, want - r->value);
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
	CHECK_EQ(pthread_mutexattr_init(&attr), 0);
	CHECK_EQ(pthread_mutexattr_setpshared(&attr, PTHREAD_PROCESS_SHARED), 0);
	CHECK_EQ(pthread_mutex_init(&s->m, &attr), 0);
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

#define QUEUE_SIZE 4 /* small, so that producers wait too */
#define PRODUCERS  3
#define CONSUMERS  3
#define ITEMS	   2000 /* per producer */

struct queue {
	pthread_mutex_t lock;
	pthread_cond_t not_empty, not_full;
	int items[QUEUE_SIZE];
	int head, count;
	bool done; /* no more items will come */
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
	CHECK_EQ(q.consumed, PRODUCERS * ITEMS);
	CHECK_EQ(q.count, 0);
}

#define BARRIER_THREADS 6
#define ROUNDS		100

struct barrier_run {
	pthread_barrier_t barrier;
	atomic_int slot[BARRIER_THREADS];
	atomic_int next_index;
	atomic_int serial; /* PTHREAD_BARRIER_SERIAL_THREAD returns */
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

	CHECK_EQ(pthread_barrier_init(&r.barrier, NULL, BARRIER_THREADS), 0);
	for (int i = 0; i < BARRIER_THREADS; i++)
		t[i] = start_thread(barrier_thread, &r);
	for (int i = 0; i < BARRIER_THREADS; i++)
		join_thread(t[i]);
	if (r.serial != 2 * ROUNDS)
		fail("%d waits returned PTHREAD_BARRIER_SERIAL_THREAD over %d barrier cycles, want one each",
		     r.serial, 2 * ROUNDS);
	CHECK_EQ(pthread_barrier_destroy(&r.barrier), 0);
}
