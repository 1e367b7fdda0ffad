/*
 * xattr.c - the extended-attribute calls (getxattr, setxattr, listxattr,
 * removexattr and their l- and f- forms) on file systems that store no
 * extended attributes, which all of rewind's are: Linux's answers for a
 * ramfs, whose inodes have no xattr handlers. The path or descriptor and
 * the name are checked first, so a bad one gets its own errno; then get,
 * set and remove are EOPNOTSUPP and list gives an empty list. Programs
 * such as ls and cp take EOPNOTSUPP as "no attributes here".
 */
#include "fs/vfs.h"
#include "uapi/errno.h"
#include "uapi/limits.h"
#include "kernel/syscall/syscall.h"

#define XATTR_NAME_MAX 255 /* the longest attribute name (linux/limits.h) */

/* The file exists (followed or not); 0 or its lookup's errno. */
static int
check_path(const char __user *path, bool follow)
{
	struct inode *inode;
	int err = lookup_user_inode_at(AT_FDCWD, path, follow ? 0 : AT_SYMLINK_NOFOLLOW, &inode);

	if (!err)
		inode_put(inode);
	return err;
}

static int
check_fd(int fd)
{
	struct file *f = fd_get(fd);

	if (!f)
		return -EBADF;
	file_put(f);
	return 0;
}

/* A name libc could have passed: ERANGE when empty or longer than XATTR_NAME_MAX. */
static int
check_name(const char __user *uname)
{
	char name[XATTR_NAME_MAX + 1];
	long len = strncpy_from_user(name, uname, sizeof(name));

	if (len == -ENAMETOOLONG || len == 0)
		return -ERANGE;
	return len < 0 ? (int)len : 0;
}

/* What a call on an existing file with a valid name gets: no attribute support. */
static long
unsupported(int err, const char __user *name)
{
	if (!err)
		err = check_name(name);
	return err ? err : -EOPNOTSUPP;
}

SYSCALL4(getxattr, const char __user *, path, const char __user *, name, void __user *, value, u64,
	 size)
{
	return unsupported(check_path(path, true), name);
}

SYSCALL4(lgetxattr, const char __user *, path, const char __user *, name, void __user *, value, u64,
	 size)
{
	return unsupported(check_path(path, false), name);
}

SYSCALL4(fgetxattr, int, fd, const char __user *, name, void __user *, value, u64, size)
{
	return unsupported(check_fd(fd), name);
}

SYSCALL5(setxattr, const char __user *, path, const char __user *, name, const void __user *, value,
	 u64, size, int, flags)
{
	return unsupported(check_path(path, true), name);
}

SYSCALL5(lsetxattr, const char __user *, path, const char __user *, name, const void __user *,
	 value, u64, size, int, flags)
{
	return unsupported(check_path(path, false), name);
}

SYSCALL5(fsetxattr, int, fd, const char __user *, name, const void __user *, value, u64, size, int,
	 flags)
{
	return unsupported(check_fd(fd), name);
}

SYSCALL2(removexattr, const char __user *, path, const char __user *, name)
{
	return unsupported(check_path(path, true), name);
}

SYSCALL2(lremovexattr, const char __user *, path, const char __user *, name)
{
	return unsupported(check_path(path, false), name);
}

SYSCALL2(fremovexattr, int, fd, const char __user *, name)
{
	return unsupported(check_fd(fd), name);
}

/* An empty list: 0 bytes, whatever the buffer. */
SYSCALL3(listxattr, const char __user *, path, char __user *, list, u64, size)
{
	return check_path(path, true);
}

SYSCALL3(llistxattr, const char __user *, path, char __user *, list, u64, size)
{
	return check_path(path, false);
}

SYSCALL3(flistxattr, int, fd, char __user *, list, u64, size)
{
	return check_fd(fd);
}
