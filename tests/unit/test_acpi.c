/*
 * test_acpi.c - host tests of the ACPI walk (drivers/acpi_tables.c): the
 * RSDP and its checksums, the RSDT/XSDT and the tables they list, bad or
 * implausible tables skipped by name, and the MADT's entries. The table
 * builders are in acpi_host.h; FADT, \_S5 and HPET are in test_acpi_fadt.c.
 */
#include "tests/unit/acpi_host.h"

/* ---- RSDP ---------------------------------------------------------------------------- */

UNIT_TEST(rsdp_v1_checksum)
{
	make_rsdp(0, 0x1234, 0);
	CHECK(acpi_rsdp_valid(rsdp, 20));
	CHECK(acpi_rsdp_valid(rsdp, 36)); /* revision 0: bytes 20-35 are not the RSDP's */
	CHECK(!acpi_rsdp_valid(rsdp, 19));
	rsdp[16] ^= 1;
	CHECK(!acpi_rsdp_valid(rsdp, 20));
	make_rsdp(0, 0x1234, 0);
	rsdp[0] = 'r';
	rsdp[8] -= 'r' - 'R'; /* checksum right, signature wrong */
	CHECK(!acpi_rsdp_valid(rsdp, 20));
}

UNIT_TEST(rsdp_v2_extended_checksum)
{
	make_rsdp(2, 0x1234, 0x123456789ull);
	CHECK(acpi_rsdp_valid(rsdp, 36));
	rsdp[33] ^= 1; /* reserved: only the extended checksum covers it */
	CHECK(!acpi_rsdp_valid(rsdp, 36));
	CHECK(acpi_rsdp_valid(rsdp, 20)); /* the loader's 20-byte copy: RSDT part only */
}

UNIT_TEST(rsdp_scan_on_16_byte_boundaries)
{
	static u8 area[256];
	size_t len = 0;

	memset(area, 0, sizeof(area));
	CHECK(acpi_rsdp_find(area, sizeof(area), &len) == NULL);
	make_rsdp(2, 0x1234, 0x5678);
	memcpy(area + 8, rsdp, 36); /* valid, but not on a boundary */
	memcpy(area + 64, rsdp, 36);
	area[64 + 16] ^= 1; /* on a boundary, bad checksum */
	memcpy(area + 128, rsdp, 36);
	CHECK(acpi_rsdp_find(area, sizeof(area), &len) == area + 128);
	CHECK_EQ(len, 36);

	/* At the very end of the area: only 20 bytes are there. */
	u8 *end = malloc(48);
	memset(end, 0, 48);
	make_rsdp(0, 0x1234, 0);
	memcpy(end + 16, rsdp, 20);
	CHECK(acpi_rsdp_find(end, 36, &len) == end + 16);
	CHECK_EQ(len, 20);
	free(end);
}

/* ---- the whole walk --------------------------------------------------------------------- */

UNIT_TEST(v1_rsdp_and_rsdt)
{
	u64 tables[3];

	reset();
	boot_rsdt(tables, standard_tables(tables));
	CHECK(info.present);
	CHECK_EQ(info.revision, 0);
	CHECK_STR(info.oem_id, "BOCHS ");
	check_standard_madt();
	CHECK_EQ(info.overrides[0].isa_irq, 0);
	CHECK_EQ(info.overrides[0].gsi, 2);
	CHECK(!info.overrides[0].active_low && !info.overrides[0].level_triggered);
	CHECK_EQ(info.overrides[2].isa_irq, 9);
	CHECK(!info.overrides[2].active_low && info.overrides[2].level_triggered);
	CHECK_EQ(info.pm_timer_port, 0x608);
	CHECK(!info.pm_timer_32bit);
	CHECK_EQ(info.pm1a_control, 0x604);
	CHECK_EQ(info.pm1b_control, 0);
	CHECK(info.has_reset_reg);
	CHECK_EQ(info.reset_space, ACPI_SPACE_IO);
	CHECK_EQ(info.reset_address, 0xcf9);
	CHECK_EQ(info.reset_value, 6);
	CHECK(info.has_s5);
	CHECK_EQ(info.s5_typ_a, 0);
	CHECK_EQ(info.s5_typ_b, 0);
	CHECK_EQ(info.hpet_address, 0xfed00000);
	CHECK(unit_logged("acpi: RSDP revision 0 (OEM 'BOCHS '), RSDT at %#lx lists 3 tables\n",
			  PHYS_BASE + mem_used - 36 - 12));
	CHECK(unit_logged(
		"acpi: FADT: PM timer port 0x608 (24-bit), PM1a_CNT 0x604, reset 0x6 to port 0xcf9, "
		"DSDT at %#lx\n",
		PHYS_BASE));
	CHECK(unit_logged("acpi: DSDT: \\_S5 SLP_TYPa 0 SLP_TYPb 0\n"));
	CHECK(unit_logged("acpi: HPET: at 0xfed00000, 3 comparators\n"));
	CHECK(!strstr(unit_log, "skipped"));
}

