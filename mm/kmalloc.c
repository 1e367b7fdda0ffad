/*
 * kmalloc.c - the general kernel allocator: slab caches for small requests,
 * whole buddy blocks for large ones.
 *
 * Each power-of-two size class is a cache of slabs. A slab is one page from
 * alloc_pages, marked PG_SLAB with page->slab naming its cache, and cut into
 * equal objects; since the class size divides the page, every object is
 * naturally aligned to it. The free objects of a slab form a singly linked
 * list, headed by page->freelist, and page->inuse counts the others. Slabs
 * with a free object sit on the cache's partial list; a full slab is on no
 * list until an object comes back to it, so kmalloc never searches. An
 * emptied slab goes back to the buddy allocator unless it is the cache's
 * only partial slab, kept so that a cache allocating and freeing one object
 * in a loop does not take and return a page every time.
 *
 * A large allocation is a block of 2^order pages whose first page carries
 * PG_LARGE; the order the block was allocated with stays in page->order.
 *
 * kfree finds the page from the pointer, so bad pointers are caught cheaply:
 * one that is neither in a slab nor at the start of a large block, or that
 * falls inside an object, panics, and so does a double free (see
 * FREELIST_POISON).
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
 * A double free is seen while the memory is still kmalloc's: a slab object
 * until its emptied slab goes back (the slab's poison is checked then), a
 * large block while in the quarantine. Later, the memory may be anyone's,
 * and kfree's pointer check panics as it does without kmemdebug.
 */
#include "mm/kmalloc.h"
#include "mm/page_alloc.h"
#include "kernel/knobs.h"
#include "kernel/ksyms.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/lib/string.h"
#include "kernel/lib/vsprintf.h"
#include "locking/spinlock.h"

KNOB_BOOL(kmemdebug, "kmemdebug", 0, true,
	  "kmalloc red zones, poisoning of freed objects, double-free and use-after-free reports "
	  "naming the allocation site (for objects allocated while on)");

/*
 * Free-list links are stored XORed with this. The pointers and zeros a user
 * leaves in an object almost never decode to a valid link (NULL or an object
 * of the same slab), which makes a valid-looking link a cheap first test for
 * a double free, confirmed by walking the slab's list; and a stray write into
 * a free object shows up as an invalid link when the list is followed.
 */
#define FREELIST_POISON 0xdead5ab000000000ul

struct kmem_cache {
	struct spinlock lock;
	size_t size;		  /* of every object */
	bool debug;		  /* kmemdebug's: objects end in a red zone and a trailer */
	struct list_head partial; /* slabs with at least one free object */
	u64 slabs, inuse, allocs, frees;
};

BUILD_BUG_ON(KMALLOC_MIN_SIZE < sizeof(void *));
BUILD_BUG_ON(KMALLOC_MIN_SIZE << (KMALLOC_NCLASSES - 1) != KMALLOC_MAX_SMALL);
BUILD_BUG_ON(KMALLOC_MAX_SMALL > PAGE_SIZE);

static struct kmem_cache caches[KMALLOC_NCLASSES];
static struct kmem_cache debug_caches[KMALLOC_NCLASSES];
/* The owner (page->slab) of kmemdebug's large blocks; its lock guards the quarantine. */
static struct kmem_cache debug_large;
static struct list_head quarantine; /* head pages of freed blocks, oldest first */
static u64 quarantine_pages;

int
kmalloc_size_class(size_t size)
{
	if (size > KMALLOC_MAX_SMALL)
		return -1;
	if (size <= KMALLOC_MIN_SIZE)
		return 0;
	/* Class i holds 2^(i + 3) bytes: the bit length of size - 1, less 3. */
	return (64 - __builtin_clzl(size - 1)) - __builtin_ctzl(KMALLOC_MIN_SIZE);
}

static void
cache_init(struct kmem_cache *c, size_t size, bool debug)
{
	memset(c, 0, sizeof(*c));
	spin_lock_init(&c->lock, debug ? "kmalloc_debug" : "kmalloc");
	c->size = size;
	c->debug = debug;
	list_init(&c->partial);
}

void
kmalloc_init(void)
{
	for (int i = 0; i < KMALLOC_NCLASSES; i++) {
		cache_init(&caches[i], (size_t)KMALLOC_MIN_SIZE << i, false);
		cache_init(&debug_caches[i], (size_t)KMALLOC_MIN_SIZE << i, true);
	}
	cache_init(&debug_large, 0, true);
	list_init(&quarantine);
	quarantine_pages = 0;
}

/* ---- kmemdebug: red zones, poison, the sites of an object's life ---------- */

