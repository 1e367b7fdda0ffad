/*
 * truncate.c - changing a regular file's length: truncate, ftruncate, and
 * open's O_TRUNC. Shrinking drops the cached pages past the new end,
 * growing leaves a hole that reads as zeros (filemap.c). Errors are
 * Linux's: a negative length -EINVAL, a directory -EISDIR, anything else
 * that is not a regular file (or an fd not open for writing) -EINVAL, a file
 * a program runs from -ETXTBSY (fs/write_access.c).
 */
#include "fs/vfs.h"
#include "uapi/errno.h"
#include "kernel/syscall/syscall.h"

int
vfs_truncate(struct inode *inode, u64 size)
{
	if (S_ISDIR(inode->mode))
		return -EISDIR;
	if (!S_ISREG(inode->mode) || !inode->iops || !inode->iops->setsize)
		return -EINVAL;
	if (size > MAX_FILE_SIZE)
		return -EFBIG;
	mutex_lock(&inode->lock);
	int err = inode->iops->setsize(inode, size);
	if (!err)
		inode_touch(inode);
	mutex_unlock(&inode->lock);
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
	/* As a writer would: not while a program runs from it (ftruncate's fd holds it already). */
	err = S_ISREG(d->inode->mode) ? inode_get_write_access(d->inode) : 0;
	if (!err) {
		err = vfs_truncate(d->inode, (u64)length);
		if (S_ISREG(d->inode->mode))
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
