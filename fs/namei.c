/*
 * namei.c - turning a path into a dentry, as Linux's path walk does:
 * absolute paths start at the process's root, relative ones at its cwd or
 * at the directory open on dirfd (openat and friends); "." stays, ".."
 * goes up (never above the root); repeated and trailing slashes are
 * allowed, a trailing slash demands a directory. Errors are Linux's:
 * ENOENT for a missing component or an empty path, ENOTDIR for a
 * component that is not a directory, ENAMETOOLONG for a component over
 * NAME_MAX bytes or a path over PATH_MAX.
 *
 * Symbolic links are followed as Linux does: every intermediate component
 * always, the last one unless the caller asks not to (lstat, O_NOFOLLOW,
 * AT_SYMLINK_NOFOLLOW; unlink, rmdir and rename work on path_parent and
 * never look at it) but always with a trailing slash. A relative target
 * is walked from the link's directory, an absolute one from the root, and
 * ".." after a link goes up from where the link led (the dentry tree, not
 * the text). One walk follows at most MAXSYMLINKS links in all: ELOOP.
 *
 * A step onto a directory something is mounted on goes on to the root of
 * the top mount there (fs/mount.c); ".." out of a mount's root leads to
 * the parent of the directory it covers, since the root's dentry has that
 * parent.
 *
 * openat2's RESOLVE_* flags narrow a walk (struct walk): no mount
 * crossing (EXDEV), no symbolic or /proc magic links (ELOOP), and scoped
 * walks that may not leave the directory they start in - RESOLVE_BENEATH
 * refuses "/", absolute link targets, magic links and ".." above it
 * (EXDEV), RESOLVE_IN_ROOT takes it for "/" and stays there on "..".
 *
 * Each step locks only the directory it looks in, and holds a reference on
 * the dentry it stands on, so walks run in parallel with each other and
 * with changes elsewhere in the tree. Not here: what to do with the result
 * (open.c, treeops.c); how a directory finds a name (its lookup operation).
 */
#include "fs/vfs.h"
#include "uapi/errno.h"
#include "uapi/mount.h"
#include "uapi/openat2.h"
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

/* The walks kept inside their starting directory. */
#define RESOLVE_SCOPED (RESOLVE_BENEATH | RESOLVE_IN_ROOT)

/* The directory "/" means to this walk: RESOLVE_IN_ROOT's start, else the process's root. */
static struct dentry *
walk_root(const struct walk *w)
{
	return (w->resolve & RESOLVE_IN_ROOT) ? dget(w->root) : current_root();
}

/* A jump to "/" (an absolute path or link target): a scoped RESOLVE_BENEATH walk may not. */
static int
jump_root(const struct walk *w, struct dentry **out)
{
	if (w->resolve & RESOLVE_BENEATH)
		return -EXDEV;
	*out = walk_root(w);
	return 0;
}

