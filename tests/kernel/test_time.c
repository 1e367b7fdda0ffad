/*
 * test_time.c - self-tests of the time sources and clocks: the TSC only
 * moves forward, the LAPIC timer ticks at the rate `hz` asks for, every
 * clocksource found keeps pace with the TSC, CLOCK_REALTIME started at the
 * RTC's time, MONOTONIC never runs backwards on any CPU nor across a
 * clocksource switch, the vvar page holds what the clocks say, each CPU
 * can be told apart from user mode (lsl, TSC_AUX), tick-sampled CPU
 * time counts, and the BIOS's PIT tick is stopped.
 *
 * Every check holds on a host as loaded as it may be: the vCPU can be
 * descheduled for many milliseconds between any two instructions, and
 * timer ticks lost meanwhile are not made up. So no check bounds the time
 * between two readings; two clocks are compared from readings bracketed by
 * a third (a preemption then widens the bracket, not the error), tick
 * charges are compared with the ticks that were counted, and the deadlines
 * of waiting loops are hang guards only, seconds long.
 */
#include "kernel/time/clocksource.h"
#include "kernel/time/cputime.h"
#include "kernel/time/ntp.h"
#include "kernel/knobs.h"
#include "kernel/ktest.h"
#include "kernel/x86/paravirt.h"
#include "kernel/x86/percpu.h"
#include "kernel/sched/sched.h"
#include "kernel/lib/string.h"
#include "kernel/time/timekeeping.h"
#include "kernel/time/tsc.h"
#include "kernel/vdso/vvar.h"
#include "kernel/x86/x86.h"
#include "drivers/lapic.h"
#include "kernel/time/tick.h"
#include "drivers/rtc.h"
#include "uapi/time.h"

#define HANG_GUARD_S 20 /* a waiting loop gives up after this many seconds: never a verdict */

/* A hang guard's TSC deadline. */
static u64
hang_guard(void)
{
	return rdtsc() + HANG_GUARD_S * tsc_hz;
}

KTEST(tsc_is_monotonic)
{
	u64 prev = rdtsc(), backwards = 0;

	for (int i = 0; i < 100000; i++) {
		u64 now = rdtsc();
		if (now < prev)
			backwards++;
		prev = now;
	}
	CHECK_EQ(backwards, 0);
	CHECK(tsc_hz > 100000000ul); /* slower than 100 MHz: calibration broke */
	CHECK(ns_since_boot() > 0);
}

KTEST(timer_ticks_advance_at_hz)
{
	const u64 want = 50;
	u64 start_jiffies = READ_ONCE(jiffies), start_cpu_ticks = this_cpu()->ticks;
	u64 t0 = rdtsc(), deadline = hang_guard();

	CHECK(irqs_enabled());
	/*
	 * jiffies count periods of time (kernel/time/tick.c), this CPU's ticks
	 * the interrupts it took: a loaded host may lose some of those.
	 */
	while ((READ_ONCE(jiffies) - start_jiffies < want ||
		this_cpu()->ticks - start_cpu_ticks < want) &&
	       rdtsc() < deadline)
		safe_halt();
	u64 ticks = READ_ONCE(jiffies) - start_jiffies;
	u64 us = tsc_cycles_to_ns(rdtsc() - t0) / 1000;

	CHECK(ticks >= want);
	CHECK(this_cpu()->ticks - start_cpu_ticks >= want);
	/*
	 * 50 ticks take 50 ms at hz=1000. A loaded host loses ticks (a period
	 * that expires while one is pending merges with it), so they may come
	 * slower, never faster: a timer programmed too fast still shows.
	 */
	u64 expect_us = want * 1000000 / (u64)hz;
	CHECK(us >= expect_us / 2);
	pr_info("ktest:     %lu ticks in %lu us (expected %lu us)\n", ticks, us, expect_us);
}

/* ---- clocksources and clocks ------------------------------------------------------- */

static const char *const source_names[] = { "tsc", "hpet", "acpi_pm", "kvm-clock" };

/*
 * A reading of cs with the TSC just before and after it: of 50 tries, the
 * one whose TSC bracket is narrowest (a preemption inside one only makes
 * that try lose). *width is its bracket in TSC cycles.
 */
