/*
 * test_multiboot2.c - host tests for the multiboot2 information parser
 * (kernel/multiboot2.c).
 *
 * A small builder assembles information structures in memory (tags padded
 * to 8 bytes, an end tag, total_size filled in) and hands the parser a
 * malloc'd copy of exactly total_size bytes, so that any read past the
 * structure is caught by ASan. The well-formed cases check what each tag
 * turns into (command line, loader name, modules, memory map with 24-byte
 * and larger entries, RGB and EGA-text framebuffers, ACPI RSDP v1/v2, EFI
 * tags); the malformed ones check that each is refused with a message that
 * names the problem.
 */
#include "kernel/lib/types.h"
#include "tests/unit/unit.h"
#include "kernel/multiboot2.c"

/* ---- the builder ------------------------------------------------------------ */

static u8 stage[(BOOT_MAX_MMAP + 8) * 64 + 8192];
static size_t stage_len;
static void *last_info; /* freed by the next build */

static void
put32(size_t off, u32 v)
{
	memcpy(stage + off, &v, 4);
}

static void
mb_begin(void)
{
	memset(stage, 0, sizeof(stage));
	stage_len = 8; /* total_size and reserved */
}

/* A tag whose size field says `size` but which holds `len` payload bytes. */
static size_t
mb_tag_sized(u32 type, u32 size, const void *payload, size_t len)
{
	size_t at = stage_len;

	put32(at, type);
	put32(at + 4, size);
	if (len)
		memcpy(stage + at + 8, payload, len);
	stage_len = ALIGN_UP(at + 8 + len, 8);
	return at;
}

static size_t
mb_tag(u32 type, const void *payload, size_t len)
{
	return mb_tag_sized(type, 8 + len, payload, len);
}

static void
mb_string_tag(u32 type, const char *s)
{
	mb_tag(type, s, strlen(s) + 1);
}

/* A memory-map tag of n entries of entry_size bytes, each from ents[i]. */
static void
mb_mmap(u32 entry_size, const struct boot_mmap_entry *ents, int n)
{
	u8 payload[8 + BOOT_MAX_MMAP * 2 * 64];
	memset(payload, 0xee, sizeof(payload)); /* extra entry bytes are junk */
	memcpy(payload, &entry_size, 4);
	memset(payload + 4, 0, 4); /* entry_version */
	for (int i = 0; i < n; i++) {
		u8 *e = payload + 8 + (size_t)i * entry_size;
		memcpy(e, &ents[i].base, 8);
		memcpy(e + 8, &ents[i].len, 8);
		memcpy(e + 16, &ents[i].type, 4);
		memset(e + 20, 0, 4);
	}
	mb_tag(TAG_MMAP, payload, 8 + (size_t)n * entry_size);
}

static const struct boot_mmap_entry ram[] = {
	{ 0x0, 0x9fc00, MMAP_AVAILABLE },
	{ 0x9fc00, 0x400, MMAP_RESERVED },
	{ 0x100000, 0x7ee0000, MMAP_AVAILABLE },
	{ 0xfeffc000, 0x4000, MMAP_ACPI_NVS },
};

static void
mb_default_mmap(void)
{
	mb_mmap(24, ram, ARRAY_SIZE(ram));
}

static void
mb_end_tag(void)
{
	mb_tag(TAG_END, NULL, 0);
}

/* Writes total_size and returns an exactly sized heap copy of the structure. */
static void *
mb_finish_raw(u32 total_size)
{
	free(last_info);
	put32(0, total_size);
	last_info = malloc(stage_len);
	memcpy(last_info, stage, stage_len);
	return last_info;
}

static void *
mb_finish(void)
{
	mb_end_tag();
	return mb_finish_raw((u32)stage_len);
}

static struct boot_info bi;

static const char *
parse(const void *info)
{
	return mb2_parse(info, 0x10000, &bi);
}

