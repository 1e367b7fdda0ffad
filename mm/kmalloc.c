/*
 * kmalloc.c - the general kernel allocator: slab caches for small requests,
 * whole buddy blocks for large ones.
 *
 * Each power-of-two size class is a cache of slabs. A slab is one page from
 * alloc_pages, marked PG_SLAB with page->slab naming its cache, and cut into
 * equal objects; since the class size divides the page, every object is
 * naturally aligned to it. The free objects of a slab form a singly linked
 * list through their first word, headed by page->freelist, and page->inuse
 * counts the others. Slabs with a free object sit on the cache's partial
 * list; a full slab is on no list until an object comes back to it, so
 * kmalloc never searches. An emptied slab goes back to the buddy allocator
 * unless it is the cache's only partial slab, kept so that a cache
 * allocating and freeing one object in a loop does not take and return a
 * page every time.
 *
 * A large allocation is a block of 2^order pages whose first page carries
 * PG_LARGE; the order the block was allocated with stays in page->order.
 *
 * kfree finds the page from the pointer, so bad pointers are caught cheaply:
 * one that is neither in a slab nor at the start of a large block, or that
 * falls inside an object, panics, and so does a double free (see
 * FREELIST_POISON).
 *
 * The kmemdebug knob (at run time) sends small requests to a second set of
 * caches whose objects carry more: a red zone after the bytes asked for and
 * a trailer with the sites (return addresses) that allocated and freed the
 * object. Freed objects are poisoned. kfree checks the red zone and
 * refuses a double free; kmalloc checks that the poison of the object it
 * hands out is intact (else it was written after being freed). Each
 * finding is one report naming the object, the offending byte and the
 * sites, symbolized; the allocator goes on. Objects keep the caches they
 * were made in, so the knob may change at any time. Large allocations and
 * the first word of a free object (its free-list link: a write there
 * still panics, as without kmemdebug) are not covered.
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
}

/* ---- kmemdebug: red zones, poison, the sites of an object's life ---------- */

#define POISON_FREE 0x6b /* a free object's bytes past its link */
#define RED_ZONE    0xbb /* a live object's bytes past those asked for */
#define DEBUG_LIVE  0x4c495645u
#define DEBUG_FREE  0x46524545u
#define LINK_BYTES  sizeof(uintptr_t)

/* At the end of every kmemdebug object. */
struct debug_trailer {
	u64 alloc_site, free_site; /* return addresses into kmalloc's and kfree's callers */
	u32 size;		   /* bytes asked for */
	u32 state;		   /* DEBUG_LIVE or DEBUG_FREE */
};

/* What a kmemdebug object adds: the trailer and a red zone of at least a word. */
#define DEBUG_OVERHEAD (sizeof(struct debug_trailer) + sizeof(u64))

enum finding_kind { FOUND_NOTHING, FOUND_USE_AFTER_FREE, FOUND_RED_ZONE, FOUND_DOUBLE_FREE };

/* A kmemdebug finding, gathered under the cache lock and reported after it. */
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

static struct debug_trailer *
trailer_of(const struct kmem_cache *c, void *obj)
{
	return (struct debug_trailer *)((char *)obj + c->size - sizeof(struct debug_trailer));
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

/* A free object: poisoned past its link, its trailer saying so. */
static void
debug_poison(const struct kmem_cache *c, void *obj)
{
	size_t end = c->size - sizeof(struct debug_trailer);

	memset((char *)obj + LINK_BYTES, POISON_FREE, end - LINK_BYTES);
	trailer_of(c, obj)->state = DEBUG_FREE;
}

/* Hands out obj (size bytes for caller): its poison checked, its red zone laid. c->lock held. */
static void
debug_on_alloc(const struct kmem_cache *c, void *obj, size_t size, u64 caller, struct finding *f)
{
	struct debug_trailer *t = trailer_of(c, obj);
	size_t end = c->size - sizeof(struct debug_trailer);
	size_t bad = first_unlike(obj, LINK_BYTES, end, POISON_FREE);

	if (bad < end || t->state != DEBUG_FREE)
		*f =
			(struct finding){ FOUND_USE_AFTER_FREE, obj,   *t, bad,
					  ((u8 *)obj)[bad],	caller };
	*t = (struct debug_trailer){ .alloc_site = caller, .size = (u32)size, .state = DEBUG_LIVE };
	memset((char *)obj + size, RED_ZONE, end - size);
}

/*
 * Whether obj may be freed by caller: not if it is free already (a double
 * free, reported and ignored). Its red zone is checked and it is poisoned.
 * c->lock held.
 */
static bool
debug_on_free(const struct kmem_cache *c, void *obj, u64 caller, struct finding *f)
{
	struct debug_trailer *t = trailer_of(c, obj);
	size_t end = c->size - sizeof(struct debug_trailer);

	if (t->state == DEBUG_FREE) {
		*f = (struct finding){ FOUND_DOUBLE_FREE, obj, *t, 0, ((u8 *)obj)[0], caller };
		return false;
	}
	/* A trailer overwritten too: the red zone is the whole slack, as far as it can tell. */
	size_t size = t->state == DEBUG_LIVE && t->size < end ? t->size : 0;
	size_t bad = first_unlike(obj, size, end, RED_ZONE);
	if (bad < end || t->state != DEBUG_LIVE)
		*f = (struct finding){ FOUND_RED_ZONE, obj, *t, bad, ((u8 *)obj)[bad], caller };
	t->free_site = caller;
	debug_poison(c, obj);
	return true;
}

static uintptr_t
link_of(const void *obj)
{
	return *(const uintptr_t *)obj ^ FREELIST_POISON;
}

static void
set_link(void *obj, const void *next)
{
	*(uintptr_t *)obj = (uintptr_t)next ^ FREELIST_POISON;
}

static bool
link_valid(const struct kmem_cache *c, const struct page *slab, uintptr_t next)
{
	uintptr_t off = next - (uintptr_t)page_address(slab);

	return next == 0 || (off < PAGE_SIZE && off % c->size == 0);
}

static void *
freelist_next(const struct kmem_cache *c, const struct page *slab, void *obj)
{
	uintptr_t next = link_of(obj);

	if (!link_valid(c, slab, next))
		panic("kmalloc-%zu: free object %p was written to (use after free?)", c->size, obj);
	return (void *)next;
}

static bool
on_freelist(const struct kmem_cache *c, const struct page *slab, const void *obj)
{
	size_t left = PAGE_SIZE / c->size; /* bounds the walk even if the list loops */

	for (void *o = slab->freelist; o && left; o = freelist_next(c, slab, o), left--)
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
		set_link(base + off, free);
		free = base + off;
	}
	if (c->debug) {
		for (size_t off = 0; off < PAGE_SIZE; off += c->size) {
			*trailer_of(c, base + off) = (struct debug_trailer){ .state = DEBUG_FREE };
			debug_poison(c, base + off);
		}
	}
	slab->flags |= PG_SLAB;
	slab->slab = c;
	slab->inuse = 0;
	slab->freelist = free;
	list_add(&slab->list, &c->partial);
	c->slabs++;
	return slab;
}