static u64
bracketed_read(const struct clocksource *cs, u64 *tsc_mid, u64 *width)
{
	u64 best = 0;

	*width = ~0ull;
	*tsc_mid = 0;
	for (int i = 0; i < 50; i++) {
		u64 before = rdtsc(), c = cs->read(), after = rdtsc();
		if (after - before < *width) {
			*width = after - before;
			*tsc_mid = before + *width / 2;
			best = c;
		}
	}
	return best;
}

/*
 * How far apart, in parts per 10^4, cs and the TSC measure 20 ms, not
 * counting what the brackets of the two readings leave uncertain.
 */
static u64
pace_apart(const struct clocksource *cs)
{
	u64 t0, t1, w0, w1;
	u64 c0 = bracketed_read(cs, &t0, &w0);
	tsc_delay_us(20000);
	u64 c1 = bracketed_read(cs, &t1, &w1);
	u64 ns = clocksource_cyc2ns(clocksource_delta(c1, c0, cs->mask), cs->mult, cs->shift);
	u64 tsc_ns = tsc_cycles_to_ns(t1 - t0), slack = tsc_cycles_to_ns(w0 + w1);
	u64 apart = ns > tsc_ns ? ns - tsc_ns : tsc_ns - ns;

	/* The clocksource's own resolution (the ACPI PM timer: 279 ns) is slack too. */
	slack += clocksource_cyc2ns(2, cs->mult, cs->shift);
	return (apart > slack ? apart - slack : 0) * 10000 / tsc_ns;
}

KTEST(every_clocksource_keeps_pace_with_the_tsc)
{
	int found = 0;

	for (size_t i = 0; i < ARRAY_SIZE(source_names); i++) {
		struct clocksource *cs = clocksource_find(source_names[i]);
		if (!cs)
			continue;
		found++;
		u64 apart = pace_apart(cs);
		CHECK(apart <= 200); /* 2 % */
		pr_info("ktest:     %s keeps pace with the TSC within %lu.%02lu %%\n", cs->name,
			apart / 100, apart % 100);
	}
	CHECK(found >= 1);
	CHECK(clocksource_find(timekeeping_clocksource_name()) != NULL);
}

/*
 * The read-back command latches channel 0's status byte (bits 3-1: its
 * mode); the BIOS leaves it in mode 2 or 3, which reload for ever, and the
 * boot puts it in mode 0, which counts down once.
 */
KTEST(pit_channel0_counts_once_not_periodically)
{
	outb(0x43, 0xe2); /* read-back: status only, channel 0 */
	u8 status = inb(0x40);

	CHECK_EQ((status >> 1) & 7, 0);
}

KTEST(realtime_started_at_the_rtc)
{
	struct rtc_time t;

	u64 real0 = timekeeping_read_ns(VVAR_CLOCK_REALTIME) / NSEC_PER_SEC;
	CHECK(rtc_read(&t));
	u64 rtc = rtc_time_to_unix(&t),
	    real1 = timekeeping_read_ns(VVAR_CLOCK_REALTIME) / NSEC_PER_SEC;
	/* Whole seconds on both sides: the RTC's reading falls within the bracket, give or take one. */
	CHECK(real0 <= rtc + 2 && rtc <= real1 + 2);
	CHECK(rtc > 1500000000); /* after 2017: the date came through */
}

