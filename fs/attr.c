/*
 * attr.c - changing an inode's metadata: chmod, fchmod, fchmodat; chown,
 * fchown, lchown, fchownat; utimensat, futimesat, utimes, utime; and
 * mknod/mknodat, which makes FIFOs (and regular files) by name.
 *
 * Who may (Linux's setattr_prepare): root changes anything. Otherwise
 * only the file's owner changes its mode (losing set-group-ID unless the
 * file's group is one it is in) or sets explicit times; the owner may give the
 * file a group it is in but never another owner; setting the times to "now"
 * also takes only write permission by the mode bits. Others get EPERM
 * (EACCES for "now"). What each call then does as Linux's notify_change: chmod keeps the type bits and sets the 07777 ones; chown
 * of anything but a directory clears set-user-ID, and set-group-ID when
 * the group may execute; every change stamps ctime. Times accept
 * UTIME_NOW and UTIME_OMIT, and a NULL array means "now" for both.
 *
 * procfs makes its inodes afresh at each lookup, so a change could not
 * stick: it refuses them with EPERM (Linux's proc_setattr does for the
 * process directories). On a read-only mount every change is EROFS.
 *
 * Not here: the path walk (fs/namei.c, which decides what
 * AT_SYMLINK_NOFOLLOW means) and the FIFO itself (fs/pipe.c).
 */
#include "fs/notify.h"
#include "fs/vfs.h"
#include "uapi/errno.h"
#include "uapi/time.h"
#include "uapi/utime.h"
#include "kernel/syscall/syscall.h"
#include "kernel/process/cred.h"
#include "kernel/time/time64.h"

static int
may_change(struct inode *inode)
{
	int err = sb_may_write(inode);

	return err ? err : inode->sb->type == &procfs_type ? -EPERM : 0;
}

/* ---- chmod --------------------------------------------------------------------- */

static int
inode_chmod(struct inode *inode, u32 mode)
{
	int err = may_change(inode);

	if (err)
		return err;
	if (!inode_owner_or_root(inode))
		return -EPERM;
	mutex_lock(&inode->lock);
	/* Set-group-ID only for a group the caller is in (or for root: CAP_FSETID). */
	if (!capable(CAP_FSETID) && !in_group_p(inode->gid))
		mode &= ~S_ISGID;
	WRITE_ONCE(inode->mode, (inode->mode & S_IFMT) | (mode & S_IALLUGO));
	inode->ctime = fs_now();
	mutex_unlock(&inode->lock);
	return IN_ATTRIB;
}

/*
 * Each change below is a function on the inode that returns -errno, or
 * the inotify event its change makes (0: none), which the callers tell
 * through the name it was reached by: the directory's watches and
 * F_NOTIFY requests hear it too, as Linux's fsnotify_change.
 */
typedef int (*change_fn)(struct inode *inode, void *arg);

static int
change_and_notify(struct inode *inode, struct dentry *d, change_fn fn, void *arg)
{
	int ret = fn(inode, arg);

	if (ret > 0)
		notify_change(inode, d, (u32)ret);
	return ret < 0 ? ret : 0;
}

/* The file at path (followed unless at_flags has AT_SYMLINK_NOFOLLOW), then fn on it. */
static long
path_change(int dirfd, const char __user *path, int at_flags, change_fn fn, void *arg)
{
	char *kpath;
	struct dentry *d;
	int err = getname(path, &kpath);

	if (err)
		return err;
	if (!*kpath && (at_flags & AT_EMPTY_PATH)) { /* the fd's file itself: a pipe has no name */
		struct inode *inode;
		err = lookup_inode_at(dirfd, kpath, at_flags, &inode);
		if (!err) {
			err = change_and_notify(inode, NULL, fn, arg);
			inode_put(inode);
		}
	} else {
		err = lookup_dentry_at(dirfd, kpath, at_flags, !(at_flags & AT_SYMLINK_NOFOLLOW),
				       &d);
		if (!err) {
			err = change_and_notify(d->inode, d, fn, arg);
			dput(d);
		}
	}
	putname(kpath);
	return err;
}

/* fn on fd's file: an O_PATH descriptor is EBADF, as Linux's fdget. */
static long
fd_change(int fd, change_fn fn, void *arg)
{
	struct file *f = fd_get(fd);

	if (!f)
		return -EBADF;
	int err = change_and_notify(f->inode, f->dentry, fn, arg);
	file_put(f);
	return err;
}

static int
chmod_fn(struct inode *inode, void *arg)
{
	return inode_chmod(inode, *(u32 *)arg);
}

SYSCALL2(chmod, const char __user *, path, u32, mode)
{
	return path_change(AT_FDCWD, path, 0, chmod_fn, &mode);
}

/* Linux 6.1's fchmodat has no flags argument (fchmodat2 came in 6.6). */
SYSCALL3(fchmodat, int, dirfd, const char __user *, path, u32, mode)
{
	return path_change(dirfd, path, 0, chmod_fn, &mode);
}

