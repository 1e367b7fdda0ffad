/*
 * multiboot2.c - parsing the multiboot2 boot information; see multiboot2.h.
 *
 * Layout (Multiboot2 spec §3.6): u32 total_size, u32 reserved, then tags,
 * each u32 type, u32 size (header included), padded to 8 bytes, ending
 * with a type-0 tag of size 8. Everything is checked against total_size
 * before it is read; strings must end inside their tag.
 */
#include "kernel/multiboot2.h"
#include "kernel/lib/unaligned.h"
#include "kernel/lib/string.h"

enum {
	TAG_END = 0,
	TAG_CMDLINE = 1,
	TAG_LOADER_NAME = 2,
	TAG_MODULE = 3,
	TAG_BASIC_MEMINFO = 4,
	TAG_MMAP = 6,
	TAG_FRAMEBUFFER = 8,
	TAG_EFI32 = 11,
	TAG_EFI64 = 12,
	TAG_ACPI_OLD = 14,
	TAG_ACPI_NEW = 15,
	TAG_EFI_BS_NOT_EXITED = 18,
};

struct tag {
	u32 type;
	u32 size;
};

/* Copies a string that must end (NUL) within len bytes. */
static bool
copy_string(char *dst, size_t dst_size, const u8 *src, size_t len)
{
	size_t n = strnlen((const char *)src, len);

	if (n == len)
		return false;
	if (n >= dst_size)
		n = dst_size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
	return true;
}

static const char *
parse_mmap(const u8 *t, u32 size, struct boot_info *bi)
{
	if (size < 16)
		return "memory-map tag too short";
	u32 entry_size = rd32(t + 8);
	if (entry_size < 24 || entry_size % 8)
		return "memory-map entry size is invalid";
	/* Not off + entry_size <= size: a huge entry_size would wrap the sum. */
	for (u32 off = 16; entry_size <= size - off; off += entry_size) {
		if (bi->nmmap == BOOT_MAX_MMAP)
			return "memory map has too many entries";
		struct boot_mmap_entry *e = &bi->mmap[bi->nmmap++];
		e->base = rd64(t + off);
		e->len = rd64(t + off + 8);
		e->type = rd32(t + off + 16);
		if (e->base + e->len < e->base)
			return "memory-map entry wraps around the address space";
	}
	return NULL;
}

static const char *
parse_module(const u8 *t, u32 size, struct boot_info *bi)
{
	if (size < 17)
		return "module tag too short";
	if (bi->nmodules == BOOT_MAX_MODULES)
		return "too many modules";
	struct boot_module *m = &bi->modules[bi->nmodules++];
	m->start = rd32(t + 8);
	m->end = rd32(t + 12);
	if (m->end < m->start)
		return "module ends before it starts";
	if (!copy_string(m->string, sizeof(m->string), t + 16, size - 16))
		return "module string is not terminated";
	return NULL;
}

static const char *
parse_framebuffer(const u8 *t, u32 size, struct boot_info *bi)
{
	if (size < 31)
		return "framebuffer tag too short";
	struct boot_framebuffer *fb = &bi->fb;
	fb->addr = rd64(t + 8);
	fb->pitch = rd32(t + 16);
	fb->width = rd32(t + 20);
	fb->height = rd32(t + 24);
	fb->bpp = t[28];
	fb->type = t[29];
	if (fb->type == FB_TYPE_RGB) {
		/*
		 * The colour info starts at offset 32: the spec's text shows a u8
		 * reserved field, but its multiboot2.h (and GRUB, which fills the
		 * tag from it) has a u16.
		 */
		if (size < 38)
			return "RGB framebuffer tag too short";
		fb->red_pos = t[32];
		fb->red_size = t[33];
		fb->green_pos = t[34];
		fb->green_size = t[35];
		fb->blue_pos = t[36];
		fb->blue_size = t[37];
	}
	/* Unusable geometry is not fatal: the console falls back to VGA text. */
	bi->has_framebuffer =
		fb->width && fb->height && fb->pitch &&
		(fb->type == FB_TYPE_EGA_TEXT ||
		 (fb->type == FB_TYPE_RGB && (fb->bpp == 32 || fb->bpp == 24 || fb->bpp == 16) &&
		  (u64)fb->pitch * 8 >= (u64)fb->width * fb->bpp));
	return NULL;
}

static const char *
parse_rsdp(const u8 *t, u32 size, int revision, struct boot_info *bi)
{
	u32 need = revision == 1 ? 20 : 36;

	if (size < 8 + need)
		return "ACPI RSDP tag too short";
	if (memcmp(t + 8, "RSD PTR ", 8) != 0)
		return "ACPI RSDP tag lacks the 'RSD PTR ' signature";
	/* Keep the newer one when the loader gives both. */
	if (revision > bi->rsdp_revision) {
		memcpy(bi->rsdp, t + 8, need);
		bi->rsdp_revision = revision;
	}
	return NULL;
}

static const char *
parse_tag(u32 type, const u8 *t, u32 size, struct boot_info *bi)
{
	switch (type) {
	case TAG_CMDLINE:
		if (!copy_string(bi->cmdline, sizeof(bi->cmdline), t + 8, size - 8))
			return "command-line string is not terminated";
		return NULL;
	case TAG_LOADER_NAME:
		if (!copy_string(bi->loader_name, sizeof(bi->loader_name), t + 8, size - 8))
			return "boot-loader name is not terminated";
		return NULL;
	case TAG_MODULE:
		return parse_module(t, size, bi);
	case TAG_MMAP:
		return parse_mmap(t, size, bi);
	case TAG_FRAMEBUFFER:
		return parse_framebuffer(t, size, bi);
	case TAG_ACPI_OLD:
		return parse_rsdp(t, size, 1, bi);
	case TAG_ACPI_NEW:
		return parse_rsdp(t, size, 2, bi);
	case TAG_EFI32:
	case TAG_EFI64:
		bi->efi = true;
		return NULL;
	case TAG_EFI_BS_NOT_EXITED:
		bi->efi_boot_services = true;
		return NULL;
	default:
		return NULL; /* tags we do not need */
	}
}

const char *
mb2_parse(const void *info, u64 info_phys, struct boot_info *bi)
{
	const u8 *base = info;

	memset(bi, 0, sizeof(*bi));
	if (!info)
		return "no boot information (NULL pointer)";
	if (info_phys % 8)
		return "boot information is not 8-byte aligned";
	u32 total = rd32(base);
	if (total < 16 || total > MB2_MAX_INFO_SIZE)
		return "boot information has an implausible total size";
	bi->info_phys = info_phys;
	bi->info_size = total;

	u32 off = 8;
	for (;;) {
		if (off + 8 > total)
			return "boot information ends without an end tag";
		u32 type = rd32(base + off);
		u32 size = rd32(base + off + 4);
		if (size < 8 || size > total - off)
			return "a boot-information tag overruns the structure";
		if (type == TAG_END)
			break;
		const char *err = parse_tag(type, base + off, size, bi);
		if (err)
			return err;
		off += (size + 7) & ~7u;
	}
	if (bi->nmmap == 0)
		return "the boot loader gave no memory map";
	return NULL;
}
