/*
 * ramfs.c - the file system that holds everything: directories are their
 * dentries' children lists, regular files are their page caches, and
 * nothing is ever written anywhere else.
 *
 * The directory operations run with the directory's inode->lock held (the
 * VFS takes it, see vfs.h); removing a directory also takes the victim's
 * own lock, parent before child, to check that it is empty and mark it dead
 * in one step. Regular-file writes hold the inode's lock for the whole
 * write, so O_APPEND writes and truncations are atomic with respect to each
 * other; reads take no lock (filemap.c).
 *
 * Each instance (the root, and every tmpfs or ramfs mount, fs/tmpfs.c) is
 * a tree of its own. Its size is limited as tmpfs's is (size=, by default
 * half of RAM): the page cache refuses pages beyond it, and a write then
 * fails with ENOSPC, so that filling the file system leaves memory for the
 * processes. The root's is the `ramfs_size` knob, set at run time as a
 * tmpfs remount would (a size below what is in use just refuses new pages
 * until files go).
 *
 * Not here: the path walk (namei.c), the checks common to all file systems
 * (treeops.c, file.c), the page cache itself (filemap.c).
 */
#include "fs/vfs.h"
#include "uapi/errno.h"
#include "kernel/knobs.h"
#include "kernel/process/cred.h"
#include "kernel/lib/string.h"
#include "mm/kmalloc.h"
#include "mm/page_alloc.h"
#include "fs/hugetlbfs.h"

KNOB_INT(ramfs_size_kib, "ramfs_size", 0, 0, 1 << 30, true,
	 "the RAM file system's size in KiB, as tmpfs's size= (0: half of RAM, tmpfs's default)");

u64
ramfs_size_pages(void)
{
	u64 kib = (u64)READ_ONCE(ramfs_size_kib);

	if (kib)
		return kib / (PAGE_SIZE / 1024);
	return page_alloc_total_pages() / 2;
}

struct inode *
ramfs_new_inode(struct super_block *sb, u32 mode)
{
	struct inode *inode;

	if (S_ISDIR(mode))
		inode = inode_alloc(sb, mode, &ramfs_dir_iops, &ramfs_dir_fops);
	else if (S_ISREG(mode) && sb->type == &hugetlbfs_type)
		inode = hugetlbfs_new_inode(sb, mode);
	else if (S_ISREG(mode))
		inode = inode_alloc(sb, mode, &ramfs_file_iops, &ramfs_file_fops);
	else if (S_ISLNK(mode))
		inode = inode_alloc(sb, mode, &ramfs_link_iops, NULL); /* opened only with O_PATH */
	else if (S_ISFIFO(mode))
		inode = inode_alloc(sb, mode, &fifo_iops,
				    &fifo_fops); /* a named pipe (fs/pipe.c) */
	else if (S_ISSOCK(mode))
		inode = inode_alloc(sb, mode, NULL,
				    &socket_fops); /* a socket's name: ENXIO to open */
	else
		inode = inode_alloc(sb, mode, NULL, NULL); /* a device node: devfs sets fops */
	if (!inode)
		return NULL;
	inode->uid = current_fsuid(); /* the creator's, as on Linux */
	inode->gid = current_fsgid();
	if (S_ISDIR(mode))
		inode->nlink = 2; /* its name and its "." */
	return inode;
}

/* ---- directories --------------------------------------------------------- */

/* Why no inode could be had: the instance holds its nr_inodes= (ENOSPC), or memory is short. */
static int
no_inode_error(struct super_block *sb)
{
	u64 max = READ_ONCE(sb->max_inodes);

	return max && __atomic_load_n(&sb->nr_inodes, __ATOMIC_RELAXED) >= max ? -ENOSPC : -ENOMEM;
}

static int
ramfs_lookup(struct dentry *dir, const char *name, size_t len, struct dentry **out)
{
	*out = dentry_find_child(dir, name, len);
	return *out ? 0 : -ENOENT;
}

