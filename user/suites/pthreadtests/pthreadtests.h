/*
 * pthreadtests.h - what the files of pthreadtests share: the time limits,
 * and helpers that start and join threads, line them up, pin them to CPUs,
 * and run what a test judges in a child process of its own.
 */
#ifndef PTHREADTESTS_H
#define PTHREADTESTS_H

#include <pthread.h>
#include <stdatomic.h>
#include <sys/types.h>

#include "lib/testing.h"

#define PAGE	    4096
#define MS	    1000000LL	 /* ns */
#define DEADLINE_NS (10000 * MS) /* what only a hang exceeds, even under TCG */
#define MAX_CPUS    64

/* pthread_create and pthread_join, failing the test if they fail. */
pthread_t start_thread(void *(*fn)(void *), void *arg);
void *join_thread(pthread_t t);
/* The calling thread's id (gettid). */
pid_t tid(void);
/* Sleeps ms milliseconds (nanosleep resumed after any interruption). */
void sleep_ms(long ms);

/*
 * Holds each thread until all of them have arrived, so that they run their
 * loops at the same time instead of one after another as they are created.
 */
struct gate {
	atomic_int arrived;
	int expected;
};

void gate_wait(struct gate *g);
/* Waits until *word >= value; what it waits for is named in the failure. */
void await_count(atomic_ulong *word, unsigned long value, const char *what);

/* The CPUs this process may run on, in order; how many there are. */
int allowed_cpus(int cpus[MAX_CPUS]);
/* The first two allowed CPUs (0 and 1 on rewind), or skips the test. */
void two_cpus(int *a, int *b);
/* Restricts thread (0: the caller) to one CPU. */
void pin(pid_t thread, int cpu);

/*
 * Runs fn(arg) in a forked child, which exits 0 if fn returns; the child's
 * wait status. A child still running after the deadline fails the test
 * (and is sent SIGKILL, which rewind may not deliver yet).
 */
int run_child(void (*fn)(void *), void *arg);

#endif
