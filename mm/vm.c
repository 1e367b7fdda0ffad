/*
 * vm.c - user address spaces and their areas; see vm.h.
 *
 * The VMA list is sorted and never has overlapping areas; neighbours with
 * identical properties are merged, so brk growth extends one [heap] area.
 * Pages are never populated here: every page arrives by a fault
 * (mm/fault.c) - except in special mappings (the vDSO), whose fixed pages
 * are mapped at once. Removing an area drops the pages mapped in it ("zap"):
 * a file page stored to through its entry is marked dirty, and the pages
 * are let go only after the TLB flush (struct zap).
 *
 * TLB: after changing live entries, every CPU that has the address space
 * loaded forgets them (tlb_flush_mm_range: a shootdown IPI to mm->cpumask);
 * a change that met no present entry sends none, as Linux's mprotect and
 * munmap do not (and the mprotects of fresh reservations in docs/seeds.md's seed 002 met none).
 */
#include "mm/vm.h"
#include "mm/vm_internal.h"
#include "mm/hugetlb.h"
#include "fs/hugetlbfs.h"
#include "mm/userfaultfd.h"
#include "mm/i_mmap.h"
#include "kernel/objcount.h"
#include "mm/kmalloc.h"
#include "mm/oom_kill.h"
#include "mm/page_alloc.h"
#include "mm/paging.h"
#include "mm/zero_page.h"
#include "fs/fs.h"
#include "uapi/errno.h"
#include "uapi/fcntl.h" /* a shared mapping's file: O_ACCMODE */
#include "kernel/panic.h"
#include "kernel/x86/smp.h"
#include "kernel/lib/string.h"
#include "kernel/process/rlimit.h"
#include "kernel/process/task.h"
#include "kernel/lib/vsprintf.h"
#include "kernel/vdso/vsyscall.h"

/* ---- vma objects ---------------------------------------------------------- */

/* Gives back what a file area holds on its file: the denial of writes, the reference. */
static void
vma_undo_file(struct vma *v)
{
	if (v->flags & VM_DENYWRITE)
		file_allow_write(v->file);
	file_put(v->file);
}

struct vma *
vma_new(struct mm *mm, u64 start, u64 end, u32 flags, struct file *file, u64 pgoff,
	const char *name)
{
	struct vma *v = kzalloc(sizeof(*v));

	if (!v)
		return NULL;
	v->mm = mm;
	v->start = start;
	v->end = end;
	v->flags = flags;
	/*
	 * A program's area holds one denial of writes to its file for as long
	 * as it exists; it cannot fail, since execve holds one while mapping
	 * and splits and forks copy an area that holds one.
	 */
	if (file && (flags & VM_DENYWRITE) && file_deny_write(file)) {
		kfree(v);
		return NULL;
	}
	v->file = file ? file_get(file) : NULL;
	v->pgoff = pgoff;
	v->name = name;
	list_init(&v->link);
	if (file && i_mmap_link(v)) {
		vma_undo_file(v);
		kfree(v);
		return NULL;
	}
	objcount_created(OBJ_VMA);
	return v;
}

void
vma_free(struct vma *v)
{
	if (v->file) {
		i_mmap_unlink(v);
		vma_undo_file(v);
	}
	kfree(v);
	objcount_freed(OBJ_VMA);
}

struct vma *
vma_next(struct mm *mm, struct vma *v)
{
	return v->link.next == &mm->vmas ? NULL : list_entry(v->link.next, struct vma, link);
}

struct vma *
vma_find(struct mm *mm, u64 addr)
{
	struct list_head *pos;

	list_for_each(pos, &mm->vmas) {
		struct vma *v = list_entry(pos, struct vma, link);
		if (addr < v->start)
			return NULL;
		if (addr < v->end)
			return v;
	}
	return NULL;
}

struct vma *
vma_above(struct mm *mm, u64 addr)
{
	struct list_head *pos;

	list_for_each(pos, &mm->vmas) {
		struct vma *v = list_entry(pos, struct vma, link);
		if (v->end > addr)
			return v;
	}
	return NULL;
}

