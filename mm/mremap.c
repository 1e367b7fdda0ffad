/*
 * mremap.c - mremap(2): shrink an area, grow it in place, or move it
 * (MREMAP_MAYMOVE, MREMAP_FIXED, MREMAP_DONTUNMAP), as Linux's
 * mm/mremap.c, with its argument checks and errnos.
 *
 * A move moves the page-table entries, not the data: each page keeps its
 * frame, reference count, dirty and COW state and comes out at the new
 * address, so growing a big buffer (realloc) costs no copy and no fault.
 * The tables the entries will need are made first, so that once entries
 * start moving nothing can fail. Everything runs under the mmap lock held
 * for writing, which keeps faults (readers) out while entries move.
 *
 * Not done: moving a special mapping (the vDSO; Linux moves it and tells
 * the process, rewind keeps it where exec put it: EINVAL), and an old_len
 * of 0 on shared anonymous memory (a second view of the same pages needs
 * shared memory objects, which rewind lacks: EINVAL).
 */
#include "mm/vm_internal.h"
#include "mm/hugetlb.h"
#include "mm/i_mmap.h"
#include "mm/paging.h"
#include "kernel/syscall/syscall.h"
#include "kernel/process/task.h"
#include "kernel/x86/smp.h"
#include "uapi/errno.h"

#define MREMAP_VALID_FLAGS (MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP)

struct pte_move {
	struct mm *mm;
	u64 delta; /* new address - old, modulo 2^64 */
	bool failed;
};

/* First pass: the entry the page will need at its new address exists. */
static void
prepare_pte(pte_t *pte, u64 va, void *arg)
{
	struct pte_move *m = arg;

	if (!pte_alloc(m->mm->pgd, va + m->delta, &m->mm->pgtables))
		m->failed = true;
}

static void
move_pte(pte_t *pte, u64 va, void *arg)
{
	struct pte_move *m = arg;
	pte_t *dst = pte_walk(m->mm->pgd, va + m->delta, false); /* prepared */

	set_pte(dst, make_pte(pte_val(*pte)));
	set_pte(pte, make_pte(0));
}

/* Moves the entries of [old, old + len) by new - old: 0, or -ENOMEM with nothing moved. */
static int
move_page_tables(struct mm *mm, u64 old, u64 new, u64 len)
{
	struct pte_move m = { .mm = mm, .delta = new - old };

	spin_lock(&mm->pt_lock);
	walk_present_ptes(mm->pgd, old, old + len, prepare_pte, &m);
	if (!m.failed)
		walk_present_ptes(mm->pgd, old, old + len, move_pte, &m);
	spin_unlock(&mm->pt_lock);
	if (m.failed)
		return -ENOMEM;
	tlb_flush_mm_range(mm, old, old + len);
	return 0;
}

/*
 * The area that [addr, addr + old_len) lies in, checked for a resize to
 * new_len as Linux's vma_to_resize: the old range must be inside one area
 * (-EFAULT), a private area cannot be duplicated by an old_len of 0
 * (-EINVAL), nor the file offset wrap (-EINVAL); growth is asked of the
 * limits mmap asks, RLIMIT_MEMLOCK for a locked area (-EAGAIN), then
 * RLIMIT_AS and RLIMIT_DATA (-ENOMEM).
 */
static long
area_to_resize(struct mm *mm, u64 addr, u64 old_len, u64 new_len, struct vma **out)
{
	struct vma *v = vma_find(mm, addr);

	if (!v || old_len > v->end - addr)
		return -EFAULT;
	if (!old_len && (!(v->flags & VM_SHARED) || !v->file))
		return -EINVAL; /* see the top of this file for shared anonymous memory */
	if (is_vm_hugetlb(v))
		return -EINVAL; /* huge pages are not moved (Linux 6.1's vma_to_resize) */
	if (v->special)
		return new_len == old_len ? -EINVAL
					  : -EFAULT; /* the vDSO: never grown, not moved */
	u64 pgoff = v->pgoff + ((addr - v->start) >> PAGE_SHIFT);
	if (pgoff + (new_len >> PAGE_SHIFT) < pgoff)
		return -EINVAL;
	if (new_len > old_len) {
		int err = vm_may_grow(mm, v->flags, new_len - old_len, 0, 0);
		if (err)
			return err;
	}
	*out = v;
	return 0;
}

