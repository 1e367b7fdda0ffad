/*
 * fault.c - user page faults: demand paging and copy-on-write.
 *
 * Under the mmap lock taken for reading, the faulting area decides:
 *   - no area: the stack grows down to it if it lies just below
 *     (vm_grow_stack, under the lock taken for writing), else SIGSEGV;
 *   - an access the area does not allow: the process gets SIGSEGV;
 *   - no page yet: a zeroed page (anonymous memory; for a read of private
 *     anonymous memory, the shared zero page read-only, mm/zero_page.h), or
 *     the page-cache page of the file (mapped read-only when private, so
 *     that a write copies);
 *     a read fault there also maps the neighbouring pages the cache already
 *     holds (fault_around.c);
 *   - a write to a present read-only page of a writable area: copy-on-write,
 *     unless this mapping is the page's only user, which just gets write
 *     permission back (the zero page is replaced by a zeroed page: no copy);
 *   - a write that makes a shared file page writable dirties the page and
 *     stamps the file's mtime and ctime (dirty_shared_page);
 *   - a special mapping (the vDSO, mm/vm.h): its fixed page goes back in
 *     (after madvise(MADV_DONTNEED) dropped it), never a new one;
 *   - an area registered with a userfaultfd: a missing (or minor) page is
 *     its reader's to provide; the fault waits for it without the mmap
 *     lock and is tried again (mm/userfaultfd.h).
 *   - a page whose memory failed (MADV_HWPOISON, memory_failure.c): SIGBUS;
 *   - an area of huge pages: mm/hugetlb.c's, 2 MiB at a time.
 * No page to be had: the out-of-memory policy kills the biggest process
 * and the fault is tried again (oom_kill.c).
 * Page-table changes happen under mm->pt_lock; getting a page may sleep
 * (file pages), so it happens outside that lock and the entry is checked
 * again before it is installed.
 *
 * access_remote_vm reads another address space the same way, bringing in
 * what a read there would (for /proc/<pid>/cmdline and environ).
 */
#include "mm/vm_internal.h"
#include "mm/i_mmap.h"
#include "mm/fault_around.h"
#include "mm/hugetlb.h"
#include "mm/userfaultfd.h"
#include "uapi/errno.h"
#include "mm/oom_kill.h"
#include "mm/page_alloc.h"
#include "mm/paging.h"
#include "mm/zero_page.h"
#include "fs/fs.h"
#include "kernel/lib/string.h"
#include "kernel/x86/smp.h"
#include "kernel/process/task.h"
#include "kernel/x86/traps.h"

static bool
access_allowed(const struct vma *v, u64 error)
{
	if (error & PF_WRITE)
		return v->flags & VM_WRITE;
	if (error & PF_INSTR)
		return v->flags & VM_EXEC;
	return v->flags & (VM_READ | VM_WRITE | VM_EXEC); /* x86 cannot map write- or exec-only */
}

/*
 * A write through a shared file mapping made page writable: as Linux's
 * fault_dirty_shared_page (2.6.28's __do_fault for a file without
 * page_mkwrite), the page is dirty now and the file's mtime and ctime are
 * stamped - POSIX wants them marked for update between such a write and the
 * next msync, and a page dirtied this way is what writeback would write.
 * Later stores through the writable entry set only its dirty bit, which the
 * unmap hands to the page (mm/vm.c, zap_pte). Called without pt_lock: the
 * stamp reads the clock and may take the instance's flags.
 */
static void
dirty_shared_page(struct vma *v, struct page *page)
{
	set_page_dirty(page);
	file_update_time(v->file);
}

/*
 * A page of its own for mm in place of old, which it maps (and no longer
 * will): a copy; for the zero page a zeroed page, now counted in rss as the
 * zero page was not. NULL when out of memory. pt_lock held. The caller drops
 * old's reference once the TLB no longer holds the old entry.
 */
static struct page *
private_copy(struct mm *mm, struct page *old)
{
	struct page *copy = alloc_shared_page(); /* zeroed */

	if (!copy)
		return NULL;
	if (is_zero_page(old))
		mm_rss_inc(mm);
	else
		memcpy(page_address(copy), page_address(old), PAGE_SIZE);
	return copy;
}

/*
 * A write to a present read-only page of v's address space, which need
 * not be the running process's; pt_lock held. A shared file page made
 * writable is returned referenced in *dirtied, for dirty_shared_page once
 * the lock is dropped.
 */
