/*
 * mount_setattr.c - mount_setattr(2) (Linux 5.12): sets and clears a
 * mount's flags (read-only, nosuid, nodev, noexec, the atime setting,
 * nodiratime, nosymfollow), with AT_RECURSIVE on every mount below it too,
 * and takes a propagation type, as Linux's.
 *
 * Linux's checks in its order: EINVAL for unknown flags, E2BIG for a
 * structure past a page, EINVAL for one shorter than the first version,
 * EPERM without CAP_SYS_ADMIN; a call that changes nothing succeeds at once;
 * EINVAL for unknown attributes, more than one propagation type, an atime
 * value without MOUNT_ATTR__ATIME in attr_clr, a path that is not a mount's
 * root, or the namespace's first mount; EBUSY for read-only over files
 * open for writing (nothing changes then).
 *
 * The flags live in the instance (fs/mount.c), shared by its copies in
 * other mount namespaces; propagation is taken and changes nothing, as
 * mount(2)'s MS_SHARED, and an ID-mapped mount needs a user namespace,
 * which rewind does not have (docs/namespaces.md).
 */
#include "fs/mount.h"
#include "fs/namei.h"
#include "kernel/process/cred.h"
#include "kernel/syscall/syscall.h"
#include "mm/kmalloc.h"
#include "mm/uaccess.h"
#include "uapi/errno.h"
#include "uapi/fcntl.h"
#include "uapi/mount.h"
#include "uapi/mount_attr.h"

#define SETATTR_AT_FLAGS (AT_EMPTY_PATH | AT_RECURSIVE | AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT)
#define ATTR_VALID                                                                      \
	(MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC | \
	 MOUNT_ATTR__ATIME | MOUNT_ATTR_NODIRATIME | MOUNT_ATTR_IDMAP | MOUNT_ATTR_NOSYMFOLLOW)
#define PROPAGATION_TYPES (MS_SHARED | MS_SLAVE | MS_PRIVATE | MS_UNBINDABLE)

/* The instance flags to clear and to set. */
struct flag_change {
	u32 clr, set;
};

/* The MS_* flags of MOUNT_ATTR_* bits, the atime value aside. */
static u32
ms_flags(u64 attr)
{
	static const struct {
		u64 attr;
		u32 ms;
	} map[] = {
		{ MOUNT_ATTR_RDONLY, MS_RDONLY },
		{ MOUNT_ATTR_NOSUID, MS_NOSUID },
		{ MOUNT_ATTR_NODEV, MS_NODEV },
		{ MOUNT_ATTR_NOEXEC, MS_NOEXEC },
		{ MOUNT_ATTR_NODIRATIME, MS_NODIRATIME },
		{ MOUNT_ATTR_NOSYMFOLLOW, MS_NOSYMFOLLOW },
	};
	u32 ms = 0;

	for (size_t i = 0; i < ARRAY_SIZE(map); i++)
		if (attr & map[i].attr)
			ms |= map[i].ms;
	return ms;
}

/* Linux's build_mount_kattr: the change a mount_attr asks for, or -errno. */
static int
flag_change_of(const struct mount_attr *a, struct flag_change *c)
{
	u64 prop = a->propagation;

	if ((prop & ~(u64)PROPAGATION_TYPES) || (prop & (prop - 1)))
		return -EINVAL;
	if ((a->attr_set | a->attr_clr) & ~(u64)ATTR_VALID)
		return -EINVAL;
	c->clr = ms_flags(a->attr_clr);
	c->set = ms_flags(a->attr_set);
	if (a->attr_clr & MOUNT_ATTR__ATIME) {
		if ((a->attr_clr & MOUNT_ATTR__ATIME) != MOUNT_ATTR__ATIME)
			return -EINVAL;
		c->clr |= MS_NOATIME | MS_RELATIME;
		switch (a->attr_set & MOUNT_ATTR__ATIME) {
		case MOUNT_ATTR_RELATIME:
			c->set |= MS_RELATIME;
			break;
		case MOUNT_ATTR_NOATIME:
			c->set |= MS_NOATIME;
			break;
		case MOUNT_ATTR_STRICTATIME:
			break;
		default:
			return -EINVAL;
		}
	} else if (a->attr_set & MOUNT_ATTR__ATIME) {
		return -EINVAL;
	}
	if (a->attr_clr & MOUNT_ATTR_IDMAP)
		return -EINVAL;
	if (a->attr_set & MOUNT_ATTR_IDMAP) {
		if (a->userns_fd > 0x7fffffff)
			return -EINVAL;
		struct file *f = fd_get((int)a->userns_fd);
		if (!f)
			return -EBADF;
		file_put(f);
		return -EINVAL; /* no file is a user namespace's here */
	}
	return 0;
}

