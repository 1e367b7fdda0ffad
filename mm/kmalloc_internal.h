/*
 * kmalloc_internal.h - what the allocator (kmalloc.c) and its debugging
 * layer (kmemdebug.c) share: the cache, the trailer at the end of every
 * kmemdebug object, a finding, the sizes of large blocks, and the calls
 * each makes of the other. Nothing else includes it.
 */
#ifndef REWIND_KMALLOC_INTERNAL_H
#define REWIND_KMALLOC_INTERNAL_H

#include "mm/kmalloc.h"
#include "mm/page_alloc.h"
#include "locking/spinlock.h"

/* A size class's slabs; or, debug_large, the owner of kmemdebug's large blocks. */
struct kmem_cache {
	struct spinlock lock;
	size_t size;		  /* of every object */
	bool debug;		  /* kmemdebug's: objects end in a red zone and a trailer */
	struct list_head partial; /* slabs with at least one free object */
	u64 slabs, inuse, allocs, frees;
};

void kmem_cache_init(struct kmem_cache *c, size_t size, bool debug);

/* The order of the smallest buddy block of at least bytes. */
static inline unsigned
order_for(size_t bytes)
{
	unsigned order = 0;

	while (order < MAX_ORDER && (PAGE_SIZE << order) < bytes)
		order++;
	return order; /* MAX_ORDER: larger than any block */
}

/* The bytes of the large block whose head page is page. */
static inline size_t
block_span(const struct page *page)
{
	return PAGE_SIZE << page->order;
}

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

/* span: the bytes the object occupies, trailer included. */
static inline struct debug_trailer *
trailer_of(void *obj, size_t span)
{
	return (struct debug_trailer *)((char *)obj + span - sizeof(struct debug_trailer));
}

/* The owner (page->slab) of kmemdebug's large blocks; its lock guards the quarantine. */
extern struct kmem_cache debug_large;

/* kmemdebug.c's part of kmalloc_init: the large blocks' owner and the quarantine. */
void kmemdebug_init(void);
/* Records a finding about obj (span bytes, trailer included) at offset, for a report. */
void kmemdebug_found(struct finding *f, enum finding_kind kind, void *obj, size_t span,
		     size_t offset, u64 caller);
/* Reports a finding: one line in the log, the count and the last report's text. */
void kmemdebug_report(const struct finding *f);
/* A free object: poisoned up to its trailer, the trailer saying so. */
void debug_poison(void *obj, size_t span);
/* Whether the free object obj is as debug_poison left it; if not, f says how. */
bool debug_check_poison(void *obj, size_t span, u64 caller, struct finding *f);
/* Hands out obj (size bytes, for caller): its red zone laid, its trailer filled in. */
void debug_make_live(void *obj, size_t span, size_t size, u64 caller);
/* Whether obj may be freed by caller (not a double free); red zone checked, then poisoned. */
bool debug_on_free(void *obj, size_t span, u64 caller, struct finding *f);
/* A large block with kmemdebug's red zone and trailer, or NULL when it would not fit in one. */
void *debug_large_alloc(size_t size, u64 caller);
/* kfree of a kmemdebug block: checked, poisoned and quarantined (a double free reported). */
void debug_large_free(struct page *page, void *p, u64 caller);

#endif
