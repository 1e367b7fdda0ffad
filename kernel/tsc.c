/*
 * tsc.c - TSC calibration and cycle/ns conversion; see tsc.h.
 */
#include "kernel/tsc.h"
#include "kernel/paravirt.h"
#include "kernel/x86.h"
#include "drivers/pit.h"

u64 tsc_hz;
u64 tsc_at_boot;
const char *tsc_source = "uncalibrated";
static u64 ns_mult;		/* ns = cycles * ns_mult >> 32 */
static u64 cycles_mult;		/* cycles = ns * cycles_mult >> 24 */

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
	if (cpuid(1, 0).ecx & (1u << 31)) {	/* running under a hypervisor */
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

void
tsc_calibrate(void)
{
	u64 hz = tsc_hz_from_cpuid();

	if (!hz)
		hz = tsc_hz_from_pit();
	ns_mult = (u64)(((unsigned __int128)1000000000 << 32) / hz);
	cycles_mult = (hz << 24) / 1000000000;
	WRITE_ONCE(tsc_hz, hz);
}

u64
tsc_cycles_to_ns(u64 cycles)
{
	return (u64)(((unsigned __int128)cycles * ns_mult) >> 32);
}

u64
tsc_ns_to_cycles(u64 ns)
{
	return (u64)(((unsigned __int128)ns * cycles_mult) >> 24);
}

u64
ns_since_boot(void)
{
	if (!READ_ONCE(tsc_hz))
		return 0;
	return tsc_cycles_to_ns(rdtsc() - tsc_at_boot);
}

void
tsc_delay_us(u64 us)
{
	u64 end = rdtsc() + us * tsc_hz / 1000000;

	while ((s64)(rdtsc() - end) < 0)
		cpu_relax();
}
