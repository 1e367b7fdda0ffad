/*
 * fadvise.c - posix_fadvise (fadvise64): advice about how a file will be
 * read. Every file here lives whole in the page cache of a RAM file
 * system, so there is nothing to read ahead or drop: the call checks its
 * arguments in Linux's order and returns 0 (as Linux for a RAM file system,
 * whose pages are never written back). A pipe is ESPIPE.
 *
 * readahead(2) is the same advice (POSIX_FADV_WILLNEED) asked of a file
 * open for reading, and only of a regular file: anything else is EINVAL,
 * as Linux's ksys_readahead.
 */
#include "fs/vfs.h"
#include "uapi/errno.h"
#include "uapi/stat.h"
#include "kernel/syscall/syscall.h"

#define POSIX_FADV_NOREUSE 5 /* the highest advice (NORMAL 0 .. NOREUSE 5) */

#define POSIX_FADV_WILLNEED 3

static long
advise(struct file *f, s64 len, int advice)
{
	if (S_ISFIFO(f->inode->mode))
		return -ESPIPE;
	if (advice < 0 || advice > POSIX_FADV_NOREUSE || len < 0)
		return -EINVAL;
	return 0;
}

SYSCALL4(fadvise64, int, fd, s64, offset, s64, len, int, advice)
{
	struct file *f = fd_get(fd);

	if (!f)
		return -EBADF;
	long err = advise(f, len, advice);
	file_put(f);
	return err;
}

SYSCALL3(readahead, int, fd, s64, offset, u64, count)
{
	struct file *f = fd_get(fd);
	long err;

	if (!f)
		return -EBADF;
	if (!(f->fmode & FMODE_READ))
		err = -EBADF;
	else if (!S_ISREG(f->inode->mode))
		err = -EINVAL;
	else
		err = advise(f, (s64)count, POSIX_FADV_WILLNEED);
	file_put(f);
	return err;
}
