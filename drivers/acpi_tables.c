/*
 * acpi_tables.c - parsing the ACPI tables rewind uses; see acpi_tables.h.
 *
 * Layouts are from the ACPI specification: the RSDP points to the RSDT
 * (32-bit entries) or, from ACPI 2.0, the XSDT (64-bit entries); each entry
 * is the physical address of a table that starts with the 36-byte header
 * below, and all bytes of a table sum to 0 (mod 256). Tables are read as
 * packed structures, and no field is read before the table's length has
 * been checked to contain it.
 */
#include "drivers/acpi_tables.h"
#include "kernel/printk.h"
#include "kernel/lib/string.h"
#include "kernel/lib/vsprintf.h"

/* Anything longer is taken for garbage: the largest DSDTs are a few hundred KiB. */
#define ACPI_MAX_TABLE_LEN (16u << 20)

struct acpi_rsdp {
	char signature[8]; /* "RSD PTR " */
	u8 checksum;	   /* over the first 20 bytes */
	char oem_id[6];
	u8 revision; /* 0: ACPI 1.0; 2: ACPI 2.0 and later */
	u32 rsdt_address;
	u32 length; /* ACPI 2.0 and later from here */
	u64 xsdt_address;
	u8 extended_checksum; /* over the first 36 bytes */
	u8 reserved[3];
} __packed;

struct acpi_header {
	char signature[4];
	u32 length; /* of the whole table, this header included */
	u8 revision;
	u8 checksum;
	char oem_id[6];
	char oem_table_id[8];
	u32 oem_revision;
	u32 creator_id;
	u32 creator_revision;
} __packed;

/* Generic address structure: where a register is, in memory or I/O space. */
struct acpi_gas {
	u8 space;
	u8 bit_width;
	u8 bit_offset;
	u8 access_size;
	u64 address;
} __packed;

/* ---- MADT ("APIC"): processors and interrupt controllers ----------------- */

struct acpi_madt {
	struct acpi_header h;
	u32 lapic_address;
	u32 flags;
	u8 entries[]; /* each starts with u8 type, u8 length */
} __packed;

#define MADT_PCAT_COMPAT   (1u << 0) /* there are 8259s too */
#define CPU_ENABLED	   (1u << 0)
#define CPU_ONLINE_CAPABLE (1u << 1) /* disabled now, may be enabled later */
#define XAPIC_ID_INVALID   0xff

enum {
	MADT_LAPIC = 0,
	MADT_IOAPIC = 1,
	MADT_OVERRIDE = 2,
	MADT_LAPIC_ADDRESS = 5,
	MADT_X2APIC = 9,
};

struct madt_lapic {
	u8 type, length;
	u8 uid;
	u8 apic_id;
	u32 flags;
} __packed;

struct madt_ioapic {
	u8 type, length;
	u8 id;
	u8 reserved;
	u32 address;
	u32 gsi_base;
} __packed;

struct madt_override {
	u8 type, length;
	u8 bus;	   /* 0: ISA */
	u8 source; /* the ISA IRQ */
	u32 gsi;
	u16 flags; /* MPS INTI flags: polarity bits 0-1, trigger bits 2-3 */
} __packed;

#define INTI_POLARITY(f) ((f)&3)
#define INTI_TRIGGER(f)	 (((f) >> 2) & 3)
#define INTI_ACTIVE_LOW	 3 /* 0 and 1 mean active high for ISA, 2 is reserved */
#define INTI_LEVEL	 3 /* 0 and 1 mean edge for ISA, 2 is reserved */

struct madt_lapic_address {
	u8 type, length;
	u16 reserved;
	u64 address;
} __packed;

struct madt_x2apic {
	u8 type, length;
	u16 reserved;
	u32 x2apic_id;
	u32 flags;
	u32 uid;
} __packed;

/* ---- FADT ("FACP"): fixed hardware registers ---------------------------- */