static int
ramfs_create(struct dentry *dir, const char *name, size_t len, u32 mode, struct dentry **out)
{
	struct inode *inode = ramfs_new_inode(dir->inode->sb, mode);

	if (!inode)
		return no_inode_error(dir->inode->sb);
	inode_init_owner(inode, dir->inode);
	struct dentry *d = dentry_alloc_child(dir, name, len, inode);
	if (!d)
		return -ENOMEM;
	dentry_link(d);
	if (S_ISDIR(mode))
		dir->inode->nlink++; /* the child's ".." */
	inode_touch(dir->inode);
	*out = d;
	return 0;
}

/* A symbolic link keeps its target text in inode->private; i_size is its length. */
static int
ramfs_symlink(struct dentry *dir, const char *name, size_t len, const char *target,
	      struct dentry **out)
{
	size_t n = strlen(target);
	char *text = kmalloc(n + 1);
	struct inode *inode = text ? ramfs_new_inode(dir->inode->sb, S_IFLNK | 0777) : NULL;

	if (!inode) {
		kfree(text);
		return text ? no_inode_error(dir->inode->sb) : -ENOMEM;
	}
	inode_init_owner(inode, dir->inode);
	memcpy(text, target, n + 1);
	inode->private = text;
	inode->size = n;
	struct dentry *d = dentry_alloc_child(dir, name, len, inode);
	if (!d)
		return -ENOMEM;
	dentry_link(d);
	inode_touch(dir->inode);
	*out = d;
	return 0;
}

/* One more name for old's inode: the new dentry holds one more inode reference. */
static int
ramfs_link(struct dentry *dir, const char *name, size_t len, struct dentry *old)
{
	struct inode *inode = old->inode;
	struct dentry *d = dentry_alloc_child(dir, name, len, inode_get(inode));

	if (!d)
		return -ENOMEM;
	__atomic_add_fetch(&inode->nlink, 1, __ATOMIC_RELAXED);
	inode->ctime = fs_now();
	dentry_link(d);
	inode_touch(dir->inode);
	dput(d); /* the link's own reference keeps it */
	return 0;
}

/* Unlinks victim from dir (a directory victim already checked empty and locked). */
static void
ramfs_remove(struct dentry *dir, struct dentry *victim)
{
	struct inode *inode = victim->inode;

	if (S_ISDIR(inode->mode)) {
		inode->dead = true;
		inode->nlink = 0;
		dir->inode->nlink--;
	} else {
		__atomic_sub_fetch(&inode->nlink, 1, __ATOMIC_RELAXED);
	}
	inode->ctime = fs_now();
	inode_touch(dir->inode);
	dentry_unlink(victim);
}

/*
 * Locks a directory victim and checks it is empty and no mount point
 * (fs/mount.c mounts under the same lock): 0, or -errno (unlocked again).
 */
static int
lock_if_dir(struct dentry *victim)
{
	if (!S_ISDIR(victim->inode->mode))
		return 0;
	mutex_lock(&victim->inode->lock);
	int err = READ_ONCE(victim->mounted)	  ? -EBUSY
		  : list_empty(&victim->children) ? 0
						  : -ENOTEMPTY;
	if (err)
		mutex_unlock(&victim->inode->lock);
	return err;
}

static void
unlock_if_dir(struct dentry *victim)
{
	if (S_ISDIR(victim->inode->mode))
		mutex_unlock(&victim->inode->lock);
}

static int
ramfs_unlink(struct dentry *dir, struct dentry *victim)
{
	int err = lock_if_dir(victim);

	if (err)
		return err;
	ramfs_remove(dir, victim);
	unlock_if_dir(victim);
	return 0;
}

