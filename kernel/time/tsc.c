/*
 * tsc.c - TSC calibration, cycle/ns conversion, the TSC clocksource and
 * its checks (rate against a second counter, warps between CPUs); see tsc.h.
 */
#include "kernel/time/tsc.h"
#include "kernel/time/clocksource.h"
#include "kernel/time/tsc_sync.h"
#include "kernel/x86/paravirt.h"
#include "kernel/x86/percpu.h"
#include "kernel/printk.h"
#include "kernel/lib/string.h"
#include "kernel/vdso/vvar.h"
#include "kernel/x86/x86.h"
#include "drivers/pit.h"

u64 tsc_hz;
u64 tsc_at_boot;
const char *tsc_source = "uncalibrated";
/*
 * Fixed-point rates with 48 fraction bits: a timer armed for INT_MAX seconds
 * (alarm) goes ns -> cycles -> ns and must come back to the same second;
 * 24 bits lost 41 of them. The products fit the 128-bit multiply.
 */
#define RATE_SHIFT 48
static u64 ns_mult;	/* ns = cycles * ns_mult >> RATE_SHIFT */
static u64 cycles_mult; /* cycles = ns * cycles_mult >> RATE_SHIFT */

static u64
tsc_hz_from_cpuid(void)
{
	u32 max_basic = cpuid(0, 0).eax;

	if (max_basic >= 0x15) {
		struct cpuid_regs r = cpuid(0x15, 0);
		u64 crystal = r.ecx;
		if (!crystal && max_basic >= 0x16 && r.eax)
			crystal = (u64)cpuid(0x16, 0).eax * 1000000 * r.eax / r.ebx;
		if (crystal && r.eax && r.ebx) {
			tsc_source = "cpuid 0x15";
			return crystal * r.ebx / r.eax;
		}
	}
	if (cpuid(1, 0).ecx & (1u << 31)) { /* running under a hypervisor */
		u32 max_hv = cpuid(0x40000000, 0).eax;
		if (max_hv >= 0x40000010 && max_hv < 0x40010000) {
			u32 khz = cpuid(0x40000010, 0).eax;
			if (khz) {
				tsc_source = "hypervisor cpuid 0x40000010";
				return (u64)khz * 1000;
			}
		}
	}
	return 0;
}

/* Best of three 10 ms PIT windows: a preempted window only ever looks longer. */
static u64
tsc_hz_from_pit(void)
{
	u64 best = ~0ull;

	for (int i = 0; i < 3; i++) {
		u64 t0, t1;
		pit_oneshot_start(10000);
		t0 = rdtsc();
		pit_oneshot_wait();
		t1 = rdtsc();
		if (t1 - t0 < best)
			best = t1 - t0;
	}
	tsc_source = "PIT";
	return best * 100;
}

/*
 * num * 2^RATE_SHIFT / den, rounded down, in two long-division steps of
 * half the shift each (no 128-bit division in the kernel); num and den are
 * rates below 2^40 Hz.
 */
static u64
scaled_ratio(u64 num, u64 den)
{
	const unsigned half = RATE_SHIFT / 2;
	u64 high = (num << half) / den, rest = (num << half) % den;

	return (high << half) + (rest << half) / den;
}

static void
set_rate(u64 hz)
{
	ns_mult = scaled_ratio(1000000000, hz);
	cycles_mult = scaled_ratio(hz, 1000000000);
	WRITE_ONCE(tsc_hz, hz);
}

void
tsc_calibrate(void)
{
	u64 hz = tsc_hz_from_cpuid();

	set_rate(hz ? hz : tsc_hz_from_pit());
}

u64
tsc_cycles_to_ns(u64 cycles)
{
	return (u64)(((unsigned __int128)cycles * ns_mult) >> RATE_SHIFT);
}

u64
tsc_ns_to_cycles(u64 ns)
{
	return (u64)(((unsigned __int128)ns * cycles_mult) >> RATE_SHIFT);
}

/* Behind pv_ops.time.sched_clock in a PARAVIRT=y kernel (kernel/x86/paravirt.h). */
u64
native_sched_clock(void)
{
	if (!READ_ONCE(tsc_hz))
		return 0;
	return tsc_cycles_to_ns(rdtsc() - tsc_at_boot);
}

u64
ns_since_boot(void)
{
	return sched_clock();
}

void
tsc_delay_us(u64 us)
{
	u64 end = rdtsc() + us * tsc_hz / 1000000;

	while ((s64)(rdtsc() - end) < 0)
		cpu_relax();
}

/* ---- the TSC as a clocksource ------------------------------------------------------ */

#define REFINE_US	     25000 /* long enough that a read's uncertainty is ~40 ppm */
#define MAX_DISAGREEMENT_PPM 10000

