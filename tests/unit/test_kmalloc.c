/*
 * test_kmalloc.c - host tests for kmalloc (mm/kmalloc.c, and kmemdebug,
 * mm/kmemdebug.c) over the real buddy allocator (mm/page_alloc.c).
 *
 * Slabs keep their free lists inside the objects, so the frames need memory
 * behind them: a page-aligned host buffer whose address, shifted down, is
 * the first PFN, with direct_map_base left at 0 so that phys_to_virt of a
 * frame is its place in the buffer. panic() longjmps back to the test, so
 * bad frees can be asserted on.
 */
#include "kernel/lib/types.h"
#include "tests/unit/unit.h"
#include "mm/page_alloc.c"
#include "mm/kmalloc.c"
#include "mm/kmemdebug.c"

u64 direct_map_base;

static u8 *ram;
static struct page *map;

static void
setup(u64 npages)
{
	u64 first;

	free(ram);
	free(map);
	ram = aligned_alloc(PAGE_SIZE, npages * PAGE_SIZE);
	map = calloc(npages, sizeof(*map));
	first = (uintptr_t)ram >> PAGE_SHIFT;
	page_alloc_init(map, first, npages);
	page_alloc_release_range(first, first + npages);
	kmalloc_init();
	kmemdebug = 0;
}

static u64
buddy_free_pages(void)
{
	struct page_alloc_stats st;

	page_alloc_get_stats(&st);
	return st.free_pages;
}

static struct kmalloc_class_stats
class_stats(int class)
{
	struct kmalloc_class_stats st[KMALLOC_NCLASSES];

	kmalloc_get_stats(st);
	return st[class];
}

static void
fill(void *p, size_t n, u8 tag)
{
	memset(p, tag, n);
}

static bool
filled_with(const void *p, size_t n, u8 tag)
{
	const u8 *b = p;

	for (size_t i = 0; i < n; i++)
		if (b[i] != tag)
			return false;
	return true;
}

