/*
 * acpi_pm.c - the ACPI PM timer clocksource; see acpi_pm.h.
 *
 * One port read per sample. Linux reads the port three times only on
 * chipsets on its list of broken ones (PIIX4 errata: a read can catch the
 * counter mid-carry); rewind knows no such chipset (QEMU's PIIX4 and ICH9
 * models latch correctly), so it checks the counter once at boot instead:
 * it must run at about the right rate against the TSC.
 */
#include "drivers/acpi_pm.h"
#include "drivers/acpi.h"
#include "kernel/time/clocksource.h"
#include "kernel/x86/paravirt.h"
#include "kernel/printk.h"
#include "kernel/time/tsc.h"
#include "kernel/vdso/vvar.h"
#include "kernel/x86/x86.h"

#define PM_TIMER_HZ 3579545ull

static u16 port;

static u64
acpi_pm_read(void)
{
	return inl(port);
}

static struct clocksource acpi_pm_cs = {
	.name = "acpi_pm",
	.read = acpi_pm_read,
	.rating = RATING_ACPI_PM,
	.hz = PM_TIMER_HZ,
	.vclock_mode = VCLOCK_NONE, /* port I/O: user mode cannot read it */
};

/* Its rate in Hz, measured against the TSC over about 1 ms; 0 if it is stuck. */
static u64
measured_hz(void)
{
	u64 c0 = acpi_pm_read(), t0 = rdtsc();

	tsc_delay_us(1000);
	u64 c1 = acpi_pm_read(), t1 = rdtsc();
	return ((c1 - c0) & acpi_pm_cs.mask) * NSEC_PER_SEC / tsc_cycles_to_ns(t1 - t0);
}

/*
 * Within 10 % of 3.579545 MHz (the TSC rate may still be the PIT's rough
 * one). Three tries: a host that preempts the vCPU between a counter read
 * and its TSC read spoils one measurement, rarely three.
 */
static bool
rate_plausible(u64 *hz)
{
	for (int i = 0; i < 3; i++) {
		*hz = measured_hz();
		if (*hz > PM_TIMER_HZ * 9 / 10 && *hz < PM_TIMER_HZ * 11 / 10)
			return true;
	}
	return false;
}

bool
acpi_pm_init(void)
{
	u64 hz;

	if (!acpi.pm_timer_port)
		return false;
	port = (u16)acpi.pm_timer_port;
	acpi_pm_cs.mask = acpi.pm_timer_32bit ? 0xffffffffull : 0xffffffull;
	if (!rate_plausible(&hz)) {
		pr_warn("acpi_pm: timer at port %#x runs at %lu Hz, not 3579545; not used\n", port,
			hz);
		return false;
	}
	clocksource_register(&acpi_pm_cs);
	return true;
}
