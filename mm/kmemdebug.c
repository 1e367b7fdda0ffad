/*
 * kmemdebug.c - kmalloc's debugging layer (the allocator is kmalloc.c).
 *
 * The kmemdebug knob (at run time) gives every allocation made while it is
 * on, of any size, a red zone after the bytes asked for and a trailer at
 * its end with the sites (return addresses) that allocated and freed it.
 * Freed memory is poisoned; kfree checks the red zone and refuses a double
 * free; the poison is checked when the memory is handed out again or given
 * back to the buddy allocator (else it was written after being freed).
 * Each finding is one report naming the object, the offending byte and the
 * sites, symbolized, and the allocator goes on: nothing kmemdebug finds
 * panics. Objects keep the caches they were made in, so the knob may
 * change at any time.
 *
 *  - Small requests go to a second set of caches whose objects have room
 *    for the trailer. A plain cache keeps a free object's link in its first
 *    word, where a write after free breaks the list; a debug cache keeps it
 *    in the trailer instead (as Linux's SLUB moves its free pointer past
 *    the object when debugging), so every byte a user was given is poisoned
 *    and checked, the first word included. A link that is nevertheless bad
 *    (an overrun of more than the red zone into the next object's trailer)
 *    is reported and the slab's free list cut there: its remaining free
 *    objects are lost to the cache, not handed out.
 *  - Large requests get a block with room for the trailer at its end (the
 *    same layout as a slab object, one per block; a request within
 *    DEBUG_OVERHEAD bytes of the largest block is served plainly, as it
 *    would not fit). A freed block is poisoned and held in a quarantine of
 *    QUARANTINE_PAGES, oldest out first, so that a double free or a write
 *    after free is still the allocator's to see; its poison is checked
 *    when it leaves for the buddy allocator. kmalloc drains the quarantine
 *    before it fails for want of pages.
 *
 * Every live object's trailer names the site that made it, so the live
 * objects can be counted by site (kmemdebug_count_live, a walk over every
 * frame): /proc/kmemdebug_sites, which leakcheck reads before and after
 * a run to name the code that made what was left over. The pages outside
 * kmalloc are counted by site the same way (kmemdebug_count_pages, from
 * the site each block's head records, with or without the knob):
 * /proc/page_sites, for a leak of pages.
 *
 * A double free is seen while the memory is still kmalloc's: a slab object
 * until its emptied slab goes back (the slab's poison is checked then), a
 * large block while in the quarantine. Later, the memory may be anyone's,
 * and kfree's pointer check panics as it does without kmemdebug.
 */
#include "mm/kmalloc_internal.h"
#include "kernel/knobs.h"
#include "kernel/ksyms.h"
#include "kernel/printk.h"
#include "kernel/lib/string.h"
#include "kernel/lib/vsprintf.h"

KNOB_BOOL(kmemdebug, "kmemdebug", 0, true,
	  "kmalloc red zones, poisoning of freed objects, double-free and use-after-free reports "
	  "naming the allocation site (for objects allocated while on)");

#define POISON_FREE	 0x6b /* the bytes of a free object, up to its trailer */
#define RED_ZONE	 0xbb /* a live object's bytes past those asked for */
#define DEBUG_LIVE	 0x4c495645u
#define DEBUG_FREE	 0x46524545u
#define QUARANTINE_PAGES 256 /* freed large blocks held back: 1 MiB */

static u64 debug_reports;
static char debug_last_report[384];
static struct spinlock report_lock = SPINLOCK_INIT("kmemdebug_report");

/* The first byte of [from, to) in obj that is not value, or to. */
static size_t
first_unlike(const void *obj, size_t from, size_t to, u8 value)
{
	const u8 *b = obj;

	while (from < to && b[from] == value)
		from++;
	return from;
}

static void
site_format(u64 site, char *buf, size_t size)
{
	if (!site)
		ksnprintf(buf, size, "?");
#ifdef HOSTED
	else
		ksnprintf(buf, size, "0x%lx", site); /* no symbol table on the host */
#else
	else
		ksym_format(site, buf, size);
#endif
}

void
kmemdebug_report(const struct finding *f)
{
	static const char *const what[] = {
		[FOUND_USE_AFTER_FREE] = "use after free: written after kfree",
		[FOUND_RED_ZONE] = "red zone overwritten",
		[FOUND_DOUBLE_FREE] = "double free",
		[FOUND_BAD_LINK] = "free-list link overwritten (free list cut)",
	};
	char alloc[96], freed[96], by[96], bad[32] = "";

	site_format(f->trailer.alloc_site, alloc, sizeof(alloc));
	site_format(f->trailer.free_site, freed, sizeof(freed));
	site_format(f->caller, by, sizeof(by));
	if (f->kind != FOUND_DOUBLE_FREE)
		ksnprintf(bad, sizeof(bad), " (byte %zu is 0x%02x)", f->offset, f->byte);
	u64 flags = spin_lock_irqsave(&report_lock);
	ksnprintf(debug_last_report, sizeof(debug_last_report),
		  "%s: %u-byte object %p%s, allocated at %s, freed at %s, found by %s",
		  what[f->kind], f->trailer.size, f->obj, bad, alloc, freed, by);
	__atomic_add_fetch(&debug_reports, 1, __ATOMIC_RELAXED);
	pr_err("kmemdebug: %s\n", debug_last_report);
	spin_unlock_irqrestore(&report_lock, flags);
}

