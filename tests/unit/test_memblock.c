/*
 * test_memblock.c - host tests for the boot-time physical range allocator
 * (mm/memblock.c).
 *
 * memblock only does arithmetic on addresses, so plain structs suffice.
 * Every test checks the invariant memblock.c documents (free[] sorted,
 * page-aligned, non-empty, not touching) besides the exact ranges expected.
 * Covers adding (page rounding, merging with neighbours on either side or
 * both, overlap), reserving (whole ranges, heads, tails, holes, spans),
 * allocation (highest fit below the limit, alignment, failure), free-byte
 * accounting and the overflow flag when the table runs out of slots.
 */
#include "kernel/lib/types.h"
#include "tests/unit/unit.h"
#include "mm/memblock.c"

#define K 0x400ul
#define M 0x100000ul
#define P PAGE_SIZE

static struct memblock mb;

static bool
invariant_holds(const struct memblock *m)
{
	for (int i = 0; i < m->nfree; i++) {
		const struct mem_range *r = &m->free[i];
		if (!IS_ALIGNED(r->start, P) || !IS_ALIGNED(r->end, P) || r->start >= r->end)
			return false;
		if (i > 0 && m->free[i - 1].end >= r->start)
			return false;
	}
	return m->nfree >= 0 && m->nfree <= MEMBLOCK_MAX_RANGES;
}

/* The free ranges as "[start,end) ..." in hex, to compare whole tables at once. */
static const char *
ranges(void)
{
	static char buf[4096];
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < mb.nfree; i++)
		n += snprintf(buf + n, sizeof(buf) - n, "%s[%lx,%lx)", i ? " " : "",
			      mb.free[i].start, mb.free[i].end);
	CHECK(invariant_holds(&mb));
	return buf;
}

static void
setup(void)
{
	memset(&mb, 0x5a, sizeof(mb)); /* reset must not rely on zeroed memory */
	memblock_reset(&mb);
}

UNIT_TEST(reset_empties_everything)
{
	setup();
	CHECK_EQ(mb.nfree, 0);
	CHECK_EQ(mb.ram_end, 0);
	CHECK_EQ(mb.ram_total, 0);
	CHECK(!mb.overflow);
	CHECK_EQ(memblock_free_bytes(&mb), 0);
	CHECK_EQ(memblock_alloc(&mb, P, P, ~0ul), 0);
}

UNIT_TEST(add_single_range)
{
	setup();
	memblock_add(&mb, 0x100000, 0x800000);
	CHECK_STR(ranges(), "[100000,800000)");
	CHECK_EQ(mb.ram_end, 0x800000);
	CHECK_EQ(mb.ram_total, 0x700000);
	CHECK_EQ(memblock_free_bytes(&mb), 0x700000);
}

UNIT_TEST(add_shrinks_to_whole_pages)
{
	setup();
	memblock_add(&mb, 0x1001, 0x5fff);
	CHECK_STR(ranges(), "[2000,5000)");
	CHECK_EQ(mb.ram_total, 0x3000);
	CHECK_EQ(mb.ram_end, 0x5000);
}

UNIT_TEST(add_of_less_than_a_page_is_dropped)
{
	setup();
	memblock_add(&mb, 0x1001, 0x1fff); /* inside one page */
	memblock_add(&mb, 0x1800, 0x2800); /* straddles a boundary, no whole page */
	memblock_add(&mb, 0x5000, 0x5000); /* empty */
	memblock_add(&mb, 0x9000, 0x8000); /* backwards */
	CHECK_EQ(mb.nfree, 0);
	CHECK_EQ(mb.ram_total, 0);
	CHECK_EQ(mb.ram_end, 0);
}

UNIT_TEST(add_keeps_ranges_sorted)
{
	setup();
	memblock_add(&mb, 0x50000, 0x60000);
	memblock_add(&mb, 0x10000, 0x20000);
	memblock_add(&mb, 0x90000, 0xa0000);
	memblock_add(&mb, 0x30000, 0x40000);
	CHECK_STR(ranges(), "[10000,20000) [30000,40000) [50000,60000) [90000,a0000)");
	CHECK_EQ(mb.ram_end, 0xa0000);
	CHECK_EQ(mb.ram_total, 0x40000);
	CHECK_EQ(memblock_free_bytes(&mb), 0x40000);
}

