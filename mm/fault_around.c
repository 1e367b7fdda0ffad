/*
 * fault_around.c - on a read fault in a file area, the neighbouring pages
 * the page cache already holds are mapped too (Linux's do_fault_around and
 * filemap_map_pages, since 3.15): a program reading a mapped file takes one
 * fault per window instead of one per page, and an entry that is never
 * touched costs one store.
 *
 * The window is fault_around_bytes (a power of two pages, Linux's default
 * 64 KiB) aligned around the faulting address, clipped to the area; being
 * aligned and at most 2 MiB it lies in one page table. What goes in is
 * exactly what an ordinary read fault would have put there:
 *   - only pages already cached below i_size: nothing is read or created,
 *     so a hole still gets its page on its own fault and a page past the
 *     end still raises SIGBUS;
 *   - only entries still empty (another thread's mapping, a private copy
 *     stay as they are);
 *   - read-only in a private area, so that the first write copies; with
 *     the area's permissions in a shared one (as mm/fault.c maps it);
 *   - each page referenced once by its entry and counted in rss, so that
 *     unmap, truncation (mm/i_mmap.c) and /proc see nothing new.
 * A truncation racing with the window is handled as for the faulting page:
 * each page is checked, under the page-table lock, to still be the file's.
 * Write faults and anonymous areas never come here (mm/fault.c).
 */
#include "mm/fault_around.h"
#include "mm/i_mmap.h"
#include "mm/page_alloc.h"
#include "mm/paging.h"
#include "fs/fs.h"
#include "kernel/knobs.h"

/* 2 MiB: one page table, as Linux's limit (PTRS_PER_PTE pages). */
#define FAULT_AROUND_MAX (512 * PAGE_SIZE)
/* Pages looked up and mapped per page-table lock: a small stack array. */
#define FAULT_AROUND_BATCH 16u

KNOB_INT_OFF(fault_around_bytes, "fault_around_bytes", 64 * 1024, (int)FAULT_AROUND_MAX, true, NULL,
	     "on a read fault in a file area, also map the cached pages of this aligned "
	     "window (bytes, rounded down to a power of two pages; off or one page: none)");

/* The window in pages, a power of two; below 2 there is nothing around to map. */
static u64
window_pages(void)
{
	u64 pages = (u64)READ_ONCE(fault_around_bytes) >> PAGE_SHIFT;

	return pages ? 1ul << (63 - __builtin_clzl(pages)) : 0;
}

/*
 * Maps the cached pages of [start, end) (at most a batch, one page table)
 * into its empty entries: whether va's page was one of them.
 */
static bool
map_cached_batch(struct mm *mm, struct vma *v, u64 start, u64 end, u64 va)
{
	struct page *pages[FAULT_AROUND_BATCH];
	unsigned n = (unsigned)((end - start) >> PAGE_SHIFT);
	u64 first = v->pgoff + ((start - v->start) >> PAGE_SHIFT);
	u64 flags = vm_pte_flags(v->flags, v->flags & VM_SHARED);
	bool mapped_va = false;

	if (!file_get_cached_pages(v->file, first, n, pages))
		return false;
	spin_lock(&mm->pt_lock);
	pte_t *pte = pte_alloc(mm->pgd, start, &mm->pgtables);
	for (unsigned i = 0; pte && i < n; i++) {
		if (!pages[i] || pte_val(pte[i]) || !i_mmap_page_current(v, pages[i]))
			continue;
		set_pte(&pte[i], make_pte(page_to_phys(pages[i]) | flags));
		mm_rss_inc(mm);
		pages[i] = NULL; /* its reference is the entry's now */
		mapped_va |= start + ((u64)i << PAGE_SHIFT) == va;
	}
	spin_unlock(&mm->pt_lock);
	for (unsigned i = 0; i < n; i++) {
		if (pages[i])
			put_page(pages[i]);
	}
	return mapped_va;
}

bool
fault_around(struct mm *mm, struct vma *v, u64 va)
{
	u64 size = window_pages() << PAGE_SHIFT;

	if (size < 2 * PAGE_SIZE)
		return false;
	u64 start = MAX(va & ~(size - 1), v->start);
	u64 end = MIN((va & ~(size - 1)) + size, v->end);
	bool mapped_va = false;

	for (u64 at = start; at < end; at += FAULT_AROUND_BATCH * PAGE_SIZE)
		mapped_va |= map_cached_batch(mm, v, at,
					      MIN(end, at + FAULT_AROUND_BATCH * PAGE_SIZE), va);
	return mapped_va;
}
