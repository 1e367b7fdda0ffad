/*
 * test_page_alloc.c - host tests for the buddy allocator (mm/page_alloc.c).
 *
 * mem_map is a plain host array and there is no memory behind its frames,
 * which also proves the allocator never writes into free memory (ASan would
 * catch it). The tests are white-box: invariants_hold() walks the static
 * free lists of page_alloc.c and checks the buddy invariants it documents.
 * panic() longjmps back to the test, so bad frees can be asserted on.
 */
#include "kernel/lib/types.h"
#include "tests/unit/unit.h"
#include "mm/page_alloc.c"

u64 direct_map_base;

static struct page *map;

static void
setup(u64 first, u64 npages)
{
	free(map);
	map = calloc(npages, sizeof(*map));
	page_alloc_init(map, first, npages);
}

static struct page_alloc_stats
get_stats(void)
{
	struct page_alloc_stats st;

	page_alloc_get_stats(&st);
	return st;
}

#define REQUIRE(cond)                                                                          \
	do {                                                                                   \
		if (!(cond)) {                                                                 \
			printf("    invariant broken: %s (pfn 0x%lx, order %u)\n", #cond, pfn, \
			       order);                                                         \
			ok = false;                                                            \
			goto out;                                                              \
		}                                                                              \
	} while (0)

/*
 * Every free block is a correctly flagged, aligned head inside mem_map,
 * fully merged with its buddy, overlapping no other free block and no frame
 * the test holds (live, indexed like mem_map; may be NULL), and the stats
 * agree with the lists.
 */
static bool
invariants_hold(const u8 *live)
{
	struct page_alloc_stats st = get_stats();
	u8 *seen = calloc(nr_pages, 1);
	u64 free_frames = 0, pfn = 0;
	unsigned order = 0;
	bool ok = true;

	for (order = 0; order < MAX_ORDER; order++) {
		struct list_head *pos;
		u64 blocks = 0;

		list_for_each(pos, &free_area[order]) {
			struct page *head = list_entry(pos, struct page, list);
			u64 size = 1ul << order;
			struct page *buddy;

			pfn = page_to_pfn(head);
			REQUIRE(head->flags == PG_BUDDY && head->order == order);
			REQUIRE(IS_ALIGNED(pfn, size));
			REQUIRE(pfn_to_page(pfn) && pfn_to_page(pfn + size - 1));
			buddy = pfn_to_page(pfn ^ size);
			REQUIRE(order == MAX_ORDER - 1 || !buddy || !(buddy->flags & PG_BUDDY) ||
				buddy->order != order);
			for (u64 i = 0; i < size; i++) {
				u64 idx = pfn - first_pfn + i;
				REQUIRE(!seen[idx] && !(live && live[idx]));
				REQUIRE(i == 0 || mem_map[idx].flags == 0);
				seen[idx] = 1;
			}
			blocks++;
		}
		pfn = 0;
		REQUIRE(blocks == st.free_blocks[order]);
		free_frames += blocks << order;
	}
	REQUIRE(free_frames == st.free_pages);
out:
	free(seen);
	return ok;
}

static void
check_free_blocks(const u64 expect[MAX_ORDER])
{
	struct page_alloc_stats st = get_stats();

	for (unsigned order = 0; order < MAX_ORDER; order++)
		CHECK_EQ(st.free_blocks[order], expect[order]);
}

UNIT_TEST(init_reserves_every_frame)
{
	setup(100, 50);
	struct page_alloc_stats st = get_stats();
	CHECK_EQ(st.total_pages, 0);
	CHECK_EQ(st.free_pages, 0);
	CHECK(alloc_pages(0) == NULL);
	CHECK(pfn_to_page(99) == NULL);
	CHECK(pfn_to_page(100) == &map[0]);
	CHECK(pfn_to_page(149) == &map[49]);
	CHECK(pfn_to_page(150) == NULL);
	CHECK_EQ(page_to_pfn(&map[7]), 107);
	CHECK_EQ(page_to_phys(&map[7]), 107ul << PAGE_SHIFT);
	for (int i = 0; i < 50; i++)
		CHECK_EQ(map[i].flags, PG_RESERVED);
	CHECK(invariants_hold(NULL));
}

UNIT_TEST(release_aligned_range_gives_max_order_blocks)
{
	setup(0x1000, 4096);
	page_alloc_release_range(0x1000, 0x2000);
	struct page_alloc_stats st = get_stats();
	CHECK_EQ(st.total_pages, 4096);
	CHECK_EQ(st.free_pages, 4096);
	CHECK_EQ(st.free_blocks[MAX_ORDER - 1], 4);
	CHECK(invariants_hold(NULL));
}

