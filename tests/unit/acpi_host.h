/*
 * acpi_host.h - builds ACPI tables for the host tests of the parsers
 * (drivers/acpi_tables.c): test_acpi.c (RSDP, root tables, MADT) and
 * test_acpi_fadt.c (FADT, \_S5, HPET).
 *
 * Tables are built byte by byte at the offsets the ACPI specification gives
 * (not through the parser's structures, so that a wrong offset there shows
 * up), sealed with a correct checksum, and placed in a fake physical memory.
 * The map function hands the parser an exactly sized heap copy of what it
 * asks for, so ASan catches any read past what it mapped; asking for bytes
 * beyond the fake memory gives NULL, as for a table that cannot be mapped.
 * Tests find warnings among the summaries with unit_logged (unit.h).
 * Each test program includes this once; not every program uses every builder.
 */
#ifndef REWIND_ACPI_HOST_H
#define REWIND_ACPI_HOST_H

#pragma GCC diagnostic ignored "-Wunused-function"

#include "tests/unit/unit.h"
#include "drivers/acpi_tables.c"

/* ---- fake physical memory ------------------------------------------------------- */

#define PHYS_BASE  0x7fe0000ul
#define MAX_COPIES 256

static u8 mem[32768];
static size_t mem_used;
static void *copies[MAX_COPIES];
static int ncopies;
static struct acpi_info info;

static void
reset(void)
{
	memset(mem, 0, sizeof(mem));
	mem_used = 0;
	while (ncopies)
		free(copies[--ncopies]);
	unit_log_clear();
	memset(&info, 0xee, sizeof(info)); /* the parser must clear it */
}

static const void *
fake_map(u64 phys, u32 len)
{
	if (phys < PHYS_BASE || phys - PHYS_BASE > mem_used || len > mem_used - (phys - PHYS_BASE))
		return NULL;
	if (ncopies == MAX_COPIES) {
		printf("    too many mappings\n");
		abort();
	}
	void *copy = malloc(len);
	memcpy(copy, mem + (phys - PHYS_BASE), len);
	copies[ncopies++] = copy;
	return copy;
}

static u8 *
at(u64 phys)
{
	return mem + (phys - PHYS_BASE);
}

/* Reserves len bytes, 16-byte aligned as firmware places tables. */
static u64
alloc_phys(size_t len)
{
	u64 phys = PHYS_BASE + ALIGN_UP(mem_used, 16);

	mem_used = ALIGN_UP(mem_used, 16) + len;
	if (mem_used > sizeof(mem))
		abort();
	return phys;
}

static void
put16(u8 *p, u16 v)
{
	memcpy(p, &v, 2);
}
static void
put32(u8 *p, u32 v)
{
	memcpy(p, &v, 4);
}
static void
put64(u8 *p, u64 v)
{
	memcpy(p, &v, 8);
}

static u8
sum(const u8 *p, size_t len)
{
	u8 s = 0;

	while (len--)
		s += *p++;
	return s;
}

/* Fixes the checksum (offset 9) of the table at phys for its current length. */
static void
seal(u64 phys)
{
	u8 *t = at(phys);
	u32 len;

	memcpy(&len, t + 4, 4);
	t[9] = 0;
	t[9] = (u8)-sum(t, len);
}

/* Places a table: the 36-byte header, then the body; sealed. */
static u64
table(const char *sig, const u8 *body, size_t body_len)
{
	u64 phys = alloc_phys(36 + body_len);
	u8 *t = at(phys);

	memcpy(t, sig, 4);
	put32(t + 4, (u32)(36 + body_len));
	t[8] = 1;		       /* revision */
	memcpy(t + 10, "REWIND", 6);   /* OEM id */
	memcpy(t + 16, "UNITTEST", 8); /* OEM table id */
	memcpy(t + 28, "HOST", 4);     /* creator */
	memcpy(t + 36, body, body_len);
	seal(phys);
	return phys;
}

static void
set_length(u64 phys, u32 len)
{
	put32(at(phys) + 4, len);
}

static void
corrupt(u64 phys)
{
	at(phys)[20] ^= 0x40; /* in the OEM table id: checked, never read */
}

/* ---- byte strings --------------------------------------------------------------- */

struct bytes {
	u8 b[1024];
	size_t n;
};

static void
add8(struct bytes *s, u8 v)
{
	s->b[s->n++] = v;
}
static void
add16(struct bytes *s, u16 v)
{
	put16(s->b + s->n, v);
	s->n += 2;
}
static void
add32(struct bytes *s, u32 v)
{
	put32(s->b + s->n, v);
	s->n += 4;
}
static void
add64(struct bytes *s, u64 v)
{
	put64(s->b + s->n, v);
	s->n += 8;
}