/* Parses and expects failure with a message containing `what`. */
#define CHECK_REFUSED(info, what)                                                              \
	do {                                                                                   \
		const char *msg_ = parse(info);                                                \
		CHECK(msg_ != NULL);                                                           \
		if (msg_ && !strstr(msg_, what)) {                                             \
			printf("    %s:%d: message \"%s\" lacks \"%s\"\n", __FILE__, __LINE__, \
			       msg_, what);                                                    \
			unit_failures_in_test++;                                               \
		}                                                                              \
	} while (0)

/* ---- well-formed structures --------------------------------------------- */

UNIT_TEST(minimal_structure_with_memory_map)
{
	mb_begin();
	mb_default_mmap();
	void *info = mb_finish();

	CHECK(mb2_parse(info, 0x12345678, &bi) == NULL);
	CHECK_EQ(bi.info_phys, 0x12345678);
	CHECK_EQ(bi.info_size, 8 + 16 + 4 * 24 + 8);
	CHECK_EQ(bi.nmmap, 4);
	for (int i = 0; i < 4; i++) {
		CHECK_EQ(bi.mmap[i].base, ram[i].base);
		CHECK_EQ(bi.mmap[i].len, ram[i].len);
		CHECK_EQ(bi.mmap[i].type, ram[i].type);
	}
	CHECK_STR(bi.cmdline, "");
	CHECK_STR(bi.loader_name, "");
	CHECK_EQ(bi.nmodules, 0);
	CHECK(!bi.has_framebuffer);
	CHECK_EQ(bi.rsdp_revision, 0);
	CHECK(!bi.efi);
	CHECK(!bi.efi_boot_services);
}

UNIT_TEST(command_line_and_loader_name)
{
	mb_begin();
	mb_string_tag(TAG_CMDLINE, "loglevel=7 run=\"x y\"");
	mb_string_tag(TAG_LOADER_NAME, "GRUB 2.06");
	mb_default_mmap();
	CHECK(parse(mb_finish()) == NULL);
	CHECK_STR(bi.cmdline, "loglevel=7 run=\"x y\"");
	CHECK_STR(bi.loader_name, "GRUB 2.06");
}

UNIT_TEST(empty_command_line)
{
	mb_begin();
	mb_string_tag(TAG_CMDLINE, "");
	mb_default_mmap();
	CHECK(parse(mb_finish()) == NULL);
	CHECK_STR(bi.cmdline, "");
}

UNIT_TEST(long_strings_are_cut_to_fit)
{
	static char line[BOOT_CMDLINE_MAX + 100];
	char name[200];

	memset(line, 'c', sizeof(line) - 1);
	line[sizeof(line) - 1] = '\0';
	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	mb_begin();
	mb_string_tag(TAG_CMDLINE, line);
	mb_string_tag(TAG_LOADER_NAME, name);
	mb_default_mmap();
	CHECK(parse(mb_finish()) == NULL);
	CHECK_EQ(strlen(bi.cmdline), BOOT_CMDLINE_MAX - 1);
	CHECK_EQ(bi.cmdline[0], 'c');
	CHECK_EQ(strlen(bi.loader_name), sizeof(bi.loader_name) - 1);
}

UNIT_TEST(string_ending_at_the_tag_end_is_accepted)
{
	/* 8 payload bytes: the NUL is the tag's last byte and there is no padding. */
	mb_begin();
	mb_tag(TAG_CMDLINE, "seven!!", 8);
	mb_default_mmap();
	CHECK(parse(mb_finish()) == NULL);
	CHECK_STR(bi.cmdline, "seven!!");
}

/* A module tag: u32 start, u32 end, string. */
static void
mb_module(u32 start, u32 end, const char *s)
{
	u8 payload[300];
	size_t n = strlen(s) + 1;

	memcpy(payload, &start, 4);
	memcpy(payload + 4, &end, 4);
	memcpy(payload + 8, s, n);
	mb_tag(TAG_MODULE, payload, 8 + n);
}

