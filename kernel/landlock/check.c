/*
 * check.c - whether Landlock lets the current process reach a file: the
 * questions Linux 6.1's Landlock hooks ask (security/landlock/fs.c),
 * called from the file-system calls (fs/file.c, fs/treeops.c,
 * fs/links.c, fs/attr.c, fs/fhandle.c).
 *
 * Every layer of the domain (ruleset.c) must allow the rights asked that
 * it handles; a right it does not handle it leaves alone. A layer allows
 * a right at a file when one of its rules grants it on the file itself or
 * on one of the directories above it, up to the root of everything
 * (across mounts and above a chroot, as Linux walks). Opening reads
 * (READ_FILE, or READ_DIR for a directory) and writes (WRITE_FILE);
 * execve executes and reads; making and removing a name ask for the kind
 * of file on the directory it is in. Linking or renaming into another
 * directory also asks REFER of both directories in every layer (a layer
 * that does not handle REFER forbids it: -EXDEV), and the file must not
 * gain at its new place a right its old place denied it.
 */
#include "fs/vfs.h"
#include "kernel/landlock/landlock.h"
#include "kernel/lib/string.h"
#include "uapi/errno.h"
#include "uapi/fcntl.h"

/*
 * What each layer of dom allows at d (by level): the rights of its rules
 * on d and on every directory above it.
 */
static void
allowed_at(const struct landlock_domain *dom, struct dentry *d, u16 allowed[LANDLOCK_MAX_LAYERS])
{
	memset(allowed, 0, LANDLOCK_MAX_LAYERS * sizeof(allowed[0]));
	dget(d);
	for (;;) {
		for (const struct landlock_domain *l = dom; l; l = l->parent)
			allowed[l->level] |= landlock_rule_access(l->rules, l->nrules, d->inode);
		struct dentry *parent = dget_parent(d);
		dput(d);
		if (parent == d) {
			dput(parent);
			return;
		}
		d = parent;
	}
}

/* Whether every layer of dom that handles a right of want allows it where allowed[] says. */
static bool
layers_allow(const struct landlock_domain *dom, const u16 allowed[LANDLOCK_MAX_LAYERS], u16 want)
{
	for (const struct landlock_domain *l = dom; l; l = l->parent)
		if (want & l->handled & ~allowed[l->level])
			return false;
	return true;
}

static bool
some_layer_handles(const struct landlock_domain *dom, u16 want)
{
	for (const struct landlock_domain *l = dom; l; l = l->parent)
		if (want & l->handled)
			return true;
	return false;
}

/* Whether the current process may have the rights want at d: 0 or -EACCES. */
static int
check_access(struct dentry *d, u16 want)
{
	struct landlock_domain *dom = want ? landlock_current_domain() : NULL;
	u16 allowed[LANDLOCK_MAX_LAYERS];
	int err = 0;

	if (dom && some_layer_handles(dom, want)) {
		allowed_at(dom, d, allowed);
		if (!layers_allow(dom, allowed, want))
			err = -EACCES;
	}
	landlock_domain_put(dom);
	return err;
}

/* The right to make a file of mode's type. */
static u16
make_access(u32 mode)
{
	switch (mode & S_IFMT) {
	case S_IFDIR:
		return LANDLOCK_ACCESS_FS_MAKE_DIR;
	case S_IFCHR:
		return LANDLOCK_ACCESS_FS_MAKE_CHAR;
	case S_IFBLK:
		return LANDLOCK_ACCESS_FS_MAKE_BLOCK;
	case S_IFIFO:
		return LANDLOCK_ACCESS_FS_MAKE_FIFO;
	case S_IFSOCK:
		return LANDLOCK_ACCESS_FS_MAKE_SOCK;
	case S_IFLNK:
		return LANDLOCK_ACCESS_FS_MAKE_SYM;
	default:
		return LANDLOCK_ACCESS_FS_MAKE_REG;
	}
}

/* The right to remove the name of a file of mode's type. */
static u16
remove_access(u32 mode)
{
	return S_ISDIR(mode) ? LANDLOCK_ACCESS_FS_REMOVE_DIR : LANDLOCK_ACCESS_FS_REMOVE_FILE;
}