static u64
tsc_read(void)
{
	return rdtsc();
}

static struct clocksource tsc_cs = {
	.name = "tsc",
	.read = tsc_read,
	.mask = ~0ull,
	.rating = RATING_TSC,
	.vclock_mode = VCLOCK_TSC,
};

/* rdtsc is not ordered with loads: fence it when it must follow one (the warp check). */
static u64
rdtsc_after_loads(void)
{
	__asm__ __volatile__("mfence; lfence" ::: "memory");
	return rdtsc();
}

/*
 * Changes the rate, keeping ns_since_boot() continuous: tsc_at_boot moves
 * so that the nanoseconds so far stay what they were. Boot CPU only,
 * before the other CPUs or the timer run.
 */
static void
tsc_set_hz(u64 hz)
{
	u64 now = rdtsc(), ns = ns_since_boot();

	set_rate(hz);
	tsc_at_boot = now - tsc_ns_to_cycles(ns);
}

struct tsc_sample {
	u64 tsc, ref;
};

/* A reference reading and the TSC at that moment: of 20 tries, the one bracketed tightest. */
static struct tsc_sample
sample(const struct clocksource *ref)
{
	struct tsc_sample best = { 0, 0 };
	u64 best_width = ~0ull;

	for (int i = 0; i < 20; i++) {
		u64 before = rdtsc(), r = ref->read(), after = rdtsc();
		if (after - before < best_width) {
			best_width = after - before;
			best = (struct tsc_sample){ before + (after - before) / 2, r };
		}
	}
	return best;
}

/* The TSC rate measured over REFINE_US of the reference's time. */
static u64
measure_hz(const struct clocksource *ref)
{
	u64 want = ref->hz * REFINE_US / 1000000;
	struct tsc_sample a = sample(ref), b;

	while (((ref->read() - a.ref) & ref->mask) < want)
		cpu_relax();
	b = sample(ref);
	u64 ref_cycles = (b.ref - a.ref) & ref->mask;
	/* Tens of ms at GHz rates times a reference below 1 GHz: far from 2^64. */
	return (b.tsc - a.tsc) * ref->hz / ref_cycles;
}

static u64
ppm_apart(u64 a, u64 b)
{
	return (a > b ? a - b : b - a) * 1000000 / b;
}

void
tsc_clocksource_init(void)
{
	struct clocksource *ref = clocksource_find("hpet");
	u64 measured = 0;

	if (!ref)
		ref = clocksource_find("acpi_pm");
	if (ref) {
		measured = measure_hz(ref);
		pr_info("tsc: %lu.%03lu MHz against %s, %lu ppm from the %s rate\n",
			measured / 1000000, measured / 1000 % 1000, ref->name,
			ppm_apart(measured, tsc_hz), tsc_source);
		/*
		 * The PIT windows are gate-polled, unbracketed: a host that
		 * deschedules the vCPU during all three skews them (a loaded host
		 * gave 4840 MHz for 2600, and every clock ran at half speed). The
		 * bracketed measurement against the reference wins. A rate CPUID
		 * states is the TSC's own: a reference that disagrees with it
		 * means the TSC does not run at its rate.
		 */
		if (strcmp(tsc_source, "PIT") == 0) {
			if (ppm_apart(measured, tsc_hz) > MAX_DISAGREEMENT_PPM)
				pr_warn("tsc: the PIT calibration was disturbed (%lu ppm off); using the %s rate\n",
					ppm_apart(measured, tsc_hz), ref->name);
			tsc_set_hz(measured);
			tsc_source = ref->name;
		}
	}
	tsc_cs.hz = tsc_hz;
	clocksource_register(&tsc_cs);
	if (measured && ppm_apart(measured, tsc_hz) > MAX_DISAGREEMENT_PPM)
		clocksource_mark_unstable(&tsc_cs, "its rate disagrees with the reference");
}

void
tsc_sync_target(void)
{
	struct tsc_sync s;

	tsc_sync_begin(&s, this_cpu()->id, false, rdtsc_after_loads);
	tsc_sync_run(&s);
}

void
tsc_sync_source(unsigned cpu)
{
	struct tsc_sync s;

	tsc_sync_begin(&s, cpu, true, rdtsc_after_loads);
	tsc_sync_run(&s);
	u64 warp = tsc_sync_worst_warp();
	if (!warp)
		return;
	pr_warn("tsc: CPU %u and CPU 0 are out of step: a TSC went back %lu cycles\n", cpu, warp);
	if (!tsc_cs.unstable)
		clocksource_mark_unstable(&tsc_cs, "TSC warp between CPUs");
}