UNIT_TEST(modules)
{
	char long_name[200];

	memset(long_name, 'm', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	mb_begin();
	mb_module(0x200000, 0x234567, "initrd.cpio");
	mb_module(0x300000, 0x300000, ""); /* empty module, empty string */
	mb_module(0x400000, 0x401000, long_name);
	mb_default_mmap();
	CHECK(parse(mb_finish()) == NULL);
	CHECK_EQ(bi.nmodules, 3);
	CHECK_EQ(bi.modules[0].start, 0x200000);
	CHECK_EQ(bi.modules[0].end, 0x234567);
	CHECK_STR(bi.modules[0].string, "initrd.cpio");
	CHECK_EQ(bi.modules[1].start, bi.modules[1].end);
	CHECK_STR(bi.modules[1].string, "");
	CHECK_EQ(strlen(bi.modules[2].string), sizeof(bi.modules[2].string) - 1);
}

UNIT_TEST(up_to_max_modules)
{
	mb_begin();
	for (int i = 0; i < BOOT_MAX_MODULES; i++)
		mb_module(0x1000000 + i * 0x1000, 0x1000000 + i * 0x1000 + 0x800, "m");
	mb_default_mmap();
	CHECK(parse(mb_finish()) == NULL);
	CHECK_EQ(bi.nmodules, BOOT_MAX_MODULES);
	CHECK_EQ(bi.modules[BOOT_MAX_MODULES - 1].start,
		 0x1000000 + (BOOT_MAX_MODULES - 1) * 0x1000);
}

UNIT_TEST(mmap_with_larger_entries)
{
	/* Entries may grow; the parser steps by entry_size and ignores the rest. */
	mb_begin();
	mb_mmap(40, ram, ARRAY_SIZE(ram));
	CHECK(parse(mb_finish()) == NULL);
	CHECK_EQ(bi.nmmap, 4);
	CHECK_EQ(bi.mmap[2].base, 0x100000);
	CHECK_EQ(bi.mmap[2].len, 0x7ee0000);
	CHECK_EQ(bi.mmap[3].type, MMAP_ACPI_NVS);
}

UNIT_TEST(several_mmap_tags_accumulate)
{
	mb_begin();
	mb_mmap(24, ram, 2);
	mb_mmap(32, ram + 2, 2);
	CHECK(parse(mb_finish()) == NULL);
	CHECK_EQ(bi.nmmap, 4);
	CHECK_EQ(bi.mmap[3].base, ram[3].base);
}

UNIT_TEST(up_to_max_mmap_entries)
{
	static struct boot_mmap_entry many[BOOT_MAX_MMAP];

	for (int i = 0; i < BOOT_MAX_MMAP; i++)
		many[i] = (struct boot_mmap_entry){ (u64)i << 20, 1 << 20, 1 + i % 5 };
	mb_begin();
	mb_mmap(24, many, BOOT_MAX_MMAP);
	CHECK(parse(mb_finish()) == NULL);
	CHECK_EQ(bi.nmmap, BOOT_MAX_MMAP);
	CHECK_EQ(bi.mmap[BOOT_MAX_MMAP - 1].base, (u64)(BOOT_MAX_MMAP - 1) << 20);
	CHECK_EQ(bi.mmap[BOOT_MAX_MMAP - 1].type, 1 + (BOOT_MAX_MMAP - 1) % 5);
}

UNIT_TEST(empty_mmap_tag_alone_is_no_memory_map)
{
	mb_begin();
	mb_mmap(24, NULL, 0);
	CHECK_REFUSED(mb_finish(), "no memory map");
}

UNIT_TEST(mmap_fragment_after_last_entry_is_not_read)
{
	/* 2 entries and 8 stray bytes: the fragment is no entry and is not read past. */
	u8 payload[8 + 2 * 24 + 8];

	memset(payload, 0, sizeof(payload));
	u32 es = 24;
	memcpy(payload, &es, 4);
	memcpy(payload + 8, &ram[0].base, 8);
	memcpy(payload + 16, &ram[0].len, 8);
	memcpy(payload + 24, &ram[0].type, 4);
	memcpy(payload + 32, &ram[2].base, 8);
	memcpy(payload + 40, &ram[2].len, 8);
	memcpy(payload + 48, &ram[2].type, 4);
	memset(payload + 56, 0x55, 8);
	mb_begin();
	mb_tag(TAG_MMAP, payload, sizeof(payload));
	CHECK(parse(mb_finish()) == NULL);
	CHECK_EQ(bi.nmmap, 2);
	CHECK_EQ(bi.mmap[1].base, ram[2].base);
}

/* A framebuffer tag as GRUB writes it: a u16 reserved, colour info at offset 32. */
static void
mb_framebuffer(u64 addr, u32 pitch, u32 width, u32 height, u8 bpp, u8 type, const u8 *colour,
	       size_t ncolour)
{
	u8 payload[64];

	memset(payload, 0, sizeof(payload));
	memcpy(payload, &addr, 8);
	memcpy(payload + 8, &pitch, 4);
	memcpy(payload + 12, &width, 4);
	memcpy(payload + 16, &height, 4);
	payload[20] = bpp;
	payload[21] = type;
	if (ncolour)
		memcpy(payload + 24, colour, ncolour);
	mb_tag(TAG_FRAMEBUFFER, payload, 24 + ncolour);
}

static const u8 xrgb8888[6] = { 16, 8, 8, 8, 0, 8 }; /* red, green, blue: pos, size */

UNIT_TEST(framebuffer_rgb)
{
	mb_begin();
	mb_framebuffer(0xfd000000, 4096, 1024, 768, 32, FB_TYPE_RGB, xrgb8888, 6);
	mb_default_mmap();
	CHECK(parse(mb_finish()) == NULL);
	CHECK(bi.has_framebuffer);
	CHECK_EQ(bi.fb.addr, 0xfd000000);
	CHECK_EQ(bi.fb.pitch, 4096);
	CHECK_EQ(bi.fb.width, 1024);
	CHECK_EQ(bi.fb.height, 768);
	CHECK_EQ(bi.fb.bpp, 32);
	CHECK_EQ(bi.fb.type, FB_TYPE_RGB);
	CHECK_EQ(bi.fb.red_pos, 16);
	CHECK_EQ(bi.fb.red_size, 8);
	CHECK_EQ(bi.fb.green_pos, 8);
	CHECK_EQ(bi.fb.green_size, 8);
	CHECK_EQ(bi.fb.blue_pos, 0);
	CHECK_EQ(bi.fb.blue_size, 8);
}

UNIT_TEST(framebuffer_rgb565_and_24bpp)
{
	static const u8 rgb565[6] = { 11, 5, 5, 6, 0, 5 };

	mb_begin();
	mb_framebuffer(0xe0000000, 1600, 800, 600, 16, FB_TYPE_RGB, rgb565, 6);
	mb_default_mmap();
	CHECK(parse(mb_finish()) == NULL);
	CHECK(bi.has_framebuffer);
	CHECK_EQ(bi.fb.red_pos, 11);
	CHECK_EQ(bi.fb.red_size, 5);
	CHECK_EQ(bi.fb.green_size, 6);
	CHECK_EQ(bi.fb.blue_size, 5);

	mb_begin();
	mb_framebuffer(0xe0000000, 2400, 800, 600, 24, FB_TYPE_RGB, xrgb8888, 6);
	mb_default_mmap();
	CHECK(parse(mb_finish()) == NULL);
	CHECK(bi.has_framebuffer);
}

UNIT_TEST(framebuffer_ega_text)
{
	mb_begin();
	mb_framebuffer(0xb8000, 160, 80, 25, 16, FB_TYPE_EGA_TEXT, NULL, 0);
	mb_default_mmap();
	CHECK(parse(mb_finish()) == NULL);
	CHECK(bi.has_framebuffer);
	CHECK_EQ(bi.fb.type, FB_TYPE_EGA_TEXT);
	CHECK_EQ(bi.fb.addr, 0xb8000);
	CHECK_EQ(bi.fb.width, 80);
	CHECK_EQ(bi.fb.height, 25);
	CHECK_EQ(bi.fb.red_size, 0);
}

UNIT_TEST(unusable_framebuffers_are_not_fatal_but_not_used)
{
	static const u8 palette[2] = { 0, 0 }; /* zero colours */
	struct {
		u32 pitch, width, height;
		u8 bpp, type;
	} bad[] = {
		{ 4096, 1024, 768, 8, FB_TYPE_RGB },  /* unsupported depth */
		{ 1024, 1024, 768, 32, FB_TYPE_RGB }, /* pitch shorter than a row */
		{ 0, 1024, 768, 32, FB_TYPE_RGB },
		{ 4096, 0, 768, 32, FB_TYPE_RGB },
		{ 4096, 1024, 0, 32, FB_TYPE_RGB },
		{ 1024, 1024, 768, 8, FB_TYPE_INDEXED }, /* palettes: not supported */
		{ 160, 80, 25, 16, 7 },			 /* unknown type */
	};

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		mb_begin();
		if (bad[i].type == FB_TYPE_RGB)
			mb_framebuffer(0xfd000000, bad[i].pitch, bad[i].width, bad[i].height,
				       bad[i].bpp, bad[i].type, xrgb8888, 6);
		else
			mb_framebuffer(0xfd000000, bad[i].pitch, bad[i].width, bad[i].height,
				       bad[i].bpp, bad[i].type, palette, 2);
		mb_default_mmap();
		CHECK(parse(mb_finish()) == NULL);
		CHECK(!bi.has_framebuffer);
	}
}

