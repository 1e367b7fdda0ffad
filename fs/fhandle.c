/*
 * fhandle.c - name_to_handle_at and open_by_handle_at: a file named by a
 * handle that outlives any path to it (user-space file servers keep these),
 * with Linux 6.1's checks and errnos (its fs/fhandle.c).
 *
 * Only a file system that says so (fs_type.exports: tmpfs and the root's,
 * as Linux's tmpfs has export operations and its ramfs none) gives handles;
 * the others answer EOPNOTSUPP, and a handle offered to one is stale.
 *
 * A RAM file's handle is the shape of Linux's tmpfs one: FILEID_INO32_GEN,
 * three words - a generation, then the 64-bit inode number. Inode numbers
 * are never used twice in a boot (fs/inode.c counts them up), so the
 * number alone tells a file from the next one made; the generation is a
 * random word drawn once a boot, so that a handle kept across a reboot,
 * whose number now belongs to another file, is stale and not that file.
 *
 * Decoding looks the number up among the linked names of the instance
 * (and the mount's own ancestors, its root among them): a file with no
 * name left is stale here, even while open, where Linux still finds its
 * inode in its inode cache.
 */
#include "fs/vfs.h"
#include "kernel/landlock/landlock.h"
#include "kernel/process/cred.h"
#include "kernel/random.h"
#include "kernel/syscall/syscall.h"
#include "mm/kmalloc.h"
#include "uapi/errno.h"
#include "uapi/fhandle.h"

#define RAM_HANDLE_WORDS 3

/* This boot's generation: drawn at the first handle, never 0 (unset). */
static u32
boot_generation(void)
{
	static u32 generation;
	u32 g = __atomic_load_n(&generation, __ATOMIC_RELAXED), fresh, unset = 0;

	if (g)
		return g;
	do
		get_random_bytes(&fresh, sizeof(fresh));
	while (!fresh);
	if (!__atomic_compare_exchange_n(&generation, &unset, fresh, false, __ATOMIC_RELAXED,
					 __ATOMIC_RELAXED))
		return unset; /* another caller drew first */
	return fresh;
}

/*
 * The handle of inode into words, if *len (in words) has room: its type,
 * with *len set to the words used; FILEID_INVALID, with *len set to the
 * words needed, if not (Linux's exportfs_encode_fh for tmpfs).
 */
static int
encode_handle(struct inode *inode, u32 *words, u32 *len)
{
	u32 have = *len;

	*len = RAM_HANDLE_WORDS;
	if (have < RAM_HANDLE_WORDS)
		return FILEID_INVALID;
	words[0] = boot_generation();
	words[1] = (u32)inode->ino;
	words[2] = (u32)(inode->ino >> 32);
	return FILEID_INO32_GEN;
}

/*
 * Writes d's handle to the user's, whose handle_bytes says the room, and
 * the mount id: 0, -EOVERFLOW with the size needed written back (and
 * the mount id), -EINVAL for room over MAX_HANDLE_SZ, -EFAULT.
 */
static int
handle_to_user(struct dentry *d, struct kernel_file_handle __user *uhandle, int __user *umnt_id)
{
	struct kernel_file_handle head;
	u32 words[MAX_HANDLE_SZ / sizeof(u32)];

	if (!d->inode->sb->type->exports)
		return -EOPNOTSUPP;
	if (copy_from_user(&head, uhandle, sizeof(head)))
		return -EFAULT;
	if (head.handle_bytes > MAX_HANDLE_SZ)
		return -EINVAL;
	u32 len = head.handle_bytes / sizeof(u32);
	u32 room = head.handle_bytes;
	head.handle_type = encode_handle(d->inode, words, &len);
	head.handle_bytes = len * sizeof(u32);
	bool fits = head.handle_type != FILEID_INVALID && head.handle_bytes <= room;
	int mnt_id = (int)READ_ONCE(d->inode->sb->mnt_id);
	if (copy_to_user(umnt_id, &mnt_id, sizeof(mnt_id)) ||
	    copy_to_user(uhandle, &head, sizeof(head)) ||
	    (fits && copy_to_user(uhandle->f_handle, words, head.handle_bytes)))
		return -EFAULT;
	return fits ? 0 : -EOVERFLOW;
}

SYSCALL5(name_to_handle_at, int, dirfd, const char __user *, upath,
	 struct kernel_file_handle __user *, uhandle, int __user *, umnt_id, int, flags)
{
	struct dentry *d;
	char *path;

