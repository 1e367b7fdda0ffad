/*
 * test_page_alloc.c - host tests for the buddy allocator and the per-CPU
 * lists of free single pages in front of it (mm/page_alloc.c).
 *
 * mem_map is a plain host array and there is no memory behind its frames,
 * which also proves the allocator never writes into free memory (ASan would
 * catch it). The tests are white-box: invariants_hold() walks the static
 * free lists of page_alloc.c and checks the buddy invariants it documents.
 * panic() longjmps back to the test, so bad frees can be asserted on.
 * A test moves between CPUs with unit_run_on_cpu (unit.h).
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
 * the test holds (live, indexed like mem_map; may be NULL); every page on a
 * CPU's list is PG_PCP and overlaps nothing either; and the stats agree
 * with the lists.
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
	order = 0;
	for (unsigned cpu = 0; cpu < MAX_CPUS; cpu++) {
		struct list_head *pos;
		u64 pages = 0;

		list_for_each(pos, &pcp_lists[cpu].pages) {
			struct page *page = list_entry(pos, struct page, list);
			u64 idx = (u64)(page - mem_map);

			pfn = page_to_pfn(page);
			REQUIRE(page->flags == PG_PCP);
			REQUIRE(!seen[idx] && !(live && live[idx]));
			seen[idx] = 1;
			pages++;
		}
		pfn = 0;
		REQUIRE(pages == pcp_lists[cpu].count);
		REQUIRE(pages <= PCP_HIGH);
		free_frames += pages;
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
	/* The first single page refills this CPU's list: all eight, split in address order. */
	struct page *a = alloc_pages(0);
	CHECK(a == &map[0]);
	CHECK_EQ(a->flags, PG_ALLOCATED);
	check_free_blocks((u64[MAX_ORDER]){ 0 });
	CHECK_EQ(get_stats().pcp_pages, 7);
	/* No pair on the buddy lists: the list drains, 1 | 2-3 | 4-7 merge, 2-3 goes. */
	struct page *b = alloc_pages(1);
	CHECK(b == &map[2]);
	CHECK_EQ(b->order, 1);
	check_free_blocks((u64[MAX_ORDER]){ 1, 0, 1 });
	/* Refilled from 1 and 4-7 split. */
	struct page *c = alloc_pages(0);
	CHECK(c == &map[1]);
	CHECK_EQ(get_stats().free_pages, 4);
	CHECK_EQ(get_stats().pcp_pages, 4);
	CHECK(invariants_hold(NULL));
	free_pages(a, 0);
	free_pages(b, 1);
	free_pages(c, 0);
	check_free_blocks((u64[MAX_ORDER]){ [1] = 1 });
	page_alloc_drain_all();
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
	page_alloc_release_range(6, 16); /* 6-7 | 8-15 (pairs: no CPU's list in the way) */
	CHECK(alloc_pages(1) == &map[6]);
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
	CHECK_EQ(get_stats().pcp_pages, 16);
	page_alloc_drain_all();
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
	CHECK(invariants_hold(NULL));
	page_alloc_drain_all();
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
	page_alloc_drain_all();
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
	CHECK_EQ(get_stats().free_pages, 4);
	page_alloc_drain_all();
	check_free_blocks((u64[MAX_ORDER]){ [2] = 1 });
	for (int i = 0; i < 4; i++)
		CHECK(alloc_zeroed_page() != NULL);
	CHECK(alloc_zeroed_page() == NULL);
	free(ram);
}

/* ---- the per-CPU lists --------------------------------------------------- */

/* The pages on the buddy lists (page_alloc.c's own count, without the CPUs' lists). */
static u64
buddy_free_pages(void)
{
	return stats.free_pages;
}

