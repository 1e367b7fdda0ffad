/*
 * test_ksyms.c - host tests for symbol lookup (kernel/ksyms.c).
 *
 * ksym_lookup_in is tested on hand-built struct ksym_tables laid out as
 * tools/gensyms emits them (sorted addresses, offsets into one string
 * blob): addresses before the first symbol, at each start, inside, in the
 * last symbol up to text_end, at and after text_end, an empty table, a
 * single symbol and aliases (several names at one address). ksym_lookup
 * exists only in the kernel build, so this file defines one over `cur`,
 * the table under test, which ksym_format then uses.
 */
#include "kernel/lib/types.h"
#include "tests/unit/unit.h"
#include "kernel/ksyms.c"

static const u64 addrs[] = { 0x1000, 0x1040, 0x10c0, 0x1200 };
static const char names[] = "start_kernel\0memset\0do_page_fault\0idle_loop";
static const u32 name_offsets[] = { 0, 13, 20, 34 };
static const struct ksym_table table = {
	.count = 4,
	.addrs = addrs,
	.name_offsets = name_offsets,
	.names = names,
	.text_end = 0x1280,
};

static const struct ksym_table *cur = &table;

const char *
ksym_lookup(u64 addr, u64 *offset, u64 *size)
{
	return ksym_lookup_in(cur, addr, offset, size);
}

/* The name at addr, with offset and size; "-" when not found. */
static const char *
lookup(const struct ksym_table *t, u64 addr, u64 *offset, u64 *size)
{
	*offset = *size = 0xbad;
	const char *name = ksym_lookup_in(t, addr, offset, size);
	return name ? name : "-";
}

UNIT_TEST(table_is_what_gensyms_would_emit)
{
	for (u64 i = 0; i < table.count; i++) {
		if (i)
			CHECK(addrs[i - 1] < addrs[i]);
		CHECK(name_offsets[i] < sizeof(names));
	}
	CHECK_STR(names + name_offsets[3], "idle_loop");
}

UNIT_TEST(before_the_first_symbol)
{
	u64 off, size;

	CHECK_STR(lookup(&table, 0xfff, &off, &size), "-");
	CHECK_STR(lookup(&table, 0, &off, &size), "-");
	CHECK_EQ(off, 0xbad); /* untouched when not found */
	CHECK_EQ(size, 0xbad);
}

UNIT_TEST(exact_symbol_starts)
{
	static const char *const expect[] = { "start_kernel", "memset", "do_page_fault",
					      "idle_loop" };
	static const u64 sizes[] = { 0x40, 0x80, 0x140, 0x80 };
	u64 off, size;

	for (int i = 0; i < 4; i++) {
		CHECK_STR(lookup(&table, addrs[i], &off, &size), expect[i]);
		CHECK_EQ(off, 0);
		CHECK_EQ(size, sizes[i]);
	}
}

UNIT_TEST(inside_a_symbol)
{
	u64 off, size;

	CHECK_STR(lookup(&table, 0x1001, &off, &size), "start_kernel");
	CHECK_EQ(off, 1);
	CHECK_EQ(size, 0x40);
	CHECK_STR(lookup(&table, 0x103f, &off, &size), "start_kernel"); /* last byte */
	CHECK_EQ(off, 0x3f);
	CHECK_STR(lookup(&table, 0x105a, &off, &size), "memset");
	CHECK_EQ(off, 0x1a);
	CHECK_EQ(size, 0x80);
	CHECK_STR(lookup(&table, 0x11ff, &off, &size), "do_page_fault");
	CHECK_EQ(off, 0x13f);
	CHECK_EQ(size, 0x140);
}

UNIT_TEST(last_symbol_runs_to_text_end)
{
	u64 off, size;

	CHECK_STR(lookup(&table, 0x1200, &off, &size), "idle_loop");
	CHECK_STR(lookup(&table, 0x127f, &off, &size), "idle_loop");
	CHECK_EQ(off, 0x7f);
	CHECK_EQ(size, 0x80);
}

UNIT_TEST(at_and_after_text_end)
{
	u64 off, size;

	CHECK_STR(lookup(&table, 0x1280, &off, &size), "-");
	CHECK_STR(lookup(&table, 0x1281, &off, &size), "-");
	CHECK_STR(lookup(&table, ~0ull, &off, &size), "-");
}

UNIT_TEST(offset_and_size_pointers_are_optional)
{
	u64 off;

	CHECK_STR(ksym_lookup_in(&table, 0x1050, NULL, NULL), "memset");
	CHECK_STR(ksym_lookup_in(&table, 0x1050, &off, NULL), "memset");
	CHECK_EQ(off, 0x10);
}

UNIT_TEST(empty_table)
{
	/* gensyms --empty: count 0; nothing else may be read. */
	static const struct ksym_table empty = { .count = 0, .text_end = 0x2000 };
	u64 off, size;

	CHECK_STR(lookup(&empty, 0x1000, &off, &size), "-");
	CHECK_STR(lookup(&empty, 0, &off, &size), "-");
}

