/*
 * test_page_index.c - host tests for the page-cache radix tree
 * (fs/page_index.c) over the real kmalloc and buddy allocator.
 *
 * The pages stored are entries of a plain array (the index never looks
 * inside them). Each test checks the tree against a simple model and that
 * every node is given back once the tree is empty, with kmalloc's
 * statistics as the witness; a random test compares lookups and in-order
 * walks with a sorted model after every step.
 */
#include "kernel/lib/types.h"
#include "tests/unit/unit.h"
#include "mm/page_alloc.c"
#include "mm/kmalloc.c"
#include "mm/kmemdebug.c"
#include "fs/page_index.c"

u64 direct_map_base;

static u8 *ram;
static struct page *map;
static struct page fake[4096];

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
}

static u64
nodes_in_use(void)
{
	struct kmalloc_class_stats st[KMALLOC_NCLASSES];

	kmalloc_get_stats(st);
	return st[kmalloc_size_class(sizeof(struct page_index_node))].objects_in_use;
}

UNIT_TEST(empty_index_holds_nothing)
{
	struct page_index pi = PAGE_INDEX_INIT;
	u64 i = 0;

	setup(16);
	CHECK(page_index_lookup(&pi, 0) == NULL);
	CHECK(page_index_lookup(&pi, UINT64_MAX) == NULL);
	CHECK(page_index_remove(&pi, 5) == NULL);
	CHECK(page_index_next(&pi, &i) == NULL);
	CHECK_EQ(pi.nrpages, 0);
	CHECK_EQ(nodes_in_use(), 0);
}

UNIT_TEST(one_page_at_index_zero_takes_one_node)
{
	struct page_index pi = PAGE_INDEX_INIT;

	setup(16);
	CHECK_EQ(page_index_insert(&pi, 0, &fake[0]), 0);
	CHECK(page_index_lookup(&pi, 0) == &fake[0]);
	CHECK(page_index_lookup(&pi, 1) == NULL);
	CHECK(page_index_lookup(&pi, 64) == NULL);
	CHECK_EQ(pi.height, 1);
	CHECK_EQ(pi.nrpages, 1);
	CHECK_EQ(nodes_in_use(), 1);
	CHECK_EQ(page_index_insert(&pi, 0, &fake[1]), -EEXIST);
	CHECK(page_index_lookup(&pi, 0) == &fake[0]);
	CHECK(page_index_remove(&pi, 0) == &fake[0]);
	CHECK(pi.root == NULL);
	CHECK_EQ(pi.height, 0);
	CHECK_EQ(pi.nrpages, 0);
	CHECK_EQ(nodes_in_use(), 0);
}

UNIT_TEST(sparse_indexes_up_to_the_largest)
{
	static const u64 idx[] = {
		0,
		1,
		63,
		64,
		65,
		4095,
		4096,
		262143,
		262144,
		1ull << 30,
		(1ull << 51) - 1,
		1ull << 51,
		1ull << 60,
		(1ull << 63) + 7,
		UINT64_MAX,
	};
	struct page_index pi = PAGE_INDEX_INIT;

	setup(64);
	/* Insert largest first, then the rest: the tree grows and then fills in. */
	for (size_t k = ARRAY_SIZE(idx); k-- > 0;)
		CHECK_EQ(page_index_insert(&pi, idx[k], &fake[k]), 0);
	CHECK_EQ(pi.height, PAGE_INDEX_MAX_HEIGHT);
	CHECK_EQ(pi.nrpages, ARRAY_SIZE(idx));
	for (size_t k = 0; k < ARRAY_SIZE(idx); k++) {
		CHECK(page_index_lookup(&pi, idx[k]) == &fake[k]);
		CHECK(page_index_lookup(&pi, idx[k] ^ 2) == NULL || idx[k] == 1 || idx[k] == 65);
	}
	/* In-order walk with next(). */
	u64 at = 0;
	for (size_t k = 0; k < ARRAY_SIZE(idx); k++) {
		struct page *p = page_index_next(&pi, &at);
		CHECK(p == &fake[k]);
		CHECK_EQ(at, idx[k]);
		if (at == UINT64_MAX)
			break;
		at++;
	}
	at = 66;
	CHECK(page_index_next(&pi, &at) == &fake[5]);
	CHECK_EQ(at, 4095);
	for (size_t k = 0; k < ARRAY_SIZE(idx); k++)
		CHECK(page_index_remove(&pi, idx[k]) == &fake[k]);
	CHECK(pi.root == NULL);
	CHECK_EQ(nodes_in_use(), 0);
}

UNIT_TEST(removing_a_missing_index_changes_nothing)
{
	struct page_index pi = PAGE_INDEX_INIT;

	setup(16);
	CHECK_EQ(page_index_insert(&pi, 100, &fake[0]), 0);
	u64 nodes = nodes_in_use();
	CHECK(page_index_remove(&pi, 101) == NULL);
	CHECK(page_index_remove(&pi, 1 << 20) == NULL);
	CHECK(page_index_remove(&pi, 36) == NULL);
	CHECK_EQ(nodes_in_use(), nodes);
	CHECK(page_index_lookup(&pi, 100) == &fake[0]);
	CHECK(page_index_remove(&pi, 100) == &fake[0]);
	CHECK_EQ(nodes_in_use(), 0);
}

