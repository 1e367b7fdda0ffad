/*
 * xattr.c - the extended-attribute calls (getxattr, setxattr, listxattr,
 * removexattr and their l- and f- forms): which names exist, who may
 * read and change them, and the sizes, as Linux's fs/xattr.c and
 * security/commoncap.c answer them. The RAM file systems keep the
 * attributes (fs/xattr_store.c); on the others (procfs, devices, pipes,
 * sockets) get, set and remove are EOPNOTSUPP and list is empty, as on a
 * Linux file system without xattr handlers.
 *
 * A name is "namespace.rest", at most XATTR_NAME_MAX bytes (ERANGE when
 * empty or longer); a value at most XATTR_SIZE_MAX (E2BIG). The
 * namespaces (xattr(7)):
 *   user.*      regular files and directories only (EPERM to set on
 *               others, ENODATA to read), under the file's read or write
 *               permission; in a sticky directory only its owner sets them;
 *   trusted.*   CAP_SYS_ADMIN's alone (others: EPERM to set, ENODATA to
 *               read, and listxattr leaves them out);
 *   security.*  anyone reads; setting or removing takes CAP_SYS_ADMIN
 *               (commoncap's rule without a security module);
 *   system.*    the POSIX ACLs' names: EOPNOTSUPP, as from a tmpfs built
 *               without POSIX ACLs (rewind has none; the mode bits are the
 *               whole of a file's permission), and any other name too.
 * security.capability is kept like any security.* name but execve does
 * not read it: rewind has no file capabilities.
 */
#include "fs/notify.h"
#include "fs/vfs.h"
#include "kernel/process/cred.h"
#include "kernel/lib/string.h"
#include "kernel/syscall/syscall.h"
#include "mm/kmalloc.h"
#include "uapi/errno.h"
#include "uapi/xattr.h"

enum xattr_kind { XATTR_USER, XATTR_TRUSTED, XATTR_SECURITY, XATTR_SYSTEM, XATTR_UNKNOWN };

static const struct {
	const char *prefix;
	enum xattr_kind kind;
} prefixes[] = {
	{ "user.", XATTR_USER },
	{ "trusted.", XATTR_TRUSTED },
	{ "security.", XATTR_SECURITY },
	{ "system.", XATTR_SYSTEM },
};

/* The file a call names: its inode, and the file that holds it for the f- forms. */
struct target {
	struct inode *inode;
	struct file *file; /* NULL for a path: then inode holds its own reference */
};

static int
target_path(const char __user *path, bool follow, struct target *t)
{
	t->file = NULL;
	return lookup_user_inode_at(AT_FDCWD, path, follow ? 0 : AT_SYMLINK_NOFOLLOW, &t->inode);
}

/* An fd opened with O_PATH names no file these calls may use (EBADF, as Linux's fdget). */
static int
target_fd(int fd, struct target *t)
{
	t->file = fd_get(fd);
	if (!t->file)
		return -EBADF;
	if (t->file->fmode & FMODE_PATH) {
		file_put(t->file);
		return -EBADF;
	}
	t->inode = t->file->inode;
	return 0;
}

static void
target_put(struct target *t)
{
	if (t->file)
		file_put(t->file);
	else
		inode_put(t->inode);
}

/* The name into name[XATTR_NAME_MAX + 1]: ERANGE when empty or longer than XATTR_NAME_MAX. */
static int
copy_name(const char __user *uname, char *name)
{
	long len = strncpy_from_user(name, uname, XATTR_NAME_MAX + 1);

	if (len == -ENAMETOOLONG || len == 0 || len == XATTR_NAME_MAX + 1)
		return -ERANGE;
	return len < 0 ? (int)len : 0;
}

/* The namespace of name (enum xattr_kind); -1 for a bare prefix such as "user.", which is EINVAL. */
static int
kind_of(const char *name)
{
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		size_t len = strlen(prefixes[i].prefix);
		if (!strncmp(name, prefixes[i].prefix, len))
			return name[len] ? (int)prefixes[i].kind : -1;
	}
	return XATTR_UNKNOWN;
}

/*
 * Linux's xattr_permission and cap_inode_setxattr: whether the caller may
 * read (MAY_READ) or change (MAY_WRITE) name of inode.
 */
