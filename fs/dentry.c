/*
 * dentry.c - the tree of names. For ramfs it is the file system itself
 * (there is nothing else to look names up in); for other file systems a
 * dentry is a transient handle made by their lookup.
 *
 * Lifetime: a dentry linked into its parent holds a reference on itself,
 * dropped by dentry_unlink; each child holds its parent; the last dput
 * frees the dentry and drops its inode and parent (iteratively, so a long
 * chain of unlinked directories cannot overflow the kernel stack).
 *
 * dentry_tree_lock guards every dentry's parent and name pointers, so that
 * walks upwards (.., getcwd, /proc/<pid>/maps names) see a consistent
 * chain while a rename moves a subtree. The children lists are guarded by
 * the directory's inode->lock instead, because lookups hold that anyway.
 * Not here: resolving paths (namei.c) or what the names mean (ramfs.c).
 */
#include "fs/vfs.h"
#include "kernel/errno.h"
#include "kernel/panic.h"
#include "kernel/string.h"
#include "mm/kmalloc.h"

static struct spinlock dentry_tree_lock = SPINLOCK_INIT("dentry_tree");

static char *
copy_name(const char *name, size_t len)
{
	char *s = kmalloc(len + 1);

	if (s) {
		memcpy(s, name, len);
		s[len] = '\0';
	}
	return s;
}

static struct dentry *
dentry_new(const char *name, size_t len, struct inode *inode)
{
	struct dentry *d = kzalloc(sizeof(*d));

	if (!d)
		return NULL;
	d->name = copy_name(name, len);
	if (!d->name) {
		kfree(d);
		return NULL;
	}
	d->len = len;
	d->refcount = 1;
	d->inode = inode;
	list_init(&d->children);
	list_init(&d->sibling);
	return d;
}

/* The root: its own parent (holding that reference on itself), so it is never freed. */
struct dentry *
dentry_alloc_root(struct inode *inode)
{
	struct dentry *d = dentry_new("/", 1, inode);

	if (!d) {
		inode_put(inode);
		return NULL;
	}
	d->parent = dget(d);
	d->linked = true;
	return d;
}

struct dentry *
dentry_alloc_child(struct dentry *parent, const char *name, size_t len, struct inode *inode)
{
	struct dentry *d = dentry_new(name, len, inode);

	if (!d) {
		inode_put(inode);
		return NULL;
	}
	d->parent = dget(parent);
	return d;
}

struct dentry *
dget(struct dentry *d)
{
	__atomic_add_fetch(&d->refcount, 1, __ATOMIC_RELAXED);
	return d;
}

void
dput(struct dentry *d)
{
	while (d && __atomic_sub_fetch(&d->refcount, 1, __ATOMIC_ACQ_REL) == 0) {
		struct dentry *parent = d->parent;
		BUG_ON(d->linked);
		inode_put(d->inode);
		kfree(d->name);
		kfree(d);
		d = parent;
	}
}

struct dentry *
dget_parent(struct dentry *d)
{
	spin_lock(&dentry_tree_lock);
	struct dentry *p = dget(d->parent);
	spin_unlock(&dentry_tree_lock);
	return p;
}

void
dentry_link(struct dentry *d)
{
	struct dentry *parent = d->parent;

	dget(d);
	d->linked = true;
	d->pos = parent->inode->next_pos++;
	list_add_tail(&d->sibling, &parent->children);
}

void
dentry_unlink(struct dentry *d)
{
	list_del(&d->sibling);
	d->linked = false;
	d->deleted = true;
	dput(d);
}

int
dentry_move(struct dentry *d, struct dentry *newparent, const char *name, size_t len)
{
	char *newname = copy_name(name, len);

	if (!newname)
		return -ENOMEM;
	dget(newparent);
	spin_lock(&dentry_tree_lock);
	struct dentry *oldparent = d->parent;
	char *oldname = d->name;
	list_del(&d->sibling);
	d->parent = newparent;
	d->name = newname;
	d->len = len;
	d->pos = newparent->inode->next_pos++;
	list_add_tail(&d->sibling, &newparent->children);
	spin_unlock(&dentry_tree_lock);
	kfree(oldname);
	dput(oldparent);	/* the caller holds it too: never the last reference */
	return 0;
}

bool
dentry_is_ancestor(struct dentry *anc, struct dentry *d)
{
	bool found = false;

	spin_lock(&dentry_tree_lock);
	for (;;) {
		if (d == anc) {
			found = true;
			break;
		}
		if (d->parent == d)
			break;
		d = d->parent;
	}
	spin_unlock(&dentry_tree_lock);
	return found;
}

/* Puts s in front of the text that starts at *at (the buffer is filled from its end). */
static bool
prepend(char *buf, size_t *at, const char *s, size_t n)
{
	if (n > *at)
		return false;
	*at -= n;
	memcpy(buf + *at, s, n);
	return true;
}

long
dentry_path(struct dentry *d, char *buf, size_t size)
{
	static const char deleted[] = " (deleted)";
	bool root = d->parent == d;
	size_t at = size;
	bool ok;

	spin_lock(&dentry_tree_lock);
	ok = prepend(buf, &at, "", 1) && (!d->deleted || prepend(buf, &at, deleted, sizeof(deleted) - 1));
	for (; ok && d->parent != d; d = d->parent)
		ok = prepend(buf, &at, d->name, d->len) && prepend(buf, &at, "/", 1);
	if (ok && root)
		ok = prepend(buf, &at, "/", 1);
	spin_unlock(&dentry_tree_lock);
	if (!ok)
		return -ERANGE;
	memmove(buf, buf + at, size - at);
	return (long)(size - at - 1);
}