UNIT_TEST(pcp_refill_takes_a_batch_under_one_lock_hold)
{
	static struct page *pages[2 * PCP_BATCH];

	setup(0, 4096);
	page_alloc_release_range(0, 4096);
	pages[0] = alloc_pages(0);
	CHECK_EQ(buddy_free_pages(), 4096 - PCP_BATCH);
	CHECK_EQ(pcp_lists[0].count, PCP_BATCH - 1);
	/* The rest of the batch comes from the list: the buddy lists are not touched. */
	for (int i = 1; i < PCP_BATCH; i++)
		pages[i] = alloc_pages(0);
	CHECK_EQ(buddy_free_pages(), 4096 - PCP_BATCH);
	CHECK_EQ(pcp_lists[0].count, 0);
	pages[PCP_BATCH] = alloc_pages(0);
	CHECK_EQ(buddy_free_pages(), 4096 - 2 * PCP_BATCH);
	struct page_alloc_stats st = get_stats();
	CHECK_EQ(st.free_pages, 4096 - PCP_BATCH - 1);
	CHECK_EQ(st.pcp_pages, PCP_BATCH - 1);
	CHECK_EQ(st.allocs, PCP_BATCH + 1);
	for (int i = 0; i <= PCP_BATCH; i++)
		CHECK(pages[i]->flags == PG_ALLOCATED && pages[i]->alloc_site != 0);
	CHECK(invariants_hold(NULL));
}

UNIT_TEST(pcp_free_above_high_gives_the_coldest_batch_back)
{
	static struct page *pages[PCP_HIGH + 1];

	setup(0, 4096);
	page_alloc_release_range(0, 4096);
	for (int i = 0; i <= PCP_HIGH; i++)
		pages[i] = alloc_pages(0);
	page_alloc_drain_all();
	CHECK_EQ(get_stats().pcp_pages, 0);
	u64 buddy = buddy_free_pages();
	for (int i = 0; i < PCP_HIGH; i++)
		free_pages(pages[i], 0);
	CHECK_EQ(pcp_lists[0].count, PCP_HIGH);
	CHECK_EQ(buddy_free_pages(), buddy);
	CHECK_EQ(pages[0]->flags, PG_PCP);
	free_pages(pages[PCP_HIGH], 0);
	CHECK_EQ(pcp_lists[0].count, PCP_HIGH + 1 - PCP_BATCH);
	CHECK_EQ(buddy_free_pages(), buddy + PCP_BATCH);
	/* The first freed went back; the last freed, cache-hot, stays to be handed out first. */
	for (int i = 0; i < PCP_BATCH; i++)
		CHECK(pages[i]->flags != PG_PCP);
	CHECK_EQ(pages[PCP_BATCH]->flags, PG_PCP);
	CHECK(alloc_pages(0) == pages[PCP_HIGH]);
	CHECK_EQ(get_stats().free_pages, 4095);
	CHECK(invariants_hold(NULL));
}

UNIT_TEST(pages_on_the_lists_count_as_free_not_as_allocated)
{
	static struct page *pages[8];

	setup(0, 512);
	page_alloc_release_range(0, 512);
	for (u32 cpu = 0; cpu < 3; cpu++) {
		unit_run_on_cpu(cpu);
		for (int i = 0; i < 8; i++)
			pages[i] = alloc_pages(0);
		for (int i = 0; i < 8; i++)
			free_pages(pages[i], 0);
	}
	unit_run_on_cpu(0);
	struct page_alloc_stats st = get_stats();
	CHECK_EQ(st.free_pages, 512);
	CHECK_EQ(st.pcp_pages, 3 * PCP_BATCH);
	CHECK_EQ(st.allocs, 24);
	CHECK_EQ(st.frees, 24);
	/* What /proc/page_sites counts (kmemdebug_count_pages): none of them is a live block. */
	for (u64 i = 0; i < 512; i++)
		CHECK(!(map[i].flags & PG_ALLOCATED));
	CHECK(invariants_hold(NULL));
}

/* Each of CPUs 1 and 2 takes a page and frees it: a batch of pages waits on its list. */
static void
park_a_batch_on_cpus_1_and_2(void)
{
	for (u32 cpu = 1; cpu <= 2; cpu++) {
		unit_run_on_cpu(cpu);
		free_pages(alloc_pages(0), 0);
		CHECK_EQ(pcp_lists[cpu].count, PCP_BATCH);
	}
	unit_run_on_cpu(0);
}

