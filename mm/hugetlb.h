/*
 * hugetlb.h - huge pages for user memory (Linux's hugetlb): a pool of
 * physically contiguous, 2 MiB-aligned pages set aside by root
 * (vm.nr_hugepages), the reservations that make a mapping's later faults
 * certain to find a page, and the areas that map them with one 2 MiB page
 * directory entry each (the PS bit, PTE_HUGE).
 *
 * A huge page is a buddy block of order HPAGE_ORDER; its head struct page
 * stands for all of it: its refcount counts the holders (a hugetlbfs
 * file's cache, each mapping), and the last put_huge_page gives it back to
 * the pool. The 511 other struct pages are never referenced.
 *
 * Areas of huge pages (VM_HUGETLB) always map a hugetlbfs file
 * (fs/hugetlbfs.c; MAP_HUGETLB and MFD_HUGETLB make a nameless one). Every
 * walk over an address space asks is_vm_hugetlb first and comes here: the
 * 4 KiB walkers of mm/paging.c skip PS entries.
 */
#ifndef REWIND_HUGETLB_H
#define REWIND_HUGETLB_H

#include "mm/vm.h"

#define HPAGE_SHIFT 21
#define HPAGE_SIZE  (1ul << HPAGE_SHIFT)
#define HPAGE_MASK  (~(HPAGE_SIZE - 1))
#define HPAGE_ORDER (HPAGE_SHIFT - PAGE_SHIFT)

struct page;
struct procbuf;

static inline bool
is_vm_hugetlb(const struct vma *v)
{
	return v->flags & VM_HUGETLB;
}

/* The pool's counts, as /proc/meminfo and /sys/kernel/mm/hugepages show them. */
struct hugetlb_counts {
	u64 total, free, resv, surplus;
};
void hugetlb_get_counts(struct hugetlb_counts *out);
/* Root's vm.nr_hugepages: grows the pool as far as memory allows, or shrinks it. */
void hugetlb_set_pool_size(u64 pages);
/* The HugePages_* and Hugepagesize lines of /proc/meminfo. */
void hugetlb_format_meminfo(struct procbuf *b);

/* Sets n pool pages aside for later faults: 0 or -ENOMEM. */
int hugetlb_reserve(u64 n);
void hugetlb_unreserve(u64 n);
/* A zeroed huge page with one reference, taken from a reservation or from the unreserved rest; NULL. */
struct page *alloc_huge_page(bool reserved);
void get_huge_page(struct page *head);
void put_huge_page(struct page *head);

/* A fault at va in v (a huge page's worth at a time). mmap_lock held for reading. */
enum fault_result hugetlb_fault(struct mm *mm, struct vma *v, u64 va, bool write);
/* Drops every huge page mapped in [start, end) of v; releases an owner's unused reservations if unmapping. */
void hugetlb_zap(struct mm *mm, const struct vma *v, u64 start, u64 end, bool unmapping);
/* fork: the child's entries for v (shared: the same pages; private: copy on write). 0 or -ENOMEM. */
int hugetlb_copy(struct mm *child, struct mm *parent, const struct vma *v);
/* mprotect: v's entries get v->flags' protections. Whether any entry changed. */
bool hugetlb_reprotect(struct mm *mm, const struct vma *v);
/*
 * The entry that would map va's 4 KiB page if the huge entry over it were
 * split (its frame and permission bits), or 0: for pagemap, mincore and
 * futex keys. pt_lock held.
 */
u64 hugetlb_entry_of(struct mm *mm, u64 va);
/* smaps' Shared_Hugetlb and Private_Hugetlb for v, in bytes. */
void hugetlb_usage(struct mm *mm, const struct vma *v, u64 *shared, u64 *private);

#endif
