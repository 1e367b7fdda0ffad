/*
 * fadvise.c - posix_fadvise (fadvise64): advice about how a file will be
 * read. Every file here lives whole in the page cache of a RAM file
 * system, so there is nothing to read ahead or drop: the call checks its
 * arguments in Linux's order and returns 0 (as Linux for a RAM file system,
 * whose pages are never written back). A pipe is ESPIPE.
 */
#include "fs/vfs.h"
#include "uapi/errno.h"
#include "uapi/stat.h"
#include "kernel/syscall/syscall.h"

#define POSIX_FADV_NOREUSE 5 /* the highest advice (NORMAL 0 .. NOREUSE 5) */

SYSCALL4(fadvise64, int, fd, s64, offset, s64, len, int, advice)
{
	struct file *f = fd_get(fd);
	long err = 0;

	if (!f)
		return -EBADF;
	if (S_ISFIFO(f->inode->mode))
		err = -ESPIPE;
	else if (advice < 0 || advice > POSIX_FADV_NOREUSE || len < 0)
		err = -EINVAL;
	file_put(f);
	return err;
}
