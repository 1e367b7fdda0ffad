/*
 * page_alloc.h - the physical page allocator (a binary buddy allocator).
 *
 * Every page frame of RAM has a struct page in one array (mem_map), indexed
 * by page frame number minus the first PFN. Blocks are 2^order contiguous,
 * naturally aligned frames; allocation and freeing take O(MAX_ORDER) steps.
 * The bookkeeping lives entirely in struct page, never in the free memory
 * itself, so the host unit tests run it over a mem_map with no memory behind.
 *
 * Single pages come and go through per-CPU lists in front of the buddy
 * lists (Linux's per_cpu_pages): a page on one is free for every count
 * (page_alloc_get_stats), but not on the buddy lists until its CPU's list
 * grows too long or an allocation that found nothing drains every list.
 */
#ifndef REWIND_PAGE_ALLOC_H
#define REWIND_PAGE_ALLOC_H

#include "kernel/lib/types.h"
#include "kernel/lib/list.h"
#include "mm/layout.h"

#define MAX_ORDER 11 /* blocks of 1 .. 1024 pages (4 MiB) */

enum {
	PG_RESERVED = 1 << 0,  /* never handed out (firmware, kernel image, holes) */
	PG_BUDDY = 1 << 1,     /* head of a free block, on a free list; order is valid */
	PG_SLAB = 1 << 2,      /* owned by kmalloc; slab is valid */
	PG_ALLOCATED = 1 << 3, /* head of a block alloc_pages handed out; order is valid */
	PG_LARGE = 1 << 4,     /* head of a kmalloc allocation too big for a slab */
	PG_PCP = 1 << 5,       /* a free single page on a CPU's list (page_alloc.c) */
	PG_DIRTY = 1 << 8,     /* page cache: newer than any backing store (ramfs has none) */
};

struct kmem_cache;

struct page {
	struct list_head list; /* free list, or the owner's list */
	u32 flags;
	u8 order;		 /* of the block this page heads */
	u16 inuse;		 /* slab: objects handed out */
	void *freelist;		 /* slab: first free object */
	struct kmem_cache *slab; /* slab: the cache it belongs to */
	u32 refcount;		 /* shared pages (user mappings, page cache): holders */
	u32 alloc_site;		 /* block head: low half of its allocator's return address */
	struct inode *mapping;	 /* page cache: the file it caches, else NULL */
	u64 index;		 /* page cache: its page number in that file */
};

struct inode;

struct page_alloc_stats {
	u64 total_pages;	    /* managed: ever freed into the allocator */
	u64 free_pages;		    /* on the buddy lists and the per-CPU lists */
	u64 pcp_pages;		    /* of those, on the per-CPU lists */
	u64 free_blocks[MAX_ORDER]; /* on the buddy lists */
	u64 allocs, frees;	    /* successful calls, since boot */
};

/* mem_map covers PFNs [first_pfn, first_pfn + npages), all reserved at first. */
void page_alloc_init(struct page *mem_map, u64 first_pfn, u64 npages);
/* Hands the frames [start_pfn, end_pfn) to the allocator. */
void page_alloc_release_range(u64 start_pfn, u64 end_pfn);

/*
 * NULL when no block of that order is free. Each handed-out block's head
 * records who asked for it (the caller of alloc_pages, alloc_zeroed_page
 * or alloc_shared_page), in 32 bits since the kernel's text lies in the
 * top 2 GiB: page_site() gives the address back, for the count of live
 * pages by site that names the maker of a leaked page (/proc/page_sites).
 */
struct page *alloc_pages(unsigned order);
void free_pages(struct page *page, unsigned order);
/* Gives every CPU's list of free single pages back to the buddy lists. */
void page_alloc_drain_all(void);

u64 page_to_pfn(const struct page *page);
static inline u64
page_site(const struct page *head)
{
	return head->alloc_site ? 0xffffffff00000000ul | head->alloc_site : 0;
}
struct page *pfn_to_page(u64 pfn); /* NULL outside mem_map */
/* The PFNs mem_map covers, [*first, *end): for a walk over every frame. */
void page_alloc_pfn_range(u64 *first, u64 *end);
static inline phys_addr_t
page_to_phys(const struct page *p)
{
	return page_to_pfn(p) << PAGE_SHIFT;
}
static inline void *
page_address(const struct page *p)
{
	return phys_to_virt(page_to_phys(p));
}
static inline struct page *
virt_to_page(const void *va)
{
	return pfn_to_page(virt_to_phys(va) >> PAGE_SHIFT);
}

/*
 * Pages that several holders share (user mappings after fork, the page
 * cache) are counted: alloc_shared_page() returns a zeroed page with one
 * reference, and the last put_page() frees it. It leaves a reserve of
 * free pages that only the kernel's own allocations may take.
 */
struct page *alloc_shared_page(void);
static inline void
get_page(struct page *p)
{
	__atomic_add_fetch(&p->refcount, 1, __ATOMIC_RELAXED);
}
void put_page(struct page *p);
/*
 * put_page of n pages (Linux's release_pages): those whose last reference
 * goes are freed in one hold of this CPU's list, as munmap and exit give
 * back what a zap gathered.
 */
void put_pages(struct page **pages, unsigned n);
static inline u32
page_refcount(struct page *p)
{
	return __atomic_load_n(&p->refcount, __ATOMIC_ACQUIRE);
}
/*
 * A page-cache page's data changed (a write, or a write through a shared
 * mapping seen at fault or unmap). Tested first, as Linux's
 * __set_page_dirty_no_writeback: a rewrite costs no atomic.
 */
static inline void
set_page_dirty(struct page *page)
{
	if (!(__atomic_load_n(&page->flags, __ATOMIC_RELAXED) & PG_DIRTY))
		__atomic_or_fetch(&page->flags, PG_DIRTY, __ATOMIC_RELAXED);
}

/*
 * Frames taken out of use for good by memory-error injection (madvise
 * MADV_HWPOISON, MADV_SOFT_OFFLINE: mm/memory_failure.c), Linux's
 * num_poisoned_pages: allocated, but kept by design.
 */
u64 memory_failure_pages(void);

/* Convenience: one zeroed page, as a direct-map pointer; NULL when out of memory. */
void *alloc_zeroed_page(void);
void free_page_virt(void *va);

void page_alloc_get_stats(struct page_alloc_stats *out);
/* stats' total_pages alone, without the lock or the walk over the CPUs' lists. */
u64 page_alloc_total_pages(void);

#endif