UNIT_TEST(release_unaligned_range_splits_into_maximal_blocks)
{
	setup(3, 40);
	page_alloc_release_range(5, 21); /* 5 | 6-7 | 8-15 | 16-19 | 20 */
	check_free_blocks((u64[MAX_ORDER]){ [0] = 2, [1] = 1, [2] = 1, [3] = 1 });
	CHECK_EQ(pfn_to_page(8)->order, 3);
	CHECK_EQ(pfn_to_page(16)->order, 2);
	CHECK_EQ(pfn_to_page(20)->flags, PG_BUDDY);
	CHECK_EQ(pfn_to_page(4)->flags, PG_RESERVED);
	CHECK_EQ(pfn_to_page(21)->flags, PG_RESERVED);
	CHECK_EQ(get_stats().total_pages, 16);
	CHECK(invariants_hold(NULL));
}

UNIT_TEST(release_from_unaligned_start_climbs_to_max_order)
{
	setup(1, 2047);
	page_alloc_release_range(1, 2048); /* 1 | 2-3 | 4-7 | ... | 1024-2047 */
	for (unsigned order = 0; order < MAX_ORDER; order++)
		CHECK_EQ(get_stats().free_blocks[order], 1);
	CHECK(invariants_hold(NULL));
}

UNIT_TEST(released_ranges_merge_across_filled_holes)
{
	setup(0, 64);
	page_alloc_release_range(0, 8);
	page_alloc_release_range(16, 32);
	check_free_blocks((u64[MAX_ORDER]){ [3] = 1, [4] = 1 });
	page_alloc_release_range(8, 16);
	check_free_blocks((u64[MAX_ORDER]){ [5] = 1 });
	page_alloc_release_range(33, 64); /* the hole at 32 keeps them apart */
	check_free_blocks((u64[MAX_ORDER]){ 1, 1, 1, 1, 1, 1 });
	CHECK(invariants_hold(NULL));
	page_alloc_release_range(32, 33);
	check_free_blocks((u64[MAX_ORDER]){ [6] = 1 });
	CHECK_EQ(get_stats().total_pages, 64);
	CHECK(invariants_hold(NULL));
}

UNIT_TEST(single_page_releases_coalesce)
{
	setup(0, 1024);
	for (u64 pfn = 0; pfn < 1024; pfn += 2)
		page_alloc_release_range(pfn, pfn + 1);
	CHECK_EQ(get_stats().free_blocks[0], 512);
	for (int i = 511; i >= 0; i--) /* the odd ones, downwards */
		page_alloc_release_range(2 * i + 1, 2 * i + 2);
	check_free_blocks((u64[MAX_ORDER]){ [10] = 1 });
	CHECK(invariants_hold(NULL));
}

UNIT_TEST(release_of_empty_range_does_nothing)
{
	setup(10, 10);
	page_alloc_release_range(10, 10);
	page_alloc_release_range(20, 20);
	CHECK_EQ(get_stats().total_pages, 0);
	CHECK(alloc_pages(0) == NULL);
}

UNIT_TEST(alloc_splits_and_free_merges)
{
	setup(0, 8);
	page_alloc_release_range(0, 8);
	struct page *a = alloc_pages(0);
	CHECK(a == &map[0]);
	CHECK_EQ(a->flags, PG_ALLOCATED);
	check_free_blocks((u64[MAX_ORDER]){ 1, 1, 1 });
	struct page *b = alloc_pages(1);
	struct page *c = alloc_pages(0);
	CHECK(b == &map[2]);
	CHECK(c == &map[1]);
	CHECK_EQ(b->order, 1);
	CHECK_EQ(get_stats().free_pages, 4);
	CHECK(invariants_hold(NULL));
	free_pages(a, 0);
	free_pages(b, 1);
	free_pages(c, 0);
	check_free_blocks((u64[MAX_ORDER]){ [3] = 1 });
	struct page_alloc_stats st = get_stats();
	CHECK_EQ(st.allocs, 3);
	CHECK_EQ(st.frees, 3);
	CHECK_EQ(st.free_pages, 8);
	CHECK(invariants_hold(NULL));
}

UNIT_TEST(alloc_takes_the_smallest_fitting_block)
{
	setup(0, 16);
	page_alloc_release_range(7, 16); /* 7 | 8-15 */
	CHECK(alloc_pages(0) == &map[7]);
	check_free_blocks((u64[MAX_ORDER]){ [3] = 1 });
	CHECK(alloc_pages(2) == &map[8]);
	CHECK(invariants_hold(NULL));
}