static enum fault_result
write_protect_fault(struct vma *v, pte_t *pte, u64 va, struct page **dirtied)
{
	u64 val = pte_val(*pte);
	struct page *old = pte_page(val);
	/* The zero page is held by no mapping: its reference count says nothing. */
	if (!is_zero_page(old) &&
	    ((v->flags & VM_SHARED) || (!old->mapping && page_refcount(old) == 1))) {
		set_pte(pte, make_pte(val | PTE_WRITE));
		if ((v->flags & VM_SHARED) && v->file && old->mapping) {
			get_page(old);
			*dirtied = old;
		}
	} else {
		struct page *copy = private_copy(v->mm, old);
		if (!copy)
			return FAULT_OOM;
		set_pte(pte, make_pte(page_to_phys(copy) | vm_pte_flags(v->flags, true)));
		/*
		 * Other threads of v's address space may still read the old page
		 * through a stale entry: their CPUs flush it before it is freed.
		 * The running process's would miss them when the fault is taken
		 * for another address space.
		 */
		tlb_flush_mm_range(v->mm, va, va + PAGE_SIZE);
		if (!is_zero_page(old))
			put_page(old);
		return FAULT_OK;
	}
	flush_tlb_single(va); /* only more permission: elsewhere a stale entry just faults again */
	return FAULT_OK;
}

/*
 * The page to map at va, with a reference, and whether it may be writable;
 * for a file area also the file's page it came from (*cached, referenced
 * too), which must still be the file's when the entry goes in.
 */
static enum fault_result
get_fault_page(struct vma *v, u64 va, bool write, struct page **out, bool *writable,
	       struct page **cached)
{
	*writable = true;
	*cached = NULL;
	if (!v->file) {
		*out = alloc_shared_page();
		return *out ? FAULT_OK : FAULT_OOM;
	}
	struct page *p = file_get_page(v->file, v->pgoff + ((va - v->start) >> PAGE_SHIFT));
	if (!p)
		return FAULT_BUS;
	*cached = p;
	if (!(v->flags & VM_SHARED)) {
		if (!write) {
			*writable = false; /* copy on the first write */
		} else {
			struct page *copy = alloc_shared_page();
			if (!copy) {
				put_page(p);
				return FAULT_OOM;
			}
			memcpy(page_address(copy), page_address(p), PAGE_SIZE);
			*out = copy;
			return FAULT_OK;
		}
	}
	get_page(p);
	*out = p;
	return FAULT_OK;
}

/*
 * A read fault of private anonymous memory: the zero page, read-only, unless
 * another thread mapped a page meanwhile (Linux's do_anonymous_page without
 * FAULT_FLAG_WRITE). Neither referenced nor counted in rss (zero_page.h).
 */
static enum fault_result
map_zero_page(struct mm *mm, struct vma *v, u64 va, struct task *charged)
{
	spin_lock(&mm->pt_lock);
	pte_t *pte = pte_alloc(mm->pgd, va, &mm->pgtables);
	bool install = pte && !(pte_val(*pte) & PTE_PRESENT);
	if (install)
		set_pte(pte, make_pte(page_to_phys(zero_page) | vm_pte_flags(v->flags, false)));
	spin_unlock(&mm->pt_lock);
	if (!pte)
		return FAULT_OOM;
	if (install && charged)
		charged->minor_faults++;
	return FAULT_OK;
}

/* Installs the page for a fault at va; the faulting task (NULL: a remote read) is charged it. */
static enum fault_result
fault_in(struct mm *mm, struct vma *v, u64 va, bool write, struct task *charged)
{
	spin_lock(&mm->pt_lock);
	pte_t *pte = pte_alloc(mm->pgd, va, &mm->pgtables);
	if (!pte) {
		spin_unlock(&mm->pt_lock);
		return FAULT_OOM;
	}
	/*
	 * An entry already: present, or (absent in an area that allows the
	 * access) a poisoned page's, mm/memory_failure.c. One test for both
	 * keeps the first touch of a page as cheap as it was.
	 */
	if (pte_val(*pte)) {
		enum fault_result r = FAULT_OK;
		struct page *dirtied = NULL;
		if (!(pte_val(*pte) & PTE_PRESENT))
			r = FAULT_HWPOISON;
		else if (write && !(pte_val(*pte) & PTE_WRITE))
			r = write_protect_fault(v, pte, va, &dirtied);
		/* else another thread mapped it meanwhile */
		spin_unlock(&mm->pt_lock);
		if (dirtied) {
			dirty_shared_page(v, dirtied);
			put_page(dirtied);
		}
		return r;
	}
	spin_unlock(&mm->pt_lock);
	/*
	 * A registered area's reader may want the fault (mm/userfaultfd.h);
	 * its minor faults are the pages the cache holds, so nothing is mapped
	 * around. Else a read of a file area maps the cached neighbours too
	 * (fault_around.c).
	 */
	if (v->flags & VM_UFFD_MASK) {
		if (userfaultfd_wants(v, va))
			return FAULT_USERFAULT;
	} else if (v->file && !write && fault_around(mm, v, va)) {
		if (charged)
			charged->minor_faults++;
		return FAULT_OK;
	}
	/* Nothing is allocated for private anonymous memory until it is written. */
	if (!v->file && !write && !(v->flags & VM_SHARED))
		return map_zero_page(mm, v, va, charged);

	struct page *page, *cached;
	bool writable;
	enum fault_result r = get_fault_page(v, va, write, &page, &writable, &cached);
	if (r != FAULT_OK)
		return r;

	spin_lock(&mm->pt_lock);
	pte = pte_alloc(mm->pgd, va, &mm->pgtables);
	/*
	 * Present: another thread mapped it meanwhile. A file page truncated
	 * meanwhile is not mapped: the access faults again and finds the
	 * file's page, or SIGBUS past its end (mm/i_mmap.c).
	 */
	bool install = pte && !(pte_val(*pte) & PTE_PRESENT) &&
		       (!cached || i_mmap_page_current(v, cached));
	if (install) {
		set_pte(pte, make_pte(page_to_phys(page) | vm_pte_flags(v->flags, writable)));
		mm_rss_inc(mm);
	}
	spin_unlock(&mm->pt_lock);
	if (!install)
		put_page(page);
	if (cached) {
		if (install && write && cached == page) /* a shared file page, now writable */
			dirty_shared_page(v, page);
		put_page(cached); /* after: its reference keeps the page against a truncation */
	}
	if (!pte)
		return FAULT_OOM;
	if (install && charged)
		charged->minor_faults++;
	return FAULT_OK;
}

