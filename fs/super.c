/*
 * super.c - file-system types (which sysfs(2) lists) and instances
 * (struct super_block, vfs.h): their device numbers, the limits and counters a tmpfs instance keeps for its
 * own size= and nr_inodes=, the mount flags its inodes obey (read-only,
 * noexec), and the pins umount counts to say EBUSY.
 *
 * An instance lives while an inode of it or its mount does. Its st_dev is
 * an anonymous device number, major 0 and the lowest free minor from 1, as
 * Linux's get_anon_bdev: a number comes back into use after an umount.
 *
 * Pins are what Linux's mount count stands for in umount: every open file
 * and every process's cwd and root on the instance (fs/file.c,
 * fs/fs_context.c). A path walk in progress holds dentries but no pin, so
 * an open racing with umount may end on a file of the unmounted tree: it
 * works, with its directories already emptied, until it is closed.
 *
 * The flags are read without a lock: a remount changes them with one store.
 * A remount to read-only and an open for writing order themselves as
 * Dekker's pair: each publishes its own change (flags / writers), then
 * reads the other's, so at least one of them sees the other and backs off.
 */
#include "fs/vfs.h"
#include "uapi/errno.h"
#include "uapi/mount.h"
#include "kernel/lib/string.h"
#include "kernel/syscall/syscall.h"
#include "mm/kmalloc.h"
#include "mm/page_alloc.h"

struct super_block *root_sb, *pipefs_sb;

/* ---- types --------------------------------------------------------------- */

static struct fs_type *fs_types;
static struct spinlock fs_types_lock = SPINLOCK_INIT("fs_types");

/* Registering a type twice keeps one entry (the host tests boot the VFS again and again). */
void
register_filesystem(struct fs_type *type)
{
	spin_lock(&fs_types_lock);
	struct fs_type *t = fs_types;
	while (t && t != type)
		t = t->next;
	if (!t) {
		type->next = fs_types;
		fs_types = type;
	}
	spin_unlock(&fs_types_lock);
}

struct fs_type *
find_filesystem(const char *name)
{
	struct fs_type *t;

	spin_lock(&fs_types_lock);
	for (t = fs_types; t && strcmp(t->name, name) != 0; t = t->next)
		;
	spin_unlock(&fs_types_lock);
	return t;
}

/*
 * sysfs(2), Linux's obsolete way to list the types: option 1 gives a
 * name's index, 2 copies index's name to buf, 3 the number of types. The
 * index is the place in the list, which is newest first here (Linux's is
 * oldest first): only the three answers' agreement is promised.
 */
static long
fs_type_index(const char __user *uname)
{
	char *name;
	int err = getname(uname, &name);

	if (err)
		return err;
	long index = 0;
	spin_lock(&fs_types_lock);
	struct fs_type *t;
	for (t = fs_types; t && strcmp(t->name, name) != 0; t = t->next)
		index++;
	spin_unlock(&fs_types_lock);
	putname(name);
	return t ? index : -EINVAL;
}

static long
fs_type_name(unsigned long index, char __user *buf)
{
	spin_lock(&fs_types_lock);
	struct fs_type *t = fs_types;
	for (; t && index; t = t->next)
		index--;
	spin_unlock(&fs_types_lock);
	if (!t) /* types are never unregistered: t stays valid */
		return -EINVAL;
	return copy_to_user(buf, t->name, strlen(t->name) + 1) ? -EFAULT : 0;
}

static long
fs_type_count(void)
{
	long n = 0;

	spin_lock(&fs_types_lock);
	for (struct fs_type *t = fs_types; t; t = t->next)
		n++;
	spin_unlock(&fs_types_lock);
	return n;
}

SYSCALL3(sysfs, int, option, unsigned long, arg1, unsigned long, arg2)
{
	switch (option) {
	case 1:
		return fs_type_index((const char __user *)arg1);
	case 2:
		return fs_type_name(arg1, (char __user *)arg2);
	case 3:
		return fs_type_count();
	default:
		return -EINVAL;
	}
}

/* ---- device numbers ------------------------------------------------------ */

#define ANON_MINORS 1024 /* instances alive at once; minor 0 is never given */

static u64 anon_used[ANON_MINORS / 64];
static struct spinlock anon_lock = SPINLOCK_INIT("anon_dev");

