/*
 * init.c - memory bring-up; see mm.h.
 *
 * Reserved from the start: the low 1 MiB (real-mode structures, the AP
 * trampoline later, BIOS data), the kernel image and the boot modules.
 * Firmware and ACPI ranges never enter memblock: only "available" RAM does.
 */
#include "mm/mm.h"
#include "mm/kmalloc.h"
#include "mm/memblock.h"
#include "mm/page_alloc.h"
#include "mm/paging.h"
#include "mm/zero_page.h"
#include "kernel/boot.h"
#include "kernel/panic.h"
#include "kernel/printk.h"

extern const char _boot_start[], _kernel_end[];

static bool buddy_live;

bool
page_alloc_ready(void)
{
	return READ_ONCE(buddy_live);
}

static void
memblock_from_boot_info(void)
{
	memblock_reset(&memblock);
	for (int i = 0; i < boot_info.nmmap; i++) {
		const struct boot_mmap_entry *e = &boot_info.mmap[i];
		if (e->type == MMAP_AVAILABLE)
			memblock_add(&memblock, e->base, e->base + e->len);
	}
	if (memblock.overflow)
		pr_warn("mm: memory map has more ranges than memblock holds; some RAM is unused\n");
	memblock_reserve(&memblock, 0, 1ul << 20);
	/* _boot_start is linked at its physical address; the rest at KERNEL_VMA + phys. */
	memblock_reserve(&memblock, (u64)_boot_start, kernel_image_to_phys(_kernel_end));
	for (int i = 0; i < boot_info.nmodules; i++)
		memblock_reserve(&memblock, boot_info.modules[i].start, boot_info.modules[i].end);
	if (!memblock_free_bytes(&memblock))
		panic("mm: no usable RAM in the boot memory map");
}

static void
page_alloc_from_memblock(void)
{
	u64 first_pfn = memblock.free[0].start >> PAGE_SHIFT;
	u64 npages = (memblock.ram_end >> PAGE_SHIFT) - first_pfn;
	u64 map_bytes = npages * sizeof(struct page);
	u64 map_pa = memblock_alloc(&memblock, map_bytes, PAGE_SIZE, ~0ul);

	if (!map_pa)
		panic("mm: no memory for the page array (%lu KiB)", map_bytes >> 10);
	page_alloc_init(phys_to_virt(map_pa), first_pfn, npages);
	for (int i = 0; i < memblock.nfree; i++)
		page_alloc_release_range(memblock.free[i].start >> PAGE_SHIFT,
					 memblock.free[i].end >> PAGE_SHIFT);
	memblock.nfree = 0; /* everything belongs to the page allocator now */
	WRITE_ONCE(buddy_live, true);
}

void
mm_init(void)
{
	memblock_from_boot_info();
	u64 free_before_tables = memblock_free_bytes(&memblock);
	paging_init();
	u64 tables = free_before_tables - memblock_free_bytes(&memblock);
	page_alloc_from_memblock();
	kmalloc_init();
	zero_page_init();

	struct page_alloc_stats st;
	page_alloc_get_stats(&st);
	pr_info("mm: %lu MiB RAM, %lu MiB free; kernel image %lu KiB, page tables %lu KiB\n",
		memblock.ram_total >> 20, (st.free_pages * PAGE_SIZE) >> 20,
		(kernel_image_to_phys(_kernel_end) - (u64)_boot_start) >> 10, tables >> 10);
}