static enum fault_result
fault_once(struct mm *mm, u64 addr, u64 error)
{
	enum fault_result r;

	down_read(&mm->mmap_lock);
	struct vma *v = vma_find(mm, addr);
	if (!v) { /* perhaps just below the stack, which then grows */
		up_read(&mm->mmap_lock);
		int grow_err = vm_grow_stack(mm, addr);
		down_read(&mm->mmap_lock);
		v = grow_err ? NULL : vma_find(mm, addr);
	}
	if (!v)
		r = FAULT_SEGV_MAPERR;
	else if (!access_allowed(v, error))
		r = FAULT_SEGV_ACCERR;
	else if (v->special)
		r = vm_special_fault(mm, v, addr);
	else if (is_vm_hugetlb(v))
		r = hugetlb_fault(mm, v, addr, error & PF_WRITE);
	else
		r = fault_in(mm, v, addr & PAGE_MASK, error & PF_WRITE, current());
	if (r == FAULT_USERFAULT)
		return handle_userfault(mm, v, addr, error); /* it drops the lock */
	up_read(&mm->mmap_lock);
	return r;
}

enum fault_result
handle_mm_fault(u64 addr, u64 error)
{
	struct mm *mm = current()->mm;
	enum fault_result r;

	if (!mm || addr >= USER_TOP)
		return FAULT_SEGV_MAPERR;
	/*
	 * No page: the biggest process goes (oom_kill.c) and the fault is tried
	 * again; so it is after a userfaultfd's reader resolved it.
	 */
	while ((r = fault_once(mm, addr, error)) == FAULT_RETRY ||
	       (r == FAULT_OOM && !fatal_signal_pending() && out_of_memory()))
		;
	return r;
}

/* The present page at va, referenced, or NULL; mmap_lock held. */
static struct page *
present_page(struct mm *mm, u64 va)
{
	struct page *p = NULL;

	spin_lock(&mm->pt_lock);
	pte_t *pte = pte_walk(mm->pgd, va, false);
	if (pte && (pte_val(*pte) & PTE_PRESENT)) {
		p = pte_page(pte_val(*pte));
		get_page(p);
	}
	spin_unlock(&mm->pt_lock);
	return p;
}

/*
 * The page at va of mm, referenced, brought in as a read would bring it;
 * NULL where no readable area is (special mappings' fixed pages are not
 * counted pages: they are left out too). mmap_lock held for reading.
 */
static struct page *
get_readable_page(struct mm *mm, u64 va)
{
	struct vma *v = vma_find(mm, va);

	/* A huge page's 4 KiB parts have no references of their own to take. */
	if (!v || !(v->flags & VM_READ) || v->special || is_vm_hugetlb(v))
		return NULL;
	struct page *p = present_page(mm, va);
	if (!p && fault_in(mm, v, va, false, NULL) == FAULT_OK)
		p = present_page(mm, va); /* NULL only if a discard raced: the read stops there */
	return p;
}

/*
 * The [vdso] page at va, or NULL: the same kernel page in every process,
 * read without a reference since it is never freed, as Linux's
 * get_user_pages reads the vDSO (gdb loads its symbols from there). The
 * [vvar] data is not code and stays unreadable so, as Linux's VM_PFNMAP.
 */
