/*
 * fuzz_acpi.c - the ACPI table parsers (drivers/acpi_tables.c) on
 * arbitrary firmware memory: the input, after a mode byte, is physical
 * memory at FUZZ_PHYS_BASE with the RSDP at its start; tables are mapped
 * from it as exactly sized heap copies (ASan sees a read past what was
 * mapped), addresses outside it cannot be mapped. With the mode byte's
 * low bit set, checksums are made right on the way (the RSDP's, and each
 * mapping that is a whole table by its header's length), so the fuzzer
 * gets past them to the MADT, FADT, HPET and DSDT parsers; without it,
 * the checks themselves are fuzzed. The result must stay in its bounds.
 */
#include "tests/fuzz/fuzz_host.h"
#include "kernel/lib/vsprintf.c"
#include "drivers/acpi_tables.c"

#define FUZZ_PHYS_BASE 0x100000ul
#define MAX_MAPPINGS   1024

static const u8 *memory;
static size_t memory_len;
static bool sealing;
static void *mappings[MAX_MAPPINGS];
static int nmappings;

static void
seal(u8 *p, size_t len, size_t checksum_at)
{
	p[checksum_at] = 0;
	p[checksum_at] = (u8)-checksum(p, len);
}

static const void *
fuzz_map(u64 phys, u32 len)
{
	if (phys < FUZZ_PHYS_BASE || phys - FUZZ_PHYS_BASE > memory_len ||
	    len > memory_len - (phys - FUZZ_PHYS_BASE) || nmappings == MAX_MAPPINGS)
		return NULL;
	u8 *copy = fuzz_copy(memory + (phys - FUZZ_PHYS_BASE), len);
	u32 table_len;
	if (sealing && len >= sizeof(struct acpi_header)) {
		memcpy(&table_len, copy + offsetof(struct acpi_header, length), sizeof(table_len));
		if (table_len == len)
			seal(copy, len, offsetof(struct acpi_header, checksum));
	}
	mappings[nmappings++] = copy;
	return copy;
}

static void
check_bounds(const struct acpi_info *a)
{
	if (a->ncpus < 0 || a->ncpus > ACPI_MAX_CPUS || a->hotplug_cpus < 0 || a->nioapics < 0 ||
	    a->nioapics > ACPI_MAX_IOAPICS || a->noverrides < 0 ||
	    a->noverrides > ACPI_MAX_OVERRIDES || a->oem_id[6] != '\0')
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct acpi_info info;
	u8 rsdp[ACPI_RSDP_V2_LEN] = { 0 };
	size_t len;

	if (size < 1 + ACPI_RSDP_V1_LEN)
		return 0;
	sealing = data[0] & 1;
	u8 *mem = fuzz_copy(data + 1, size - 1);
	memory = mem;
	memory_len = size - 1;
	len = MIN(memory_len, sizeof(rsdp));
	memcpy(rsdp, memory, len);
	if (sealing) {
		memcpy(rsdp, "RSD PTR ", 8);
		seal(rsdp, ACPI_RSDP_V1_LEN, offsetof(struct acpi_rsdp, checksum));
		if (len == ACPI_RSDP_V2_LEN)
			seal(rsdp, ACPI_RSDP_V2_LEN, offsetof(struct acpi_rsdp, extended_checksum));
	}
	size_t found_len;
	(void)acpi_rsdp_find(mem, memory_len, &found_len); /* the BIOS-area scan */
	if (acpi_rsdp_valid(rsdp, len)) {
		acpi_parse_tables(rsdp, len, fuzz_map, &info);
		check_bounds(&info);
	}
	while (nmappings)
		free(mappings[--nmappings]);
	free(mem);
	return 0;
}
