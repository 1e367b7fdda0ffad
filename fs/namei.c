/*
 * namei.c - turning a path into a dentry, as Linux's path walk does:
 * absolute paths start at the process's root, relative ones at its cwd or
 * at the directory open on dirfd (openat and friends); "." stays, ".."
 * goes up (never above the root); repeated and trailing slashes are
 * allowed, a trailing slash demands a directory. Errors are Linux's:
 * ENOENT for a missing component or an empty path, ENOTDIR for a
 * component that is not a directory, ENAMETOOLONG for a component over
 * NAME_MAX bytes or a path over PATH_MAX. Symbolic links do not exist.
 *
 * Each step locks only the directory it looks in, and holds a reference on
 * the dentry it stands on, so walks run in parallel with each other and
 * with changes elsewhere in the tree. Not here: what to do with the result
 * (open.c, treeops.c); how a directory finds a name (its lookup operation).
 */
#include "fs/vfs.h"
#include "uapi/errno.h"
#include "mm/kmalloc.h"

int
getname(const char __user *upath, char **out)
{
	char *path = kmalloc(PATH_MAX);

	if (!path)
		return -ENOMEM;
	long len = strncpy_from_user(path, upath, PATH_MAX);
	if (len < 0) {
		kfree(path);
		return (int)len;
	}
	*out = path;
	return 0;
}

void
putname(char *name)
{
	kfree(name);
}

int
lookup_child(struct dentry *dir, const char *name, size_t len, struct dentry **out)
{
	struct inode *inode = dir->inode;

	if (len > NAME_MAX)
		return -ENAMETOOLONG;
	if (inode->dead)
		return -ENOENT;
	if (!inode->iops || !inode->iops->lookup)
		return -ENOTDIR;
	return inode->iops->lookup(dir, name, len, out);
}

static enum last_type
classify(const char *name, size_t len)
{
	if (len == 0)
		return LAST_ROOT;
	if (len == 1 && name[0] == '.')
		return LAST_DOT;
	if (len == 2 && name[0] == '.' && name[1] == '.')
		return LAST_DOTDOT;
	return LAST_NORM;
}

/* Where a path starts: a referenced directory dentry, or -errno. */
static int
walk_start(int dirfd, const char *path, struct dentry **out)
{
	if (path[0] == '/') {
		*out = current_root();
		return 0;
	}
	if (dirfd == AT_FDCWD) {
		*out = current_cwd();
		return 0;
	}
	struct file *f = fd_get_raw(dirfd);
	if (!f)
		return -EBADF;
	int err = f->dentry && S_ISDIR(f->inode->mode) ? 0 : -ENOTDIR;
	if (!err)
		*out = dget(f->dentry);
	file_put(f);
	return err;
}

/* d's parent, except at the process's root, which is its own parent. */
static struct dentry *
dotdot(struct dentry *d)
{
	struct dentry *root = current_root();
	struct dentry *up = d == root ? dget(d) : dget_parent(d);

	dput(root);
	return up;
}

/* Moves *cur (referenced) to its child name: 0, or -errno with *cur unchanged. */
static int
walk_component(struct dentry **cur, const char *name, size_t len)
{
	struct dentry *d = *cur, *next;
	int err = 0;

	if (!S_ISDIR(d->inode->mode))
		return -ENOTDIR;
	switch (classify(name, len)) {
	case LAST_ROOT:
	case LAST_DOT:
		return 0;
	case LAST_DOTDOT:
		next = dotdot(d);
		break;
	case LAST_NORM:
		mutex_lock(&d->inode->lock);
		err = lookup_child(d, name, len, &next);
		mutex_unlock(&d->inode->lock);
		break;
	}
	if (err)
		return err;
	dput(d);
	*cur = next;
	return 0;
}

int
path_parent(int dirfd, const char *path, struct nameparent *np)
{
	struct dentry *cur;
	const char *p = path;

	if (!*path)
		return -ENOENT;
	int err = walk_start(dirfd, path, &cur);
	if (err)
		return err;
	for (;;) {
		while (*p == '/')
			p++;
		const char *name = p;
		while (*p && *p != '/')
			p++;
		size_t len = (size_t)(p - name);
		const char *rest = p;
		while (*rest == '/')
			rest++;
		if (!*rest) {
			np->last = name;
			np->len = len;
			np->type = classify(name, len);
			np->trailing_slash = *p == '/';
			break;
		}
		err = walk_component(&cur, name, len);
		if (err) {
			dput(cur);
			return err;
		}
	}
	if (!S_ISDIR(cur->inode->mode)) {
		dput(cur);
		return -ENOTDIR;
	}
	np->dir = cur;
	return 0;
}

int
path_lookup(int dirfd, const char *path, struct dentry **out)
{
	struct nameparent np;
	int err = path_parent(dirfd, path, &np);

	if (err)
		return err;
	struct dentry *d = np.dir;
	err = walk_component(&d, np.last, np.len);
	if (!err && np.trailing_slash && !S_ISDIR(d->inode->mode))
		err = -ENOTDIR;
	if (err) {
		dput(d);
		return err;
	}
	*out = d;
	return 0;
}

int
lookup_inode_at(int dirfd, const char *path, int at_flags, struct inode **out)
{
	struct dentry *d;

	if (*path || !(at_flags & AT_EMPTY_PATH)) {
		int err = path_lookup(dirfd, path, &d);
		if (err)
			return err;
	} else if (dirfd == AT_FDCWD) {
		d = current_cwd();
	} else {
		struct file *f = fd_get_raw(dirfd); /* any file, a pipe too */
		if (!f)
			return -EBADF;
		*out = inode_get(f->inode);
		file_put(f);
		return 0;
	}
	*out = inode_get(d->inode);
	dput(d);
	return 0;
}

int
lookup_user_inode_at(int dirfd, const char __user *upath, int at_flags, struct inode **out)
{
	char *path = NULL;
	int err = getname(upath, &path);

	if (err)
		return err;
	err = lookup_inode_at(dirfd, path, at_flags, out);
	putname(path);
	return err;
}