KTEST(clocks_agree_with_each_other)
{
	/* Each comparison reads one clock between two readings of the other. */
	u64 boot0 = ns_since_boot();
	u64 mono = timekeeping_read_ns(VVAR_CLOCK_MONOTONIC);
	u64 boot1 = ns_since_boot();

	/*
	 * MONOTONIC started at ns_since_boot(); apart only by the two rates'
	 * rounding and calibration, a difference that grows with uptime (a
	 * loaded host makes the boot, and so the uptime, longer): 5 ms plus 1 %
	 * of the time since boot, the pace test's tolerance halved.
	 */
	u64 slack = 5000000 + boot1 / 100;
	CHECK(mono + slack > boot0 && mono < boot1 + slack);
	/* COARSE is MONOTONIC at the last tick: behind it, and moved on by the next tick. */
	u64 coarse = timekeeping_read_ns(VVAR_CLOCK_MONOTONIC_COARSE);
	CHECK(coarse <= timekeeping_read_ns(VVAR_CLOCK_MONOTONIC));
	u64 j0 = READ_ONCE(jiffies), deadline = hang_guard();
	while (READ_ONCE(jiffies) < j0 + 2 && rdtsc() < deadline)
		cpu_relax();
	CHECK(timekeeping_read_ns(VVAR_CLOCK_MONOTONIC_COARSE) > coarse);
	CHECK(timekeeping_read_ns(VVAR_CLOCK_MONOTONIC_RAW) >= mono);
	CHECK(timekeeping_read_ns(VVAR_CLOCK_BOOTTIME) >= mono);
	/* CLOCK_TAI: REALTIME plus the TAI offset adjtimex keeps (kernel/time/ntp.c). */
	u64 real0 = timekeeping_read_ns(VVAR_CLOCK_REALTIME);
	u64 tai = timekeeping_read_ns(CLOCK_TAI) - (u64)ntp_tai_offset() * NSEC_PER_SEC;
	CHECK(tai >= real0 && tai < real0 + 1000000);
	s64 offset = timekeeping_realtime_offset_ns();
	u64 mono2 = timekeeping_read_ns(VVAR_CLOCK_MONOTONIC);
	u64 real = timekeeping_read_ns(VVAR_CLOCK_REALTIME) - (u64)offset;
	u64 mono3 = timekeeping_read_ns(VVAR_CLOCK_MONOTONIC);
	CHECK(real + 1000000 > mono2 && real < mono3 + 1000000); /* REALTIME = MONOTONIC + offset */
}

KTEST(setting_realtime_moves_only_realtime)
{
	u64 real = timekeeping_read_ns(VVAR_CLOCK_REALTIME);
	u64 mono = timekeeping_read_ns(VVAR_CLOCK_MONOTONIC);
	const u64 target = 2000000000ull * NSEC_PER_SEC; /* 2033 */

	u64 mono0 = timekeeping_read_ns(VVAR_CLOCK_MONOTONIC);
	timekeeping_set_realtime(target);
	u64 got = timekeeping_read_ns(VVAR_CLOCK_REALTIME);
	u64 mono1 = timekeeping_read_ns(VVAR_CLOCK_MONOTONIC);
	CHECK(got >= target && got - target <= mono1 - mono0 + 1000000); /* what time passed */
	CHECK(timekeeping_read_ns(VVAR_CLOCK_MONOTONIC) >= mono);
	CHECK(timekeeping_realtime_offset_ns() > (s64)(target - mono - 1000000000));
	/* put it back, with the time that passed */
	timekeeping_set_realtime(real + (timekeeping_read_ns(VVAR_CLOCK_MONOTONIC) - mono));
	CHECK(timekeeping_read_ns(VVAR_CLOCK_REALTIME) < target);
}

/* ---- MONOTONIC on every CPU ---------------------------------------------------------- */

struct mono_race {
	u64 latest; /* the largest reading any CPU published */
	u64 backwards;
	int running;
};

static void
read_monotonic_racing(void *arg)
{
	struct mono_race *r = arg;

	for (int i = 0; i < 20000; i++) {
		u64 seen = __atomic_load_n(&r->latest, __ATOMIC_ACQUIRE);
		u64 now = timekeeping_read_ns(VVAR_CLOCK_MONOTONIC);
		if (now < seen)
			__atomic_fetch_add(&r->backwards, 1, __ATOMIC_RELAXED);
		while (seen < now &&
		       !__atomic_compare_exchange_n(&r->latest, &seen, now, false, __ATOMIC_RELEASE,
						    __ATOMIC_ACQUIRE))
			;
	}
	__atomic_fetch_sub(&r->running, 1, __ATOMIC_RELEASE);
}

KTEST(monotonic_never_goes_backwards_across_cpus)
{
	static struct mono_race r;

	r = (struct mono_race){ 0, 0, (int)ncpus };
	for (unsigned i = 0; i < ncpus; i++)
		if (!kthread_start_on("monorace", read_monotonic_racing, &r, 1ul << i))
			__atomic_fetch_sub(&r.running, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&r.running, __ATOMIC_ACQUIRE))
		schedule();
	CHECK_EQ(r.backwards, 0);
	pr_info("ktest:     %u CPUs, 20000 readings each, on %s\n", ncpus,
		timekeeping_clocksource_name());
}

