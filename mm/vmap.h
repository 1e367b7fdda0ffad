/*
 * vmap.h - kernel virtual mappings outside the direct map: kernel stacks
 * with an unmapped guard page below them, device memory (MMIO), and large
 * buffers built from single pages.
 *
 * All of them live in the vmap region (mm/layout.h), as do vmalloc's
 * large buffers. A stack overflow runs into
 * the guard page and faults (on the #DF IST stack if need be) instead of
 * silently corrupting whatever lies below.
 */
#ifndef REWIND_VMAP_H
#define REWIND_VMAP_H

#include "kernel/lib/types.h"

#define KSTACK_SIZE  (16 * 1024)
#define KSTACK_SLOTS 4096 /* kernel stacks there can be at once */

/* Returns the top (initial stack pointer) of a fresh, zeroed kernel stack, or 0. */
u64 kstack_alloc(void);
/*
 * Gives a stack back: kept mapped for the next kstack_alloc, or unmapped
 * and flushed from other CPUs' TLBs later, in a batch (see vmap.c). Call
 * with interrupts enabled: the flush may wait for the other CPUs.
 */
void kstack_free(u64 top);
/* Unmaps and flushes every stack kept or waiting; whether there were any. */
bool kstack_purge(void);
/* The pages freed stacks hold for now (by design, like kmalloc's slabs: not a leak). */
u64 kstack_kept_pages(void);
/*
 * The kernel stack holding addr, [*lo, *hi), if addr is in one (a slot's
 * stack pages or a static stack, not a guard page). Lock-free, reads no
 * memory but the static table: for stack walks from NMI context.
 */
bool kstack_bounds(u64 addr, u64 *lo, u64 *hi);
/* Whether addr falls in a stack's guard page (for the fault report). */
bool kstack_is_guard(u64 addr);

/* Reserves len bytes of addresses (a page multiple), mapping nothing; 0 when full. */
u64 vmap_reserve(u64 len);

enum iomap_cache {
	IOMAP_UNCACHED,	       /* registers: every access reaches the device */
	IOMAP_WRITE_COMBINING, /* framebuffers: writes may be merged */
};

/* Maps [phys, phys + size) into the vmap region; NULL on failure. */
void *ioremap(phys_addr_t phys, size_t size, enum iomap_cache cache);

/*
 * Virtually contiguous kernel memory from scattered pages, for buffers
 * larger than the page allocator's biggest block (4 MiB): NULL on failure.
 */
void *vmalloc(size_t size);
void vfree(void *p, size_t size);

#endif
