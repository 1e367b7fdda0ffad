/*
 * pgtable_free.c - giving back the page-table pages that an unmapped range
 * leaves where no area reaches them any more (Linux's free_pgtables at
 * munmap). Without it a program that maps and unmaps memory across a wide
 * address range (fresh mmap addresses, a JIT, a fuzzer, malloc's arenas)
 * would keep every table it ever needed, its page-table memory growing
 * without bound while its resident memory stays small.
 *
 * Which tables go: those whose whole span lies in the gap between the
 * areas left on either side of the range (floor and ceiling), so that a
 * table still shared with a neighbour stays. A table that lies wholly in
 * a gap is never made (tables are made for addresses inside areas only,
 * and a failed mremap gives back those it made for its new area), so
 * every time an area's range is given up this restores the rule that no
 * such table exists: an unmap that removed no area has none to free, and
 * only the range given up needs looking at (mm/paging.c's walk).
 *
 * When: after the range's pages are gone and the areas are off the list
 * (and off their files' i_mmap, so that a truncation walking the tables
 * under the page-table lock never meets one of them), with the mmap lock
 * held for writing, which keeps faults out. Their entries are cleared
 * under the page-table lock, then every CPU that has the address space
 * loaded flushes - a CPU's paging-structure caches may still hold a freed
 * table, and a walk through it would read a page that is someone else's
 * by then - and only then are the pages freed: the same rule as for the
 * pages the entries mapped (mm/vm.c's struct zap). rewind has no lazy TLB
 * (a kernel thread runs on the kernel's own tables, mm/mm_lifecycle.c's
 * mm_activate), so mm->cpumask names every such CPU.
 */
#include "mm/vm_internal.h"
#include "mm/paging.h"
#include "kernel/x86/smp.h"

/* What one page table maps: every table spans a whole number of these. */
#define TABLE_SPAN_MIN (1ul << 21)

void
free_unused_tables(struct mm *mm, u64 start, u64 end)
{
	struct vma *above = vma_above(mm, start);
	struct list_head *below = above ? above->link.prev : mm->vmas.prev;
	u64 floor = below == &mm->vmas ? 0 : list_entry(below, struct vma, link)->end;
	u64 ceiling = above ? above->start : USER_HALF_END;
	/* The 2 MiB blocks of the range inside the gap: a table that may go spans one at least. */
	u64 lo = MAX(ALIGN_DOWN(start, TABLE_SPAN_MIN), ALIGN_UP(floor, TABLE_SPAN_MIN));
	u64 hi = MIN(ALIGN_UP(end, TABLE_SPAN_MIN), ALIGN_DOWN(ceiling, TABLE_SPAN_MIN));
	struct list_head unlinked;

	if (lo >= hi)
		return;
	list_init(&unlinked);
	spin_lock(&mm->pt_lock);
	unlink_user_tables(mm->pgd, lo, hi, floor, ceiling, &mm->pgtables, &unlinked);
	spin_unlock(&mm->pt_lock);
	if (list_empty(&unlinked))
		return;
	/*
	 * Every address a freed table translated lies in [floor, ceiling).
	 * An address space loaded nowhere (its last user gone: mm_put) has no
	 * CPU to flush; one that is loaded is flushed as a whole, since even
	 * the smallest table spans more than tlb_flush_mm_range flushes page
	 * by page, and a full flush empties the paging-structure caches too.
	 */
	if (__atomic_load_n(&mm->cpumask, __ATOMIC_ACQUIRE))
		tlb_flush_mm_range(mm, floor, ceiling);
	free_unlinked_tables(&unlinked);
}
