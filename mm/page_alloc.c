/*
 * page_alloc.c - the binary buddy allocator for physical page frames.
 *
 * Physical memory is cut into blocks of 2^order frames. The invariants:
 *
 *  - Every managed frame lies in exactly one block, which is either free
 *    (on free_area[order]) or handed out by alloc_pages.
 *  - A block of order k starts at a PFN that is a multiple of 2^k. The
 *    alignment is of the absolute PFN, not of the index into mem_map, so a
 *    block is also aligned in physical memory (a 2 MiB block could later be
 *    mapped by one large page). Its buddy, the other half of the block of
 *    order k + 1 containing it, therefore starts at pfn ^ 2^k.
 *  - Only a block's first page carries state: PG_BUDDY and order for a free
 *    block, PG_ALLOCATED and order for a handed-out one. Its other pages
 *    have neither flag, so freeing one of them is caught as a bad free.
 *  - No two buddies of the same order (below MAX_ORDER - 1) are ever both
 *    free: free merges them at once, as far up as it can. So allocation
 *    only ever splits.
 *  - Reserved frames and frames outside mem_map are never PG_BUDDY, so no
 *    block grows across a hole or off the end of the managed memory.
 *
 * All state lives in struct page; the free memory itself is never touched,
 * which lets the host unit tests run the allocator over frames that do not
 * exist. One spinlock covers all of it; no operation holds it for long.
 */
#include "mm/page_alloc.h"
#include "kernel/panic.h"
#include "kernel/lib/string.h"
#include "locking/spinlock.h"

static struct page *mem_map;
static u64 first_pfn;
static u64 nr_pages;
static struct list_head free_area[MAX_ORDER];
static struct page_alloc_stats stats;
static struct spinlock zone_lock;

u64
page_to_pfn(const struct page *page)
{
	return first_pfn + (u64)(page - mem_map);
}

struct page *
pfn_to_page(u64 pfn)
{
	if (pfn < first_pfn || pfn - first_pfn >= nr_pages)
		return NULL;
	return &mem_map[pfn - first_pfn];
}

void
page_alloc_pfn_range(u64 *first, u64 *end)
{
	*first = first_pfn;
	*end = first_pfn + nr_pages;
}

void
page_alloc_init(struct page *map, u64 first, u64 npages)
{
	mem_map = map;
	first_pfn = first;
	nr_pages = npages;
	for (u64 i = 0; i < npages; i++) {
		memset(&map[i], 0, sizeof(map[i]));
		list_init(&map[i].list);
		map[i].flags = PG_RESERVED;
	}
	for (unsigned order = 0; order < MAX_ORDER; order++)
		list_init(&free_area[order]);
	memset(&stats, 0, sizeof(stats));
	spin_lock_init(&zone_lock, "page_alloc");
}

static void
free_area_add(struct page *page, unsigned order)
{
	page->flags = PG_BUDDY;
	page->order = order;
	list_add(&page->list, &free_area[order]);
	stats.free_blocks[order]++;
}

static void
free_area_del(struct page *page, unsigned order)
{
	page->flags = 0;
	list_del(&page->list);
	stats.free_blocks[order]--;
}

/* Frees the block at pfn and merges it with its buddies. zone_lock held. */
static void
free_block(u64 pfn, unsigned order)
{
	stats.free_pages += 1ul << order;
	for (; order + 1 < MAX_ORDER; order++) {
		struct page *buddy = pfn_to_page(pfn ^ (1ul << order));
		if (!buddy || !(buddy->flags & PG_BUDDY) || buddy->order != order)
			break;
		free_area_del(buddy, order);
		pfn &= ~(1ul << order);
	}
	free_area_add(pfn_to_page(pfn), order);
}

/* The largest block that starts at pfn and ends at or before end. */
static unsigned
largest_block(u64 pfn, u64 end)
{
	unsigned order = 0;

	while (order + 1 < MAX_ORDER && IS_ALIGNED(pfn, 1ul << (order + 1)) &&
	       pfn + (2ul << order) <= end)
		order++;
	return order;
}

void
page_alloc_release_range(u64 start_pfn, u64 end_pfn)
{
	if (start_pfn > end_pfn || start_pfn < first_pfn || end_pfn > first_pfn + nr_pages)
		panic("page_alloc_release_range: [0x%lx, 0x%lx) is not inside mem_map "
		      "[0x%lx, 0x%lx)",
		      start_pfn, end_pfn, first_pfn, first_pfn + nr_pages);

	u64 flags = spin_lock_irqsave(&zone_lock);
	for (u64 pfn = start_pfn; pfn < end_pfn; pfn++) {
		struct page *page = pfn_to_page(pfn);
		if (!(page->flags & PG_RESERVED))
			panic("page_alloc_release_range: pfn 0x%lx released twice", pfn);
		page->flags = 0;
	}
	for (u64 pfn = start_pfn; pfn < end_pfn;) {
		unsigned order = largest_block(pfn, end_pfn);
		free_block(pfn, order);
		pfn += 1ul << order;
	}
	stats.total_pages += end_pfn - start_pfn;
	spin_unlock_irqrestore(&zone_lock, flags);
}

