/*
 * stat.c - stat, lstat, fstat and newfstatat: an inode's metadata in
 * x86-64 Linux's struct stat. lstat and AT_SYMLINK_NOFOLLOW describe a
 * last symbolic link itself (S_IFLNK, st_size the target's length), stat
 * what it leads to. Not here: what the fields hold (inode.c fills them).
 */
#include "fs/vfs.h"
#include "uapi/errno.h"
#include "kernel/syscall/syscall.h"

BUILD_BUG_ON(sizeof(struct kernel_stat) != 144);

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
