/*
 * fs_context.c - each process's root and working directory and its umask,
 * and the calls that read or change them: chdir, fchdir, getcwd, umask.
 *
 * Shared by threads (and counted for that); fork copies it, execve keeps
 * it. Its root and cwd each pin their file-system instance (super.c), so
 * that umount of a mount a process works in is EBUSY. Kernel threads have none and work from the global root. Not here:
 * the walk that uses them (namei.c).
 */
#include "fs/vfs.h"
#include "uapi/errno.h"
#include "kernel/syscall/syscall.h"
#include "kernel/process/task.h"
#include "mm/kmalloc.h"

#define DEFAULT_UMASK 022

static struct fs_context *
current_fs(void)
{
	struct task *t = current();

	return t ? t->fs : NULL;
}

static struct dentry *
fs_get(struct fs_context *fs, struct dentry **which)
{
	spin_lock(&fs->lock);
	struct dentry *d = dget(*which);
	spin_unlock(&fs->lock);
	return d;
}

struct dentry *
current_root(void)
{
	struct fs_context *fs = current_fs();

	return fs ? fs_get(fs, &fs->root) : dget(vfs_root);
}

struct dentry *
current_cwd(void)
{
	struct fs_context *fs = current_fs();

	return fs ? fs_get(fs, &fs->cwd) : dget(vfs_root);
}

u32
current_umask(void)
{
	struct fs_context *fs = current_fs();

	return fs ? READ_ONCE(fs->umask) : DEFAULT_UMASK;
}

static struct fs_context *
fs_context_new(struct dentry *root, struct dentry *cwd, u32 umask)
{
	struct fs_context *fs = kzalloc(sizeof(*fs));

	if (!fs)
		return NULL;
	fs->refcount = 1;
	spin_lock_init(&fs->lock, "fs_context");
	fs->root = dget(root);
	fs->cwd = dget(cwd);
	sb_pin(root->inode->sb);
	sb_pin(cwd->inode->sb);
	fs->umask = umask;
	return fs;
}

struct fs_context *
fs_context_root(void)
{
	return fs_context_new(vfs_root, vfs_root, DEFAULT_UMASK);
}

struct fs_context *
fs_context_share(struct fs_context *fs)
{
	__atomic_add_fetch(&fs->refcount, 1, __ATOMIC_RELAXED);
	return fs;
}

struct fs_context *
fs_context_dup(struct fs_context *old)
{
	spin_lock(&old->lock);
	struct dentry *root = dget(old->root), *cwd = dget(old->cwd);
	spin_unlock(&old->lock);
	struct fs_context *fs = fs_context_new(root, cwd, READ_ONCE(old->umask));
	dput(root);
	dput(cwd);
	return fs;
}

void
fs_context_put(struct fs_context *fs)
{
	if (!fs || __atomic_sub_fetch(&fs->refcount, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	sb_unpin(fs->root->inode->sb);
	sb_unpin(fs->cwd->inode->sb);
	dput(fs->root);
	dput(fs->cwd);
	kfree(fs);
}

/* Makes d (a referenced dentry, handed over) the cwd, if it is a directory the caller may search. */
static int
set_cwd(struct dentry *d)
{
	struct fs_context *fs = current_fs();
	int err = S_ISDIR(d->inode->mode) ? inode_permission(d->inode, MAY_EXEC) : -ENOTDIR;

	if (err) {
		dput(d);
		return err;
	}
	sb_pin(d->inode->sb);
	spin_lock(&fs->lock);
	struct dentry *old = fs->cwd;
	fs->cwd = d;
	spin_unlock(&fs->lock);
	sb_unpin(old->inode->sb);
	dput(old);
	return 0;
}

SYSCALL1(chdir, const char __user *, upath)
{
	struct dentry *d;
	char *path;
	int err = getname(upath, &path);

	if (err)
		return err;
	err = path_lookup(AT_FDCWD, path, &d);
	putname(path);
	return err ? err : set_cwd(d);
}

SYSCALL1(fchdir, int, fd)
{
	struct file *f = fd_get_raw(fd);

	if (!f)
		return -EBADF;
	struct dentry *d = f->dentry ? dget(f->dentry) : NULL;
	file_put(f);
	return d ? set_cwd(d) : -ENOTDIR;
}

/* The path of the directory cwd: its length, -ENOENT once it was removed. */
static long
cwd_path(struct dentry *cwd, char *buf)
{
	if (cwd->deleted)
		return -ENOENT;
	long len = dentry_path(cwd, buf, PATH_MAX);
	return len == -ERANGE ? -ENAMETOOLONG : len;
}

SYSCALL2(getcwd, char __user *, ubuf, unsigned long, size)
{
	struct dentry *cwd = current_cwd();
	char *buf = kmalloc(PATH_MAX);
	long len = buf ? cwd_path(cwd, buf) : -ENOMEM;

	if (len >= 0 && (unsigned long)len + 1 > size)
		len = -ERANGE;
	else if (len >= 0) /* getcwd(2) counts the NUL */
		len = copy_to_user(ubuf, buf, (size_t)len + 1) ? -EFAULT : len + 1;
	kfree(buf);
	dput(cwd);
	return len;
}

SYSCALL1(umask, int, mask)
{
	struct fs_context *fs = current_fs();

	return (long)__atomic_exchange_n(&fs->umask, (u32)mask & 0777, __ATOMIC_RELAXED);
}