#define POISON_FREE	 0x6b /* the bytes of a free object, up to its trailer */
#define RED_ZONE	 0xbb /* a live object's bytes past those asked for */
#define DEBUG_LIVE	 0x4c495645u
#define DEBUG_FREE	 0x46524545u
#define QUARANTINE_PAGES 256 /* freed large blocks held back: 1 MiB */

/*
 * At the end of every kmemdebug object, slab object or large block: its
 * span is the class size, or the block's.
 */
struct debug_trailer {
	uintptr_t link;		   /* a debug slab's free-list link (FREELIST_POISON-coded) */
	u64 alloc_site, free_site; /* return addresses into kmalloc's and kfree's callers */
	u32 size;		   /* bytes asked for */
	u32 state;		   /* DEBUG_LIVE or DEBUG_FREE */
};

/* What a kmemdebug object adds: the trailer and a red zone of at least a word. */
#define DEBUG_OVERHEAD (sizeof(struct debug_trailer) + sizeof(u64))

enum finding_kind {
	FOUND_NOTHING,
	FOUND_USE_AFTER_FREE,
	FOUND_RED_ZONE,
	FOUND_DOUBLE_FREE,
	FOUND_BAD_LINK,
};

/* A kmemdebug finding, gathered under a lock and reported after it. */
struct finding {
	enum finding_kind kind;
	const void *obj;
	struct debug_trailer trailer; /* as found */
	size_t offset;		      /* of the first bad byte */
	u8 byte;		      /* its value */
	u64 caller;		      /* the kmalloc or kfree that found it */
};

static u64 debug_reports;
static char debug_last_report[384];
static struct spinlock report_lock = SPINLOCK_INIT("kmemdebug_report");

/* span: the bytes the object occupies, trailer included. */
static struct debug_trailer *
trailer_of(void *obj, size_t span)
{
	return (struct debug_trailer *)((char *)obj + span - sizeof(struct debug_trailer));
}

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

static void
report(const struct finding *f)
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

static void
found(struct finding *f, enum finding_kind kind, void *obj, size_t span, size_t offset, u64 caller)
{
	*f = (struct finding){ kind,  obj, *trailer_of(obj, span), offset, ((u8 *)obj)[offset],
			       caller };
}

/* A free object: poisoned up to its trailer, the trailer saying so. */
static void
debug_poison(void *obj, size_t span)
{
	memset(obj, POISON_FREE, span - sizeof(struct debug_trailer));
	trailer_of(obj, span)->state = DEBUG_FREE;
}

/* Whether the free object obj is as debug_poison left it; if not, f says how. */
static bool
debug_check_poison(void *obj, size_t span, u64 caller, struct finding *f)
{
	size_t end = span - sizeof(struct debug_trailer);
	size_t bad = first_unlike(obj, 0, end, POISON_FREE);

	if (bad == end && trailer_of(obj, span)->state == DEBUG_FREE)
		return true;
	found(f, FOUND_USE_AFTER_FREE, obj, span, bad < end ? bad : 0, caller);
	return false;
}

/* Hands out obj (size bytes, for caller): its red zone laid, its trailer filled in. */
static void
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
static bool
debug_on_free(void *obj, size_t span, u64 caller, struct finding *f)
{
	struct debug_trailer *t = trailer_of(obj, span);
	size_t end = span - sizeof(*t);

	if (t->state == DEBUG_FREE) {
		found(f, FOUND_DOUBLE_FREE, obj, span, 0, caller);
		return false;
	}
	/* A trailer overwritten too: the red zone is the whole slack, as far as it can tell. */
	size_t size = t->state == DEBUG_LIVE && t->size < end ? t->size : 0;
	size_t bad = first_unlike(obj, size, end, RED_ZONE);
	if (bad < end || t->state != DEBUG_LIVE)
		found(f, FOUND_RED_ZONE, obj, span, bad < end ? bad : 0, caller);
	t->free_site = caller;
	debug_poison(obj, span);
	return true;
}

/* ---- slabs ------------------------------------------------------------------ */

/* Where obj's free-list link lives: its first word, or (kmemdebug) its trailer. */
static uintptr_t *
link_slot(const struct kmem_cache *c, void *obj)
{
	return c->debug ? &trailer_of(obj, c->size)->link : (uintptr_t *)obj;
}

static uintptr_t
link_of(const struct kmem_cache *c, void *obj)
{
	return *link_slot(c, obj) ^ FREELIST_POISON;
}

static void
set_link(const struct kmem_cache *c, void *obj, const void *next)
{
	*link_slot(c, obj) = (uintptr_t)next ^ FREELIST_POISON;
}

static bool
link_valid(const struct kmem_cache *c, const struct page *slab, uintptr_t next)
{
	uintptr_t off = next - (uintptr_t)page_address(slab);

	return next == 0 || (off < PAGE_SIZE && off % c->size == 0);
}

