/*
 * test_acpi_fadt.c - host tests of the FADT in its three lengths (power-off
 * and reset registers, the PM timer), the \_S5 object the
 * power-off value comes from in the DSDT's AML, and the HPET table. The
 * table builders are in acpi_host.h.
 */
#include "tests/unit/acpi_host.h"

/* ---- FADT forms ------------------------------------------------------------------------- */

static void
parse_fadt_only(size_t len)
{
	u64 t = fadt_place(len);

	boot_rsdt(&t, 1);
}

UNIT_TEST(fadt_acpi_1_0_short_form)
{
	reset();
	memset(fadt, 0, sizeof(fadt));
	put32(fadt + F_DSDT, 0x1000); /* outside the fake memory */
	put32(fadt + F_PM1A_CNT, 0x404);
	put32(fadt + F_PM1B_CNT, 0x504);
	put32(fadt + F_PM_TMR, 0x408);
	put32(fadt + F_FLAGS, FLAG_TMR_VAL_EXT | FLAG_RESET_REG_SUP);
	/* Past the end of a 1.0 FADT: must not be read. */
	gas(fadt + F_RESET_REG, 1, 8, 0xcf9);
	gas(fadt + F_X_PM_TMR, 1, 32, 0xb008);
	parse_fadt_only(FADT_LEN_V1);
	CHECK_EQ(info.pm_timer_port, 0x408);
	CHECK(info.pm_timer_32bit);
	CHECK_EQ(info.pm1a_control, 0x404);
	CHECK_EQ(info.pm1b_control, 0x504);
	CHECK(!info.has_reset_reg);
	CHECK_EQ(info.dsdt_address, 0x1000);
	CHECK(unit_logged(
		"acpi: FADT: PM timer port 0x408 (32-bit), PM1a_CNT 0x404, PM1b_CNT 0x504, "
		"no reset register, DSDT at 0x1000\n"));
	CHECK(unit_logged("acpi: DSDT table at 0x1000 cannot be mapped; skipped\n"));
	CHECK(!info.has_s5);
}

UNIT_TEST(fadt_long_form_prefers_the_64_bit_fields)
{
	reset();
	u64 d = dsdt(aml_s5_zero, sizeof(aml_s5_zero));
	memset(fadt, 0, sizeof(fadt));
	put32(fadt + F_DSDT, 0x1000);
	put32(fadt + F_PM1A_CNT, 0x404);
	put32(fadt + F_PM1B_CNT, 0x504);
	put32(fadt + F_PM_TMR, 0x408);
	put32(fadt + F_FLAGS, FLAG_RESET_REG_SUP);
	gas(fadt + F_RESET_REG, 0, 8, 0xfee1dead0ull);
	fadt[F_RESET_VALUE] = 0x42;
	put64(fadt + F_X_DSDT, d);
	gas(fadt + F_X_PM1A_CNT, 1, 16, 0xb004);
	gas(fadt + F_X_PM1B_CNT, 1, 16, 0xb104);
	gas(fadt + F_X_PM_TMR, 1, 32, 0xb008);
	parse_fadt_only(FADT_LEN_V6);
	CHECK_EQ(info.pm_timer_port, 0xb008);
	CHECK(!info.pm_timer_32bit);
	CHECK_EQ(info.pm1a_control, 0xb004);
	CHECK_EQ(info.pm1b_control, 0xb104);
	CHECK(info.has_reset_reg);
	CHECK_EQ(info.reset_space, ACPI_SPACE_MEMORY);
	CHECK_EQ(info.reset_address, 0xfee1dead0ull);
	CHECK_EQ(info.reset_value, 0x42);
	CHECK_EQ(info.dsdt_address, d);
	CHECK(info.has_s5);
	CHECK(unit_logged("reset 0x42 to memory 0xfee1dead0"));
}