static int
ramfs_rename(struct dentry *olddir, struct dentry *old, struct dentry *newdir, const char *name,
	     size_t len, struct dentry *target)
{
	int err = target ? lock_if_dir(target) : 0;

	if (err)
		return err;
	/* Move first: it is the step that can fail, and nothing has changed yet. */
	err = dentry_move(old, newdir, name, len);
	if (err) {
		if (target)
			unlock_if_dir(target);
		return err;
	}
	if (target) {
		ramfs_remove(newdir, target);
		unlock_if_dir(target);
	}
	if (S_ISDIR(old->inode->mode) && olddir != newdir) {
		olddir->inode->nlink--; /* its ".." moved */
		newdir->inode->nlink++;
	}
	old->inode->ctime = fs_now();
	inode_touch(olddir->inode);
	inode_touch(newdir->inode);
	return 0;
}

/* RENAME_EXCHANGE: nothing is removed, so nothing can fail. */
static int
ramfs_exchange(struct dentry *adir, struct dentry *a, struct dentry *bdir, struct dentry *b)
{
	dentry_exchange(a, b);
	if (adir != bdir && S_ISDIR(a->inode->mode) != S_ISDIR(b->inode->mode)) {
		/* one ".." moved from bdir's count to adir's or back */
		struct dentry *gains = S_ISDIR(a->inode->mode) ? bdir : adir;
		struct dentry *loses = gains == adir ? bdir : adir;
		gains->inode->nlink++;
		loses->inode->nlink--;
	}
	a->inode->ctime = fs_now();
	b->inode->ctime = a->inode->ctime;
	inode_touch(adir->inode);
	inode_touch(bdir->inode);
	return 0;
}

/*
 * Unlinks every name under root, deepest first, when its instance is
 * unmounted: each inode then goes with its last reference (at once, unless
 * a walk in progress or an orphaned open file holds it). The root is
 * marked dead first, so nothing new is made under it; a directory filled
 * again while being emptied is simply emptied again. A loop, not
 * recursion: a deep tree must not overflow the kernel stack.
 */
void
ramfs_kill_tree(struct dentry *root)
{
	struct dentry *d = dget(root);

	mutex_lock(&root->inode->lock);
	root->inode->dead = true;
	mutex_unlock(&root->inode->lock);
	for (;;) {
		mutex_lock(&d->inode->lock);
		struct dentry *child =
			list_empty(&d->children)
				? NULL
				: dget(list_entry(d->children.next, struct dentry, sibling));
		int err = child ? ramfs_unlink(d, child) : 0;
		mutex_unlock(&d->inode->lock);
		if (err == -ENOTEMPTY) {
			dput(d);
			d = child; /* emptied first; it keeps its parent alive meanwhile */
			continue;
		}
		if (child) {
			dput(child);
			continue;
		}
		if (d == root)
			break;
		struct dentry *parent = dget_parent(d);
		dput(d);
		d = parent; /* which unlinks d on the next turn */
	}
	dput(d);
}

static int
ramfs_getdents(struct file *f, struct dir_context *ctx)
{
	struct dentry *dir = f->dentry;
	struct list_head *pos;

	if (ctx->pos == 0 && !dir_emit(ctx, ".", 1, dir->inode->ino, DT_DIR, 0))
		return 0;
	if (ctx->pos == 1) {
		struct dentry *parent = dget_parent(dir);
		bool more = dir_emit(ctx, "..", 2, parent->inode->ino, DT_DIR, 1);
		dput(parent);
		if (!more)
			return 0;
	}
	/* Children are in position order: each was appended with a higher one. */
	mutex_lock(&dir->inode->lock);
	list_for_each(pos, &dir->children) {
		struct dentry *d = list_entry(pos, struct dentry, sibling);
		if (d->pos < ctx->pos)
			continue;
		if (!dir_emit(ctx, d->name, d->len, d->inode->ino, dt_type(d->inode->mode), d->pos))
			break;
	}
	mutex_unlock(&dir->inode->lock);
	return 0;
}

const struct inode_operations ramfs_dir_iops = {
	.lookup = ramfs_lookup,
	.create = ramfs_create,
	.symlink = ramfs_symlink,
	.link = ramfs_link,
	.unlink = ramfs_unlink,
	.rename = ramfs_rename,
	.exchange = ramfs_exchange,
};