UNIT_TEST(adjacent_ranges_merge)
{
	setup();
	memblock_add(&mb, 0x10000, 0x20000);
	memblock_add(&mb, 0x20000, 0x30000); /* touches from above */
	CHECK_STR(ranges(), "[10000,30000)");
	memblock_add(&mb, 0x8000, 0x10000); /* touches from below */
	CHECK_STR(ranges(), "[8000,30000)");
	memblock_add(&mb, 0x2f800, 0x40000); /* rounds up to touch */
	CHECK_STR(ranges(), "[8000,40000)");
}

UNIT_TEST(range_bridging_two_neighbours_merges_all_three)
{
	setup();
	memblock_add(&mb, 0x1000, 0x2000);
	memblock_add(&mb, 0x3000, 0x4000);
	memblock_add(&mb, 0x2000, 0x3000);
	CHECK_STR(ranges(), "[1000,4000)");
	CHECK_EQ(memblock_free_bytes(&mb), 0x3000);
}

UNIT_TEST(range_bridging_with_more_ranges_around)
{
	setup();
	memblock_add(&mb, 0x1000, 0x2000);
	memblock_add(&mb, 0x5000, 0x6000);
	memblock_add(&mb, 0x7000, 0x8000);
	memblock_add(&mb, 0xa000, 0xb000);
	memblock_add(&mb, 0x6000, 0x7000); /* joins the middle two */
	CHECK_STR(ranges(), "[1000,2000) [5000,8000) [a000,b000)");
	memblock_add(&mb, 0x1800, 0xa800); /* swallows everything */
	CHECK_STR(ranges(), "[1000,b000)");
}

UNIT_TEST(overlapping_adds_merge)
{
	setup();
	memblock_add(&mb, 0x10000, 0x30000);
	memblock_add(&mb, 0x20000, 0x40000); /* overlaps the top */
	CHECK_STR(ranges(), "[10000,40000)");
	memblock_add(&mb, 0x8000, 0x18000); /* overlaps the bottom */
	CHECK_STR(ranges(), "[8000,40000)");
	memblock_add(&mb, 0x20000, 0x28000); /* inside */
	CHECK_STR(ranges(), "[8000,40000)");
	memblock_add(&mb, 0x8000, 0x40000); /* identical */
	CHECK_STR(ranges(), "[8000,40000)");
	memblock_add(&mb, 0x4000, 0x50000); /* around */
	CHECK_STR(ranges(), "[4000,50000)");
	CHECK_EQ(mb.ram_end, 0x50000);
	CHECK_EQ(memblock_free_bytes(&mb), 0x4c000);
}

UNIT_TEST(reserve_whole_range)
{
	setup();
	memblock_add(&mb, 0x10000, 0x20000);
	memblock_add(&mb, 0x30000, 0x40000);
	memblock_reserve(&mb, 0x10000, 0x20000);
	CHECK_STR(ranges(), "[30000,40000)");
	/* ram_* describe RAM, not what is free. */
	CHECK_EQ(mb.ram_total, 0x20000);
	CHECK_EQ(mb.ram_end, 0x40000);
}

UNIT_TEST(reserve_head_tail_and_hole)
{
	setup();
	memblock_add(&mb, 0x10000, 0x20000);
	memblock_reserve(&mb, 0x10000, 0x12000); /* head */
	CHECK_STR(ranges(), "[12000,20000)");
	memblock_reserve(&mb, 0x1e000, 0x20000); /* tail */
	CHECK_STR(ranges(), "[12000,1e000)");
	memblock_reserve(&mb, 0x15000, 0x17000); /* hole */
	CHECK_STR(ranges(), "[12000,15000) [17000,1e000)");
	CHECK_EQ(memblock_free_bytes(&mb), 0xa000);
}

