/*
 * madvise.c - madvise(2): the advice Linux 6.1 accepts, each doing what it
 * means on a kernel without swap, huge pages for user memory, page merging
 * or core dumps, with Linux's checks and errnos.
 *
 *   NORMAL, RANDOM, SEQUENTIAL, WILLNEED  read-ahead hints: files live in
 *       RAM and there is no swap to read back from, so nothing to do;
 *   DONTNEED, DONTNEED_LOCKED  the pages go; the next touch brings zeros or
 *       the file's data (not on locked areas, but for _LOCKED);
 *   FREE  the same for private anonymous memory: Linux may free such pages
 *       whenever it likes until they are written again; rewind frees them now;
 *   COLD, PAGEOUT  nothing can be paged out without swap (and the page
 *       cache of a RAM file system is the only copy): checks only;
 *   POPULATE_READ, POPULATE_WRITE  the pages are faulted in now, as by a
 *       read or a write (EINVAL where that access is not allowed);
 *   DONTFORK/DOFORK, WIPEONFORK/KEEPONFORK  what a fork child gets of the
 *       area (mm_fork): nothing, or the area empty;
 *   HUGEPAGE/NOHUGEPAGE, MERGEABLE/UNMERGEABLE, DONTDUMP/DODUMP  recorded on
 *       the area and without further effect, as on a Linux with transparent
 *       huge pages and KSM switched off, and no core dumps;
 *   REMOVE  a hole is punched in the file of a shared mapping that may write
 *       (shared anonymous memory's too), as fallocate(FALLOC_FL_PUNCH_HOLE)
 *       punches it: the range reads as zeros, in the file and every mapping
 *       of it; a file that cannot punch holes answers EOPNOTSUPP;
 *   HWPOISON, SOFT_OFFLINE  a memory error injected for testing, for
 *       CAP_SYS_ADMIN (mm/memory_failure.c).
 * Anything else (COLLAPSE, unknown numbers): EINVAL.
 * As Linux, the advice applies to the mapped parts of the range and the
 * call then answers ENOMEM if there was a hole.
 */
#include "kernel/process/task.h"
#include "kernel/syscall/syscall.h"
#include "mm/vm_internal.h"
#include "fs/fs.h"
#include "uapi/errno.h"
#include "uapi/falloc.h"
#include "uapi/mman.h"

enum advice_kind { REFUSED, HINT, DISCARD, FLAGS, POPULATE, REMOVE, INJECT };

struct advice {
	enum advice_kind kind;
	u32 set, clear; /* FLAGS */
	/* Whether (and why not) the advice suits area v: 0 or an errno. NULL: every area. */
	int (*check)(const struct vma *v);
	/* FLAGS: the areas that take them (the others stay as they are). NULL: every area. */
	bool (*takes)(const struct vma *v);
};

static int
not_locked(const struct vma *v)
{
	return v->flags & VM_LOCKED ? -EINVAL : 0;
}

static int
private_anonymous(const struct vma *v)
{
	if (v->file || v->special || (v->flags & VM_SHARED))
		return -EINVAL;
	return not_locked(v);
}

/* Linux's VM_SPECIAL areas (here the vDSO's) are never to be dumped. */
static int
not_special(const struct vma *v)
{
	return v->special ? -EINVAL : 0;
}

static int
anonymous_for_wipe(const struct vma *v)
{
	return v->file || v->special || (v->flags & VM_SHARED) ? -EINVAL : 0;
}

static int
readable(const struct vma *v)
{
	return v->flags & VM_READ ? 0 : -EINVAL;
}

static int
writable(const struct vma *v)
{
	return v->flags & VM_WRITE ? 0 : -EINVAL;
}

static int
removable(const struct vma *v)
{
	if ((v->flags & VM_LOCKED) || !v->file)
		return -EINVAL;
	/* Whether writes could reach the file, now or after mprotect (Linux's VM_MAYWRITE). */
	if ((v->flags & (VM_SHARED | VM_MAYWRITE)) != (VM_SHARED | VM_MAYWRITE))
		return -EACCES;
	return 0;
}

/* KSM leaves shared and special areas alone without complaint; MERGEABLE marks the rest. */
static bool
ksm_candidate(const struct vma *v)
{
	return !v->special && !(v->flags & VM_SHARED);
}