/* An ACPI RSDP: v1 is 20 bytes, v2 36; `mark` tells the copies apart. */
static void
mb_rsdp(int revision, u8 mark, const char *sig)
{
	u8 r[36];

	memset(r, mark, sizeof(r));
	memcpy(r, sig, 8);
	r[15] = revision == 1 ? 0 : 2;
	mb_tag(revision == 1 ? TAG_ACPI_OLD : TAG_ACPI_NEW, r, revision == 1 ? 20 : 36);
}

UNIT_TEST(acpi_rsdp_v1)
{
	mb_begin();
	mb_rsdp(1, 0x11, "RSD PTR ");
	mb_default_mmap();
	CHECK(parse(mb_finish()) == NULL);
	CHECK_EQ(bi.rsdp_revision, 1);
	CHECK(memcmp(bi.rsdp, "RSD PTR ", 8) == 0);
	CHECK_EQ(bi.rsdp[19], 0x11);
	CHECK_EQ(bi.rsdp[20], 0); /* only 20 bytes copied */
}

UNIT_TEST(acpi_rsdp_v2)
{
	mb_begin();
	mb_rsdp(2, 0x22, "RSD PTR ");
	mb_default_mmap();
	CHECK(parse(mb_finish()) == NULL);
	CHECK_EQ(bi.rsdp_revision, 2);
	CHECK(memcmp(bi.rsdp, "RSD PTR ", 8) == 0);
	CHECK_EQ(bi.rsdp[15], 2);
	CHECK_EQ(bi.rsdp[35], 0x22);
}