struct acpi_fadt {
	struct acpi_header h;
	u32 firmware_ctrl;
	u32 dsdt;	  /* 40 */
	u8 unused1[20];	  /* SCI, SMI command port, PM1 event blocks */
	u32 pm1a_cnt_blk; /* 64 */
	u32 pm1b_cnt_blk;
	u32 pm2_cnt_blk;
	u32 pm_tmr_blk;		   /* 76 */
	u8 unused2[28];		   /* GPE blocks, block lengths, C-state latencies, RTC alarms */
	u8 century;		   /* 108: CMOS index of the RTC's century, 0 if none */
	u8 unused3[3];		   /* boot architecture flags */
	u32 flags;		   /* 112; an ACPI 1.0 FADT ends after it */
	struct acpi_gas reset_reg; /* 116 */
	u8 reset_value;		   /* 128 */
	u8 unused4[3];
	u64 x_firmware_ctrl;
	u64 x_dsdt; /* 140 */
	struct acpi_gas x_pm1a_evt_blk;
	struct acpi_gas x_pm1b_evt_blk;
	struct acpi_gas x_pm1a_cnt_blk; /* 172 */
	struct acpi_gas x_pm1b_cnt_blk; /* 184 */
	struct acpi_gas x_pm2_cnt_blk;
	struct acpi_gas x_pm_tmr_blk; /* 208 */
} __packed;

#define FADT_TMR_VAL_EXT   (1u << 8) /* the PM timer counts 32 bits, not 24 */
#define FADT_RESET_REG_SUP (1u << 10)
#define FADT_V1_LEN	   offsetof(struct acpi_fadt, reset_reg)

/* Whether a FADT of len bytes holds field: each revision appended to the last. */
#define FADT_HAS(len, field) \
	((len) >= offsetof(struct acpi_fadt, field) + sizeof(((struct acpi_fadt *)0)->field))
#define FADT_GAS(fadt, len, field) (FADT_HAS(len, field) ? &(fadt)->field : NULL)

/* ---- HPET ------------------------------------------------------------------ */

struct acpi_hpet {
	struct acpi_header h;
	u32 block_id; /* bits 8-12: number of comparators - 1 */
	struct acpi_gas base;
	u8 number;
	u16 min_tick;
	u8 page_protection;
} __packed;

/* ---- DSDT: the AML byte codes the \_S5 search recognises ----------------- */

#define AML_ZERO_OP	0x00
#define AML_ONE_OP	0x01
#define AML_NAME_OP	0x08
#define AML_BYTE_PREFIX 0x0a
#define AML_PACKAGE_OP	0x12
#define AML_ROOT_CHAR	'\\'

BUILD_BUG_ON(sizeof(struct acpi_rsdp) != 36);
BUILD_BUG_ON(sizeof(struct acpi_header) != 36);
BUILD_BUG_ON(sizeof(struct acpi_gas) != 12);
BUILD_BUG_ON(FADT_V1_LEN != 116);
BUILD_BUG_ON(offsetof(struct acpi_fadt, century) != 108);
BUILD_BUG_ON(offsetof(struct acpi_fadt, x_dsdt) != 140);
BUILD_BUG_ON(offsetof(struct acpi_fadt, x_pm_tmr_blk) != 208);
BUILD_BUG_ON(offsetof(struct acpi_hpet, base) != 40);

/* ---- checks common to all tables ------------------------------------------ */

static u8
checksum(const void *p, size_t len)
{
	const u8 *b = p;
	u8 sum = 0;

	for (size_t i = 0; i < len; i++)
		sum += b[i];
	return sum;
}

/* A signature as a string, printable even when the "table" is garbage. */
static void
signature_name(char name[5], const char *sig)
{
	for (int i = 0; i < 4; i++)
		name[i] = sig[i] >= 0x20 && sig[i] < 0x7f ? sig[i] : '?';
	name[4] = '\0';
}

/*
 * Maps the table at phys and checks it: its signature (when want is
 * given), a plausible length that can be mapped, its checksum. A failure is
 * reported by signature and gives NULL.
 */