SYSCALL2(fchmod, int, fd, u32, mode)
{
	return fd_change(fd, chmod_fn, &mode);
}

/* ---- chown --------------------------------------------------------------------- */

struct owner {
	u32 uid, gid; /* (u32)-1: leave it */
};

/* Linux's chown_ok and chgrp_ok: only root gives a file away; its owner may pick a group it is in. */
static bool
may_chown(const struct inode *inode, const struct owner *o)
{
	bool owner = inode->uid == current_fsuid();

	if (capable(CAP_CHOWN))
		return true;
	return (o->uid == (u32)-1 || (owner && o->uid == inode->uid)) &&
	       (o->gid == (u32)-1 || (owner && (o->gid == inode->gid || in_group_p(o->gid))));
}

static int
chown_fn(struct inode *inode, void *arg)
{
	struct owner *o = arg;
	int err = may_change(inode);

	if (err)
		return err;
	mutex_lock(&inode->lock);
	if (!may_chown(inode, o)) {
		mutex_unlock(&inode->lock);
		return -EPERM;
	}
	if (o->uid != (u32)-1)
		WRITE_ONCE(inode->uid, o->uid);
	if (o->gid != (u32)-1)
		WRITE_ONCE(inode->gid, o->gid);
	u32 mode = inode->mode;
	if (!S_ISDIR(mode)) { /* so that a chown never hands over a set-ID program */
		mode &= ~S_ISUID;
		if (mode & S_IXGRP)
			mode &= ~S_ISGID;
		WRITE_ONCE(inode->mode, mode);
	}
	inode->ctime = fs_now();
	mutex_unlock(&inode->lock);
	return IN_ATTRIB;
}

SYSCALL3(chown, const char __user *, path, u32, uid, u32, gid)
{
	return path_change(AT_FDCWD, path, 0, chown_fn, &(struct owner){ uid, gid });
}

SYSCALL3(lchown, const char __user *, path, u32, uid, u32, gid)
{
	return path_change(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, chown_fn,
			   &(struct owner){ uid, gid });
}

SYSCALL5(fchownat, int, dirfd, const char __user *, path, u32, uid, u32, gid, int, flags)
{
	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	return path_change(dirfd, path, flags, chown_fn, &(struct owner){ uid, gid });
}

SYSCALL3(fchown, int, fd, u32, uid, u32, gid)
{
	return fd_change(fd, chown_fn, &(struct owner){ uid, gid });
}

/* ---- times --------------------------------------------------------------------- */

/* The new atime and mtime: NULL is now for both; tv_nsec may be UTIME_NOW or UTIME_OMIT. */
static int
times_fn(struct inode *inode, void *arg)
{
	const struct kernel_timespec *ts = arg;
	bool only_now = !ts || (ts[0].tv_nsec == UTIME_NOW && ts[1].tv_nsec == UTIME_NOW);
	int err = may_change(inode);

	if (err)
		return err;
	if (!inode_owner_or_root(inode)) {
		if (!only_now)
			return -EPERM;
		err = inode_permission(inode, MAY_WRITE);
		if (err)
			return err;
	}
	struct fs_time now = fs_now();
	struct fs_time *field[2] = { &inode->atime, &inode->mtime };
	bool set[2] = { false, false };
	mutex_lock(&inode->lock);
	for (int i = 0; i < 2; i++) {
		set[i] = !ts || ts[i].tv_nsec != UTIME_OMIT;
		if (!ts || ts[i].tv_nsec == UTIME_NOW)
			*field[i] = now;
		else if (set[i])
			*field[i] = (struct fs_time){ ts[i].tv_sec, ts[i].tv_nsec };
	}
	inode->ctime = now;
	mutex_unlock(&inode->lock);
	/* As Linux's fsnotify_change: both times are a utime call, one alone an access or a change. */
	return set[0] && set[1] ? IN_ATTRIB : set[0] ? IN_ACCESS : set[1] ? IN_MODIFY : 0;
}

static bool
nsec_valid(long nsec)
{
	return (nsec >= 0 && nsec < NSEC_PER_SEC) || nsec == UTIME_NOW || nsec == UTIME_OMIT;
}

/*
 * Linux's do_utimes: a NULL path with a real dirfd changes that file
 * (utimensat's extension, which futimens uses), taking no flags.
 */
static long
do_utimes(int dirfd, const char __user *path, struct kernel_timespec *ts, int flags)
{
	if (ts && (!nsec_valid(ts[0].tv_nsec) || !nsec_valid(ts[1].tv_nsec)))
		return -EINVAL;
	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	if (!path && dirfd != AT_FDCWD) {
		if (flags)
			return -EINVAL;
		return fd_change(dirfd, times_fn, ts);
	}
	return path_change(dirfd, path, flags, times_fn, ts);
}

