/*
 * open.c - open, openat, creat, close, and access/faccessat/faccessat2.
 *
 * The system calls copy the path in, apply the umask to a new file's mode
 * and install the file at the lowest free descriptor; file.c does the
 * open itself, fs/permission.c the permission checks; access() asks them
 * with the real ids.
 */
#include "fs/vfs.h"
#include "uapi/errno.h"
#include "kernel/syscall/syscall.h"

static long
openat_user(int dirfd, const char __user *upath, int flags, u32 mode)
{
	struct file *f;
	char *path;
	int err = getname(upath, &path);

	if (err)
		return err;
	err = file_open_at(dirfd, path, (u32)flags, mode & S_IALLUGO & ~current_umask(), &f);
	putname(path);
	if (err)
		return err;
	int fd = fd_alloc(f, 0, flags & O_CLOEXEC);
	if (fd < 0)
		file_put(f);
	return fd;
}

SYSCALL3(open, const char __user *, path, int, flags, u32, mode)
{
	return openat_user(AT_FDCWD, path, flags, mode);
}

SYSCALL4(openat, int, dirfd, const char __user *, path, int, flags, u32, mode)
{
	return openat_user(dirfd, path, flags, mode);
}

SYSCALL2(creat, const char __user *, path, u32, mode)
{
	return openat_user(AT_FDCWD, path, O_CREAT | O_WRONLY | O_TRUNC, mode);
}

SYSCALL1(close, int, fd)
{
	return fd_close(fd);
}

static long
faccessat_user(int dirfd, const char __user *upath, int mode, int flags)
{
	struct inode *inode;

	if (mode & ~(R_OK | W_OK | X_OK))
		return -EINVAL;
	if (flags & ~(AT_EACCESS | AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	int err = lookup_user_inode_at(dirfd, upath, flags, &inode);
	if (err)
		return err;
	/* R_OK, W_OK and X_OK are MAY_READ, MAY_WRITE and MAY_EXEC. */
	err = access_permission(inode, (u32)mode, flags & AT_EACCESS);
	inode_put(inode);
	return err;
}

SYSCALL2(access, const char __user *, path, int, mode)
{
	return faccessat_user(AT_FDCWD, path, mode, 0);
}

SYSCALL3(faccessat, int, dirfd, const char __user *, path, int, mode)
{
	return faccessat_user(dirfd, path, mode, 0);
}

SYSCALL4(faccessat2, int, dirfd, const char __user *, path, int, mode, int, flags)
{
	return faccessat_user(dirfd, path, mode, flags);
}
