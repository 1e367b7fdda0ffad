/*
 * mmap_syscalls.c - mmap, munmap, mprotect, brk and madvise: argument
 * checking with Linux's errno choices, then mm/vm.c does the work; and
 * vm.mmap_min_addr, the lowest address a user mapping may be placed at.
 */
#include "mm/vm.h"
#include "mm/hugetlb.h"
#include "fs/hugetlbfs.h"
#include "fs/fs.h"
#include "uapi/errno.h"
#include "kernel/syscall/syscall.h"
#include "kernel/process/cred.h"
#include "kernel/process/task.h"
#include "uapi/fcntl.h" /* the file's O_ACCMODE */

#define PROT_ALL (PROT_READ | PROT_WRITE | PROT_EXEC)

unsigned long mmap_min_addr = MMAP_MIN_ADDR_DEFAULT;

int
mmap_addr_permitted(u64 addr)
{
	return addr < READ_ONCE(mmap_min_addr) && !capable(CAP_SYS_RAWIO) ? -EPERM : 0;
}

/* Linux's round_hint_to_min: a hint below vm.mmap_min_addr asks for the lowest page allowed. */
static u64
hint_above_min(u64 hint)
{
	u64 min = READ_ONCE(mmap_min_addr);

	hint &= PAGE_MASK;
	return hint && hint < min ? ALIGN_UP(min, PAGE_SIZE) : hint;
}

static bool
page_aligned(u64 a)
{
	return IS_ALIGNED(a, PAGE_SIZE);
}

/* The rounded length, or 0 when it is zero or does not fit in user space. */
static u64
user_length(u64 len)
{
	if (len == 0 || len > USER_TOP)
		return 0;
	return ALIGN_UP(len, PAGE_SIZE);
}

static long
check_file_access(struct file *f, int prot, int type)
{
	int mode = file_flags(f) & O_ACCMODE;

	if (mode != O_RDONLY && mode != O_RDWR)
		return -EACCES;
	if (type != MAP_PRIVATE && (prot & PROT_WRITE) && mode != O_RDWR)
		return -EACCES;
	if ((prot & PROT_EXEC) && file_on_noexec(f))
		return -EPERM; /* as Linux's do_mmap for a noexec mount */
	return 0;
}

/*
 * MAP_HUGETLB: anonymous memory of huge pages is a nameless hugetlbfs file
 * (Linux's hugetlb_file_setup), of len rounded up to 2 MiB. The size asked
 * for in MAP_HUGE_MASK must be the one there is. 0 or -errno.
 */
static int
huge_anon_file(int flags, u64 *len, struct file **out)
{
	unsigned shift = ((unsigned)flags & MAP_HUGE_MASK) >> MAP_HUGE_SHIFT;

	if (shift && shift != HPAGE_SHIFT)
		return -EINVAL;
	*len = ALIGN_UP(*len, HPAGE_SIZE);
	if (!*len)
		return -ENOMEM;
	return hugetlbfs_file_setup("anon_hugepage", 13, *len, out);
}

/* mmap after its descriptor is looked up: file is NULL for anonymous memory. */
static long
do_mmap(u64 addr, u64 len, int prot, int flags, struct file *file, u64 off)
{
	int type = flags & MAP_TYPE;
	struct file *anon = NULL;
	int access = O_RDWR; /* of shared anonymous memory: /dev/zero's, else read and write */
	long ret;

	if (!len || (prot & ~PROT_ALL))
		return -EINVAL;
	if (type != MAP_SHARED && type != MAP_PRIVATE && type != MAP_SHARED_VALIDATE)
		return -EINVAL;
	if (file && type == MAP_SHARED_VALIDATE && (flags & ~MAP_LEGACY_MASK))
		return -EOPNOTSUPP; /* a flag this file cannot honour, which MAP_SHARED would ignore */
	len = user_length(len);
	if (!len)
		return -ENOMEM;
	/*
	 * Linux's get_unmapped_area judges a fixed address before the file
	 * and the flags are looked at: beyond user space, unaligned, then
	 * below vm.mmap_min_addr (vm_mmap_locked asks the last again, for
	 * every other caller).
	 */
	if (flags & (MAP_FIXED | MAP_FIXED_NOREPLACE)) {
		if (addr > USER_TOP - len)
			return -ENOMEM;
		if (!page_aligned(addr))
			return -EINVAL;
		ret = mmap_addr_permitted(addr);
		if (ret)
			return ret;
	} else {
		addr = hint_above_min(addr);
	}
	if ((flags & MAP_LOCKED) && !vm_may_lock_at_all())
		return -EPERM;
	if (!file && type != MAP_PRIVATE && (flags & MAP_GROWSDOWN))
		return -EINVAL; /* shared anonymous memory cannot grow (Linux's do_mmap) */
	if (file) {
		ret = check_file_access(file, prot, type);
		if (!ret && file_mmap_kind(file) == FILE_MMAP_UNSUPPORTED)
			ret = -ENODEV;
		if (ret)
			return ret;
		if ((flags & MAP_HUGETLB) && !is_hugetlbfs_inode(file->inode))
			return -EINVAL; /* as Linux's ksys_mmap_pgoff */
		if (file_mmap_kind(file) == FILE_MMAP_ANONYMOUS) {
			/* Mapping /dev/zero is anonymous memory; opened read-only, never writable. */
			access = file_flags(file) & O_ACCMODE;
			file = NULL;
		}
	}
	if ((flags & MAP_HUGETLB) && !file) {
		ret = huge_anon_file(flags, &len, &anon);
		if (ret)
			return ret;
		file = anon;
		off = 0;
	}
	/* Shared anonymous memory is a file, so that a fork shares pages not yet touched. */
	if (type != MAP_PRIVATE && !file) {
		ret = shmem_zero_file(len, access, &anon);
		if (ret)
			return ret;
		file = anon;
		off = 0;
	}
	int vm_flags = (type == MAP_PRIVATE ? MAP_PRIVATE : MAP_SHARED) |
		       (flags & (MAP_FIXED | MAP_FIXED_NOREPLACE | MAP_LOCKED | MAP_POPULATE |
				 MAP_NONBLOCK | MAP_GROWSDOWN));
	ret = vm_mmap(current()->mm, addr, len, prot, vm_flags, file, off >> PAGE_SHIFT);
	if (anon)
		file_put(anon);
	return ret;
}