u64
kmemdebug_report_count(void)
{
	return __atomic_load_n(&debug_reports, __ATOMIC_RELAXED);
}

const char *
kmemdebug_last_report(void)
{
	return debug_last_report;
}

void
kmemdebug_found(struct finding *f, enum finding_kind kind, void *obj, size_t span, size_t offset,
		u64 caller)
{
	*f = (struct finding){ kind,  obj, *trailer_of(obj, span), offset, ((u8 *)obj)[offset],
			       caller };
}

/* A free object: poisoned up to its trailer, the trailer saying so. */
void
debug_poison(void *obj, size_t span)
{
	memset(obj, POISON_FREE, span - sizeof(struct debug_trailer));
	trailer_of(obj, span)->state = DEBUG_FREE;
}

/* Whether the free object obj is as debug_poison left it; if not, f says how. */
bool
debug_check_poison(void *obj, size_t span, u64 caller, struct finding *f)
{
	size_t end = span - sizeof(struct debug_trailer);
	size_t bad = first_unlike(obj, 0, end, POISON_FREE);

	if (bad == end && trailer_of(obj, span)->state == DEBUG_FREE)
		return true;
	kmemdebug_found(f, FOUND_USE_AFTER_FREE, obj, span, bad < end ? bad : 0, caller);
	return false;
}

/* Hands out obj (size bytes, for caller): its red zone laid, its trailer filled in. */
void
debug_make_live(void *obj, size_t span, size_t size, u64 caller)
{
	struct debug_trailer *t = trailer_of(obj, span);

	t->alloc_site = caller;
	t->free_site = 0;
	t->size = (u32)size;
	t->state = DEBUG_LIVE;
	memset((char *)obj + size, RED_ZONE, span - sizeof(*t) - size);
}

/*
 * Whether obj may be freed by caller: not if it is free already (a double
 * free, reported and ignored). Its red zone is checked and it is poisoned.
 * Under the lock of its cache.
 */
bool
debug_on_free(void *obj, size_t span, u64 caller, struct finding *f)
{
	struct debug_trailer *t = trailer_of(obj, span);
	size_t end = span - sizeof(*t);

	if (t->state == DEBUG_FREE) {
		kmemdebug_found(f, FOUND_DOUBLE_FREE, obj, span, 0, caller);
		return false;
	}
	/* A trailer overwritten too: the red zone is the whole slack, as far as it can tell. */
	size_t size = t->state == DEBUG_LIVE && t->size < end ? t->size : 0;
	size_t bad = first_unlike(obj, size, end, RED_ZONE);
	if (bad < end || t->state != DEBUG_LIVE)
		kmemdebug_found(f, FOUND_RED_ZONE, obj, span, bad < end ? bad : 0, caller);
	t->free_site = caller;
	debug_poison(obj, span);
	return true;
}

/* The owner (page->slab) of kmemdebug's large blocks; its lock guards the quarantine. */
struct kmem_cache debug_large;
static struct list_head quarantine; /* head pages of freed blocks, oldest first */
static u64 quarantine_pages;

void
kmemdebug_init(void)
{
	kmem_cache_init(&debug_large, 0, true);
	list_init(&quarantine);
	quarantine_pages = 0;
}

/* Gives a block that has left the quarantine back to the buddy allocator, its poison checked. */
static void
quarantine_release(struct page *page, u64 caller)
{
	struct finding f;

	if (!debug_check_poison(page_address(page), block_span(page), caller, &f))
		kmemdebug_report(&f);
	free_pages(page, page->order);
}

/* Takes blocks out of the quarantine, oldest first, until it holds at most keep pages. */
static void
quarantine_shrink(u64 keep, u64 caller)
{
	for (;;) {
		struct page *oldest = NULL;
		u64 flags = spin_lock_irqsave(&debug_large.lock);
		if (quarantine_pages > keep) {
			oldest = list_first_entry(&quarantine, struct page, list);
			list_del(&oldest->list);
			quarantine_pages -= 1ul << oldest->order;
			oldest->flags &= ~PG_LARGE; /* no longer kfree's to see */
			oldest->slab = NULL;
		}
		spin_unlock_irqrestore(&debug_large.lock, flags);
		if (!oldest)
			return;
		quarantine_release(oldest, caller);
	}
}

void
kmemdebug_drain_quarantine(void)
{
	quarantine_shrink(0, (u64)__builtin_return_address(0));
}

