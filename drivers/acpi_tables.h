/*
 * acpi_tables.h - the ACPI table parsers, kept apart from the hardware.
 *
 * They read physical memory only through a mapping function the caller
 * passes in: drivers/acpi.c gives them the firmware's tables, the host unit
 * tests (tests/unit/test_acpi.c) give them images built in memory, including
 * malformed ones.
 */
#ifndef REWIND_ACPI_TABLES_H
#define REWIND_ACPI_TABLES_H

#include "drivers/acpi.h"

#define ACPI_RSDP_V1_LEN 20 /* ACPI 1.0: up to the RSDT address */
#define ACPI_RSDP_V2_LEN 36 /* ACPI 2.0+: length, XSDT address, extended checksum */

/* A readable pointer to [phys, phys + len), or NULL when that cannot be mapped. */
typedef const void *(*acpi_map_fn)(u64 phys, u32 len);

/*
 * Whether the len bytes at p (20 or 36) hold an RSDP: signature and
 * checksum, and for a revision 2+ RSDP given with 36 bytes also the
 * extended checksum.
 */
bool acpi_rsdp_valid(const u8 *p, size_t len);

/*
 * The first valid RSDP on a 16-byte boundary within [area, area + size),
 * or NULL; *len is set to how many of its bytes lie in the area (20 to 36).
 */
const u8 *acpi_rsdp_find(const u8 *area, size_t size, size_t *len);

/*
 * Fills *out from everything reachable from a valid RSDP of len bytes: the
 * XSDT (or RSDT), MADT, FADT, HPET table and the DSDT's \_S5. Prints one
 * summary line per table; a table that fails its checks is reported by
 * signature and skipped.
 */
void acpi_parse_tables(const u8 *rsdp, size_t len, acpi_map_fn map, struct acpi_info *out);

#endif
