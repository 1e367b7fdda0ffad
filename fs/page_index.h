/*
 * page_index.h - the page-cache index of one file: which struct page holds
 * page number `index` of the file's data.
 *
 * A radix tree of 64-way nodes, as Linux's page cache was until the XArray:
 * a file with pages only near its start needs one node, a sparse file (a
 * write far past its end) needs a few, and lookups cost one step per level.
 * Each node is exactly 512 bytes, one kmalloc size class.
 *
 * What it is not: it takes no locks and no page references, and knows
 * nothing about files. The caller (fs/filemap.c) owns both: it holds the
 * inode's pages_lock around every call (to read around lookup and next,
 * which only read nodes, so that readers may share the tree; to write
 * around insert and remove), and the index holds the one reference that
 * filemap.c took for it. Hardware-free: the host unit tests
 * (tests/unit/test_page_index.c) run it unchanged.
 */
#ifndef REWIND_PAGE_INDEX_H
#define REWIND_PAGE_INDEX_H

#include "kernel/lib/types.h"

struct page;

#define PAGE_INDEX_BITS	 6
#define PAGE_INDEX_SLOTS (1u << PAGE_INDEX_BITS)
/* Levels enough for any 64-bit index. */
#define PAGE_INDEX_MAX_HEIGHT ((64 + PAGE_INDEX_BITS - 1) / PAGE_INDEX_BITS)

struct page_index_node {
	void *slots[PAGE_INDEX_SLOTS]; /* child nodes, or pages at the last level */
};

struct page_index {
	struct page_index_node *root; /* NULL when empty */
	unsigned height;	      /* levels of nodes; indexes < 64^height fit */
	/*
	 * Pages held: memory bounds it far below 2^32 (16 TiB of cache), and
	 * 32 bits keep struct inode, which embeds an index, in 256 bytes.
	 */
	u32 nrpages;
};

/* clang-format off */
#define PAGE_INDEX_INIT { .root = NULL, .height = 0, .nrpages = 0 }
/* clang-format on */

static inline void
page_index_init(struct page_index *pi)
{
	pi->root = NULL;
	pi->height = 0;
	pi->nrpages = 0;
}

/* The page at index, or NULL. */
struct page *page_index_lookup(const struct page_index *pi, u64 index);
/* 0, -EEXIST when index already has a page, or -ENOMEM. */
int page_index_insert(struct page_index *pi, u64 index, struct page *page);
/* Takes the page at index out (freeing nodes left empty); NULL if there was none. */
struct page *page_index_remove(struct page_index *pi, u64 index);
/* The first page at an index >= *index, which is set to its index; NULL if none. */
struct page *page_index_next(const struct page_index *pi, u64 *index);

#endif