int
landlock_may_open(struct dentry *d, u32 flags)
{
	u32 accmode = flags & O_ACCMODE;
	u16 want = 0;

	if (flags & O_PATH)
		return 0;
	if (accmode == O_RDONLY || accmode == O_RDWR)
		want |= S_ISDIR(d->inode->mode) ? LANDLOCK_ACCESS_FS_READ_DIR
						: LANDLOCK_ACCESS_FS_READ_FILE;
	if (accmode == O_WRONLY || accmode == O_RDWR)
		want |= LANDLOCK_ACCESS_FS_WRITE_FILE;
	return check_access(d, want);
}

int
landlock_may_exec(struct dentry *d)
{
	return check_access(d, LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE);
}

int
landlock_may_make(struct dentry *dir, u32 mode)
{
	return check_access(dir, make_access(mode));
}

int
landlock_may_remove(struct dentry *dir, bool rmdir)
{
	return check_access(dir,
			    rmdir ? LANDLOCK_ACCESS_FS_REMOVE_DIR : LANDLOCK_ACCESS_FS_REMOVE_FILE);
}

/*
 * Whether every layer lets child move from where it allows from[] to
 * where it allows to[]: REFER at both, and no right at the destination
 * that the source denied, but for the child's own rules, which go with it
 * (for a file that is not a directory only a file's rights count).
 */
static bool
may_reparent(const struct landlock_domain *dom, const u16 from[LANDLOCK_MAX_LAYERS],
	     const u16 to[LANDLOCK_MAX_LAYERS], struct dentry *child)
{
	u16 rights = S_ISDIR(child->inode->mode) ? LANDLOCK_MASK_ACCESS_FS : LANDLOCK_ACCESS_FILE;

	for (const struct landlock_domain *l = dom; l; l = l->parent) {
		u16 own = landlock_rule_access(l->rules, l->nrules, child->inode);
		if (!(from[l->level] & to[l->level] & LANDLOCK_ACCESS_FS_REFER))
			return false;
		if (to[l->level] & l->handled & rights & ~(from[l->level] | own))
			return false;
	}
	return true;
}

/*
 * Linux's current_check_refer_path: old, in olddir, gets a name in
 * newdir, which asks want_old of olddir and want_new of newdir; back, if
 * not NULL, moves the other way (an exchange). In one directory only the
 * rights are asked; between two, -EACCES for a right denied comes before
 * -EXDEV for a reparenting denied.
 */
static int
check_refer(struct dentry *olddir, struct dentry *old, u16 want_old, struct dentry *newdir,
	    u16 want_new, struct dentry *back)
{
	u16 allowed_old[LANDLOCK_MAX_LAYERS], allowed_new[LANDLOCK_MAX_LAYERS];

	if (olddir == newdir)
		return check_access(newdir, want_old | want_new);
	struct landlock_domain *dom = landlock_current_domain();
	if (!dom)
		return 0;
	allowed_at(dom, olddir, allowed_old);
	allowed_at(dom, newdir, allowed_new);
	int err = 0;
	if (!layers_allow(dom, allowed_old, want_old) || !layers_allow(dom, allowed_new, want_new))
		err = -EACCES;
	else if (!may_reparent(dom, allowed_old, allowed_new, old) ||
		 (back && !may_reparent(dom, allowed_new, allowed_old, back)))
		err = -EXDEV;
	landlock_domain_put(dom);
	return err;
}

int
landlock_may_link(struct dentry *old, struct dentry *newdir)
{
	struct dentry *olddir = dget_parent(old);
	int err = check_refer(olddir, old, 0, newdir, make_access(old->inode->mode), NULL);

	dput(olddir);
	return err;
}

int
landlock_may_rename(struct dentry *olddir, struct dentry *old, struct dentry *newdir,
		    struct dentry *target, bool exchange)
{
	u32 old_mode = old->inode->mode;
	u16 want_old = remove_access(old_mode), want_new = make_access(old_mode);

	if (target)
		want_new |= remove_access(target->inode->mode);
	if (exchange)
		want_old |= make_access(target->inode->mode);
	return check_refer(olddir, old, want_old, newdir, want_new, exchange ? target : NULL);
}