/* Linux's order of complaints: an unaligned offset, then a bad descriptor, then the rest. */
SYSCALL6(mmap, u64, addr, u64, len, int, prot, int, flags, int, fd, u64, off)
{
	struct file *file = NULL;

	if (!page_aligned(off))
		return -EINVAL;
	if (!(flags & MAP_ANONYMOUS) && !(file = fd_get(fd)))
		return -EBADF;
	long ret = do_mmap(addr, len, prot, flags, file, off);
	if (file)
		file_put(file);
	return ret;
}

SYSCALL2(munmap, u64, addr, u64, len)
{
	if (!page_aligned(addr) || !(len = user_length(len)) || addr > USER_TOP - len)
		return -EINVAL;
	return vm_munmap(current()->mm, addr, len);
}

SYSCALL3(mprotect, u64, addr, u64, len, int, prot)
{
	if (!page_aligned(addr) || (prot & ~PROT_ALL))
		return -EINVAL;
	if (!len)
		return 0;
	if (!(len = user_length(len)) || addr > USER_TOP - len)
		return -ENOMEM;
	return vm_mprotect(current()->mm, addr, len, prot);
}

SYSCALL1(brk, u64, addr)
{
	return (long)vm_brk(current()->mm, addr);
}

/*
 * msync: Linux's checks and its walk over the areas (mm/msync.c). Every
 * file here lives in the page cache of a RAM file system, which is the
 * only copy of its data, so MS_SYNC and MS_ASYNC have nothing to write and
 * MS_INVALIDATE nothing to drop. What is left is the answer: -ENOMEM when
 * part of the range is not mapped (MS_ASYNC stops at the first hole, the
 * others look past it), -EBUSY for MS_INVALIDATE over a locked area
 * (mlock, MAP_LOCKED), after -EINVAL for an unaligned start or bad flags.
 */
SYSCALL3(msync, u64, start, u64, len, int, flags)
{
	struct mm *mm = current()->mm;

	if (flags & ~(MS_ASYNC | MS_INVALIDATE | MS_SYNC))
		return -EINVAL;
	if (!page_aligned(start) || ((flags & MS_ASYNC) && (flags & MS_SYNC)))
		return -EINVAL;
	len = ALIGN_UP(len, PAGE_SIZE);
	u64 end = start + len;
	if (end < start)
		return -ENOMEM;
	if (end == start)
		return 0;
	long err = -ENOMEM, unmapped = 0;
	struct list_head *pos;
	down_read(&mm->mmap_lock);
	list_for_each(pos, &mm->vmas) {
		struct vma *v = list_entry(pos, struct vma, link);
		if (v->end <= start)
			continue;
		if (start < v->start) { /* a hole before this area */
			if (flags == MS_ASYNC || v->start >= end)
				break;
			unmapped = -ENOMEM;
		}
		if ((flags & MS_INVALIDATE) && (v->flags & VM_LOCKED)) {
			err = -EBUSY; /* locked pages are not dropped */
			break;
		}
		start = v->end;
		if (start >= end) {
			err = 0;
			break;
		}
	}
	up_read(&mm->mmap_lock);
	return err ? err : unmapped;
}
