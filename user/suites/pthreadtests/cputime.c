/*
 * cputime.c - pthreadtests: CPU time of threads: a thread's own clock read
 * from another, the process's total, and what a parent's wait4 counts.
 */
#define _GNU_SOURCE
#include "pthreadtests.h"

#include <errno.h>
#include <stdbool.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define BURN_MS 100
#define BURNERS 2

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
	atomic_ulong burned; /* threads done burning */
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
	CHECK_EQ(pthread_getcpuclockid(t[0], &clock), 0);
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
	CHECK_OK(getrusage(RUSAGE_SELF, &ru));
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
	CHECK_EQ(wait4(pid, &status, 0, &ru), pid);
	expect_exited(status, 0, "a child with CPU-burning threads");
	if (rusage_ns(&ru) < BURNERS * BURN_MS * MS)
		fail("wait4's rusage gives %lld us for a child whose %d threads burned %d ms each",
		     rusage_ns(&ru) / 1000, BURNERS, BURN_MS);
	CHECK_OK(getrusage(RUSAGE_CHILDREN, &ru));
	if (rusage_ns(&ru) < BURNERS * BURN_MS * MS)
		fail("getrusage(RUSAGE_CHILDREN) gives %lld us for a child whose %d threads burned %d ms each",
		     rusage_ns(&ru) / 1000, BURNERS, BURN_MS);
}