UNIT_TEST(reserve_head_and_tail_reaching_outside)
{
	setup();
	memblock_add(&mb, 0x10000, 0x20000);
	memblock_reserve(&mb, 0x8000, 0x11000);	 /* starts below the range */
	memblock_reserve(&mb, 0x1f000, 0x30000); /* ends above it */
	CHECK_STR(ranges(), "[11000,1f000)");
}

UNIT_TEST(reserve_widens_to_whole_pages)
{
	setup();
	memblock_add(&mb, 0x10000, 0x20000);
	memblock_reserve(&mb, 0x14001, 0x14002); /* one byte takes its page */
	CHECK_STR(ranges(), "[10000,14000) [15000,20000)");
	memblock_reserve(&mb, 0x16fff, 0x17001); /* two bytes across a boundary */
	CHECK_STR(ranges(), "[10000,14000) [15000,16000) [18000,20000)");
}

UNIT_TEST(reserve_spanning_several_ranges)
{
	setup();
	memblock_add(&mb, 0x10000, 0x20000);
	memblock_add(&mb, 0x30000, 0x40000);
	memblock_add(&mb, 0x50000, 0x60000);
	memblock_add(&mb, 0x70000, 0x80000);
	memblock_reserve(&mb, 0x18000, 0x78000); /* tail, two whole, head */
	CHECK_STR(ranges(), "[10000,18000) [78000,80000)");
	CHECK_EQ(memblock_free_bytes(&mb), 0x10000);
}

UNIT_TEST(reserve_swallowing_consecutive_ranges)
{
	setup();
	memblock_add(&mb, 0x10000, 0x20000);
	memblock_add(&mb, 0x30000, 0x40000);
	memblock_add(&mb, 0x50000, 0x60000);
	memblock_reserve(&mb, 0x0, 0x100000);
	CHECK_EQ(mb.nfree, 0);
	CHECK_EQ(memblock_free_bytes(&mb), 0);
}

UNIT_TEST(reserve_of_free_gaps_changes_nothing)
{
	setup();
	memblock_add(&mb, 0x10000, 0x20000);
	memblock_add(&mb, 0x30000, 0x40000);
	memblock_reserve(&mb, 0x20000, 0x30000); /* exactly the gap */
	memblock_reserve(&mb, 0x0, 0x10000);
	memblock_reserve(&mb, 0x40000, 0x50000);
	memblock_reserve(&mb, 0x25000, 0x25000); /* empty */
	CHECK_STR(ranges(), "[10000,20000) [30000,40000)");
}

UNIT_TEST(reserve_twice_is_harmless)
{
	setup();
	memblock_add(&mb, 0x10000, 0x20000);
	memblock_reserve(&mb, 0x14000, 0x16000);
	memblock_reserve(&mb, 0x14000, 0x16000);
	memblock_reserve(&mb, 0x13000, 0x17000);
	CHECK_STR(ranges(), "[10000,13000) [17000,20000)");
}

UNIT_TEST(typical_boot_layout)
{
	/* E820-like RAM, then the low 1 MiB, the kernel image and a module. */
	setup();
	memblock_add(&mb, 0x0, 0x9fc00);
	memblock_add(&mb, 0x100000, 0x7fe0000);
	memblock_reserve(&mb, 0, 1 * M);
	memblock_reserve(&mb, 0x100000, 0x34a123);
	memblock_reserve(&mb, 0x400000, 0x480000);
	CHECK_STR(ranges(), "[34b000,400000) [480000,7fe0000)");
	CHECK_EQ(mb.ram_total, 0x9f000 + 0x7ee0000);
	CHECK_EQ(mb.ram_end, 0x7fe0000);
}

UNIT_TEST(alloc_takes_the_highest_fit)
{
	setup();
	memblock_add(&mb, 0x100000, 0x200000);
	memblock_add(&mb, 0x400000, 0x500000);
	CHECK_EQ(memblock_alloc(&mb, 0x3000, P, ~0ul), 0x4fd000);
	CHECK_STR(ranges(), "[100000,200000) [400000,4fd000)");
	CHECK_EQ(memblock_alloc(&mb, 0x1000, P, ~0ul), 0x4fc000);
	CHECK_EQ(memblock_free_bytes(&mb), 0x200000 - 0x4000);
}