UNIT_TEST(v2_rsdp_uses_the_xsdt)
{
	u64 tables[3];

	reset();
	int n = standard_tables(tables);
	u64 rsdt = root_table(4, tables + 2, 1); /* the HPET only: shows which root was read */
	u64 xsdt = root_table(8, tables, n);
	make_rsdp(2, (u32)rsdt, xsdt);
	parse(36);
	CHECK_EQ(info.revision, 2);
	check_standard_madt();
	CHECK(info.has_s5);
	CHECK(unit_logged("XSDT at %#lx lists 3 tables", xsdt));

	reset();
	n = standard_tables(tables);
	rsdt = root_table(4, tables + 2, 1);
	make_rsdp(2, (u32)rsdt, root_table(8, tables, n));
	parse(20); /* only the ACPI 1.0 part given */
	CHECK_EQ(info.ncpus, 0);
	CHECK_EQ(info.hpet_address, 0xfed00000);

	reset();
	n = standard_tables(tables);
	make_rsdp(2, (u32)root_table(4, tables, n), 0); /* no XSDT */
	parse(36);
	CHECK_EQ(info.ncpus, 2);
}

UNIT_TEST(bad_xsdt_falls_back_to_the_rsdt)
{
	u64 tables[3];

	reset();
	int n = standard_tables(tables);
	u64 rsdt = root_table(4, tables, n);
	u64 xsdt = root_table(8, tables, n);
	corrupt(xsdt);
	make_rsdp(2, (u32)rsdt, xsdt);
	parse(36);
	CHECK(unit_logged("acpi: XSDT at %#lx has a bad checksum; skipped\n", xsdt));
	CHECK(unit_logged("RSDT at %#lx lists 3 tables", rsdt));
	CHECK_EQ(info.ncpus, 2);
}

UNIT_TEST(unusable_root_table)
{
	reset();
	u64 bogus = table("FACP", (const u8 *)"", 0);
	make_rsdp(0, (u32)bogus, 0);
	parse(20);
	CHECK(unit_logged("acpi: RSDT at %#lx has the signature 'FACP'; skipped\n", bogus));
	CHECK(unit_logged("acpi: no usable RSDT or XSDT; the ACPI tables are ignored\n"));
	CHECK(info.present);
	CHECK_EQ(info.ncpus, 0);
	CHECK_EQ(info.pm_timer_port, 0);
}

UNIT_TEST(bad_checksum_skips_that_table_only)
{
	u64 tables[3];

	reset();
	int n = standard_tables(tables);
	corrupt(tables[1]);
	boot_rsdt(tables, n);
	CHECK(unit_logged("acpi: APIC at %#lx has a bad checksum; skipped\n", tables[1]));
	CHECK_EQ(info.ncpus, 0);
	CHECK_EQ(info.nioapics, 0);
	CHECK_EQ(info.pm_timer_port, 0x608);
	CHECK_EQ(info.hpet_address, 0xfed00000);
	CHECK(info.has_s5);
}

