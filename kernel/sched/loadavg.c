/*
 * loadavg.c - sampling the number of active tasks for the load average;
 * the arithmetic is loadavg.h's calc_load.
 *
 * Active means runnable (running or queued). Linux also counts tasks in
 * uninterruptible sleep (waiting for a disk); every sleep in rewind can be
 * interrupted and no file system waits for a device, so there are none.
 * The sample is taken from the run queues without their locks, as Linux
 * folds per-CPU counts without locks: a task that moves between queues
 * meanwhile may be counted twice or not at all, which one sample every
 * five seconds does not notice.
 */
#include "kernel/sched/loadavg.h"
#include "kernel/sched/sched.h"
#include "kernel/time/timekeeping.h"
#include "kernel/time/tsc.h"

/* 5 s and a little, as Linux's 5*HZ+1, so that it does not beat with tasks that wake every 5 s. */
#define LOAD_FREQ_NS (5000000000ul + 1000000ul)

static u64 avenrun[3];
static u64 next_sample_ns;

void
loadavg_tick(void)
{
	static const u64 exps[3] = { EXP_1, EXP_5, EXP_15 };
	u64 now = ns_since_boot();

	if (now < next_sample_ns)
		return;
	u64 missed = next_sample_ns ? (now - next_sample_ns) / LOAD_FREQ_NS : 0;
	next_sample_ns = now + LOAD_FREQ_NS;
	u64 active = (u64)sched_nr_running() * FIXED_1;
	for (int i = 0; i < 3; i++) {
		u64 avg = READ_ONCE(avenrun[i]);
		/* Each idle sample lowers a nonzero average: after a few thousand it is 0. */
		for (u64 n = 0; n < missed && avg; n++)
			avg = calc_load(avg, exps[i], 0);
		WRITE_ONCE(avenrun[i], calc_load(avg, exps[i], active));
	}
}

void
loadavg_get(u64 avg[3])
{
	for (int i = 0; i < 3; i++)
		avg[i] = READ_ONCE(avenrun[i]);
}
