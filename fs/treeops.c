/*
 * treeops.c - the calls that change the tree of names: creating entries
 * (for open's O_CREAT and O_TMPFILE, mkdir, device nodes), mkdir(at),
 * rmdir, unlink(at) and rename(at) and renameat2's exchange, with Linux's
 * checks and errors.
 *
 * Each change takes write and search permission on the directories it
 * changes (may_create, may_delete: fs/permission.c) and locks them. A rename also takes
 * rename_lock first, so that no other rename can reshape the tree while it
 * checks ancestry (moving a directory into itself: EINVAL) and locks two
 * directories; it locks an ancestor before its descendant, the same order
 * rmdir uses (parent, then the victim), so the two cannot deadlock.
 * Not here: what a file system does for each (its inode_operations).
 */
#include "fs/notify.h"
#include "fs/vfs.h"
#include "uapi/errno.h"
#include "uapi/rename.h"
#include "kernel/syscall/syscall.h"
#include "kernel/landlock/landlock.h"
#include "kernel/process/cred.h"
#include "kernel/lib/vsprintf.h"

static struct mutex rename_lock = MUTEX_INIT(rename_lock, "rename");

int
vfs_create(struct dentry *dir, const char *name, size_t len, u32 mode, bool excl,
	   struct dentry **out, bool *created)
{
	struct inode *di = dir->inode;

	mutex_lock(&di->lock);
	int err = lookup_child(dir, name, len, out);
	if (!err && excl) {
		dput(*out);
		err = -EEXIST;
	} else if (err == -ENOENT && !di->dead) {
		err = sb_may_write(di);
		if (!err)
			err = landlock_may_make(dir, mode);
		if (!err)
			err = may_create(di);
		if (!err && di->iops->create) {
			err = di->iops->create(dir, name, len, mode, out);
			if (!err)
				notify_create(dir, (struct notify_name){ name, len },
					      (*out)->inode);
			if (!err && created)
				*created = true;
		} else if (!err)
			err = S_ISDIR(mode) ? -EPERM : -EACCES; /* as Linux, e.g. in /proc */
	}
	mutex_unlock(&di->lock);
	return err;
}

int
vfs_create_unnamed(struct dentry *dir, u32 mode, struct dentry **out)
{
	static u64 serial;
	struct inode *di = dir->inode;
	char name[24];
	int err;

	if (!di->iops->create || !di->iops->unlink)
		return -EOPNOTSUPP;
	mutex_lock(&di->lock);
	/* A fresh name that nobody can see: it is gone again before the lock is. */
	for (;;) {
		int len =
			ksnprintf(name, sizeof(name), "#%lu",
				  (unsigned long)__atomic_add_fetch(&serial, 1, __ATOMIC_RELAXED));
		err = lookup_child(dir, name, (size_t)len, out);
		if (err == 0) {
			dput(*out); /* a user's file has that name: try the next */
			continue;
		}
		if (err == -ENOENT && !di->dead)
			err = di->iops->create(dir, name, (size_t)len, mode, out);
		break;
	}
	if (!err) {
		err = di->iops->unlink(dir, *out);
		if (err)
			dput(*out);
	}
	mutex_unlock(&di->lock);
	return err;
}

int
vfs_mkdirat(int dirfd, const char *path, u32 mode)
{
	struct nameparent np;
	struct dentry *d;
	int err = path_parent(dirfd, path, &np);

	if (err)
		return err;
	if (np.type != LAST_NORM)
		err = -EEXIST; /* ".", ".." and "/" all exist */
	else
		err = vfs_create(np.dir, np.last, np.len, S_IFDIR | (mode & 01777), true, &d, NULL);
	if (!err)
		dput(d);
	dput(np.dir);
	return err;
}

/* Why name's last component cannot be removed, if it is ".", ".." or "/". */
static int
remove_special(const struct nameparent *np, bool rmdir)
{
	switch (np->type) {
	case LAST_DOT:
		return rmdir ? -EINVAL : -EISDIR;
	case LAST_DOTDOT:
		return rmdir ? -ENOTEMPTY : -EISDIR;
	case LAST_ROOT:
		return rmdir ? -EBUSY : -EISDIR;
	default:
		return 0;
	}
}

/* Whether victim may go by rmdir (a directory) or unlink (anything else). */
static int
remove_check(const struct nameparent *np, struct dentry *victim, bool rmdir)
{
	bool isdir = S_ISDIR(victim->inode->mode);

	if (rmdir && !isdir)
		return -ENOTDIR;
	if (rmdir && victim->mounted)
		return -EBUSY;
	if (!rmdir && isdir)
		return -EISDIR;
	if (!rmdir && np->trailing_slash)
		return -ENOTDIR;
	return 0;
}