static const struct acpi_header *
load_table(acpi_map_fn map, u64 phys, const char *want)
{
	const struct acpi_header *h = map(phys, sizeof(*h));
	char name[5];

	if (!h) {
		pr_warn("acpi: %s table at %#lx cannot be mapped; skipped\n", want ? want : "a",
			phys);
		return NULL;
	}
	signature_name(name, h->signature);
	if (want && memcmp(h->signature, want, 4) != 0) {
		pr_warn("acpi: %s at %#lx has the signature '%s'; skipped\n", want, phys, name);
		return NULL;
	}
	u32 len = h->length;
	if (len < sizeof(*h) || len > ACPI_MAX_TABLE_LEN) {
		pr_warn("acpi: %s at %#lx has an implausible length (%u bytes); skipped\n", name,
			phys, len);
		return NULL;
	}
	const struct acpi_header *t = map(phys, len);
	if (!t) {
		pr_warn("acpi: %s at %#lx: its %u bytes cannot be mapped; skipped\n", name, phys,
			len);
		return NULL;
	}
	if (checksum(t, len) != 0) {
		pr_warn("acpi: %s at %#lx has a bad checksum; skipped\n", name, phys);
		return NULL;
	}
	return t;
}

/* Whether table h holds at least need bytes; a shorter one is reported. */
static bool
long_enough(const struct acpi_header *h, size_t need)
{
	if (h->length >= need)
		return true;
	pr_warn("acpi: %.4s of %u bytes is too short (%zu needed); skipped\n", h->signature,
		h->length, need);
	return false;
}

/* Appends to a summary line; what does not fit is cut off. */
static void __printf(3, 4) line_add(char *line, size_t size, const char *fmt, ...)
{
	size_t n = strlen(line);
	va_list ap;

	va_start(ap, fmt);
	kvsnprintf(line + n, size - n, fmt, ap);
	va_end(ap);
}

/* ---- MADT ------------------------------------------------------------------- */

/* Whether an array holding n of at most max has room; a full one is reported. */
static bool
room_for(int n, int max, const char *what, u32 id)
{
	if (n < max)
		return true;
	pr_warn("acpi: MADT: more than %d %s; id %u ignored\n", max, what, id);
	return false;
}

static void
add_cpu(struct acpi_info *out, u32 apic_id, bool x2apic, u32 flags)
{
	/* An online-capable processor is not there until hot-plugged: Linux does not start it at boot either. */
	if (!(flags & CPU_ENABLED)) {
		out->hotplug_cpus += (flags & CPU_ONLINE_CAPABLE) != 0;
		return;
	}
	if (!x2apic && apic_id == XAPIC_ID_INVALID)
		return; /* the broadcast id: a placeholder entry */
	for (int i = 0; i < out->ncpus; i++)
		if (out->cpus[i].apic_id == apic_id)
			return; /* listed twice: as an xAPIC and as an x2APIC entry */
	if (room_for(out->ncpus, ACPI_MAX_CPUS, "CPUs", apic_id))
		out->cpus[out->ncpus++] = (struct acpi_cpu){ .apic_id = apic_id, .x2apic = x2apic };
}

static void
add_ioapic(struct acpi_info *out, const struct madt_ioapic *e)
{
	if (room_for(out->nioapics, ACPI_MAX_IOAPICS, "IOAPICs", e->id))
		out->ioapics[out->nioapics++] = (struct acpi_ioapic){
			.id = e->id,
			.address = e->address,
			.gsi_base = e->gsi_base,
		};
}

static void
add_override(struct acpi_info *out, const struct madt_override *e)
{
	if (e->bus != 0)
		return; /* ISA is the only bus overrides are defined for */
	if (room_for(out->noverrides, ACPI_MAX_OVERRIDES, "interrupt overrides", e->source))
		out->overrides[out->noverrides++] = (struct acpi_override){
			.isa_irq = e->source,
			.gsi = e->gsi,
			.active_low = INTI_POLARITY(e->flags) == INTI_ACTIVE_LOW,
			.level_triggered = INTI_TRIGGER(e->flags) == INTI_LEVEL,
		};
}

