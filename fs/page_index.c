/*
 * page_index.c - the radix tree behind each file's page cache; see
 * page_index.h.
 *
 * A tree of height h has h levels of nodes and covers the indexes below
 * 64^h; the slot for an index at level l (1 = the leaves) is the index's
 * l-th group of six bits from the bottom. The tree grows upwards when an
 * index does not fit (the old root becomes slot 0 of a new root), and
 * removal frees every node it leaves empty, so an emptied tree holds no
 * memory. It never shrinks in height otherwise: a tall tree costs only
 * lookups a step or two, and files rarely shrink.
 */
#include "fs/page_index.h"
#include "uapi/errno.h"
#include "mm/kmalloc.h"

BUILD_BUG_ON(sizeof(struct page_index_node) != 512);

/* Shift that selects an index's slot in a node at level (1 = leaves). */
static inline unsigned
level_shift(unsigned level)
{
	return (level - 1) * PAGE_INDEX_BITS;
}

static inline unsigned
slot_of(u64 index, unsigned level)
{
	return (index >> level_shift(level)) & (PAGE_INDEX_SLOTS - 1);
}

/* Whether a tree of this height has room for index. */
static bool
fits(u64 index, unsigned height)
{
	unsigned bits = height * PAGE_INDEX_BITS;

	return bits >= 64 || (index >> bits) == 0;
}

static bool
node_empty(const struct page_index_node *n)
{
	for (unsigned i = 0; i < PAGE_INDEX_SLOTS; i++)
		if (n->slots[i])
			return false;
	return true;
}

struct page *
page_index_lookup(const struct page_index *pi, u64 index)
{
	const struct page_index_node *n = pi->root;

	if (!n || !fits(index, pi->height))
		return NULL;
	for (unsigned level = pi->height; level > 1; level--) {
		n = n->slots[slot_of(index, level)];
		if (!n)
			return NULL;
	}
	return n->slots[slot_of(index, 1)];
}

/* Adds levels on top until index fits: 0 or -ENOMEM. */
static int
grow(struct page_index *pi, u64 index)
{
	while (!fits(index, pi->height)) {
		if (pi->root) {
			struct page_index_node *top = kzalloc(sizeof(*top));
			if (!top)
				return -ENOMEM;
			top->slots[0] = pi->root;
			pi->root = top;
		}
		pi->height++;
	}
	return 0;
}

/*
 * Records in path[level] the nodes on the way from the root towards index,
 * and returns the lowest level reached (1 when the leaf node exists).
 */
static unsigned
descend(const struct page_index *pi, u64 index, struct page_index_node **path)
{
	struct page_index_node *n = pi->root;
	unsigned level = pi->height;

	path[level] = n;
	while (level > 1 && n->slots[slot_of(index, level)]) {
		n = n->slots[slot_of(index, level)];
		path[--level] = n;
	}
	return level;
}

/* Frees the nodes on the way to index that hold nothing, bottom up. */
static void
prune(struct page_index *pi, u64 index)
{
	struct page_index_node *path[PAGE_INDEX_MAX_HEIGHT + 1];

	if (!pi->root)
		return;
	for (unsigned level = descend(pi, index, path); node_empty(path[level]); level++) {
		kfree(path[level]);
		if (level == pi->height) {
			pi->root = NULL;
			pi->height = 0;
			return;
		}
		path[level + 1]->slots[slot_of(index, level + 1)] = NULL;
	}
}

int
page_index_insert(struct page_index *pi, u64 index, struct page *page)
{
	int err = grow(pi, index);

	if (err)
		return err;
	if (pi->height == 0)
		pi->height = 1;
	/* Walk down through the slot pointers, creating missing nodes on the way. */
	void **slot = (void **)&pi->root;
	for (unsigned level = pi->height; level >= 1; level--) {
		if (!*slot && !(*slot = kzalloc(sizeof(struct page_index_node)))) {
			prune(pi, index); /* the nodes made so far are empty */
			return -ENOMEM;
		}
		slot = &((struct page_index_node *)*slot)->slots[slot_of(index, level)];
	}
	if (*slot)
		return -EEXIST;
	*slot = page;
	pi->nrpages++;
	return 0;
}

struct page *
page_index_remove(struct page_index *pi, u64 index)
{
	struct page_index_node *path[PAGE_INDEX_MAX_HEIGHT + 1];

	if (!pi->root || !fits(index, pi->height) || descend(pi, index, path) != 1)
		return NULL;
	struct page *page = path[1]->slots[slot_of(index, 1)];
	if (page) {
		path[1]->slots[slot_of(index, 1)] = NULL;
		pi->nrpages--;
		prune(pi, index);
	}
	return page;
}

/* The first page at an index >= from below node n at level; NULL if none. */
static struct page *
next_below(const struct page_index_node *n, unsigned level, u64 from, u64 base, u64 *found)
{
	unsigned shift = level_shift(level);

	for (unsigned i = slot_of(from, level); i < PAGE_INDEX_SLOTS; i++) {
		u64 slot_base = base | ((u64)i << shift);
		if (!n->slots[i])
			continue;
		if (level == 1) {
			*found = slot_base;
			return n->slots[i];
		}
		/* Past the slot `from` lies in, the search starts at the slot's first index. */
		u64 sub_from = slot_base > from ? slot_base : from;
		struct page *p = next_below(n->slots[i], level - 1, sub_from, slot_base, found);
		if (p)
			return p;
	}
	return NULL;
}

struct page *
page_index_next(const struct page_index *pi, u64 *index)
{
	if (!pi->root || !fits(*index, pi->height))
		return NULL;
	return next_below(pi->root, pi->height, *index, 0, index);
}
