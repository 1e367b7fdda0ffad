/*
 * mlock.c - mlock, mlock2, munlock, mlockall and munlockall.
 *
 * rewind has no swap: no page of a process is ever written out, so every
 * page is "locked" already. What these calls change is what Linux's
 * change too where it can be observed: the VM_LOCKED areas (split and
 * merged like mprotect's), their pages brought in at once unless
 * MLOCK_ONFAULT/MCL_ONFAULT says otherwise, the total counted against
 * RLIMIT_MEMLOCK (ENOMEM, EPERM when the limit is 0, EAGAIN for a new
 * mapping under MCL_FUTURE; root is exempt, holding CAP_IPC_LOCK), and the
 * errnos for bad arguments. Locks are not inherited by fork and go with
 * the address space at execve, as Linux's.
 *
 * mmap's MAP_LOCKED and a new mapping under MCL_FUTURE are locked by
 * vm_mmap, which brings their pages in as Linux's mm_populate does.
 */
#include "kernel/process/cred.h"
#include "kernel/process/rlimit.h"
#include "kernel/syscall/syscall.h"
#include "mm/vm_internal.h"
#include "uapi/errno.h"
#include "uapi/mman.h"

/* Bytes in VM_LOCKED areas (Linux's locked_vm); mmap_lock held. */
static u64
locked_bytes(struct mm *mm)
{
	u64 sum = 0;
	struct list_head *pos;

	list_for_each(pos, &mm->vmas) {
		struct vma *v = list_entry(pos, struct vma, link);
		if (v->flags & VM_LOCKED)
			sum += v->end - v->start;
	}
	return sum;
}

/* Bytes of [start, end) in VM_LOCKED areas already: locking them again costs nothing. */
static u64
locked_in_range(struct mm *mm, u64 start, u64 end)
{
	u64 sum = 0;
	struct list_head *pos;

	list_for_each(pos, &mm->vmas) {
		struct vma *v = list_entry(pos, struct vma, link);
		if ((v->flags & VM_LOCKED) && v->end > start && v->start < end)
			sum += MIN(v->end, end) - MAX(v->start, start);
	}
	return sum;
}

bool
vm_may_lock(struct mm *mm, u64 len)
{
	return capable(CAP_IPC_LOCK) || locked_bytes(mm) + len <= rlimit(RLIMIT_MEMLOCK);
}

bool
vm_may_lock_at_all(void)
{
	return rlimit(RLIMIT_MEMLOCK) != 0 || capable(CAP_IPC_LOCK);
}

/* Whether every page of [start, end) is in some area. */
static bool
range_mapped(struct mm *mm, u64 start, u64 end)
{
	for (u64 a = start; a < end;) {
		struct vma *v = vma_above(mm, a);
		if (!v || v->start > a)
			return false;
		a = v->end;
	}
	return true;
}

/*
 * The areas' lock bits over the range: set (VM_LOCKED, with
 * VM_LOCKONFAULT for onfault) or cleared. Special mappings (the vDSO) are
 * never locked, as Linux leaves its VM_SPECIAL areas alone.
 */
static int
set_lock(struct mm *mm, u64 start, u64 end, u32 lock)
{
	for (u64 a = start; a < end;) {
		struct vma *v = vma_above(mm, a);
		if (!v || v->start >= end)
			break;
		u64 next = v->end;
		if (!v->special) {
			int err = vm_apply_flags(mm, MAX(a, v->start), MIN(end, v->end), lock,
						 (VM_LOCKED | VM_LOCKONFAULT) & ~lock);
			if (err)
				return err;
		}
		a = next;
	}
	return 0;
}

/* Brings in the locked range's pages; mlock's errors for it (Linux: EAGAIN when out of memory). */
static long
populate(struct mm *mm, u64 start, u64 end)
{
	down_read(&mm->mmap_lock);
	int err = vm_populate(mm, start, end, POPULATE_LOCKED);
	up_read(&mm->mmap_lock);
	return err == -EINTR ? 0 : err; /* a killed caller is on its way out */
}