UNIT_TEST(bad_dsdt_checksum)
{
	u64 tables[3];

	reset();
	int n = standard_tables(tables);
	corrupt(PHYS_BASE); /* the DSDT is placed first */
	boot_rsdt(tables, n);
	CHECK(unit_logged("acpi: DSDT at %#lx has a bad checksum; skipped\n", PHYS_BASE));
	CHECK(!info.has_s5);
	CHECK_EQ(info.pm1a_control, 0x604);
}

UNIT_TEST(table_longer_than_memory)
{
	u64 tables[3];

	reset();
	int n = standard_tables(tables);
	u64 rsdt = root_table(4, tables, n);
	tables[1] = standard_madt(); /* now the last thing in memory */
	put32(at(rsdt) + 36 + 4, (u32)tables[1]);
	seal(rsdt);
	set_length(tables[1], (u32)(PHYS_BASE + mem_used - tables[1] + 64));
	make_rsdp(0, (u32)rsdt, 0);
	parse(20);
	CHECK(unit_logged("acpi: APIC at %#lx: its %lu bytes cannot be mapped; skipped\n",
			  tables[1], PHYS_BASE + mem_used - tables[1] + 64));
	CHECK_EQ(info.ncpus, 0);
	CHECK_EQ(info.hpet_address, 0xfed00000);
}

UNIT_TEST(implausible_lengths_and_addresses)
{
	u64 tables[4];

	reset();
	standard_tables(tables);
	set_length(tables[1], 35);
	set_length(tables[2], 0xffffffff);
	tables[3] = 0x1000; /* outside the fake memory */
	boot_rsdt(tables, 4);
	CHECK(unit_logged("acpi: APIC at %#lx has an implausible length (35 bytes); skipped\n",
			  tables[1]));
	CHECK(unit_logged(
		"acpi: HPET at %#lx has an implausible length (4294967295 bytes); skipped\n",
		tables[2]));
	CHECK(unit_logged("acpi: a table at 0x1000 cannot be mapped; skipped\n"));
	CHECK_EQ(info.pm1a_control, 0x604);
}

UNIT_TEST(duplicate_table_is_ignored)
{
	u64 tables[4];

	reset();
	standard_tables(tables);
	madt_begin(0xfee00000, 0);
	madt_lapic(0, 7, 1);
	tables[3] = madt_place();
	boot_rsdt(tables, 4);
	CHECK(unit_logged("acpi: a second APIC table; ignored\n"));
	check_standard_madt();
}

/* ---- MADT entries ------------------------------------------------------------------------ */

static void
parse_madt_only(void)
{
	u64 t = madt_place();

	boot_rsdt(&t, 1);
}