/* Whether b continues a seamlessly: same properties, and the file (or special page) offset lines up. */
static bool
vma_mergeable(const struct vma *a, const struct vma *b)
{
	return a->end == b->start && a->flags == b->flags && a->file == b->file &&
	       a->name == b->name && a->special == b->special && a->uffd == b->uffd &&
	       ((!a->file && !a->special) ||
		a->pgoff + ((a->end - a->start) >> PAGE_SHIFT) == b->pgoff);
}

/* Merges v (in its list) with the areas on either side that continue it; the area now holding it. */
static struct vma *
vma_merge_neighbours(struct mm *mm, struct vma *v)
{
	struct vma *next = vma_next(mm, v);

	if (next && vma_mergeable(v, next)) {
		v->end = next->end;
		list_del(&next->link);
		vma_free(next);
	}
	if (v->link.prev != &mm->vmas) {
		struct vma *prev = list_entry(v->link.prev, struct vma, link);
		if (vma_mergeable(prev, v)) {
			prev->end = v->end;
			list_del(&v->link);
			vma_free(v);
			return prev;
		}
	}
	return v;
}

/* Inserts v in order (the range must be free) and merges it with its neighbours. */
void
vma_insert(struct mm *mm, struct vma *v)
{
	struct list_head *pos = &mm->vmas;

	while (pos->next != &mm->vmas && list_entry(pos->next, struct vma, link)->start < v->start)
		pos = pos->next;
	list_add(&v->link, pos);
	vma_merge_neighbours(mm, v);
}

/*
 * Sets the bits set and clears those in clear on the areas in [start, end),
 * and, with set_uffd, makes uffd their userfaultfd; splits and merges.
 */
static int
apply_to_areas(struct mm *mm, u64 start, u64 end, u32 set, u32 clear, bool set_uffd,
	       struct userfaultfd_ctx *uffd)
{
	for (u64 a = start; a < end;) {
		struct vma *v = vma_above(mm, a);
		if (!v || v->start >= end)
			break;
		a = MAX(a, v->start);
		u32 flags = (v->flags & ~clear) | set;
		if (flags != v->flags || (set_uffd && v->uffd != uffd)) {
			int err = 0;
			if (v->start < a && (err = vma_split(v, a)))
				return err;
			v = vma_find(mm, a);
			if (v->end > end && (err = vma_split(v, end)))
				return err;
			v->flags = flags;
			if (set_uffd)
				v->uffd = uffd;
			v = vma_merge_neighbours(mm, v);
		}
		a = v->end;
	}
	return 0;
}

int
vm_apply_flags(struct mm *mm, u64 start, u64 end, u32 set, u32 clear)
{
	return apply_to_areas(mm, start, end, set, clear, false, NULL);
}

int
vm_apply_userfaultfd(struct mm *mm, u64 start, u64 end, u32 modes, struct userfaultfd_ctx *ctx)
{
	return apply_to_areas(mm, start, end, modes, VM_UFFD_MASK, true, ctx);
}

/* Splits v at addr (strictly inside it): v keeps the low part. */
int
vma_split(struct vma *v, u64 addr)
{
	if (is_vm_hugetlb(v) && (addr & ~HPAGE_MASK))
		return -EINVAL; /* a huge page is never split (Linux's hugetlb_vm_op_split) */
	struct vma *hi = vma_new(v->mm, addr, v->end, v->flags, v->file,
				 v->pgoff + ((addr - v->start) >> PAGE_SHIFT), v->name);
	if (!hi)
		return -ENOMEM;
	hi->special = v->special;
	hi->uffd = v->uffd;
	v->end = addr;
	list_add(&hi->link, &v->link);
	return 0;
}

/* ---- page-table side ------------------------------------------------------ */

/* Pages a zap holds back until the TLB flush: a stack array of 512 bytes. */
#define ZAP_BATCH 64

/*
 * A zap is Linux's mmu_gather: the entries are cleared first, and the pages
 * they held are released only after every CPU's TLB forgot them - until
 * then another thread of the process may still store through a cached
 * entry, into a page that must not be anyone else's yet.
 */
