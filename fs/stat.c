/*
 * stat.c - stat, lstat, fstat, newfstatat and statx: an inode's metadata in
 * x86-64 Linux's struct stat and struct statx. lstat and AT_SYMLINK_NOFOLLOW describe a
 * last symbolic link itself (S_IFLNK, st_size the target's length), stat
 * what it leads to. Not here: what the fields hold (inode.c fills them).
 */
#include "fs/vfs.h"
#include "uapi/errno.h"
#include "kernel/syscall/syscall.h"
#include "uapi/statx.h"

BUILD_BUG_ON(sizeof(struct kernel_stat) != 144);
BUILD_BUG_ON(sizeof(struct kernel_statx) != 256);
BUILD_BUG_ON(offsetof(struct kernel_statx, stx_atime) != 64);
BUILD_BUG_ON(offsetof(struct kernel_statx, stx_rdev_major) != 128);

static long
stat_to_user(struct inode *inode, struct kernel_stat __user *ust)
{
	struct kernel_stat st;

	inode_fill_stat(inode, &st);
	return copy_to_user(ust, &st, sizeof(st));
}

static long
fstatat_user(int dirfd, const char __user *upath, struct kernel_stat __user *ust, int flags)
{
	struct inode *inode;

	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | AT_EMPTY_PATH))
		return -EINVAL;
	int err = lookup_user_inode_at(dirfd, upath, flags, &inode);
	if (err)
		return err;
	long ret = stat_to_user(inode, ust);
	inode_put(inode);
	return ret;
}

SYSCALL2(stat, const char __user *, path, struct kernel_stat __user *, st)
{
	return fstatat_user(AT_FDCWD, path, st, 0);
}

SYSCALL2(lstat, const char __user *, path, struct kernel_stat __user *, st)
{
	return fstatat_user(AT_FDCWD, path, st, AT_SYMLINK_NOFOLLOW);
}

SYSCALL4(newfstatat, int, dirfd, const char __user *, path, struct kernel_stat __user *, st, int,
	 flags)
{
	return fstatat_user(dirfd, path, st, flags);
}

SYSCALL2(fstat, int, fd, struct kernel_stat __user *, st)
{
	struct file *f = fd_get_raw(fd);

	if (!f)
		return -EBADF;
	long ret = stat_to_user(f->inode, st);
	file_put(f);
	return ret;
}

static struct kernel_statx_timestamp
statx_time(u64 sec, u64 nsec)
{
	return (struct kernel_statx_timestamp){ .tv_sec = (long long)sec,
						.tv_nsec = (unsigned int)nsec };
}

/*
 * Every field struct stat has, whatever the mask asked (Linux too fills
 * more than asked); no birth time, which rewind's inodes do not keep.
 */
static void
fill_statx(struct inode *inode, struct kernel_statx *sx)
{
	struct kernel_stat st;

	inode_fill_stat(inode, &st);
	*sx = (struct kernel_statx){
		.stx_mask = STATX_BASIC_STATS,
		.stx_blksize = (unsigned int)st.st_blksize,
		.stx_nlink = (unsigned int)st.st_nlink,
		.stx_uid = st.st_uid,
		.stx_gid = st.st_gid,
		.stx_mode = (unsigned short)st.st_mode,
		.stx_ino = st.st_ino,
		.stx_size = (u64)st.st_size,
		.stx_blocks = (u64)st.st_blocks,
		.stx_atime = statx_time(st.st_atime, st.st_atime_nsec),
		.stx_ctime = statx_time(st.st_ctime, st.st_ctime_nsec),
		.stx_mtime = statx_time(st.st_mtime, st.st_mtime_nsec),
		.stx_rdev_major = dev_major(st.st_rdev),
		.stx_rdev_minor = dev_minor(st.st_rdev),
		.stx_dev_major = dev_major(st.st_dev),
		.stx_dev_minor = dev_minor(st.st_dev),
	};
}

long
statx_user(int dirfd, const char __user *path, int flags, unsigned mask,
	   struct kernel_statx __user *usx)
{
	struct kernel_statx sx;
	struct inode *inode;

	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | AT_EMPTY_PATH | AT_STATX_SYNC_TYPE))
		return -EINVAL;
	if ((flags & AT_STATX_SYNC_TYPE) == AT_STATX_SYNC_TYPE || (mask & STATX__RESERVED))
		return -EINVAL;
	int err = lookup_user_inode_at(dirfd, path, flags & ~AT_STATX_SYNC_TYPE, &inode);
	if (err)
		return err;
	fill_statx(inode, &sx);
	inode_put(inode);
	return copy_to_user(usx, &sx, sizeof(sx));
}

SYSCALL5(statx, int, dirfd, const char __user *, path, int, flags, unsigned int, mask,
	 struct kernel_statx __user *, usx)
{
	return statx_user(dirfd, path, flags, mask, usx);
}
