/*
 * test_acpi.c - host tests of the ACPI table parsers (drivers/acpi_tables.c).
 *
 * Tables are built byte by byte at the offsets the ACPI specification gives
 * (not through the parser's structures, so that a wrong offset there shows
 * up), sealed with a correct checksum, and placed in a fake physical memory.
 * The map function hands the parser an exactly sized heap copy of what it
 * asks for, so ASan catches any read past what it mapped; asking for bytes
 * beyond the fake memory gives NULL, as for a table that cannot be mapped.
 * Every printk line is kept, so that tests find warnings among the summaries.
 */
#define UNIT_NO_PRINTK
#include "tests/unit/unit.h"
#include "kernel/printk.h"
#include "kernel/vsprintf.c"
#include "drivers/acpi_tables.c"

/* ---- the log ------------------------------------------------------------------- */

static char log_text[32768];

void
vprintk(int level, const char *fmt, va_list ap)
{
	size_t n = strlen(log_text);

	kvsnprintf(unit_last_log, sizeof(unit_last_log), fmt, ap);
	unit_log_count++;
	snprintf(log_text + n, sizeof(log_text) - n, "%s", unit_last_log);
	if (getenv("UNIT_VERBOSE"))
		printf("    printk(%d): %s", level, unit_last_log);
}

void
printk(int level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintk(level, fmt, ap);
	va_end(ap);
}

/* Whether the log holds the formatted text. */
static bool __printf(1, 2)
logged(const char *fmt, ...)
{
	char want[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(want, sizeof(want), fmt, ap);
	va_end(ap);
	if (strstr(log_text, want))
		return true;
	printf("    not in the log: \"%s\"; the log:\n%s", want, log_text);
	return false;
}

/* ---- fake physical memory ------------------------------------------------------- */

#define PHYS_BASE	0x7fe0000ul
#define MAX_COPIES	256

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
	log_text[0] = '\0';
	memset(&info, 0xee, sizeof(info));	/* the parser must clear it */
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

static void put16(u8 *p, u16 v) { memcpy(p, &v, 2); }
static void put32(u8 *p, u32 v) { memcpy(p, &v, 4); }
static void put64(u8 *p, u64 v) { memcpy(p, &v, 8); }

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
	t[8] = 1;				/* revision */
	memcpy(t + 10, "REWIND", 6);		/* OEM id */
	memcpy(t + 16, "UNITTEST", 8);		/* OEM table id */
	memcpy(t + 28, "HOST", 4);		/* creator */
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
	at(phys)[20] ^= 0x40;	/* in the OEM table id: checked, never read */
}

/* ---- byte strings --------------------------------------------------------------- */

struct bytes {
	u8 b[1024];
	size_t n;
};

static void add8(struct bytes *s, u8 v) { s->b[s->n++] = v; }
static void add16(struct bytes *s, u16 v) { put16(s->b + s->n, v); s->n += 2; }
static void add32(struct bytes *s, u32 v) { put32(s->b + s->n, v); s->n += 4; }
static void add64(struct bytes *s, u64 v) { put64(s->b + s->n, v); s->n += 8; }

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
	add8(&madt, 0xff);	/* all processors */
	add16(&madt, 0);
	add8(&madt, 1);		/* LINT1 */
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
	add32(&madt, id + 1000);	/* uid */
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

#define FLAG_TMR_VAL_EXT	(1u << 8)
#define FLAG_RESET_REG_SUP	(1u << 10)

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
	0x10, 0x05, '\\', 0x00, 0x00,		/* some AML before it */
	0x08, '_', 'S', '5', '_', 0x12, 0x06, 0x04, 0x00, 0x00, 0x00, 0x00,
	0x5b, 0x80,
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

	add32(&s, 0x8086a201);		/* block id: 3 comparators */
	add8(&s, space);
	add8(&s, 64);
	add8(&s, 0);
	add8(&s, 0);
	add64(&s, address);
	add8(&s, 0);			/* HPET number */
	add16(&s, 0x80);		/* minimum tick */
	add8(&s, 0);			/* page protection */
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
	CHECK(logged("acpi: MADT: 2 CPUs (APIC ids 0 1), LAPIC at 0xfee00000, "
		     "IOAPIC id 0 at 0xfec00000 GSI 0, 5 overrides\n"));
}

/* ---- RSDP ---------------------------------------------------------------------------- */