UNIT_TEST(madt_entries_of_each_type)
{
	reset();
	madt_begin(0xfee00000, 0);
	madt_lapic(0, 0, 1);	/* enabled */
	madt_lapic(1, 1, 0);	/* disabled */
	madt_lapic(2, 2, 2);	/* online capable */
	madt_lapic(3, 0xff, 1); /* the broadcast id: a placeholder */
	madt_x2apic(300, 1);
	madt_x2apic(0, 1);   /* CPU 0 again, in x2APIC form */
	madt_x2apic(301, 0); /* disabled */
	madt_ioapic(1, 0xfec00000, 0);
	madt_ioapic(2, 0xfec01000, 24);
	madt_override(0, 2, 0);		   /* conforming: edge, active high */
	madt_override(9, 9, 0xd);	   /* level, active high */
	madt_override(10, 10, 0xf);	   /* level, active low */
	madt_override(11, 11, 0x3);	   /* edge, active low */
	madt_override_bus(1, 12, 12, 0xf); /* not ISA */
	madt_lapic_nmi();
	madt_x2apic_nmi();
	madt_raw(0x7f, 5, 3); /* a type from the future */
	madt_lapic_address(0x100000000ull);
	parse_madt_only();

	CHECK(!info.has_8259);
	CHECK_EQ(info.ncpus, 2);
	CHECK_EQ(info.hotplug_cpus, 1);
	CHECK_EQ(info.cpus[0].apic_id, 0);
	CHECK(!info.cpus[0].x2apic);
	CHECK_EQ(info.cpus[1].apic_id, 300);
	CHECK(info.cpus[1].x2apic);
	CHECK_EQ(info.nioapics, 2);
	CHECK_EQ(info.ioapics[1].id, 2);
	CHECK_EQ(info.ioapics[1].address, 0xfec01000);
	CHECK_EQ(info.ioapics[1].gsi_base, 24);
	CHECK_EQ(info.noverrides, 4);
	CHECK(!info.overrides[0].level_triggered && !info.overrides[0].active_low);
	CHECK(info.overrides[1].level_triggered && !info.overrides[1].active_low);
	CHECK(info.overrides[2].level_triggered && info.overrides[2].active_low);
	CHECK(!info.overrides[3].level_triggered && info.overrides[3].active_low);
	CHECK_EQ(info.overrides[3].isa_irq, 11);
	CHECK_EQ(info.overrides[3].gsi, 11);
	CHECK_EQ(info.lapic_address, 0x100000000ull);
	CHECK(unit_logged(
		"acpi: MADT: 2 CPUs (APIC ids 0 300(x2)) + 1 online-capable, not started, LAPIC at 0x100000000, "
		"IOAPIC id 1 at 0xfec00000 GSI 0, IOAPIC id 2 at 0xfec01000 GSI 24, 4 overrides\n"));
	CHECK(!strstr(unit_log, "acpi: MADT entry"));
}

UNIT_TEST(madt_zero_length_entry_stops_the_walk)
{
	reset();
	madt_begin(0xfee00000, 1);
	madt_lapic(0, 0, 1);
	madt_raw(0, 0, 6);
	madt_lapic(1, 1, 1);
	parse_madt_only();
	CHECK(unit_logged(
		"acpi: MADT entry of type 0 at offset 52 claims 0 bytes; the rest is ignored\n"));
	CHECK_EQ(info.ncpus, 1);
	CHECK(unit_logged(
		"acpi: MADT: 1 CPU (APIC ids 0), LAPIC at 0xfee00000, no IOAPIC, 0 overrides\n"));
}

UNIT_TEST(madt_entry_past_the_end_or_too_short)
{
	reset();
	madt_begin(0xfee00000, 1);
	madt_lapic(0, 0, 1);
	madt_raw(1, 8, 6); /* an IOAPIC entry needs 12 bytes */
	madt_lapic(1, 1, 1);
	madt_raw(0, 20, 6); /* claims 20, 8 left */
	parse_madt_only();
	CHECK(unit_logged("acpi: MADT entry of type 1 has only 8 bytes; skipped\n"));
	CHECK(unit_logged(
		"acpi: MADT entry of type 0 at offset 68 claims 20 bytes; the rest is ignored\n"));
	CHECK_EQ(info.ncpus, 2);
	CHECK_EQ(info.nioapics, 0);
}

UNIT_TEST(madt_more_cpus_than_fit)
{
	reset();
	madt_begin(0xfee00000, 1);
	for (int i = 0; i < ACPI_MAX_CPUS + 2; i++)
		madt_lapic((u8)i, (u8)i, 1);
	parse_madt_only();
	CHECK_EQ(info.ncpus, ACPI_MAX_CPUS);
	CHECK_EQ(info.cpus[ACPI_MAX_CPUS - 1].apic_id, ACPI_MAX_CPUS - 1);
	CHECK(unit_logged("acpi: MADT: more than 64 CPUs; id 65 ignored\n"));
}

UNIT_TEST(madt_too_short)
{
	reset();
	madt_begin(0xfee00000, 1);
	madt.n = 4; /* no flags field */
	parse_madt_only();
	CHECK(unit_logged("acpi: APIC of 40 bytes is too short (44 needed); skipped\n"));
	CHECK_EQ(info.lapic_address, 0);
}
