/*
 * links.c - symbolic and hard links: symlink(at), readlink(at), link(at),
 * with Linux's checks and errors.
 *
 * A symbolic link is an inode of type S_IFLNK whose file system gives its
 * target text through the readlink operation (ramfs keeps the text, procfs
 * makes it up); namei.c follows them. A hard link is one more dentry on the
 * same inode: nlink counts the names, the inode's reference count the names
 * and open files, so the data stays until the last of both is gone.
 * Not here: following links (namei.c), how a file system stores them
 * (ramfs.c, proc/procfs.c).
 */
#include "fs/notify.h"
#include "fs/vfs.h"
#include "kernel/landlock/landlock.h"
#include "kernel/process/cred.h"
#include "uapi/errno.h"
#include "kernel/syscall/syscall.h"
#include "kernel/lib/string.h"
#include "mm/kmalloc.h"

/*
 * The checks of a new name np for symlink and link, dir locked: -EEXIST if
 * it is taken, -ENOENT for "name/" or a removed directory, -EACCES if the
 * caller may not write the directory.
 */
static int
new_name_check(const struct nameparent *np)
{
	struct dentry *d;

	if (np->type != LAST_NORM)
		return -EEXIST; /* ".", ".." and "/" all exist */
	int err = lookup_child(np->dir, np->last, np->len, &d);
	if (!err) {
		dput(d);
		return -EEXIST;
	}
	if (err != -ENOENT)
		return err;
	if (np->trailing_slash)
		return -ENOENT;
	err = sb_may_write(np->dir->inode);
	return err ? err : may_create(np->dir->inode);
}

int
vfs_symlinkat(const char *target, int dirfd, const char *path)
{
	struct nameparent np;
	struct dentry *d;

	if (!*target)
		return -ENOENT; /* Linux refuses empty targets */
	int err = path_parent(dirfd, path, &np);
	if (err)
		return err;
	struct inode *di = np.dir->inode;
	mutex_lock(&di->lock);
	err = new_name_check(&np);
	if (!err)
		err = landlock_may_make(np.dir, S_IFLNK);
	if (!err)
		err = di->iops->symlink ? di->iops->symlink(np.dir, np.last, np.len, target, &d)
					: -EPERM;
	if (!err) {
		notify_create(np.dir, (struct notify_name){ np.last, np.len }, d->inode);
		dput(d);
	}
	mutex_unlock(&di->lock);
	dput(np.dir);
	return err;
}

static long
symlinkat_user(const char __user *utarget, int dirfd, const char __user *upath)
{
	char *target, *path;
	int err = getname(utarget, &target);

	if (err)
		return err;
	err = getname(upath, &path);
	if (!err) {
		err = vfs_symlinkat(target, dirfd, path);
		putname(path);
	}
	putname(target);
	return err;
}

SYSCALL2(symlink, const char __user *, target, const char __user *, path)
{
	return symlinkat_user(target, AT_FDCWD, path);
}

SYSCALL3(symlinkat, const char __user *, target, int, dirfd, const char __user *, path)
{
	return symlinkat_user(target, dirfd, path);
}

/*
 * readlink(2): the target without a NUL, cut to bufsiz. An empty path reads
 * the link open on dirfd (O_PATH | O_NOFOLLOW), as Linux since 2.6.39.
 */
static long
readlinkat_user(int dirfd, const char __user *upath, char __user *ubuf, int bufsiz)
{
	struct dentry *d;
	char *path;

	if (bufsiz <= 0)
		return -EINVAL;
	int err = getname(upath, &path);
	if (err)
		return err;
	bool empty = !*path;
	err = empty && dirfd == AT_FDCWD ? -ENOENT
					 : lookup_dentry_at(dirfd, path, AT_EMPTY_PATH, false, &d);
	putname(path);
	if (err)
		return err;
	long ret = -EINVAL; /* not a link */
	if (S_ISLNK(d->inode->mode) && d->inode->iops && d->inode->iops->readlink) {
		size_t size = MIN((size_t)bufsiz, PATH_MAX);
		char *buf = kmalloc(size);
		ret = buf ? d->inode->iops->readlink(d, buf, size) : -ENOMEM;
		if (ret > 0 && copy_to_user(ubuf, buf, (size_t)ret))
			ret = -EFAULT;
		kfree(buf);
	} else if (empty) {
		ret = -ENOENT; /* Linux: an empty path on something that is not a link */
	}
	dput(d);
	return ret;
}