UNIT_TEST(rsdp_v1_checksum)
{
	make_rsdp(0, 0x1234, 0);
	CHECK(acpi_rsdp_valid(rsdp, 20));
	CHECK(acpi_rsdp_valid(rsdp, 36));	/* revision 0: bytes 20-35 are not the RSDP's */
	CHECK(!acpi_rsdp_valid(rsdp, 19));
	rsdp[16] ^= 1;
	CHECK(!acpi_rsdp_valid(rsdp, 20));
	make_rsdp(0, 0x1234, 0);
	rsdp[0] = 'r';
	rsdp[8] -= 'r' - 'R';			/* checksum right, signature wrong */
	CHECK(!acpi_rsdp_valid(rsdp, 20));
}

UNIT_TEST(rsdp_v2_extended_checksum)
{
	make_rsdp(2, 0x1234, 0x123456789ull);
	CHECK(acpi_rsdp_valid(rsdp, 36));
	rsdp[33] ^= 1;				/* reserved: only the extended checksum covers it */
	CHECK(!acpi_rsdp_valid(rsdp, 36));
	CHECK(acpi_rsdp_valid(rsdp, 20));	/* the loader's 20-byte copy: RSDT part only */
}

UNIT_TEST(rsdp_scan_on_16_byte_boundaries)
{
	static u8 area[256];
	size_t len = 0;

	memset(area, 0, sizeof(area));
	CHECK(acpi_rsdp_find(area, sizeof(area), &len) == NULL);
	make_rsdp(2, 0x1234, 0x5678);
	memcpy(area + 8, rsdp, 36);		/* valid, but not on a boundary */
	memcpy(area + 64, rsdp, 36);
	area[64 + 16] ^= 1;			/* on a boundary, bad checksum */
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
	CHECK(logged("acpi: RSDP revision 0 (OEM 'BOCHS '), RSDT at %#lx lists 3 tables\n",
		     PHYS_BASE + mem_used - 36 - 12));
	CHECK(logged("acpi: FADT: PM timer port 0x608 (24-bit), PM1a_CNT 0x604, reset 0x6 to port 0xcf9, "
		     "DSDT at %#lx\n", PHYS_BASE));
	CHECK(logged("acpi: DSDT: \\_S5 SLP_TYPa 0 SLP_TYPb 0\n"));
	CHECK(logged("acpi: HPET: at 0xfed00000, 3 comparators\n"));
	CHECK(!strstr(log_text, "skipped"));
}

UNIT_TEST(v2_rsdp_uses_the_xsdt)
{
	u64 tables[3];

	reset();
	int n = standard_tables(tables);
	u64 rsdt = root_table(4, tables + 2, 1);	/* the HPET only: shows which root was read */
	u64 xsdt = root_table(8, tables, n);
	make_rsdp(2, (u32)rsdt, xsdt);
	parse(36);
	CHECK_EQ(info.revision, 2);
	check_standard_madt();
	CHECK(info.has_s5);
	CHECK(logged("XSDT at %#lx lists 3 tables", xsdt));

	reset();
	n = standard_tables(tables);
	rsdt = root_table(4, tables + 2, 1);
	make_rsdp(2, (u32)rsdt, root_table(8, tables, n));
	parse(20);				/* only the ACPI 1.0 part given */
	CHECK_EQ(info.ncpus, 0);
	CHECK_EQ(info.hpet_address, 0xfed00000);

	reset();
	n = standard_tables(tables);
	make_rsdp(2, (u32)root_table(4, tables, n), 0);	/* no XSDT */
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
	CHECK(logged("acpi: XSDT at %#lx has a bad checksum; skipped\n", xsdt));
	CHECK(logged("RSDT at %#lx lists 3 tables", rsdt));
	CHECK_EQ(info.ncpus, 2);
}

UNIT_TEST(unusable_root_table)
{
	reset();
	u64 bogus = table("FACP", (const u8 *)"", 0);
	make_rsdp(0, (u32)bogus, 0);
	parse(20);
	CHECK(logged("acpi: RSDT at %#lx has the signature 'FACP'; skipped\n", bogus));
	CHECK(logged("acpi: no usable RSDT or XSDT; the ACPI tables are ignored\n"));
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
	CHECK(logged("acpi: APIC at %#lx has a bad checksum; skipped\n", tables[1]));
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
	corrupt(PHYS_BASE);			/* the DSDT is placed first */
	boot_rsdt(tables, n);
	CHECK(logged("acpi: DSDT at %#lx has a bad checksum; skipped\n", PHYS_BASE));
	CHECK(!info.has_s5);
	CHECK_EQ(info.pm1a_control, 0x604);
}