UNIT_TEST(exhaustion_returns_null)
{
	struct page *pages[16];

	setup(0, 16);
	page_alloc_release_range(0, 16);
	for (int i = 0; i < 16; i++) {
		pages[i] = alloc_pages(0);
		CHECK(pages[i] != NULL);
		for (int j = 0; j < i; j++)
			CHECK(pages[i] != pages[j]);
	}
	CHECK(alloc_pages(0) == NULL);
	CHECK(alloc_pages(1) == NULL);
	CHECK_EQ(get_stats().free_pages, 0);
	for (int i = 15; i >= 0; i--)
		free_pages(pages[i], 0);
	check_free_blocks((u64[MAX_ORDER]){ [4] = 1 });
	CHECK(alloc_pages(5) == NULL);
	CHECK(alloc_pages(MAX_ORDER) == NULL);
	CHECK(alloc_pages(~0u) == NULL);
	CHECK(alloc_pages(4) == &map[0]);
	CHECK(alloc_pages(4) == NULL);
	CHECK_EQ(get_stats().allocs, 17);
}

/* A heap of blocks the test holds, and which frames they cover. */
struct held {
	struct page *page[8192];
	unsigned order[8192];
	int n;
	u8 *live;
};

static void
hold(struct held *h, struct page *page, unsigned order)
{
	h->page[h->n] = page;
	h->order[h->n] = order;
	h->n++;
	for (u64 i = 0; i < (1ul << order); i++)
		h->live[page - mem_map + i] = 1;
}

static void
release_held(struct held *h, int i)
{
	for (u64 k = 0; k < (1ul << h->order[i]); k++)
		h->live[h->page[i] - mem_map + k] = 0;
	free_pages(h->page[i], h->order[i]);
	h->n--;
	h->page[i] = h->page[h->n];
	h->order[i] = h->order[h->n];
}

/* Whether a fresh block lies aligned on released frames nobody holds. */
static bool
fresh_block_ok(const struct held *h, struct page *page, unsigned order)
{
	u64 pfn = page_to_pfn(page);

	if (!IS_ALIGNED(pfn, 1ul << order) || !pfn_to_page(pfn + (1ul << order) - 1))
		return false;
	for (u64 i = 0; i < (1ul << order); i++) {
		struct page *p = &page[i];
		if (h->live[p - mem_map] || (p->flags & (PG_RESERVED | PG_BUDDY)))
			return false;
	}
	return page->flags == PG_ALLOCATED && page->order == order;
}

static void
setup_with_holes(void)
{
	setup(5, 3000);
	page_alloc_release_range(7, 1500);
	page_alloc_release_range(1600, 2999);
	page_alloc_release_range(3001, 3005);
}

UNIT_TEST(alloc_everything_then_free_restores_blocks)
{
	static struct held h;

	setup_with_holes();
	h.n = 0;
	h.live = calloc(nr_pages, 1);
	struct page_alloc_stats before = get_stats();
	rng_state = 12345;
	for (;;) {
		unsigned order = rng() % 5;
		struct page *p;
		while (!(p = alloc_pages(order)) && order > 0)
			order--;
		if (!p)
			break;
		CHECK(fresh_block_ok(&h, p, order));
		hold(&h, p, order);
	}
	CHECK_EQ(get_stats().free_pages, 0);
	CHECK(invariants_hold(h.live));
	while (h.n > 0)
		release_held(&h, (int)(rng() % (u64)h.n));
	struct page_alloc_stats after = get_stats();
	CHECK_EQ(after.free_pages, before.total_pages);
	for (unsigned order = 0; order < MAX_ORDER; order++)
		CHECK_EQ(after.free_blocks[order], before.free_blocks[order]);
	CHECK(invariants_hold(NULL));
	free(h.live);
}

UNIT_TEST(random_alloc_free_never_overlaps)
{
	static struct held h;
	u64 held_pages = 0, failures = 0;

	setup_with_holes();
	h.n = 0;
	h.live = calloc(nr_pages, 1);
	struct page_alloc_stats before = get_stats();
	rng_state = 0x9e3779b97f4a7c15ul;
	for (int step = 0; step < 40000; step++) {
		if (h.n > 0 && rng() % 100 < 45) {
			int i = (int)(rng() % (u64)h.n);
			held_pages -= 1ul << h.order[i];
			release_held(&h, i);
		} else {
			/* Mostly small blocks, now and then a big one. */
			unsigned order = rng() % 8 == 0 ? rng() % MAX_ORDER : rng() % 3;
			struct page *p = alloc_pages(order);
			if (!p) {
				failures++;
				continue;
			}
			if (!fresh_block_ok(&h, p, order)) {
				CHECK(!"alloc_pages returned a bad or overlapping block");
				break;
			}
			hold(&h, p, order);
			held_pages += 1ul << order;
		}
		if (step % 256 == 0) {
			CHECK(invariants_hold(h.live));
			CHECK_EQ(get_stats().free_pages + held_pages, before.total_pages);
		}
	}
	CHECK(failures > 0); /* the big orders ran out now and then */
	while (h.n > 0)
		release_held(&h, h.n - 1);
	for (unsigned order = 0; order < MAX_ORDER; order++)
		CHECK_EQ(get_stats().free_blocks[order], before.free_blocks[order]);
	CHECK(invariants_hold(NULL));
	free(h.live);
}