static u32
anon_dev_get(void)
{
	u32 minor = 0;

	spin_lock(&anon_lock);
	for (u32 i = 1; i < ANON_MINORS; i++) {
		if (!(anon_used[i / 64] & (1ull << (i % 64)))) {
			anon_used[i / 64] |= 1ull << (i % 64);
			minor = i;
			break;
		}
	}
	spin_unlock(&anon_lock);
	return minor;
}

static void
anon_dev_put(u32 minor)
{
	spin_lock(&anon_lock);
	anon_used[minor / 64] &= ~(1ull << (minor % 64));
	spin_unlock(&anon_lock);
}

/* ---- lifetime ------------------------------------------------------------ */

struct super_block *
sb_alloc(struct fs_type *type)
{
	struct super_block *sb = kzalloc(sizeof(*sb));

	if (!sb)
		return NULL;
	u32 minor = anon_dev_get();
	if (!minor) {
		kfree(sb);
		return NULL;
	}
	sb->refcount = 1;
	sb->dev = MKDEV(0, minor);
	sb->type = type;
	return sb;
}

struct super_block *
sb_get(struct super_block *sb)
{
	__atomic_add_fetch(&sb->refcount, 1, __ATOMIC_RELAXED);
	return sb;
}

void
sb_put(struct super_block *sb)
{
	if (__atomic_sub_fetch(&sb->refcount, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	anon_dev_put((sb->dev & 0xff) | ((sb->dev >> 12) & ~0xffu)); /* MKDEV's minor back */
	kfree(sb);
}

void
sb_pin(struct super_block *sb)
{
	__atomic_add_fetch(&sb->pins, 1, __ATOMIC_SEQ_CST);
}

static void
sb_reap(struct super_block *sb)
{
	struct dentry *root = __atomic_exchange_n(&sb->detached_root, NULL, __ATOMIC_SEQ_CST);

	if (!root)
		return;
	if (sb->type->kill_tree)
		sb->type->kill_tree(root);
	dput(root); /* and with it, once its inodes are gone, the instance */
}

/*
 * Once an instance is detached, its root dentry is handed here with the
 * mount's reference; whoever sees no pins left after that (the umount, or
 * the last unpin) kills the tree, and the exchange makes that happen once.
 */
void
sb_detach(struct super_block *sb, struct dentry *root)
{
	__atomic_store_n(&sb->detached_root, root, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&sb->pins, __ATOMIC_SEQ_CST) == 0)
		sb_reap(sb);
}

void
sb_unpin(struct super_block *sb)
{
	if (__atomic_sub_fetch(&sb->pins, 1, __ATOMIC_SEQ_CST) == 0 &&
	    __atomic_load_n(&sb->detached_root, __ATOMIC_SEQ_CST))
		sb_reap(sb);
}

/* ---- limits -------------------------------------------------------------- */

u64
sb_max_pages(struct super_block *sb)
{
	u64 max = READ_ONCE(sb->max_pages);

	if (max == SB_PAGES_KNOB)
		return ramfs_size_pages();
	return max ? max : UINT64_MAX;
}

/* Taken before the page is allocated, so that racing writers cannot overshoot together. */
bool
sb_charge_page(struct super_block *sb)
{
	if (__atomic_add_fetch(&sb->nr_pages, 1, __ATOMIC_RELAXED) <= sb_max_pages(sb))
		return true;
	__atomic_fetch_sub(&sb->nr_pages, 1, __ATOMIC_RELAXED);
	return false;
}

void
sb_uncharge_page(struct super_block *sb)
{
	__atomic_fetch_sub(&sb->nr_pages, 1, __ATOMIC_RELAXED);
}

/* ---- flags --------------------------------------------------------------- */

int
sb_may_write(const struct inode *inode)
{
	return READ_ONCE(inode->sb->flags) & MS_RDONLY ? -EROFS : 0;
}

int
sb_get_writer(struct inode *inode)
{
	struct super_block *sb = inode->sb;

	__atomic_add_fetch(&sb->writers, 1, __ATOMIC_SEQ_CST);
	if (!(__atomic_load_n(&sb->flags, __ATOMIC_SEQ_CST) & MS_RDONLY))
		return 0;
	__atomic_sub_fetch(&sb->writers, 1, __ATOMIC_SEQ_CST);
	return -EROFS;
}

void
sb_put_writer(struct inode *inode)
{
	__atomic_sub_fetch(&inode->sb->writers, 1, __ATOMIC_SEQ_CST);
}
