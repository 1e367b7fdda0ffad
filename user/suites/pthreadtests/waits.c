/*
 * waits.c - pthreadtests: waits with a time limit (pthread_mutex_timedlock,
 * pthread_cond_timedwait on both clocks), and the raw futex calls beneath
 * them that musl does not make for us.
 */
#define _GNU_SOURCE
#include "pthreadtests.h"

#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "uapi/futex.h" /* musl has no <linux/futex.h> */

#define TIMEOUT_MS 200

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
	CHECK_EQ(pthread_mutex_timedlock(&r.m, &past), ETIMEDOUT);
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
		const char *what = clocks[i] == CLOCK_REALTIME
					   ? "pthread_cond_timedwait (CLOCK_REALTIME)"
					   : "pthread_cond_timedwait (CLOCK_MONOTONIC)";

		/* Error-checking, so that unlock proves the wait gave the mutex back to us. */
		pthread_mutexattr_init(&ma);
		pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_ERRORCHECK);
		CHECK_EQ(pthread_mutex_init(&r.m, &ma), 0);
		pthread_condattr_init(&ca);
		CHECK_EQ(pthread_condattr_setclock(&ca, clocks[i]), 0);
		CHECK_EQ(pthread_cond_init(&r.c, &ca), 0);

		pthread_mutex_lock(&r.m);
		long long start = mono_ns();
		struct timespec until = deadline_in(clocks[i], TIMEOUT_MS);
		int err = pthread_cond_timedwait(&r.c, &r.m, &until);
		expect_timed_out(err, mono_ns() - start, TIMEOUT_MS, what);
		CHECK_EQ(pthread_mutex_unlock(&r.m), 0);

		pthread_mutex_lock(&r.m);
		pthread_t t = start_thread(signal_after_50ms, &r);
		until = deadline_in(clocks[i], DEADLINE_NS / MS);
		err = 0;
		while (!r.ready && !err)
			err = pthread_cond_timedwait(&r.c, &r.m, &until);
		if (err)
			fail("%s signalled after 50 ms returned %s", what, errname(err));
		CHECK_EQ(pthread_mutex_unlock(&r.m), 0);
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

	CHECK_ERR(EAGAIN, futex(&w.word, FUTEX_WAIT_PRIVATE, 1, NULL, NULL, 0));
	CHECK_ERR(ETIMEDOUT, futex(&w.word, FUTEX_WAIT_PRIVATE, 0, &rel, NULL, 0));
	if (mono_ns() - start < TIMEOUT_MS * MS)
		fail("FUTEX_WAIT with a %d ms timeout returned after %lld us", TIMEOUT_MS,
		     (mono_ns() - start) / 1000);
	/* WAIT_BITSET's timeout is an absolute CLOCK_MONOTONIC time. */
	struct timespec until = deadline_in(CLOCK_MONOTONIC, TIMEOUT_MS);
	long long until_ns = until.tv_sec * 1000000000LL + until.tv_nsec;
	CHECK_ERR(ETIMEDOUT, futex(&w.word, FUTEX_WAIT_BITSET_PRIVATE, 0, &until, NULL,
				   FUTEX_BITSET_MATCH_ANY));
	if (mono_ns() < until_ns)
		fail("FUTEX_WAIT_BITSET returned %lld us before its deadline",
		     (until_ns - mono_ns()) / 1000);
	CHECK_EQ(futex(&w.word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0), 0);

	for (int i = 0; i < N; i++)
		t[i] = start_thread(futex_waiter, &w);
	/* One at a time until each has been woken: a waiter not asleep yet is not counted. */
	long long deadline = mono_ns() + DEADLINE_NS;
	while (woken < N && mono_ns() < deadline) {
		long n = CHECK_OK(futex(&w.word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0));
		if (n > 1)
			fail("FUTEX_WAKE of 1 returned %ld", n);
		woken += n;
		sched_yield();
	}
	if (woken != N)
		fail("FUTEX_WAKE woke %ld of %d waiters in 10 s", woken, N);
	for (int i = 0; i < N; i++)
		join_thread(t[i]);
	CHECK_EQ(w.returned, N);
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
	CHECK_ERR(EAGAIN, futex(&r.from.word, FUTEX_CMP_REQUEUE_PRIVATE, 0,
				(const struct timespec *)(uintptr_t)INT_MAX, &r.to, 1));
	long long deadline = mono_ns() + DEADLINE_NS;
	while (moved < N && mono_ns() < deadline) {
		/* Wake none, move all: the timeout argument is the requeue count here. */
		moved += CHECK_OK(futex(&r.from.word, FUTEX_CMP_REQUEUE_PRIVATE, 0,
					(const struct timespec *)(uintptr_t)INT_MAX, &r.to, 0));
		sched_yield();
	}
	if (moved != N)
		fail("FUTEX_CMP_REQUEUE moved %ld of %d waiters in 10 s", moved, N);
	CHECK_EQ(r.from.returned, 0);
	/* They sleep on the second word now: a wake on the first finds nobody. */
	CHECK_EQ(futex(&r.from.word, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0), 0);
	CHECK_EQ(futex(&r.to, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0), N);
	for (int i = 0; i < N; i++)
		join_thread(t[i]);
	CHECK_EQ(r.from.returned, N);
}