/*
 * The new flags on top's instance and, if recursive, on those of every
 * mount below it (namespace_mutex held): all, or -EBUSY and none.
 */
static int
change_flags(struct mount *top, bool recursive, const struct flag_change *c)
{
	struct list_head *mounts = &top->ns->mounts, *pos;
	size_t n = 0, i = 0;

	list_for_each(pos, mounts)
		n += recursive ? mount_is_below(list_entry(pos, struct mount, link), top) : 0;
	u32 *old = kmalloc(sizeof(u32) * (n ? n : 1));
	if (!old)
		return -ENOMEM;
	int err = 0;
	list_for_each(pos, mounts) {
		struct mount *m = list_entry(pos, struct mount, link);
		if (m != top && !(recursive && mount_is_below(m, top)))
			continue;
		struct super_block *sb = m->sb;
		old[i] = READ_ONCE(sb->flags);
		u32 want = (old[i] & ~c->clr) | c->set;
		i++;
		/* Set, then look for writers: an open racing sees read-only or is counted. */
		__atomic_store_n(&sb->flags, want, __ATOMIC_SEQ_CST);
		if ((want & MS_RDONLY) && !(old[i - 1] & MS_RDONLY) &&
		    __atomic_load_n(&sb->writers, __ATOMIC_SEQ_CST)) {
			err = -EBUSY;
			break;
		}
	}
	if (err) { /* back as they were, in the same order */
		size_t done = i;
		i = 0;
		list_for_each(pos, mounts) {
			struct mount *m = list_entry(pos, struct mount, link);
			if (i == done)
				break;
			if (m == top || (recursive && mount_is_below(m, top)))
				__atomic_store_n(&m->sb->flags, old[i++], __ATOMIC_SEQ_CST);
		}
	}
	kfree(old);
	return err;
}

static int
do_mount_setattr(struct dentry *d, unsigned flags, const struct flag_change *c)
{
	struct mnt_namespace *ns = current_mnt_ns();
	int err;

	mutex_lock(&namespace_mutex);
	spin_lock(&mount_lock);
	struct mount *m = mount_of_root(ns, d);
	spin_unlock(&mount_lock);
	if (!m || m == ns->root)
		err = -EINVAL; /* not a mount's root; the first mount has no parent */
	else
		err = change_flags(m, flags & AT_RECURSIVE, c);
	mutex_unlock(&namespace_mutex);
	return err;
}

SYSCALL5(mount_setattr, int, dfd, const char __user *, upath, unsigned, flags,
	 struct mount_attr __user *, uattr, size_t, usize)
{
	struct mount_attr a;
	struct flag_change c;
	struct dentry *d;
	char *path;

	if (flags & ~SETATTR_AT_FLAGS)
		return -EINVAL;
	if (usize > PAGE_SIZE)
		return -E2BIG;
	if (usize < MOUNT_ATTR_SIZE_VER0)
		return -EINVAL;
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	int err = copy_struct_from_user(&a, sizeof(a), uattr, usize);
	if (err)
		return err;
	if (!a.attr_set && !a.attr_clr && !a.propagation)
		return 0; /* Linux does not even look the path up */
	err = flag_change_of(&a, &c);
	if (!err)
		err = getname(upath, &path);
	if (err)
		return err;
	err = lookup_dentry_at(dfd, path, flags, !(flags & AT_SYMLINK_NOFOLLOW), &d);
	putname(path);
	if (err)
		return err;
	err = do_mount_setattr(d, flags, &c);
	dput(d);
	return err;
}
