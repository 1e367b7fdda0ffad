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
 *
 * Finding a child by name must not cost a walk of the whole directory: a
 * directory of n files would make each create O(n) (fs_mark's thousands of
 * files per directory took 100 us a file). Linked dentries are also in a
 * hash table keyed by (parent, name), as Linux's dcache hash; its chains are
 * guarded by dentry_hash_lock, taken inside dentry_tree_lock where both are
 * needed, since a chain mixes names from directories locked independently.
 * Not here: resolving paths (namei.c) or what the names mean (ramfs.c).
 */
#include "fs/vfs.h"
#include "kernel/objcount.h"
#include "uapi/errno.h"
#include "kernel/panic.h"
#include "kernel/lib/string.h"
#include "mm/kmalloc.h"

static struct spinlock dentry_tree_lock = SPINLOCK_INIT("dentry_tree");

#define NAME_HASH_BITS 12
static struct list_head name_hash[1 << NAME_HASH_BITS]; /* of struct dentry, via hash_link */
static struct spinlock dentry_hash_lock = SPINLOCK_INIT("dentry_hash");

/* FNV-1a over the name, mixed with the parent's address. */
static struct list_head *
hash_chain(const struct dentry *parent, const char *name, size_t len)
{
	u64 h = 0xcbf29ce484222325ull ^ ((u64)(uintptr_t)parent >> 4);

	for (size_t i = 0; i < len; i++)
		h = (h ^ (u8)name[i]) * 0x100000001b3ull;
	struct list_head *chain = &name_hash[(h ^ (h >> 32)) & ((1u << NAME_HASH_BITS) - 1)];
	if (!chain->next)
		list_init(chain); /* the table starts zeroed: each chain on first use */
	return chain;
}

static void
hash_add(struct dentry *d)
{
	spin_lock(&dentry_hash_lock);
	list_add_tail(&d->hash_link, hash_chain(d->parent, d->name, d->len));
	spin_unlock(&dentry_hash_lock);
}

static void
hash_del(struct dentry *d)
{
	spin_lock(&dentry_hash_lock);
	list_del(&d->hash_link);
	spin_unlock(&dentry_hash_lock);
}

/*
 * Scans every chain: names are hashed by parent, not by inode, and only
 * open_by_handle_at asks, rarely, so no second index is kept for it.
 */
struct dentry *
dentry_find_inode(struct super_block *sb, u64 ino)
{
	struct dentry *found = NULL;

	spin_lock(&dentry_hash_lock);
	for (size_t i = 0; i < ARRAY_SIZE(name_hash) && !found; i++) {
		struct list_head *pos;
		if (!name_hash[i].next)
			continue; /* never used */
		list_for_each(pos, &name_hash[i]) {
			struct dentry *d = list_entry(pos, struct dentry, hash_link);
			if (d->inode->sb == sb && d->inode->ino == ino) {
				found = dget(d);
				break;
			}
		}
	}
	spin_unlock(&dentry_hash_lock);
	return found;
}

struct dentry *
dentry_find_child(struct dentry *parent, const char *name, size_t len)
{
	struct dentry *found = NULL;
	struct list_head *chain, *pos;

	spin_lock(&dentry_hash_lock);
	chain = hash_chain(parent, name, len);
	list_for_each(pos, chain) {
		struct dentry *d = list_entry(pos, struct dentry, hash_link);
		if (d->parent == parent && d->len == len && memcmp(d->name, name, len) == 0) {
			found = dget(d);
			break;
		}
	}
	spin_unlock(&dentry_hash_lock);
	return found;
}

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
	objcount_created(OBJ_DENTRY);
	d->len = len;
	d->refcount = 1;
	d->inode = inode;
	list_init(&d->children);
	list_init(&d->sibling);
	list_init(&d->hash_link);
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

/*
 * The root of a mounted instance: named as the dentry it covers and with
 * that one's parent, so that ".." out of it and every path through it
 * (getcwd, /proc/mounts) read as Linux's do; it is in no children list.
 */
struct dentry *
dentry_alloc_mount_root(struct inode *inode, struct dentry *mountpoint)
{
	char name[NAME_MAX + 1];

	spin_lock(&dentry_tree_lock);
	size_t len = mountpoint->len;
	memcpy(name, mountpoint->name, len);
	struct dentry *parent = dget(mountpoint->parent);
	spin_unlock(&dentry_tree_lock);
	struct dentry *d = dentry_new(name, len, inode);
	if (!d) {
		dput(parent);
		inode_put(inode);
		return NULL;
	}
	d->parent = parent;
	return d;
}

