/*
 * sync.c - fsync, fdatasync and sync. Everything lives in memory, so there
 * is nothing to write back; the calls still check their descriptor as
 * Linux does (-EBADF, and -EINVAL for files that cannot be synced: pipes
 * and devices).
 */
#include "fs/vfs.h"
#include "uapi/errno.h"
#include "kernel/syscall/syscall.h"

static long
fsync_fd(int fd)
{
	struct file *f = fd_get(fd);

	if (!f)
		return -EBADF;
	long ret = S_ISREG(f->inode->mode) || S_ISDIR(f->inode->mode) ? 0 : -EINVAL;
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