UNIT_TEST(failed_alloc_drains_every_cpu_before_it_fails)
{
	static struct page *pages[64];

	setup(0, 64);
	page_alloc_release_range(0, 64);
	park_a_batch_on_cpus_1_and_2();
	CHECK_EQ(buddy_free_pages(), 64 - 2 * PCP_BATCH);
	/* 32 contiguous pages exist only once the other CPUs' pages are back and merged. */
	struct page *big = alloc_pages(5);
	CHECK(big != NULL);
	CHECK_EQ(get_stats().pcp_pages, 0);
	free_pages(big, 5);
	park_a_batch_on_cpus_1_and_2();
	/* Single pages too: every one of the 64 is handed out before memory is exhausted. */
	for (int i = 0; i < 64; i++) {
		pages[i] = alloc_pages(0);
		CHECK(pages[i] != NULL);
	}
	CHECK(alloc_pages(0) == NULL);
	CHECK_EQ(get_stats().free_pages, 0);
	for (int i = 0; i < 64; i++)
		free_pages(pages[i], 0);
	CHECK(invariants_hold(NULL));
}

UNIT_TEST(a_list_a_drain_holds_is_passed_by_for_the_buddy_lists)
{
	setup(0, 64);
	page_alloc_release_range(0, 64);
	free_pages(alloc_pages(0), 0);
	CHECK_EQ(pcp_lists[0].count, PCP_BATCH);
	spin_lock(&pcp_lists[0].lock); /* as page_alloc_drain_all from another CPU */
	struct page *page = alloc_pages(0);
	CHECK(page != NULL);
	CHECK_EQ(pcp_lists[0].count, PCP_BATCH);
	CHECK_EQ(buddy_free_pages(), 64 - PCP_BATCH - 1);
	free_pages(page, 0);
	CHECK_EQ(buddy_free_pages(), 64 - PCP_BATCH);
	spin_unlock(&pcp_lists[0].lock);
	CHECK(invariants_hold(NULL));
}

UNIT_TEST(put_pages_frees_only_the_pages_it_drops_last)
{
	static struct page *pages[2 * PCP_HIGH];

	setup(0, 1024);
	page_alloc_release_range(0, 1024);
	for (int i = 0; i < 2 * PCP_HIGH; i++) {
		pages[i] = alloc_pages(0);
		pages[i]->refcount = i % 4 == 0 ? 2 : 1; /* every fourth still shared */
	}
	page_alloc_drain_all();
	put_pages(pages, 2 * PCP_HIGH);
	int kept = 0;
	for (int i = 0; i < 2 * PCP_HIGH; i++) {
		bool shared = i % 4 == 0;
		CHECK_EQ(pages[i]->refcount, shared ? 1 : 0);
		CHECK(shared ? pages[i]->flags == PG_ALLOCATED : !(pages[i]->flags & PG_ALLOCATED));
		kept += shared;
	}
	/* More than PCP_HIGH freed: batches went back on the way, in the same call. */
	CHECK(pcp_lists[0].count <= PCP_HIGH && pcp_lists[0].count > PCP_HIGH - PCP_BATCH);
	CHECK_EQ(get_stats().free_pages, 1024 - kept);
	for (int i = 0; i < 2 * PCP_HIGH; i += 4)
		put_page(pages[i]);
	CHECK_EQ(get_stats().free_pages, 1024);
	CHECK(invariants_hold(NULL));
}

UNIT_TEST(shared_pages_leave_the_reserve_counting_every_cpus_list)
{
	enum { PAGES = 64, RESERVE = 32 }; /* kernel_reserve_pages(): at least 32 */
	u8 *ram = aligned_alloc(PAGES * PAGE_SIZE, PAGES * PAGE_SIZE);
	u64 first = (uintptr_t)ram >> PAGE_SHIFT;
	int shared = 0;

	setup(first, PAGES);
	page_alloc_release_range(first, first + PAGES);
	park_a_batch_on_cpus_1_and_2();
	while (alloc_shared_page())
		shared++;
	CHECK_EQ(shared, PAGES - RESERVE);
	CHECK_EQ(get_stats().free_pages, RESERVE);
	CHECK(alloc_zeroed_page() != NULL); /* the kernel's own allocations may take the reserve */
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
	free_pages(b, 0);
	page_alloc_drain_all(); /* b merges into a's block: b is no head any more */
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