/* ---- RSDP and root tables ---------------------------------------------------------- */

static u8 rsdp[36];

static void
make_rsdp(u8 revision, u32 rsdt, u64 xsdt)
{
	memset(rsdp, 0, sizeof(rsdp));
	memcpy(rsdp, "RSD PTR ", 8);
	memcpy(rsdp + 9, "BOCHS ", 6);
	rsdp[15] = revision;
	put32(rsdp + 16, rsdt);
	if (revision >= 2) {
		put32(rsdp + 20, 36);
		put64(rsdp + 24, xsdt);
	}
	rsdp[8] = (u8)-sum(rsdp, 20);
	rsdp[32] = (u8)-sum(rsdp, 36);
}

/* An RSDT (entry_size 4) or XSDT (8) listing the tables. */
static u64
root_table(size_t entry_size, const u64 *tables, int n)
{
	struct bytes s = { .n = 0 };

	for (int i = 0; i < n; i++) {
		if (entry_size == 8)
			add64(&s, tables[i]);
		else
			add32(&s, (u32)tables[i]);
	}
	return table(entry_size == 8 ? "XSDT" : "RSDT", s.b, s.n);
}

/* Parses from the RSDP given with len bytes (an exact copy, for ASan). */
static void
parse(size_t len)
{
	u8 *copy = malloc(len);

	memcpy(copy, rsdp, len);
	acpi_parse_tables(copy, len, fake_map, &info);
	free(copy);
}

/* ---- MADT -------------------------------------------------------------------------- */

static struct bytes madt;

static void
madt_begin(u32 lapic_address, u32 flags)
{
	madt.n = 0;
	add32(&madt, lapic_address);
	add32(&madt, flags);
}

static void
madt_lapic(u8 uid, u8 apic_id, u32 flags)
{
	add8(&madt, 0);
	add8(&madt, 8);
	add8(&madt, uid);
	add8(&madt, apic_id);
	add32(&madt, flags);
}

static void
madt_ioapic(u8 id, u32 address, u32 gsi_base)
{
	add8(&madt, 1);
	add8(&madt, 12);
	add8(&madt, id);
	add8(&madt, 0);
	add32(&madt, address);
	add32(&madt, gsi_base);
}

static void
madt_override_bus(u8 bus, u8 irq, u32 gsi, u16 flags)
{
	add8(&madt, 2);
	add8(&madt, 10);
	add8(&madt, bus);
	add8(&madt, irq);
	add32(&madt, gsi);
	add16(&madt, flags);
}

static void
madt_override(u8 irq, u32 gsi, u16 flags)
{
	madt_override_bus(0, irq, gsi, flags);
}

static void
madt_lapic_nmi(void)
{
	add8(&madt, 4);
	add8(&madt, 6);
	add8(&madt, 0xff); /* all processors */
	add16(&madt, 0);
	add8(&madt, 1); /* LINT1 */
}

static void
madt_lapic_address(u64 address)
{
	add8(&madt, 5);
	add8(&madt, 12);
	add16(&madt, 0);
	add64(&madt, address);
}

static void
madt_x2apic(u32 id, u32 flags)
{
	add8(&madt, 9);
	add8(&madt, 16);
	add16(&madt, 0);
	add32(&madt, id);
	add32(&madt, flags);
	add32(&madt, id + 1000); /* uid */
}

static void
madt_x2apic_nmi(void)
{
	add8(&madt, 0xa);
	add8(&madt, 12);
	add16(&madt, 0);
	add32(&madt, 0xffffffff);
	add8(&madt, 1);
	add8(&madt, 0);
	add8(&madt, 0);
	add8(&madt, 0);
}

/* An entry of any type and claimed length, with len - 2 (or no) bytes of body. */
static void
madt_raw(u8 type, u8 len, size_t body)
{
	add8(&madt, type);
	add8(&madt, len);
	for (size_t i = 0; i < body; i++)
		add8(&madt, 0);
}

static u64
madt_place(void)
{
	return table("APIC", madt.b, madt.n);
}

/* Like QEMU's: 2 CPUs, IOAPIC 0 at 0xfec00000, the usual five overrides, an NMI entry. */
static u64
standard_madt(void)
{
	madt_begin(0xfee00000, 1);
	madt_lapic(0, 0, 1);
	madt_lapic(1, 1, 1);
	madt_ioapic(0, 0xfec00000, 0);
	madt_override(0, 2, 0);
	madt_override(5, 5, 0xd);
	madt_override(9, 9, 0xd);
	madt_override(10, 10, 0xd);
	madt_override(11, 11, 0xd);
	madt_lapic_nmi();
	return madt_place();
}

/* ---- FADT, DSDT, HPET ------------------------------------------------------------------ */

