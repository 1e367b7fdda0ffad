/*
 * open.c - open, openat, openat2, creat, close, and access/faccessat/faccessat2.
 *
 * The system calls copy the path in, apply the umask to a new file's mode
 * and install the file at the lowest free descriptor; file.c does the
 * open itself, fs/permission.c the permission checks; access() asks them
 * with the real ids.
 */
#include "fs/vfs.h"
#include "uapi/errno.h"
#include "kernel/syscall/syscall.h"
#include "uapi/openat2.h"

long
openat_user(int dirfd, const char __user *upath, int flags, u32 mode, unsigned resolve)
{
	struct file *f;
	char *path;
	int err = getname(upath, &path);

	if (err)
		return err;
	err = file_open_resolved(dirfd, path, (u32)flags, mode & S_IALLUGO & ~current_umask(),
				 resolve, &f);
	putname(path);
	if (err)
		return err;
	return fd_install_new(f, flags & O_CLOEXEC);
}

SYSCALL3(open, const char __user *, path, int, flags, u32, mode)
{
	return openat_user(AT_FDCWD, path, flags, mode, 0);
}

SYSCALL4(openat, int, dirfd, const char __user *, path, int, flags, u32, mode)
{
	return openat_user(dirfd, path, flags, mode, 0);
}

/* What openat2 accepts: every flag open knows, and nothing else (open ignores the rest). */
#define OPENAT2_FLAGS                                                                          \
	(O_ACCMODE | O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC | O_APPEND | O_NONBLOCK | O_DSYNC | \
	 O_ASYNC | O_DIRECT | O_LARGEFILE | O_DIRECTORY | O_NOFOLLOW | O_NOATIME | O_CLOEXEC | \
	 __O_SYNC | O_PATH | __O_TMPFILE)
#define RESOLVE_ALL                                                                        \
	(RESOLVE_NO_XDEV | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH | \
	 RESOLVE_IN_ROOT | RESOLVE_CACHED)

/*
 * The caller's struct open_how of its own size: a newer, bigger one is
 * accepted only if it is zero past ours (E2BIG), as Linux's
 * copy_struct_from_user.
 */
static int
copy_open_how(struct kernel_open_how *how, const struct kernel_open_how __user *uhow, size_t size)
{
	if (size < OPEN_HOW_SIZE_VER0)
		return -EINVAL;
	if (size > PAGE_SIZE)
		return -E2BIG;
	return copy_struct_from_user(how, sizeof(*how), uhow, size);
}

/* Linux's build_open_flags for openat2: nothing unknown, a mode only for a new file. */
static int
open_how_check(const struct kernel_open_how *how)
{
	if (how->flags & ~(unsigned long long)OPENAT2_FLAGS)
		return -EINVAL;
	if (how->resolve & ~(unsigned long long)RESOLVE_ALL)
		return -EINVAL;
	if (how->mode & ~(unsigned long long)S_IALLUGO)
		return -EINVAL;
	if (how->mode && !(how->flags & (O_CREAT | __O_TMPFILE)))
		return -EINVAL;
	if ((how->resolve & RESOLVE_BENEATH) && (how->resolve & RESOLVE_IN_ROOT))
		return -EINVAL;
	/* every name here is in memory: only what may write or make a file needs more */
	if ((how->resolve & RESOLVE_CACHED) && (how->flags & (O_TRUNC | O_CREAT | __O_TMPFILE)))
		return -EAGAIN;
	return 0;
}

SYSCALL4(openat2, int, dirfd, const char __user *, path, struct kernel_open_how __user *, how,
	 size_t, size)
{
	struct kernel_open_how k;
	int err = copy_open_how(&k, how, size);

	if (!err)
		err = open_how_check(&k);
	if (err)
		return err;
	return openat_user(dirfd, path, (int)k.flags, (u32)k.mode,
			   (unsigned)(k.resolve & ~RESOLVE_CACHED));
}

SYSCALL2(creat, const char __user *, path, u32, mode)
{
	return openat_user(AT_FDCWD, path, O_CREAT | O_WRONLY | O_TRUNC, mode, 0);
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