/* The directory open on dirfd, or the cwd for AT_FDCWD: referenced. */
static int
dirfd_dentry(int dirfd, struct dentry **out)
{
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

/*
 * Where a path starts: a referenced directory dentry, or -errno. A scoped
 * walk keeps its start in w->root (walk_done drops it), and a walk kept
 * to one file system notes which.
 */
static int
walk_start(int dirfd, const char *path, struct walk *w, struct dentry **out)
{
	int err = 0;

	if (path[0] == '/' && !(w->resolve & RESOLVE_SCOPED)) {
		*out = current_root();
	} else {
		err = dirfd_dentry(dirfd, out);
		if (!err && (w->resolve & RESOLVE_SCOPED)) {
			w->root = dget(*out);
			if (path[0] == '/') {
				dput(*out);
				err = jump_root(w, out);
			}
		}
	}
	if (!err)
		w->sb = (*out)->inode->sb;
	return err;
}

void
walk_done(struct walk *w)
{
	if (w->root)
		dput(w->root);
	w->root = NULL;
}

/*
 * d's parent, except at the process's root, which is its own parent, and
 * at a scoped walk's start: there RESOLVE_IN_ROOT stays, RESOLVE_BENEATH
 * may not go (EXDEV).
 */
static int
dotdot(struct dentry *d, const struct walk *w, struct dentry **out)
{
	if (d == w->root) {
		if (w->resolve & RESOLVE_BENEATH)
			return -EXDEV;
		*out = dget(d);
		return 0;
	}
	struct dentry *root = current_root();
	*out = d == root ? dget(d) : dget_parent(d);
	dput(root);
	return 0;
}

static int walk_parent(struct dentry *start, const char *path, struct nameparent *np,
		       struct walk *w);

/*
 * The child name of directory d (or d itself, or its parent), referenced;
 * d is kept. Every name looked up in d takes search permission on it, "."
 * and ".." too, as Linux's may_lookup.
 */
static int
step(struct dentry *d, const char *name, size_t len, const struct walk *w, struct dentry **next)
{
	enum last_type type = classify(name, len);
	int err = 0;

	if (!S_ISDIR(d->inode->mode))
		return -ENOTDIR;
	if (type != LAST_ROOT)
		err = inode_permission(d->inode, MAY_EXEC);
	if (err)
		return err;
	switch (type) {
	case LAST_ROOT:
	case LAST_DOT:
		*next = dget(d);
		break;
	case LAST_DOTDOT:
		err = dotdot(d, w, next);
		if (!err)
			*next = mount_follow(*next);
		break;
	case LAST_NORM:
		mutex_lock(&d->inode->lock);
		err = lookup_child(d, name, len, next);
		mutex_unlock(&d->inode->lock);
		if (!err)
			*next = mount_follow(*next);
		break;
	}
	return err;
}

/*
 * A link that ends a link's target (a chain: a -> b -> c) is followed in
 * this loop, not by recursion; only a link in the middle of a target
 * (a -> "b/x", b a link) nests, and Linux before 4.2 allowed 8 of those.
 * The kernel stack is 16 KiB: the loop keeps a 40-link chain shallow.
 */
#define MAX_NESTED_LINKS 8

/* A /proc magic link jumps anywhere: RESOLVE_NO_MAGICLINKS refuses it, a scoped walk too. */
static int
magic_link_allowed(const struct walk *w)
{
	if (w->resolve & RESOLVE_NO_MAGICLINKS)
		return -ELOOP;
	return (w->resolve & RESOLVE_SCOPED) ? -EXDEV : 0;
}

int
follow_link(struct dentry *dir, struct dentry *link, struct walk *w, struct dentry **out)
{
	struct nameparent np;
	char *target = kmalloc(PATH_MAX);
	int err = 0;

	if (!target)
		return -ENOMEM;
	if (++w->nested > MAX_NESTED_LINKS)
		err = -ELOOP;
	dir = dget(dir);
	link = dget(link);
	while (!err) {
		const struct inode_operations *iops = link->inode->iops;
		struct dentry *next;
		if (++w->links > MAXSYMLINKS || (w->resolve & RESOLVE_NO_SYMLINKS) ||
		    (READ_ONCE(link->inode->sb->flags) & MS_NOSYMFOLLOW)) {
			err = -ELOOP;
			break;
		}
		if (iops->jump) {
			err = magic_link_allowed(w);
			if (!err)
				err = iops->jump(link, out);
			break;
		}
		long n = iops->readlink(link, target, PATH_MAX);
		err = n < 0 ? (int)n : n >= PATH_MAX ? -ENAMETOOLONG : 0;
		if (err)
			break;
		target[n] = '\0';
		/* Relative targets start in the link's directory; ".." then goes up from there. */
		err = path_parent_of_link(dir, target, w, &np);
		if (err)
			break;
		err = step(np.dir, np.last, np.len, w, &next);
		if (!err && S_ISLNK(next->inode->mode)) {
			dput(dir);
			dput(link);
			dir = np.dir; /* the next link of the chain, in its directory */
			link = next;
			continue;
		}
		dput(np.dir);
		if (!err && np.trailing_slash && !S_ISDIR(next->inode->mode)) {
			dput(next);
			err = -ENOTDIR;
		}
		if (!err)
			*out = next;
		break;
	}
	dput(dir);
	dput(link);
	w->nested--;
	kfree(target);
	return err;
}

/*
 * Moves *cur (referenced) to its child name, following it if it is a
 * symbolic link and follow is set: 0, or -errno with *cur unchanged.
 */
static int
walk_component(struct dentry **cur, const char *name, size_t len, bool follow, struct walk *w)
{
	struct dentry *d = *cur, *next;
	int err = step(d, name, len, w, &next);

	if (err)
		return err;
	if (follow && S_ISLNK(next->inode->mode)) {
		struct dentry *to;
		err = follow_link(d, next, w, &to);
		dput(next);
		if (err)
			return err;
		next = to;
	}
	/* a mount crossed, by a step, "..", or a link */
	if ((w->resolve & RESOLVE_NO_XDEV) && next->inode->sb != w->sb) {
		dput(next);
		return -EXDEV;
	}
	dput(d);
	*cur = next;
	return 0;
}

/* Walks all but the last component of path from start (its reference is taken over). */
static int
walk_parent(struct dentry *start, const char *path, struct nameparent *np, struct walk *w)
{
	struct dentry *cur = start;
	const char *p = path;

	if (!*path) {
		dput(cur);
		return -ENOENT;
	}
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
		int err = walk_component(&cur, name, len, true, w);
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

/* The last component after walk_parent (np->dir's reference is taken over). */
static int
walk_last(struct nameparent *np, bool follow, struct walk *w, struct dentry **out)
{
	struct dentry *d = np->dir;
	/* "link/" names what the link leads to, whatever the caller asked (as Linux). */
	int err = walk_component(&d, np->last, np->len, follow || np->trailing_slash, w);

	if (!err && np->trailing_slash && !S_ISDIR(d->inode->mode))
		err = -ENOTDIR;
	if (err) {
		dput(d);
		return err;
	}
	*out = d;
	return 0;
}

static int
walk_from(struct dentry *start, const char *path, bool follow, struct walk *w, struct dentry **out)
{
	struct nameparent np;
	int err = walk_parent(start, path, &np, w);

	return err ? err : walk_last(&np, follow, w, out);
}

int
path_parent_walk(int dirfd, const char *path, struct nameparent *np, struct walk *w)
{
	struct dentry *start;

	if (!*path)
		return -ENOENT;
	int err = walk_start(dirfd, path, w, &start);
	return err ? err : walk_parent(start, path, np, w);
}

int
path_parent(int dirfd, const char *path, struct nameparent *np)
{
	struct walk w = { 0 };

	return path_parent_walk(dirfd, path, np, &w); /* no resolve flags: no root kept */
}

int
path_parent_of_link(struct dentry *dir, const char *target, struct walk *w, struct nameparent *np)
{
	struct dentry *start = dir;

	if (target[0] == '/') {
		int err = jump_root(w, &start);
		if (err)
			return err;
	} else {
		dget(start);
	}
	return walk_parent(start, target, np, w);
}

int
path_lookup_walk(int dirfd, const char *path, bool follow, struct walk *w, struct dentry **out)
{
	struct dentry *start;

	if (!*path)
		return -ENOENT;
	int err = walk_start(dirfd, path, w, &start);
	return err ? err : walk_from(start, path, follow, w, out);
}

int
path_lookup_at(int dirfd, const char *path, bool follow, struct dentry **out)
{
	struct walk w = { 0 };

	return path_lookup_walk(dirfd, path, follow, &w, out);
}

int
path_lookup(int dirfd, const char *path, struct dentry **out)
{
	return path_lookup_at(dirfd, path, true, out);
}

int
lookup_dentry_at(int dirfd, const char *path, int at_flags, bool follow, struct dentry **out)
{
	if (*path || !(at_flags & AT_EMPTY_PATH))
		return path_lookup_at(dirfd, path, follow, out);
	if (dirfd == AT_FDCWD) {
		*out = current_cwd();
		return 0;
	}
	struct file *f = fd_get_raw(dirfd);
	if (!f)
		return -EBADF;
	int err = f->dentry ? 0 : -ENOENT; /* a pipe has no name to give */
	if (!err)
		*out = dget(f->dentry);
	file_put(f);
	return err;
}

int
lookup_inode_at(int dirfd, const char *path, int at_flags, struct inode **out)
{
	struct dentry *d;

	if (!*path && (at_flags & AT_EMPTY_PATH) && dirfd != AT_FDCWD) {
		struct file *f = fd_get_raw(dirfd); /* any file, a pipe too */
		if (!f)
			return -EBADF;
		*out = inode_get(f->inode);
		file_put(f);
		return 0;
	}
	int err = lookup_dentry_at(dirfd, path, at_flags, !(at_flags & AT_SYMLINK_NOFOLLOW), &d);
	if (err)
		return err;
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
