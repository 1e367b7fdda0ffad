/*
 * rwsem_host.h - a fake scheduler for the host tests of locking/ (rwsem,
 * osq, mutex): several tasks, each on a CPU of its own, of which exactly
 * one runs at a time, so that every interleaving is decided here,
 * deterministically, and a missed wake-up shows as a deadlock report
 * instead of a hang.
 *
 * Each fake task is a host thread with its own struct cpu (GS base, as
 * fs_host.h does for one task) and struct task; a baton says which one
 * runs. The baton moves, round-robin among the runnable tasks, only where
 * the kernel code would let another CPU make progress:
 *
 *  - schedule(): a sleeping task gives up its CPU until wake_up_task()
 *    made it runnable and the baton comes back; a runnable one yields;
 *  - cpu_relax(): a spinning task lets the others run (this header's
 *    includer defines cpu_relax() as fake_relax() before it includes the
 *    code under test), and every `fake_tick` relaxes the tick sets this
 *    CPU's need_resched, as the timer ends a slice;
 *  - the clock (ns_since_boot) moves 1 us per relax and 100 us per
 *    schedule(), so time-based rules (5.3's hand-off) come into play.
 *
 * A task is on_cpu unless it sleeps in schedule(): every task has a CPU
 * of its own. When no task can run and some have not finished, the run
 * stops and reports a deadlock.
 */
#ifndef REWIND_RWSEM_HOST_H
#define REWIND_RWSEM_HOST_H

#include <asm/prctl.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "kernel/lib/types.h"
#include "kernel/process/task.h"
#include "kernel/x86/percpu.h"
#include "kernel/x86/x86.h"
#include "tests/unit/unit.h"

#define FAKE_TASKS 8

struct fake_task {
	struct cpu cpu;
	struct task task;
	pthread_t thread;
	void (*fn)(int id);
	bool done;
};

static struct fake_task fake_tasks[FAKE_TASKS];
static int fake_ntasks;
static int fake_turn = -1; /* the task that runs; -1: the test itself */
static bool fake_abandon;  /* a deadlock: the stuck threads leave */
static pthread_mutex_t fake_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t fake_cv = PTHREAD_COND_INITIALIZER;
static u64 fake_clock_ns;
static unsigned fake_tick = 64; /* relaxes per tick; 0: no tick */
static unsigned fake_relaxes;

static inline int
fake_me(void)
{
	return (int)this_cpu()->id;
}

/* The next runnable task after `from`, round-robin; `from` itself last; -1 if none. */
static int
fake_next(int from)
{
	for (int i = 1; i <= fake_ntasks; i++) {
		int t = (from + i) % fake_ntasks;
		if (!fake_tasks[t].done && fake_tasks[t].task.state == TASK_RUNNABLE)
			return t;
	}
	return -1;
}

/* Passes the baton on (fake_lock held) and waits until it comes back. */
static void
fake_pass_and_wait(int me)
{
	fake_turn = fake_next(me);
	pthread_cond_broadcast(&fake_cv);
	while (fake_turn != me) {
		if (fake_abandon) {
			pthread_mutex_unlock(&fake_lock);
			pthread_exit(NULL);
		}
		pthread_cond_wait(&fake_cv, &fake_lock);
	}
}

static inline void
fake_relax(void)
{
	int me = fake_me();

	fake_clock_ns += 1000;
	if (fake_tick && ++fake_relaxes % fake_tick == 0)
		this_cpu()->need_resched = true;
	pthread_mutex_lock(&fake_lock);
	fake_pass_and_wait(me);
	pthread_mutex_unlock(&fake_lock);
}

void
schedule(void)
{
	int me = fake_me();
	struct task *t = &fake_tasks[me].task;

	fake_clock_ns += 100000;
	this_cpu()->need_resched = false;
	pthread_mutex_lock(&fake_lock);
	if (t->state == TASK_SLEEPING)
		t->on_cpu = false;
	fake_pass_and_wait(me);
	t->on_cpu = true;
	pthread_mutex_unlock(&fake_lock);
}

void
set_current_sleeping(void)
{
	WRITE_ONCE(current()->state, TASK_SLEEPING);
}

void
wake_up_task(struct task *t)
{
	if (t->state == TASK_SLEEPING)
		t->state = TASK_RUNNABLE;
}

u64
ns_since_boot(void)
{
	return fake_clock_ns;
}

u64
tsc_cycles_to_ns(u64 cycles)
{
	return cycles;
}

static void *
fake_thread(void *arg)
{
	struct fake_task *ft = arg;
	int me = (int)(ft - fake_tasks);

	if (syscall(SYS_arch_prctl, ARCH_SET_GS, &ft->cpu) != 0)
		abort();
	pthread_mutex_lock(&fake_lock);
	while (fake_turn != me) {
		if (fake_abandon) {
			pthread_mutex_unlock(&fake_lock);
			return NULL;
		}
		pthread_cond_wait(&fake_cv, &fake_lock);
	}
	pthread_mutex_unlock(&fake_lock);
	ft->fn(me);
	pthread_mutex_lock(&fake_lock);
	ft->done = true;
	ft->task.on_cpu = false;
	fake_turn = fake_next(me);
	pthread_cond_broadcast(&fake_cv);
	pthread_mutex_unlock(&fake_lock);
	return NULL;
}

/*
 * Runs fns[0..n-1], one task each, task 0 first; returns true if all
 * finished, false on a deadlock (reported).
 */
static bool
fake_run(void (*const *fns)(int), int n)
{
	bool all = true;

	memset(fake_tasks, 0, sizeof(fake_tasks));
	fake_ntasks = n;
	fake_abandon = false;
	fake_relaxes = 0;
	for (int i = 0; i < n; i++) {
		struct fake_task *ft = &fake_tasks[i];
		ft->cpu.self = &ft->cpu;
		ft->cpu.id = (u32)i;
		ft->cpu.current = &ft->task;
		ft->task.state = TASK_RUNNABLE;
		ft->task.on_cpu = true;
		ft->task.pid = i + 1;
		ft->fn = fns[i];
	}
	pthread_mutex_lock(&fake_lock);
	fake_turn = -1;
	for (int i = 0; i < n; i++)
		pthread_create(&fake_tasks[i].thread, NULL, fake_thread, &fake_tasks[i]);
	fake_turn = 0;
	pthread_cond_broadcast(&fake_cv);
	while (fake_turn != -1)
		pthread_cond_wait(&fake_cv, &fake_lock);
	for (int i = 0; i < n; i++)
		if (!fake_tasks[i].done) {
			printf("    deadlock: task %d never finished (state %d)\n", i,
			       fake_tasks[i].task.state);
			all = false;
		}
	fake_abandon = true;
	pthread_cond_broadcast(&fake_cv);
	pthread_mutex_unlock(&fake_lock);
	for (int i = 0; i < n; i++)
		pthread_join(fake_tasks[i].thread, NULL);
	return all;
}

/* Yields n times: lets the other tasks run up to their next wait. */
static inline void
fake_yield(int n)
{
	while (n-- > 0)
		schedule();
}

#endif
