/*
 * thread_bench.c - thread costs: pthread_create + pthread_join of a thread
 * that does nothing, and round trips between two threads that hand a turn
 * back and forth, each pinned to a CPU: both to the first CPU ("1cpu"),
 * or to the first and the second ("2cpu"):
 *
 *	futex_pingpong_*_rtt	over a pair of futex words: each side sleeps in
 *				FUTEX_WAIT until the other flips its word and
 *				calls FUTEX_WAKE (wake-up latency; across CPUs
 *				that includes the wake-up IPI)
 *	yield_pingpong_*_rtt	each side spins, calling sched_yield, until the
 *				other's atomic counter gives it the turn: on one
 *				CPU every yield switches to the other thread (two
 *				context switches per round trip); on two, the
 *				counters' cache lines move between the CPUs
 *
 * Pinned, because where an unpinned pair lands is the scheduler's choice
 * and changes from run to run. Each figure is per round trip. The 2cpu
 * figures are left out (a "#" line says so), not printed as 0, when the
 * process may use only one CPU.
 */
#define _GNU_SOURCE
#include "lib/bench.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "uapi/futex.h" /* musl has no <linux/futex.h> */

static void
die(const char *what, int err)
{
	fprintf(stderr, "thread_bench: %s: %s\n", what, strerror(err));
	exit(1);
}

static void *
nothing(void *arg)
{
	return arg;
}

static void
create_join(void *arg)
{
	pthread_t t;
	int err;

	(void)arg;
	if ((err = pthread_create(&t, NULL, nothing, NULL)))
		die("pthread_create", err);
	if ((err = pthread_join(t, NULL)))
		die("pthread_join", err);
}

/* --- ping-pong ------------------------------------------------------------- */

/*
 * Two counters, one per direction: a side posts by incrementing its
 * counter, and waits until the other's differs from what it last saw.
 * How a side waits and posts is the only difference between the metrics.
 */
struct pingpong {
	atomic_uint ping, pong;
	void (*wait)(atomic_uint *word, unsigned seen);
	void (*post)(atomic_uint *word);
	int partner_cpu;
	atomic_bool stop;
};

static void
futex_wait_change(atomic_uint *word, unsigned seen)
{
	while (atomic_load(word) == seen)
		syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, seen, NULL, NULL, 0);
}

static void
futex_post(atomic_uint *word)
{
	atomic_fetch_add(word, 1);
	syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static void
yield_wait_change(atomic_uint *word, unsigned seen)
{
	while (atomic_load(word) == seen)
		sched_yield();
}

static void
plain_post(atomic_uint *word)
{
	atomic_fetch_add(word, 1);
}

static cpu_set_t all_cpus; /* the affinity we started with */

static void
set_affinity(const cpu_set_t *set)
{
	if (sched_setaffinity(0, sizeof(*set), set) < 0)
		die("sched_setaffinity", errno);
}

/* Restricts the calling thread to one CPU. */
static void
pin(int cpu)
{
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	set_affinity(&one);
}

static void *
partner(void *arg)
{
	struct pingpong *pp = arg;
	unsigned seen = 0;

	pin(pp->partner_cpu);
	for (;;) {
		pp->wait(&pp->ping, seen);
		seen = atomic_load(&pp->ping);
		if (atomic_load(&pp->stop))
			return NULL;
		pp->post(&pp->pong);
	}
}

static void
round_trip(void *arg)
{
	struct pingpong *pp = arg;
	unsigned seen = atomic_load(&pp->pong);

	pp->post(&pp->ping);
	pp->wait(&pp->pong, seen);
}

static const struct pingpong_kind {
	const char *metric;
	void (*wait)(atomic_uint *, unsigned);
	void (*post)(atomic_uint *);
	bool two_cpus;
} pingpongs[] = {
	{ "futex_pingpong_1cpu_rtt", futex_wait_change, futex_post, false },
	{ "futex_pingpong_2cpu_rtt", futex_wait_change, futex_post, true },
	{ "yield_pingpong_1cpu_rtt", yield_wait_change, plain_post, false },
	{ "yield_pingpong_2cpu_rtt", yield_wait_change, plain_post, true },
};

static void
report_pingpong(const struct pingpong_kind *k, int main_cpu, int partner_cpu)
{
	struct pingpong pp = { 0, 0, k->wait, k->post, partner_cpu, false };
	pthread_t t;
	int err;

	pin(main_cpu);
	if ((err = pthread_create(&t, NULL, partner, &pp)))
		die("pthread_create", err);
	bench_report(k->metric, bench_measure(round_trip, &pp), "us");
	atomic_store(&pp.stop, true);
	pp.post(&pp.ping);
	pthread_join(t, NULL);
	set_affinity(&all_cpus);
}

static const struct bench_help help = {
	.name = "thread",
	.about = "pthread_create + join of an empty thread, and futex and sched_yield ping-pongs\n"
		 "between two threads on one CPU and on two, per round trip.",
	.synopsis = "",
	.options = "",
};

int
main(int argc, char **argv)
{
	int cpus[2], n = 0;

	bench_init(argc, argv, &help);
	if (sched_getaffinity(0, sizeof(all_cpus), &all_cpus) < 0)
		die("sched_getaffinity", errno);
	for (int c = 0; c < CPU_SETSIZE && n < 2; c++)
		if (CPU_ISSET(c, &all_cpus))
			cpus[n++] = c;

	bench_report("thread_create_join", bench_measure(create_join, NULL), "us");
	for (size_t i = 0; i < sizeof(pingpongs) / sizeof(pingpongs[0]); i++) {
		if (pingpongs[i].two_cpus && n < 2) {
			printf("# %s: skipped, only one CPU\n", pingpongs[i].metric);
			continue;
		}
		report_pingpong(&pingpongs[i], cpus[0], cpus[pingpongs[i].two_cpus]);
	}
	return 0;
}
