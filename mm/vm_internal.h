/*
 * vm_internal.h - the VMA-list operations of mm/vm.c that the other
 * files changing address spaces (mm/mremap.c) build on. All of them want
 * mm->mmap_lock held for writing.
 */
#ifndef REWIND_VM_INTERNAL_H
#define REWIND_VM_INTERNAL_H

#include "mm/page_alloc.h"
#include "mm/vm.h"

/*
 * A new area of mm, not yet in its list; it references file (and denies
 * writes for VM_DENYWRITE) and is on the file's list of mappings at once.
 */
struct vma *vma_new(struct mm *mm, u64 start, u64 end, u32 flags, struct file *file, u64 pgoff,
		    const char *name);
/* Frees an area taken out of its list (its pages must be gone already). */
void vma_free(struct vma *v);
/* The area after v, or NULL. */
struct vma *vma_next(struct mm *mm, struct vma *v);
/* Inserts v in order (its range must be free), merging it with matching neighbours. */
void vma_insert(struct mm *mm, struct vma *v);
/* Splits v at addr (strictly inside it): v keeps the low part. 0 or -ENOMEM. */
int vma_split(struct vma *v, u64 addr);
/* The lowest area ending above addr, or NULL. */
struct vma *vma_above(struct mm *mm, u64 addr);
/*
 * Sets the VM_* bits set and clears those in clear on the areas in
 * [start, end) (holes are skipped), splitting them at its ends and merging
 * the results with matching neighbours. 0 or -ENOMEM.
 */
int vm_apply_flags(struct mm *mm, u64 start, u64 end, u32 set, u32 clear);
/* Drops the pages mapped in [start, end), a part of v (mmap_lock for reading is enough). */
void zap_range(struct mm *mm, const struct vma *v, u64 start, u64 end);
/*
 * How vm_populate faults pages in: as reads (MADV_POPULATE_READ: untouched
 * anonymous memory gets the zero page), as writes (MADV_POPULATE_WRITE:
 * copy-on-write broken), or as mlock does (Linux's populate_vma_page_range:
 * a write where the area is private and writable, so that locked memory
 * has its own pages before it is written, else a read).
 */
enum populate_access { POPULATE_READ, POPULATE_WRITE, POPULATE_LOCKED };
/*
 * Faults in every page of [start, end) as `access` says; areas without
 * access and special mappings are skipped. mmap_lock held for reading. 0,
 * -ENOMEM for a hole, -EAGAIN when memory ran out.
 */
int vm_populate(struct mm *mm, u64 start, u64 end, enum populate_access access);
/*
 * Removes every area and page in [start, end), splitting areas that
 * straddle it, and the page tables no area reaches any more.
 */
int unmap_range(struct mm *mm, u64 start, u64 end);
/*
 * Frees the page-table pages of [start, end), a range just given up, that
 * no remaining area reaches (mm/pgtable_free.c). mmap_lock held for writing.
 */
void free_unused_tables(struct mm *mm, u64 start, u64 end);
/*
 * How many mappings hold the user page p, for /proc's smaps and pagemap:
 * rewind keeps no map count, so its holders, but for the page cache's own
 * reference to a file page (a reader's passing reference may add one).
 */
static inline u32
page_map_count(struct page *p)
{
	u32 holders = page_refcount(p) - (p->mapping ? 1 : 0);

	return holders ? holders : 1;
}
/*
 * Whether the current process's limits let mm map grow more bytes of an
 * area with flags, where [start, end) (empty for none) is given up for
 * them: RLIMIT_MEMLOCK for a locked area (-EAGAIN), then RLIMIT_AS and,
 * for private writable memory, RLIMIT_DATA (-ENOMEM), in Linux's order
 * (mlock_future_check, may_expand_vm). 0 when they do.
 */
int vm_may_grow(struct mm *mm, u32 flags, u64 grow, u64 start, u64 end);
/* Whether no area overlaps [start, end). */
bool range_is_free(struct mm *mm, u64 start, u64 end);
/* A free range of len bytes: the hint if it is one, else the highest gap; 0 when none. */
u64 get_unmapped_area(struct mm *mm, u64 hint, u64 len);
/*
 * vm_mmap's work, mmap_lock held for writing: the address or -errno, and
 * in *populate whether the new area's pages are to be brought in now
 * (vm_populate_mapped, once the lock is dropped).
 */
long vm_mmap_locked(struct mm *mm, u64 addr, u64 len, int prot, int flags, struct file *file,
		    u64 pgoff, bool *populate);
/*
 * madvise's MADV_HWPOISON (soft: MADV_SOFT_OFFLINE) over [start, end),
 * page by page (mm/memory_failure.c). 0 or -errno; takes mmap_lock.
 */
int vm_inject_memory_failure(struct mm *mm, u64 start, u64 end, bool soft);
/* Faults in the pages of [start, start + len) as mmap's MAP_POPULATE does; takes mmap_lock. */
void vm_populate_mapped(struct mm *mm, u64 start, u64 len);

#endif