/* Offsets in the FADT (ACPI 6.5, table 5.9) and its lengths per revision. */
enum {
	F_DSDT = 40,
	F_PM1A_CNT = 64,
	F_PM1B_CNT = 68,
	F_PM_TMR = 76,
	F_FLAGS = 112,
	F_RESET_REG = 116,
	F_RESET_VALUE = 128,
	F_X_DSDT = 140,
	F_X_PM1A_CNT = 172,
	F_X_PM1B_CNT = 184,
	F_X_PM_TMR = 208,
	FADT_LEN_V1 = 116,
	FADT_LEN_V3 = 244,
	FADT_LEN_V6 = 276,
};

#define FLAG_TMR_VAL_EXT   (1u << 8)
#define FLAG_RESET_REG_SUP (1u << 10)

static u8 fadt[FADT_LEN_V6];

static void
gas(u8 *p, u8 space, u8 bit_width, u64 address)
{
	p[0] = space;
	p[1] = bit_width;
	p[2] = 0;
	p[3] = 0;
	put64(p + 4, address);
}

static u64
fadt_place(size_t len)
{
	return table("FACP", fadt + 36, len - 36);
}

/* Name(_S5, Package(4) { Zero, Zero, Zero, Zero }), as QEMU's DSDT has it. */
static const u8 aml_s5_zero[] = {
	0x10, 0x05, '\\', 0x00, 0x00, /* some AML before it */
	0x08, '_',  'S',  '5',	'_',  0x12, 0x06, 0x04, 0x00, 0x00, 0x00, 0x00, 0x5b, 0x80,
};

static u64
dsdt(const u8 *aml, size_t len)
{
	return table("DSDT", aml, len);
}

/* Like QEMU's FADT under SeaBIOS: ports at 0x600, reset through 0xcf9, long form. */
static u64
standard_fadt(u64 dsdt_phys)
{
	memset(fadt, 0, sizeof(fadt));
	put32(fadt + F_DSDT, (u32)dsdt_phys);
	put32(fadt + F_PM1A_CNT, 0x604);
	put32(fadt + F_PM_TMR, 0x608);
	put32(fadt + F_FLAGS, FLAG_RESET_REG_SUP);
	gas(fadt + F_RESET_REG, 1, 8, 0xcf9);
	fadt[F_RESET_VALUE] = 6;
	gas(fadt + F_X_PM1A_CNT, 1, 16, 0x604);
	gas(fadt + F_X_PM_TMR, 1, 32, 0x608);
	put64(fadt + F_X_DSDT, dsdt_phys);
	return fadt_place(FADT_LEN_V3);
}

static u64
hpet_table(u8 space, u64 address)
{
	struct bytes s = { .n = 0 };

	add32(&s, 0x8086a201); /* block id: 3 comparators */
	add8(&s, space);
	add8(&s, 64);
	add8(&s, 0);
	add8(&s, 0);
	add64(&s, address);
	add8(&s, 0);	 /* HPET number */
	add16(&s, 0x80); /* minimum tick */
	add8(&s, 0);	 /* page protection */
	return table("HPET", s.b, s.n);
}

/* FADT (with DSDT), MADT and HPET like QEMU's; returns how many are in tables[]. */
static int
standard_tables(u64 *tables)
{
	tables[0] = standard_fadt(dsdt(aml_s5_zero, sizeof(aml_s5_zero)));
	tables[1] = standard_madt();
	tables[2] = hpet_table(0, 0xfed00000);
	return 3;
}

/* A version-1 RSDP and RSDT listing tables[] (n of them). */
static void
boot_rsdt(const u64 *tables, int n)
{
	make_rsdp(0, (u32)root_table(4, tables, n), 0);
	parse(20);
}

static void
check_standard_madt(void)
{
	CHECK_EQ(info.ncpus, 2);
	CHECK_EQ(info.cpus[0].apic_id, 0);
	CHECK_EQ(info.cpus[1].apic_id, 1);
	CHECK(!info.cpus[0].x2apic);
	CHECK_EQ(info.lapic_address, 0xfee00000);
	CHECK(info.has_8259);
	CHECK_EQ(info.nioapics, 1);
	CHECK_EQ(info.ioapics[0].id, 0);
	CHECK_EQ(info.ioapics[0].address, 0xfec00000);
	CHECK_EQ(info.ioapics[0].gsi_base, 0);
	CHECK_EQ(info.noverrides, 5);
	CHECK(
		unit_logged("acpi: MADT: 2 CPUs (APIC ids 0 1), LAPIC at 0xfee00000, "
			    "IOAPIC id 0 at 0xfec00000 GSI 0, 5 overrides\n"));
}

#endif
