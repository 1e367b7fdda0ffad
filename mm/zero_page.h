/*
 * zero_page.h - the shared zero page: one page of zeroes that a read fault
 * of untouched private anonymous memory maps read-only (Linux's
 * ZERO_PAGE), so that reading memory never written costs no allocation.
 * The first write there replaces it with a private zeroed page
 * (mm/fault.c). It belongs to no process: it is never counted in a
 * resident size (rss, statm, smaps), never copied at fork and never
 * freed - it keeps the reference it was allocated with, so a put_page
 * from a path that does not know it cannot free it.
 */
#ifndef REWIND_ZERO_PAGE_H
#define REWIND_ZERO_PAGE_H

#include "mm/page_alloc.h"

extern struct page *zero_page;

/* Allocates the zero page; once, after the page allocator is up. */
void zero_page_init(void);

static inline bool
is_zero_page(const struct page *p)
{
	return p == zero_page;
}

#endif
