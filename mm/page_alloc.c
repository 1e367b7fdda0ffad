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
 * exist. One spinlock, zone_lock, covers the buddy lists; no operation
 * holds it for long.
 *
 * In front of them, each CPU keeps a list of free single pages (Linux's
 * per_cpu_pages), because nearly every allocation is one page (a fault, a
 * page table, a slab) and so is nearly every free (munmap, exit): with
 * zone_lock alone, every CPU's faults and munmaps queued on it
 * (docs/scaling.md). A CPU takes from and gives to its own list, and meets
 * the others on zone_lock once per PCP_BATCH pages: a refill when its list
 * is empty, a give-back of its coldest pages when it holds more than
 * PCP_HIGH. A page on such a list is PG_PCP: free for every count, no
 * block's head (it records no site), and never merged with its buddy until
 * it is back. An allocation that finds no block drains every CPU's list
 * before it says memory is exhausted.
 *
 * A CPU works on its list with interrupts off (the allocator is called
 * from interrupt handlers and under irqsave locks), which also keeps the
 * task on that CPU. Each list also has a lock, for a drain from another
 * CPU: Linux 6.1 drains with work run on each CPU, but here an allocation
 * that fails may run with interrupts off (kmalloc's slab refill, under its
 * cache's lock), where waiting for other CPUs to answer an IPI can
 * deadlock (smp_call_mask wants interrupts on), so the drainer takes the
 * lists' locks instead, as Linux does since 6.2. The owner only tries the
 * lock (one atomic on a line of its own) and, should a drain hold it, goes
 * to the buddy lists instead of waiting (Linux's pcp_spin_trylock).
 */
#include "mm/page_alloc.h"
#include "kernel/panic.h"
#include "kernel/lib/string.h"
#include "kernel/x86/percpu.h"
#include "locking/spinlock.h"

#define PCP_BATCH 31		  /* Linux's zone_batchsize for a zone of 512 MiB */
#define PCP_HIGH  (6 * PCP_BATCH) /* Linux's per-CPU high mark before 5.14 */

struct pcp_list {
	struct spinlock lock;
	struct list_head pages; /* PG_PCP pages, the last freed (cache-hot) first */
	u32 count;		/* changed under lock, and under zone_lock too when pages move */
	u64 allocs, frees;	/* the calls this list served */
} __aligned(64);

static struct page *mem_map;
static u64 first_pfn;
static u64 nr_pages;
static struct list_head free_area[MAX_ORDER];
static struct page_alloc_stats stats;
static struct spinlock zone_lock;
static struct pcp_list pcp_lists[MAX_CPUS];
static u64 reserve_pages; /* kernel_reserve_pages(), kept off the allocation path */

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
	reserve_pages = 0;
	spin_lock_init(&zone_lock, "page_alloc");
	for (unsigned cpu = 0; cpu < MAX_CPUS; cpu++) {
		memset(&pcp_lists[cpu], 0, sizeof(pcp_lists[cpu]));
		spin_lock_init(&pcp_lists[cpu].lock, "page_alloc_pcp");
		list_init(&pcp_lists[cpu].pages);
	}
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
	WRITE_ONCE(reserve_pages, kernel_reserve_pages());
	spin_unlock_irqrestore(&zone_lock, flags);
}

/* Whether taking pages from free_pages would leave less than the kernel's reserve free. */
static bool
reserve_short(u64 free_pages, unsigned order)
{
	return free_pages < READ_ONCE(reserve_pages) + (1ul << order);
}

/* Takes a free block of 2^order frames off the buddy lists, or NULL. zone_lock held. */
static struct page *
buddy_take(unsigned order)
{
	struct page *page;
	unsigned o;

	for (o = order; o < MAX_ORDER && list_empty(&free_area[o]); o++)
		;
	if (o == MAX_ORDER)
		return NULL;
	page = list_first_entry(&free_area[o], struct page, list);
	free_area_del(page, o);
	/* Hand back the upper halves until the block is the size asked for. */
	while (o > order) {
		o--;
		free_area_add(page + (1ul << o), o);
	}
	stats.free_pages -= 1ul << order;
	return page;
}

/* A block straight from the buddy lists; with keep_reserve, only if the reserve stays free. */
static struct page *
buddy_alloc(unsigned order, bool keep_reserve)
{
	struct page *page = NULL;
	u64 flags = spin_lock_irqsave(&zone_lock);

	if (!keep_reserve || !reserve_short(stats.free_pages, order))
		page = buddy_take(order);
	if (page)
		stats.allocs++;
	spin_unlock_irqrestore(&zone_lock, flags);
	return page;
}

/*
 * This CPU's list, locked with interrupts off (*flags restores them), or
 * NULL when a drain holds it.
 */
static inline __attribute__((always_inline)) struct pcp_list *
pcp_trylock(u64 *flags)
{
	*flags = local_irq_save();
	struct pcp_list *pcp = &pcp_lists[this_cpu()->id];
	if (spin_trylock(&pcp->lock))
		return pcp;
	local_irq_restore(*flags);
	return NULL;
}

static void
pcp_unlock(struct pcp_list *pcp, u64 flags)
{
	spin_unlock(&pcp->lock);
	local_irq_restore(flags);
}

/* Moves up to PCP_BATCH single pages from the buddy lists onto pcp, in one zone_lock hold. */
static void
pcp_refill(struct pcp_list *pcp)
{
	spin_lock(&zone_lock);
	for (unsigned i = 0; i < PCP_BATCH; i++) {
		struct page *page = buddy_take(0);
		if (!page)
			break;
		page->flags = PG_PCP;
		list_add_tail(&page->list, &pcp->pages);
		pcp->count++;
	}
	spin_unlock(&zone_lock);
}

/* Gives up to n of pcp's coldest pages back to the buddy lists, in one zone_lock hold. */
static void
pcp_give_back(struct pcp_list *pcp, u32 n)
{
	spin_lock(&zone_lock);
	for (; n > 0 && !list_empty(&pcp->pages); n--) {
		struct page *page = list_entry(pcp->pages.prev, struct page, list);
		list_del(&page->list);
		page->flags = 0;
		pcp->count--;
		free_block(page_to_pfn(page), 0);
	}
	spin_unlock(&zone_lock);
}

/*
 * A single page from this CPU's list, refilled when empty; NULL when the
 * buddy lists had none either, or, with keep_reserve, when the reserve
 * looks short. That look counts only this CPU's list besides the buddy
 * lists, so it errs towards NULL, and alloc_block's drain decides.
 */
static struct page *
pcp_alloc(bool keep_reserve)
{
	struct page *page = NULL;
	u64 flags;
	struct pcp_list *pcp = pcp_trylock(&flags);

	if (!pcp)
		return buddy_alloc(0, keep_reserve);
	if (!keep_reserve || !reserve_short(READ_ONCE(stats.free_pages) + pcp->count, 0)) {
		if (list_empty(&pcp->pages))
			pcp_refill(pcp);
		if (!list_empty(&pcp->pages)) {
			page = list_first_entry(&pcp->pages, struct page, list);
			list_del(&page->list);
			pcp->count--;
			pcp->allocs++;
		}
	}
	pcp_unlock(pcp, flags);
	return page;
}

void
page_alloc_drain_all(void)
{
	for (unsigned cpu = 0; cpu < MAX_CPUS; cpu++) {
		struct pcp_list *pcp = &pcp_lists[cpu];
		if (!READ_ONCE(pcp->count))
			continue;
		u64 flags = spin_lock_irqsave(&pcp->lock);
		pcp_give_back(pcp, pcp->count);
		spin_unlock_irqrestore(&pcp->lock, flags);
	}
}

/*
 * When no list had the block: the pages waiting on every CPU's list go
 * back to the buddy lists, where they may merge into the block asked for;
 * only then is memory exhausted (and the OOM killer due, mm/oom_kill.c).
 * Out of line, so that the common path saves no registers for it.
 */
static __attribute__((noinline)) struct page *
alloc_after_drain(unsigned order, bool keep_reserve)
{
	page_alloc_drain_all();
	return buddy_alloc(order, keep_reserve);
}

/* A block of 2^order frames for site; with keep_reserve, only if the kernel's reserve stays free. */
static struct page *
alloc_block(unsigned order, bool keep_reserve, void *site)
{
	struct page *page;

	if (order >= MAX_ORDER)
		return NULL;
	page = order == 0 ? pcp_alloc(keep_reserve) : buddy_alloc(order, keep_reserve);
	if (!page)
		page = alloc_after_drain(order, keep_reserve);
	if (page) {
		page->flags = PG_ALLOCATED;
		page->order = order;
		page->alloc_site = (u32)(uintptr_t)site;
	}
	return page;
}

struct page *
alloc_pages(unsigned order)
{
	return alloc_block(order, false, __builtin_return_address(0));
}

/* Panics if freeing page as a block of this order is a bug. */
static void
check_free(struct page *page, unsigned order)
{
	const char *why = NULL;

	if (page < mem_map || page >= mem_map + nr_pages)
		panic("free_pages(%p, order %u): not a page of mem_map", page, order);
	if (page->flags & PG_RESERVED)
		why = "the page is reserved";
	else if (!(page->flags & PG_ALLOCATED))
		why = "not allocated (double free, or not the first page of a block)";
	else if (page->flags & (PG_SLAB | PG_LARGE))
		why = "kmalloc still owns it";
	else if (page->order != order)
		why = "it was allocated with a different order";
	if (why)
		panic("free_pages(pfn 0x%lx, order %u): %s", page_to_pfn(page), order, why);
}

/* Frees a single page onto pcp, giving a batch back when pcp holds too many. pcp locked. */
static void
pcp_free(struct pcp_list *pcp, struct page *page)
{
	check_free(page, 0);
	page->flags = PG_PCP;
	list_add(&page->list, &pcp->pages);
	pcp->count++;
	pcp->frees++;
	if (pcp->count > PCP_HIGH)
		pcp_give_back(pcp, PCP_BATCH);
}

void
free_pages(struct page *page, unsigned order)
{
	u64 flags;
	struct pcp_list *pcp = order == 0 ? pcp_trylock(&flags) : NULL;

	if (pcp) {
		pcp_free(pcp, page);
		pcp_unlock(pcp, flags);
		return;
	}
	flags = spin_lock_irqsave(&zone_lock);
	check_free(page, order);
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

/*
 * Under zone_lock, pages moving between the buddy lists and a CPU's list
 * are counted once, on one side or the other.
 */
void
page_alloc_get_stats(struct page_alloc_stats *out)
{
	u64 flags = spin_lock_irqsave(&zone_lock);

	*out = stats;
	for (unsigned cpu = 0; cpu < MAX_CPUS; cpu++) {
		out->pcp_pages += READ_ONCE(pcp_lists[cpu].count);
		out->allocs += READ_ONCE(pcp_lists[cpu].allocs);
		out->frees += READ_ONCE(pcp_lists[cpu].frees);
	}
	spin_unlock_irqrestore(&zone_lock, flags);
	out->free_pages += out->pcp_pages;
}

u64
page_alloc_total_pages(void)
{
	return READ_ONCE(stats.total_pages);
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

/* Drops a reference to p: whether it was the last. */
static bool
drop_ref(struct page *p)
{
	u32 left = __atomic_sub_fetch(&p->refcount, 1, __ATOMIC_ACQ_REL);

	if (left == (u32)-1)
		panic("put_page: page %#lx has no references left to drop", page_to_phys(p));
	return left == 0;
}

void
put_page(struct page *p)
{
	if (drop_ref(p))
		free_pages(p, 0);
}

void
put_pages(struct page **pages, unsigned n)
{
	u64 flags;
	struct pcp_list *pcp = pcp_trylock(&flags);

	for (unsigned i = 0; i < n; i++) {
		if (!drop_ref(pages[i]))
			continue;
		if (pcp)
			pcp_free(pcp, pages[i]);
		else
			free_pages(pages[i], 0);
	}
	if (pcp)
		pcp_unlock(pcp, flags);
}
