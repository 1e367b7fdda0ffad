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
 * The kmemdebug knob's red zones, poison and reports are kmemdebug.c's. An
 * allocation made while it is on comes from a second set of caches here
 * (debug_caches), whose objects have room for kmemdebug's trailer, or is a
 * large block of kmemdebug's own.
 */
#include "mm/kmalloc_internal.h"
#include "kernel/panic.h"
#include "kernel/lib/string.h"

/*
 * Free-list links are stored XORed with this. The pointers and zeros a user
 * leaves in an object almost never decode to a valid link (NULL or an object
 * of the same slab), which makes a valid-looking link a cheap first test for
 * a double free, confirmed by walking the slab's list; and a stray write into
 * a free object shows up as an invalid link when the list is followed.
 */
#define FREELIST_POISON 0xdead5ab000000000ul

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

void
kmem_cache_init(struct kmem_cache *c, size_t size, bool debug)
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
		kmem_cache_init(&caches[i], (size_t)KMALLOC_MIN_SIZE << i, false);
		kmem_cache_init(&debug_caches[i], (size_t)KMALLOC_MIN_SIZE << i, true);
	}
	kmemdebug_init();
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
	kmemdebug_found(f, FOUND_BAD_LINK, obj, c->size, c->size - sizeof(struct debug_trailer), 0);
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
			kmemdebug_report(&f);
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
		kmemdebug_report(&bad_poison);
	if (bad_link.kind != FOUND_NOTHING)
		kmemdebug_report(&bad_link);
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
		kmemdebug_report(&f);
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
		kmemdebug_report(&f);
	if (retired)
		slab_retire(c, retired, caller);
}

/* ---- large blocks ---------------------------------------------------------- */

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
