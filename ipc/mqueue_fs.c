/*
 * mqueue_fs.c - the mqueue file system (Linux's, mounted at /dev/mqueue
 * by convention): a directory that shows the named POSIX message queues
 * of ipc/mqueue.c as files. Each mount is a view of the one name table,
 * so every mount and mq_open see the same queues: a lookup makes a fresh
 * dentry on the queue's own inode (as procfs does), getdents lists the
 * table, unlink is mq_unlink, and opening a name gives a queue
 * descriptor, whose read() is the queue's "QSIZE:..." line. Queues are
 * made by mq_open only (Linux lets creat(2) make one there too).
 */
#include "ipc/mqueue.h"
#include "fs/vfs.h"
#include "kernel/lib/string.h"
#include "kernel/panic.h"
#include "uapi/magic.h"

static int
mqfs_lookup(struct dentry *dir, const char *name, size_t len, struct dentry **out)
{
	char buf[NAME_MAX + 1];

	if (len > NAME_MAX)
		return -ENAMETOOLONG;
	memcpy(buf, name, len);
	buf[len] = '\0';
	struct inode *inode = mq_name_inode(&mq_init_ns, buf);
	if (!inode)
		return -ENOENT;
	*out = dentry_alloc_child(dir, name, len, inode);
	if (!*out) {
		inode_put(inode);
		return -ENOMEM;
	}
	return 0;
}

static int
mqfs_unlink(struct dentry *dir, struct dentry *victim)
{
	return mq_unlink_name(&mq_init_ns, victim->name);
}

/* ".", "..", then the queues, the n-th at position n + 2. */
static int
mqfs_getdents(struct file *f, struct dir_context *ctx)
{
	char name[NAME_MAX + 1];
	u64 ino;

	if (ctx->pos == 0 && !dir_emit(ctx, ".", 1, f->inode->ino, DT_DIR, 0))
		return ctx->error;
	if (ctx->pos == 1) {
		struct dentry *parent = dget_parent(f->dentry);
		bool ok = dir_emit(ctx, "..", 2, parent->inode->ino, DT_DIR, 1);
		dput(parent);
		if (!ok)
			return ctx->error;
	}
	while (mq_nth_name(&mq_init_ns, ctx->pos - 2, name, &ino) &&
	       dir_emit(ctx, name, strlen(name), ino, DT_REG, ctx->pos))
		;
	return ctx->error;
}

static const struct inode_operations mqfs_dir_iops = { .lookup = mqfs_lookup,
						       .unlink = mqfs_unlink };
static const struct file_operations mqfs_dir_fops = { .getdents = mqfs_getdents,
						      .llseek = dir_llseek };

/* Linux's: the directory is world-writable and sticky, as mq_unlink's rules are. */
static struct inode *
mqfs_new_root(struct super_block *sb)
{
	return inode_alloc(sb, S_IFDIR | 01777, &mqfs_dir_iops, &mqfs_dir_fops);
}

struct fs_type mqueue_fs_type = {
	.name = "mqueue",
	.magic = MQUEUE_MAGIC,
	.new_root = mqfs_new_root,
};

/* The type, and the instance the queues' inodes are on, made at boot (not at the first queue). */
void
mqueue_init(void)
{
	register_filesystem(&mqueue_fs_type);
	mq_init_ns.sb = sb_alloc(&mqueue_fs_type);
	if (!mq_init_ns.sb)
		panic("mqueue: no memory for the queues' instance");
}
