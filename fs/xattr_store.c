/*
 * xattr_store.c - the extended attributes of an inode of a file system
 * that keeps them in memory (the RAM file systems: tmpfs, ramfs, rootfs),
 * Linux's simple_xattr: a list of name and value pairs hung off the
 * inode, made at the first set and freed with the inode. The calls and
 * their rules (which names, who may) are fs/xattr.c's; here is only the
 * store, under the inode's lock.
 *
 * The sets are kept aside, in a table by inode address, rather than in
 * struct inode: few files have attributes, and a pointer more would take
 * every inode past its 256-byte allocation. While no file has any, an
 * inode's last inode_put does not look there.
 *
 * An inode holds at most XATTR_STORE_MAX bytes of names and values, a
 * bound of rewind's (ENOSPC past it, as a disk file system answers when
 * its attribute block is full): a user may otherwise fill the kernel's
 * memory through the attributes of its own files.
 */
#include "fs/vfs.h"
#include "kernel/lib/string.h"
#include "mm/kmalloc.h"
#include "uapi/errno.h"

#define XATTR_STORE_MAX (256 * 1024)
#define XATTR_BUCKETS	64

struct xattr {
	struct list_head link;
	size_t size; /* of value */
	char *value;
	char name[]; /* NUL-terminated, the prefix included */
};

struct xattr_set {
	struct hlist_node link; /* in its bucket of the table */
	const struct inode *inode;
	struct list_head entries;
	size_t bytes; /* names and values held, for XATTR_STORE_MAX */
};

/* The sets by inode address; the lock guards the chains, an inode's lock its set's contents. */
static struct hlist_head sets[XATTR_BUCKETS];
static struct spinlock sets_lock = SPINLOCK_INIT("xattr_sets");
static u64 nr_sets; /* in the table, under sets_lock; read without it for the fast "none" */

static struct hlist_head *
bucket(const struct inode *inode)
{
	return &sets[((uintptr_t)inode >> 8) % XATTR_BUCKETS];
}

/* inode's set, or NULL when it has none. */
static struct xattr_set *
set_find(const struct inode *inode)
{
	struct xattr_set *found = NULL;

	if (!READ_ONCE(nr_sets))
		return NULL;
	u64 flags = spin_lock_irqsave(&sets_lock);
	for (struct hlist_node *n = bucket(inode)->first; n && !found; n = n->next) {
		struct xattr_set *set = container_of(n, struct xattr_set, link);
		if (set->inode == inode)
			found = set;
	}
	spin_unlock_irqrestore(&sets_lock, flags);
	return found;
}

static struct xattr *
find(const struct xattr_set *set, const char *name)
{
	struct list_head *pos;

	if (!set)
		return NULL;
	list_for_each(pos, &set->entries) {
		struct xattr *x = list_entry(pos, struct xattr, link);
		if (!strcmp(x->name, name))
			return x;
	}
	return NULL;
}

static size_t
cost(const struct xattr *x)
{
	return strlen(x->name) + 1 + x->size;
}

static void
free_xattr(struct xattr *x)
{
	kfree(x->value);
	kfree(x);
}

long
xattr_store_get(struct inode *inode, const char *name, void *buf, size_t size)
{
	const struct xattr *x = find(set_find(inode), name);

	if (!x)
		return -ENODATA;
	if (size && size < x->size)
		return -ERANGE;
	if (size)
		memcpy(buf, x->value, x->size);
	return (long)x->size;
}

/* The set of inode, made on first use: NULL without memory. */
static struct xattr_set *
set_of(struct inode *inode)
{
	struct xattr_set *set = set_find(inode);

	if (set)
		return set;
	set = kzalloc(sizeof(*set));
	if (!set)
		return NULL;
	set->inode = inode;
	list_init(&set->entries);
	u64 flags = spin_lock_irqsave(&sets_lock);
	hlist_add_head(&set->link, bucket(inode));
	WRITE_ONCE(nr_sets, nr_sets + 1);
	spin_unlock_irqrestore(&sets_lock, flags);
	return set;
}

static struct xattr *
new_xattr(const char *name, const void *value, size_t size)
{
	size_t len = strlen(name) + 1;
	struct xattr *x = kmalloc(sizeof(*x) + len);

	if (!x)
		return NULL;
	x->value = size ? kmalloc(size) : NULL;
	if (size && !x->value) {
		kfree(x);
		return NULL;
	}
	memcpy(x->name, name, len);
	if (size)
		memcpy(x->value, value, size);
	x->size = size;
	return x;
}

int
xattr_store_set(struct inode *inode, const char *name, const void *value, size_t size, bool create,
		bool replace)
{
	struct xattr *old = find(set_find(inode), name);

	if (old && create)
		return -EEXIST;
	if (!old && replace)
		return -ENODATA;
	struct xattr_set *set = set_of(inode);
	if (!set)
		return -ENOMEM;
	struct xattr *x = new_xattr(name, value, size);
	if (!x)
		return -ENOMEM;
	size_t bytes = set->bytes - (old ? cost(old) : 0) + cost(x);
	if (bytes > XATTR_STORE_MAX) {
		free_xattr(x);
		return -ENOSPC;
	}
	set->bytes = bytes;
	list_add_tail(&x->link, &set->entries);
	if (old) {
		list_del(&old->link);
		free_xattr(old);
	}
	return 0;
}

int
xattr_store_remove(struct inode *inode, const char *name)
{
	struct xattr_set *set = set_find(inode);
	struct xattr *x = find(set, name);

	if (!x)
		return -ENODATA;
	set->bytes -= cost(x);
	list_del(&x->link);
	free_xattr(x);
	return 0;
}

long
xattr_store_list(struct inode *inode, char *buf, size_t size, bool (*shown)(const char *name))
{
	struct xattr_set *set = set_find(inode);
	struct list_head *pos;
	size_t total = 0;

	if (!set)
		return 0;
	list_for_each(pos, &set->entries) {
		struct xattr *x = list_entry(pos, struct xattr, link);
		size_t len = strlen(x->name) + 1;
		if (!shown(x->name))
			continue;
		if (size && total + len > size)
			return -ERANGE;
		if (size)
			memcpy(buf + total, x->name, len);
		total += len;
	}
	return (long)total;
}

void
xattr_store_free(struct inode *inode)
{
	struct xattr_set *set = set_find(inode);

	if (!set)
		return;
	u64 flags = spin_lock_irqsave(&sets_lock);
	hlist_del(&set->link);
	WRITE_ONCE(nr_sets, nr_sets - 1);
	spin_unlock_irqrestore(&sets_lock, flags);
	while (!list_empty(&set->entries)) {
		struct xattr *x = list_entry(set->entries.next, struct xattr, link);
		list_del(&x->link);
		free_xattr(x);
	}
	kfree(set);
}