UNIT_TEST(size_classes_have_exact_boundaries)
{
	static const struct {
		size_t size;
		int class;
	} cases[] = {
		{ 0, 0 },    { 1, 0 },	   { 8, 0 },	      { 9, 1 },		{ 16, 1 },
		{ 17, 2 },   { 64, 3 },	   { 65, 4 },	      { 1024, 7 },	{ 1025, 8 },
		{ 2048, 8 }, { 2049, -1 }, { PAGE_SIZE, -1 }, { SIZE_MAX, -1 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		CHECK_EQ(kmalloc_size_class(cases[i].size), cases[i].class);
}

UNIT_TEST(zero_sizes_and_null_pointers)
{
	setup(16);
	CHECK(kmalloc(0) == NULL);
	CHECK(kzalloc(0) == NULL);
	kfree(NULL);
	CHECK_EQ(ksize(NULL), 0);
	CHECK_EQ(buddy_free_pages(), 16);
}

UNIT_TEST(every_class_boundary_gets_an_aligned_object)
{
	setup(64);
	for (int class = 0; class < KMALLOC_NCLASSES; class ++) {
		size_t size = (size_t)KMALLOC_MIN_SIZE << class;
		size_t asks[] = { size - 1, size, size + 1 };

		for (size_t i = 0; i < ARRAY_SIZE(asks); i++) {
			size_t n = asks[i];
			if (n == 0 || n > KMALLOC_MAX_SMALL)
				continue;
			int want = kmalloc_size_class(n);
			size_t want_size = (size_t)KMALLOC_MIN_SIZE << want;
			u8 *p = kmalloc(n);
			CHECK(p != NULL);
			CHECK(want_size >= n);
			CHECK_EQ(ksize(p), want_size);
			CHECK(IS_ALIGNED((uintptr_t)p, want_size));
			CHECK(virt_to_page(p)->flags & PG_SLAB);
			CHECK(virt_to_page(p)->slab == &caches[want]);
			fill(p, ksize(p), 0x5a);
			kfree(p);
		}
	}
	for (int class = 0; class < KMALLOC_NCLASSES; class ++) {
		struct kmalloc_class_stats st = class_stats(class);
		CHECK_EQ(st.object_size, (size_t)KMALLOC_MIN_SIZE << class);
		CHECK_EQ(st.objects_in_use, 0);
		CHECK_EQ(st.allocs, st.frees);
		CHECK_EQ(st.slabs, 1);
	}
}

UNIT_TEST(a_slab_holds_a_page_of_objects)
{
	static void *objs[PAGE_SIZE / KMALLOC_MIN_SIZE];

	setup(64);
	for (int class = 0; class < KMALLOC_NCLASSES; class ++) {
		size_t size = (size_t)KMALLOC_MIN_SIZE << class;
		size_t per_slab = PAGE_SIZE / size;

		for (size_t i = 0; i < per_slab; i++) {
			objs[i] = kmalloc(size);
			CHECK(virt_to_page(objs[i]) == virt_to_page(objs[0]));
		}
		void *next = kmalloc(size);
		CHECK(virt_to_page(next) != virt_to_page(objs[0]));
		kfree(next);
		for (size_t i = 0; i < per_slab; i++)
			kfree(objs[i]);
		CHECK_EQ(class_stats(class).objects_in_use, 0);
	}
}

UNIT_TEST(large_requests_take_page_blocks)
{
	static const struct {
		size_t size, usable;
	} cases[] = {
		{ KMALLOC_MAX_SMALL + 1, PAGE_SIZE },
		{ PAGE_SIZE, PAGE_SIZE },
		{ PAGE_SIZE + 1, 2 * PAGE_SIZE },
		{ 5 * PAGE_SIZE, 8 * PAGE_SIZE },
		{ PAGE_SIZE << (MAX_ORDER - 1), PAGE_SIZE << (MAX_ORDER - 1) },
	};

	setup(4096);
	u64 before = buddy_free_pages();
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		u8 *p = kmalloc(cases[i].size);
		CHECK(p != NULL);
		CHECK(IS_ALIGNED((uintptr_t)p, PAGE_SIZE));
		CHECK_EQ(ksize(p), cases[i].usable);
		CHECK(virt_to_page(p)->flags & PG_LARGE);
		CHECK_EQ(buddy_free_pages(), before - cases[i].usable / PAGE_SIZE);
		fill(p, ksize(p), 0x77);
		kfree(p);
		CHECK_EQ(buddy_free_pages(), before);
	}
	CHECK(kmalloc((PAGE_SIZE << (MAX_ORDER - 1)) + 1) == NULL);
	CHECK(kmalloc(SIZE_MAX) == NULL);
	CHECK_EQ(buddy_free_pages(), before);
}

UNIT_TEST(kzalloc_zeroes_reused_memory)
{
	setup(16);
	u8 *p = kmalloc(100);
	fill(p, 100, 0xff);
	kfree(p);
	u8 *q = kzalloc(100);
	CHECK(q == p);
	CHECK(filled_with(q, 100, 0));

	u8 *big = kmalloc(3 * PAGE_SIZE);
	fill(big, 3 * PAGE_SIZE, 0xff);
	kfree(big);
	u8 *zbig = kzalloc(3 * PAGE_SIZE);
	CHECK(zbig == big);
	CHECK(filled_with(zbig, 3 * PAGE_SIZE, 0));
}

UNIT_TEST(a_freed_object_is_handed_out_next)
{
	setup(16);
	void *a = kmalloc(64), *b = kmalloc(64);
	CHECK(a != b);
	kfree(a);
	CHECK(kmalloc(64) == a);
	kfree(b);
	CHECK(kmalloc(50) == b);
}

UNIT_TEST(objects_of_many_slabs_do_not_overlap)
{
	enum { PER_SLAB = PAGE_SIZE / 32, N = 3 * PER_SLAB + 5 };
	static u8 *objs[N];

	setup(64);
	for (int i = 0; i < N; i++) {
		objs[i] = kmalloc(32);
		CHECK(objs[i] != NULL);
		fill(objs[i], 32, (u8)i);
	}
	for (int i = 0; i < N; i++)
		CHECK(filled_with(objs[i], 32, (u8)i));
	struct kmalloc_class_stats st = class_stats(kmalloc_size_class(32));
	CHECK_EQ(st.slabs, 4);
	CHECK_EQ(st.objects_in_use, N);
	CHECK_EQ(st.allocs, N);
	CHECK_EQ(buddy_free_pages(), 64 - 4);
	for (int i = 0; i < N; i++)
		kfree(objs[i]);
	CHECK_EQ(class_stats(kmalloc_size_class(32)).frees, N);
}

UNIT_TEST(full_slab_rejoins_the_partial_list)
{
	enum { PER_SLAB = PAGE_SIZE / 512 };
	void *objs[PER_SLAB];

	setup(16);
	for (int i = 0; i < PER_SLAB; i++)
		objs[i] = kmalloc(512);
	void *next = kmalloc(512); /* the first slab is full: a second one */
	CHECK(virt_to_page(next) != virt_to_page(objs[0]));
	CHECK_EQ(class_stats(kmalloc_size_class(512)).slabs, 2);
	kfree(objs[3]);
	CHECK(kmalloc(512) == objs[3]);
}

UNIT_TEST(empty_slabs_go_back_to_the_buddy_allocator)
{
	enum { PER_SLAB = PAGE_SIZE / 256, N = 4 * PER_SLAB };
	void *objs[N];
	int class = kmalloc_size_class(256);

	setup(32);
	for (int i = 0; i < N; i++)
		objs[i] = kmalloc(256);
	CHECK_EQ(class_stats(class).slabs, 4);
	CHECK_EQ(buddy_free_pages(), 32 - 4);
	for (int i = 0; i < N; i++)
		kfree(objs[i]);
	/* One empty slab stays, so the next kmalloc needs no page. */
	CHECK_EQ(class_stats(class).slabs, 1);
	CHECK_EQ(buddy_free_pages(), 32 - 1);
	void *p = kmalloc(256);
	CHECK_EQ(buddy_free_pages(), 32 - 1);
	kfree(p);
	CHECK_EQ(class_stats(class).slabs, 1);
}

UNIT_TEST(exhaustion_returns_null_and_recovers)
{
	enum { PAGES = 8, N = PAGES * (PAGE_SIZE / 2048) };
	void *objs[N];

	setup(PAGES);
	for (int i = 0; i < N; i++) {
		objs[i] = kmalloc(2048);
		CHECK(objs[i] != NULL);
	}
	CHECK(kmalloc(2048) == NULL);
	CHECK(kmalloc(8) == NULL);
	CHECK(kmalloc(PAGE_SIZE) == NULL);
	CHECK_EQ(class_stats(kmalloc_size_class(2048)).allocs, N);
	for (int i = 0; i < N; i++)
		kfree(objs[i]);
	CHECK_EQ(buddy_free_pages(), PAGES - 1);
	CHECK(kmalloc(8) != NULL);
}

/* Random kmalloc/kfree with every byte checked; the allocator ends where it began. */
static void
random_churn(bool debug)
{
	enum { SLOTS = 2000 };
	static struct {
		u8 *p;
		size_t size;
	} slot[SLOTS];

	memset(slot, 0, sizeof(slot));
	setup(4096);
	kmemdebug = debug;
	u64 before = buddy_free_pages(), reports = kmemdebug_report_count();
	rng_state = 0x2545f4914f6cdd1dul;
	for (int step = 0; step < 100000; step++) {
		int i = (int)(rng() % SLOTS);
		if (slot[i].p) {
			if (!filled_with(slot[i].p, slot[i].size, (u8)i)) {
				CHECK(!"an object was overwritten by another");
				break;
			}
			kfree(slot[i].p);
			slot[i].p = NULL;
			continue;
		}
		/* Mostly small objects, now and then a multi-page one. */
		size_t size = rng() % 16 == 0 ? 1 + rng() % (6 * PAGE_SIZE) : 1 + rng() % 300;
		slot[i].p = kmalloc(size);
		slot[i].size = size;
		CHECK(slot[i].p != NULL);
		CHECK(ksize(slot[i].p) >= size);
		fill(slot[i].p, size, (u8)i);
	}
	for (int i = 0; i < SLOTS; i++) {
		if (slot[i].p) {
			CHECK(filled_with(slot[i].p, slot[i].size, (u8)i));
			kfree(slot[i].p);
		}
	}
	kmemdebug_drain_quarantine(); /* its freed large blocks, each checked */
	u64 kept = 0;
	for (int class = 0; class < KMALLOC_NCLASSES; class ++) {
		struct kmalloc_class_stats st = class_stats(class);
		CHECK_EQ(st.objects_in_use, 0);
		CHECK(st.slabs <= (debug ? 2u : 1u)); /* a kept slab per cache, plain and debug */
		kept += st.slabs;
	}
	CHECK_EQ(buddy_free_pages(), before - kept);
	CHECK_EQ(kmemdebug_report_count(), reports); /* no false alarm */
}

UNIT_TEST(random_kmalloc_kfree_keeps_every_object_intact)
{
	random_churn(false);
}

UNIT_TEST(random_churn_under_kmemdebug_keeps_every_object_intact)
{
	random_churn(true);
}

/* ---- kmemdebug ------------------------------------------------------------- */

/*
 * Whether the last kmemdebug report says what and names, after label, a
 * site inside fn: on the host sites print as addresses, and a call's
 * return address lies within the calling function.
 */
static bool
reported(const char *what, const char *label, void (*fn)(void))
{
	const char *r = kmemdebug_last_report(), *at = strstr(r, label);
	unsigned long site;

	return strstr(r, what) && at && sscanf(at + strlen(label), "%lx", &site) == 1 &&
	       site > (unsigned long)fn && site < (unsigned long)fn + 4096;
}

UNIT_TEST(kmemdebug_reports_a_red_zone_overrun)
{
	setup(64);
	kmemdebug = 1;
	u64 reports = kmemdebug_report_count();
	char *p = kmalloc(40);

	CHECK_EQ(ksize(p), 40); /* what was asked: the rest is red zone */
	memset(p, 'a', 40);
	kfree(p);
	CHECK_EQ(kmemdebug_report_count(), reports); /* all within bounds */
	p = kmalloc(40);
	p[40] = 'x';
	kfree(p);
	CHECK_EQ(kmemdebug_report_count(), reports + 1);
	CHECK(strstr(kmemdebug_last_report(), "red zone overwritten: 40-byte object"));
	CHECK(strstr(kmemdebug_last_report(), "(byte 40 is 0x78)"));
	CHECK(reported("red zone", "allocated at ", kmemdebug_reports_a_red_zone_overrun));
	CHECK(reported("red zone", "found by ", kmemdebug_reports_a_red_zone_overrun));
	CHECK_EQ(class_stats(kmalloc_size_class(40 + DEBUG_OVERHEAD)).objects_in_use, 0);
}

/* The live objects table counts at sites inside fn (host sites are addresses in the caller). */
static u64
live_in(const struct kmemdebug_site *table, size_t n, void (*fn)(void), u64 *sites)
{
	u64 live = 0;

	*sites = 0;
	for (size_t i = 0; i < n; i++)
		if (table[i].site > (u64)fn && table[i].site < (u64)fn + 4096) {
			live += table[i].live;
			(*sites)++;
		}
	return live;
}

UNIT_TEST(kmemdebug_counts_live_objects_by_site)
{
	struct kmemdebug_site table[64], one_slot[1];
	char *small[3], *plain;
	u64 sites;

	setup(64);
	plain = kmalloc(100); /* made with kmemdebug off: no trailer, not counted */
	kmemdebug = 1;
	/* Two sites: the loop's kmalloc, and the large block's. */
	for (int i = 0; i < 3; i++)
		small[i] = kmalloc(100);
	char *large = kmalloc(3 * PAGE_SIZE);
	kfree(small[1]);
	memset(table, 0, sizeof(table));
	CHECK_EQ(kmemdebug_count_live(table, ARRAY_SIZE(table)), 0);
	CHECK_EQ(live_in(table, ARRAY_SIZE(table), kmemdebug_counts_live_objects_by_site, &sites),
		 3);
	CHECK_EQ(sites, 2);
	memset(one_slot, 0, sizeof(one_slot));
	u64 unrecorded = kmemdebug_count_live(one_slot, 1);
	CHECK(unrecorded > 0); /* the site the walk met second found no slot */
	CHECK_EQ(one_slot[0].live + unrecorded, 3);
	kfree(large); /* into the quarantine: free, not counted */
	kfree(small[0]);
	kfree(small[2]);
	memset(table, 0, sizeof(table));
	kmemdebug_count_live(table, ARRAY_SIZE(table));
	CHECK_EQ(live_in(table, ARRAY_SIZE(table), kmemdebug_counts_live_objects_by_site, &sites),
		 0);
	kfree(plain);
}

/* The pages counted at sites inside fn (a page records its site's low 32 bits: compared so). */
static u64
pages_in(const struct kmemdebug_site *table, size_t n, void (*fn)(void))
{
	u64 pages = 0;

	for (size_t i = 0; i < n; i++)
		if ((u32)table[i].site > (u32)(uintptr_t)fn &&
		    (u32)table[i].site < (u32)(uintptr_t)fn + 4096)
			pages += table[i].live;
	return pages;
}

UNIT_TEST(page_blocks_are_counted_by_the_site_that_asked)
{
	struct kmemdebug_site table[64];

	setup(64);
	struct page *block = alloc_pages(2);
	void *zeroed = alloc_zeroed_page();
	struct page *shared = alloc_shared_page();
	char *large = kmalloc(3 * PAGE_SIZE); /* kmalloc's: its site is in kmemdebug_sites */
	memset(table, 0, sizeof(table));
	CHECK_EQ(kmemdebug_count_pages(table, ARRAY_SIZE(table)), 0);
	CHECK_EQ(pages_in(table, ARRAY_SIZE(table), page_blocks_are_counted_by_the_site_that_asked),
		 4 + 1 + 1);
	put_page(shared);
	free_page_virt(zeroed);
	free_pages(block, 2);
	memset(table, 0, sizeof(table));
	kmemdebug_count_pages(table, ARRAY_SIZE(table));
	CHECK_EQ(pages_in(table, ARRAY_SIZE(table), page_blocks_are_counted_by_the_site_that_asked),
		 0);
	kfree(large);
}

UNIT_TEST(kmemdebug_refuses_a_double_free)
{
	setup(64);
	kmemdebug = 1;
	u64 reports = kmemdebug_report_count();
	int class = kmalloc_size_class(100 + DEBUG_OVERHEAD);
	char *keep = kmalloc(100), *p = kmalloc(100);

	kfree(p);
	kfree(p); /* reported, not a panic, and not freed twice */
	CHECK_EQ(kmemdebug_report_count(), reports + 1);
	CHECK(reported("double free: 100-byte object", "allocated at ",
		       kmemdebug_refuses_a_double_free));
	CHECK(reported("double free", "freed at ", kmemdebug_refuses_a_double_free));
	CHECK_EQ(class_stats(class).objects_in_use, 1);
	CHECK(kmalloc(100) == p); /* its poison intact: no report */
	CHECK_EQ(kmemdebug_report_count(), reports + 1);
	kfree(p);
	kfree(keep);
	CHECK_EQ(class_stats(class).objects_in_use, 0);
}

UNIT_TEST(kmemdebug_reports_a_write_after_free)
{
	setup(64);
	kmemdebug = 1;
	u64 reports = kmemdebug_report_count();
	char *p = kmalloc(200);

	kfree(p);
	p[50] = 1;
	CHECK(kmalloc(200) == p); /* the freed object comes back first, and is checked */
	CHECK_EQ(kmemdebug_report_count(), reports + 1);
	CHECK(strstr(kmemdebug_last_report(), "use after free"));
	CHECK(strstr(kmemdebug_last_report(), "(byte 50 is 0x01)"));
	CHECK(reported("use after free", "freed at ", kmemdebug_reports_a_write_after_free));
	kfree(p);
}

UNIT_TEST(kmemdebug_reports_a_write_to_the_first_word_after_free)
{
	setup(64);
	kmemdebug = 1;
	u64 reports = kmemdebug_report_count();
	uintptr_t *p = kmalloc(64);

	kfree(p);
	*p = 0; /* where a plain cache keeps its free-list link */
	CHECK(kmalloc(64) == p);
	CHECK_EQ(kmemdebug_report_count(), reports + 1);
	CHECK(strstr(kmemdebug_last_report(), "(byte 0 is 0x00)"));
	CHECK(reported("use after free", "allocated at ",
		       kmemdebug_reports_a_write_to_the_first_word_after_free));
	CHECK(reported("use after free", "freed at ",
		       kmemdebug_reports_a_write_to_the_first_word_after_free));
	kfree(p);
}

/* An overrun past the red zone into the next free object's trailer: reported, the list cut there. */
UNIT_TEST(kmemdebug_reports_a_broken_free_list_link_and_goes_on)
{
	setup(64);
	kmemdebug = 1;
	u64 reports = kmemdebug_report_count();
	int class = kmalloc_size_class(100 + DEBUG_OVERHEAD);
	size_t span = (size_t)KMALLOC_MIN_SIZE << class;
	u8 *a = kmalloc(100), *b = kmalloc(100);

	kfree(b); /* b's link now names the rest of the slab's free objects */
	memset(a + 100, 'z', span + span - sizeof(struct debug_trailer) - 100 + sizeof(uintptr_t));
	CHECK(kmalloc(100) == b); /* its poison overwritten, and its link */
	CHECK_EQ(kmemdebug_report_count(), reports + 2);
	CHECK(strstr(kmemdebug_last_report(), "free-list link overwritten"));
	u8 *c = kmalloc(100); /* from a fresh slab: the old one has no free object left */
	CHECK(c != NULL && virt_to_page(c) != virt_to_page(a));
	kfree(c);
	kfree(b);
	kfree(a);
	CHECK_EQ(class_stats(class).objects_in_use, 0);
}

/* An emptied slab goes back to the buddy allocator only after its objects' poison is checked. */
UNIT_TEST(kmemdebug_checks_the_poison_of_a_slab_it_gives_back)
{
	enum { SPAN = 1024, PER_SLAB = PAGE_SIZE / SPAN };
	u8 *objs[2 * PER_SLAB];

	setup(64);
	kmemdebug = 1;
	u64 reports = kmemdebug_report_count();
	for (int i = 0; i < 2 * PER_SLAB; i++)
		objs[i] = kmalloc(SPAN - DEBUG_OVERHEAD);
	kfree(objs[PER_SLAB]); /* the second slab becomes partial */
	kfree(objs[1]);
	objs[1][10] = 0; /* written after free: never handed out again */
	for (int i = 0; i < PER_SLAB; i++)
		if (i != 1)
			kfree(objs[i]); /* the first slab, emptied, goes back */
	CHECK_EQ(kmemdebug_report_count(), reports + 1);
	CHECK(strstr(kmemdebug_last_report(), "use after free"));
	CHECK(strstr(kmemdebug_last_report(), "(byte 10 is 0x00)"));
	CHECK(reported("use after free", "freed at ",
		       kmemdebug_checks_the_poison_of_a_slab_it_gives_back));
	for (int i = PER_SLAB + 1; i < 2 * PER_SLAB; i++)
		kfree(objs[i]);
}

/* Just past the debug caches, a page, several pages: each with its red zone and sites. */
static const size_t large_sizes[] = { KMALLOC_MAX_SMALL - DEBUG_OVERHEAD + 1, PAGE_SIZE,
				      3 * PAGE_SIZE + 5 };

UNIT_TEST(kmemdebug_reports_a_red_zone_overrun_of_a_large_allocation)
{
	setup(256);
	kmemdebug = 1;
	u64 free_before = buddy_free_pages();
	for (size_t i = 0; i < ARRAY_SIZE(large_sizes); i++) {
		size_t size = large_sizes[i];
		u64 reports = kmemdebug_report_count();
		u8 *p = kmalloc(size);
		char what[64];

		CHECK(p && IS_ALIGNED((uintptr_t)p, PAGE_SIZE));
		CHECK_EQ(ksize(p), size);
		memset(p, 'a', size);
		p[size] = 'x';
		kfree(p);
		CHECK_EQ(kmemdebug_report_count(), reports + 1);
		snprintf(what, sizeof(what), "red zone overwritten: %zu-byte object", size);
		CHECK(strstr(kmemdebug_last_report(), what));
		CHECK(reported(what, "allocated at ",
			       kmemdebug_reports_a_red_zone_overrun_of_a_large_allocation));
	}
	CHECK(kmemdebug_quarantined_pages() > 0);
	kmemdebug_drain_quarantine();
	CHECK_EQ(kmemdebug_quarantined_pages(), 0);
	CHECK_EQ(buddy_free_pages(), free_before);
}

UNIT_TEST(kmemdebug_refuses_a_double_free_of_a_large_allocation)
{
	setup(256);
	kmemdebug = 1;
	for (size_t i = 0; i < ARRAY_SIZE(large_sizes); i++) {
		u64 reports = kmemdebug_report_count();
		void *p = kmalloc(large_sizes[i]);

		kfree(p);
		kfree(p); /* reported, not a panic */
		CHECK_EQ(kmemdebug_report_count(), reports + 1);
		CHECK(reported("double free", "allocated at ",
			       kmemdebug_refuses_a_double_free_of_a_large_allocation));
		CHECK(reported("double free", "freed at ",
			       kmemdebug_refuses_a_double_free_of_a_large_allocation));
	}
	kmemdebug_drain_quarantine();
	CHECK_EQ(buddy_free_pages(), 256);
}

UNIT_TEST(kmemdebug_reports_a_write_after_free_of_a_large_allocation)
{
	setup(256);
	kmemdebug = 1;
	for (size_t i = 0; i < ARRAY_SIZE(large_sizes); i++) {
		u64 reports = kmemdebug_report_count();
		size_t at = i == 0 ? 0 : large_sizes[i] - 1; /* the first word, the last byte */
		u8 *p = kmalloc(large_sizes[i]);
		char what[32];

		kfree(p);
		p[at] = 7;
		CHECK_EQ(kmemdebug_report_count(),
			 reports); /* seen when it leaves the quarantine */
		kmemdebug_drain_quarantine();
		CHECK_EQ(kmemdebug_report_count(), reports + 1);
		snprintf(what, sizeof(what), "(byte %zu is 0x07)", at);
		CHECK(strstr(kmemdebug_last_report(), what));
		CHECK(reported("use after free", "freed at ",
			       kmemdebug_reports_a_write_after_free_of_a_large_allocation));
	}
	CHECK_EQ(buddy_free_pages(), 256);
}

/* The quarantine holds QUARANTINE_PAGES at most, and gives way to an allocation that needs it. */
UNIT_TEST(kmemdebug_quarantine_is_bounded_and_yields_to_allocations)
{
	enum { PAGES = 2 * QUARANTINE_PAGES };
	setup(PAGES);
	kmemdebug = 1;
	u64 reports = kmemdebug_report_count();
	for (int i = 0; i < QUARANTINE_PAGES; i++) {
		kfree(kmalloc(PAGE_SIZE)); /* two pages each, with the red zone */
		CHECK(kmemdebug_quarantined_pages() <= QUARANTINE_PAGES);
	}
	CHECK_EQ(kmemdebug_quarantined_pages(), QUARANTINE_PAGES);
	/* More than the pages outside it: the last ones come only from the quarantine. */
	static void *live[QUARANTINE_PAGES / 2 + 1];
	for (size_t i = 0; i < ARRAY_SIZE(live); i++)
		CHECK((live[i] = kmalloc(PAGE_SIZE)) != NULL);
	CHECK(kmemdebug_quarantined_pages() < QUARANTINE_PAGES);
	for (size_t i = 0; i < ARRAY_SIZE(live); i++)
		kfree(live[i]);
	kmemdebug_drain_quarantine();
	CHECK_EQ(buddy_free_pages(), PAGES);
	CHECK_EQ(kmemdebug_report_count(), reports);
}

/* A request with no room for the red zone in the largest block is still served, plainly. */
UNIT_TEST(kmemdebug_serves_the_largest_request_plainly)
{
	setup(2048);
	kmemdebug = 1;
	void *p = kmalloc(PAGE_SIZE << (MAX_ORDER - 1));

	CHECK(p != NULL);
	CHECK_EQ(ksize(p), PAGE_SIZE << (MAX_ORDER - 1));
	kfree(p);
	CHECK_EQ(kmemdebug_quarantined_pages(), 0);
	CHECK_EQ(buddy_free_pages(), 2048);
}

UNIT_TEST(objects_keep_their_cache_when_kmemdebug_changes)
{
	setup(64);
	u64 reports = kmemdebug_report_count();
	void *plain = kmalloc(24);

	kmemdebug = 1;
	void *debugged = kmalloc(24);
	CHECK_EQ(ksize(plain), 32);
	CHECK_EQ(ksize(debugged), 24);
	kfree(plain);
	kmemdebug = 0;
	kfree(debugged);
	CHECK_EQ(kmemdebug_report_count(), reports);
	CHECK_EQ(class_stats(kmalloc_size_class(24)).objects_in_use, 0);
	CHECK_EQ(class_stats(kmalloc_size_class(24 + DEBUG_OVERHEAD)).objects_in_use, 0);
}

UNIT_TEST(live_object_that_looks_free_is_not_a_double_free)
{
	setup(16);
	uintptr_t *a = kmalloc(32), *b = kmalloc(32), *c = kmalloc(32);
	*a = (uintptr_t)b ^ FREELIST_POISON; /* a link to a live object */
	*c = FREELIST_POISON;		     /* a link that ends the list */
	kfree(a);
	kfree(c);
	CHECK_EQ(class_stats(kmalloc_size_class(32)).objects_in_use, 1);
	kfree(b);
}

/* ---- bad pointers: each case builds its own heap and must panic -------- */

static void
kfree_inside_object(void)
{
	setup(16);
	kfree((u8 *)kmalloc(16) + 8);
}

static void
kfree_odd_pointer(void)
{
	setup(16);
	kfree((u8 *)kmalloc(8) + 1);
}

static void
double_kfree(void)
{
	setup(16);
	void *p = kmalloc(64);
	kmalloc(64); /* keeps the slab in use */
	kfree(p);
	kfree(p);
}

static void
double_kfree_of_last_object(void)
{
	setup(16);
	void *p = kmalloc(128);
	kfree(p); /* the slab stays, empty, as the cache's only one */
	kfree(p);
}

static void
kfree_into_returned_slab(void)
{
	enum { PER_SLAB = PAGE_SIZE / 1024 };
	void *objs[2 * PER_SLAB];

	setup(16);
	for (int i = 0; i < 2 * PER_SLAB; i++)
		objs[i] = kmalloc(1024);
	kfree(objs[PER_SLAB]); /* the second slab becomes partial */
	for (int i = 0; i < PER_SLAB; i++)
		kfree(objs[i]); /* so the first one, emptied, goes back */
	kfree(objs[0]);
}

static void
double_kfree_large(void)
{
	setup(16);
	void *p = kmalloc(3 * PAGE_SIZE);
	kfree(p);
	kfree(p);
}

static void
kfree_inside_large_head_page(void)
{
	setup(16);
	kfree((u8 *)kmalloc(2 * PAGE_SIZE) + 64);
}

static void
kfree_inside_large_tail_page(void)
{
	setup(16);
	kfree((u8 *)kmalloc(2 * PAGE_SIZE) + PAGE_SIZE);
}

static void
kfree_of_a_buddy_page(void)
{
	setup(16);
	kfree(page_address(alloc_pages(0)));
}

static void
kfree_of_static_memory(void)
{
	static u64 not_heap;

	setup(16);
	kfree(&not_heap);
}

static void
ksize_inside_object(void)
{
	setup(16);
	ksize((u8 *)kmalloc(256) + 128);
}

static void
write_after_free(void)
{
	setup(16);
	u8 *p = kmalloc(64);
	kfree(p);
	memset(p, 0x41, 8);
	kmalloc(64);
}

UNIT_TEST(bad_pointers_panic)
{
	static const struct {
		void (*fn)(void);
		const char *says;
	} cases[] = {
		{ kfree_inside_object, "points into an allocation" },
		{ kfree_odd_pointer, "points into an allocation" },
		{ double_kfree, "double free" },
		{ double_kfree_of_last_object, "double free" },
		{ kfree_into_returned_slab, "not memory from kmalloc" },
		{ double_kfree_large, "not memory from kmalloc" },
		{ kfree_inside_large_head_page, "points into an allocation" },
		{ kfree_inside_large_tail_page, "not memory from kmalloc" },
		{ kfree_of_a_buddy_page, "not memory from kmalloc" },
		{ kfree_of_static_memory, "not memory from kmalloc" },
		{ ksize_inside_object, "ksize" },
		{ write_after_free, "use after free" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		bool panicked = unit_panics(cases[i].fn);
		CHECK(panicked);
		if (panicked && !strstr(unit_panic_msg, cases[i].says))
			CHECK_STR(unit_panic_msg, cases[i].says);
	}
}
