/*
 * shmem.c - the file behind shared anonymous memory.
 *
 * mmap(MAP_SHARED | MAP_ANONYMOUS), or MAP_SHARED of /dev/zero, must give
 * every process that inherits the mapping the same pages, including pages
 * nobody has touched before the fork. Private anonymous memory cannot do
 * that: each process would fault in a zero page of its own. So, as Linux's
 * shmem_zero_setup, the mapping is backed by a file: a regular file with no
 * name in the RAM file system, of the mapping's size, which the page cache
 * shares like any MAP_SHARED file mapping. It lives as long as a mapping or
 * a descriptor holds it; its pages count towards the RAM file system, as
 * Linux's count towards shmem.
 */
#include "fs/fs.h"
#include "fs/vfs.h"
#include "uapi/errno.h"
#include "uapi/fcntl.h"
#include "uapi/stat.h"

int
shmem_zero_file(u64 size, int access, struct file **out)
{
	struct dentry *d;
	struct inode *inode;
	int err = vfs_create_unnamed(vfs_root, S_IFREG | 0600, &d);

	if (err)
		return err == -ENOSPC ? -ENOMEM : err;
	inode = d->inode;
	/* Not vfs_truncate: RLIMIT_FSIZE limits files a process writes, not its memory. */
	mutex_lock(&inode->lock);
	err = inode->iops->setsize(inode, size);
	mutex_unlock(&inode->lock);
	if (!err)
		err = file_open_dentry(d, access, true, out);
	dput(d);
	return err;
}
