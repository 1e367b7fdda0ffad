/*
 * layout.h - the kernel's virtual address map and physical/virtual
 * conversions.
 *
 *   0x0000000000000000 - 0x00007fffffffefff   user space (per process)
 *   0xffff800000000000 - 0xffffbfffffffffff   direct map of all RAM (64 TiB)
 *   0xffffc00000000000 - 0xffffc0ffffffffff   vmap: kernel stacks with guard pages, MMIO
 *   0xffffffff80000000 - ...                  kernel image (phys + KERNEL_VMA)
 *
 * User space ends one page below the canonical hole, where Linux's
 * TASK_SIZE_MAX ends it: a syscall instruction at the very end of the last
 * canonical page would return to the first non-canonical address, and an
 * Intel CPU takes sysret's #GP for that rip in ring 0, on the user's stack.
 * With no user page there, no system call can return to such a rip.
 *
 * Until mm/paging.c switches to the kernel's own page tables, the boot
 * tables identity-map the low 4 GiB, so the direct-map base starts at 0 and
 * becomes DIRECT_MAP_BASE afterwards (Linux keeps its page_offset_base in
 * a variable too).
 */
#ifndef REWIND_LAYOUT_H
#define REWIND_LAYOUT_H

#include "kernel/lib/types.h"

#define PAGE_SHIFT 12
#define PAGE_SIZE  (1ul << PAGE_SHIFT)
#define PAGE_MASK  (~(PAGE_SIZE - 1))

#define DIRECT_MAP_BASE 0xffff800000000000ul
#define DIRECT_MAP_SIZE (64ul << 40)
#define VMAP_BASE	0xffffc00000000000ul
#define VMAP_SIZE	(1ul << 40)
#define KERNEL_VMA	0xffffffff80000000ul
#define USER_TOP	0x00007ffffffff000ul
/* The first non-canonical address: where the user half's page tables end. */
#define USER_HALF_END 0x0000800000000000ul

extern u64 direct_map_base;

static inline void *
phys_to_virt(phys_addr_t pa)
{
	return (void *)(uintptr_t)(pa + direct_map_base);
}

/* Only for addresses in the direct map. */
static inline phys_addr_t
virt_to_phys(const void *va)
{
	return (phys_addr_t)(uintptr_t)va - direct_map_base;
}

/* Only for addresses in the kernel image. */
static inline phys_addr_t
kernel_image_to_phys(const void *va)
{
	return (phys_addr_t)(uintptr_t)va - KERNEL_VMA;
}

#endif