UNIT_TEST(single_symbol)
{
	static const u64 a[] = { 0x5000 };
	static const u32 o[] = { 0 };
	static const struct ksym_table one = {
		.count = 1,
		.addrs = a,
		.name_offsets = o,
		.names = "only",
		.text_end = 0x5010,
	};
	u64 off, size;

	CHECK_STR(lookup(&one, 0x4fff, &off, &size), "-");
	CHECK_STR(lookup(&one, 0x5000, &off, &size), "only");
	CHECK_STR(lookup(&one, 0x500f, &off, &size), "only");
	CHECK_EQ(off, 0xf);
	CHECK_EQ(size, 0x10);
	CHECK_STR(lookup(&one, 0x5010, &off, &size), "-");
}

/* Aliases: two names at 0x2000 and three at 0x2100 (e.g. weak + strong). */
static const u64 alias_addrs[] = { 0x2000, 0x2000, 0x2040, 0x2100, 0x2100, 0x2100 };
static const char alias_names[] = "a1\0a2\0b\0c1\0c2\0c3";
static const u32 alias_offsets[] = { 0, 3, 6, 8, 11, 14 };
static const struct ksym_table aliases = {
	.count = 6,
	.addrs = alias_addrs,
	.name_offsets = alias_offsets,
	.names = alias_names,
	.text_end = 0x2180,
};

UNIT_TEST(aliases_resolve_to_one_name_with_the_real_size)
{
	u64 off, size;

	/* The last of the names at an address: its size is to the next address, never 0. */
	CHECK_STR(lookup(&aliases, 0x2000, &off, &size), "a2");
	CHECK_EQ(off, 0);
	CHECK_EQ(size, 0x40);
	CHECK_STR(lookup(&aliases, 0x203f, &off, &size), "a2");
	CHECK_EQ(off, 0x3f);
	CHECK_STR(lookup(&aliases, 0x2040, &off, &size), "b");
	CHECK_EQ(size, 0xc0);
	CHECK_STR(lookup(&aliases, 0x2100, &off, &size), "c3");
	CHECK_EQ(size, 0x80);
	CHECK_STR(lookup(&aliases, 0x2150, &off, &size), "c3");
	CHECK_EQ(off, 0x50);
}

UNIT_TEST(every_address_finds_the_containing_symbol)
{
	/* Against a linear scan, over a bigger table so the search takes several steps. */
	static u64 big_addrs[100];
	static u32 big_offsets[100];
	static char big_names[100 * 8];
	struct ksym_table big = {
		.count = 100,
		.addrs = big_addrs,
		.name_offsets = big_offsets,
		.names = big_names,
	};
	u64 a = 0x10000;

	for (int i = 0; i < 100; i++) {
		big_addrs[i] = a;
		a += 0x10 + (u64)(i * 37 % 11) * 8;
		big_offsets[i] = (u32)(i * 8);
		snprintf(big_names + i * 8, 8, "f%u", (unsigned)i % 100);
	}
	big.text_end = a;
	for (u64 addr = 0xfff0; addr < a + 0x10; addr++) {
		int expect = -1;
		for (int i = 0; i < 100; i++)
			if (big_addrs[i] <= addr && addr < big.text_end)
				expect = i;
		u64 off, size;
		const char *name = ksym_lookup_in(&big, addr, &off, &size);
		if (expect < 0) {
			CHECK(name == NULL);
			continue;
		}
		CHECK(name == big_names + expect * 8);
		CHECK_EQ(off, addr - big_addrs[expect]);
		CHECK_EQ(size,
			 (expect < 99 ? big_addrs[expect + 1] : big.text_end) - big_addrs[expect]);
		if (unit_failures_in_test)
			break; /* one report is enough */
	}
}

UNIT_TEST(format_known_addresses)
{
	char buf[64];

	cur = &table;
	CHECK_EQ(ksym_format(0x105a, buf, sizeof(buf)), 16);
	CHECK_STR(buf, "memset+0x1a/0x80");
	CHECK_EQ(ksym_format(0x1000, buf, sizeof(buf)), 21);
	CHECK_STR(buf, "start_kernel+0x0/0x40");
	CHECK_EQ(ksym_format(0x127f, buf, sizeof(buf)), 19);
	CHECK_STR(buf, "idle_loop+0x7f/0x80");
}

UNIT_TEST(format_unknown_addresses)
{
	char buf[64];

	cur = &table;
	CHECK_EQ(ksym_format(0xfff, buf, sizeof(buf)), 5);
	CHECK_STR(buf, "0xfff");
	CHECK_EQ(ksym_format(0x1280, buf, sizeof(buf)), 6);
	CHECK_STR(buf, "0x1280");
	CHECK_EQ(ksym_format(0xffffffff80101234ull, buf, sizeof(buf)), 18);
	CHECK_STR(buf, "0xffffffff80101234");
	CHECK_EQ(ksym_format(0, buf, sizeof(buf)), 3);
	CHECK_STR(buf, "0x0");
}

UNIT_TEST(format_truncates_like_snprintf)
{
	char buf[8];

	cur = &table;
	CHECK_EQ(ksym_format(0x11ff, buf, sizeof(buf)), 25); /* do_page_fault+0x13f/0x140 */
	CHECK_STR(buf, "do_page");
	CHECK_EQ(ksym_format(0x1000, buf, 0), 21);
}