/* How long an entry of each type rewind reads must at least be. */
static const u8 madt_min_len[] = {
	[MADT_LAPIC] = sizeof(struct madt_lapic),
	[MADT_IOAPIC] = sizeof(struct madt_ioapic),
	[MADT_OVERRIDE] = sizeof(struct madt_override),
	[MADT_LAPIC_ADDRESS] = sizeof(struct madt_lapic_address),
	[MADT_X2APIC] = sizeof(struct madt_x2apic),
};

static void
madt_entry(const u8 *e, struct acpi_info *out)
{
	u8 type = e[0], len = e[1];

	if (type < ARRAY_SIZE(madt_min_len) && len < madt_min_len[type]) {
		pr_warn("acpi: MADT entry of type %u has only %u bytes; skipped\n", type, len);
		return;
	}
	switch (type) {
	case MADT_LAPIC:
		add_cpu(out, ((const struct madt_lapic *)e)->apic_id, false,
			((const struct madt_lapic *)e)->flags);
		break;
	case MADT_X2APIC:
		add_cpu(out, ((const struct madt_x2apic *)e)->x2apic_id, true,
			((const struct madt_x2apic *)e)->flags);
		break;
	case MADT_IOAPIC:
		add_ioapic(out, (const struct madt_ioapic *)e);
		break;
	case MADT_OVERRIDE:
		add_override(out, (const struct madt_override *)e);
		break;
	case MADT_LAPIC_ADDRESS:
		out->lapic_address = ((const struct madt_lapic_address *)e)->address;
		break;
	default:
		break; /* NMI wiring (types 3, 4, 0xa) and the rest: not needed */
	}
}

static void
print_madt(const struct acpi_info *a)
{
	char line[512] = "";

	line_add(line, sizeof(line), "%d CPU%s (APIC ids", a->ncpus, a->ncpus == 1 ? "" : "s");
	for (int i = 0; i < a->ncpus; i++)
		line_add(line, sizeof(line), " %u%s", a->cpus[i].apic_id,
			 a->cpus[i].x2apic ? "(x2)" : "");
	line_add(line, sizeof(line), ")");
	if (a->hotplug_cpus)
		line_add(line, sizeof(line), " + %d online-capable, not started", a->hotplug_cpus);
	line_add(line, sizeof(line), ", LAPIC at %#lx", a->lapic_address);
	for (int i = 0; i < a->nioapics; i++)
		line_add(line, sizeof(line), ", IOAPIC id %u at %#x GSI %u", a->ioapics[i].id,
			 a->ioapics[i].address, a->ioapics[i].gsi_base);
	line_add(line, sizeof(line), "%s, %d overrides", a->nioapics ? "" : ", no IOAPIC",
		 a->noverrides);
	pr_info("acpi: MADT: %s\n", line);
}

static void
parse_madt(const struct acpi_header *h, struct acpi_info *out)
{
	const struct acpi_madt *madt = (const void *)h;

	if (!long_enough(h, sizeof(*madt)))
		return;
	out->lapic_address = madt->lapic_address;
	out->has_8259 = madt->flags & MADT_PCAT_COMPAT;
	const u8 *e = madt->entries, *end = (const u8 *)h + h->length;
	while (end - e >= 2) {
		/* A length below 2 would never advance: firmware bugs must not hang the boot. */
		if (e[1] < 2 || e[1] > end - e) {
			pr_warn("acpi: MADT entry of type %u at offset %td claims %u bytes; the rest is ignored\n",
				e[0], e - (const u8 *)h, e[1]);
			break;
		}
		madt_entry(e, out);
		e += e[1];
	}
	print_madt(out);
}

/* ---- FADT ------------------------------------------------------------------- */