static int
may_access(struct inode *inode, int kind, u32 want)
{
	bool write = want & MAY_WRITE;
	u32 mode = READ_ONCE(inode->mode);

	if (write) {
		int err = sb_may_write(inode);
		if (err)
			return err;
	}
	switch (kind) {
	case XATTR_TRUSTED:
		return capable(CAP_SYS_ADMIN) ? 0 : write ? -EPERM : -ENODATA;
	case XATTR_SECURITY:
		return !write || capable(CAP_SYS_ADMIN) ? 0 : -EPERM;
	case XATTR_SYSTEM:
		return 0;
	case XATTR_USER:
		if (!S_ISREG(mode) && !S_ISDIR(mode))
			return write ? -EPERM : -ENODATA;
		if (S_ISDIR(mode) && (mode & S_ISVTX) && write && !inode_owner_or_root(inode))
			return -EPERM;
		break;
	}
	return inode_permission(inode, want);
}

/* Whether the attribute may be kept: the file system keeps attributes and the namespace is one of its. */
static int
kept_here(const struct inode *inode, int kind)
{
	if (!inode->sb->type->xattrs || kind == XATTR_SYSTEM || kind == XATTR_UNKNOWN)
		return -EOPNOTSUPP;
	return 0;
}

/* Checks name (copied in) and access to it for a call on t: 0 or an errno. */
static int
resolve(struct target *t, const char *name, u32 want)
{
	int kind = kind_of(name);

	if (kind < 0)
		return -EINVAL;
	int err = may_access(t->inode, kind, want);
	return err ? err : kept_here(t->inode, kind);
}

/* ---- get ------------------------------------------------------------------------------ */

static long
get_value(struct inode *inode, const char *name, void __user *uvalue, size_t size)
{
	void *buf = NULL;

	if (size > XATTR_SIZE_MAX)
		size = XATTR_SIZE_MAX;
	if (size && !(buf = kmalloc(size)))
		return -ENOMEM;
	mutex_lock(&inode->lock);
	long ret = xattr_store_get(inode, name, buf, size);
	mutex_unlock(&inode->lock);
	if (ret > 0 && size && copy_to_user(uvalue, buf, (size_t)ret))
		ret = -EFAULT;
	else if (ret == -ERANGE && size >= XATTR_SIZE_MAX)
		ret = -E2BIG;
	kfree(buf);
	return ret;
}

static long
do_getxattr(struct target *t, int err, const char __user *uname, void __user *uvalue, size_t size)
{
	char name[XATTR_NAME_MAX + 1];

	if (err)
		return err;
	long ret = copy_name(uname, name);
	if (!ret)
		ret = resolve(t, name, MAY_READ);
	if (!ret)
		ret = get_value(t->inode, name, uvalue, size);
	target_put(t);
	return ret;
}

SYSCALL4(getxattr, const char __user *, path, const char __user *, name, void __user *, value, u64,
	 size)
{
	struct target t;

	return do_getxattr(&t, target_path(path, true, &t), name, value, size);
}

SYSCALL4(lgetxattr, const char __user *, path, const char __user *, name, void __user *, value, u64,
	 size)
{
	struct target t;

	return do_getxattr(&t, target_path(path, false, &t), name, value, size);
}

SYSCALL4(fgetxattr, int, fd, const char __user *, name, void __user *, value, u64, size)
{
	struct target t;

	return do_getxattr(&t, target_fd(fd, &t), name, value, size);
}

/* ---- set and remove ------------------------------------------------------------------- */

static long
set_value(struct inode *inode, const char *name, const void __user *uvalue, size_t size, int flags)
{
	void *buf = NULL;

	if (size && !(buf = kmalloc(size)))
		return -ENOMEM;
	if (size && copy_from_user(buf, uvalue, size)) {
		kfree(buf);
		return -EFAULT;
	}
	mutex_lock(&inode->lock);
	long err = xattr_store_set(inode, name, buf, size, flags & XATTR_CREATE,
				   flags & XATTR_REPLACE);
	if (!err)
		inode->ctime = fs_now();
	mutex_unlock(&inode->lock);
	kfree(buf);
	if (!err)
		notify_inode(inode, IN_ATTRIB); /* Linux's fsnotify_xattr */
	return err;
}

