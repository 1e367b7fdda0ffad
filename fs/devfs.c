/*
 * devfs.c - character devices: /dev/<name> nodes whose opens go to a
 * driver's file_operations instead of a file system's.
 *
 * A node is an ordinary ramfs inode of type S_IFCHR (so ls, stat, rename
 * and unlink treat it as Linux's devtmpfs would) carrying the driver's
 * operations, private data and device number. Registration is for boot;
 * see vfs.h for how a driver uses it. Not here: the drivers
 * (mem_devices.c, drivers/tty.c).
 */
#include "fs/vfs.h"
#include "uapi/errno.h"
#include "kernel/printk.h"
#include "kernel/lib/string.h"

int
devfs_register(const char *name, u32 rdev, const struct file_operations *ops, void *priv)
{
	struct dentry *dir, *d;
	int err = path_lookup(AT_FDCWD, "/dev", &dir);

	if (!err) {
		err = vfs_create(dir, name, strlen(name), S_IFCHR | 0666, true, &d, NULL);
		dput(dir);
	}
	if (err) {
		pr_err("devfs: cannot create /dev/%s: error %d\n", name, -err);
		return err;
	}
	d->inode->rdev = rdev;
	d->inode->private = priv;
	d->inode->fops = ops;
	dput(d);
	return 0;
}