/*
 * An I/O port block from the 64-bit address when that is present and in
 * I/O space (ACPI 2.0+ says it takes precedence), else from the 32-bit
 * field; 0 when there is none.
 */
static u16
fadt_port(const struct acpi_gas *x, u32 legacy)
{
	if (x && x->space == ACPI_SPACE_IO && x->address && x->address <= 0xffff)
		return (u16)x->address;
	return legacy <= 0xffff ? (u16)legacy : 0;
}

static void
set_reset_reg(const struct acpi_gas *r, u8 value, struct acpi_info *out)
{
	/* PCI configuration space (2) is also allowed, but rare: left unsupported. */
	if (!r->address || (r->space != ACPI_SPACE_MEMORY && r->space != ACPI_SPACE_IO) ||
	    (r->space == ACPI_SPACE_IO && r->address > 0xffff))
		return;
	out->has_reset_reg = true;
	out->reset_space = r->space;
	out->reset_address = r->address;
	out->reset_value = value;
}

static void
print_fadt(const struct acpi_info *a)
{
	char line[256] = "";

	if (a->pm_timer_port)
		line_add(line, sizeof(line), "PM timer port %#x (%s-bit)", a->pm_timer_port,
			 a->pm_timer_32bit ? "32" : "24");
	else
		line_add(line, sizeof(line), "no PM timer");
	line_add(line, sizeof(line), ", PM1a_CNT %#x", a->pm1a_control);
	if (a->pm1b_control)
		line_add(line, sizeof(line), ", PM1b_CNT %#x", a->pm1b_control);
	if (a->has_reset_reg)
		line_add(line, sizeof(line), ", reset %#x to %s %#lx", a->reset_value,
			 a->reset_space == ACPI_SPACE_IO ? "port" : "memory", a->reset_address);
	else
		line_add(line, sizeof(line), ", no reset register");
	line_add(line, sizeof(line), ", DSDT at %#lx", a->dsdt_address);
	pr_info("acpi: FADT: %s\n", line);
}

static void
parse_fadt(const struct acpi_header *h, struct acpi_info *out)
{
	const struct acpi_fadt *f = (const void *)h;
	u32 len = h->length;

	if (!long_enough(h, FADT_V1_LEN))
		return;
	out->pm_timer_port = fadt_port(FADT_GAS(f, len, x_pm_tmr_blk), f->pm_tmr_blk);
	out->pm_timer_32bit = f->flags & FADT_TMR_VAL_EXT;
	out->pm1a_control = fadt_port(FADT_GAS(f, len, x_pm1a_cnt_blk), f->pm1a_cnt_blk);
	out->pm1b_control = fadt_port(FADT_GAS(f, len, x_pm1b_cnt_blk), f->pm1b_cnt_blk);
	out->dsdt_address = FADT_HAS(len, x_dsdt) && f->x_dsdt ? f->x_dsdt : f->dsdt;
	out->rtc_century_index = f->century;
	if ((f->flags & FADT_RESET_REG_SUP) && FADT_HAS(len, reset_value))
		set_reset_reg(&f->reset_reg, f->reset_value, out);
	print_fadt(out);
}

/* ---- HPET ------------------------------------------------------------------- */

static void
parse_hpet(const struct acpi_header *h, struct acpi_info *out)
{
	const struct acpi_hpet *t = (const void *)h;

	if (!long_enough(h, offsetof(struct acpi_hpet, number)))
		return;
	if (t->base.space != ACPI_SPACE_MEMORY || !t->base.address) {
		pr_warn("acpi: HPET registers not in memory (space %u, address %#lx); ignored\n",
			t->base.space, t->base.address);
		return;
	}
	out->hpet_address = t->base.address;
	pr_info("acpi: HPET: at %#lx, %u comparators\n", out->hpet_address,
		((t->block_id >> 8) & 0x1f) + 1);
}

/* ---- DSDT: \_S5 --------------------------------------------------------------- */