struct zap {
	struct mm *mm;
	bool special; /* fixed kernel pages: only the entries go */
	u64 flushed;  /* the range's start not yet flushed */
	u64 zapped;   /* present entries cleared: without any, no CPU can cache one */
	unsigned npages;
	struct page *pages[ZAP_BATCH];
};

/* Flushes [z->flushed, end) everywhere, then releases the pages held back. */
static void
zap_flush(struct zap *z, u64 end)
{
	if (z->zapped)
		tlb_flush_mm_range(z->mm, z->flushed, end);
	put_pages(z->pages, z->npages);
	z->npages = 0;
	z->zapped = 0;
	z->flushed = end;
}

static void
zap_pte(pte_t *pte, u64 va, void *arg)
{
	struct zap *z = arg;
	u64 val = pte_val(*pte);

	set_pte(pte, make_pte(0));
	z->zapped++;
	if (z->special)
		return;
	struct page *page = pte_page(val);
	if (is_zero_page(page))
		return; /* never counted in rss, never freed */
	/* Stored to through the entry: the file's data changed (Linux's zap_pte_range). */
	if ((val & PTE_DIRTY) && page->mapping)
		set_page_dirty(page);
	z->mm->rss--;
	z->pages[z->npages++] = page;
	if (z->npages == ZAP_BATCH)
		zap_flush(z, va + PAGE_SIZE);
}

/* Drops every page mapped in [start, end), a part of v. */
void
zap_range(struct mm *mm, const struct vma *v, u64 start, u64 end)
{
	struct zap z = { .mm = mm, .special = v->special != NULL, .flushed = start };

	if (is_vm_hugetlb(v)) { /* whole huge pages only (Linux's madvise_dontneed_free) */
		hugetlb_zap(mm, v, ALIGN_UP(start, HPAGE_SIZE), ALIGN_DOWN(end, HPAGE_SIZE), false);
		return;
	}
	spin_lock(&mm->pt_lock);
	walk_present_ptes(mm->pgd, start, end, zap_pte, &z);
	spin_unlock(&mm->pt_lock);
	zap_flush(&z, end); /* the held-back pages keep even truncated file pages alive till then */
}

/* Removes every area (and its pages) inside [start, end), splitting areas that straddle it. */
int
unmap_range(struct mm *mm, u64 start, u64 end)
{
	struct list_head *pos = mm->vmas.next;
	bool removed = false;
	int err = 0;

	while (pos != &mm->vmas) {
		struct vma *v = list_entry(pos, struct vma, link);
		if (v->start >= end)
			break;
		if (v->end <= start) {
			pos = pos->next;
			continue;
		}
		if (v->start < start) {
			err = vma_split(v, start);
			if (err)
				break;
			pos = pos->next; /* the part at and above start */
			continue;
		}
		err = v->end > end ? vma_split(v, end) : 0;
		if (err)
			break; /* the areas below v are gone: their tables go too */
		pos = pos->next;
		list_del(&v->link);
		if (is_vm_hugetlb(v))
			hugetlb_zap(mm, v, v->start, v->end,
				    true); /* and its unused reservations */
		else
			zap_range(mm, v, v->start, v->end);
		vma_free(v);
		removed = true;
	}
	if (removed) /* else the range was a gap already, with no table of its own */
		free_unused_tables(mm, start, end);
	return err;
}

/* ---- resource limits (kernel/process/rlimit.h) -------------------------------- */

/* Memory RLIMIT_DATA counts: private and writable, not the stack (Linux's is_data_mapping). */
static bool
is_data(u32 flags)
{
	return (flags & (VM_WRITE | VM_SHARED | VM_GROWSDOWN)) == VM_WRITE;
}

/*
 * Whether the current process's RLIMIT_AS and RLIMIT_DATA leave room for
 * grow more bytes mapped with flags, in place of whatever is mapped in
 * [start, end) now (Linux's may_expand_vm, with mmap_region's allowance
 * for MAP_FIXED).
 */
