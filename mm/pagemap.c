/*
 * pagemap.c - the entries of /proc/<pid>/pagemap: one 64-bit word per
 * virtual page saying whether a page is there and which, in the bits of
 * Linux's Documentation/admin-guide/mm/pagemap.rst, read from the page
 * tables under the same locks as mincore.
 *
 * rewind never swaps (bit 62 stays 0) and keeps no soft-dirty bit (55).
 * The page frame number is given only to whom the file says (Linux hides
 * it from readers without CAP_SYS_ADMIN since 4.2: it helps Rowhammer).
 * The zero page and the fixed pages of special mappings are present but
 * neither file pages nor exclusive, as Linux's pages that are not
 * "normal" (vm_normal_page).
 */
#include "mm/layout.h"
#include "mm/hugetlb.h"
#include "mm/paging.h"
#include "mm/vm_internal.h"
#include "mm/zero_page.h"

#define PM_PRESENT	  (1ul << 63)
#define PM_FILE		  (1ul << 61) /* a file page, or shared anonymous memory */
#define PM_MMAP_EXCLUSIVE (1ul << 56) /* mapped by this mapping only */
#define PM_PFN_MASK	  ((1ul << 55) - 1)

/* The entry for va in v; pt_lock held. */
static u64
page_entry(struct mm *mm, const struct vma *v, u64 va, bool show_pfn)
{
	pte_t *pte = is_vm_hugetlb(v) ? NULL : pte_walk(mm->pgd, va, false);
	u64 val = pte ? pte_val(*pte) : is_vm_hugetlb(v) ? hugetlb_entry_of(mm, va) : 0;

	if (!pte_holds_page(val))
		return 0;
	u64 entry = PM_PRESENT;
	if (show_pfn)
		entry |= ((val & PTE_ADDR_MASK) >> PAGE_SHIFT) & PM_PFN_MASK;
	/* A huge page's head stands for its parts. */
	struct page *p = pte_page(is_vm_hugetlb(v) ? val & HPAGE_MASK : val);
	if (v->special || is_zero_page(p))
		return entry;
	if (p->mapping)
		entry |= PM_FILE;
	if (page_map_count(p) == 1)
		entry |= PM_MMAP_EXCLUSIVE;
	return entry;
}

void
vm_pagemap(struct mm *mm, u64 va, size_t n, u64 *out, bool show_pfn)
{
	struct vma *v = NULL;

	down_read(&mm->mmap_lock);
	spin_lock(&mm->pt_lock);
	for (size_t i = 0; i < n; i++, va += PAGE_SIZE) {
		if (!v || va >= v->end)
			v = va < USER_TOP ? vma_above(mm, va) : NULL;
		out[i] = v && v->start <= va ? page_entry(mm, v, va, show_pfn) : 0;
	}
	spin_unlock(&mm->pt_lock);
	up_read(&mm->mmap_lock);
}