	if (flags & ~(AT_SYMLINK_FOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	int err = getname(upath, &path);
	if (err)
		return err;
	err = lookup_dentry_at(dirfd, path, flags, flags & AT_SYMLINK_FOLLOW, &d);
	putname(path);
	if (err)
		return err;
	err = handle_to_user(d, uhandle, umnt_id);
	dput(d);
	return err;
}

/* The dentry the mount fd names (the cwd for AT_FDCWD), referenced: 0, -EBADF or -ESTALE. */
static int
mount_dentry(int mountfd, struct dentry **out)
{
	int err = lookup_dentry_at(mountfd, "", AT_EMPTY_PATH, false, out);

	return err == -ENOENT ? -ESTALE : err; /* a pipe: on no file system that exports */
}

/* from or an ancestor of it on its instance numbered ino, referenced; or NULL. */
static struct dentry *
ancestor_numbered(struct dentry *from, u64 ino)
{
	struct dentry *d = dget(from);

	while (d->inode->ino != ino) {
		struct dentry *up = dget_parent(d);
		bool top = up == d || up->inode->sb != d->inode->sb;
		dput(d);
		d = up;
		if (top) {
			dput(d);
			return NULL;
		}
	}
	return d;
}

/*
 * The file a handle names on the instance of the mount at mnt, referenced:
 * 0, or -ESTALE when that instance gives no handles, the handle is not one
 * of this boot's, or its file is gone.
 */
static int
decode_handle(struct dentry *mnt, const struct kernel_file_handle *h, struct dentry **out)
{
	struct super_block *sb = mnt->inode->sb;
	const u32 *words = (const u32 *)h->f_handle;

	if (!sb->type->exports || h->handle_bytes < RAM_HANDLE_WORDS * sizeof(u32) ||
	    words[0] != boot_generation())
		return -ESTALE;
	u64 ino = (u64)words[2] << 32 | words[1];
	*out = ancestor_numbered(mnt, ino);
	if (!*out)
		*out = dentry_find_inode(sb, ino);
	return *out ? 0 : -ESTALE;
}

/* The user's handle, copied in whole: 0, -EFAULT, -EINVAL for a size of 0 or over MAX_HANDLE_SZ. */
static int
handle_from_user(const struct kernel_file_handle __user *uhandle, struct kernel_file_handle **out)
{
	struct kernel_file_handle head;

	if (copy_from_user(&head, uhandle, sizeof(head)))
		return -EFAULT;
	if (head.handle_bytes == 0 || head.handle_bytes > MAX_HANDLE_SZ)
		return -EINVAL;
	struct kernel_file_handle *h = kmalloc(sizeof(head) + head.handle_bytes);
	if (!h)
		return -ENOMEM;
	*h = head;
	if (copy_from_user(h->f_handle, uhandle->f_handle, head.handle_bytes)) {
		kfree(h);
		return -EFAULT;
	}
	*out = h;
	return 0;
}

/*
 * Opens d as open(2) would open its own name with flags (Linux opens the
 * handle's path with an empty name): O_PATH strips what it ignores, a
 * symbolic link is ELOOP but to O_PATH, O_CREAT finds it there (EEXIST
 * with O_EXCL, EISDIR for a directory). O_TMPFILE is not offered: EINVAL.
 */
static int
open_found(struct dentry *d, u32 flags, struct file **out)
{
	if (flags & O_PATH)
		flags &= O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
	if (flags & __O_TMPFILE)
		return -EINVAL;
	if (S_ISLNK(d->inode->mode) && !(flags & O_PATH))
		return -ELOOP;
	if ((flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL))
		return -EEXIST;
	if ((flags & O_CREAT) && S_ISDIR(d->inode->mode))
		return -EISDIR;
	int err = landlock_may_open(d, flags);
	return err ? err : file_open_dentry(d, flags, false, out);
}

/*
 * Only a caller who may search every directory may skip them: a handle
 * reaches a file without the walk that would check them (Linux asks the
 * same capability).
 */
SYSCALL3(open_by_handle_at, int, mountfd, const struct kernel_file_handle __user *, uhandle, int,
	 flags)
{
	struct kernel_file_handle *h;
	struct dentry *mnt, *d;
	struct file *f;

	if (!capable(CAP_DAC_READ_SEARCH))
		return -EPERM;
	int err = handle_from_user(uhandle, &h);
	if (err)
		return err;
	err = mount_dentry(mountfd, &mnt);
	if (!err) {
		err = decode_handle(mnt, h, &d);
		dput(mnt);
	}
	kfree(h);
	if (err)
		return err;
	err = open_found(d, (u32)flags, &f);
	dput(d);
	if (err)
		return err;
	return fd_install_new(f, flags & O_CLOEXEC);
}