static bool
may_expand(struct mm *mm, u32 flags, u64 grow, u64 start, u64 end)
{
	u64 total = grow, data = is_data(flags) ? grow : 0;
	u64 as_limit = rlimit(RLIMIT_AS),
	    data_limit = is_data(flags) ? rlimit(RLIMIT_DATA) : RLIM_INFINITY;
	struct list_head *pos;

	/* Unlimited (the default): no walk, so that mmap costs what it did (the rwsem benchmarks). */
	if (as_limit == RLIM_INFINITY && data_limit == RLIM_INFINITY)
		return true;

	list_for_each(pos, &mm->vmas) {
		struct vma *v = list_entry(pos, struct vma, link);
		u64 outside =
			(v->end - v->start) - (MIN(v->end, end) > MAX(v->start, start)
						       ? MIN(v->end, end) - MAX(v->start, start)
						       : 0);
		total += outside;
		if (is_data(v->flags))
			data += outside;
	}
	return total <= as_limit && data <= data_limit;
}

int
vm_may_grow(struct mm *mm, u32 flags, u64 grow, u64 start, u64 end)
{
	if ((flags & VM_LOCKED) && !vm_may_lock(mm, grow))
		return -EAGAIN; /* mlockall(MCL_FUTURE) and RLIMIT_MEMLOCK: Linux's mlock_future_check */
	return may_expand(mm, flags, grow, start, end) ? 0 : -ENOMEM;
}

/* ---- mapping operations (mmap_lock held for writing by the callers below) --- */

static int
map_locked(struct mm *mm, u64 start, u64 len, u32 flags, struct file *file, u64 pgoff,
	   const char *name)
{
	int err = unmap_range(mm, start, start + len);
	if (!err && file)
		err = file_mmap_open(file); /* after the unmap, as Linux's mmap_region */
	if (err)
		return err;
	struct vma *v = vma_new(mm, start, start + len, flags, file, pgoff, name);
	if (!v)
		return -ENOMEM;
	vma_insert(mm, v);
	return 0;
}

bool
range_is_free(struct mm *mm, u64 start, u64 end)
{
	struct list_head *pos;

	list_for_each(pos, &mm->vmas) {
		struct vma *v = list_entry(pos, struct vma, link);
		if (v->start < end && v->end > start)
			return false;
	}
	return true;
}

/* Installs the special mapping's page for va unless one is there; pt_lock held. */
static enum fault_result
install_special_page(struct mm *mm, const struct vma *v, u64 va)
{
	u64 page = v->special->page((unsigned)(v->pgoff + ((va - v->start) >> PAGE_SHIFT)));
	pte_t *pte = pte_alloc(mm->pgd, va, &mm->pgtables);

	if (!pte)
		return FAULT_OOM;
	if (!page)
		return FAULT_BUS; /* as Linux's [vvar] without an HPET */
	if (!(pte_val(*pte) & PTE_PRESENT))
		set_pte(pte, make_pte(page | vm_pte_flags(v->flags, false)));
	return FAULT_OK;
}

enum fault_result
vm_special_fault(struct mm *mm, struct vma *v, u64 va)
{
	spin_lock(&mm->pt_lock);
	enum fault_result r = install_special_page(mm, v, va & PAGE_MASK);
	spin_unlock(&mm->pt_lock);
	return r;
}

int
vm_map_special(struct mm *mm, u64 start, const struct special_mapping *sm, u32 flags)
{
	u64 len = (u64)sm->npages << PAGE_SHIFT;
	int err = 0;

	BUG_ON(flags & ~(VM_READ | VM_EXEC));
	down_write(&mm->mmap_lock);
	if (!range_is_free(mm, start, start + len)) {
		up_write(&mm->mmap_lock);
		return -EEXIST;
	}
	struct vma *v = vma_new(mm, start, start + len, flags, NULL, 0, sm->name);
	if (!v) {
		up_write(&mm->mmap_lock);
		return -ENOMEM;
	}
	v->special = sm;
	vma_insert(mm, v);
	spin_lock(&mm->pt_lock);
	for (u64 va = start; va < start + len && !err; va += PAGE_SIZE)
		err = install_special_page(mm, v, va) == FAULT_OOM ? -ENOMEM : 0;
	spin_unlock(&mm->pt_lock);
	up_write(&mm->mmap_lock);
	return err;
}

