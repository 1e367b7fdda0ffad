/*
 * acpi.h - what rewind takes from the ACPI tables: the CPUs and interrupt
 * controllers (MADT), the power-management timer, reset register, RTC
 * century register and the S5 (soft-off) sleep value (FADT, DSDT), and the
 * HPET's address.
 *
 * Every table's checksum is verified; a bad or malformed table is reported
 * by name and skipped, and boot goes on with the defaults (one CPU, the
 * standard IOAPIC address, no PM timer).
 */
#ifndef REWIND_ACPI_H
#define REWIND_ACPI_H

#include "kernel/lib/types.h"

#define ACPI_MAX_CPUS	   64
#define ACPI_MAX_IOAPICS   8
#define ACPI_MAX_OVERRIDES 16

/* Address spaces of a generic address structure (the two rewind uses). */
#define ACPI_SPACE_MEMORY 0
#define ACPI_SPACE_IO	  1

struct acpi_cpu {
	u32 apic_id;
	bool x2apic; /* from an x2APIC entry (ids may exceed 255) */
};

struct acpi_ioapic {
	u8 id;
	u32 address;
	u32 gsi_base; /* first global system interrupt it serves */
};

/* An ISA IRQ that is wired to another GSI, or with other polarity/trigger. */
struct acpi_override {
	u8 isa_irq;
	u32 gsi;
	bool active_low;
	bool level_triggered;
};

struct acpi_info {
	bool present; /* an RSDP was found and checked */
	int revision; /* of the RSDP: 0 (ACPI 1.0) or 2+ */
	char oem_id[7];
	u64 lapic_address; /* MADT's local APIC address (or its override) */
	int ncpus;	   /* enabled processors: the ones to start */
	int hotplug_cpus;  /* online-capable ones: could be enabled later, not started */
	struct acpi_cpu cpus[ACPI_MAX_CPUS];
	int nioapics;
	struct acpi_ioapic ioapics[ACPI_MAX_IOAPICS];
	int noverrides;
	struct acpi_override overrides[ACPI_MAX_OVERRIDES];
	bool has_8259;	   /* MADT flag PCAT_COMPAT */
	u32 pm_timer_port; /* 0 when absent */
	bool pm_timer_32bit;
	u64 hpet_address;		/* 0 when absent */
	u64 dsdt_address;		/* from the FADT: where \_S5 is looked for */
	u8 rtc_century_index;		/* CMOS register of the RTC's century, 0 when absent */
	u16 pm1a_control, pm1b_control; /* I/O ports, 0 when absent */
	bool has_s5;
	u8 s5_typ_a, s5_typ_b; /* SLP_TYPa/b for S5 */
	bool has_reset_reg;
	u8 reset_space; /* ACPI_SPACE_MEMORY or ACPI_SPACE_IO */
	u64 reset_address;
	u8 reset_value;
};

extern struct acpi_info acpi;

/* Finds and parses the tables (RSDP from the loader, else the BIOS areas). */
void acpi_init(const u8 *rsdp_from_loader, int rsdp_revision);
/* Powers the machine off through S5: returns only if it could not. */
void acpi_power_off(void);
/* Resets through the FADT reset register: returns only if it could not. */
void acpi_reset(void);

#endif