/* c->lock held; slab is empty and on the partial list. */
static void
slab_destroy(struct kmem_cache *c, struct page *slab)
{
	list_del(&slab->list);
	slab->flags &= ~PG_SLAB;
	slab->slab = NULL;
	slab->freelist = NULL;
	c->slabs--;
	free_pages(slab, 0);
}

/* An object of c for size bytes, asked for by caller (kmemdebug's record). */
static void *
cache_alloc(struct kmem_cache *c, size_t size, u64 caller)
{
	void *obj = NULL;
	struct finding f = { FOUND_NOTHING };
	u64 flags = spin_lock_irqsave(&c->lock);

	if (!list_empty(&c->partial) || slab_create(c)) {
		struct page *slab = list_first_entry(&c->partial, struct page, list);

		obj = slab->freelist;
		slab->freelist = freelist_next(c, slab, obj);
		slab->inuse++;
		if (!slab->freelist)
			list_del(&slab->list);
		c->inuse++;
		c->allocs++;
		if (c->debug)
			debug_on_alloc(c, obj, size, caller, &f);
	}
	spin_unlock_irqrestore(&c->lock, flags);
	if (f.kind != FOUND_NOTHING)
		report(&f);
	return obj;
}

static void
cache_free(struct kmem_cache *c, struct page *slab, void *obj, u64 caller)
{
	struct finding f = { FOUND_NOTHING };
	u64 flags = spin_lock_irqsave(&c->lock);

	if (c->debug && !debug_on_free(c, obj, caller, &f)) {
		spin_unlock_irqrestore(&c->lock, flags);
		report(&f);
		return;
	}
	if (link_valid(c, slab, link_of(obj)) && on_freelist(c, slab, obj))
		panic("kfree(%p): double free (kmalloc-%zu)", obj, c->size);
	if (!slab->freelist)
		list_add(&slab->list, &c->partial);
	set_link(obj, slab->freelist);
	slab->freelist = obj;
	slab->inuse--;
	c->inuse--;
	c->frees++;
	/* The partial list holds another slab besides this one. */
	if (slab->inuse == 0 && c->partial.next != c->partial.prev)
		slab_destroy(c, slab);
	spin_unlock_irqrestore(&c->lock, flags);
	if (f.kind != FOUND_NOTHING)
		report(&f);
}

static void *
large_alloc(size_t size)
{
	unsigned order = 0;
	struct page *page;

	while (order < MAX_ORDER && (PAGE_SIZE << order) < size)
		order++;
	page = alloc_pages(order); /* NULL for order MAX_ORDER: too large */
	if (!page)
		return NULL;
	page->flags |= PG_LARGE;
	return page_address(page);
}

static void *
kmalloc_for(size_t size, u64 caller)
{
	int class;

	if (size == 0)
		return NULL;
	if (READ_ONCE(kmemdebug) && size <= KMALLOC_MAX_SMALL - DEBUG_OVERHEAD)
		return cache_alloc(&debug_caches[kmalloc_size_class(size + DEBUG_OVERHEAD)], size,
				   caller);
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
	if (page->flags & PG_SLAB && page->slab->debug)
		return trailer_of(page->slab, (void *)p)->size; /* the red zone is not to be used */
	if (page->flags & PG_SLAB)
		return page->slab->size;
	return PAGE_SIZE << page->order;
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