int
dentry_cover(struct dentry *root, struct dentry *mountpoint)
{
	char name[NAME_MAX + 1];
	size_t len;
	struct dentry *parent = dget_parent_name(mountpoint, name, &len);
	char *newname = copy_name(name, len);
	if (!newname) {
		dput(parent);
		return -ENOMEM;
	}
	spin_lock(&dentry_tree_lock);
	struct dentry *oldparent = root->parent;
	char *oldname = root->name;
	root->parent = parent;
	root->name = newname;
	root->len = len;
	spin_unlock(&dentry_tree_lock);
	kfree(oldname);
	if (oldparent != root)
		dput(oldparent);
	return 0;
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
		struct dentry *parent = d->parent != d ? d->parent : NULL; /* a detached root */
		BUG_ON(d->linked);
		inode_put(d->inode);
		kfree(d->name);
		kfree(d);
		objcount_freed(OBJ_DENTRY);
		d = parent;
	}
}

/*
 * A lazily unmounted tree's root becomes a root of its own: ".." out of it
 * stays in it, as in Linux's detached mounts, instead of leading back into
 * the tree it was cut from. It holds no reference on itself (unlike the
 * boot root), so it goes with its last user; getcwd inside it reads from
 * it as "/".
 */
void
dentry_make_root(struct dentry *d)
{
	spin_lock(&dentry_tree_lock);
	struct dentry *old = d->parent;
	d->parent = d;
	spin_unlock(&dentry_tree_lock);
	if (old != d)
		dput(old);
}

struct dentry *
dget_parent(struct dentry *d)
{
	spin_lock(&dentry_tree_lock);
	struct dentry *p = dget(d->parent);
	spin_unlock(&dentry_tree_lock);
	return p;
}

struct dentry *
dget_parent_name(struct dentry *d, char name[NAME_MAX + 1], size_t *len)
{
	spin_lock(&dentry_tree_lock);
	struct dentry *p = dget(d->parent);
	*len = d->len;
	memcpy(name, d->name, d->len);
	name[d->len] = '\0';
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
	hash_add(d);
}

void
dentry_unlink(struct dentry *d)
{
	list_del(&d->sibling);
	hash_del(d);
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
	hash_del(d);
	d->parent = newparent;
	d->name = newname;
	d->len = len;
	d->pos = newparent->inode->next_pos++;
	list_add_tail(&d->sibling, &newparent->children);
	hash_add(d);
	spin_unlock(&dentry_tree_lock);
	kfree(oldname);
	dput(oldparent); /* the caller holds it too: never the last reference */
	return 0;
}

/*
 * Each takes the other's place: parent, name, position and its place in
 * the parent's list of children. That list must stay in position order,
 * since a getdents that meets a lower position after a higher one skips
 * it (ramfs_getdents); appending both at the tails hid a file from
 * readdir until it was renamed again. Each parent keeps one child's
 * reference on it, so no reference moves.
 */
void
dentry_exchange(struct dentry *a, struct dentry *b)
{
	struct list_head mark; /* holds a's place while a moves to b's */

	spin_lock(&dentry_tree_lock);
	hash_del(a);
	hash_del(b);
	list_insert_between(&mark, a->sibling.prev, &a->sibling);
	list_del(&a->sibling);
	list_insert_between(&a->sibling, b->sibling.prev, &b->sibling);
	list_del(&b->sibling);
	list_insert_between(&b->sibling, &mark, mark.next);
	list_del(&mark);
	struct dentry *parent = a->parent;
	char *name = a->name;
	size_t len = a->len;
	u64 pos = a->pos;
	a->parent = b->parent;
	a->name = b->name;
	a->len = b->len;
	a->pos = b->pos;
	b->parent = parent;
	b->name = name;
	b->len = len;
	b->pos = pos;
	hash_add(a);
	hash_add(b);
	spin_unlock(&dentry_tree_lock);
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
dentry_path_from(struct dentry *d, struct dentry *root, char *buf, size_t size)
{
	static const char deleted[] = " (deleted)", unreachable[] = "(unreachable)";
	bool named = false;
	size_t at = size;
	bool ok;

	spin_lock(&dentry_tree_lock);
	ok = prepend(buf, &at, "", 1) &&
	     (!d->deleted || prepend(buf, &at, deleted, sizeof(deleted) - 1));
	for (; ok && d != root && d->parent != d; d = d->parent, named = true)
		ok = prepend(buf, &at, d->name, d->len) && prepend(buf, &at, "/", 1);
	if (ok && !named)
		ok = prepend(buf, &at, "/", 1);
	if (ok && root && d != root) /* outside a chroot: Linux's getcwd says so */
		ok = prepend(buf, &at, unreachable, sizeof(unreachable) - 1);
	spin_unlock(&dentry_tree_lock);
	if (!ok)
		return -ERANGE;
	memmove(buf, buf + at, size - at);
	return (long)(size - at - 1);
}

long
dentry_path(struct dentry *d, char *buf, size_t size)
{
	return dentry_path_from(d, NULL, buf, size);
}