static int
do_remove(int dirfd, const char *path, bool rmdir)
{
	struct nameparent np;
	struct dentry *victim;
	int err = path_parent(dirfd, path, &np);

	if (err)
		return err;
	err = remove_special(&np, rmdir);
	if (!err)
		err = sb_may_write(np.dir->inode);
	if (!err) {
		struct inode *di = np.dir->inode;
		mutex_lock(&di->lock);
		err = lookup_child(np.dir, np.last, np.len, &victim);
		if (!err) {
			err = landlock_may_remove(np.dir, rmdir);
			if (!err)
				err = may_delete(di, victim->inode);
			if (!err)
				err = remove_check(&np, victim, rmdir);
			if (!err)
				err = di->iops->unlink ? di->iops->unlink(np.dir, victim) : -EPERM;
			if (!err)
				notify_delete(np.dir, (struct notify_name){ np.last, np.len },
					      victim);
			dput(victim);
		}
		mutex_unlock(&di->lock);
	}
	dput(np.dir);
	return err;
}

int
vfs_unlinkat(int dirfd, const char *path)
{
	return do_remove(dirfd, path, false);
}

/* ---- rename -------------------------------------------------------------- */

/* Locks two directories, an ancestor before its descendant. */
static void
lock_two(struct dentry *a, struct dentry *b)
{
	if (a == b) {
		mutex_lock(&a->inode->lock);
	} else if (dentry_is_ancestor(a, b)) {
		mutex_lock(&a->inode->lock);
		mutex_lock(&b->inode->lock);
	} else {
		mutex_lock(&b->inode->lock);
		mutex_lock(&a->inode->lock);
	}
}

static void
unlock_two(struct dentry *a, struct dentry *b)
{
	mutex_unlock(&a->inode->lock);
	if (a != b)
		mutex_unlock(&b->inode->lock);
}

/*
 * The old name goes and the new one comes or is replaced; a directory
 * moving to another parent also needs writing itself (its ".."). An
 * exchange moves the target the other way, with the same checks.
 */
static int
rename_permission(const struct nameparent *op, const struct nameparent *np, struct dentry *old,
		  struct dentry *target, bool exchange)
{
	int err = may_delete(op->dir->inode, old->inode);

	if (!err)
		err = target ? may_delete(np->dir->inode, target->inode)
			     : may_create(np->dir->inode);
	if (!err && S_ISDIR(old->inode->mode) && op->dir != np->dir)
		err = inode_permission(old->inode, MAY_WRITE);
	if (!err && exchange && S_ISDIR(target->inode->mode) && op->dir != np->dir)
		err = inode_permission(target->inode, MAY_WRITE);
	if (!err)
		err = landlock_may_rename(op->dir, old, np->dir, target, exchange);
	return err;
}

/* What renameat2's flags ask of the target: Linux's errors, in its order. */
static int
rename_flags_check(const struct nameparent *np, struct dentry *target, unsigned flags)
{
	if ((flags & RENAME_NOREPLACE) && target)
		return -EEXIST;
	if (!(flags & RENAME_EXCHANGE))
		return 0;
	if (!target)
		return -ENOENT;
	if (np->trailing_slash && !S_ISDIR(target->inode->mode))
		return -ENOTDIR;
	return 0;
}

/* Linux's checks of rename(2) and renameat2(2), in its order; target may be NULL. */
static int
rename_check(const struct nameparent *op, const struct nameparent *np, struct dentry *old,
	     struct dentry *target, unsigned flags)
{
	bool isdir = S_ISDIR(old->inode->mode), exchange = flags & RENAME_EXCHANGE;
	int err = rename_flags_check(np, target, flags);

	if (err)
		return err;
	if (!isdir && (op->trailing_slash || (!exchange && np->trailing_slash)))
		return -ENOTDIR;
	if (isdir && dentry_is_ancestor(old, np->dir))
		return -EINVAL; /* into itself */
	if (target && dentry_is_ancestor(target, op->dir))
		return exchange ? -EINVAL : -ENOTEMPTY; /* over (or into) its own ancestor */
	err = rename_permission(op, np, old, target, exchange);
	if (err)
		return err;
	if (!exchange && target && isdir && !S_ISDIR(target->inode->mode))
		return -ENOTDIR;
	if (!exchange && target && !isdir && S_ISDIR(target->inode->mode))
		return -EISDIR;
	if (old->mounted || (target && target->mounted))
		return -EBUSY;
	if (!op->dir->inode->iops->rename)
		return -EPERM;
	/* Whiteouts are overlayfs's marks: no file system here makes them. */
	if ((flags & RENAME_WHITEOUT) || (exchange && !op->dir->inode->iops->exchange))
		return -EINVAL;
	return 0;
}

/* Performs a checked rename or exchange, and tells the watchers. */
static int
rename_apply(const struct nameparent *op, const struct nameparent *np, struct dentry *old,
	     struct dentry *target, unsigned flags)
{
	struct dentry *olddir = op->dir, *newdir = np->dir;
	struct notify_name oldname = { op->last, op->len }, newname = { np->last, np->len };
	int err;

	if (flags & RENAME_EXCHANGE) {
		err = olddir->inode->iops->exchange(olddir, old, newdir, target);
		if (!err) {
			notify_move(olddir, oldname, newdir, newname, old->inode, NULL);
			notify_move(newdir, newname, olddir, oldname, target->inode, NULL);
		}
		return err;
	}
	err = olddir->inode->iops->rename(olddir, old, newdir, np->last, np->len, target);
	if (!err)
		notify_move(olddir, oldname, newdir, newname, old->inode,
			    target ? target->inode : NULL);
	return err;
}

