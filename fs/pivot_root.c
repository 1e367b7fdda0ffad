/*
 * pivot_root.c - pivot_root(2): the mount at new_root becomes the root of
 * the caller's mount namespace, and the mount that was its root moves to
 * put_old, as Linux's; every process whose root or cwd was the old root's
 * is moved onto the new one (Linux's chroot_fs_refs).
 *
 * Linux's checks, in its order: EPERM without CAP_SYS_ADMIN; ENOTDIR for
 * either path that is no directory; ENOENT for a removed new_root; EBUSY
 * when new_root or put_old is on the current root's mount; EINVAL when the
 * root or new_root is no mount's root, when the root is the namespace's
 * first mount (the rootfs, which has no parent), when put_old is not under
 * new_root or new_root not under the root.
 *
 * rewind's mounts share their root dentry with the copies in other
 * namespaces (fs/mnt_namespace.c), and moving a mount renames and
 * reparents that dentry, which another namespace would see: a pivot that
 * would move such a mount is EINVAL (docs/namespaces.md).
 */
#include "fs/mount.h"
#include "fs/fs.h"
#include "fs/namei.h"
#include "kernel/process/cred.h"
#include "kernel/syscall/syscall.h"
#include "uapi/errno.h"

/* A directory named at upath, referenced: 0 or -errno. */
static int
lookup_dir(const char __user *upath, struct dentry **out)
{
	char *path;
	int err = getname(upath, &path);

	if (err)
		return err;
	err = path_lookup(AT_FDCWD, path, out);
	putname(path);
	if (!err && !S_ISDIR((*out)->inode->mode)) {
		dput(*out);
		err = -ENOTDIR;
	}
	return err;
}

/* Linux's checks of the mounts (mount_lock held): 0 or -errno. */
static int
pivot_check(struct mnt_namespace *ns, struct dentry *root, struct dentry *new,
	    struct dentry *put_old, struct mount **rootp, struct mount **newp, struct mount **oldp)
{
	struct mount *root_mnt = mount_of_dentry(ns, root);
	struct mount *new_mnt = mount_of_dentry(ns, new);
	struct mount *old_mnt = mount_of_dentry(ns, put_old);

	if (!root_mnt || !new_mnt || !old_mnt)
		return -EINVAL; /* outside the namespace's tree */
	if (new->deleted)
		return -ENOENT;
	if (new_mnt == root_mnt || old_mnt == root_mnt)
		return -EBUSY;
	if (root_mnt->root != root || !root_mnt->mountpoint)
		return -EINVAL;
	if (new_mnt->root != new || !new_mnt->mountpoint)
		return -EINVAL;
	if (!dentry_is_ancestor(new, put_old) || !dentry_is_ancestor(root, new))
		return -EINVAL;
	if (root_mnt->sb->nr_mounts > 1 || new_mnt->sb->nr_mounts > 1)
		return -EINVAL; /* shown in another namespace too: see above */
	*rootp = root_mnt;
	*newp = new_mnt;
	*oldp = old_mnt;
	return 0;
}

/*
 * The namespace's list keeps a parent before its children (copy_tree
 * counts on it) after the pivot (mount_lock held): the new root goes just
 * before the old root, whose old place its new parent may not be before,
 * and the old root with everything below it goes to the end, in order.
 */
static void
keep_parents_first(struct mount *new_mnt, struct mount *root_mnt)
{
	struct list_head *mounts = &root_mnt->ns->mounts, moved = LIST_HEAD_INIT(moved);

	list_del(&new_mnt->link);
	list_add_tail(&new_mnt->link, &root_mnt->link);
	for (struct list_head *pos = mounts->next; pos != mounts;) {
		struct mount *m = list_entry(pos, struct mount, link);
		pos = pos->next;
		if (mount_is_below(m, root_mnt)) {
			list_del(&m->link);
			list_add_tail(&m->link, &moved);
		}
	}
	while (!list_empty(&moved)) {
		struct list_head *first = moved.next;
		list_del(first);
		list_add_tail(first, mounts);
	}
}

/* The mounts move (namespace_mutex held): 0, or -ENOMEM with nothing moved. */
static int
pivot(struct mount *root_mnt, struct mount *new_mnt, struct mount *old_mnt, struct dentry *put_old)
{
	struct dentry *root_mp = root_mnt->mountpoint;
	struct mount *root_parent = root_mnt->parent;
	struct dentry *new_mp = new_mnt->mountpoint;

	/* new_root's root first: put_old may be that very dentry (pivot_root(".", ".")). */
	int err = dentry_cover(new_mnt->root, root_mp);
	if (!err && (err = dentry_cover(root_mnt->root, put_old)) != 0)
		dentry_cover(new_mnt->root, new_mp);
	if (err)
		return err;
	dget(root_mp);
	mount_move(root_mnt, put_old, old_mnt);
	mount_move(new_mnt, root_mp, root_parent);
	dput(root_mp);
	spin_lock(&mount_lock);
	keep_parents_first(new_mnt, root_mnt);
	spin_unlock(&mount_lock);
	fs_context_move_refs(root_mnt->root, new_mnt->root);
	return 0;
}

SYSCALL2(pivot_root, const char __user *, unew_root, const char __user *, uput_old)
{
	struct dentry *new, *put_old;
	struct mount *root_mnt, *new_mnt, *old_mnt;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	int err = lookup_dir(unew_root, &new);
	if (err)
		return err;
	err = lookup_dir(uput_old, &put_old);
	if (err) {
		dput(new);
		return err;
	}
	struct dentry *root = current_root();
	struct mnt_namespace *ns = current_mnt_ns();
	mutex_lock(&namespace_mutex);
	put_old = mount_follow(put_old); /* a mount may have come there meanwhile: the top */
	spin_lock(&mount_lock);
	err = pivot_check(ns, root, new, put_old, &root_mnt, &new_mnt, &old_mnt);
	spin_unlock(&mount_lock);
	if (!err)
		err = pivot(root_mnt, new_mnt, old_mnt, put_old);
	mutex_unlock(&namespace_mutex);
	dput(root);
	dput(put_old);
	dput(new);
	return err;
}
