/*
 * kmalloc.h - the general kernel allocator.
 *
 * Requests up to KMALLOC_MAX_SMALL bytes are served from power-of-two size
 * classes (8 .. 2048 bytes), each a slab cache of whole pages carved into
 * equal objects; larger ones take whole page blocks from the buddy
 * allocator. Every object is aligned to its size class (8 at least), and a
 * large allocation to a page.
 */
#ifndef REWIND_KMALLOC_H
#define REWIND_KMALLOC_H

#include "kernel/lib/types.h"

#define KMALLOC_MIN_SIZE  8
#define KMALLOC_MAX_SMALL 2048

void kmalloc_init(void);
void *kmalloc(size_t size); /* NULL on failure or size 0 */
void *kzalloc(size_t size);
void kfree(void *p); /* kfree(NULL) does nothing */
/* The usable size of an allocation (its class size, or its page block; under kmemdebug, what was asked). */
size_t ksize(const void *p);
/* Index of the size class that serves `size`, or -1 for a large request. */
int kmalloc_size_class(size_t size);

struct kmalloc_class_stats {
	size_t object_size;
	u64 slabs; /* pages the class holds */
	u64 objects_in_use;
	u64 allocs, frees;
};
#define KMALLOC_NCLASSES 9 /* 8, 16, 32, 64, 128, 256, 512, 1024, 2048 */
void kmalloc_get_stats(struct kmalloc_class_stats out[KMALLOC_NCLASSES]);

/* kmemdebug (kmemdebug.c): reports made since boot, and the text of the last one. */
u64 kmemdebug_report_count(void);
const char *kmemdebug_last_report(void);
/* Freed large blocks kmemdebug holds back (pages), and their release, each checked. */
u64 kmemdebug_quarantined_pages(void);
void kmemdebug_drain_quarantine(void);
extern int kmemdebug; /* the knob */

/* A site that allocated live kmemdebug objects, and how many of them live. */
struct kmemdebug_site {
	u64 site; /* 0: an unused slot */
	u64 live;
};
/*
 * Counts the live objects made while kmemdebug was on, by the site that
 * allocated them, into table (nslots, a power of two, zeroed by the
 * caller); returns the objects whose site found no free slot. A leak
 * check reads it before and after: the sites whose counts grew made
 * what was left over.
 */
u64 kmemdebug_count_live(struct kmemdebug_site *table, size_t nslots);
/*
 * The same for the page allocator's blocks that are not kmalloc's, by the
 * site that asked for each (live is in pages); returns the pages not
 * recorded for want of slots.
 */
u64 kmemdebug_count_pages(struct kmemdebug_site *table, size_t nslots);

#endif
