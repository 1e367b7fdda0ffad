/*
 * mm.h - bringing memory management up at boot, in order: the boot memory
 * map (memblock), the kernel page tables, the page allocator, kmalloc.
 */
#ifndef REWIND_MM_H
#define REWIND_MM_H

#include "kernel/lib/types.h"

void mm_init(void);
/* True once memblock has handed all remaining memory to the page allocator. */
bool page_alloc_ready(void);

#endif
