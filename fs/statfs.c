/*
 * statfs.c - statfs and fstatfs: what the file-system instance a file is
 * on says about itself (fs/super.c), as Linux's statfs(2) reports it.
 *
 * Each type answers as its Linux counterpart: tmpfs (and the root, which
 * is what Linux's rootfs is when it is an initramfs) with TMPFS_MAGIC and
 * its own size and inodes in 4 KiB blocks (fs/tmpfs.c); ramfs, procfs
 * and pipes as Linux's simple_statfs, only the type, the block size and
 * the name length. Linux's devtmpfs at /dev is a tmpfs too, and rewind's
 * /dev is in the root, so the device nodes answer the same.
 *
 * f_flags are the mount's ST_* flags with ST_VALID, as Linux's
 * calculate_f_flags; f_fsid is a tmpfs instance's st_dev (Linux's tmpfs
 * makes one from its uuid), 0 for the others as in Linux.
 */
#include "fs/vfs.h"
#include "uapi/errno.h"
#include "uapi/magic.h"
#include "uapi/mount.h"
#include "uapi/statfs.h"
#include "kernel/syscall/syscall.h"
#include "kernel/lib/string.h"

/* The MS_* flags an instance keeps, as statfs's ST_* (equal values but relatime's). */
static long
st_flags(u32 ms)
{
	long st = ST_VALID | (ms & (MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_SYNCHRONOUS |
				    MS_NOATIME | MS_NODIRATIME));

	return ms & MS_RELATIME ? st | ST_RELATIME : st;
}

static void
fill_statfs(struct inode *inode, struct kernel_statfs *st)
{
	struct super_block *sb = inode->sb;

	*st = (struct kernel_statfs){
		.f_type = sb->type->magic,
		.f_bsize = PAGE_SIZE,
		.f_frsize = PAGE_SIZE,
		.f_namelen = NAME_MAX,
		.f_flags = st_flags(READ_ONCE(sb->flags)),
	};
	if (sb->type->usage) {
		u64 blocks, bfree, files, ffree;
		sb->type->usage(sb, &blocks, &bfree, &files, &ffree);
		st->f_fsid.val[0] = (int)sb->dev;
		st->f_blocks = blocks;
		st->f_bfree = st->f_bavail = bfree;
		st->f_files = files;
		st->f_ffree = ffree;
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

/* ustat(2)'s answer: an int and a long, then two names Linux leaves empty (32 bytes). */
struct kernel_ustat {
	int f_tfree;
	unsigned long f_tinode;
	char f_fname[6];
	char f_fpack[6];
};

/*
 * The free blocks and inodes of the mounted instance whose device number
 * is dev (Linux searches every instance; the mounted ones are those a
 * stat can name): -EINVAL for no such instance.
 */
SYSCALL2(ustat, unsigned, dev, struct kernel_ustat __user *, ubuf)
{
	struct inode *root = mount_root_inode_of_dev(dev);
	struct kernel_statfs st;
	struct kernel_ustat u;

	if (!root)
		return -EINVAL;
	fill_statfs(root, &st);
	inode_put(root);
	memset(&u, 0, sizeof(u));
	u.f_tfree = (int)st.f_bfree;
	u.f_tinode = st.f_ffree;
	return copy_to_user(ubuf, &u, sizeof(u)) ? -EFAULT : 0;
}
