/*
 * userfaultfd.c - the memory side of userfaultfd (fs/userfaultfd.c has the
 * file): which faults of a registered area its reader gets, and how the
 * reader's UFFDIO_COPY, UFFDIO_ZEROPAGE and UFFDIO_CONTINUE fill the
 * missing pages in (Linux's mm/userfaultfd.c, mfill_atomic).
 *
 * rewind registers anonymous memory for MISSING faults and file areas for
 * MINOR ones (the page is in the file's cache but not in the page table,
 * e.g. after madvise(MADV_DONTNEED) of a memfd mapping): COPY and ZEROPAGE
 * fill anonymous memory, CONTINUE file areas.
 */
#include "mm/userfaultfd.h"
#include "mm/vm_internal.h"
#include "mm/i_mmap.h"
#include "mm/paging.h"
#include "mm/uaccess.h"
#include "mm/zero_page.h"
#include "fs/fs.h"
#include "kernel/process/task.h"
#include "uapi/errno.h"

/* The page the file's cache holds for va of v, referenced, or NULL: nothing read or created. */
static struct page *
cached_page(struct vma *v, u64 va)
{
	struct page *p;

	if (!file_get_cached_pages(v->file, v->pgoff + ((va - v->start) >> PAGE_SHIFT), 1, &p))
		return NULL;
	return p;
}

bool
userfaultfd_wants(struct vma *v, u64 va)
{
	if (!v->file)
		return v->flags & VM_UFFD_MISSING;
	if (!(v->flags & VM_UFFD_MINOR))
		return false;
	struct page *p = cached_page(v, va);
	if (p)
		put_page(p);
	return p;
}

/*
 * A new page holding a copy of the user page at src, in *out: 0 or -errno.
 * Before the mmap lock is taken: the copy may fault.
 */
static int
copy_source_page(u64 src, struct page **out)
{
	struct page *p = alloc_shared_page();

	if (!p)
		return -ENOMEM;
	if (copy_from_user(page_address(p), (const void __user *)src, PAGE_SIZE)) {
		put_page(p);
		return -EFAULT;
	}
	*out = p;
	return 0;
}

/*
 * The area registered with ctx holding all of [dst, dst + len) and taking
 * this kind of fill, or NULL with *err set (Linux's find_dst_vma: -ENOENT,
 * then -EINVAL for the wrong kind). mmap_lock held.
 */
static struct vma *
fill_area(struct mm *mm, struct userfaultfd_ctx *ctx, u64 dst, u64 len, enum mfill_kind kind,
	  int *err)
{
	struct vma *v = vma_find(mm, dst);

	*err = -ENOENT;
	if (!v || dst + len > v->end || v->uffd != ctx)
		return NULL;
	*err = -EINVAL;
	if ((kind == MFILL_CONTINUE) != (v->file != NULL))
		return NULL;
	return v;
}

/* Maps page (NULL: the zero page) at va of v, unless something is there already: 0 or -errno. */
static int
install_page(struct mm *mm, struct vma *v, u64 va, struct page *page, bool writable)
{
	int err = 0;

	spin_lock(&mm->pt_lock);
	pte_t *pte = pte_alloc(mm->pgd, va, &mm->pgtables);
	if (!pte)
		err = -ENOMEM;
	else if (pte_holds_page(pte_val(*pte))) /* PROT_NONE keeps a page absent too */
		err = -EEXIST;
	else if (page && v->file && !i_mmap_page_current(v, page))
		err = -EFAULT; /* truncated meanwhile: the cache lacks it now */
	if (!err) {
		u64 phys = page_to_phys(page ? page : zero_page);
		set_pte(pte, make_pte(phys | vm_pte_flags(v->flags, writable)));
		if (page)
			mm_rss_inc(mm);
	}
	spin_unlock(&mm->pt_lock);
	return err;
}

/*
 * Fills the page at va. A copy is a private page of its own, writable; the
 * zero page and a file's cached page go in read-only, so that a write
 * copies (private) or dirties the page (shared) through the usual
 * write fault. 0 or -errno.
 */
static int
fill_page(struct mm *mm, struct userfaultfd_ctx *ctx, u64 va, u64 src, u64 len,
	  enum mfill_kind kind)
{
	struct page *page = NULL;
	int err = kind == MFILL_COPY ? copy_source_page(src, &page) : 0;

	if (err)
		return err;
	down_read(&mm->mmap_lock);
	struct vma *v = fill_area(mm, ctx, va, len, kind, &err);
	if (v && kind == MFILL_CONTINUE && !(page = cached_page(v, va)))
		err = -EFAULT;
	else if (v)
		err = install_page(mm, v, va, page, kind == MFILL_COPY);
	up_read(&mm->mmap_lock);
	if (page && err)
		put_page(page); /* else the mapping holds its reference */
	return err;
}

long
mfill(struct mm *mm, struct userfaultfd_ctx *ctx, u64 dst, u64 src, u64 len, enum mfill_kind kind)
{
	u64 done = 0;
	int err = 0;

	while (done < len && !err) {
		err = fatal_signal_pending()
			      ? -EINTR
			      : fill_page(mm, ctx, dst + done, src + done, len - done, kind);
		if (!err)
			done += PAGE_SIZE;
	}
	return done ? (long)done : err;
}