/*
 * Shared pages (user memory, the page cache) leave this many pages free:
 * the kernel's own allocations - the names unlink and close need, page
 * tables, a dying process's bookkeeping - still find memory when user
 * memory has run out (Linux's min watermark, in kind).
 */
static u64
kernel_reserve_pages(void)
{
	return MAX(stats.total_pages / 256, 32ul);
}

/*
 * A block of 2^order frames for site; with keep_reserve, only if the
 * kernel's reserve stays free.
 */
static struct page *
alloc_block(unsigned order, bool keep_reserve, void *site)
{
	struct page *page = NULL;
	unsigned o;

	if (order >= MAX_ORDER)
		return NULL;
	u64 flags = spin_lock_irqsave(&zone_lock);
	for (o = order; o < MAX_ORDER && list_empty(&free_area[o]); o++)
		;
	if (keep_reserve && stats.free_pages < kernel_reserve_pages() + (1ul << order))
		o = MAX_ORDER;
	if (o < MAX_ORDER) {
		page = list_first_entry(&free_area[o], struct page, list);
		free_area_del(page, o);
		/* Hand back the upper halves until the block is the size asked for. */
		while (o > order) {
			o--;
			free_area_add(page + (1ul << o), o);
		}
		page->flags = PG_ALLOCATED;
		page->order = order;
		page->alloc_site = (u32)(uintptr_t)site;
		stats.free_pages -= 1ul << order;
		stats.allocs++;
	}
	spin_unlock_irqrestore(&zone_lock, flags);
	return page;
}

struct page *
alloc_pages(unsigned order)
{
	return alloc_block(order, false, __builtin_return_address(0));
}

/* Why freeing page as a block of this order is a bug, or NULL if it is not. */
static const char *
bad_free_reason(const struct page *page, unsigned order)
{
	if (page->flags & PG_RESERVED)
		return "the page is reserved";
	if (!(page->flags & PG_ALLOCATED))
		return "not allocated (double free, or not the first page of a block)";
	if (page->flags & (PG_SLAB | PG_LARGE))
		return "kmalloc still owns it";
	if (page->order != order)
		return "it was allocated with a different order";
	return NULL;
}

void
free_pages(struct page *page, unsigned order)
{
	if (page < mem_map || page >= mem_map + nr_pages)
		panic("free_pages(%p, order %u): not a page of mem_map", page, order);

	u64 flags = spin_lock_irqsave(&zone_lock);
	const char *why = bad_free_reason(page, order);
	if (why)
		panic("free_pages(pfn 0x%lx, order %u): %s", page_to_pfn(page), order, why);
	page->flags = 0;
	free_block(page_to_pfn(page), order);
	stats.frees++;
	spin_unlock_irqrestore(&zone_lock, flags);
}

void *
alloc_zeroed_page(void)
{
	struct page *page = alloc_block(0, false, __builtin_return_address(0));

	if (!page)
		return NULL;
	memset(page_address(page), 0, PAGE_SIZE);
	return page_address(page);
}

void
free_page_virt(void *va)
{
	struct page *page = virt_to_page(va);

	if (!IS_ALIGNED((uintptr_t)va, PAGE_SIZE) || !page)
		panic("free_page_virt(%p): not the address of a page in mem_map", va);
	free_pages(page, 0);
}

void
page_alloc_get_stats(struct page_alloc_stats *out)
{
	u64 flags = spin_lock_irqsave(&zone_lock);
	*out = stats;
	spin_unlock_irqrestore(&zone_lock, flags);
}

struct page *
alloc_shared_page(void)
{
	struct page *p = alloc_block(0, true, __builtin_return_address(0));

	if (!p)
		return NULL;
	memset(page_address(p), 0, PAGE_SIZE);
	p->refcount = 1;
	p->mapping = NULL;
	p->index = 0;
	return p;
}

void
put_page(struct page *p)
{
	u32 left = __atomic_sub_fetch(&p->refcount, 1, __ATOMIC_ACQ_REL);

	if (left == 0)
		free_pages(p, 0);
	else if (left == (u32)-1)
		panic("put_page: page %#lx has no references left to drop", page_to_phys(p));
}