UNIT_TEST(table_longer_than_memory)
{
	u64 tables[3];

	reset();
	int n = standard_tables(tables);
	u64 rsdt = root_table(4, tables, n);
	tables[1] = standard_madt();		/* now the last thing in memory */
	put32(at(rsdt) + 36 + 4, (u32)tables[1]);
	seal(rsdt);
	set_length(tables[1], (u32)(PHYS_BASE + mem_used - tables[1] + 64));
	make_rsdp(0, (u32)rsdt, 0);
	parse(20);
	CHECK(logged("acpi: APIC at %#lx: its %lu bytes cannot be mapped; skipped\n",
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
	tables[3] = 0x1000;			/* outside the fake memory */
	boot_rsdt(tables, 4);
	CHECK(logged("acpi: APIC at %#lx has an implausible length (35 bytes); skipped\n", tables[1]));
	CHECK(logged("acpi: HPET at %#lx has an implausible length (4294967295 bytes); skipped\n",
		     tables[2]));
	CHECK(logged("acpi: a table at 0x1000 cannot be mapped; skipped\n"));
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
	CHECK(logged("acpi: a second APIC table; ignored\n"));
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
	madt_lapic(0, 0, 1);			/* enabled */
	madt_lapic(1, 1, 0);			/* disabled */
	madt_lapic(2, 2, 2);			/* online capable */
	madt_lapic(3, 0xff, 1);			/* the broadcast id: a placeholder */
	madt_x2apic(300, 1);
	madt_x2apic(0, 1);			/* CPU 0 again, in x2APIC form */
	madt_x2apic(301, 0);			/* disabled */
	madt_ioapic(1, 0xfec00000, 0);
	madt_ioapic(2, 0xfec01000, 24);
	madt_override(0, 2, 0);			/* conforming: edge, active high */
	madt_override(9, 9, 0xd);		/* level, active high */
	madt_override(10, 10, 0xf);		/* level, active low */
	madt_override(11, 11, 0x3);		/* edge, active low */
	madt_override_bus(1, 12, 12, 0xf);	/* not ISA */
	madt_lapic_nmi();
	madt_x2apic_nmi();
	madt_raw(0x7f, 5, 3);			/* a type from the future */
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
	CHECK(logged("acpi: MADT: 2 CPUs (APIC ids 0 300(x2)) + 1 online-capable, not started, LAPIC at 0x100000000, "
		     "IOAPIC id 1 at 0xfec00000 GSI 0, IOAPIC id 2 at 0xfec01000 GSI 24, 4 overrides\n"));
	CHECK(!strstr(log_text, "acpi: MADT entry"));
}

UNIT_TEST(madt_zero_length_entry_stops_the_walk)
{
	reset();
	madt_begin(0xfee00000, 1);
	madt_lapic(0, 0, 1);
	madt_raw(0, 0, 6);
	madt_lapic(1, 1, 1);
	parse_madt_only();
	CHECK(logged("acpi: MADT entry of type 0 at offset 52 claims 0 bytes; the rest is ignored\n"));
	CHECK_EQ(info.ncpus, 1);
	CHECK(logged("acpi: MADT: 1 CPU (APIC ids 0), LAPIC at 0xfee00000, no IOAPIC, 0 overrides\n"));
}

UNIT_TEST(madt_entry_past_the_end_or_too_short)
{
	reset();
	madt_begin(0xfee00000, 1);
	madt_lapic(0, 0, 1);
	madt_raw(1, 8, 6);			/* an IOAPIC entry needs 12 bytes */
	madt_lapic(1, 1, 1);
	madt_raw(0, 20, 6);			/* claims 20, 8 left */
	parse_madt_only();
	CHECK(logged("acpi: MADT entry of type 1 has only 8 bytes; skipped\n"));
	CHECK(logged("acpi: MADT entry of type 0 at offset 68 claims 20 bytes; the rest is ignored\n"));
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
	CHECK(logged("acpi: MADT: more than 64 CPUs; id 65 ignored\n"));
}

UNIT_TEST(madt_too_short)
{
	reset();
	madt_begin(0xfee00000, 1);
	madt.n = 4;				/* no flags field */
	parse_madt_only();
	CHECK(logged("acpi: APIC of 40 bytes is too short (44 needed); skipped\n"));
	CHECK_EQ(info.lapic_address, 0);
}

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
	put32(fadt + F_DSDT, 0x1000);		/* outside the fake memory */
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
	CHECK(logged("acpi: FADT: PM timer port 0x408 (32-bit), PM1a_CNT 0x404, PM1b_CNT 0x504, "
		     "no reset register, DSDT at 0x1000\n"));
	CHECK(logged("acpi: DSDT table at 0x1000 cannot be mapped; skipped\n"));
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
	CHECK(logged("reset 0x42 to memory 0xfee1dead0"));
}

UNIT_TEST(fadt_64_bit_fields_absent_or_unusable)
{
	reset();
	memset(fadt, 0, sizeof(fadt));
	put32(fadt + F_DSDT, 0x2000);
	put32(fadt + F_PM1A_CNT, 0x404);
	put32(fadt + F_PM_TMR, 0x408);
	gas(fadt + F_RESET_REG, 1, 8, 0xcf9);	/* but RESET_REG_SUP is clear */
	fadt[F_RESET_VALUE] = 6;
	gas(fadt + F_X_PM_TMR, 0, 32, 0xfed00000);	/* memory space: not a port */
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
	CHECK(logged("acpi: FACP of 112 bytes is too short (116 needed); skipped\n"));
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
	static const u8 aml[] = { 0x08, '_', 'S', '5', '_', 0x12, 0x08, 0x04, 0x0a, 0x05, 0x0a, 0x07, 0x00, 0x00 };

	CHECK(s5(aml, sizeof(aml)));
	CHECK_EQ(typ_a, 5);
	CHECK_EQ(typ_b, 7);
}

UNIT_TEST(s5_as_zero_and_one)
{
	static const u8 aml[] = { 0x00, 0x08, '_', 'S', '5', '_', 0x12, 0x06, 0x04, 0x01, 0x00, 0x00, 0x00 };
	static const u8 rooted[] = { 0x08, '\\', '_', 'S', '5', '_', 0x12, 0x04, 0x02, 0x00, 0x01, 0x5b };

	CHECK(s5(aml, sizeof(aml)));
	CHECK_EQ(typ_a, 1);
	CHECK_EQ(typ_b, 0);
	CHECK(s5(rooted, sizeof(rooted)));
	CHECK_EQ(typ_a, 0);
	CHECK_EQ(typ_b, 1);
}

UNIT_TEST(s5_with_a_two_byte_package_length)
{
	u8 aml[5 + 1 + 16] = { 0x08, '_', 'S', '5', '_', 0x12, 0x40, 0x01, 0x04, 0x0a, 0x05, 0x0a, 0x06 };

	CHECK(s5(aml, sizeof(aml)));		/* PkgLength 0x10 covers the zero padding */
	CHECK_EQ(typ_a, 5);
	CHECK_EQ(typ_b, 6);
	CHECK(!s5(aml, sizeof(aml) - 1));	/* the package would end past the AML */
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
	static const u8 none[] = { 0x08, '_', 'S', '4', '_', 0x12, 0x06, 0x02, 0x0a, 0x03, 0x0a, 0x03 };
	/* Method(_S5) { Return (Zero) }: its PkgLength, 8, even looks like a NameOp */
	static const u8 method[] = { 0x14, 0x08, '_', 'S', '5', '_', 0x00, 0xa4, 0x00 };
	static const u8 word[] = { 0x08, '_', 'S', '5', '_', 0x12, 0x07, 0x02, 0x0b, 0x05, 0x00, 0x0a, 0x05 };
	static const u8 one_element[] = { 0x08, '_', 'S', '5', '_', 0x12, 0x04, 0x01, 0x0a, 0x05 };
	static const u8 cut[] = { 0x08, '_', 'S', '5', '_', 0x12, 0x06, 0x04, 0x0a };
	static const u8 cut_byte[] = { 0x08, '_', 'S', '5', '_', 0x12, 0x04, 0x02, 0x00, 0x0a };
	static const u8 bare[] = { 0x08, '_', 'S', '5', '_' };
	/* the package ends after one element; the next byte constant is not part of it */
	static const u8 short_pkg[] = { 0x08, '_', 'S', '5', '_', 0x12, 0x04, 0x02, 0x0a, 0x05, 0x0a, 0x06 };

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
	CHECK(logged("acpi: DSDT: no \\_S5 package found; no power off through ACPI\n"));
}

/* ---- HPET ------------------------------------------------------------------------------- */

UNIT_TEST(hpet_in_io_space_or_too_short)
{
	u64 t;

	reset();
	t = hpet_table(1, 0xfed00000);
	boot_rsdt(&t, 1);
	CHECK_EQ(info.hpet_address, 0);
	CHECK(logged("acpi: HPET registers not in memory (space 1, address 0xfed00000); ignored\n"));

	reset();
	t = table("HPET", (const u8 *)"\x01\xa2\x86\x80\x00\x40\x00\x00", 8);
	boot_rsdt(&t, 1);
	CHECK(logged("acpi: HPET of 44 bytes is too short (52 needed); skipped\n"));
	CHECK_EQ(info.hpet_address, 0);
}
