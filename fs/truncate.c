/*
 * truncate.c - changing a regular file's length: truncate, ftruncate, and
 * open's O_TRUNC. Shrinking drops the cached pages past the new end,
 * growing leaves a hole that reads as zeros (filemap.c). Errors are
 * Linux's: a negative length -EINVAL, a directory -EISDIR, anything else
 * that is not a regular file (or an fd not open for writing) -EINVAL, a file
 * a program runs from -ETXTBSY (fs/write_access.c). truncate by name asks
 * write permission (-EACCES), ftruncate an fd open for writing (-EINVAL;
 * an O_PATH fd is -EBADF).
 *
 * The size limits every growth of a file obeys live here too: the
 * process's RLIMIT_FSIZE (going past it raises SIGXFSZ, then -EFBIG) and
 * the largest size the file system knows (-EFBIG alone).
 */
#include "fs/notify.h"
#include "fs/vfs.h"
#include "uapi/errno.h"
#include "uapi/signal.h"
#include "kernel/process/rlimit.h"
#include "kernel/signal/signal.h"
#include "kernel/syscall/syscall.h"

long
file_size_allowed(u64 pos, size_t n)
{
	u64 limit = rlimit(RLIMIT_FSIZE);

	if (limit != RLIM_INFINITY && pos + n > limit) {
		if (pos >= limit) {
			signal_send_self(SIGXFSZ); /* Linux: even when SIGXFSZ is ignored, EFBIG */
			return -EFBIG;
		}
		n = (size_t)(limit - pos);
	}
	if (pos >= MAX_FILE_SIZE)
		return -EFBIG;
	return (long)MIN((u64)n, MAX_FILE_SIZE - pos);
}

int
size_change_allowed(struct inode *inode, u64 size)
{
	if (size <= i_size_read(inode))
		return 0;
	if (size > rlimit(RLIMIT_FSIZE)) {
		signal_send_self(SIGXFSZ);
		return -EFBIG;
	}
	return size > MAX_FILE_SIZE ? -EFBIG : 0;
}

/* What every truncate asks of the file first: a regular file on a writable mount. */
static int
truncatable(const struct inode *inode)
{
	if (S_ISDIR(inode->mode))
		return -EISDIR;
	if (!S_ISREG(inode->mode) || !inode->iops || !inode->iops->setsize)
		return -EINVAL;
	return sb_may_write(inode);
}

int
vfs_truncate(struct inode *inode, u64 size)
{
	int err = truncatable(inode);

	if (err)
		return err;
	mutex_lock(&inode->lock);
	err = size_change_allowed(inode, size);
	if (!err)
		err = seals_allow_resize(inode, size);
	if (!err)
		err = inode->iops->setsize(inode, size);
	if (!err)
		inode_touch(inode);
	mutex_unlock(&inode->lock);
	if (!err)
		notify_inode(inode, IN_MODIFY);
	return err;
}

SYSCALL2(truncate, const char __user *, upath, s64, length)
{
	struct dentry *d;
	char *path;

	if (length < 0)
		return -EINVAL;
	int err = getname(upath, &path);
	if (err)
		return err;
	err = path_lookup(AT_FDCWD, path, &d);
	putname(path);
	if (err)
		return err;
	/*
	 * By name it takes write permission (Linux's vfs_truncate; ftruncate's
	 * fd was checked at open), then, as a writer would, not while a
	 * program runs from it.
	 */
	err = truncatable(d->inode);
	if (!err)
		err = inode_permission(d->inode, MAY_WRITE);
	if (!err)
		err = inode_get_write_access(d->inode);
	if (!err) {
		err = break_lease(d->inode, O_WRONLY); /* as a writer's open would */
		if (!err)
			err = vfs_truncate(d->inode, (u64)length);
		inode_put_write_access(d->inode);
	}
	dput(d);
	return err;
}

SYSCALL2(ftruncate, int, fd, s64, length)
{
	if (length < 0)
		return -EINVAL;
	struct file *f = fd_get(fd);
	if (!f)
		return -EBADF;
	int err = S_ISREG(f->inode->mode) && (f->fmode & FMODE_WRITE)
			  ? vfs_truncate(f->inode, (u64)length)
			  : -EINVAL;
	file_put(f);
	return err;
}