UNIT_TEST(acpi_rsdp_v2_wins_in_either_order)
{
	mb_begin();
	mb_rsdp(1, 0x11, "RSD PTR ");
	mb_rsdp(2, 0x22, "RSD PTR ");
	mb_default_mmap();
	CHECK(parse(mb_finish()) == NULL);
	CHECK_EQ(bi.rsdp_revision, 2);
	CHECK_EQ(bi.rsdp[19], 0x22);

	mb_begin();
	mb_rsdp(2, 0x22, "RSD PTR ");
	mb_rsdp(1, 0x11, "RSD PTR ");
	mb_default_mmap();
	CHECK(parse(mb_finish()) == NULL);
	CHECK_EQ(bi.rsdp_revision, 2);
	CHECK_EQ(bi.rsdp[19], 0x22);
	CHECK_EQ(bi.rsdp[35], 0x22);
}

UNIT_TEST(efi_tags)
{
	u64 st = 0x7f000000;

	mb_begin();
	mb_tag(TAG_EFI64, &st, 8);
	mb_default_mmap();
	CHECK(parse(mb_finish()) == NULL);
	CHECK(bi.efi);
	CHECK(!bi.efi_boot_services);

	mb_begin();
	mb_tag(TAG_EFI32, &st, 4);
	mb_tag(TAG_EFI_BS_NOT_EXITED, NULL, 0);
	mb_default_mmap();
	CHECK(parse(mb_finish()) == NULL);
	CHECK(bi.efi);
	CHECK(bi.efi_boot_services);
}