/*
 * Moves [addr, addr + old_len) of v to new_addr as an area of new_len
 * bytes (the part beyond old_len is new, empty memory of the same kind).
 * The old range goes, or stays mapped but empty with MREMAP_DONTUNMAP.
 * An old_len of 0 maps the same file pages a second time.
 */
static long
move_area(struct mm *mm, struct vma *v, u64 addr, u64 old_len, u64 new_addr, u64 new_len, u64 flags)
{
	u64 pgoff = v->pgoff + ((addr - v->start) >> PAGE_SHIFT);

	/* The old range as an area of its own, so that it can go (or stay) whole. */
	if (old_len && addr > v->start) {
		if (vma_split(v, addr))
			return -ENOMEM;
		v = vma_next(mm, v);
	}
	if (old_len && addr + old_len < v->end && vma_split(v, addr + old_len))
		return -ENOMEM;
	/*
	 * The [heap] and [stack] names belong to their places, not to the
	 * pages; a userfaultfd registration is not moved either (Linux's, when
	 * the reader did not ask for UFFD_FEATURE_EVENT_REMAP, which rewind
	 * does not offer).
	 */
	struct vma *nv = vma_new(mm, new_addr, new_addr + new_len, v->flags & ~VM_UFFD_MASK,
				 v->file, pgoff, NULL);
	if (!nv)
		return -ENOMEM;
	i_mmap_lock(v); /* a truncation zaps the entries before or after the move */
	int err = old_len ? move_page_tables(mm, addr, new_addr, old_len) : 0;
	i_mmap_unlock(v);
	if (err) {
		vma_free(nv);
		free_unused_tables(mm, new_addr, new_addr + new_len); /* those made for the move */
		return -ENOMEM;
	}
	bool unmap_old = old_len && !(flags & MREMAP_DONTUNMAP);
	u64 old_start = v->start, old_end = v->end;
	if (unmap_old) {
		list_del(&v->link); /* its entries have moved: nothing is left to drop */
		vma_free(v);
	}
	vma_insert(mm, nv);
	if (unmap_old) /* with nv in place, so that the tables it shares with the old range stay */
		free_unused_tables(mm, old_start, old_end);
	return (long)new_addr;
}

/* Whether [addr, addr + len) lies in user space without wrapping (Linux's munmap checks). */
static bool
user_range(u64 addr, u64 len)
{
	return len <= USER_TOP && addr <= USER_TOP - len;
}

/*
 * Where an area moves: new_addr itself for MREMAP_FIXED, else a free range
 * (at the hint if it is one). Either is judged last, as Linux's
 * get_unmapped_area does after the unmapping and the area's checks: below
 * vm.mmap_min_addr only with CAP_SYS_RAWIO. The address or -errno.
 */
static long
move_target(struct mm *mm, u64 new_addr, u64 len, bool fixed)
{
	if (!fixed && !(new_addr = get_unmapped_area(mm, new_addr, len)))
		return -ENOMEM;
	int err = mmap_addr_permitted(new_addr);
	return err ? err : (long)new_addr;
}

/*
 * MREMAP_FIXED or MREMAP_DONTUNMAP: the move to a place the caller named
 * (or hinted). An old range that wraps (old_len -4096) is EINVAL before
 * anything is unmapped: its end would pass the overlap check and its tail
 * unmap nothing, moving the area instead of failing as Linux's munmap of
 * that tail does.
 */
