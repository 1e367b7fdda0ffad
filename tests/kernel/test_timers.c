/*
 * test_timers.c - self-tests of the kernel timers' per-CPU queues
 * (kernel/time/timer.c): a timer fires on the CPU that armed it; re-armed
 * from another CPU it moves there; re-armed while its function runs it
 * stays on the CPU running it, which still fires it; and timer_cancel
 * waits for a call in progress on another CPU.
 *
 * The body runs in a kernel thread pinned to CPU 0 and arms on CPU 1
 * through an IPI call (smp_call_mask). As in test_time.c, no check bounds
 * a time: a loaded host may deschedule a vCPU for long, so the waits are
 * hang guards only, and a function that must still be running when
 * another CPU acts is held by a flag, not by a delay.
 */
#include "kernel/ktest.h"
#include "kernel/sched/sched.h"
#include "kernel/time/timer.h"
#include "kernel/time/tsc.h"
#include "kernel/x86/paravirt.h"
#include "kernel/x86/percpu.h"
#include "kernel/x86/smp.h"
#include "kernel/x86/x86.h"

#define HANG_GUARD_S 20 /* a waiting loop gives up after this many seconds: never a verdict */
#define SOON_NS	     1000000ul

struct probe {
	struct timer timer;
	u64 hold_until; /* the function spins until the TSC reads this, or it is set to 0 */
	int calls;	/* calls begun */
	int returned;	/* calls that returned */
	int fired_on;	/* the CPU of the last call */
};

static void
probe_fired(struct timer *t, u64 expiries)
{
	struct probe *p = container_of(t, struct probe, timer);

	WRITE_ONCE(p->fired_on, (int)this_cpu()->id);
	__atomic_fetch_add(&p->calls, 1, __ATOMIC_RELEASE);
	while (rdtsc() < READ_ONCE(p->hold_until))
		cpu_relax();
	__atomic_fetch_add(&p->returned, 1, __ATOMIC_RELEASE);
}

static void
arm_soon(void *arg)
{
	struct probe *p = arg;

	timer_arm(&p->timer, rdtsc() + tsc_ns_to_cycles(SOON_NS), 0);
}

static void
arm_in_an_hour(void *arg)
{
	struct probe *p = arg;

	timer_arm(&p->timer, rdtsc() + 3600 * tsc_hz, 0);
}

/* Waits (a hang guard only) until p's function has begun n calls; whether it did. */
static bool
wait_calls(struct probe *p, int n)
{
	u64 guard = rdtsc() + HANG_GUARD_S * tsc_hz;

	while (__atomic_load_n(&p->calls, __ATOMIC_ACQUIRE) < n && rdtsc() < guard)
		cpu_relax();
	return __atomic_load_n(&p->calls, __ATOMIC_ACQUIRE) >= n;
}

static void
run_on_cpu0(void *arg)
{
	static struct probe p;
	int *running = arg;

	timer_init(&p.timer, probe_fired);
	/* Armed on CPU 1, it fires there; armed here, here. */
	smp_call_mask(1ul << 1, arm_soon, &p);
	CHECK(wait_calls(&p, 1));
	CHECK_EQ(p.fired_on, 1);
	/*
	 * The call counts itself before it returns, and a timer whose function
	 * runs stays on its CPU when re-armed (checked below): wait for CPU 1's
	 * call to end, or a descheduled vCPU 1 keeps the timer there.
	 */
	timer_cancel(&p.timer);
	arm_soon(&p);
	CHECK(wait_calls(&p, 2));
	CHECK_EQ(p.fired_on, 0);

	/* Pending on CPU 1 for an hour, re-armed here for soon: it moves, and fires here. */
	smp_call_mask(1ul << 1, arm_in_an_hour, &p);
	arm_soon(&p);
	CHECK(wait_calls(&p, 3));
	CHECK_EQ(p.fired_on, 0);

	/* Re-armed here while CPU 1 runs its function: it stays on CPU 1, which fires it again. */
	WRITE_ONCE(p.hold_until, ~0ul);
	smp_call_mask(1ul << 1, arm_soon, &p);
	CHECK(wait_calls(&p, 4));
	arm_soon(&p);
	WRITE_ONCE(p.hold_until, 0);
	CHECK(wait_calls(&p, 5));
	CHECK_EQ(p.fired_on, 1);

	/* A call in progress on CPU 1 ends before timer_cancel returns. */
	WRITE_ONCE(p.hold_until, rdtsc() + tsc_hz / 50);
	smp_call_mask(1ul << 1, arm_soon, &p);
	CHECK(wait_calls(&p, 6));
	timer_cancel(&p.timer);
	CHECK_EQ(__atomic_load_n(&p.returned, __ATOMIC_ACQUIRE), 6);
	__atomic_store_n(running, 0, __ATOMIC_RELEASE);
}

KTEST(timers_fire_on_the_cpu_that_armed_them)
{
	static int running;

	if (ncpus < 2) {
		pr_info("ktest:     one CPU: no other queue to arm on\n");
		return;
	}
	running = 1;
	if (!kthread_start_on("timerprobe", run_on_cpu0, &running, 1ul << 0)) {
		CHECK(!"a kernel thread for CPU 0");
		return;
	}
	while (__atomic_load_n(&running, __ATOMIC_ACQUIRE))
		schedule();
}