/* ---- switching clocksource at run time ------------------------------------------------ */

static bool
set_knob(const char *name, const char *value)
{
	return knob_set(knob_find(name), value) == 0;
}

/* Reads MONOTONIC until the clocksource is `name` and a few ticks passed; counts steps back. */
static u64
watch_switch(const char *name, u64 *backwards)
{
	u64 prev = timekeeping_read_ns(VVAR_CLOCK_MONOTONIC), j0 = READ_ONCE(jiffies);
	u64 deadline = hang_guard();

	while (rdtsc() < deadline &&
	       (strcmp(timekeeping_clocksource_name(), name) != 0 || READ_ONCE(jiffies) < j0 + 5)) {
		u64 now = timekeeping_read_ns(VVAR_CLOCK_MONOTONIC);
		if (now < prev)
			(*backwards)++;
		prev = now;
	}
	return prev;
}

KTEST(switching_clocksource_keeps_monotonic_time_monotonic)
{
	const char *original = timekeeping_clocksource_name(); /* a name never changes */
	u64 backwards = 0;
	int switched = 0;

	for (size_t i = 0; i < ARRAY_SIZE(source_names); i++) {
		if (!clocksource_find(source_names[i]))
			continue;
		CHECK(set_knob("clocksource", source_names[i]));
		watch_switch(source_names[i], &backwards);
		CHECK(strcmp(timekeeping_clocksource_name(), source_names[i]) == 0);
		CHECK_EQ(READ_ONCE(vvar->vclock_mode),
			 clocksource_find(source_names[i])->vclock_mode);
		switched++;
	}
	CHECK(set_knob("clocksource", original));
	watch_switch(original, &backwards);
	CHECK(strcmp(timekeeping_clocksource_name(), original) == 0);
	CHECK_EQ(backwards, 0);
	pr_info("ktest:     %d clocksources switched through, back on %s\n", switched, original);
}

KTEST(an_absent_clocksource_is_refused)
{
	const char *absent = NULL;

	for (size_t i = 0; i < ARRAY_SIZE(source_names) && !absent; i++)
		if (!clocksource_find(source_names[i]))
			absent = source_names[i];
	if (!absent) {
		pr_info("ktest:     every clocksource is present: nothing to refuse\n");
		return;
	}
	const struct knob *k = knob_find("clocksource");
	const char *before = timekeeping_clocksource_name();
	char value[32];
	u64 deadline = hang_guard();

	CHECK(set_knob("clocksource", absent));
	do /* the next tick refuses it */
		knob_format_current(k, value, sizeof(value));
	while (strcmp(value, absent) == 0 && rdtsc() < deadline);
	CHECK(strcmp(value, before) == 0); /* the knob went back */
	CHECK(strcmp(timekeeping_clocksource_name(), before) == 0);
}

/* ---- what user mode reads ---------------------------------------------------------------- */

KTEST(vvar_page_holds_the_clocks)
{
	const struct vvar_data *v = vvar;
	u32 seq = READ_ONCE(v->seq);

	CHECK(seq % 2 == 0 && seq > 0);
	CHECK(v->mult != 0);
	CHECK_EQ(v->hres_res_ns, 1);
	CHECK_EQ(v->coarse_res_ns, timekeeping_tick_ns());
	CHECK_EQ(v->getcpu_mode, cpu_vgetcpu_mode());
	u64 mono, base;
	do { /* as a reader in user mode: no tick between the two readings */
		seq = READ_ONCE(v->seq);
		barrier();
		base = v->base[VVAR_CLOCK_MONOTONIC].sec * NSEC_PER_SEC +
		       (v->base[VVAR_CLOCK_MONOTONIC].snsec >> v->shift);
		mono = timekeeping_read_ns(VVAR_CLOCK_MONOTONIC);
		barrier();
	} while ((seq & 1) || READ_ONCE(v->seq) != seq);
	CHECK(base <= mono);
	/* The base is the last tick's: the next tick publishes a later one. */
	u64 deadline = hang_guard();
	while (READ_ONCE(v->seq) == seq && rdtsc() < deadline)
		cpu_relax();
	CHECK(READ_ONCE(v->seq) != seq);
	u64 next_base;
	do {
		seq = READ_ONCE(v->seq);
		barrier();
		next_base = v->base[VVAR_CLOCK_MONOTONIC].sec * NSEC_PER_SEC +
			    (v->base[VVAR_CLOCK_MONOTONIC].snsec >> v->shift);
		barrier();
	} while ((seq & 1) || READ_ONCE(v->seq) != seq);
	CHECK(next_base > base);
	u64 coarse = v->base[VVAR_CLOCK_REALTIME_COARSE].sec * NSEC_PER_SEC +
		     v->base[VVAR_CLOCK_REALTIME_COARSE].snsec;
	CHECK(coarse / NSEC_PER_SEC + 1 >= timekeeping_read_ns(VVAR_CLOCK_REALTIME) / NSEC_PER_SEC);
}

