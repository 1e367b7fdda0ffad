/*
 * mmap_syscalls.c - mmap, munmap, mprotect, brk and madvise: argument
 * checking with Linux's errno choices, then mm/vm.c does the work.
 */
#include "mm/vm.h"
#include "fs/fs.h"
#include "uapi/errno.h"
#include "kernel/syscall/syscall.h"
#include "kernel/process/task.h"
#include "uapi/fcntl.h" /* the file's O_ACCMODE */

#define PROT_ALL (PROT_READ | PROT_WRITE | PROT_EXEC)

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

SYSCALL6(mmap, u64, addr, u64, len, int, prot, int, flags, int, fd, u64, off)
{
	int type = flags & MAP_TYPE;
	struct file *file = NULL;
	long ret;

	if (!len || !page_aligned(off) || (prot & ~PROT_ALL))
		return -EINVAL;
	if (type != MAP_SHARED && type != MAP_PRIVATE && type != MAP_SHARED_VALIDATE)
		return -EINVAL;
	len = user_length(len);
	if (!len)
		return -ENOMEM;
	if (flags & (MAP_FIXED | MAP_FIXED_NOREPLACE)) {
		if (!page_aligned(addr))
			return -EINVAL;
		if (addr < USER_MMAP_MIN || addr > USER_TOP - len)
			return -ENOMEM;
	}
	if (!(flags & MAP_ANONYMOUS)) {
		file = fd_get(fd);
		if (!file)
			return -EBADF;
		ret = check_file_access(file, prot, type);
		if (!ret && file_mmap_kind(file) == FILE_MMAP_UNSUPPORTED)
			ret = -ENODEV;
		if (ret) {
			file_put(file);
			return ret;
		}
		if (file_mmap_kind(file) == FILE_MMAP_ANONYMOUS) {
			file_put(file); /* mapping /dev/zero is anonymous memory */
			file = NULL;
		}
	}
	/* Shared anonymous memory is a file, so that a fork shares pages not yet touched. */
	if (type != MAP_PRIVATE && !file) {
		ret = shmem_zero_file(len, &file);
		if (ret)
			return ret;
		off = 0;
	}
	int vm_flags = (type == MAP_PRIVATE ? MAP_PRIVATE : MAP_SHARED) |
		       (flags & (MAP_FIXED | MAP_FIXED_NOREPLACE));
	ret = vm_mmap(current()->mm, addr, len, prot, vm_flags, file, off >> PAGE_SHIFT);
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
 * MS_INVALIDATE nothing to drop (no page is ever locked in memory, so no
 * -EBUSY). What is left is the answer: -ENOMEM when part of the range is
 * not mapped (MS_ASYNC stops at the first hole, the others look past it),
 * after -EINVAL for an unaligned start or bad flags.
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
		start = v->end;
		if (start >= end) {
			err = 0;
			break;
		}
	}
	up_read(&mm->mmap_lock);
	return err ? err : unmapped;
}