static const void *
vdso_page_at(struct mm *mm, u64 va)
{
	struct vma *v = vma_find(mm, va);

	if (!v || !v->special || !(v->flags & VM_EXEC) || !(v->flags & VM_READ))
		return NULL;
	u64 page = v->special->page((unsigned)(v->pgoff + ((va - v->start) >> PAGE_SHIFT)));
	return page ? phys_to_virt(page & PTE_ADDR_MASK) : NULL;
}

size_t
access_remote_vm(struct mm *mm, u64 addr, void *buf, size_t len)
{
	size_t done = 0;

	down_read(&mm->mmap_lock);
	while (done < len && addr + done >= addr && addr + done < USER_TOP) {
		u64 va = addr + done;
		const void *vdso = vdso_page_at(mm, va & PAGE_MASK);
		struct page *p = vdso ? NULL : get_readable_page(mm, va & PAGE_MASK);
		if (!vdso && !p)
			break;
		size_t off = va & (PAGE_SIZE - 1), n = MIN(len - done, PAGE_SIZE - off);
		memcpy((char *)buf + done, (const char *)(vdso ? vdso : page_address(p)) + off, n);
		if (p)
			put_page(p);
		done += n;
	}
	up_read(&mm->mmap_lock);
	return done;
}

/* Whether populating v faults its pages in as writes. */
static bool
populates_writing(const struct vma *v, enum populate_access access)
{
	if (access == POPULATE_LOCKED)
		return (v->flags & (VM_WRITE | VM_SHARED)) == VM_WRITE;
	return access == POPULATE_WRITE;
}

int
vm_populate(struct mm *mm, u64 start, u64 end, enum populate_access access)
{
	for (u64 va = start; va < end;) {
		struct vma *v = vma_above(mm, va);
		if (!v || v->start > va)
			return -ENOMEM;
		u64 stop = MIN(end, v->end);
		bool accessible = v->flags & VM_PROT_MASK, write = populates_writing(v, access);
		u64 step = is_vm_hugetlb(v) ? HPAGE_SIZE : PAGE_SIZE;
		for (; accessible && !v->special && va < stop; va = ALIGN_DOWN(va, step) + step) {
			if (fatal_signal_pending())
				return -EINTR;
			enum fault_result r = is_vm_hugetlb(v)
						      ? hugetlb_fault(mm, v, va, write)
						      : fault_in(mm, v, va, write, current());
			if (r == FAULT_OOM)
				return -EAGAIN;
		}
		va = stop;
	}
	return 0;
}

/*
 * The page at va of mm made ready for another process's write: a private
 * area's page shared with the page cache or another process is copied
 * first (copy on write, the entry keeping its permissions). The area must
 * be writable, unless `force` (a debugger's write, Linux's FOLL_FORCE)
 * lets a private read-only one (program text) be written too - its copy
 * stays read-only to its program. Referenced, or NULL. mmap_lock held.
 */
static struct page *
get_page_for_remote_write(struct mm *mm, u64 va, bool force)
{
	struct vma *v = vma_find(mm, va);

	if (!v || v->special || is_vm_hugetlb(v) ||
	    (!(v->flags & VM_WRITE) && (!force || (v->flags & VM_SHARED))))
		return NULL;
	struct page *p = get_readable_page(mm, va);
	if (!p || (v->flags & VM_SHARED))
		return p;
	put_page(p);
	spin_lock(&mm->pt_lock);
	pte_t *pte = pte_walk(mm->pgd, va, false);
	p = pte && (pte_val(*pte) & PTE_PRESENT) ? pte_page(pte_val(*pte)) : NULL;
	if (p && (is_zero_page(p) || p->mapping || page_refcount(p) > 1)) {
		struct page *copy = private_copy(mm, p);
		if (copy) {
			set_pte(pte,
				make_pte(page_to_phys(copy) | (pte_val(*pte) & ~PTE_ADDR_MASK)));
			tlb_flush_mm_range(mm, va, va + PAGE_SIZE);
			if (!is_zero_page(p))
				put_page(p); /* the old page, after no CPU can reach it here */
		}
		p = copy;
	}
	if (p)
		get_page(p);
	spin_unlock(&mm->pt_lock);
	return p;
}

size_t
access_remote_vm_write(struct mm *mm, u64 addr, const void *buf, size_t len, bool force)
{
	size_t done = 0;

	down_read(&mm->mmap_lock);
	while (done < len && addr + done >= addr && addr + done < USER_TOP) {
		u64 va = addr + done;
		struct page *p = get_page_for_remote_write(mm, va & PAGE_MASK, force);
		if (!p)
			break;
		size_t off = va & (PAGE_SIZE - 1), n = MIN(len - done, PAGE_SIZE - off);
		memcpy((char *)page_address(p) + off, (const char *)buf + done, n);
		put_page(p);
		done += n;
	}
	up_read(&mm->mmap_lock);
	return done;
}