int
vm_map_fixed(struct mm *mm, u64 start, u64 len, u32 flags, struct file *file, u64 pgoff,
	     const char *name)
{
	down_write(&mm->mmap_lock);
	int err = map_locked(mm, start, len, flags | VM_MAYWRITE, file, pgoff, name);
	up_write(&mm->mmap_lock);
	return err;
}

/*
 * Where v begins as far as other areas are concerned: an area that grows
 * down keeps stack_guard_gap free below it (Linux's vm_start_gap).
 */
static u64
vm_start_gap(const struct vma *v)
{
	if (!(v->flags & VM_GROWSDOWN) || v->start < STACK_GUARD_GAP)
		return v->start;
	return v->start - STACK_GUARD_GAP;
}

/*
 * The highest free gap of len bytes below USER_MMAP_TOP (mmap grows down,
 * as Linux's), above page 0; vm.mmap_min_addr is the caller's to ask, as
 * Linux's x86 search leaves it to security_mmap_addr.
 */
static u64
find_free_area(struct mm *mm, u64 len)
{
	u64 hi = USER_MMAP_TOP;

	for (struct list_head *pos = mm->vmas.prev; pos != &mm->vmas; pos = pos->prev) {
		struct vma *v = list_entry(pos, struct vma, link);
		if (v->end <= hi && hi - v->end >= len)
			return hi - len;
		if (vm_start_gap(v) < hi)
			hi = vm_start_gap(v);
	}
	return hi >= PAGE_SIZE + len ? hi - len : 0;
}

u64
get_unmapped_area(struct mm *mm, u64 hint, u64 len)
{
	/*
	 * Nothing longer than user space fits (Linux's -ENOMEM): below, the
	 * sums would wrap and hand out a range that wraps too (mremap's
	 * growth by 2^64 - 4096 got one).
	 */
	if (len > USER_TOP)
		return 0;
	/* (hint + len <= USER_TOP would wrap for a huge hint and take a kernel address.) */
	if (hint && hint <= USER_TOP - len && IS_ALIGNED(hint, PAGE_SIZE) &&
	    range_is_free(mm, hint, hint + len))
		return hint; /* the hint is free: take it */
	return find_free_area(mm, len);
}

/* The same for huge pages: 2 MiB-aligned (Linux's hugetlb_get_unmapped_area). */
static u64
get_unmapped_huge_area(struct mm *mm, u64 hint, u64 len)
{
	if (IS_ALIGNED(hint, HPAGE_SIZE) && get_unmapped_area(mm, hint, len) == hint)
		return hint;
	u64 start = find_free_area(mm, len + HPAGE_SIZE - PAGE_SIZE);
	return start ? ALIGN_UP(start, HPAGE_SIZE) : 0;
}

u64
vm_free_area(struct mm *mm, u64 len)
{
	down_write(&mm->mmap_lock);
	u64 start = find_free_area(mm, len);
	up_write(&mm->mmap_lock);
	return start;
}

/* Linux's mm_populate after mmap: a locked area (not on-fault), or MAP_POPULATE without MAP_NONBLOCK. */
static bool
mmap_populates(int flags, u32 vmflags)
{
	if ((vmflags & (VM_LOCKED | VM_LOCKONFAULT)) == VM_LOCKED)
		return true;
	return (flags & MAP_POPULATE) && !(flags & MAP_NONBLOCK);
}

