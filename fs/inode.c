/*
 * inode.c - inode lifetime, time stamps and what stat(2) reports.
 *
 * An inode lives while anything refers to it: a dentry, an open file, a
 * pipe's two ends. When the last reference goes its file system's evict
 * operation frees what it holds (ramfs: the page cache; pipes: the ring
 * buffer). Not here: how names reach inodes (dentry.c, namei.c) or what
 * the data is (filemap.c, pipe.c, the devices). Each inode holds its
 * file-system instance (super.c) and counts in its nr_inodes.
 */
#include "fs/vfs.h"
#include "kernel/objcount.h"
#include "kernel/time/timekeeping.h"
#include "kernel/vdso/vvar.h"
#include "mm/kmalloc.h"

static u64 next_ino = 1;

/*
 * Wall-clock time at the last tick, as Linux's current_time(): files made in
 * one tick share a stamp, and no counter is read for it. Before timekeeping
 * starts (the initrd; its files keep their cpio mtime) this is 1970.
 */
struct fs_time
fs_now(void)
{
	u64 ns = timekeeping_read_ns(VVAR_CLOCK_REALTIME_COARSE);

	return (struct fs_time){ .sec = (s64)(ns / 1000000000), .nsec = (s64)(ns % 1000000000) };
}

/* Counts one more inode of sb, unless it holds its nr_inodes= already. */
static bool
charge_inode(struct super_block *sb)
{
	u64 max = READ_ONCE(sb->max_inodes);

	if (__atomic_add_fetch(&sb->nr_inodes, 1, __ATOMIC_RELAXED) <= max || !max)
		return true;
	__atomic_fetch_sub(&sb->nr_inodes, 1, __ATOMIC_RELAXED);
	return false;
}

struct inode *
inode_alloc(struct super_block *sb, u32 mode, const struct inode_operations *iops,
	    const struct file_operations *fops)
{
	if (!charge_inode(sb))
		return NULL;
	/* kmalloc's 256-byte class: one byte more would double every inode. */
	BUILD_BUG_ON(sizeof(struct inode) > 256);
	struct inode *inode = kzalloc(sizeof(*inode));

	if (!inode) {
		__atomic_fetch_sub(&sb->nr_inodes, 1, __ATOMIC_RELAXED);
		return NULL;
	}
	inode->sb = sb_get(sb);
	inode->refcount = 1;
	inode->mode = mode;
	inode->nlink = 1;
	inode->ino = __atomic_fetch_add(&next_ino, 1, __ATOMIC_RELAXED);
	inode->atime = inode->mtime = inode->ctime = fs_now();
	mutex_init(&inode->lock, "inode");
	rwlock_init(&inode->pages_lock, "inode_pages");
	page_index_init(&inode->pages);
	inode->iops = iops;
	inode->fops = fops;
	if (S_ISDIR(mode))
		inode->next_pos = 2; /* 0 and 1 are "." and ".." */
	objcount_created(OBJ_INODE);
	return inode;
}

struct inode *
inode_get(struct inode *inode)
{
	__atomic_add_fetch(&inode->refcount, 1, __ATOMIC_RELAXED);
	return inode;
}

void
inode_put(struct inode *inode)
{
	if (__atomic_sub_fetch(&inode->refcount, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	if (inode->iops && inode->iops->evict)
		inode->iops->evict(inode);
	xattr_store_free(inode);
	struct super_block *sb = inode->sb;
	__atomic_fetch_sub(&sb->nr_inodes, 1, __ATOMIC_RELAXED);
	kfree(inode);
	sb_put(sb);
	objcount_freed(OBJ_INODE);
}

void
inode_touch(struct inode *inode)
{
	inode->mtime = inode->ctime = fs_now();
}

static bool
fs_time_equal(struct fs_time a, struct fs_time b)
{
	return a.sec == b.sec && a.nsec == b.nsec;
}

/*
 * As Linux's file_update_time: a stream of stores through a mapping costs
 * one clock read and a compare per fault within a tick, and nothing is
 * stamped on a read-only instance (mnt_want_write refuses).
 */
void
file_update_time(struct file *f)
{
	struct inode *inode = f->inode;
	struct fs_time now = fs_now();

	if (fs_time_equal(inode->mtime, now) && fs_time_equal(inode->ctime, now))
		return;
	if (sb_may_write(inode))
		return;
	inode->mtime = inode->ctime = now;
}

void
inode_fill_stat(struct inode *inode, struct kernel_stat *st)
{
	*st = (struct kernel_stat){
		.st_dev = inode->sb->dev,
		.st_ino = inode->ino,
		.st_nlink = READ_ONCE(inode->nlink),
		.st_mode = inode->mode,
		.st_uid = inode->uid,
		.st_gid = inode->gid,
		.st_rdev = S_ISCHR(inode->mode) || S_ISBLK(inode->mode) ? inode->rdev : 0,
		.st_size = (s64)READ_ONCE(inode->size),
		.st_blksize = PAGE_SIZE,
		.st_blocks = (s64)(READ_ONCE(inode->pages.nrpages) * (PAGE_SIZE / 512)),
		.st_atime = (u64)inode->atime.sec,
		.st_atime_nsec = (u64)inode->atime.nsec,
		.st_mtime = (u64)inode->mtime.sec,
		.st_mtime_nsec = (u64)inode->mtime.nsec,
		.st_ctime = (u64)inode->ctime.sec,
		.st_ctime_nsec = (u64)inode->ctime.nsec,
	};
}