UNIT_TEST(fadt_64_bit_fields_absent_or_unusable)
{
	reset();
	memset(fadt, 0, sizeof(fadt));
	put32(fadt + F_DSDT, 0x2000);
	put32(fadt + F_PM1A_CNT, 0x404);
	put32(fadt + F_PM_TMR, 0x408);
	gas(fadt + F_RESET_REG, 1, 8, 0xcf9); /* but RESET_REG_SUP is clear */
	fadt[F_RESET_VALUE] = 6;
	gas(fadt + F_X_PM_TMR, 0, 32, 0xfed00000); /* memory space: not a port */
	parse_fadt_only(FADT_LEN_V3);
	CHECK_EQ(info.pm_timer_port, 0x408);
	CHECK_EQ(info.pm1a_control, 0x404);
	CHECK_EQ(info.dsdt_address, 0x2000);
	CHECK(!info.has_reset_reg);

	/* An ACPI 2.0 FADT cut after the reset value: reset register yes, X_DSDT no. */
	reset();
	put32(fadt + F_FLAGS, FLAG_RESET_REG_SUP);
	put64(fadt + F_X_DSDT, 0x3000);
	parse_fadt_only(F_X_DSDT);
	CHECK(info.has_reset_reg);
	CHECK_EQ(info.reset_address, 0xcf9);
	CHECK_EQ(info.dsdt_address, 0x2000);

	/* A reset register in PCI configuration space is not supported. */
	reset();
	gas(fadt + F_RESET_REG, 2, 8, 0xcf9);
	parse_fadt_only(FADT_LEN_V3);
	CHECK(!info.has_reset_reg);
}

UNIT_TEST(fadt_too_short)
{
	reset();
	memset(fadt, 0, sizeof(fadt));
	put32(fadt + F_PM_TMR, 0x408);
	parse_fadt_only(FADT_LEN_V1 - 4);
	CHECK(unit_logged("acpi: FACP of 112 bytes is too short (116 needed); skipped\n"));
	CHECK_EQ(info.pm_timer_port, 0);
}

/* ---- \_S5 ------------------------------------------------------------------------------- */

static u8 typ_a, typ_b;

/* Looks for \_S5 in an exactly sized copy of the AML. */
static bool
s5(const u8 *aml, size_t len)
{
	u8 *copy = malloc(len);

	memcpy(copy, aml, len);
	typ_a = typ_b = 0xee;
	bool found = find_s5(copy, len, &typ_a, &typ_b);
	free(copy);
	return found;
}

UNIT_TEST(s5_as_byte_prefixes)
{
	static const u8 aml[] = { 0x08, '_',  'S',  '5',  '_',	0x12, 0x08,
				  0x04, 0x0a, 0x05, 0x0a, 0x07, 0x00, 0x00 };

	CHECK(s5(aml, sizeof(aml)));
	CHECK_EQ(typ_a, 5);
	CHECK_EQ(typ_b, 7);
}

UNIT_TEST(s5_as_zero_and_one)
{
	static const u8 aml[] = { 0x00, 0x08, '_',  'S',  '5',	'_', 0x12,
				  0x06, 0x04, 0x01, 0x00, 0x00, 0x00 };
	static const u8 rooted[] = { 0x08, '\\', '_',  'S',  '5',  '_',
				     0x12, 0x04, 0x02, 0x00, 0x01, 0x5b };

	CHECK(s5(aml, sizeof(aml)));
	CHECK_EQ(typ_a, 1);
	CHECK_EQ(typ_b, 0);
	CHECK(s5(rooted, sizeof(rooted)));
	CHECK_EQ(typ_a, 0);
	CHECK_EQ(typ_b, 1);
}

UNIT_TEST(s5_with_a_two_byte_package_length)
{
	u8 aml[5 + 1 + 16] = { 0x08, '_',  'S',	 '5',  '_',  0x12, 0x40,
			       0x01, 0x04, 0x0a, 0x05, 0x0a, 0x06 };

	CHECK(s5(aml, sizeof(aml))); /* PkgLength 0x10 covers the zero padding */
	CHECK_EQ(typ_a, 5);
	CHECK_EQ(typ_b, 6);
	CHECK(!s5(aml, sizeof(aml) - 1)); /* the package would end past the AML */
}

