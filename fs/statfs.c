/*
 * statfs.c - statfs and fstatfs: what the file system a file is on says
 * about itself, as Linux's statfs(2) reports it.
 *
 * rewind has no superblocks: an inode's dev (vfs.h's DEV_*) is which file
 * system it is on, and each answers as its Linux counterpart does:
 *
 *   ramfs (the root, with /dev and /tmp in it)  as tmpfs, which is what
 *       Linux's rootfs is when it is an initramfs: TMPFS_MAGIC, its
 *       size (by default half of RAM, ramfs.c) in 4 KiB blocks, the blocks not taken
 *       by file pages free (never more than the page allocator has free:
 *       there is no swap to put them in), as many inodes as blocks
 *       (tmpfs's default nr_inodes) less those alive. Linux's devtmpfs at
 *       /dev is a tmpfs too, so the device nodes answer the same.
 *   procfs  PROC_SUPER_MAGIC, and pipes PIPEFS_MAGIC: Linux's
 *       simple_statfs, only the type, the block size and the name length.
 *
 * f_flags are the mount's ST_* flags with ST_VALID, as Linux's
 * calculate_f_flags; f_fsid is the RAM file system's st_dev (Linux's
 * tmpfs makes one from its uuid), 0 for the others as in Linux.
 * ramfs_usage() also gives /proc/mounts its size= and nr_inodes=.
 */
#include "fs/vfs.h"
#include "uapi/errno.h"
#include "uapi/magic.h"
#include "uapi/statfs.h"
#include "kernel/objcount.h"
#include "kernel/syscall/syscall.h"
#include "mm/page_alloc.h"

/* The tmpfs figures of the RAM file system, in pages: its size (ramfs.c), nr_inodes half of RAM. */
void
ramfs_usage(u64 *blocks, u64 *bfree, u64 *files, u64 *ffree)
{
	struct page_alloc_stats pages;

	page_alloc_get_stats(&pages);
	*blocks = ramfs_size_pages();
	u64 used = __atomic_load_n(&filemap_nr_pages, __ATOMIC_RELAXED);
	*bfree = used < *blocks ? *blocks - used : 0;
	if (*bfree > pages.free_pages)
		*bfree = pages.free_pages;
	*files = pages.total_pages / 2;
	u64 inodes = __atomic_load_n(&objcount[OBJ_INODE], __ATOMIC_RELAXED);
	*ffree = inodes < *files ? *files - inodes : 0;
}

static void
fill_statfs(struct inode *inode, struct kernel_statfs *st)
{
	*st = (struct kernel_statfs){
		.f_bsize = PAGE_SIZE,
		.f_frsize = PAGE_SIZE,
		.f_namelen = NAME_MAX,
		.f_flags = ST_VALID,
	};
	switch (inode->dev) {
	case DEV_RAMFS: {
		u64 blocks, bfree, files, ffree;
		ramfs_usage(&blocks, &bfree, &files, &ffree);
		st->f_type = TMPFS_MAGIC;
		st->f_fsid.val[0] = (int)inode->dev;
		st->f_blocks = blocks;
		st->f_bfree = st->f_bavail = bfree;
		st->f_files = files;
		st->f_ffree = ffree;
		break;
	}
	case DEV_PROCFS:
		st->f_type = PROC_SUPER_MAGIC;
		st->f_flags |= ST_RELATIME; /* mounted "rw,relatime", as Debian's initramfs does */
		break;
	case DEV_PIPEFS:
		st->f_type = PIPEFS_MAGIC;
		break;
	default:
		st->f_type = TMPFS_MAGIC; /* an inode of no file system of its own: kernel-made */
		break;
	}
}

static long
statfs_to_user(struct inode *inode, struct kernel_statfs __user *ubuf)
{
	struct kernel_statfs st;

	fill_statfs(inode, &st);
	return copy_to_user(ubuf, &st, sizeof(st)) ? -EFAULT : 0;
}

SYSCALL2(statfs, const char __user *, path, struct kernel_statfs __user *, buf)
{
	struct inode *inode;
	int err = lookup_user_inode_at(AT_FDCWD, path, 0, &inode);

	if (err)
		return err;
	long ret = statfs_to_user(inode, buf);
	inode_put(inode);
	return ret;
}

/* Any open file, O_PATH ones too, as Linux (fdget_raw). */
SYSCALL2(fstatfs, int, fd, struct kernel_statfs __user *, buf)
{
	struct file *f = fd_get_raw(fd);

	if (!f)
		return -EBADF;
	long ret = statfs_to_user(f->inode, buf);
	file_put(f);
	return ret;
}
