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

SYSCALL3(madvise, u64, addr, u64, len, int, advice)
{
	if (!page_aligned(addr))
		return -EINVAL;
	switch (advice) {
	case MADV_DONTNEED:
		if (!len)
			return 0;
		if (!(len = user_length(len)) || addr > USER_TOP - len)
			return -EINVAL;
		return vm_discard(current()->mm, addr, len);
	case 0:
	case 1:
	case 2:
	case 3: /* NORMAL, RANDOM, SEQUENTIAL, WILLNEED: hints only */
		return 0;
	default:
		return -EINVAL;
	}
}
