/*
 * hugetlb.c - the pool of 2 MiB pages and the areas that map them
 * (Linux's mm/hugetlb.c, one page size, no overcommit).
 *
 * The pool: root sets vm.nr_hugepages (/proc/sys/vm, or
 * /sys/kernel/mm/hugepages/hugepages-2048kB), and the pool takes buddy
 * blocks of order 9 until it has that many or memory runs out; shrinking
 * gives free pages back, and pages in use over the new size are surplus
 * until they are freed. Reservations (Linux's resv_huge_pages) are pages
 * promised to mappings: mmap of a hugetlbfs file reserves what its later
 * faults will need, or fails with ENOMEM, so that a fault never finds the
 * pool empty; a fault then takes its page out of the reservation. Pages
 * nobody reserved are free - reserved.
 *
 * The mappings: one page-directory entry with the PS bit per huge page,
 * filled by the first fault in its 2 MiB (zeroed, or the file's page). A
 * shared area maps the file's pages; a private one gets pages of its own
 * (a copy of the file's, if it has one), reserved for the area that made
 * them (VM_HUGE_RESV: not a fork child's, as Linux's HPAGE_RESV_OWNER).
 * fork shares shared pages and makes private ones copy on write. All
 * faults of huge areas are serialised by one mutex (Linux hashes its
 * hugetlb_fault_mutex_table), so two threads never both fill an entry.
 * A fault that finds no page it may take is SIGBUS, as Linux's (freeing
 * other memory would not fill the pool: no out-of-memory kill).
 */
#include "mm/hugetlb.h"
#include "fs/hugetlbfs.h"
#include "fs/proc/text.h"
#include "kernel/lib/string.h"
#include "kernel/x86/smp.h"
#include "locking/mutex.h"
#include "mm/page_alloc.h"
#include "mm/paging.h"
#include "mm/vm_internal.h"

static struct spinlock pool_lock = SPINLOCK_INIT("hugetlb_pool");
static struct list_head free_huge_pages = LIST_HEAD_INIT(free_huge_pages);
/* Under pool_lock: pages in the pool, free ones, reserved ones, and the size root asked for. */
static u64 nr_total, nr_free, nr_resv, nr_target;

static struct mutex fault_lock = MUTEX_INIT(fault_lock, "hugetlb_fault");

void
hugetlb_get_counts(struct hugetlb_counts *out)
{
	spin_lock(&pool_lock);
	out->total = nr_total;
	out->free = nr_free;
	out->resv = nr_resv;
	out->surplus = nr_total > nr_target ? nr_total - nr_target : 0;
	spin_unlock(&pool_lock);
}

void
hugetlb_set_pool_size(u64 pages)
{
	spin_lock(&pool_lock);
	nr_target = pages;
	while (nr_total > pages && nr_free > nr_resv) {
		struct page *p = list_first_entry(&free_huge_pages, struct page, list);
		list_del(&p->list);
		nr_free--;
		nr_total--;
		spin_unlock(&pool_lock);
		free_pages(p, HPAGE_ORDER);
		spin_lock(&pool_lock);
	}
	while (nr_total < nr_target) {
		spin_unlock(&pool_lock);
		struct page *p = alloc_pages(HPAGE_ORDER);
		spin_lock(&pool_lock);
		if (!p) {
			nr_target = nr_total; /* what memory allowed, as Linux reports */
			break;
		}
		p->refcount = 0;
		list_add(&p->list, &free_huge_pages);
		nr_free++;
		nr_total++;
	}
	spin_unlock(&pool_lock);
}

void
hugetlb_format_meminfo(struct procbuf *b)
{
	struct hugetlb_counts c;

	hugetlb_get_counts(&c);
	procbuf_printf(b,
		       "HugePages_Total:   %5lu\nHugePages_Free:    %5lu\n"
		       "HugePages_Rsvd:    %5lu\nHugePages_Surp:    %5lu\n"
		       "Hugepagesize:   %8lu kB\nHugetlb:        %8lu kB\n",
		       c.total, c.free, c.resv, c.surplus, HPAGE_SIZE >> 10,
		       c.total * (HPAGE_SIZE >> 10));
}

int
hugetlb_reserve(u64 n)
{
	int err = 0;

	spin_lock(&pool_lock);
	if (nr_free - nr_resv < n)
		err = -ENOMEM;
	else
		nr_resv += n;
	spin_unlock(&pool_lock);
	return err;
}

void
hugetlb_unreserve(u64 n)
{
	spin_lock(&pool_lock);
	nr_resv -= MIN(n, nr_resv);
	spin_unlock(&pool_lock);
}

