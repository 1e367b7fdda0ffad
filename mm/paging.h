/*
 * paging.h - x86-64 4-level page tables: entry bits, the kernel's own
 * tables, and mapping single kernel pages.
 *
 * All entry reads and writes go through kernel/x86/paravirt.h (pgd_val,
 * set_pte, ...). Kernel-half top-level entries are all created at boot and
 * never change afterwards, so every address space made later can share
 * them by copying the upper 256 PML4 slots.
 */
#ifndef REWIND_PAGING_H
#define REWIND_PAGING_H

#include "kernel/lib/list.h"
#include "kernel/lib/types.h"
#include "kernel/x86/paravirt.h"
#include "mm/layout.h"

#define PTE_PRESENT   (1ul << 0)
#define PTE_WRITE     (1ul << 1)
#define PTE_USER      (1ul << 2)
#define PTE_PWT	      (1ul << 3)
#define PTE_PCD	      (1ul << 4)
#define PTE_ACCESSED  (1ul << 5)
#define PTE_DIRTY     (1ul << 6)
#define PTE_HUGE      (1ul << 7) /* in a PMD or PUD: maps 2 MiB / 1 GiB */
#define PTE_GLOBAL    (1ul << 8)
#define PTE_NX	      (1ul << 63)
#define PTE_ADDR_MASK 0x000ffffffffff000ul
/*
 * A user page kept under PROT_NONE: the entry is not present, so no access
 * - the user's, nor the kernel's user copies on its behalf - gets through
 * (a present supervisor entry would still let the kernel read it), but it
 * still names its page, which comes back with mprotect. The global bit is
 * meaningless in an absent entry and never set in a user one (Linux uses
 * it the same way: _PAGE_PROTNONE).
 */
#define PTE_PROTNONE PTE_GLOBAL

/*
 * A user page whose memory failed (madvise MADV_HWPOISON, mm/memory_failure.c):
 * kept absent like a PROT_NONE page, so that every walk that follows
 * pages (fork, munmap, mremap) carries it along, but an access in an area
 * that allows it is SIGBUS, never a fresh page, and mprotect leaves it so.
 * A bit the CPU leaves to software in an absent entry (Linux's hwpoison
 * swap entries).
 */
#define PTE_HWPOISON (1ul << 9)

/* Whether a user entry holds a page: present, or kept absent by PROT_NONE. */
static inline bool
pte_holds_page(u64 val)
{
	return (val & PTE_PRESENT) || (val & PTE_PROTNONE);
}

/* Caching through the PAT (set up by paging_init): PWT alone selects write-combining. */
#define PTE_CACHE_WC PTE_PWT
#define PTE_CACHE_UC (PTE_PCD | PTE_PWT)

#define PAGE_KERNEL_RW (PTE_PRESENT | PTE_WRITE | PTE_GLOBAL | PTE_NX)
#define PAGE_KERNEL_RO (PTE_PRESENT | PTE_GLOBAL | PTE_NX)
#define PAGE_KERNEL_RX (PTE_PRESENT | PTE_GLOBAL)

extern pgd_t *kernel_pgd;

struct page;
/* The page a present entry maps (its NX and flag bits ignored). */
struct page *pte_page(u64 entry); /* the kernel's PML4 (direct-map pointer) */

/* Builds the direct map and the W^X kernel image mapping, then loads them. */
void paging_init(void);
/* This CPU's paging features: PAT (write-combining), global pages. */
void paging_init_cpu(void);
/* Allocates the page tables needed and maps one 4 KiB kernel page; -ENOMEM. */
int map_kernel_page(u64 va, phys_addr_t pa, u64 flags);
/*
 * Unmaps one 4 KiB kernel page and flushes it from this CPU's TLB; returns
 * the old entry. The caller then runs tlb_flush_kernel_range (kernel/x86/smp.h)
 * once for everything it unmapped, before reusing the pages.
 */
pte_t unmap_kernel_page(u64 va);
/*
 * The entry that maps va in the kernel tables, and at which level it was
 * found (1 = 4 KiB pte, 2 = 2 MiB pmd, 3 = 1 GiB pud); 0 when unmapped.
 */
u64 lookup_kernel_mapping(u64 va, int *level);
/*
 * The physical address behind any mapped kernel address (direct map, kernel
 * image, vmalloc, a kernel stack): what a device doing DMA must be given.
 * The address must be mapped; the answer holds for va's page only.
 */
phys_addr_t kernel_virt_to_phys(const void *va);

/*
 * The entry of a kernel-half page that user mode may use (the legacy
 * vsyscall page and the fixed vvar pages: Linux's user-visible fixmap
 * slots), creating the tables on the way, each with the user bit. Safe:
 * the CPU ANDs the user bit over all four levels, so every other entry
 * under those tables, which lacks it, stays supervisor-only. Boot only,
 * before the first address space copies the kernel half's top level.
 * The caller writes the entry (set_pte) and flushes. NULL without memory.
 */
pte_t *kernel_user_pte(u64 va);

/*
 * The 4 KiB entry for va under pgd, creating missing tables if alloc; NULL
 * if absent, or under a 2 MiB page (mm/hugetlb.h).
 */
pte_t *pte_walk(pgd_t *pgd, u64 va, bool alloc);
/*
 * pte_walk of a user address, creating missing tables, which are added to
 * *tables (an mm's pgtables: Linux's mm_pgtables_bytes, which the OOM
 * killer weighs). The caller holds the lock that orders its table changes.
 */
pte_t *pte_alloc(pgd_t *pgd, u64 va, u64 *tables);
/*
 * The page-directory entry over a user address, creating the tables above
 * it (added to *tables, as pte_alloc), or only looking: NULL if absent.
 * For 2 MiB pages (mm/hugetlb.c); the caller holds the mm's pt_lock.
 */
pmd_t *pmd_alloc(pgd_t *pgd, u64 va, u64 *tables);
pmd_t *pmd_lookup(pgd_t *pgd, u64 va);
typedef void (*pte_visit_fn)(pte_t *pte, u64 va, void *arg);
/*
 * Calls fn for every 4 KiB entry in [start, end) that holds a page (present,
 * or PROT_NONE: pte_holds_page), skipping absent tables quickly, and 2 MiB
 * pages (mm/hugetlb.c walks those).
 */
void walk_present_ptes(pgd_t *pgd, u64 start, u64 end, pte_visit_fn fn, void *arg);
/*
 * Unlinks the page-table pages below pgd that [start, end) reaches and
 * whose whole span lies in [floor, ceiling) - the gap no area reaches,
 * bounded by the neighbouring areas (Linux's free_pgd_range) - onto
 * *unlinked (their pages' list), less them from *tables (as pte_alloc adds).
 * The pages they mapped must be gone, and the caller holds the lock that
 * orders its table changes. A CPU that walked them may still hold them in
 * its paging-structure caches: free_unlinked_tables only after every CPU
 * that has the address space loaded flushed its TLB.
 */
void unlink_user_tables(pgd_t *pgd, u64 start, u64 end, u64 floor, u64 ceiling, u64 *tables,
			struct list_head *unlinked);
void free_unlinked_tables(struct list_head *unlinked);

#endif
