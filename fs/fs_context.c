/*
 * fs_context.c - each process's root and working directory and its umask,
 * and the calls that read or change them: chdir, fchdir, chroot, getcwd,
 * umask.
 *
 * Shared by threads (and counted for that); fork copies it, execve keeps
 * it. Its root and cwd each pin their file-system instance (super.c), so
 * that umount of a mount a process works in is EBUSY. Kernel threads have none and work from the global root. Not here:
 * the walk that uses them (namei.c).
 */
#include "fs/vfs.h"
#include "uapi/errno.h"
#include "kernel/syscall/syscall.h"
#include "kernel/process/cred.h"
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

/* Swapped under tasks_lock, as exit does, for procfs's sake (its cwd and root links). */
int
fs_context_unshare(void)
{
	struct task *t = current();
	struct fs_context *old = t->fs;

	if (__atomic_load_n(&old->refcount, __ATOMIC_ACQUIRE) == 1)
		return 0;
	struct fs_context *copy = fs_context_dup(old);
	if (!copy)
		return -ENOMEM;
	u64 flags = spin_lock_irqsave(&tasks_lock);
	t->fs = copy;
	spin_unlock_irqrestore(&tasks_lock, flags);
	fs_context_put(old);
	return 0;
}

/* Swaps d (a referenced dentry, handed over) in for *which, fs's root or cwd. */
static void
replace_fs_dir(struct fs_context *fs, struct dentry **which, struct dentry *d)
{
	sb_pin(d->inode->sb);
	spin_lock(&fs->lock);
	struct dentry *old = *which;
	*which = d;
	spin_unlock(&fs->lock);
	sb_unpin(old->inode->sb);
	dput(old);
}

int
fs_context_enter_root(struct dentry *root)
{
	struct fs_context *fs = current_fs();

	if (__atomic_load_n(&fs->refcount, __ATOMIC_ACQUIRE) != 1)
		return -EINVAL; /* shared with another task (CLONE_FS), as Linux's mntns_install */
	replace_fs_dir(fs, &fs->root, dget(root));
	replace_fs_dir(fs, &fs->cwd, dget(root));
	return 0;
}

void
fs_context_move_refs(struct dentry *old, struct dentry *new)
{
	u64 irq = spin_lock_irqsave(&tasks_lock);
	struct list_head *pos;

	list_for_each(pos, &all_tasks) {
		struct fs_context *fs = list_entry(pos, struct task, all_link)->fs;
		if (fs && fs->root == old)
			replace_fs_dir(fs, &fs->root, dget(new));
		if (fs && fs->cwd == old)
			replace_fs_dir(fs, &fs->cwd, dget(new));
	}
	spin_unlock_irqrestore(&tasks_lock, irq);
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

/*
 * Makes d (a referenced dentry, handed over) the cwd or the root (which of
 * fs's two), if it is a directory the caller may search.
 */
static int
set_fs_dir(struct dentry *d, bool root)
{
	struct fs_context *fs = current_fs();
	int err = S_ISDIR(d->inode->mode) ? inode_permission(d->inode, MAY_EXEC) : -ENOTDIR;

	if (!err && root && !capable(CAP_SYS_CHROOT))
		err = -EPERM; /* CAP_SYS_CHROOT, asked after the path as Linux's chroot does */
	if (err) {
		dput(d);
		return err;
	}
	replace_fs_dir(fs, root ? &fs->root : &fs->cwd, d);
	return 0;
}

static int
set_cwd(struct dentry *d)
{
	return set_fs_dir(d, false);
}

/* chdir and chroot: the directory named at upath becomes the cwd, or the root. */
static int
set_fs_dir_named(const char __user *upath, bool root)
{
	struct dentry *d;
	char *path;
	int err = getname(upath, &path);

	if (err)
		return err;
	err = path_lookup(AT_FDCWD, path, &d);
	putname(path);
	return err ? err : set_fs_dir(d, root);
}

SYSCALL1(chdir, const char __user *, upath)
{
	return set_fs_dir_named(upath, false);
}

/*
 * chroot: path lookups from this process (and the threads and children
 * sharing or copying its fs_context) start at path for "/", and ".." stops
 * there (namei.c's dotdot). The cwd stays where it is, as on Linux: a
 * process that does not chdir into the new root can still reach outside it.
 */
SYSCALL1(chroot, const char __user *, upath)
{
	return set_fs_dir_named(upath, true);
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

/* The path of the directory cwd seen from root: its length, -ENOENT once it was removed. */
static long
cwd_path(struct dentry *cwd, struct dentry *root, char *buf)
{
	if (cwd->deleted)
		return -ENOENT;
	long len = dentry_path_from(cwd, root, buf, PATH_MAX);
	return len == -ERANGE ? -ENAMETOOLONG : len;
}

SYSCALL2(getcwd, char __user *, ubuf, unsigned long, size)
{
	struct dentry *cwd = current_cwd(), *root = current_root();
	char *buf = kmalloc(PATH_MAX);
	long len = buf ? cwd_path(cwd, root, buf) : -ENOMEM;

	if (len >= 0 && (unsigned long)len + 1 > size)
		len = -ERANGE;
	else if (len >= 0) /* getcwd(2) counts the NUL */
		len = copy_to_user(ubuf, buf, (size_t)len + 1) ? -EFAULT : len + 1;
	kfree(buf);
	dput(cwd);
	dput(root);
	return len;
}

SYSCALL1(umask, int, mask)
{
	struct fs_context *fs = current_fs();

	return (long)__atomic_exchange_n(&fs->umask, (u32)mask & 0777, __ATOMIC_RELAXED);
}
