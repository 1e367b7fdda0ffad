/*
 * torture.c - usertests: many processes and CPUs at once, checked by what
 * must hold whatever the interleaving, never by time. A storm of forks,
 * execs, thread exits and orphans, every status accounted for; and a page
 * remapped under a reader on another CPU, which must never see a page
 * whose unmapping has returned (a TLB entry left behind by the shootdown).
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- a fork/exec/exit storm ---------------------------------------------------------- */

enum { WAVES = 6, PER_WAVE = 24, KINDS = 5 };

static void *
exit_group_from_thread(void *code)
{
	exit((int)(long)code); /* the whole process, from a thread that is not its leader */
}

static void *
exec_from_thread(void *code)
{
	char arg[16];
	char *argv[] = { self_path, "--helper", "exit", arg, NULL };

	snprintf(arg, sizeof(arg), "%d", (int)(long)code);
	execv(self_path, argv);
	_exit(99);
}

/* Child number i of a wave: one of the ways a process ends, with exit code code. */
static void __attribute__((noreturn)) storm_child(int i, int code)
{
	pthread_t t;
	char arg[16];
	char *argv[] = { self_path, "--helper", "exit", arg, NULL };

	switch (i % KINDS) {
	case 0:
		_exit(code);
	case 1: /* a new program, which exits */
		snprintf(arg, sizeof(arg), "%d", code);
		execv(self_path, argv);
		_exit(99);
	case 2: /* a thread ends the process while the leader blocks */
		if (pthread_create(&t, NULL, exit_group_from_thread, (void *)(long)code))
			_exit(98);
		pause();
		_exit(97);
	case 3: /* a thread execs: the others go first (de_thread) */
		if (pthread_create(&t, NULL, exec_from_thread, (void *)(long)code))
			_exit(98);
		pause();
		_exit(97);
	default: /* leaves an orphan behind, which init reaps */
		if (fork() == 0)
			_exit(0);
		_exit(code);
	}
}

TEST(fork_exec_exit_storm)
{
	pid_t pids[PER_WAVE];

	for (int wave = 0; wave < WAVES; wave++) {
		for (int i = 0; i < PER_WAVE; i++) {
			pids[i] = xfork();
			if (pids[i] == 0)
				storm_child(i, 1 + (wave * PER_WAVE + i) % 200);
		}
		for (int i = 0; i < PER_WAVE; i++) {
			char what[64];
			snprintf(what, sizeof(what), "storm child %d (kind %d) of wave %d", i,
				 i % KINDS, wave);
			expect_exit(pids[i], 1 + (wave * PER_WAVE + i) % 200, what);
		}
	}
	CHECK_ERR(ECHILD, wait(NULL)); /* the orphans went to init, not here */
}

/* ---- TLB shootdown: a page remapped under a reader on another CPU ----------------- */

enum { TLB_PAGES = 8, TLB_ROUNDS = 3000 };

struct remap_race {
	volatile unsigned *page; /* the address remapped again and again */
	atomic_uint published;	 /* round r's mapping is in place once this is r */
	atomic_bool stop;
	bool failed;
	unsigned bad_round, bad_value; /* what the reader saw, if it failed */
};

static void
pin_to_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	(void)sched_setaffinity(0, sizeof(set), &set); /* one CPU: the test still holds */
}

/*
 * Between two readings of published that agree (round r), the page read
 * is round r's file page or, if the writer is already replacing it,
 * round r + 1's: never an earlier one, whose mapping was gone before r
 * was published.
 */
static void *
remap_reader(void *arg)
{
	struct remap_race *race = arg;

	pin_to_cpu(1);
	while (!atomic_load(&race->stop)) {
		unsigned r = atomic_load_explicit(&race->published, memory_order_acquire);
		unsigned v = *race->page;
		atomic_thread_fence(memory_order_acquire);
		if (atomic_load(&race->published) != r)
			continue;
		if (v != r % TLB_PAGES && v != (r + 1) % TLB_PAGES) {
			race->bad_round = r;
			race->bad_value = v;
			race->failed = true;
			atomic_store(&race->stop, true);
		}
	}
	return NULL;
}

TEST(tlb_shootdown_remap_race)
{
	static struct remap_race race;
	unsigned words[PAGE / sizeof(unsigned)];
	int fd = CHECK_OK(open("pages", O_RDWR | O_CREAT | O_TRUNC, 0644));
	pthread_t reader;

	/* File page k holds k in every word. */
	for (unsigned k = 0; k < TLB_PAGES; k++) {
		for (size_t w = 0; w < PAGE / sizeof(unsigned); w++)
			words[w] = k;
		CHECK_EQ(write(fd, words, PAGE), PAGE);
	}
	race.page = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, 0);
	CHECK(race.page != MAP_FAILED);
	atomic_store(&race.published, 0);
	atomic_store(&race.stop, false);
	pin_to_cpu(0);
	CHECK_EQ(pthread_create(&reader, NULL, remap_reader, &race), 0);
	for (unsigned r = 1; r <= TLB_ROUNDS && !atomic_load(&race.stop); r++) {
		void *p = mmap((void *)race.page, PAGE, PROT_READ, MAP_SHARED | MAP_FIXED, fd,
			       (off_t)(r % TLB_PAGES) * PAGE);
		CHECK_EQ(p, (void *)race.page);
		atomic_store_explicit(&race.published, r, memory_order_release);
	}
	atomic_store(&race.stop, true);
	CHECK_EQ(pthread_join(reader, NULL), 0);
	if (race.failed)
		fail("round %u published, the reader still saw file page %u", race.bad_round,
		     race.bad_value);
}