/* The page-aligned range addr..addr+len covers, or -EINVAL when it wraps. */
static long
page_range(u64 addr, u64 len, u64 *start, u64 *end)
{
	*start = addr & PAGE_MASK;
	u64 span = ALIGN_UP(len + (addr & ~PAGE_MASK), PAGE_SIZE);
	if (span < len || *start + span < *start)
		return -EINVAL;
	*end = *start + span;
	return 0;
}

static long
do_mlock(u64 addr, u64 len, u32 lock)
{
	struct mm *mm = current()->mm;
	u64 start, end;

	if (!vm_may_lock_at_all())
		return -EPERM;
	if (page_range(addr, len, &start, &end))
		return -EINVAL;
	if (start == end)
		return 0;
	down_write(&mm->mmap_lock);
	long err = -ENOMEM;
	if (range_mapped(mm, start, end) &&
	    vm_may_lock(mm, end - start - locked_in_range(mm, start, end)))
		err = set_lock(mm, start, end, lock);
	up_write(&mm->mmap_lock);
	if (err || (lock & VM_LOCKONFAULT))
		return err;
	return populate(mm, start, end);
}

SYSCALL2(mlock, u64, addr, u64, len)
{
	return do_mlock(addr, len, VM_LOCKED);
}

SYSCALL3(mlock2, u64, addr, u64, len, int, flags)
{
	if (flags & ~MLOCK_ONFAULT)
		return -EINVAL;
	return do_mlock(addr, len, VM_LOCKED | (flags & MLOCK_ONFAULT ? VM_LOCKONFAULT : 0));
}

SYSCALL2(munlock, u64, addr, u64, len)
{
	struct mm *mm = current()->mm;
	u64 start, end;

	if (page_range(addr, len, &start, &end))
		return -EINVAL;
	if (start == end)
		return 0;
	down_write(&mm->mmap_lock);
	long err = range_mapped(mm, start, end) ? set_lock(mm, start, end, 0) : -ENOMEM;
	up_write(&mm->mmap_lock);
	return err;
}

SYSCALL1(mlockall, int, flags)
{
	struct mm *mm = current()->mm;

	if (!flags || (flags & ~(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT)) || flags == MCL_ONFAULT)
		return -EINVAL;
	if (!vm_may_lock_at_all())
		return -EPERM;
	u32 lock = VM_LOCKED | (flags & MCL_ONFAULT ? VM_LOCKONFAULT : 0);
	long err = 0;
	down_write(&mm->mmap_lock);
	mm->def_flags = flags & MCL_FUTURE ? lock : 0;
	if (flags & MCL_CURRENT) {
		u64 total = 0;
		struct list_head *pos;
		list_for_each(pos, &mm->vmas) {
			struct vma *v = list_entry(pos, struct vma, link);
			total += v->end - v->start;
		}
		/* Linux compares the whole address space with the limit. */
		err = capable(CAP_IPC_LOCK) || total <= rlimit(RLIMIT_MEMLOCK)
			      ? set_lock(mm, 0, USER_TOP, lock)
			      : -ENOMEM;
	}
	up_write(&mm->mmap_lock);
	if (err || !(flags & MCL_CURRENT) || (flags & MCL_ONFAULT))
		return err;
	down_read(&mm->mmap_lock);
	/* Every area, holes skipped: Linux ignores what cannot be brought in here. */
	struct list_head *pos;
	list_for_each(pos, &mm->vmas) {
		struct vma *v = list_entry(pos, struct vma, link);
		if (vm_populate(mm, v->start, v->end, POPULATE_LOCKED) == -EINTR)
			break;
	}
	up_read(&mm->mmap_lock);
	return 0;
}

SYSCALL0(munlockall)
{
	struct mm *mm = current()->mm;

	down_write(&mm->mmap_lock);
	mm->def_flags = 0;
	long err = set_lock(mm, 0, USER_TOP, 0);
	up_write(&mm->mmap_lock);
	return err;
}
