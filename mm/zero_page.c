/*
 * zero_page.c - the shared zero page (see zero_page.h).
 */
#include "mm/zero_page.h"
#include "kernel/panic.h"

struct page *zero_page;

void
zero_page_init(void)
{
	zero_page = alloc_shared_page(); /* zeroed, and its reference is never dropped */
	if (!zero_page)
		panic("mm: no memory for the zero page");
}
