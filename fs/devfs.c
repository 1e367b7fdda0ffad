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

/* The registered devices by number; filled at boot only, so read without a lock. */
#define MAX_DEVICES 16

static struct device_number {
	u32 rdev;
	const struct file_operations *ops;
	void *priv;
} devices[MAX_DEVICES];
static unsigned ndevices;

static int
no_device_open(struct inode *inode, struct file *f)
{
	(void)inode;
	(void)f;
	return -ENXIO;
}

static const struct file_operations no_device_fops = { .open = no_device_open };

void
devfs_bind_node(struct inode *inode)
{
	for (unsigned i = 0; S_ISCHR(inode->mode) && i < ndevices; i++) {
		if (devices[i].rdev == inode->rdev) {
			inode->private = devices[i].priv;
			inode->fops = devices[i].ops;
			return;
		}
	}
	inode->fops = &no_device_fops;
}

int
devfs_register(const char *name, u32 rdev, const struct file_operations *ops, void *priv)
{
	return devfs_register_mode(name, rdev, 0666, ops, priv);
}

int
devfs_register_mode(const char *name, u32 rdev, u32 mode, const struct file_operations *ops,
		    void *priv)
{
	struct dentry *dir, *d;
	int err = path_lookup(AT_FDCWD, "/dev", &dir);

	if (!err) {
		err = vfs_create(dir, name, strlen(name), S_IFCHR | mode, true, &d, NULL);
		dput(dir);
	}
	if (err) {
		pr_err("devfs: cannot create /dev/%s: error %d\n", name, -err);
		return err;
	}
	if (ndevices < MAX_DEVICES)
		devices[ndevices++] = (struct device_number){ rdev, ops, priv };
	else
		pr_err("devfs: /dev/%s cannot be found by number: raise MAX_DEVICES\n", name);
	d->inode->rdev = rdev;
	d->inode->private = priv;
	d->inode->fops = ops;
	dput(d);
	return 0;
}
