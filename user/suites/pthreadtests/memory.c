/*
 * memory.c - pthreadtests: memory shared by threads: page faults taken at
 * once on several CPUs, mmap and munmap in several threads, and a thread
 * that runs off its stack.
 */
#include "pthreadtests.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>

#define FAULT_THREADS 4
#define FAULT_PAGES   512

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
			       { 0, FAULT_THREADS },
			       0 };
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

#define CHURN_ROUNDS 200

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

static volatile int recurse_limit = 1 << 20; /* pages: far past any thread stack */

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