UNIT_TEST(unknown_tags_and_odd_sizes_are_skipped)
{
	u8 junk[13];

	memset(junk, 0xab, sizeof(junk));
	mb_begin();
	mb_tag(99, junk, 5); /* size 13: the next tag is 8-aligned */
	mb_tag(TAG_BASIC_MEMINFO, junk, 8);
	mb_string_tag(TAG_CMDLINE, "after");
	mb_tag(0x7fffffff, junk, 13);
	mb_default_mmap();
	CHECK(parse(mb_finish()) == NULL);
	CHECK_STR(bi.cmdline, "after");
	CHECK_EQ(bi.nmmap, 4);
}

UNIT_TEST(bytes_after_the_end_tag_are_ignored)
{
	mb_begin();
	mb_default_mmap();
	mb_end_tag();
	mb_string_tag(TAG_CMDLINE, "ignored");
	CHECK(parse(mb_finish_raw((u32)stage_len)) == NULL);
	CHECK_STR(bi.cmdline, "");
}

UNIT_TEST(a_second_parse_starts_afresh)
{
	mb_begin();
	mb_string_tag(TAG_CMDLINE, "first");
	mb_module(1, 2, "mod");
	mb_default_mmap();
	CHECK(parse(mb_finish()) == NULL);
	mb_begin();
	mb_mmap(24, ram, 1);
	CHECK(parse(mb_finish()) == NULL);
	CHECK_STR(bi.cmdline, "");
	CHECK_EQ(bi.nmodules, 0);
	CHECK_EQ(bi.nmmap, 1);
}

/* ---- malformed structures ------------------------------------------------ */

UNIT_TEST(null_pointer)
{
	bi.nmmap = 99;
	CHECK_REFUSED(NULL, "NULL");
	CHECK_EQ(bi.nmmap, 0); /* out is cleared either way */
}

UNIT_TEST(misaligned_address)
{
	mb_begin();
	mb_default_mmap();
	void *info = mb_finish();

	const char *msg = mb2_parse(info, 0x10004, &bi);
	CHECK(msg && strstr(msg, "aligned"));
	msg = mb2_parse(info, 0x10001, &bi);
	CHECK(msg && strstr(msg, "aligned"));
	CHECK(mb2_parse(info, 0x10008, &bi) == NULL);
}

UNIT_TEST(total_size_too_small)
{
	for (u32 total = 0; total < 16; total += 4) {
		mb_begin();
		stage_len = 16; /* the buffer itself is 16 bytes */
		CHECK_REFUSED(mb_finish_raw(total), "total size");
	}
	/* 8 bytes of buffer, total 8: the header alone. */
	mb_begin();
	CHECK_REFUSED(mb_finish_raw(8), "total size");
}

UNIT_TEST(total_size_huge)
{
	mb_begin();
	mb_default_mmap();
	mb_end_tag();
	CHECK_REFUSED(mb_finish_raw(MB2_MAX_INFO_SIZE + 8), "total size");
	CHECK_REFUSED(mb_finish_raw(0xffffffff), "total size");
}

UNIT_TEST(missing_end_tag)
{
	mb_begin();
	mb_default_mmap();
	CHECK_REFUSED(mb_finish_raw((u32)stage_len), "end tag");

	/* total_size cuts the end tag off. */
	mb_begin();
	mb_default_mmap();
	mb_end_tag();
	CHECK_REFUSED(mb_finish_raw((u32)stage_len - 8), "end tag");
}