#define MSR_TSC_AUX 0xc0000103 /* as kernel/x86/cpu.c programs it */

struct cpu_number {
	u32 lsl[MAX_CPUS], tsc_aux[MAX_CPUS];
	int running;
};

static void
record_cpu_number(void *arg)
{
	struct cpu_number *n = arg;
	unsigned id = this_cpu()->id;
	u32 limit;

	__asm__ __volatile__("lsl %1, %0" : "=r"(limit) : "r"((u32)VGETCPU_SELECTOR) : "cc");
	n->lsl[id] = limit;
	if (cpu_vgetcpu_mode() != VGETCPU_LSL)
		n->tsc_aux[id] = (u32)rdmsr(MSR_TSC_AUX);
	__atomic_fetch_sub(&n->running, 1, __ATOMIC_RELEASE);
}

KTEST(every_cpu_publishes_its_number_for_user_mode)
{
	static struct cpu_number n;

	memset(&n, 0xff, sizeof(n));
	n.running = (int)ncpus;
	for (unsigned i = 0; i < ncpus; i++)
		if (!kthread_start_on("cpunumber", record_cpu_number, &n, 1ul << i))
			__atomic_fetch_sub(&n.running, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&n.running, __ATOMIC_ACQUIRE))
		schedule();
	for (unsigned i = 0; i < ncpus; i++) {
		CHECK_EQ(n.lsl[i], i);
		if (cpu_vgetcpu_mode() != VGETCPU_LSL)
			CHECK_EQ(n.tsc_aux[i], i);
	}
}

/* ---- tick-sampled CPU time ------------------------------------------------------------------ */

KTEST(tick_accounting_charges_whole_ticks)
{
	struct task *t = current();
	struct cpu *cpu = this_cpu();
	u64 tick = tsc_ns_to_cycles(1000000000 / (u64)READ_ONCE(hz)), deadline = hang_guard();

	/*
	 * Each tick this CPU takes while it runs this test in the kernel charges
	 * the test one whole tick of system time, whatever the wall-clock time
	 * between ticks (a loaded host loses some): the two counts must agree.
	 * They are read together with interrupts off; the kernel is not
	 * preemptible, so no other task takes one of these ticks.
	 */
	u64 flags = local_irq_save();
	u64 ticks0 = cpu->ticks, tick_sys = t->time.tick_sys, exact_sys = t->time.sys;
	local_irq_restore(flags);
	CHECK(set_knob("cputime", "tick"));
	while (READ_ONCE(cpu->ticks) - ticks0 < 30 && rdtsc() < deadline)
		cpu_relax(); /* in the kernel, interrupts on */
	flags = local_irq_save();
	u64 ticks = cpu->ticks - ticks0, charged = t->time.tick_sys - tick_sys;
	struct cputime c = cputime_read(t);
	local_irq_restore(flags);
	CHECK(set_knob("cputime", "tsc"));
	CHECK(ticks >= 30);
	CHECK_EQ(charged, ticks * tick); /* whole ticks, one per tick taken */
	CHECK_EQ(c.sys, c.tick_sys);	 /* what the knob selected */
	CHECK_EQ(c.user, c.tick_user);
	CHECK(cputime_read(t).sys >= exact_sys); /* and back to exact */
	pr_info("ktest:     %lu ticks taken, %lu charged\n", ticks, charged / tick);
}