long
vm_mmap_locked(struct mm *mm, u64 addr, u64 len, int prot, int flags, struct file *file, u64 pgoff,
	       bool *populate)
{
	bool shared = (flags & MAP_TYPE) == MAP_SHARED;
	/* Writes to a shared file mapping reach the file: only if the file was opened for them. */
	bool may_write = !shared || !file || (file_flags(file) & O_ACCMODE) == O_RDWR;
	u32 vmflags = (prot & VM_PROT_MASK) | (shared ? VM_SHARED : 0) |
		      (may_write ? VM_MAYWRITE : 0) | mm->def_flags |
		      (flags & MAP_LOCKED ? VM_LOCKED : 0) |
		      (flags & MAP_GROWSDOWN ? VM_GROWSDOWN : 0);
	long ret;

	bool huge = file && is_hugetlbfs_inode(file->inode);

	*populate = false;
	len = ALIGN_UP(len, huge ? HPAGE_SIZE : PAGE_SIZE);
	if (len == 0 || len > USER_TOP)
		return -ENOMEM;
	if (huge && (flags & (MAP_FIXED | MAP_FIXED_NOREPLACE)) && !IS_ALIGNED(addr, HPAGE_SIZE))
		return -EINVAL;
	/* A file sealed against writes (fs/memfd.c): no shared mapping writes it, now or later. */
	if (shared && file && file_write_sealed(file)) {
		if (prot & PROT_WRITE)
			return -EPERM;
		vmflags &= ~VM_MAYWRITE;
	}
	if (flags & (MAP_FIXED | MAP_FIXED_NOREPLACE)) {
		/*
		 * Every caller's fixed range must lie in user space (Linux's
		 * get_unmapped_area), not only mmap's: an area at USER_TOP and
		 * above would have fork and unmap walk the kernel's page tables.
		 */
		if (addr > USER_TOP - len)
			return -ENOMEM;
		ret = mmap_addr_permitted(addr);
		if (ret)
			return ret;
		ret = (long)addr;
		if ((flags & MAP_FIXED_NOREPLACE) && !range_is_free(mm, addr, addr + len))
			return -EEXIST;
	} else {
		ret = (long)(huge ? get_unmapped_huge_area(mm, addr, len)
				  : get_unmapped_area(mm, addr, len));
		if (!ret)
			return -ENOMEM;
		if (mmap_addr_permitted((u64)ret))
			return -EPERM; /* a hint, or a search that ran down to page 0 */
	}
	int err = vm_may_grow(mm, vmflags, len, (u64)ret, (u64)ret + len);
	if (err)
		return err;
	if (huge) {
		err = hugetlbfs_mmap_prepare(file, pgoff, len, vmflags);
		if (err)
			return err;
		vmflags |= VM_HUGETLB | (shared ? 0 : VM_HUGE_RESV);
	}
	err = map_locked(mm, (u64)ret, len, vmflags, file, pgoff, NULL);
	if (err) {
		if (huge)
			hugetlbfs_mmap_abandon(len, vmflags);
		return err;
	}
	*populate = mmap_populates(flags, vmflags);
	return ret;
}

void
vm_populate_mapped(struct mm *mm, u64 start, u64 len)
{
	down_read(&mm->mmap_lock);
	(void)vm_populate(mm, start, start + ALIGN_UP(len, PAGE_SIZE),
			  POPULATE_READ); /* faults bring in the rest */
	up_read(&mm->mmap_lock);
}

long
vm_mmap(struct mm *mm, u64 addr, u64 len, int prot, int flags, struct file *file, u64 pgoff)
{
	bool populate;

	down_write(&mm->mmap_lock);
	long ret = vm_mmap_locked(mm, addr, len, prot, flags, file, pgoff, &populate);
	up_write(&mm->mmap_lock);
	if (populate)
		vm_populate_mapped(mm, (u64)ret, len);
	return ret;
}

int
vm_munmap(struct mm *mm, u64 start, u64 len)
{
	down_write(&mm->mmap_lock);
	int err = unmap_range(mm, start, start + ALIGN_UP(len, PAGE_SIZE));
	up_write(&mm->mmap_lock);
	return err;
}

int
vm_unmap_file(struct mm *mm, u64 start, u64 end, const struct file *file)
{
	int removed = 0, err = 0;
	struct list_head *pos;

	down_write(&mm->mmap_lock);
again:
	list_for_each(pos, &mm->vmas) {
		struct vma *v = list_entry(pos, struct vma, link);
		if (v->start >= end)
			break;
		if (v->end > start && v->file == file) {
			err = unmap_range(mm, MAX(v->start, start), MIN(v->end, end));
			if (err)
				break;
			removed++;
			goto again; /* the list changed under pos */
		}
	}
	up_write(&mm->mmap_lock);
	return err ? err : removed;
}