SYSCALL3(readlink, const char __user *, path, char __user *, buf, int, bufsiz)
{
	return readlinkat_user(AT_FDCWD, path, buf, bufsiz);
}

SYSCALL4(readlinkat, int, dirfd, const char __user *, path, char __user *, buf, int, bufsiz)
{
	return readlinkat_user(dirfd, path, buf, bufsiz);
}

/* With newdir locked: Linux's checks of vfs_link, in its order. */
static int
link_locked(struct dentry *old, const struct nameparent *np)
{
	struct inode *di = np->dir->inode;
	int err = new_name_check(np);

	if (err)
		return err;
	if (old->inode->sb != di->sb)
		return -EXDEV;
	if (S_ISDIR(old->inode->mode))
		return -EPERM;
	if (!di->iops->link)
		return -EPERM;
	/* Unlinked meanwhile: no name to add to, unless an O_TMPFILE file awaits its first. */
	if (READ_ONCE(old->inode->nlink) == 0 && !old->inode->linkable)
		return -ENOENT;
	err = landlock_may_link(old, np->dir);
	if (err)
		return err;
	err = di->iops->link(np->dir, np->last, np->len, old);
	if (!err) {
		old->inode->linkable = false;	     /* named once: unlinked again, it stays so */
		notify_inode(old->inode, IN_ATTRIB); /* its link count */
		notify_create(np->dir, (struct notify_name){ np->last, np->len }, old->inode);
	}
	return err;
}

/*
 * An empty old path (AT_EMPTY_PATH) links the file open on olddirfd: only
 * root may (CAP_DAC_READ_SEARCH), or anyone could give a name to a file
 * it holds only as a handle - an O_PATH fd of another user's 0600 file, a
 * file already unlinked. Others get -ENOENT, as on Linux.
 */
static int
do_linkat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, int flags)
{
	struct nameparent np;
	struct dentry *old;

	if ((flags & AT_EMPTY_PATH) && !*oldpath && !capable(CAP_DAC_READ_SEARCH))
		return -ENOENT;
	int err = lookup_dentry_at(olddirfd, oldpath, flags, flags & AT_SYMLINK_FOLLOW, &old);
	if (err)
		return err;
	err = path_parent(newdirfd, newpath, &np);
	if (!err) {
		mutex_lock(&np.dir->inode->lock);
		err = link_locked(old, &np);
		mutex_unlock(&np.dir->inode->lock);
		dput(np.dir);
	}
	dput(old);
	return err;
}

static long
linkat_user(int olddirfd, const char __user *uold, int newdirfd, const char __user *unew, int flags)
{
	char *oldpath, *newpath;

	if (flags & ~(AT_SYMLINK_FOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	int err = getname(uold, &oldpath);
	if (err)
		return err;
	err = getname(unew, &newpath);
	if (!err) {
		err = do_linkat(olddirfd, oldpath, newdirfd, newpath, flags);
		putname(newpath);
	}
	putname(oldpath);
	return err;
}

SYSCALL2(link, const char __user *, oldpath, const char __user *, newpath)
{
	return linkat_user(AT_FDCWD, oldpath, AT_FDCWD, newpath, 0);
}

SYSCALL5(linkat, int, olddirfd, const char __user *, oldpath, int, newdirfd, const char __user *,
	 newpath, int, flags)
{
	return linkat_user(olddirfd, oldpath, newdirfd, newpath, flags);
}
