/*
 * helpers.c - the helpers the files of pthreadtests share (see
 * pthreadtests.h).
 */
#define _GNU_SOURCE
#include "pthreadtests.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

pthread_t
start_thread(void *(*fn)(void *), void *arg)
{
	pthread_t t;
	int err = pthread_create(&t, NULL, fn, arg);

	if (err)
		fail("pthread_create failed with %s", errname(err));
	return t;
}

void *
join_thread(pthread_t t)
{
	void *ret;
	int err = pthread_join(t, &ret);

	if (err)
		fail("pthread_join failed with %s", errname(err));
	return ret;
}

pid_t
tid(void)
{
	return syscall(SYS_gettid);
}

void
sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * MS };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

void
gate_wait(struct gate *g)
{
	long long deadline = mono_ns() + DEADLINE_NS;

	atomic_fetch_add(&g->arrived, 1);
	while (atomic_load(&g->arrived) < g->expected) {
		if (mono_ns() > deadline)
			fail("only %d of %d threads started within 10 s", atomic_load(&g->arrived),
			     g->expected);
		sched_yield();
	}
}

void
await_count(atomic_ulong *word, unsigned long value, const char *what)
{
	long long deadline = mono_ns() + DEADLINE_NS;

	while (atomic_load(word) < value) {
		if (mono_ns() > deadline)
			fail("%s: %lu of %lu within 10 s", what, atomic_load(word), value);
		sched_yield();
	}
}

int
allowed_cpus(int cpus[MAX_CPUS])
{
	cpu_set_t set;
	int n = 0;

	CHECK_OK(sched_getaffinity(0, sizeof(set), &set));
	for (int c = 0; c < MAX_CPUS; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	return n;
}

void
two_cpus(int *a, int *b)
{
	int cpus[MAX_CPUS];

	if (allowed_cpus(cpus) < 2)
		skip("only one CPU online");
	*a = cpus[0];
	*b = cpus[1];
}

void
pin(pid_t thread, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(thread, sizeof(set), &set) < 0)
		fail("sched_setaffinity(%d, {%d}) failed with %s", thread, cpu, errname(errno));
}

int
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