UNIT_TEST(free_page_virt_and_alloc_zeroed_page)
{
	u8 *ram = aligned_alloc(4 * PAGE_SIZE, 4 * PAGE_SIZE); /* one order-2 block */
	u64 first = (uintptr_t)ram >> PAGE_SHIFT;

	setup(first, 4);
	page_alloc_release_range(first, first + 4);
	memset(ram, 0xa5, 4 * PAGE_SIZE);
	u8 *p = alloc_zeroed_page();
	CHECK(p >= ram && p < ram + 4 * PAGE_SIZE && IS_ALIGNED((uintptr_t)p, PAGE_SIZE));
	size_t nonzero = 0;
	for (size_t i = 0; i < PAGE_SIZE; i++)
		nonzero += p[i] != 0;
	CHECK_EQ(nonzero, 0);
	CHECK(virt_to_page(p) == pfn_to_page((uintptr_t)p >> PAGE_SHIFT));
	CHECK(page_address(virt_to_page(p)) == p);
	free_page_virt(p);
	check_free_blocks((u64[MAX_ORDER]){ [2] = 1 });
	for (int i = 0; i < 4; i++)
		CHECK(alloc_zeroed_page() != NULL);
	CHECK(alloc_zeroed_page() == NULL);
	free(ram);
}

/* ---- bad frees: each case builds its own allocator and must panic ------- */

static void
double_free(void)
{
	setup(0, 8);
	page_alloc_release_range(0, 8);
	struct page *p = alloc_pages(0);
	free_pages(p, 0);
	free_pages(p, 0);
}

static void
double_free_after_merge(void)
{
	setup(0, 8);
	page_alloc_release_range(0, 8);
	struct page *a = alloc_pages(0), *b = alloc_pages(0);
	free_pages(a, 0);
	free_pages(b, 0); /* merges into a's block; b is no head any more */
	free_pages(b, 0);
}

static void
free_of_a_tail_page(void)
{
	setup(0, 8);
	page_alloc_release_range(0, 8);
	free_pages(alloc_pages(2) + 1, 0);
}

static void
free_with_wrong_order(void)
{
	setup(0, 8);
	page_alloc_release_range(0, 8);
	free_pages(alloc_pages(1), 0);
}

static void
free_of_reserved_page(void)
{
	setup(0, 16);
	page_alloc_release_range(0, 8);
	free_pages(&map[12], 0);
}

static void
free_outside_mem_map(void)
{
	static struct page stray;

	setup(0, 8);
	page_alloc_release_range(0, 8);
	free_pages(&stray, 0);
}

static void
free_of_slab_page(void)
{
	setup(0, 8);
	page_alloc_release_range(0, 8);
	struct page *p = alloc_pages(0);
	p->flags |= PG_SLAB;
	free_pages(p, 0);
}

static void
release_twice(void)
{
	setup(0, 16);
	page_alloc_release_range(0, 8);
	page_alloc_release_range(4, 12);
}

static void
release_past_mem_map(void)
{
	setup(0, 16);
	page_alloc_release_range(8, 17);
}

static void
free_page_virt_unaligned(void)
{
	setup(0x100, 8);
	page_alloc_release_range(0x100, 0x108);
	free_page_virt((void *)((0x100ul << PAGE_SHIFT) + 8));
}

UNIT_TEST(bad_frees_panic)
{
	static const struct {
		void (*fn)(void);
		const char *says;
	} cases[] = {
		{ double_free, "not allocated" },
		{ double_free_after_merge, "not allocated" },
		{ free_of_a_tail_page, "not allocated" },
		{ free_with_wrong_order, "different order" },
		{ free_of_reserved_page, "reserved" },
		{ free_outside_mem_map, "not a page of mem_map" },
		{ free_of_slab_page, "kmalloc still owns it" },
		{ release_twice, "released twice" },
		{ release_past_mem_map, "not inside mem_map" },
		{ free_page_virt_unaligned, "not the address of a page" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		bool panicked = unit_panics(cases[i].fn);
		CHECK(panicked);
		if (panicked && !strstr(unit_panic_msg, cases[i].says))
			CHECK_STR(unit_panic_msg, cases[i].says);
	}
}