static long
remap_to(struct mm *mm, u64 addr, u64 old_len, u64 new_addr, u64 new_len, u64 flags)
{
	struct vma *v;
	long err;

	if (!IS_ALIGNED(new_addr, PAGE_SIZE))
		return -EINVAL;
	if (!user_range(new_addr, new_len) || !user_range(addr, old_len))
		return -EINVAL;
	if (addr + old_len > new_addr && new_addr + new_len > addr)
		return -EINVAL; /* the ranges overlap */
	if (flags & MREMAP_FIXED) {
		err = unmap_range(mm, new_addr, new_addr + new_len);
		if (err)
			return err;
	}
	if (old_len > new_len) {
		err = unmap_range(mm, addr + new_len, addr + old_len);
		if (err)
			return err;
		old_len = new_len;
	}
	err = area_to_resize(mm, addr, old_len, new_len, &v);
	if (err)
		return err;
	/*
	 * The old range stays mapped: the address space grows by all of it.
	 * Linux's mremap_to asks RLIMIT_AS and RLIMIT_DATA here, not RLIMIT_MEMLOCK.
	 */
	if ((flags & MREMAP_DONTUNMAP) &&
	    (err = vm_may_grow(mm, v->flags & ~VM_LOCKED, old_len, 0, 0)))
		return err;
	long to = move_target(mm, new_addr, new_len, flags & MREMAP_FIXED);
	return to < 0 ? to : move_area(mm, v, addr, old_len, (u64)to, new_len, flags);
}

/*
 * Growing [addr, addr + old_len), the end of v, to new_len where it is: the
 * space after it must be free, and the new end in user space. As Linux's
 * vma_expandable, a length whose end wraps past 2^64 is no growth: taken
 * as the end it moved v's end down, below pages still mapped, which then
 * lay in no area and were lost with the address space (docs/long-runs.md).
 */
static bool
grow_in_place(struct mm *mm, struct vma *v, u64 addr, u64 new_len)
{
	struct vma *next = vma_next(mm, v);
	u64 new_end = addr + new_len;

	if (!user_range(addr, new_len) || (next && next->start < new_end))
		return false;
	list_del(&v->link);
	v->end = new_end;
	vma_insert(mm, v); /* merges it with the area after, as Linux's vma_merge */
	return true;
}

static long
do_mremap(struct mm *mm, u64 addr, u64 old_len, u64 new_len, u64 flags, u64 new_addr)
{
	struct vma *v;
	long err;

	if (!vma_find(mm, addr))
		return -EFAULT;
	if (flags & (MREMAP_FIXED | MREMAP_DONTUNMAP))
		return remap_to(mm, addr, old_len, new_addr, new_len, flags);
	if (old_len >= new_len) { /* shrinking just unmaps the tail, checked as munmap */
		if (!user_range(addr, old_len))
			return -EINVAL;
		err = unmap_range(mm, addr + new_len, addr + old_len);
		return err ? err : (long)addr;
	}
	err = area_to_resize(mm, addr, old_len, new_len, &v);
	if (err)
		return err;
	if (addr + old_len == v->end && grow_in_place(mm, v, addr, new_len))
		return (long)addr;
	if (!(flags & MREMAP_MAYMOVE))
		return -ENOMEM;
	long to = move_target(mm, 0, new_len, false);
	return to < 0 ? to : move_area(mm, v, addr, old_len, (u64)to, new_len, flags);
}

SYSCALL5(mremap, u64, addr, u64, old_len, u64, new_len, u64, flags, u64, new_addr)
{
	struct mm *mm = current()->mm;

	if (flags & ~(u64)MREMAP_VALID_FLAGS)
		return -EINVAL;
	if ((flags & MREMAP_FIXED) && !(flags & MREMAP_MAYMOVE))
		return -EINVAL;
	/* DONTUNMAP always moves, and does not resize on the way. */
	if ((flags & MREMAP_DONTUNMAP) && (!(flags & MREMAP_MAYMOVE) || old_len != new_len))
		return -EINVAL;
	if (!IS_ALIGNED(addr, PAGE_SIZE))
		return -EINVAL;
	old_len = ALIGN_UP(old_len, PAGE_SIZE);
	new_len = ALIGN_UP(new_len, PAGE_SIZE); /* 0 also when it wrapped */
	if (!new_len)
		return -EINVAL;
	down_write(&mm->mmap_lock);
	long ret = do_mremap(mm, addr, old_len, new_len, flags, new_addr);
	up_write(&mm->mmap_lock);
	return ret;
}