UNIT_TEST(tag_overrunning_total_size)
{
	mb_begin();
	mb_default_mmap();
	mb_tag_sized(TAG_CMDLINE, 64, "short", 6); /* says 64, 16 remain */
	CHECK_REFUSED(mb_finish_raw((u32)stage_len), "overruns");

	mb_begin();
	mb_default_mmap();
	mb_tag_sized(77, 0xfffffff8, NULL, 0); /* size + offset wraps 32 bits */
	mb_end_tag();
	CHECK_REFUSED(mb_finish_raw((u32)stage_len), "overruns");

	/* The end tag itself claims to be longer than what is left. */
	mb_begin();
	mb_default_mmap();
	mb_tag_sized(TAG_END, 16, NULL, 0);
	CHECK_REFUSED(mb_finish_raw((u32)stage_len), "overruns");
}

UNIT_TEST(tag_smaller_than_its_header)
{
	for (u32 size = 0; size < 8; size++) {
		mb_begin();
		mb_default_mmap();
		mb_tag_sized(TAG_CMDLINE, size, NULL, 0);
		mb_end_tag();
		CHECK_REFUSED(mb_finish_raw((u32)stage_len), "tag");
	}
}

UNIT_TEST(mmap_tag_too_short)
{
	u32 es = 24;

	mb_begin();
	mb_tag(TAG_MMAP, &es, 4); /* no entry_version */
	CHECK_REFUSED(mb_finish(), "memory-map tag too short");
	mb_begin();
	mb_tag(TAG_MMAP, NULL, 0);
	CHECK_REFUSED(mb_finish(), "memory-map tag too short");
}

UNIT_TEST(mmap_truncated_by_total_size)
{
	mb_begin();
	mb_default_mmap();
	/* Cut the structure in the middle of the last entry. */
	CHECK_REFUSED(mb_finish_raw((u32)stage_len - 12), "overruns");
}

UNIT_TEST(mmap_bad_entry_size)
{
	static const u32 bad[] = { 0, 8, 16, 20, 28, 33 };

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		mb_begin();
		mb_mmap(24, ram, ARRAY_SIZE(ram));
		put32(8 + 8, bad[i]); /* the first tag's entry_size */
		CHECK_REFUSED(mb_finish(), "entry size");
	}
}

UNIT_TEST(mmap_entry_size_beyond_the_tag_is_not_read)
{
	/*
	 * An entry_size near 2^32 must not wrap the bounds check: with it,
	 * the tag holds no entry at all (and then there is no memory map).
	 */
	static const u32 huge[] = { 0xfffffff0, 0xfffffff8, 0x80000000 };

	for (size_t i = 0; i < ARRAY_SIZE(huge); i++) {
		u8 payload[8] = { 0 };
		memcpy(payload, &huge[i], 4);
		mb_begin();
		mb_tag(TAG_MMAP, payload, 8);
		CHECK_REFUSED(mb_finish(), "no memory map");
		CHECK_EQ(bi.nmmap, 0);
	}
}

UNIT_TEST(mmap_entry_wrapping_the_address_space)
{
	struct boot_mmap_entry wrap = { 0xfffffffffffff000ull, 0x2000, MMAP_AVAILABLE };

	mb_begin();
	mb_mmap(24, &wrap, 1);
	CHECK_REFUSED(mb_finish(), "wraps");
}

UNIT_TEST(too_many_mmap_entries)
{
	static struct boot_mmap_entry many[BOOT_MAX_MMAP + 1];

	for (int i = 0; i <= BOOT_MAX_MMAP; i++)
		many[i] = (struct boot_mmap_entry){ (u64)i << 20, 1 << 20, MMAP_AVAILABLE };
	mb_begin();
	mb_mmap(24, many, BOOT_MAX_MMAP + 1);
	CHECK_REFUSED(mb_finish(), "too many entries");

	/* Also when they come in two tags. */
	mb_begin();
	mb_mmap(24, many, BOOT_MAX_MMAP);
	mb_mmap(24, many, 1);
	CHECK_REFUSED(mb_finish(), "too many entries");
}

