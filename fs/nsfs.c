/*
 * nsfs.c - namespaces as files, Linux's nsfs: what /proc/<pid>/ns/<kind>
 * leads to (fs/proc/pid_ns.c), an inode whose number is the namespace's
 * (kernel/process/nsproxy.h), so that two processes share a namespace
 * exactly when stat gives both links the same device and inode numbers.
 * An open one holds the namespace alive, answers the NS_GET_* ioctls and
 * is what setns(2) joins.
 *
 * Each open makes an inode of its own on the one nsfs instance (made at
 * boot, so that no program's first open seems to leak it), with the
 * namespace's number: Linux keeps one inode a
 * namespace, which no caller can tell from this.
 */
#include "fs/vfs.h"
#include "fs/nsfs.h"
#include "kernel/process/nsproxy.h"
#include "kernel/syscall/syscall.h"
#include "kernel/lib/vsprintf.h"
#include "kernel/panic.h"
#include "uapi/magic.h"
#include "uapi/nsfs.h"

static struct fs_type nsfs_type = { .name = "nsfs", .magic = NSFS_MAGIC };
static struct super_block *nsfs_sb;

void
nsfs_init(void)
{
	nsfs_sb = sb_alloc(&nsfs_type);
	if (!nsfs_sb)
		panic("nsfs: no memory for its instance");
}

static void
ns_inode_evict(struct inode *inode)
{
	struct ns_common *ns = inode->private;

	ns->ops->put(ns);
}

static int
ns_open(struct inode *inode, struct file *f)
{
	return 0;
}

/*
 * UTS and IPC namespaces have no parent, and no user namespace is a file
 * here: NS_GET_PARENT and NS_GET_OWNER_UID are EINVAL as Linux's for these
 * kinds; NS_GET_USERNS is ENOTTY (docs/namespaces.md).
 */
static long
ns_ioctl(struct file *f, unsigned cmd, unsigned long arg)
{
	struct ns_common *ns = f->inode->private;

	switch (cmd) {
	case NS_GET_NSTYPE:
		return ns->ops->type;
	case NS_GET_PARENT:
	case NS_GET_OWNER_UID:
		return -EINVAL;
	default:
		return -ENOTTY;
	}
}

static const struct file_operations ns_fops = { .open = ns_open, .ioctl = ns_ioctl };
static const struct inode_operations ns_iops = { .evict = ns_inode_evict };

/* The namespace behind an nsfs file, or NULL. */
static struct ns_common *
ns_of_file(struct file *f)
{
	return f->inode->fops == &ns_fops ? f->inode->private : NULL;
}

int
nsfs_dentry(struct ns_common *ns, struct dentry **out)
{
	struct inode *inode = inode_alloc(nsfs_sb, S_IFREG | 0444, &ns_iops, &ns_fops);
	char name[32];

	if (!inode) {
		ns->ops->put(ns);
		return -ENOMEM;
	}
	inode->ino = ns->inum;
	inode->private = ns; /* the caller's reference, dropped at eviction */
	int len = nsfs_link_text(ns, name, sizeof(name));
	/* Named as the link reads, and linked under no directory: no walk finds it (pipe_dentry). */
	*out = dentry_alloc_child(vfs_root, name, (size_t)len, inode);
	return *out ? 0 : -ENOMEM;
}

int
nsfs_link_text(const struct ns_common *ns, char *buf, size_t size)
{
	return ksnprintf(buf, size, "%s:[%u]", ns->ops->name, ns->inum);
}

/*
 * setns(fd, nstype): the caller joins the namespace fd's file stands for;
 * nstype 0 takes any kind, else it must be the file's. A pidfd (Linux 5.8's
 * other form) is EINVAL here, as any file that is not a namespace's.
 */
SYSCALL2(setns, int, fd, int, nstype)
{
	struct file *f = fd_get(fd);
	long err;

	if (!f)
		return -EBADF;
	struct ns_common *ns = ns_of_file(f);
	if (!ns || (nstype && nstype != ns->ops->type))
		err = -EINVAL;
	else
		err = nsproxy_join(ns);
	file_put(f);
	return err;
}