/*
 * Decodes the PkgLength at p (n bytes there): the lead byte's top two bits
 * count the bytes that follow; with none, its low 6 bits are the length,
 * else its low 4 bits and 8 more bits per following byte. Returns the
 * PkgLength's own size, or 0 when it does not fit in n.
 */
static size_t
pkg_length(const u8 *p, size_t n, size_t *value)
{
	size_t follow = p[0] >> 6;

	if (n < 1 + follow)
		return 0;
	if (!follow) {
		*value = p[0] & 0x3f;
		return 1;
	}
	*value = p[0] & 0x0f;
	for (size_t k = 1; k <= follow; k++)
		*value |= (size_t)p[k] << (4 + 8 * (k - 1));
	return 1 + follow;
}

/* Reads an integer constant that fits a byte at p[*at] (below n), and steps past it. */
static bool
aml_byte_const(const u8 *p, size_t n, size_t *at, u8 *out)
{
	if (*at >= n)
		return false;
	switch (p[*at]) {
	case AML_ZERO_OP:
	case AML_ONE_OP:
		*out = p[*at];
		*at += 1;
		return true;
	case AML_BYTE_PREFIX:
		if (*at + 1 >= n)
			return false;
		*out = p[*at + 1];
		*at += 2;
		return true;
	default:
		return false; /* a wider integer or an expression */
	}
}

/* SLP_TYPa and SLP_TYPb: the first two elements of the Package at p (n bytes there). */
static bool
read_s5_package(const u8 *p, size_t n, u8 *typ_a, u8 *typ_b)
{
	size_t pkglen, size;

	if (n < 2 || p[0] != AML_PACKAGE_OP)
		return false;
	size = pkg_length(p + 1, n - 1, &pkglen);
	if (!size || pkglen > n - 1)
		return false;
	n = 1 + pkglen; /* PkgLength counts from itself: the elements lie within */
	size_t at = 1 + size;
	if (at >= n || p[at] < 2) /* NumElements */
		return false;
	at++;
	return aml_byte_const(p, n, &at, typ_a) && aml_byte_const(p, n, &at, typ_b);
}

/* Whether the name at aml[i] is the one a NameOp declares, also as \_S5_. */
static bool
follows_name_op(const u8 *aml, size_t i)
{
	if (aml[i - 1] == AML_NAME_OP)
		return true;
	return i >= 2 && aml[i - 1] == AML_ROOT_CHAR && aml[i - 2] == AML_NAME_OP;
}

/*
 * Finds Name(_S5, Package() { SLP_TYPa, SLP_TYPb, ... }) in the DSDT's AML
 * by its byte pattern, as small kernels do. This is not an AML interpreter:
 * an _S5 computed by a method, or whose elements are not byte constants,
 * is not found, and power off through S5 is then unavailable.
 */
static bool
find_s5(const u8 *aml, size_t len, u8 *typ_a, u8 *typ_b)
{
	for (size_t i = 1; i + 4 <= len; i++)
		if (memcmp(aml + i, "_S5_", 4) == 0 && follows_name_op(aml, i) &&
		    read_s5_package(aml + i + 4, len - i - 4, typ_a, typ_b))
			return true;
	return false;
}

static void
parse_dsdt(const struct acpi_header *h, struct acpi_info *out)
{
	const u8 *aml = (const u8 *)h + sizeof(*h);

	out->has_s5 = find_s5(aml, h->length - sizeof(*h), &out->s5_typ_a, &out->s5_typ_b);
	if (out->has_s5)
		pr_info("acpi: DSDT: \\_S5 SLP_TYPa %u SLP_TYPb %u\n", out->s5_typ_a,
			out->s5_typ_b);
	else
		pr_warn("acpi: DSDT: no \\_S5 package found; no power off through ACPI\n");
}

/* ---- the root table ----------------------------------------------------------- */

/* The tables read here; any other is only checked. */
static const struct {
	char signature[5];
	void (*parse)(const struct acpi_header *h, struct acpi_info *out);
} parsers[] = {
	{ "APIC", parse_madt },
	{ "FACP", parse_fadt },
	{ "HPET", parse_hpet },
};