UNIT_TEST(alloc_rounds_size_up_to_pages)
{
	setup();
	memblock_add(&mb, 0x100000, 0x200000);
	CHECK_EQ(memblock_alloc(&mb, 1, 1, ~0ul), 0x1ff000);
	CHECK_EQ(memblock_alloc(&mb, 0x1001, 0, ~0ul), 0x1fd000); /* two pages */
	CHECK_STR(ranges(), "[100000,1fd000)");
}

UNIT_TEST(alloc_honours_the_limit)
{
	setup();
	memblock_add(&mb, 0x100000, 0x200000);
	memblock_add(&mb, 0x400000, 0x500000);
	/* The limit is an exclusive end: the block may end exactly at it. */
	CHECK_EQ(memblock_alloc(&mb, 0x2000, P, 0x180000), 0x17e000);
	/* A limit in a gap falls back to the range below. */
	CHECK_EQ(memblock_alloc(&mb, 0x1000, P, 0x300000), 0x1ff000);
	/* A limit inside a range that leaves too little room below it. */
	CHECK_EQ(memblock_alloc(&mb, 0x2000, P, 0x401000), 0x1fd000);
	/* An unaligned limit is rounded down by the alignment. */
	CHECK_EQ(memblock_alloc(&mb, 0x1000, P, 0x480800), 0x47f000);
	CHECK_STR(ranges(), "[100000,17e000) [180000,1fd000) [400000,47f000) [480000,500000)");
}

UNIT_TEST(alloc_with_limit_below_everything_fails)
{
	setup();
	memblock_add(&mb, 0x100000, 0x200000);
	CHECK_EQ(memblock_alloc(&mb, 0x1000, P, 0x100000), 0);
	CHECK_EQ(memblock_alloc(&mb, 0x1000, P, 0x80000), 0);
	CHECK_EQ(memblock_alloc(&mb, 0x1000, P, 0), 0);
	CHECK_EQ(memblock_alloc(&mb, 0x2000, P, 0x101000), 0); /* room for one page only */
	CHECK_STR(ranges(), "[100000,200000)");
}

UNIT_TEST(alloc_aligns)
{
	setup();
	memblock_add(&mb, 0x100000, 0x3ff000);
	/* 2 MiB-aligned, 2 MiB: the only candidate is [0x200000, 0x400000) - too high. */
	CHECK_EQ(memblock_alloc(&mb, 2 * M, 2 * M, ~0ul), 0);
	CHECK_EQ(memblock_alloc(&mb, 1 * M, 2 * M, ~0ul), 0x200000);
	CHECK_STR(ranges(), "[100000,200000) [300000,3ff000)");
	CHECK_EQ(memblock_alloc(&mb, P, 0x10000, ~0ul), 0x3f0000);
	CHECK_STR(ranges(), "[100000,200000) [300000,3f0000) [3f1000,3ff000)");
}

UNIT_TEST(alloc_skips_ranges_too_small_after_alignment)
{
	setup();
	memblock_add(&mb, 0x100000, 0x200000);
	memblock_add(&mb, 0x301000, 0x3ff000); /* big enough, but no 1 MiB boundary fits */
	CHECK_EQ(memblock_alloc(&mb, 0x10000, M, ~0ul), 0x100000);
	CHECK_STR(ranges(), "[110000,200000) [301000,3ff000)");
}

UNIT_TEST(alloc_too_big_fails_and_changes_nothing)
{
	setup();
	memblock_add(&mb, 0x100000, 0x200000);
	memblock_add(&mb, 0x300000, 0x400000);
	CHECK_EQ(memblock_alloc(&mb, 0x100001, P, ~0ul), 0);
	CHECK_EQ(memblock_alloc(&mb, 0x180000, P, ~0ul), 0); /* only the sum is enough */
	CHECK_STR(ranges(), "[100000,200000) [300000,400000)");
	CHECK_EQ(memblock_alloc(&mb, 0x100000, P, ~0ul), 0x300000); /* exact fit */
	CHECK_STR(ranges(), "[100000,200000)");
}

