/*
 * multiboot2.h - what the boot loader told us, parsed and copied out of the
 * multiboot2 information structure into a struct boot_info.
 *
 * Copying means nothing later depends on where the loader put its tables,
 * and the parser is plain C over a byte buffer, so the host unit tests feed
 * it truncated and malformed structures.
 */
#ifndef REWIND_MULTIBOOT2_H
#define REWIND_MULTIBOOT2_H

#include "kernel/lib/types.h"

#define MB2_BOOT_MAGIC	  0x36d76289
#define MB2_MAX_INFO_SIZE (1u << 20)
#define BOOT_MAX_MMAP	  128
#define BOOT_MAX_MODULES  16
#define BOOT_CMDLINE_MAX  4096

/* Memory-map entry types (multiboot2 = ACPI/E820 numbering). */
enum {
	MMAP_AVAILABLE = 1,
	MMAP_RESERVED = 2,
	MMAP_ACPI_RECLAIMABLE = 3,
	MMAP_ACPI_NVS = 4,
	MMAP_BAD = 5,
};

struct boot_mmap_entry {
	u64 base;
	u64 len;
	u32 type;
};

struct boot_module {
	u64 start, end; /* physical, end exclusive */
	char string[128];
};

enum { FB_TYPE_INDEXED = 0, FB_TYPE_RGB = 1, FB_TYPE_EGA_TEXT = 2 };

struct boot_framebuffer {
	u64 addr; /* physical */
	u32 pitch, width, height;
	u8 bpp, type;
	u8 red_pos, red_size, green_pos, green_size, blue_pos, blue_size;
};

struct boot_info {
	u64 info_phys; /* where the structure itself lies */
	u32 info_size;
	char cmdline[BOOT_CMDLINE_MAX];
	char loader_name[64];
	struct boot_mmap_entry mmap[BOOT_MAX_MMAP];
	int nmmap;
	struct boot_module modules[BOOT_MAX_MODULES];
	int nmodules;
	bool has_framebuffer;
	struct boot_framebuffer fb;
	int rsdp_revision;	/* 0: none; 1: ACPI 1.0 RSDP; 2: ACPI 2.0+ */
	u8 rsdp[36];		/* as found: 20 bytes (v1) or 36 (v2) */
	bool efi;		/* booted by UEFI firmware (tags 11/12) */
	bool efi_boot_services; /* tag 18: the loader left them running */
};

/*
 * Parses the structure at `info` (physical address info_phys, needed only
 * to record it). Returns NULL on success, or a message naming what is
 * malformed or missing; `out` is then unusable.
 */
const char *mb2_parse(const void *info, u64 info_phys, struct boot_info *out);

#endif