const struct file_operations ramfs_dir_fops = {
	.llseek = dir_llseek,
	.getdents = ramfs_getdents,
};

/* ---- regular files ------------------------------------------------------- */

s64
generic_file_llseek(struct file *f, s64 off, int whence)
{
	s64 size = (s64)i_size_read(f->inode), base, pos;

	switch (whence) {
	case SEEK_SET:
		base = 0;
		break;
	case SEEK_CUR:
		base = (s64)f->pos;
		break;
	case SEEK_END:
		base = size;
		break;
	case SEEK_DATA: /* a file without holes: all data up to i_size */
	case SEEK_HOLE:
		if (off < 0 || off >= size)
			return -ENXIO;
		base = 0;
		off = whence == SEEK_DATA ? off : size;
		break;
	default:
		return -EINVAL;
	}
	if (__builtin_add_overflow(base, off, &pos) || pos < 0)
		return -EINVAL;
	f->pos = (u64)pos;
	return pos;
}

/* A cached file has holes: the pages it never wrote (fs/filemap.c). */
static s64
ramfs_file_llseek(struct file *f, s64 off, int whence)
{
	if (whence != SEEK_DATA && whence != SEEK_HOLE)
		return generic_file_llseek(f, off, whence);
	s64 pos = filemap_seek_hole_data(f->inode, off, whence);
	if (pos >= 0)
		f->pos = (u64)pos;
	return pos;
}

static long
ramfs_read(struct file *f, char __user *buf, size_t n, u64 *pos)
{
	long ret = filemap_read(f->inode, (struct read_dest){ .p = buf, .kernel = false }, n, *pos);

	if (ret > 0)
		*pos += (u64)ret;
	return ret;
}

/* The write(2) checks of Linux's generic_write_checks and the seals', then the page-cache loop. */
static long
ramfs_write(struct file *f, const char __user *buf, size_t n, u64 *pos)
{
	struct inode *inode = f->inode;
	long ret;

	if (n == 0)
		return 0;
	mutex_lock(&inode->lock);
	u64 at = (READ_ONCE(f->flags) & O_APPEND) ? i_size_read(inode) : *pos;
	ret = seals_allow_write(inode, at, n);
	if (ret > 0)
		ret = file_size_allowed(at, (size_t)ret);
	if (ret > 0) {
		ret = generic_perform_write(inode, buf, (size_t)ret, at);
		if (ret > 0)
			*pos = at + (u64)ret;
	}
	mutex_unlock(&inode->lock);
	return ret;
}

static struct page *
ramfs_get_page(struct file *f, u64 index)
{
	return filemap_get_page(f->inode, index, FGP_CREATE | FGP_WITHIN_SIZE);
}

static unsigned
ramfs_get_cached_pages(struct file *f, u64 first, unsigned n, struct page **pages)
{
	return filemap_get_cached_pages(f->inode, first, n, pages);
}

static int
ramfs_setsize(struct inode *inode, u64 size)
{
	filemap_set_size(inode, size);
	return 0;
}

const struct inode_operations ramfs_file_iops = {
	.setsize = ramfs_setsize,
	.evict = filemap_evict,
};

const struct file_operations ramfs_file_fops = {
	.read = ramfs_read,
	.write = ramfs_write,
	.llseek = ramfs_file_llseek,
	.get_page = ramfs_get_page,
	.get_cached_pages = ramfs_get_cached_pages,
};

/* ---- symbolic links ---------------------------------------------------------- */

static long
ramfs_readlink(struct dentry *link, char *buf, size_t size)
{
	size_t n = MIN(size, (size_t)link->inode->size);

	memcpy(buf, link->inode->private, n);
	return (long)n;
}

static void
ramfs_link_evict(struct inode *inode)
{
	kfree(inode->private);
}

const struct inode_operations ramfs_link_iops = {
	.readlink = ramfs_readlink,
	.evict = ramfs_link_evict,
};