UNIT_TEST(s5_only_where_a_name_is_declared)
{
	/* _S5_ referenced (after a Store op) first, declared after that */
	static const u8 aml[] = {
		0x70, '_', 'S', '5', '_', 0x12, 0x06, 0x02, 0x0a, 0x03, 0x0a, 0x03,
		0x08, '_', 'S', '5', '_', 0x12, 0x06, 0x02, 0x0a, 0x04, 0x0a, 0x04,
	};

	CHECK(s5(aml, sizeof(aml)));
	CHECK_EQ(typ_a, 4);
}

UNIT_TEST(s5_absent_or_unreadable)
{
	static const u8 none[] = { 0x08, '_',  'S',  '4',  '_',	 0x12,
				   0x06, 0x02, 0x0a, 0x03, 0x0a, 0x03 };
	/* Method(_S5) { Return (Zero) }: its PkgLength, 8, even looks like a NameOp */
	static const u8 method[] = { 0x14, 0x08, '_', 'S', '5', '_', 0x00, 0xa4, 0x00 };
	static const u8 word[] = { 0x08, '_',  'S',  '5',  '_',	 0x12, 0x07,
				   0x02, 0x0b, 0x05, 0x00, 0x0a, 0x05 };
	static const u8 one_element[] = { 0x08, '_', 'S', '5', '_', 0x12, 0x04, 0x01, 0x0a, 0x05 };
	static const u8 cut[] = { 0x08, '_', 'S', '5', '_', 0x12, 0x06, 0x04, 0x0a };
	static const u8 cut_byte[] = { 0x08, '_', 'S', '5', '_', 0x12, 0x04, 0x02, 0x00, 0x0a };
	static const u8 bare[] = { 0x08, '_', 'S', '5', '_' };
	/* the package ends after one element; the next byte constant is not part of it */
	static const u8 short_pkg[] = { 0x08, '_',  'S',  '5',	'_',  0x12,
					0x04, 0x02, 0x0a, 0x05, 0x0a, 0x06 };

	CHECK(!s5(none, sizeof(none)));
	CHECK(!s5(method, sizeof(method)));
	CHECK(!s5(word, sizeof(word)));
	CHECK(!s5(one_element, sizeof(one_element)));
	CHECK(!s5(cut, sizeof(cut)));
	CHECK(!s5(cut_byte, sizeof(cut_byte)));
	CHECK(!s5(bare, sizeof(bare)));
	CHECK(!s5(bare + 1, 4));
	CHECK(!s5(short_pkg, sizeof(short_pkg)));
}

UNIT_TEST(dsdt_without_s5)
{
	static const u8 aml[] = { 0x10, 0x05, '\\', 0x00, 0x00 };

	reset();
	memset(fadt, 0, sizeof(fadt));
	put32(fadt + F_DSDT, (u32)dsdt(aml, sizeof(aml)));
	put32(fadt + F_PM1A_CNT, 0x404);
	parse_fadt_only(FADT_LEN_V1);
	CHECK(!info.has_s5);
	CHECK(unit_logged("acpi: DSDT: no \\_S5 package found; no power off through ACPI\n"));
}

/* ---- HPET ------------------------------------------------------------------------------- */

UNIT_TEST(hpet_in_io_space_or_too_short)
{
	u64 t;

	reset();
	t = hpet_table(1, 0xfed00000);
	boot_rsdt(&t, 1);
	CHECK_EQ(info.hpet_address, 0);
	CHECK(unit_logged(
		"acpi: HPET registers not in memory (space 1, address 0xfed00000); ignored\n"));

	reset();
	t = table("HPET", (const u8 *)"\x01\xa2\x86\x80\x00\x40\x00\x00", 8);
	boot_rsdt(&t, 1);
	CHECK(unit_logged("acpi: HPET of 44 bytes is too short (52 needed); skipped\n"));
	CHECK_EQ(info.hpet_address, 0);
}