/* The free object after obj; a bad link panics, or under kmemdebug is reported and ends the list. */
static void *
freelist_next(const struct kmem_cache *c, const struct page *slab, void *obj, struct finding *f)
{
	uintptr_t next = link_of(c, obj);

	if (link_valid(c, slab, next))
		return (void *)next;
	if (!c->debug)
		panic("kmalloc-%zu: free object %p was written to (use after free?)", c->size, obj);
	found(f, FOUND_BAD_LINK, obj, c->size, c->size - sizeof(struct debug_trailer), 0);
	return NULL;
}

/* Whether obj is on slab's free list (a plain cache's double-free test). */
static bool
on_freelist(const struct kmem_cache *c, const struct page *slab, void *obj)
{
	size_t left = PAGE_SIZE / c->size; /* bounds the walk even if the list loops */

	for (void *o = slab->freelist; o && left; o = freelist_next(c, slab, o, NULL), left--)
		if (o == obj)
			return true;
	return false;
}

/* A fresh slab, put on the partial list. c->lock held. */
static struct page *
slab_create(struct kmem_cache *c)
{
	struct page *slab = alloc_pages(0);
	char *base;
	void *free = NULL;

	if (!slab)
		return NULL;
	base = page_address(slab);
	/* Chained from the top down, so objects go out in address order. */
	for (size_t off = PAGE_SIZE; off > 0;) {
		off -= c->size;
		if (c->debug)
			debug_poison(base + off, c->size);
		set_link(c, base + off, free);
		free = base + off;
	}
	slab->flags |= PG_SLAB;
	slab->slab = c;
	slab->inuse = 0;
	slab->freelist = free;
	list_add(&slab->list, &c->partial);
	c->slabs++;
	return slab;
}

/* Takes the empty slab (on the partial list) from c, for slab_retire. c->lock held. */
static void
slab_detach(struct kmem_cache *c, struct page *slab)
{
	list_del(&slab->list);
	slab->flags &= ~PG_SLAB;
	slab->slab = NULL;
	slab->freelist = NULL;
	c->slabs--;
}

/* Gives a detached slab back to the buddy allocator; kmemdebug's poison checked first. */
static void
slab_retire(const struct kmem_cache *c, struct page *slab, u64 caller)
{
	struct finding f;

	for (size_t off = 0; c->debug && off < PAGE_SIZE; off += c->size)
		if (!debug_check_poison((char *)page_address(slab) + off, c->size, caller, &f))
			report(&f);
	free_pages(slab, 0);
}

/* An object of c for size bytes, asked for by caller (kmemdebug's record). */
static void *
cache_alloc(struct kmem_cache *c, size_t size, u64 caller)
{
	void *obj = NULL;
	struct finding bad_poison = { FOUND_NOTHING }, bad_link = { FOUND_NOTHING };
	u64 flags = spin_lock_irqsave(&c->lock);

	if (!list_empty(&c->partial) || slab_create(c)) {
		struct page *slab = list_first_entry(&c->partial, struct page, list);

		obj = slab->freelist;
		slab->freelist = freelist_next(c, slab, obj, &bad_link);
		slab->inuse++;
		if (!slab->freelist)
			list_del(&slab->list);
		c->inuse++;
		c->allocs++;
		if (c->debug) {
			debug_check_poison(obj, c->size, caller, &bad_poison);
			debug_make_live(obj, c->size, size, caller);
		}
	}
	spin_unlock_irqrestore(&c->lock, flags);
	if (bad_poison.kind != FOUND_NOTHING)
		report(&bad_poison);
	if (bad_link.kind != FOUND_NOTHING)
		report(&bad_link);
	return obj;
}

static void
cache_free(struct kmem_cache *c, struct page *slab, void *obj, u64 caller)
{
	struct finding f = { FOUND_NOTHING };
	struct page *retired = NULL;
	u64 flags = spin_lock_irqsave(&c->lock);

	/* kmemdebug's trailer knows a free object; a plain one is looked for on the list. */
	if (c->debug ? !debug_on_free(obj, c->size, caller, &f)
		     : link_valid(c, slab, link_of(c, obj)) && on_freelist(c, slab, obj)) {
		spin_unlock_irqrestore(&c->lock, flags);
		if (!c->debug)
			panic("kfree(%p): double free (kmalloc-%zu)", obj, c->size);
		report(&f);
		return;
	}
	if (!slab->freelist)
		list_add(&slab->list, &c->partial);
	set_link(c, obj, slab->freelist);
	slab->freelist = obj;
	slab->inuse--;
	c->inuse--;
	c->frees++;
	/* The partial list holds another slab besides this one. */
	if (slab->inuse == 0 && c->partial.next != c->partial.prev) {
		slab_detach(c, slab);
		retired = slab;
	}
	spin_unlock_irqrestore(&c->lock, flags);
	if (f.kind != FOUND_NOTHING)
		report(&f);
	if (retired)
		slab_retire(c, retired, caller);
}

