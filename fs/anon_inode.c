/*
 * anon_inode.c - open files with no name: epoll instances, event fds,
 * signal fds, inotify instances. They all share one inode (mode 0600, no file type, as
 * Linux's anon_inode_inode) on an instance that is never mounted; their
 * operations come with the file (the inode's own only refuse an open), and /proc/<pid>/fd shows each as
 * "anon_inode:<kind>" (file_operations.name).
 */
#include "fs/vfs.h"
#include "kernel/panic.h"
#include "uapi/magic.h"

struct fs_type anon_inodefs_type = { .name = "anon_inodefs", .magic = ANON_INODE_FS_MAGIC };
struct super_block *anon_inode_sb;
static struct inode *anon_inode;
static const struct file_operations unowned_fops = { .name = "[unowned]" };

/* Opening one anew (through /proc/<pid>/fd/N) is ENXIO, as Linux's anon_inode_fops. */
static int
anon_inode_open(struct inode *inode, struct file *f)
{
	return -ENXIO;
}

static const struct file_operations anon_inode_fops = { .open = anon_inode_open };

void
anon_inode_init(void)
{
	anon_inode_sb = sb_alloc(&anon_inodefs_type);
	anon_inode =
		anon_inode_sb ? inode_alloc(anon_inode_sb, 0600, NULL, &anon_inode_fops) : NULL;
	if (!anon_inode)
		panic("vfs: no memory for the anonymous inode");
}

struct file *
anon_inode_getfile(const struct file_operations *fops, void *priv, u32 flags)
{
	struct file *f = file_alloc(anon_inode, NULL, flags & (O_ACCMODE | O_NONBLOCK));

	if (f) {
		f->ops = fops;
		f->private = priv;
	}
	return f;
}

int
anon_inode_getfd(const struct file_operations *fops, void *priv, u32 flags)
{
	struct file *f = anon_inode_getfile(fops, priv, flags);

	if (!f)
		return -ENOMEM;
	int fd = fd_alloc(f, 0, flags & O_CLOEXEC);
	if (fd < 0) {
		f->ops = &unowned_fops; /* nobody saw f: priv stays the caller's */
		file_put(f);
	}
	return fd;
}
