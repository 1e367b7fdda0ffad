/*
 * fallocate.c - fallocate(2) on the page-cache files (ramfs, tmpfs,
 * memfds): Linux 6.1's checks (vfs_fallocate) and the two modes its tmpfs
 * has (shmem_fallocate).
 *
 *  - mode 0 gives every page of [offset, offset + len) its memory now, so
 *    that later writes there cannot fail for want of it, and grows the file
 *    to offset + len; with FALLOC_FL_KEEP_SIZE the size stays.
 *  - FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE makes the range read as
 *    zeros. As Linux, the whole pages of the range are freed (a hole that
 *    SEEK_HOLE finds, its memory uncounted); one that is mapped or being
 *    read stays, zeroed in place, which reads and mappings see the same
 *    way (Linux unmaps it first; rewind keeps the mapping).
 *
 * Other modes (zero, collapse, insert, unshare range) are EOPNOTSUPP, as on
 * tmpfs. Seals (fs/memfd.c): F_SEAL_WRITE forbids punching, F_SEAL_GROW
 * allocating past the end (even with KEEP_SIZE, as Linux). Growth obeys
 * RLIMIT_FSIZE as a write does.
 */
#include "fs/notify.h"
#include "fs/vfs.h"
#include "uapi/errno.h"
#include "uapi/falloc.h"
#include "kernel/syscall/syscall.h"

/* The modes vfs_fallocate knows of; a file system may support fewer. */
#define FALLOC_FL_KNOWN                                                          \
	(FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE | FALLOC_FL_COLLAPSE_RANGE | \
	 FALLOC_FL_ZERO_RANGE | FALLOC_FL_INSERT_RANGE | FALLOC_FL_UNSHARE_RANGE)
/* Those the page-cache files support. */
#define FALLOC_FL_PAGE_CACHE (FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE)

/* Whether mode is a combination vfs_fallocate accepts: 0, -EOPNOTSUPP or -EINVAL. */
static int
mode_check(int mode)
{
	int punch_or_zero = FALLOC_FL_PUNCH_HOLE | FALLOC_FL_ZERO_RANGE;

	if (mode & ~FALLOC_FL_KNOWN)
		return -EOPNOTSUPP;
	if ((mode & punch_or_zero) == punch_or_zero)
		return -EOPNOTSUPP;
	if ((mode & FALLOC_FL_PUNCH_HOLE) && !(mode & FALLOC_FL_KEEP_SIZE))
		return -EOPNOTSUPP; /* a hole never changes the size */
	if ((mode & FALLOC_FL_COLLAPSE_RANGE) && (mode & ~FALLOC_FL_COLLAPSE_RANGE))
		return -EINVAL;
	if ((mode & FALLOC_FL_INSERT_RANGE) && (mode & ~FALLOC_FL_INSERT_RANGE))
		return -EINVAL;
	if ((mode & FALLOC_FL_UNSHARE_RANGE) &&
	    (mode & ~(FALLOC_FL_UNSHARE_RANGE | FALLOC_FL_KEEP_SIZE)))
		return -EINVAL;
	return 0;
}

/* What vfs_fallocate asks of the file: 0 or -errno, in Linux's order. */
static int
file_check(struct file *f, u64 end)
{
	struct inode *inode = f->inode;

	if (!(f->fmode & FMODE_WRITE))
		return -EBADF;
	if (S_ISFIFO(inode->mode))
		return -ESPIPE;
	if (S_ISDIR(inode->mode))
		return -EISDIR;
	if (!S_ISREG(inode->mode))
		return -ENODEV;
	if (end > MAX_FILE_SIZE)
		return -EFBIG;
	if (!inode->iops || !inode->iops->setsize)
		return -EOPNOTSUPP; /* not a page-cache file: /proc's */
	return sb_may_write(inode);
}

/* Punches [start, end): zeros that read back, the size kept. inode->lock held. */
static int
punch_hole(struct file *f, u64 start, u64 end)
{
	if (file_write_sealed(f))
		return -EPERM;
	filemap_punch_hole(f->inode, start, end);
	return 0;
}

/* Gives [start, end) its pages, then grows the file to end unless keep_size. inode->lock held. */
static int
allocate(struct inode *inode, u64 start, u64 end, bool keep_size)
{
	int err = size_change_allowed(inode, end);

	if (!err)
		err = seals_allow_resize(inode, end);
	if (!err && inode->iops->allocate)
		return inode->iops->allocate(inode, start, end, keep_size); /* hugetlbfs */
	if (!err)
		err = filemap_allocate(inode, start, end);
	if (!err && !keep_size && end > i_size_read(inode))
		err = inode->iops->setsize(inode, end);
	return err;
}

int
vfs_fallocate(struct file *f, int mode, s64 offset, s64 len)
{
	if (offset < 0 || len <= 0)
		return -EINVAL;
	int err = mode_check(mode);
	if (err)
		return err;
	u64 start = (u64)offset, end = start + (u64)len; /* both below 2^63: no wrap */
	err = file_check(f, end);
	if (!err && (mode & ~FALLOC_FL_PAGE_CACHE))
		err = -EOPNOTSUPP;
	if (err)
		return err;
	struct inode *inode = f->inode;
	mutex_lock(&inode->lock);
	if ((mode & FALLOC_FL_PUNCH_HOLE) && inode->iops->allocate)
		err = -EOPNOTSUPP; /* hugetlbfs keeps no holes yet */
	else
		err = (mode & FALLOC_FL_PUNCH_HOLE)
			      ? punch_hole(f, start, end)
			      : allocate(inode, start, end, mode & FALLOC_FL_KEEP_SIZE);
	if (!err)
		inode_touch(inode);
	mutex_unlock(&inode->lock);
	if (!err)
		notify_inode(inode, IN_MODIFY);
	return err;
}

/* A bad descriptor is EBADF whatever the other arguments (Linux's ksys_fallocate). */
SYSCALL4(fallocate, int, fd, int, mode, s64, offset, s64, len)
{
	struct fd f = fdget(fd);
	if (!f.file)
		return -EBADF;
	int err = vfs_fallocate(f.file, mode, offset, len);
	fdput(f);
	return err;
}