struct page *
alloc_huge_page(bool reserved)
{
	struct page *p = NULL;

	spin_lock(&pool_lock);
	if ((reserved && nr_resv) || nr_free > nr_resv) {
		if (reserved && nr_resv)
			nr_resv--;
		p = list_first_entry(&free_huge_pages, struct page, list);
		list_del(&p->list);
		nr_free--;
	}
	spin_unlock(&pool_lock);
	if (!p)
		return NULL;
	memset(page_address(p), 0, HPAGE_SIZE);
	p->refcount = 1;
	p->mapping = NULL;
	return p;
}

void
get_huge_page(struct page *head)
{
	__atomic_add_fetch(&head->refcount, 1, __ATOMIC_RELAXED);
}

void
put_huge_page(struct page *head)
{
	if (__atomic_sub_fetch(&head->refcount, 1, __ATOMIC_ACQ_REL))
		return;
	spin_lock(&pool_lock);
	if (nr_total > nr_target) { /* a surplus page: the pool shrank under it */
		nr_total--;
		spin_unlock(&pool_lock);
		free_pages(head, HPAGE_ORDER);
		return;
	}
	list_add(&head->list, &free_huge_pages);
	nr_free++;
	spin_unlock(&pool_lock);
}

/* ---- areas ------------------------------------------------------------------ */

/* Whether a page-directory entry holds a huge page (present, or kept under PROT_NONE). */
static bool
pmd_holds_huge_page(u64 val)
{
	return (val & PTE_HUGE) && pte_holds_page(val);
}

static u64
huge_entry(struct page *head, u32 vmflags, bool writable)
{
	return page_to_phys(head) | vm_pte_flags(vmflags, writable) | PTE_HUGE;
}

/* The file's huge page number that haddr of v maps. */
static u64
file_index(const struct vma *v, u64 haddr)
{
	return (v->pgoff >> HPAGE_ORDER) + ((haddr - v->start) >> HPAGE_SHIFT);
}

/*
 * The page a first fault at haddr maps, referenced: the file's for a
 * shared area, one of the area's own for a private one (a copy of the
 * file's page if it has one). FAULT_BUS past the file's end.
 */
static enum fault_result
first_page(const struct vma *v, u64 haddr, struct page **out)
{
	struct inode *inode = v->file->inode;
	u64 idx = file_index(v, haddr);

	if (v->flags & VM_SHARED)
		return hugetlbfs_get_page(inode, idx, out);
	if (idx >= hugetlbfs_size_pages(inode))
		return FAULT_BUS;
	*out = alloc_huge_page(v->flags & VM_HUGE_RESV);
	if (!*out)
		return FAULT_BUS;
	struct page *cached = hugetlbfs_find_page(inode, idx);
	if (cached) {
		memcpy(page_address(*out), page_address(cached), HPAGE_SIZE);
		put_huge_page(cached);
	}
	return FAULT_OK;
}

/*
 * A write to a present read-only entry: shared areas and a private page
 * nobody else holds just get write permission; a private page shared
 * since fork is copied. fault_lock held; MADV_DONTNEED may empty the
 * entry meanwhile (it holds the mmap lock only for reading), so the entry
 * is read, and the copy installed, under pt_lock.
 */
static enum fault_result
write_protect_fault(struct mm *mm, const struct vma *v, pmd_t *pmd, u64 haddr)
{
	spin_lock(&mm->pt_lock);
	u64 val = pmd_val(*pmd);
	struct page *old = pte_page(val);
	bool gone = !(val & PTE_PRESENT) || (val & PTE_WRITE);
	bool reuse = !gone && ((v->flags & VM_SHARED) || page_refcount(old) == 1);
	if (reuse)
		set_pmd(pmd, make_pmd(val | PTE_WRITE));
	else if (!gone)
		get_huge_page(old); /* kept for the copy */
	spin_unlock(&mm->pt_lock);
	if (reuse)
		flush_tlb_single(haddr); /* only more permission: a stale entry just faults again */
	if (gone || reuse)
		return FAULT_OK; /* gone: the access faults again and finds what is there now */
	struct page *copy = alloc_huge_page(false);
	if (copy)
		memcpy(page_address(copy), page_address(old), HPAGE_SIZE);
	spin_lock(&mm->pt_lock);
	bool install = copy && pmd_val(*pmd) == val;
	if (install)
		set_pmd(pmd, make_pmd(huge_entry(copy, v->flags, true)));
	spin_unlock(&mm->pt_lock);
	if (install) {
		tlb_flush_mm_range(mm, haddr, haddr + HPAGE_SIZE);
		put_huge_page(old); /* the entry's reference */
	} else if (copy) {
		put_huge_page(copy);
	}
	put_huge_page(old); /* ours */
	return copy ? FAULT_OK : FAULT_BUS;
}

