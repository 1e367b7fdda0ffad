/*
 * tick.c - the timer tick, its machine-wide duty, and stopping it on an
 * idle CPU (Linux's NO_HZ_IDLE); see tick.h.
 *
 * Each CPU's tick comes hz times a second (drivers/lapic.c programs it):
 * the running task's CPU time, time slice and interval timers, the RT
 * period, the sleepers and kernel timers that are due. Once per jiffy one
 * CPU also does the machine-wide duty: jiffies, the clocks
 * (timekeeping_tick), the CPU-time timers and the load average. jiffies
 * count periods of the TSC, not ticks, so the duty is whichever CPU's
 * first tick after a jiffy ends (a trylock: another CPU at it means it is
 * done), and a CPU back from a tickless stretch catches up every jiffy it
 * missed at once.
 *
 * NO_HZ_IDLE (`nohz`, default on): an idle CPU's ticks only count idle
 * time, yet under a hypervisor each is a VM exit and a host thread woken,
 * 1000 a second per vCPU: what an idle guest costs its host. So when the
 * idle loop finds nothing to run, the tick stops: the timer is programmed
 * for the next thing this CPU must handle, the earliest of its timed
 * sleepers and the kernel timers armed on it (sched_next_event), and at
 * the latest for the keep-alive, the longest the clocks may go unread
 * (timekeeping_max_idle_ns: the duty must read a 24-bit PM timer every
 * 2 s). A timer interrupt while stopped runs what is due and the duty, not
 * a tick. The tick restarts when the idle loop leaves for a task (a
 * wake-up IPI, or an interrupt or timer that woke one), settling what the
 * stopped ticks would have done: the stretch since the last tick is idle
 * time (cputime_tickless_end), the RT period moves on by it (sched_tick),
 * the duty catches up. An idle CPU used to pull waiting tasks at its tick;
 * now a busy CPU whose tick finds tasks waiting in its queue sends one
 * tickless CPU a reschedule IPI, and its idle loop pulls (Linux's idle
 * load-balance kick). The tick does not stop with highres=0 (a periodic
 * timer), while the profiler's NMIs own the timer, or before this CPU's
 * tick has taken up a new profiler rate (the profiler wakes tickless CPUs
 * for that).
 */
#include "kernel/time/tick.h"
#include "drivers/lapic.h"
#include "kernel/knobs.h"
#include "kernel/profile.h"
#include "kernel/sched/loadavg.h"
#include "kernel/sched/sched.h"
#include "kernel/time/cputime.h"
#include "kernel/time/posix_timer.h"
#include "kernel/time/timekeeping.h"
#include "kernel/time/tsc.h"
#include "kernel/x86/percpu.h"
#include "kernel/x86/smp.h"
#include "locking/spinlock.h"

enum { NOHZ_ON, NOHZ_OFF };
/* Switched off, a CPU already tickless would idle on without a tick: it is woken to restart it. */
KNOB_ENUM_NOTIFY(nohz, "nohz", NOHZ_ON, true, tick_nohz_wake_all,
		 "an idle CPU stops its tick until its next sleeper's or timer's deadline "
		 "(Linux's NO_HZ_IDLE); off: every CPU ticks at hz, idle or not",
		 "on", "off");

u64 jiffies;
static struct spinlock duty_lock = SPINLOCK_INIT("tick_duty");
static u64 next_jiffy_tsc; /* when jiffies next advance; 0 before the first tick */
static u64 tickless_cpus;  /* the CPUs idle with their tick stopped */

static u64
tick_period(void)
{
	return tsc_hz / (u64)READ_ONCE(hz);
}

/* The machine-wide part of the tick, by the first CPU to see a jiffy's end; interrupts off. */
static void
do_duty(u64 now)
{
	if (now < READ_ONCE(next_jiffy_tsc) || !spin_trylock(&duty_lock))
		return;
	u64 next = next_jiffy_tsc;
	if (!next) {
		WRITE_ONCE(next_jiffy_tsc, now + tick_period());
	} else if (now >= next) {
		u64 passed = (now - next) / tick_period() + 1;
		WRITE_ONCE(jiffies, jiffies + passed);
		WRITE_ONCE(next_jiffy_tsc, next + passed * tick_period());
		timekeeping_tick();
		posix_cpu_timers_tick();
		loadavg_tick();
	}
	spin_unlock(&duty_lock);
}

void
tick_handle(struct cpu *c, const struct trap_frame *f, u64 now)
{
	c->ticks++;
	do_duty(now);
	cputime_tick(f);
	profile_tick();
	sched_tick(1000000 / (u64)READ_ONCE(hz));
}

void
tick_nohz_event(struct cpu *c, u64 now)
{
	do_duty(now);
	if (now >= c->next_tick_tsc)
		c->next_tick_tsc = now + tsc_ns_to_cycles(timekeeping_max_idle_ns());
}

void
tick_nohz_idle_enter(void)
{
	struct cpu *c = this_cpu();

	if (c->tick_stopped || READ_ONCE(nohz) != NOHZ_ON || !lapic_timer_one_shot() ||
	    profile_tick_wanted())
		return;
	u64 now = rdtsc(), last_tick = c->next_tick_tsc - tick_period();
	c->tick_stopped = true;
	__atomic_fetch_or(&tickless_cpus, 1ul << c->id, __ATOMIC_RELAXED);
	cputime_tickless_begin(MIN(last_tick, now));
	lapic_timer_next_tick(now + tsc_ns_to_cycles(timekeeping_max_idle_ns()));
}

void
tick_nohz_idle_exit(void)
{
	struct cpu *c = this_cpu();

	if (!c->tick_stopped)
		return;
	u64 now = rdtsc();
	c->tick_stopped = false;
	__atomic_fetch_and(&tickless_cpus, ~(1ul << c->id), __ATOMIC_RELAXED);
	u64 stretch = cputime_tickless_end(now);
	do_duty(now);
	sched_tick(tsc_cycles_to_ns(stretch) / 1000);
	lapic_timer_next_tick(now + tick_period());
}

void
tick_nohz_wake_all(void)
{
	u64 idle = READ_ONCE(tickless_cpus);

	for (unsigned cpu = 0; idle; cpu++, idle >>= 1)
		if (idle & 1)
			smp_send_reschedule(cpu);
}

void
tick_nohz_kick_idle(void)
{
	u64 idle = READ_ONCE(tickless_cpus) & ~(1ul << this_cpu()->id);

	if (idle)
		smp_send_reschedule((unsigned)__builtin_ctzl(idle));
}
