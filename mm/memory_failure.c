/*
 * memory_failure.c - madvise's MADV_HWPOISON and MADV_SOFT_OFFLINE, the
 * injection of memory errors Linux offers to CAP_SYS_ADMIN for testing
 * (Linux's madvise_inject_error in its mm/madvise.c, and its mm/memory-failure.c).
 *
 *   HWPOISON  the page's memory is taken as failed: its entry becomes a
 *       poisoned one (PTE_HWPOISON, mm/paging.h), so the next access there
 *       - by this process or a fork child, which inherits the entry - is
 *       SIGBUS with si_code BUS_MCEERR_AR and si_addr_lsb PAGE_SHIFT;
 *   SOFT_OFFLINE  the data moves to a new page, unnoticed by the process,
 *       and the old frame goes out of use.
 * Either way the failed frame keeps a reference that is never dropped, so
 * it is never handed out again.
 *
 * Each page is first brought in as a read would (Linux's get_user_pages):
 * an unmapped one is EFAULT. Only a page of the process's own anonymous
 * memory is taken. A page-cache page (files, shared anonymous memory) is
 * the only copy of its data in a RAM file system and poisoning it would
 * need every mapping and read of the file to fail: not built, so the call
 * succeeds without effect there, Linux's answer for a page its injection
 * filter leaves alone. The shared zero page is the kernel's: EBUSY, as
 * Linux's for a reserved page. A page shared copy-on-write with another
 * process (after fork) stays readable there until that process writes it.
 */
#include "mm/vm_internal.h"
#include "kernel/lib/string.h"
#include "kernel/process/cred.h"
#include "kernel/printk.h"
#include "kernel/x86/smp.h"
#include "mm/paging.h"
#include "mm/zero_page.h"
#include "uapi/errno.h"

static u64 failed_pages;

u64
memory_failure_pages(void)
{
	return __atomic_load_n(&failed_pages, __ATOMIC_RELAXED);
}

/* Poisons the page *pte at va maps (pt_lock held): later accesses fault with SIGBUS. */
static void
poison(struct mm *mm, pte_t *pte, u64 va, struct page *page)
{
	get_page(page); /* the failed frame's: never dropped */
	__atomic_add_fetch(&failed_pages, 1, __ATOMIC_RELAXED);
	set_pte(pte, make_pte(page_to_phys(page) | PTE_PROTNONE | PTE_HWPOISON));
	tlb_flush_mm_range(mm, va, va + PAGE_SIZE);
}

/*
 * Moves the page *pte at va maps to a copy (pt_lock held), keeping the
 * entry's permissions; the old frame keeps the entry's reference for good.
 * The entry is absent while the data moves, so that no other thread's
 * store through a stale translation is lost: its fault waits for the mmap
 * lock, held for writing here.
 */
static int
offline(struct mm *mm, pte_t *pte, u64 va, struct page *page)
{
	struct page *copy = alloc_shared_page();
	u64 val = pte_val(*pte);

	if (!copy)
		return -ENOMEM;
	set_pte(pte, make_pte(0));
	tlb_flush_mm_range(mm, va, va + PAGE_SIZE);
	memcpy(page_address(copy), page_address(page), PAGE_SIZE);
	set_pte(pte, make_pte(page_to_phys(copy) | (val & ~PTE_ADDR_MASK)));
	__atomic_add_fetch(&failed_pages, 1, __ATOMIC_RELAXED);
	return 0;
}

/* One page at va; mmap_lock held for writing, so no fault races the entry. */
static int
inject(struct mm *mm, u64 va, bool soft)
{
	struct vma *v = vma_find(mm, va);

	if (!v || v->special)
		return -EFAULT;
	(void)vm_populate(mm, va, va + PAGE_SIZE, POPULATE_READ);
	spin_lock(&mm->pt_lock);
	pte_t *pte = pte_walk(mm->pgd, va, false);
	u64 val = pte ? pte_val(*pte) : 0;
	struct page *page = val & PTE_PRESENT ? pte_page(val) : NULL;
	int err = 0;
	if (val & PTE_HWPOISON)
		err = soft ? -EBUSY : 0; /* poisoned already */
	else if (!page)
		err = -EFAULT;
	else if (is_zero_page(page))
		err = -EBUSY;
	else if (page->mapping)
		err = 0; /* a page-cache page: left alone (see above) */
	else if (soft)
		err = offline(mm, pte, va, page);
	else
		poison(mm, pte, va, page);
	spin_unlock(&mm->pt_lock);
	return err;
}

int
vm_inject_memory_failure(struct mm *mm, u64 start, u64 end, bool soft)
{
	int err = 0;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	down_write(&mm->mmap_lock);
	for (u64 va = start; va < end && !err; va += PAGE_SIZE) {
		pr_info_ratelimited("%s memory failure at process virtual address %#lx\n",
				    soft ? "Soft offlining for" : "Injecting", va);
		err = inject(mm, va, soft);
	}
	up_write(&mm->mmap_lock);
	return err;
}