static void
dispatch(const struct acpi_header *h, bool seen[], struct acpi_info *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(parsers); i++) {
		if (memcmp(h->signature, parsers[i].signature, 4) != 0)
			continue;
		if (seen[i])
			pr_warn("acpi: a second %s table; ignored\n", parsers[i].signature);
		else
			parsers[i].parse(h, out);
		seen[i] = true;
		return;
	}
}

/* The XSDT when the RSDP has one; else, or when the XSDT is bad, the RSDT (same tables). */
static const struct acpi_header *
load_root(const struct acpi_rsdp *rsdp, size_t len, acpi_map_fn map, u64 *phys)
{
	if (rsdp->revision >= 2 && len >= ACPI_RSDP_V2_LEN && rsdp->xsdt_address) {
		const struct acpi_header *xsdt = load_table(map, rsdp->xsdt_address, "XSDT");
		if (xsdt) {
			*phys = rsdp->xsdt_address;
			return xsdt;
		}
	}
	*phys = rsdp->rsdt_address;
	return rsdp->rsdt_address ? load_table(map, rsdp->rsdt_address, "RSDT") : NULL;
}

bool
acpi_rsdp_valid(const u8 *p, size_t len)
{
	const struct acpi_rsdp *r = (const void *)p;

	if (len < ACPI_RSDP_V1_LEN || memcmp(r->signature, "RSD PTR ", 8) != 0 ||
	    checksum(p, ACPI_RSDP_V1_LEN) != 0)
		return false;
	/* Given only 20 bytes (the loader's ACPI 1.0 copy), the RSDT part is all there is. */
	return r->revision < 2 || len < ACPI_RSDP_V2_LEN || checksum(p, ACPI_RSDP_V2_LEN) == 0;
}

const u8 *
acpi_rsdp_find(const u8 *area, size_t size, size_t *len)
{
	for (size_t off = 0; off + ACPI_RSDP_V1_LEN <= size; off += 16) {
		size_t n = MIN(size - off, (size_t)ACPI_RSDP_V2_LEN);
		if (acpi_rsdp_valid(area + off, n)) {
			*len = n;
			return area + off;
		}
	}
	return NULL;
}

void
acpi_parse_tables(const u8 *p, size_t len, acpi_map_fn map, struct acpi_info *out)
{
	const struct acpi_rsdp *rsdp = (const void *)p;
	bool seen[ARRAY_SIZE(parsers)] = { false };
	u64 root_phys;

	memset(out, 0, sizeof(*out));
	out->present = true;
	out->revision = rsdp->revision;
	memcpy(out->oem_id, rsdp->oem_id, sizeof(rsdp->oem_id));
	const struct acpi_header *root = load_root(rsdp, len, map, &root_phys);
	if (!root) {
		pr_warn("acpi: no usable RSDT or XSDT; the ACPI tables are ignored\n");
		return;
	}
	size_t entry_size = root->signature[0] == 'X' ? 8 : 4;
	u32 n = (u32)((root->length - sizeof(*root)) / entry_size);
	pr_info("acpi: RSDP revision %d (OEM '%s'), %.4s at %#lx lists %u tables\n", out->revision,
		out->oem_id, root->signature, root_phys, n);
	for (u32 i = 0; i < n; i++) {
		u64 phys = 0;
		/* 4- or 8-byte little-endian entries, unaligned in the XSDT */
		memcpy(&phys, (const u8 *)root + sizeof(*root) + i * entry_size, entry_size);
		const struct acpi_header *h = phys ? load_table(map, phys, NULL) : NULL;
		if (h)
			dispatch(h, seen, out);
	}
	if (out->dsdt_address) {
		const struct acpi_header *dsdt = load_table(map, out->dsdt_address, "DSDT");
		if (dsdt)
			parse_dsdt(dsdt, out);
	}
}