static long
do_setxattr(struct target *t, int err, const char __user *uname, const void __user *uvalue,
	    size_t size, int flags)
{
	char name[XATTR_NAME_MAX + 1];

	if (err)
		return err;
	long ret = flags & ~(XATTR_CREATE | XATTR_REPLACE) ? -EINVAL : 0;
	if (!ret)
		ret = copy_name(uname, name);
	if (!ret && size > XATTR_SIZE_MAX)
		ret = -E2BIG;
	if (!ret)
		ret = resolve(t, name, MAY_WRITE);
	if (!ret)
		ret = set_value(t->inode, name, uvalue, size, flags);
	target_put(t);
	return ret;
}

SYSCALL5(setxattr, const char __user *, path, const char __user *, name, const void __user *, value,
	 u64, size, int, flags)
{
	struct target t;

	return do_setxattr(&t, target_path(path, true, &t), name, value, size, flags);
}

SYSCALL5(lsetxattr, const char __user *, path, const char __user *, name, const void __user *,
	 value, u64, size, int, flags)
{
	struct target t;

	return do_setxattr(&t, target_path(path, false, &t), name, value, size, flags);
}

SYSCALL5(fsetxattr, int, fd, const char __user *, name, const void __user *, value, u64, size, int,
	 flags)
{
	struct target t;

	return do_setxattr(&t, target_fd(fd, &t), name, value, size, flags);
}

static long
do_removexattr(struct target *t, int err, const char __user *uname)
{
	char name[XATTR_NAME_MAX + 1];

	if (err)
		return err;
	long ret = copy_name(uname, name);
	if (!ret)
		ret = resolve(t, name, MAY_WRITE);
	if (!ret) {
		mutex_lock(&t->inode->lock);
		ret = xattr_store_remove(t->inode, name);
		if (!ret)
			t->inode->ctime = fs_now();
		mutex_unlock(&t->inode->lock);
		if (!ret)
			notify_inode(t->inode, IN_ATTRIB);
	}
	target_put(t);
	return ret;
}

SYSCALL2(removexattr, const char __user *, path, const char __user *, name)
{
	struct target t;

	return do_removexattr(&t, target_path(path, true, &t), name);
}

SYSCALL2(lremovexattr, const char __user *, path, const char __user *, name)
{
	struct target t;

	return do_removexattr(&t, target_path(path, false, &t), name);
}

SYSCALL2(fremovexattr, int, fd, const char __user *, name)
{
	struct target t;

	return do_removexattr(&t, target_fd(fd, &t), name);
}

/* ---- list ----------------------------------------------------------------------------- */

/* listxattr shows trusted.* names to CAP_SYS_ADMIN only (Linux's simple_xattr_list). */
static bool
shown_to_caller(const char *name)
{
	return kind_of(name) != XATTR_TRUSTED || capable(CAP_SYS_ADMIN);
}

/* The names, NUL-terminated; no permission is asked, as in Linux. */
static long
do_listxattr(struct target *t, int err, char __user *ulist, size_t size)
{
	char *buf = NULL;

	if (err)
		return err;
	if (size > XATTR_LIST_MAX)
		size = XATTR_LIST_MAX;
	long ret = size && !(buf = kmalloc(size)) ? -ENOMEM : 0;
	if (!ret && t->inode->sb->type->xattrs) {
		mutex_lock(&t->inode->lock);
		ret = xattr_store_list(t->inode, buf, size, shown_to_caller);
		mutex_unlock(&t->inode->lock);
	}
	if (ret > 0 && size && copy_to_user(ulist, buf, (size_t)ret))
		ret = -EFAULT;
	else if (ret == -ERANGE && size >= XATTR_LIST_MAX)
		ret = -E2BIG;
	kfree(buf);
	target_put(t);
	return ret;
}

SYSCALL3(listxattr, const char __user *, path, char __user *, list, u64, size)
{
	struct target t;

	return do_listxattr(&t, target_path(path, true, &t), list, size);
}

SYSCALL3(llistxattr, const char __user *, path, char __user *, list, u64, size)
{
	struct target t;

	return do_listxattr(&t, target_path(path, false, &t), list, size);
}

SYSCALL3(flistxattr, int, fd, char __user *, list, u64, size)
{
	struct target t;

	return do_listxattr(&t, target_fd(fd, &t), list, size);
}
