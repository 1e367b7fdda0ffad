/*
 * acpi.c - finding the ACPI tables in memory, and the two things rewind
 * does with ACPI hardware directly: power off (sleep state S5) and reset.
 * See acpi.h; the parsing itself is in acpi_tables.c.
 */
#include "drivers/acpi.h"
#include "drivers/acpi_tables.h"
#include "kernel/printk.h"
#include "kernel/time/tsc.h"
#include "kernel/x86/x86.h"
#include "mm/layout.h"
#include "mm/paging.h"
#include "mm/vmap.h"

/* The BIOS data area holds the EBDA's segment; the RSDP may lie in its first KiB. */
#define EBDA_SEGMENT_PTR 0x40e
#define EBDA_SCAN_LEN	 1024
#define BIOS_AREA_START	 0xe0000
#define BIOS_AREA_END	 0x100000

#define PM1_SLP_TYP_SHIFT 10
#define PM1_SLP_TYP_MASK  (7u << PM1_SLP_TYP_SHIFT)
#define PM1_SLP_EN	  (1u << 13)

struct acpi_info acpi;

/* Whether every page of [phys, phys + len) is in the direct map (the RAM types paging.c maps). */
static bool
direct_mapped(u64 phys, u64 len)
{
	int level;

	if (phys + len < phys || phys + len > DIRECT_MAP_SIZE)
		return false;
	for (u64 pa = ALIGN_DOWN(phys, PAGE_SIZE); pa < phys + len; pa += PAGE_SIZE)
		if (!lookup_kernel_mapping((u64)phys_to_virt(pa), &level))
			return false;
	return true;
}

/*
 * OVMF puts the tables in ACPI-reclaimable memory, which the direct map
 * covers; SeaBIOS puts them in "reserved" memory, which only ioremap
 * reaches. The few mappings made here are never taken back.
 */
static const void *
map_phys(u64 phys, u32 len)
{
	if (direct_mapped(phys, len))
		return phys_to_virt(phys);
	return ioremap(phys, len, IOMAP_UNCACHED);
}

static const u8 *
scan_area(u64 phys, u32 size, size_t *len)
{
	const u8 *area = map_phys(phys, size);

	return area ? acpi_rsdp_find(area, size, len) : NULL;
}

/* Where BIOS firmware leaves the RSDP: the EBDA's first KiB, then 0xe0000-0xfffff. */
static const u8 *
scan_bios_areas(size_t *len)
{
	const u16 *segment = map_phys(EBDA_SEGMENT_PTR, sizeof(*segment));
	const u8 *rsdp = NULL;

	if (segment && *segment)
		rsdp = scan_area((u64)*segment << 4, EBDA_SCAN_LEN, len);
	return rsdp ? rsdp : scan_area(BIOS_AREA_START, BIOS_AREA_END - BIOS_AREA_START, len);
}

void
acpi_init(const u8 *rsdp_from_loader, int rsdp_revision)
{
	const u8 *rsdp;
	size_t len = rsdp_revision == 1 ? ACPI_RSDP_V1_LEN : ACPI_RSDP_V2_LEN;

	if (rsdp_revision) {
		rsdp = acpi_rsdp_valid(rsdp_from_loader, len) ? rsdp_from_loader : NULL;
		if (!rsdp)
			pr_warn("acpi: the boot loader's RSDP fails its checks\n");
	} else {
		rsdp = scan_bios_areas(&len);
	}
	if (!rsdp) {
		pr_warn("acpi: no RSDP; going on with one CPU, no PM timer, no ACPI power off\n");
		return;
	}
	acpi_parse_tables(rsdp, len, map_phys, &acpi);
}

/* Sets SLP_TYP and SLP_EN, keeping the other bits (SCI_EN above all). */
static void
pm1_sleep(u16 port, u8 slp_typ)
{
	u16 v = inw(port) & ~(PM1_SLP_TYP_MASK | PM1_SLP_EN);

	outw(port, v | ((slp_typ << PM1_SLP_TYP_SHIFT) & PM1_SLP_TYP_MASK) | PM1_SLP_EN);
}

void
acpi_power_off(void)
{
	if (!acpi.has_s5 || !acpi.pm1a_control)
		return;
	pm1_sleep(acpi.pm1a_control, acpi.s5_typ_a);
	if (acpi.pm1b_control)
		pm1_sleep(acpi.pm1b_control, acpi.s5_typ_b);
	/* Power does not drop at once on real machines. */
	tsc_delay_us(1000 * 1000);
	pr_warn("acpi: still running one second after entering S5\n");
}

void
acpi_reset(void)
{
	if (!acpi.has_reset_reg)
		return;
	if (acpi.reset_space == ACPI_SPACE_IO) {
		outb((u16)acpi.reset_address, acpi.reset_value);
	} else {
		volatile u8 *reg = ioremap(acpi.reset_address, 1, IOMAP_UNCACHED);
		if (!reg)
			return;
		*reg = acpi.reset_value;
	}
	tsc_delay_us(50 * 1000);
	pr_warn("acpi: the reset register did not reset the machine\n");
}