UNIT_TEST(out_of_memory_leaves_no_empty_nodes)
{
	struct page_index pi = PAGE_INDEX_INIT;
	void *hog[64];
	int n = 0;

	setup(2);
	CHECK_EQ(page_index_insert(&pi, 0, &fake[0]), 0);
	CHECK_EQ(page_index_insert(&pi, 1ull << 40, &fake[1]), 0);
	u64 nodes = nodes_in_use();
	/* Use up what is left, then give one node back: a new path of 6 nodes fails at the second. */
	for (void *p; n < 64 && (p = kmalloc(512)); n++)
		hog[n] = p;
	CHECK(n < 64);
	kfree(hog[--n]);
	CHECK_EQ(page_index_insert(&pi, (1ull << 40) + (1ull << 31), &fake[2]), -ENOMEM);
	CHECK_EQ(nodes_in_use(), nodes + n);
	CHECK(page_index_lookup(&pi, 0) == &fake[0]);
	CHECK(page_index_lookup(&pi, 1ull << 40) == &fake[1]);
	CHECK(page_index_lookup(&pi, (1ull << 40) + (1ull << 31)) == NULL);
	/* Growing the tree by a level can fail too, and changes nothing visible. */
	kfree(hog[--n]);
	CHECK_EQ(page_index_insert(&pi, 1ull << 60, &fake[3]), -ENOMEM);
	CHECK(page_index_lookup(&pi, 1ull << 40) == &fake[1]);
	CHECK(page_index_remove(&pi, 0) == &fake[0]);
	CHECK(page_index_remove(&pi, 1ull << 40) == &fake[1]);
	CHECK_EQ(nodes_in_use(), (u64)n);
	while (n > 0)
		kfree(hog[--n]);
	CHECK_EQ(nodes_in_use(), 0);
}

/* The model: a sorted array of indexes; fake[k] is stored at model index k's slot. */
enum { MODEL_MAX = 600 };
static u64 model[MODEL_MAX];
static struct page *model_page[MODEL_MAX];
static int model_n;

static int
model_find(u64 index)
{
	for (int k = 0; k < model_n; k++)
		if (model[k] == index)
			return k;
	return -1;
}

static void
model_add(u64 index, struct page *p)
{
	int k = model_n++;
	while (k > 0 && model[k - 1] > index) {
		model[k] = model[k - 1];
		model_page[k] = model_page[k - 1];
		k--;
	}
	model[k] = index;
	model_page[k] = p;
}

static void
model_del(int k)
{
	for (; k + 1 < model_n; k++) {
		model[k] = model[k + 1];
		model_page[k] = model_page[k + 1];
	}
	model_n--;
}

static u64
random_index(void)
{
	switch (rng() % 4) {
	case 0:
		return rng() % 200; /* dense near the start */
	case 1:
		return rng() % (1 << 18); /* a few levels */
	case 2:
		return rng() >> (rng() % 64); /* anywhere */
	default:
		return model_n ? model[rng() % model_n] : 0; /* an existing one */
	}
}

UNIT_TEST(random_operations_match_a_model)
{
	struct page_index pi = PAGE_INDEX_INIT;

	setup(1024);
	model_n = 0;
	rng_state = 0x9e3779b97f4a7c15ul;
	for (int step = 0; step < 20000; step++) {
		u64 index = random_index();
		int k = model_find(index);
		if (rng() % 3 && model_n < MODEL_MAX) {
			struct page *p = &fake[step % ARRAY_SIZE(fake)];
			int err = page_index_insert(&pi, index, p);
			CHECK_EQ(err, k >= 0 ? -EEXIST : 0);
			if (k < 0)
				model_add(index, p);
		} else {
			struct page *p = page_index_remove(&pi, index);
			CHECK(p == (k >= 0 ? model_page[k] : NULL));
			if (k >= 0)
				model_del(k);
		}
		CHECK_EQ(pi.nrpages, model_n);
		if (step % 500 == 0) {
			u64 at = 0;
			for (int j = 0; j < model_n; j++) {
				CHECK(page_index_lookup(&pi, model[j]) == model_page[j]);
				CHECK(page_index_next(&pi, &at) == model_page[j]);
				CHECK_EQ(at, model[j]);
				at++;
			}
			if (model_n == 0 || model[model_n - 1] != UINT64_MAX)
				CHECK(page_index_next(&pi, &at) == NULL);
		}
		if (unit_failures_in_test)
			break;
	}
	while (model_n > 0) {
		CHECK(page_index_remove(&pi, model[0]) == model_page[0]);
		model_del(0);
	}
	CHECK(pi.root == NULL);
	CHECK_EQ(nodes_in_use(), 0);
}