static enum fault_result
fault_locked(struct mm *mm, struct vma *v, u64 haddr, bool write)
{
	spin_lock(&mm->pt_lock);
	pmd_t *pmd = pmd_alloc(mm->pgd, haddr, &mm->pgtables);
	u64 val = pmd ? pmd_val(*pmd) : 0;
	spin_unlock(&mm->pt_lock);
	if (!pmd)
		return FAULT_OOM;
	if (val & PTE_PRESENT)
		return write && !(val & PTE_WRITE) ? write_protect_fault(mm, v, pmd, haddr)
						   : FAULT_OK;
	struct page *page;
	enum fault_result r = first_page(v, haddr, &page);
	if (r != FAULT_OK)
		return r;
	spin_lock(&mm->pt_lock);
	set_pmd(pmd, make_pmd(huge_entry(page, v->flags, true)));
	spin_unlock(&mm->pt_lock);
	return FAULT_OK;
}

enum fault_result
hugetlb_fault(struct mm *mm, struct vma *v, u64 va, bool write)
{
	mutex_lock(&fault_lock);
	enum fault_result r = fault_locked(mm, v, va & HPAGE_MASK, write);
	mutex_unlock(&fault_lock);
	return r;
}

void
hugetlb_zap(struct mm *mm, const struct vma *v, u64 start, u64 end, bool unmapping)
{
	u64 unused = 0;

	for (u64 a = start; a < end; a += HPAGE_SIZE) {
		spin_lock(&mm->pt_lock);
		pmd_t *pmd = pmd_lookup(mm->pgd, a);
		u64 val = pmd ? pmd_val(*pmd) : 0;
		if (pmd_holds_huge_page(val))
			set_pmd(pmd, make_pmd(0));
		spin_unlock(&mm->pt_lock);
		if (pmd_holds_huge_page(val)) {
			tlb_flush_mm_range(mm, a, a + HPAGE_SIZE);
			put_huge_page(pte_page(val));
		} else {
			unused++;
		}
	}
	/* The owner's empty private pages each still held their reservation. */
	if (unmapping && (v->flags & VM_HUGE_RESV) && !(v->flags & VM_SHARED))
		hugetlb_unreserve(unused);
}

int
hugetlb_copy(struct mm *child, struct mm *parent, const struct vma *v)
{
	for (u64 a = v->start; a < v->end; a += HPAGE_SIZE) {
		pmd_t *pmd = pmd_lookup(parent->pgd, a);
		u64 val = pmd ? pmd_val(*pmd) : 0;
		if (!pmd_holds_huge_page(val))
			continue;
		pmd_t *dst = pmd_alloc(child->pgd, a, &child->pgtables);
		if (!dst)
			return -ENOMEM;
		if (!(v->flags & VM_SHARED) && (val & PTE_WRITE)) {
			val &= ~PTE_WRITE;
			set_pmd(pmd, make_pmd(val));
		}
		get_huge_page(pte_page(val));
		set_pmd(dst, make_pmd(val));
	}
	return 0;
}

bool
hugetlb_reprotect(struct mm *mm, const struct vma *v)
{
	bool changed = false;

	for (u64 a = v->start; a < v->end; a += HPAGE_SIZE) {
		pmd_t *pmd = pmd_lookup(mm->pgd, a);
		u64 val = pmd ? pmd_val(*pmd) : 0;
		if (!pmd_holds_huge_page(val))
			continue;
		set_pmd(pmd, make_pmd((val & PTE_ADDR_MASK) |
				      vm_pte_flags(v->flags, val & PTE_WRITE) | PTE_HUGE));
		changed = true;
	}
	return changed;
}

u64
hugetlb_entry_of(struct mm *mm, u64 va)
{
	pmd_t *pmd = pmd_lookup(mm->pgd, va);
	u64 val = pmd ? pmd_val(*pmd) : 0;

	if (!pmd_holds_huge_page(val))
		return 0;
	return (val & ~(PTE_ADDR_MASK | PTE_HUGE)) |
	       ((val & PTE_ADDR_MASK) + (va & ~HPAGE_MASK & PAGE_MASK));
}

void
hugetlb_usage(struct mm *mm, const struct vma *v, u64 *shared, u64 *private)
{
	*shared = *private = 0;
	spin_lock(&mm->pt_lock);
	for (u64 a = v->start; a < v->end; a += HPAGE_SIZE) {
		pmd_t *pmd = pmd_lookup(mm->pgd, a);
		u64 val = pmd ? pmd_val(*pmd) : 0;
		if (!pmd_holds_huge_page(val))
			continue;
		if (page_map_count(pte_page(val)) > 1)
			*shared += HPAGE_SIZE;
		else
			*private += HPAGE_SIZE;
	}
	spin_unlock(&mm->pt_lock);
}