SYSCALL4(utimensat, int, dirfd, const char __user *, path, const struct kernel_timespec __user *,
	 times, int, flags)
{
	struct kernel_timespec ts[2];

	if (times) {
		if (copy_from_user(ts, times, sizeof(ts)))
			return -EFAULT;
		if (ts[0].tv_nsec == UTIME_OMIT && ts[1].tv_nsec == UTIME_OMIT)
			return 0; /* nothing to change, not even ctime: Linux does not look the path up */
	}
	return do_utimes(dirfd, path, times ? ts : NULL, flags);
}

/* futimesat and utimes take microseconds, which must be below a second. */
static long
do_futimesat(int dirfd, const char __user *path, const struct kernel_timeval __user *utv)
{
	struct kernel_timeval tv[2];
	struct kernel_timespec ts[2];

	if (!utv)
		return do_utimes(dirfd, path, NULL, 0);
	if (copy_from_user(tv, utv, sizeof(tv)))
		return -EFAULT;
	for (int i = 0; i < 2; i++) {
		if (tv[i].tv_usec < 0 || tv[i].tv_usec >= 1000000)
			return -EINVAL;
		ts[i] = (struct kernel_timespec){ tv[i].tv_sec, tv[i].tv_usec * 1000 };
	}
	return do_utimes(dirfd, path, ts, 0);
}

SYSCALL3(futimesat, int, dirfd, const char __user *, path, const struct kernel_timeval __user *,
	 times)
{
	return do_futimesat(dirfd, path, times);
}

SYSCALL2(utimes, const char __user *, path, const struct kernel_timeval __user *, times)
{
	return do_futimesat(AT_FDCWD, path, times);
}

SYSCALL2(utime, const char __user *, path, const struct kernel_utimbuf __user *, times)
{
	struct kernel_utimbuf ub;
	struct kernel_timespec ts[2];

	if (!times)
		return do_utimes(AT_FDCWD, path, NULL, 0);
	if (copy_from_user(&ub, times, sizeof(ub)))
		return -EFAULT;
	ts[0] = (struct kernel_timespec){ ub.actime, 0 };
	ts[1] = (struct kernel_timespec){ ub.modtime, 0 };
	return do_utimes(AT_FDCWD, path, ts, 0);
}

/* ---- mknod ----------------------------------------------------------------------- */

/*
 * The name made, with the umask applied; a device node gets its number and
 * only CAP_MKNOD may make one (checked once the name is known free, as
 * Linux's vfs_mknod), whose opens then reach the driver of that number
 * (fs/devfs.c).
 */
static int
mknod_in(struct nameparent *np, u32 mode, u32 dev)
{
	struct dentry *d;
	bool device = S_ISCHR(mode) || S_ISBLK(mode);

	if (np->type != LAST_NORM)
		return -EEXIST; /* ".", ".." and "/" all exist */
	if (np->trailing_slash)
		return -ENOENT; /* "name/" must be a directory, which this is not */
	mutex_lock(&np->dir->inode->lock);
	int err = lookup_child(np->dir, np->last, np->len, &d);
	mutex_unlock(&np->dir->inode->lock);
	if (!err) {
		dput(d);
		return -EEXIST;
	}
	err = may_create(np->dir->inode); /* EACCES before EPERM, as Linux */
	if (!err && device && !capable(CAP_MKNOD))
		err = -EPERM;
	if (err)
		return err;
	err = vfs_create(np->dir, np->last, np->len,
			 (mode & S_IFMT) | (mode & S_IALLUGO & ~current_umask()), true, &d, NULL);
	if (err)
		return err;
	if (device) {
		d->inode->rdev = dev;
		devfs_bind_node(d->inode);
	}
	dput(d);
	return 0;
}

/*
 * Linux's may_mknod first (a directory is EPERM, an unknown type EINVAL),
 * then the name. Regular files, FIFOs, socket names (which no socket is
 * bound to: connect finds none) and device nodes are made.
 */
static long
do_mknodat(int dirfd, const char __user *upath, u32 mode, u32 dev)
{
	switch (mode & S_IFMT) {
	case 0:
		mode |= S_IFREG;
		break;
	case S_IFREG:
	case S_IFIFO:
	case S_IFSOCK:
	case S_IFCHR:
	case S_IFBLK:
		break;
	case S_IFDIR:
		return -EPERM;
	default:
		return -EINVAL;
	}
	char *path;
	int err = getname(upath, &path);
	if (err)
		return err;
	struct nameparent np;
	err = path_parent(dirfd, path, &np);
	if (!err) {
		err = mknod_in(&np, mode, dev);
		dput(np.dir);
	}
	putname(path);
	return err;
}

SYSCALL3(mknod, const char __user *, path, u32, mode, u32, dev)
{
	return do_mknodat(AT_FDCWD, path, mode, dev);
}

SYSCALL4(mknodat, int, dirfd, const char __user *, path, u32, mode, u32, dev)
{
	return do_mknodat(dirfd, path, mode, dev);
}