UNIT_TEST(alloc_until_exhausted)
{
	u64 got = 0, last = ~0ul, a;

	setup();
	memblock_add(&mb, 0x100000, 0x110000);
	memblock_add(&mb, 0x200000, 0x208000);
	while ((a = memblock_alloc(&mb, P, P, ~0ul)) != 0) {
		CHECK(a < last); /* always from the top down */
		last = a;
		got++;
	}
	CHECK_EQ(got, 0x18);
	CHECK_EQ(mb.nfree, 0);
	CHECK_EQ(memblock_free_bytes(&mb), 0);
}

UNIT_TEST(free_bytes_follows_adds_reserves_and_allocs)
{
	setup();
	memblock_add(&mb, 0x100000, 0x500000);
	CHECK_EQ(memblock_free_bytes(&mb), 4 * M);
	memblock_reserve(&mb, 0x200000, 0x280000);
	CHECK_EQ(memblock_free_bytes(&mb), 4 * M - 512 * K);
	memblock_alloc(&mb, 64 * K, P, ~0ul);
	CHECK_EQ(memblock_free_bytes(&mb), 4 * M - 576 * K);
	memblock_add(&mb, 0x200000, 0x280000); /* give it back */
	CHECK_EQ(memblock_free_bytes(&mb), 4 * M - 64 * K);
	CHECK_STR(ranges(), "[100000,4f0000)");
}

/* Fills the table with n separate one-page ranges, two pages apart. */
static void
fill(int n)
{
	for (int i = 0; i < n; i++)
		memblock_add(&mb, 0x100000 + (u64)i * 2 * P, 0x100000 + (u64)i * 2 * P + P);
}

UNIT_TEST(table_can_be_filled_exactly)
{
	setup();
	fill(MEMBLOCK_MAX_RANGES);
	CHECK_EQ(mb.nfree, MEMBLOCK_MAX_RANGES);
	CHECK(!mb.overflow);
	CHECK_EQ(memblock_free_bytes(&mb), MEMBLOCK_MAX_RANGES * P);
	CHECK(invariant_holds(&mb));
}

UNIT_TEST(add_beyond_the_table_sets_overflow)
{
	setup();
	fill(MEMBLOCK_MAX_RANGES);
	memblock_add(&mb, 0x10000000, 0x10001000);
	CHECK(mb.overflow);
	CHECK_EQ(mb.nfree, MEMBLOCK_MAX_RANGES);
	/* The lost range is not counted as RAM. */
	CHECK_EQ(mb.ram_total, MEMBLOCK_MAX_RANGES * P);
	CHECK_EQ(mb.ram_end, 0x100000 + (MEMBLOCK_MAX_RANGES - 1) * 2 * P + P);
	CHECK(invariant_holds(&mb));
}

UNIT_TEST(hole_in_a_full_table_sets_overflow)
{
	setup();
	fill(MEMBLOCK_MAX_RANGES - 1);
	memblock_add(&mb, 0x10000000, 0x10010000);
	CHECK(!mb.overflow);
	memblock_reserve(&mb, 0x10004000, 0x10005000);
	CHECK(mb.overflow);
	/* The part below the hole is kept; the part above it is lost. */
	CHECK_EQ(mb.nfree, MEMBLOCK_MAX_RANGES);
	CHECK_EQ(mb.free[MEMBLOCK_MAX_RANGES - 1].start, 0x10000000);
	CHECK_EQ(mb.free[MEMBLOCK_MAX_RANGES - 1].end, 0x10004000);
	CHECK(invariant_holds(&mb));
}

UNIT_TEST(merging_add_into_a_full_table)
{
	/* A full table still refuses a range even if it would have merged. */
	setup();
	fill(MEMBLOCK_MAX_RANGES);
	memblock_add(&mb, 0x101000, 0x102000); /* would join the first two */
	CHECK(mb.overflow);
	CHECK_EQ(mb.nfree, MEMBLOCK_MAX_RANGES);
	CHECK(invariant_holds(&mb));
}
