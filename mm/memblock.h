/*
 * memblock.h - the boot-time physical memory map and allocator.
 *
 * Before the buddy allocator exists, memory is a list of free physical
 * ranges: the loader's available RAM, page-aligned, minus what must never
 * be handed out (the low 1 MiB, the kernel image, boot modules). Early
 * allocations (page tables, mem_map) are carved from it; whatever is left
 * is then released to the buddy allocator and memblock is done.
 */
#ifndef REWIND_MEMBLOCK_H
#define REWIND_MEMBLOCK_H

#include "kernel/lib/types.h"

#define MEMBLOCK_MAX_RANGES 128

struct mem_range {
	u64 start, end; /* [start, end), page-aligned */
};

struct memblock {
	struct mem_range free[MEMBLOCK_MAX_RANGES];
	int nfree;
	u64 ram_end;   /* end of the highest RAM range ever added */
	u64 ram_total; /* bytes of RAM added */
	bool overflow; /* a range was lost for lack of slots */
};

extern struct memblock memblock;

void memblock_reset(struct memblock *mb);
/* Adds RAM; the range is shrunk to whole pages. */
void memblock_add(struct memblock *mb, u64 start, u64 end);
/* Takes [start, end) (widened to whole pages) out of the free ranges. */
void memblock_reserve(struct memblock *mb, u64 start, u64 end);
/* Physical address of size bytes (rounded up to pages), aligned, ending at or below limit; 0 on failure. */
u64 memblock_alloc(struct memblock *mb, u64 size, u64 align, u64 limit);
u64 memblock_free_bytes(const struct memblock *mb);

#endif