/* The advice, or NULL for one Linux refuses (EINVAL). */
static const struct advice *
advice_of(int advice)
{
	static const struct advice table[] = {
		[MADV_NORMAL] = { HINT },
		[MADV_RANDOM] = { HINT },
		[MADV_SEQUENTIAL] = { HINT },
		[MADV_WILLNEED] = { HINT },
		[MADV_DONTNEED] = { DISCARD, 0, 0, not_locked },
		[MADV_FREE] = { DISCARD, 0, 0, private_anonymous },
		[MADV_REMOVE] = { REMOVE, 0, 0, removable },
		[MADV_DONTFORK] = { FLAGS, VM_DONTCOPY, 0, NULL },
		[MADV_DOFORK] = { FLAGS, 0, VM_DONTCOPY, NULL },
		[MADV_MERGEABLE] = { FLAGS, VM_MERGEABLE, 0, NULL, ksm_candidate },
		[MADV_UNMERGEABLE] = { FLAGS, 0, VM_MERGEABLE, NULL },
		[MADV_HUGEPAGE] = { FLAGS, VM_HUGEPAGE, VM_NOHUGEPAGE, NULL },
		[MADV_NOHUGEPAGE] = { FLAGS, VM_NOHUGEPAGE, VM_HUGEPAGE, NULL },
		[MADV_DONTDUMP] = { FLAGS, VM_DONTDUMP, 0, NULL },
		[MADV_DODUMP] = { FLAGS, 0, VM_DONTDUMP, not_special },
		[MADV_WIPEONFORK] = { FLAGS, VM_WIPEONFORK, 0, anonymous_for_wipe },
		[MADV_KEEPONFORK] = { FLAGS, 0, VM_WIPEONFORK, NULL },
		[MADV_COLD] = { HINT, 0, 0, not_locked },
		[MADV_PAGEOUT] = { HINT, 0, 0, not_locked },
		[MADV_POPULATE_READ] = { POPULATE, 0, 0, readable },
		[MADV_POPULATE_WRITE] = { POPULATE, 0, 0, writable },
		[MADV_DONTNEED_LOCKED] = { DISCARD, 0, 0, NULL },
		[MADV_HWPOISON] = { INJECT },
		[MADV_SOFT_OFFLINE] = { INJECT },
	};

	if (advice < 0 || advice >= (int)ARRAY_SIZE(table) || table[advice].kind == REFUSED)
		return NULL;
	return &table[advice];
}

/* Checks every area in [start, end): the first refusal; -ENOMEM in *hole if part is unmapped. */
static int
check_range(struct mm *mm, u64 start, u64 end, const struct advice *a, int *hole)
{
	u64 covered = start;

	*hole = 0;
	for (struct vma *v = vma_above(mm, start); v && v->start < end; v = vma_next(mm, v)) {
		if (v->start > covered)
			*hole = -ENOMEM;
		int err = a->check ? a->check(v) : 0;
		if (err)
			return err;
		covered = v->end;
	}
	if (covered < end)
		*hole = -ENOMEM;
	return 0;
}

/*
 * MADV_REMOVE: punches the hole in each area's file. Punching takes the
 * file's lock, which a write holds while it faults on its buffer, so the
 * mmap lock (held for reading) is let go meanwhile, as Linux's
 * madvise_remove does; the areas are looked at again after.
 */
static int
punch_areas(struct mm *mm, u64 start, u64 end)
{
	for (u64 s = start; s < end;) {
		struct vma *v = vma_above(mm, s);
		if (!v || v->start >= end)
			return 0;
		int err = removable(v);
		if (err)
			return err;
		s = MAX(s, v->start);
		u64 stop = MIN(end, v->end), offset = (v->pgoff << PAGE_SHIFT) + (s - v->start);
		struct file *f = file_get(v->file);
		up_read(&mm->mmap_lock);
		err = vfs_fallocate(f, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (s64)offset,
				    (s64)(stop - s));
		file_put(f);
		down_read(&mm->mmap_lock);
		if (err)
			return err;
		s = stop;
	}
	return 0;
}

/* Applies a to the mapped parts of [start, end); mmap_lock held as apply_locked says. */
static int
apply(struct mm *mm, u64 start, u64 end, const struct advice *a)
{
	switch (a->kind) {
	case DISCARD:
		for (struct vma *v = vma_above(mm, start); v && v->start < end; v = vma_next(mm, v))
			zap_range(mm, v, MAX(start, v->start), MIN(end, v->end));
		return 0;
	case FLAGS:
		if (!a->takes)
			return vm_apply_flags(mm, start, end, a->set, a->clear);
		for (u64 s = start; s < end;) {
			struct vma *v = vma_above(mm, s);
			if (!v || v->start >= end)
				break;
			u64 next = v->end; /* v may be merged away */
			int err = a->takes(v) ? vm_apply_flags(mm, MAX(s, v->start),
							       MIN(end, v->end), a->set, a->clear)
					      : 0;
			if (err)
				return err;
			s = next;
		}
		return 0;
	case POPULATE: {
		int err = vm_populate(mm, start, end,
				      a->check == writable ? POPULATE_WRITE : POPULATE_READ);
		return err == -ENOMEM ? 0 : err; /* holes: reported after the walk */
	}
	case REMOVE:
		return punch_areas(mm, start, end);
	default:
		return 0;
	}
}

SYSCALL3(madvise, u64, start, u64, len_in, int, advice)
{
	struct mm *mm = current()->mm;
	const struct advice *a = advice_of(advice);

	if (!a || !IS_ALIGNED(start, PAGE_SIZE))
		return -EINVAL;
	u64 len = ALIGN_UP(len_in, PAGE_SIZE);
	if ((len_in && !len) || start + len < start)
		return -EINVAL;
	if (!len)
		return 0;
	u64 end = start + len;
	if (a->kind == INJECT) /* CAP_SYS_ADMIN's, before the areas are looked at, as Linux */
		return vm_inject_memory_failure(mm, start, end, advice == MADV_SOFT_OFFLINE);
	bool exclusive = a->kind == FLAGS; /* the others leave the list of areas as it is */
	int hole;
	if (exclusive)
		down_write(&mm->mmap_lock);
	else
		down_read(&mm->mmap_lock);
	int err = check_range(mm, start, end, a, &hole);
	if (!err)
		err = apply(mm, start, end, a);
	if (exclusive)
		up_write(&mm->mmap_lock);
	else
		up_read(&mm->mmap_lock);
	return err ? err : hole;
}