u64
vm_pte_flags(u32 vmflags, bool writable)
{
	if (!(vmflags & VM_PROT_MASK))
		return PTE_PROTNONE | PTE_NX; /* absent to everyone; the page stays (paging.h) */
	u64 f = PTE_PRESENT | PTE_USER;

	if (writable && (vmflags & VM_WRITE))
		f |= PTE_WRITE;
	if (!(vmflags & VM_EXEC))
		f |= PTE_NX;
	return f;
}

struct reprotect {
	u32 flags;
	u64 changed; /* present entries rewritten (Linux flushes only if any) */
};

/*
 * Keeps the page, its caching (an MMIO page stays uncached) and its write bit
 * only where still allowed (COW pages stay read-only).
 */
static void
reprotect_pte(pte_t *pte, u64 va, void *arg)
{
	struct reprotect *r = arg;
	u64 val = pte_val(*pte);

	if (val & PTE_HWPOISON)
		return; /* stays absent whatever the protections */
	set_pte(pte, make_pte((val & (PTE_ADDR_MASK | PTE_CACHE_UC)) |
			      vm_pte_flags(r->flags, val & PTE_WRITE)));
	r->changed++;
}

int
vm_mprotect(struct mm *mm, u64 start, u64 len, int prot)
{
	u64 end = start + ALIGN_UP(len, PAGE_SIZE);
	int err = 0;

	down_write(&mm->mmap_lock);
	for (u64 a = start; a < end;) { /* the whole range must be mapped */
		struct vma *v = vma_find(mm, a);
		if (!v) {
			err = -ENOMEM;
			goto out;
		}
		/* A shared mapping of a read-only file, or kernel pages shared by every process. */
		if ((prot & PROT_WRITE) && !(v->flags & VM_MAYWRITE)) {
			err = -EACCES;
			goto out;
		}
		/* Those kernel pages are executable only if code ([vdso]). */
		if (v->special && (prot & PROT_EXEC) && !(v->flags & VM_EXEC)) {
			err = -EACCES;
			goto out;
		}
		a = v->end;
	}
	for (u64 a = start; a < end;) {
		struct vma *v = vma_find(mm, a);
		if (v->start < a && (err = vma_split(v, a)))
			goto out;
		v = vma_find(mm, a);
		if (v->end > end && (err = vma_split(v, end)))
			goto out;
		struct reprotect r = { (v->flags & ~VM_PROT_MASK) | (prot & VM_PROT_MASK), 0 };
		v->flags = r.flags;
		spin_lock(&mm->pt_lock);
		if (is_vm_hugetlb(v))
			r.changed = hugetlb_reprotect(mm, v);
		else
			walk_present_ptes(mm->pgd, v->start, v->end, reprotect_pte, &r);
		spin_unlock(&mm->pt_lock);
		/* Not-present entries are never cached: a fresh reservation needs no shootdown. */
		if (r.changed)
			tlb_flush_mm_range(mm, v->start, v->end);
		a = v->end;
	}
out:
	up_write(&mm->mmap_lock);
	return err;
}

void
vm_brk_init(struct mm *mm, u64 start)
{
	mm->brk_start = mm->brk = start;
}

u64
vm_brk(struct mm *mm, u64 want)
{
	down_write(&mm->mmap_lock);
	u64 old_end = ALIGN_UP(mm->brk, PAGE_SIZE), new_end = ALIGN_UP(want, PAGE_SIZE);
	if (want < mm->brk_start || want >= USER_MMAP_TOP)
		goto out;
	/* RLIMIT_DATA bounds the heap itself too (Linux's check_data_rlimit). */
	if (new_end > old_end && want - mm->brk_start > rlimit(RLIMIT_DATA))
		goto out;
	if (new_end > old_end) {
		if (!range_is_free(mm, old_end, new_end) ||
		    vm_may_grow(mm, VM_READ | VM_WRITE, new_end - old_end, old_end, new_end) ||
		    map_locked(mm, old_end, new_end - old_end, VM_READ | VM_WRITE | VM_MAYWRITE,
			       NULL, 0, "[heap]"))
			goto out;
	} else if (new_end < old_end && unmap_range(mm, new_end, old_end)) {
		goto out;
	}
	mm->brk = want;
out:
	want = mm->brk;
	up_write(&mm->mmap_lock);
	return want;
}

