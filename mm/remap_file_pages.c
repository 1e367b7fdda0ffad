/*
 * remap_file_pages.c - remap_file_pages(2), as Linux has had it since 4.0:
 * no longer a nonlinear area, but an mmap over the range. The range must
 * lie in shared mappings of one file (contiguous areas with the same
 * flags); the call then maps the file's pages from pgoff there with
 * MAP_SHARED | MAP_FIXED | MAP_POPULATE and the areas' protections, as
 * Linux's emulation does (mm/mmap.c), replacing what was mapped. prot
 * must be 0 (the protections come from the area), and the call warns
 * once in the log that it is deprecated.
 *
 * The new area takes its own reference to the file, so the file (a System
 * V segment's attachment, ipc/shm.c) outlives an IPC_RMID racing the call:
 * the segment goes only when the last area mapping it does.
 */
#include "mm/vm_internal.h"
#include "fs/fs.h"
#include "kernel/printk.h"
#include "kernel/process/task.h"
#include "kernel/syscall/syscall.h"
#include "uapi/errno.h"

/* Linux's pr_warn_once: the first caller names itself. */
static void
warn_deprecated(void)
{
	static bool warned;

	if (!__atomic_exchange_n(&warned, true, __ATOMIC_RELAXED))
		pr_warn("%s (%d) uses deprecated remap_file_pages() syscall.\n", current()->comm,
			current()->pid);
}

/* Whether shared areas of one file, with v's flags, cover [v->start, end) without a hole. */
static bool
one_shared_mapping(struct mm *mm, struct vma *v, u64 end)
{
	if (!(v->flags & VM_SHARED) || !v->file)
		return false;
	for (struct vma *w = v; w->end < end;) {
		struct vma *next = vma_next(mm, w);
		if (!next || next->start != w->end || next->file != v->file ||
		    next->flags != v->flags)
			return false;
		w = next;
	}
	return true;
}

/* MAP_* of the new mapping: Linux keeps only MAP_NONBLOCK of the caller's flags. */
static int
remap_flags(const struct vma *v, u64 flags)
{
	return (int)(flags & MAP_NONBLOCK) | MAP_SHARED | MAP_FIXED | MAP_POPULATE |
	       (v->flags & VM_LOCKED ? MAP_LOCKED : 0);
}

SYSCALL5(remap_file_pages, u64, start, u64, size, u64, prot, u64, pgoff, u64, flags)
{
	struct mm *mm = current()->mm;
	long ret = -EINVAL;
	bool populate = false;

	warn_deprecated();
	if (prot)
		return -EINVAL;
	start &= PAGE_MASK;
	size &= PAGE_MASK;
	if (start + size <= start || pgoff + (size >> PAGE_SHIFT) < pgoff)
		return -EINVAL;
	down_write(&mm->mmap_lock);
	struct vma *v = vma_find(mm, start);
	if (v && one_shared_mapping(mm, v, start + size)) {
		struct file *file = file_get(v->file); /* the areas holding it go now */
		ret = vm_mmap_locked(mm, start, size, (int)(v->flags & VM_PROT_MASK),
				     remap_flags(v, flags), file, pgoff, &populate);
		file_put(file);
	}
	up_write(&mm->mmap_lock);
	if (populate)
		vm_populate_mapped(mm, start, size);
	return ret < 0 ? ret : 0;
}