/* With rename_lock held: both directories are locked here. */
static int
rename_locked(const struct nameparent *op, const struct nameparent *np, unsigned flags)
{
	struct dentry *olddir = op->dir, *newdir = np->dir, *old, *target = NULL;

	lock_two(olddir, newdir);
	int err = lookup_child(olddir, op->last, op->len, &old);
	if (!err) {
		err = lookup_child(newdir, np->last, np->len, &target);
		if (err == -ENOENT && !newdir->inode->dead)
			err = 0;
		if (!err)
			err = rename_check(op, np, old, target, flags);
		/* The same file (or two hard links of it): nothing to do, as Linux. */
		if (!err && (!target || old->inode != target->inode))
			err = rename_apply(op, np, old, target, flags);
		if (target)
			dput(target);
		dput(old);
	}
	unlock_two(olddir, newdir);
	return err;
}

static int
do_renameat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned flags)
{
	struct nameparent op, np;
	int err = path_parent(olddirfd, oldpath, &op);

	if (err)
		return err;
	err = path_parent(newdirfd, newpath, &np);
	if (err) {
		dput(op.dir);
		return err;
	}
	if (op.dir->inode->sb != np.dir->inode->sb) {
		err = -EXDEV; /* another file system, or another instance of one */
	} else if (op.type != LAST_NORM) {
		err = -EBUSY;
	} else if (np.type != LAST_NORM) {
		err = flags & RENAME_NOREPLACE ? -EEXIST : -EBUSY; /* "." and ".." exist */
	} else {
		err = sb_may_write(op.dir->inode);
	}
	if (!err) {
		mutex_lock(&rename_lock);
		err = rename_locked(&op, &np, flags);
		mutex_unlock(&rename_lock);
	}
	dput(np.dir);
	dput(op.dir);
	return err;
}

/* ---- the system calls ------------------------------------------------------ */

static long
mkdirat_user(int dirfd, const char __user *upath, u32 mode)
{
	char *path;
	int err = getname(upath, &path);

	if (err)
		return err;
	err = vfs_mkdirat(dirfd, path, mode & ~current_umask());
	putname(path);
	return err;
}

SYSCALL2(mkdir, const char __user *, path, u32, mode)
{
	return mkdirat_user(AT_FDCWD, path, mode);
}

SYSCALL3(mkdirat, int, dirfd, const char __user *, path, u32, mode)
{
	return mkdirat_user(dirfd, path, mode);
}

static long
remove_user(int dirfd, const char __user *upath, bool rmdir)
{
	char *path;
	int err = getname(upath, &path);

	if (err)
		return err;
	err = do_remove(dirfd, path, rmdir);
	putname(path);
	return err;
}

SYSCALL1(rmdir, const char __user *, path)
{
	return remove_user(AT_FDCWD, path, true);
}

SYSCALL1(unlink, const char __user *, path)
{
	return remove_user(AT_FDCWD, path, false);
}

SYSCALL3(unlinkat, int, dirfd, const char __user *, path, int, flags)
{
	if (flags & ~AT_REMOVEDIR)
		return -EINVAL;
	return remove_user(dirfd, path, flags & AT_REMOVEDIR);
}

static long
renameat_user(int olddirfd, const char __user *uold, int newdirfd, const char __user *unew,
	      unsigned flags)
{
	char *oldpath, *newpath;
	int err = getname(uold, &oldpath);

	if (err)
		return err;
	err = getname(unew, &newpath);
	if (!err) {
		err = do_renameat(olddirfd, oldpath, newdirfd, newpath, flags);
		putname(newpath);
	}
	putname(oldpath);
	return err;
}

SYSCALL2(rename, const char __user *, oldpath, const char __user *, newpath)
{
	return renameat_user(AT_FDCWD, oldpath, AT_FDCWD, newpath, 0);
}

SYSCALL4(renameat, int, olddirfd, const char __user *, oldpath, int, newdirfd, const char __user *,
	 newpath)
{
	return renameat_user(olddirfd, oldpath, newdirfd, newpath, 0);
}

/* rename with flags: RENAME_NOREPLACE, RENAME_EXCHANGE (RENAME_WHITEOUT: EINVAL, none made here). */
SYSCALL5(renameat2, int, olddirfd, const char __user *, oldpath, int, newdirfd, const char __user *,
	 newpath, unsigned, flags)
{
	if (flags & ~(RENAME_NOREPLACE | RENAME_EXCHANGE | RENAME_WHITEOUT))
		return -EINVAL;
	if ((flags & (RENAME_NOREPLACE | RENAME_WHITEOUT)) && (flags & RENAME_EXCHANGE))
		return -EINVAL;
	if ((flags & RENAME_WHITEOUT) && !capable(CAP_MKNOD))
		return -EPERM;
	return renameat_user(olddirfd, oldpath, newdirfd, newpath, flags);
}