/* Whether v may grow down to start past the area below it (Linux's expand_downwards). */
static bool
may_grow_down(struct mm *mm, struct vma *v, u64 start)
{
	struct vma *below =
		v->link.prev == &mm->vmas ? NULL : list_entry(v->link.prev, struct vma, link);

	/* Not below vm.mmap_min_addr even with CAP_SYS_RAWIO, as Linux's expand_downwards. */
	if (start < READ_ONCE(mmap_min_addr) || v->end - start > rlimit(RLIMIT_STACK))
		return false;
	if (v->file && v->pgoff < (v->start - start) >> PAGE_SHIFT)
		return false; /* the file offset would go below 0 */
	/* An inaccessible or growing area below needs no gap (Linux's rule). */
	if (below && !(below->flags & VM_GROWSDOWN) && (below->flags & VM_PROT_MASK) &&
	    start - below->end < STACK_GUARD_GAP)
		return false;
	return may_expand(mm, v->flags, v->end - start, start, v->end);
}

int
vm_grow_stack(struct mm *mm, u64 addr)
{
	u64 start = addr & PAGE_MASK;
	int err = -ENOMEM;

	down_write(&mm->mmap_lock);
	struct vma *v = vma_above(mm, addr);
	if (v && v->start <= addr) {
		err = 0; /* another thread grew it meanwhile */
	} else if (v && (v->flags & VM_GROWSDOWN) && may_grow_down(mm, v, start)) {
		if (v->file)
			v->pgoff -= (v->start - start) >> PAGE_SHIFT;
		v->start = start;
		err = 0;
	}
	up_write(&mm->mmap_lock);
	return err;
}

/* Linux pads the fields before a name to this column (64-bit: 25 + 6 * sizeof(void *) - 1). */
#define MAPS_NAME_COLUMN 73

size_t
vm_show_map_line(char *buf, size_t size, u64 start, u64 end, const char *perms, u64 offset,
		 const char *name)
{
	char fields[96];
	int len = ksnprintf(fields, sizeof(fields), "%08lx-%08lx %s %08lx 00:00 0", start, end,
			    perms, offset);
	int pad = name[0] ? MAX(MAPS_NAME_COLUMN - len, 1) : 0;

	return (size_t)ksnprintf(buf, size, "%s%*s%s\n", fields, pad, "", name);
}

size_t
vm_show_area_line(const struct vma *v, char *buf, size_t size)
{
	char path[128] = "",
	     perms[5] = { v->flags & VM_READ ? 'r' : '-', v->flags & VM_WRITE ? 'w' : '-',
			  v->flags & VM_EXEC ? 'x' : '-', v->flags & VM_SHARED ? 's' : 'p', '\0' };
	if (v->file)
		file_path(v->file, path, sizeof(path));
	else if (v->name)
		ksnprintf(path, sizeof(path), "%s", v->name);
	return vm_show_map_line(buf, size, v->start, v->end, perms, v->pgoff << PAGE_SHIFT, path);
}

size_t
vm_show_maps(struct mm *mm, char *buf, size_t size)
{
	size_t n = 0;
	struct list_head *pos;

	down_read(&mm->mmap_lock);
	list_for_each(pos, &mm->vmas)
		n += vm_show_area_line(list_entry(pos, struct vma, link), buf + MIN(n, size),
				       size - MIN(n, size));
	up_read(&mm->mmap_lock);
	/* The vsyscall page is in every address space, as the last line (Linux's gate area). */
	const char *perms = vsyscall_maps_perms();
	if (perms)
		n += vm_show_map_line(buf + MIN(n, size), size - MIN(n, size), VSYSCALL_ADDR,
				      VSYSCALL_ADDR + PAGE_SIZE, perms, 0, "[vsyscall]");
	return MIN(n, size);
}
