/*
 * hpet.c - the HPET main counter as a clocksource; see hpet.h.
 *
 * Registers (HPET specification 1.0a): general capabilities at 0x000 (the
 * counter period in femtoseconds in bits 63:32, 64-bit counter in bit 13),
 * general configuration at 0x010 (bit 0 starts the main counter), main
 * counter at 0x0f0. Only its low 32 bits are read, as the vDSO reads them
 * (kernel/vdso/vvar.h): a 64-bit read is two bus cycles on some chipsets, and at
 * 100 MHz 32 bits wrap every 43 s, far longer than a tick.
 */
#include "drivers/hpet.h"
#include "drivers/acpi.h"
#include "kernel/time/clocksource.h"
#include "kernel/printk.h"
#include "kernel/time/tsc.h"
#include "kernel/vdso/vvar.h"
#include "mm/layout.h"
#include "mm/vmap.h"

#define HPET_CAPABILITIES  0x000
#define HPET_CONFIG	   0x010
#define HPET_CONFIG_ENABLE (1ull << 0)
#define HPET_COUNTER	   VVAR_HPET_COUNTER
#define HPET_CAP_64BIT	   (1ull << 13)
#define HPET_MAX_PERIOD_FS 100000000ull /* 10 MHz at least, says the specification */
#define FS_PER_SEC	   1000000000000000ull

static volatile u8 *regs;

static u64
reg_read(unsigned off)
{
	return *(volatile u64 *)(regs + off);
}

static void
reg_write(unsigned off, u64 v)
{
	*(volatile u64 *)(regs + off) = v;
}

static u64
hpet_read(void)
{
	return *(volatile u32 *)(regs + HPET_COUNTER);
}

static struct clocksource hpet_cs = {
	.name = "hpet",
	.read = hpet_read,
	.mask = 0xffffffffull,
	.rating = RATING_HPET,
	.vclock_mode = VCLOCK_NONE, /* VCLOCK_HPET once its page can be shared */
};

/* Whether the counter moves within 1 ms: a stopped or absent HPET reads constant. */
static bool
counter_runs(void)
{
	u64 first = hpet_read();

	tsc_delay_us(1000);
	return hpet_read() != first;
}

bool
hpet_init(void)
{
	if (!acpi.hpet_address)
		return false;
	phys_addr_t page = ALIGN_DOWN(acpi.hpet_address, PAGE_SIZE);
	u8 *map = ioremap(page, PAGE_SIZE, IOMAP_UNCACHED);
	if (!map) {
		pr_warn("hpet: cannot map %#lx\n", acpi.hpet_address);
		return false;
	}
	regs = map + (acpi.hpet_address - page);
	u64 cap = reg_read(HPET_CAPABILITIES);
	u64 period_fs = cap >> 32;
	if (!period_fs || period_fs > HPET_MAX_PERIOD_FS) {
		pr_warn("hpet: implausible counter period %lu fs; not used\n", period_fs);
		return false;
	}
	reg_write(HPET_CONFIG, reg_read(HPET_CONFIG) | HPET_CONFIG_ENABLE);
	if (!counter_runs()) {
		pr_warn("hpet: the main counter does not advance; not used\n");
		return false;
	}
	hpet_cs.hz = FS_PER_SEC / period_fs;
	/* User mode finds the counter at VVAR_HPET_COUNTER in a page of its own. */
	if (page == acpi.hpet_address) {
		vvar_hpet_phys = page;
		hpet_cs.vclock_mode = VCLOCK_HPET;
	}
	pr_info("hpet: period %lu fs, %s counter, read as 32 bits\n", period_fs,
		cap & HPET_CAP_64BIT ? "64-bit" : "32-bit");
	clocksource_register(&hpet_cs);
	return true;
}
