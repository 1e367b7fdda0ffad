/*
 * mount.c - the root of the tree and what hangs off it at boot: a ramfs
 * root with /dev (device nodes), /proc (where procfs will be mounted) and
 * /tmp, then the devices. vfs_mount() lets another file system show its
 * root at an empty directory.
 *
 * A mount here is the covered dentry taking the other file system's root
 * inode (Linux keeps a separate mount tree; with one mount point that is
 * not worth having). Mounting is meant for boot, before any process could
 * be walking through the directory being covered.
 *
 * The mounts are also kept in a short table, the root first, for
 * /proc/mounts: written only at boot, read by anyone afterwards.
 */
#include "fs/vfs.h"
#include "uapi/errno.h"
#include "kernel/panic.h"
#include "kernel/printk.h"

struct dentry *vfs_root;

#define MAX_MOUNTS 8

static struct vfs_mount_info mounts[MAX_MOUNTS] = { { "/", DEV_RAMFS } };
static unsigned nmounts = 1;

bool
vfs_mount_at(unsigned i, struct vfs_mount_info *out)
{
	if (i >= READ_ONCE(nmounts))
		return false;
	*out = mounts[i];
	return true;
}

static void
make_dir(const char *path, u32 mode)
{
	int err = vfs_mkdirat(AT_FDCWD, path, mode);

	if (err)
		panic("vfs: cannot create %s: error %d", path, -err);
}

void
vfs_init(void)
{
	struct inode *root = ramfs_new_inode(S_IFDIR | 0755);

	vfs_root = root ? dentry_alloc_root(root) : NULL;
	if (!vfs_root)
		panic("vfs: no memory for the root directory");
	make_dir("/dev", 0755);
	make_dir("/proc", 0555);
	make_dir("/tmp", 01777);
	mem_devices_init();
	console_dev_init();
	pr_info("vfs: ramfs root with /dev, /proc, /tmp\n");
}

int
vfs_mount(const char *path, struct inode *root)
{
	struct dentry *d;
	int err = path_lookup(AT_FDCWD, path, &d);

	if (err)
		return err;
	struct inode *covered = d->inode;
	mutex_lock(&covered->lock);
	if (!S_ISDIR(covered->mode) || !S_ISDIR(root->mode))
		err = -ENOTDIR;
	else if (d->mounted || !list_empty(&d->children))
		err = -EBUSY;
	else {
		d->inode = root;
		d->mounted = true;
	}
	mutex_unlock(&covered->lock);
	if (!err) {
		inode_put(covered);
		if (nmounts < MAX_MOUNTS)
			mounts[nmounts] = (struct vfs_mount_info){ path, root->dev };
		WRITE_ONCE(nmounts, MIN(nmounts + 1, MAX_MOUNTS));
	}
	dput(d);
	return err;
}