u64
kmemdebug_quarantined_pages(void)
{
	return __atomic_load_n(&quarantine_pages, __ATOMIC_RELAXED);
}

/* A large block with kmemdebug's red zone and trailer, or NULL when it would not fit in one. */
void *
debug_large_alloc(size_t size, u64 caller)
{
	unsigned order = order_for(size + DEBUG_OVERHEAD);
	struct page *page;

	if (order >= MAX_ORDER)
		return NULL;
	page = alloc_pages(order);
	if (!page) {
		quarantine_shrink(0, caller);
		page = alloc_pages(order);
	}
	if (!page)
		return NULL;
	debug_make_live(page_address(page), block_span(page), size, caller);
	u64 flags = spin_lock_irqsave(&debug_large.lock);
	page->flags |= PG_LARGE;
	page->slab = &debug_large;
	debug_large.inuse++;
	debug_large.allocs++;
	spin_unlock_irqrestore(&debug_large.lock, flags);
	return page_address(page);
}

/* kfree of a kmemdebug block: checked, poisoned and quarantined (a double free reported). */
void
debug_large_free(struct page *page, void *p, u64 caller)
{
	struct finding f = { FOUND_NOTHING };
	u64 flags = spin_lock_irqsave(&debug_large.lock);
	bool freed = debug_on_free(p, block_span(page), caller, &f);

	if (freed) {
		list_add_tail(&page->list, &quarantine);
		quarantine_pages += 1ul << page->order;
		debug_large.inuse--;
		debug_large.frees++;
	}
	spin_unlock_irqrestore(&debug_large.lock, flags);
	if (f.kind != FOUND_NOTHING)
		kmemdebug_report(&f);
	if (freed)
		quarantine_shrink(QUARANTINE_PAGES, caller);
}

/* ---- live objects by site ------------------------------------------------------ */

/* Adds n of site to table (open addressing); false when the table is full. */
static bool
site_count(struct kmemdebug_site *table, size_t nslots, u64 site, u64 n)
{
	size_t i = (size_t)(site * 0x9e3779b97f4a7c15ul >> 32) & (nslots - 1);

	for (size_t probes = 0; probes < nslots; probes++, i = (i + 1) & (nslots - 1)) {
		if (table[i].site == site || !table[i].site) {
			table[i].site = site;
			table[i].live += n;
			return true;
		}
	}
	return false;
}

/* The live objects of one frame: a debug slab's, or a debug large block's head; under the owner's lock. */
static u64
count_frame(struct page *page, struct kmemdebug_site *table, size_t nslots)
{
	struct kmem_cache *c = READ_ONCE(page->slab);
	u64 lost = 0;

	if (!c || !c->debug)
		return 0;
	u64 flags = spin_lock_irqsave(&c->lock);
	if (page->slab == c && c != &debug_large && (page->flags & PG_SLAB)) {
		for (size_t off = 0; off + c->size <= PAGE_SIZE; off += c->size) {
			struct debug_trailer *t =
				trailer_of((char *)page_address(page) + off, c->size);
			if (t->state == DEBUG_LIVE)
				lost += !site_count(table, nslots, t->alloc_site, 1);
		}
	} else if (page->slab == c && (page->flags & PG_LARGE)) {
		struct debug_trailer *t = trailer_of(page_address(page), block_span(page));
		if (t->state == DEBUG_LIVE) /* not one in the quarantine */
			lost += !site_count(table, nslots, t->alloc_site, 1);
	}
	spin_unlock_irqrestore(&c->lock, flags);
	return lost;
}

u64
kmemdebug_count_live(struct kmemdebug_site *table, size_t nslots)
{
	u64 first, end, lost = 0;

	page_alloc_pfn_range(&first, &end);
	for (u64 pfn = first; pfn < end; pfn++)
		lost += count_frame(pfn_to_page(pfn), table, nslots);
	return lost;
}

/*
 * Not kmalloc's, but counted the same way: every block the page allocator
 * handed out and kmalloc does not own (its slabs and large blocks are the
 * objects above), by the site its head records (page_alloc.h), in pages.
 * Unlocked: a block handed out or freed meanwhile is counted or not, which
 * is all a before-and-after comparison needs.
 */
u64
kmemdebug_count_pages(struct kmemdebug_site *table, size_t nslots)
{
	u64 first, end, lost = 0;

	page_alloc_pfn_range(&first, &end);
	for (u64 pfn = first; pfn < end; pfn++) {
		struct page *page = pfn_to_page(pfn);
		u32 flags = READ_ONCE(page->flags);
		u64 pages = 1ul << READ_ONCE(page->order);
		if ((flags & PG_ALLOCATED) && !(flags & (PG_SLAB | PG_LARGE)) &&
		    !site_count(table, nslots, page_site(page), pages))
			lost += pages;
	}
	return lost;
}
