/*
 * test_pairing_heap.c - kernel/lib/pairing_heap.c against a plain array:
 * random insertions and removals of any node keep the minimum right, and
 * draining gives every key in order.
 */
#include "tests/unit/unit.h"
#include "kernel/lib/pairing_heap.c"

struct item {
	struct pheap_node node;
	u64 key;
	bool in;
};

static bool
item_before(const struct pheap_node *a, const struct pheap_node *b)
{
	return ((const struct item *)a)->key < ((const struct item *)b)->key;
}

#define N 2000

static struct item items[N];

static u64
smallest_in(void)
{
	u64 min = ~0ull;

	for (int i = 0; i < N; i++)
		if (items[i].in && items[i].key < min)
			min = items[i].key;
	return min;
}

UNIT_TEST(random_inserts_and_removals_keep_the_minimum)
{
	struct pheap h = { .before = item_before };

	for (int step = 0; step < 40000; step++) {
		struct item *it = &items[rng() % N];
		if (it->in) {
			pheap_remove(&h, &it->node);
			it->in = false;
		} else {
			it->key = rng() % 5000; /* equal keys too */
			pheap_insert(&h, &it->node);
			it->in = true;
		}
		u64 min = smallest_in();
		if (min == ~0ull)
			CHECK(pheap_min(&h) == NULL);
		else
			CHECK_EQ(((struct item *)pheap_min(&h))->key, min);
	}
	u64 last = 0;
	while (pheap_min(&h)) {
		struct item *it = (struct item *)pheap_min(&h);
		CHECK(it->key >= last);
		last = it->key;
		pheap_remove(&h, &it->node);
		it->in = false;
	}
	CHECK_EQ(smallest_in(), ~0ull);
}

UNIT_TEST(sorted_and_reversed_insertions_drain_in_order)
{
	struct pheap h = { .before = item_before };

	for (int i = 0; i < N; i++) {
		items[i].key = i % 2 ? (u64)i : (u64)(N - i);
		pheap_insert(&h, &items[i].node);
	}
	u64 last = 0;
	for (int i = 0; i < N; i++) {
		struct item *it = (struct item *)pheap_min(&h);
		CHECK(it->key >= last);
		last = it->key;
		pheap_remove(&h, &it->node);
	}
	CHECK(pheap_min(&h) == NULL);
}
