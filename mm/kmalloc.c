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
 */
#include "mm/kmalloc.h"
#include "mm/page_alloc.h"
#include "kernel/panic.h"
#include "kernel/lib/string.h"
#include "locking/spinlock.h"

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
	struct list_head partial; /* slabs with at least one free object */
	u64 slabs, inuse, allocs, frees;
};

BUILD_BUG_ON(KMALLOC_MIN_SIZE < sizeof(void *));
BUILD_BUG_ON(KMALLOC_MIN_SIZE << (KMALLOC_NCLASSES - 1) != KMALLOC_MAX_SMALL);
BUILD_BUG_ON(KMALLOC_MAX_SMALL > PAGE_SIZE);

static struct kmem_cache caches[KMALLOC_NCLASSES];

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
kmalloc_init(void)
{
	for (int i = 0; i < KMALLOC_NCLASSES; i++) {
		struct kmem_cache *c = &caches[i];

		memset(c, 0, sizeof(*c));
		spin_lock_init(&c->lock, "kmalloc");
		c->size = (size_t)KMALLOC_MIN_SIZE << i;
		list_init(&c->partial);
	}
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

static void *
cache_alloc(struct kmem_cache *c)
{
	void *obj = NULL;
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
	}
	spin_unlock_irqrestore(&c->lock, flags);
	return obj;
}

static void
cache_free(struct kmem_cache *c, struct page *slab, void *obj)
{
	u64 flags = spin_lock_irqsave(&c->lock);

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

void *
kmalloc(size_t size)
{
	int class;

	if (size == 0)
		return NULL;
	class = kmalloc_size_class(size);
	if (class < 0)
		return large_alloc(size);
	return cache_alloc(&caches[class]);
}

void *
kzalloc(size_t size)
{
	void *p = kmalloc(size);

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

void
kfree(void *p)
{
	struct page *page;

	if (!p)
		return;
	page = kmalloc_page(p, "kfree");
	if (page->flags & PG_SLAB) {
		cache_free(page->slab, page, p);
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
	if (page->flags & PG_SLAB)
		return page->slab->size;
	return PAGE_SIZE << page->order;
}

void
kmalloc_get_stats(struct kmalloc_class_stats out[KMALLOC_NCLASSES])
{
	for (int i = 0; i < KMALLOC_NCLASSES; i++) {
		struct kmem_cache *c = &caches[i];
		u64 flags = spin_lock_irqsave(&c->lock);

		out[i] = (struct kmalloc_class_stats){
			.object_size = c->size,
			.slabs = c->slabs,
			.objects_in_use = c->inuse,
			.allocs = c->allocs,
			.frees = c->frees,
		};
		spin_unlock_irqrestore(&c->lock, flags);
	}
}