/* ---- large blocks ---------------------------------------------------------- */

static unsigned
order_for(size_t bytes)
{
	unsigned order = 0;

	while (order < MAX_ORDER && (PAGE_SIZE << order) < bytes)
		order++;
	return order; /* MAX_ORDER: larger than any block */
}

static void *
large_alloc(size_t size)
{
	struct page *page = alloc_pages(order_for(size)); /* NULL for MAX_ORDER: too large */

	if (!page)
		return NULL;
	page->flags |= PG_LARGE;
	page->slab = NULL; /* not kmemdebug's */
	return page_address(page);
}

static size_t
block_span(const struct page *page)
{
	return PAGE_SIZE << page->order;
}

/* Gives a block that has left the quarantine back to the buddy allocator, its poison checked. */
static void
quarantine_release(struct page *page, u64 caller)
{
	struct finding f;

	if (!debug_check_poison(page_address(page), block_span(page), caller, &f))
		report(&f);
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
static void *
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
static void
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
		report(&f);
	if (freed)
		quarantine_shrink(QUARANTINE_PAGES, caller);
}

/* ---- the interface ---------------------------------------------------------- */

static void *
kmalloc_for(size_t size, u64 caller)
{
	int class;
	void *p;

	if (size == 0)
		return NULL;
	if (READ_ONCE(kmemdebug)) {
		if (size <= KMALLOC_MAX_SMALL - DEBUG_OVERHEAD)
			return cache_alloc(&debug_caches[kmalloc_size_class(size + DEBUG_OVERHEAD)],
					   size, caller);
		if ((p = debug_large_alloc(size, caller)))
			return p;
	}
	class = kmalloc_size_class(size);
	if (class < 0)
		return large_alloc(size);
	return cache_alloc(&caches[class], size, caller);
}

/* Not inlined: the return address is the caller's site, for kmemdebug. */
__attribute__((noinline)) void *
kmalloc(size_t size)
{
	return kmalloc_for(size, (u64)__builtin_return_address(0));
}

__attribute__((noinline)) void *
kzalloc(size_t size)
{
	void *p = kmalloc_for(size, (u64)__builtin_return_address(0));

	if (p)
		memset(p, 0, size);
	return p;
}

/* The page p came from, once p is known to start a live-looking allocation. */
static struct page *
kmalloc_page(const void *p, const char *caller)
{
	struct page *page = virt_to_page(p);
	uintptr_t off;

	if (!page || !(page->flags & (PG_SLAB | PG_LARGE)))
		panic("%s(%p): not memory from kmalloc, or already freed", caller, p);
	off = (uintptr_t)p - (uintptr_t)page_address(page);
	if (page->flags & PG_SLAB ? off % page->slab->size != 0 : off != 0)
		panic("%s(%p): points into an allocation, not at its start", caller, p);
	return page;
}

__attribute__((noinline)) void
kfree(void *p)
{
	struct page *page;

	if (!p)
		return;
	page = kmalloc_page(p, "kfree");
	if (page->flags & PG_SLAB) {
		cache_free(page->slab, page, p, (u64)__builtin_return_address(0));
		return;
	}
	if (page->slab == &debug_large) {
		debug_large_free(page, p, (u64)__builtin_return_address(0));
		return;
	}
	page->flags &= ~PG_LARGE;
	free_pages(page, page->order);
}

size_t
ksize(const void *p)
{
	struct page *page;

	if (!p)
		return 0;
	page = kmalloc_page(p, "ksize");
	size_t span = page->flags & PG_SLAB ? page->slab->size : block_span(page);
	if (page->slab && page->slab->debug)
		return trailer_of((void *)p, span)->size; /* the red zone is not to be used */
	return span;
}

void
kmalloc_get_stats(struct kmalloc_class_stats out[KMALLOC_NCLASSES])
{
	for (int i = 0; i < KMALLOC_NCLASSES; i++) {
		out[i] = (struct kmalloc_class_stats){ .object_size = caches[i].size };
		/* kmemdebug's objects count in the class of their (larger) slots. */
		struct kmem_cache *both[] = { &caches[i], &debug_caches[i] };
		for (int k = 0; k < 2; k++) {
			struct kmem_cache *c = both[k];
			u64 flags = spin_lock_irqsave(&c->lock);
			out[i].slabs += c->slabs;
			out[i].objects_in_use += c->inuse;
			out[i].allocs += c->allocs;
			out[i].frees += c->frees;
			spin_unlock_irqrestore(&c->lock, flags);
		}
	}
}
