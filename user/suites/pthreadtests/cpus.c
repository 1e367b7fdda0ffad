/*
 * cpus.c - pthreadtests: CPU affinity, set by a thread for itself and by
 * another thread, as sched_getcpu and getcpu see it.
 */
#define _GNU_SOURCE
#include "pthreadtests.h"

#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

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
	atomic_ulong pinned_self; /* 1 once the thread is done pinning itself */
	atomic_int target;	  /* the CPU the main thread moved us to; -1 before */
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
		CHECK_OK(sched_getaffinity(0, sizeof(got), &got));
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
	CHECK_OK(sched_getaffinity(0, sizeof(before), &before));
	CPU_ZERO(&none);
	CHECK_ERR(EINVAL, sched_setaffinity(0, sizeof(none), &none));

	pthread_t t = start_thread(affinity_thread, &r);
	await_count(&r.pinned_self, 1, "threads done pinning themselves");
	int target = r.cpus[1]; /* its own last pin was to cpus[0] */
	pin(r.tid, target);
	CHECK_OK(sched_getaffinity(r.tid, sizeof(after), &after));
	CHECK(CPU_COUNT(&after) == 1 && CPU_ISSET(target, &after));
	atomic_store(&r.target, target);
	/* The thread's affinity is its own: ours is what it was. */
	CHECK_OK(sched_getaffinity(0, sizeof(after), &after));
	CHECK(CPU_EQUAL(&before, &after));
	atomic_store(&r.done, true);
	join_thread(t);
}
