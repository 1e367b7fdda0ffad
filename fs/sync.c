/*
 * sync.c - fsync, fdatasync and sync. Everything lives in memory, so there
 * is nothing to write back; the calls still check their descriptor as
 * Linux does (-EBADF, and -EINVAL for files that cannot be synced: pipes
 * and devices). sync_file_range checks its range and flags, and refuses
 * what has no pages to write (pipes, sockets, character devices: ESPIPE),
 * in the order of Linux's ksys_sync_file_range.
 */
#include "fs/vfs.h"
#include "uapi/errno.h"
#include "kernel/syscall/syscall.h"

long
vfs_fsync(struct file *f)
{
	return S_ISREG(f->inode->mode) || S_ISDIR(f->inode->mode) ? 0 : -EINVAL;
}

static long
fsync_fd(int fd)
{
	struct file *f = fd_get(fd);

	if (!f)
		return -EBADF;
	long ret = vfs_fsync(f);
	file_put(f);
	return ret;
}

SYSCALL1(fsync, int, fd)
{
	return fsync_fd(fd);
}

SYSCALL1(fdatasync, int, fd)
{
	return fsync_fd(fd);
}

SYSCALL0(sync)
{
	return 0;
}

#define SYNC_FILE_RANGE_VALID 7 /* WAIT_BEFORE 1 | WRITE 2 | WAIT_AFTER 4 */

SYSCALL4(sync_file_range, int, fd, s64, offset, s64, nbytes, unsigned, flags)
{
	struct file *f = fd_get(fd);
	long err = 0;

	if (!f)
		return -EBADF;
	u64 end = (u64)offset + (u64)nbytes;
	u32 mode = f->inode->mode;
	if (flags & ~SYNC_FILE_RANGE_VALID || offset < 0 || (s64)end < 0 || end < (u64)offset)
		err = -EINVAL;
	else if (!S_ISREG(mode) && !S_ISBLK(mode) && !S_ISDIR(mode) && !S_ISLNK(mode))
		err = -ESPIPE;
	file_put(f);
	return err;
}
