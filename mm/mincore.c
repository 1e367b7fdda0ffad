/*
 * mincore.c - mincore(2): which pages of a range are resident, one byte
 * per page with bit 0 set for a resident one, as Linux's mm/mincore.c.
 *
 * rewind never swaps, so a page is resident when the page table holds it
 * (present, or kept by PROT_NONE), or, in a file mapping, when the file's
 * page cache holds the page the mapping would show there (read by
 * someone else, or by this process before a fork or munmap). Anonymous
 * memory never touched is not resident.
 *
 * As Linux: EINVAL for an unaligned address, ENOMEM for a range beyond
 * user space or with a hole, EFAULT where vec cannot be written; vec is
 * written one chunk at a time, so the bytes before a hole are written.
 */
#include "fs/fs.h"
#include "kernel/sched/sched.h"
#include "kernel/syscall/syscall.h"
#include "mm/layout.h"
#include "mm/page_alloc.h"
#include "mm/hugetlb.h"
#include "mm/paging.h"
#include "mm/vm_internal.h"
#include "uapi/errno.h"

#define CHUNK 256 /* vec bytes filled per copy to user space */

/* Whether the file page index of v's file is in its page cache. */
static bool
file_page_cached(struct vma *v, u64 index)
{
	struct page *p = NULL;

	if (!file_get_cached_pages(v->file, index, 1, &p) || !p)
		return false;
	put_page(p);
	return true;
}

static unsigned char
page_resident(struct mm *mm, struct vma *v, u64 va)
{
	spin_lock(&mm->pt_lock);
	pte_t *pte = is_vm_hugetlb(v) ? NULL : pte_walk(mm->pgd, va, false);
	bool mapped = pte ? pte_holds_page(pte_val(*pte)) : hugetlb_entry_of(mm, va) != 0;
	spin_unlock(&mm->pt_lock);
	if (mapped || is_vm_hugetlb(v))
		return mapped;
	return v->file && file_page_cached(v, v->pgoff + (va - v->start) / PAGE_SIZE);
}

/* Fills out[0..n) for the pages from va, all in areas; -ENOMEM at a hole. mmap_lock held. */
static long
fill_chunk(struct mm *mm, u64 va, u64 n, unsigned char *out)
{
	struct vma *v = NULL;

	for (u64 i = 0; i < n; i++, va += PAGE_SIZE) {
		if (!v || va >= v->end)
			v = vma_above(mm, va);
		if (!v || v->start > va)
			return -ENOMEM;
		out[i] = page_resident(mm, v, va);
	}
	return 0;
}

SYSCALL3(mincore, u64, addr, size_t, len, unsigned char __user *, vec)
{
	struct mm *mm = current()->mm;
	unsigned char chunk[CHUNK];

	if (addr & ~PAGE_MASK)
		return -EINVAL;
	if (len > USER_TOP || addr > USER_TOP - len)
		return -ENOMEM;
	u64 pages = ALIGN_UP(len, PAGE_SIZE) / PAGE_SIZE;
	long err = 0;
	for (u64 done = 0; done < pages && !err; done += CHUNK) {
		u64 n = pages - done < CHUNK ? pages - done : CHUNK;
		down_read(&mm->mmap_lock);
		err = fill_chunk(mm, addr + done * PAGE_SIZE, n, chunk);
		up_read(&mm->mmap_lock);
		if (!err && copy_to_user(vec + done, chunk, n))
			err = -EFAULT;
	}
	return err;
}