UNIT_TEST(too_many_modules)
{
	mb_begin();
	for (int i = 0; i <= BOOT_MAX_MODULES; i++)
		mb_module(0x1000000, 0x1001000, "m");
	mb_default_mmap();
	CHECK_REFUSED(mb_finish(), "too many modules");
}

UNIT_TEST(unterminated_strings)
{
	/* 8 bytes and no NUL: the string would run into whatever follows the tag. */
	mb_begin();
	mb_tag(TAG_CMDLINE, "abcdefgh", 8);
	mb_default_mmap();
	CHECK_REFUSED(mb_finish(), "command-line string is not terminated");

	mb_begin();
	mb_tag(TAG_CMDLINE, "abc", 3); /* the padding is zero, but not in the tag */
	mb_default_mmap();
	CHECK_REFUSED(mb_finish(), "command-line string is not terminated");

	mb_begin();
	mb_tag(TAG_CMDLINE, NULL, 0); /* no room for even a NUL */
	mb_default_mmap();
	CHECK_REFUSED(mb_finish(), "command-line string is not terminated");

	mb_begin();
	mb_tag(TAG_LOADER_NAME, "GRUB", 4);
	mb_default_mmap();
	CHECK_REFUSED(mb_finish(), "boot-loader name is not terminated");
}

UNIT_TEST(unterminated_string_as_the_last_bytes)
{
	/* The string tag is last and total_size ends with it: nothing after to read. */
	mb_begin();
	mb_default_mmap();
	mb_tag(TAG_LOADER_NAME, "LOADER!!", 8);
	CHECK_REFUSED(mb_finish_raw((u32)stage_len), "boot-loader name is not terminated");
}

UNIT_TEST(bad_modules)
{
	u8 payload[16] = { 0 };

	mb_begin();
	mb_module(0x300000, 0x2fffff, "backwards");
	mb_default_mmap();
	CHECK_REFUSED(mb_finish(), "module ends before it starts");

	mb_begin();
	mb_tag(TAG_MODULE, payload, 8); /* start and end, no string */
	mb_default_mmap();
	CHECK_REFUSED(mb_finish(), "module tag too short");

	memset(payload + 8, 'x', 8);
	mb_begin();
	mb_tag(TAG_MODULE, payload, 16); /* string without NUL */
	mb_default_mmap();
	CHECK_REFUSED(mb_finish(), "module string is not terminated");
}

UNIT_TEST(bad_rsdp)
{
	mb_begin();
	mb_rsdp(1, 0, "RSD PTX ");
	mb_default_mmap();
	CHECK_REFUSED(mb_finish(), "RSD PTR");

	mb_begin();
	mb_rsdp(2, 0, "rsd ptr ");
	mb_default_mmap();
	CHECK_REFUSED(mb_finish(), "RSD PTR");

	mb_begin();
	mb_tag(TAG_ACPI_NEW, "RSD PTR 0123456789AB", 20); /* a v1-sized v2 */
	mb_default_mmap();
	CHECK_REFUSED(mb_finish(), "RSDP tag too short");

	mb_begin();
	mb_tag(TAG_ACPI_OLD, "RSD PTR ", 8);
	mb_default_mmap();
	CHECK_REFUSED(mb_finish(), "RSDP tag too short");
}

UNIT_TEST(framebuffer_tag_too_short)
{
	u8 payload[24] = { 0 };

	mb_begin();
	mb_tag(TAG_FRAMEBUFFER, payload, 16);
	mb_default_mmap();
	CHECK_REFUSED(mb_finish(), "framebuffer tag too short");

	payload[21] = FB_TYPE_RGB;
	mb_begin();
	mb_tag(TAG_FRAMEBUFFER, payload, 24); /* RGB without colour info */
	mb_default_mmap();
	CHECK_REFUSED(mb_finish(), "RGB framebuffer tag too short");
}

UNIT_TEST(no_memory_map)
{
	mb_begin();
	mb_string_tag(TAG_CMDLINE, "console=serial");
	CHECK_REFUSED(mb_finish(), "no memory map");

	mb_begin();
	CHECK_REFUSED(mb_finish(), "no memory map"); /* just an end tag */
}
