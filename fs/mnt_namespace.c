/*
 * mnt_namespace.c - mount namespaces: a new one for CLONE_NEWNS, made of
 * copies of each mount of the caller's (Linux's copy_tree); its end, which
 * unmounts its copies; and what nsfs and setns(2) need of them
 * (/proc/<pid>/ns/mnt).
 *
 * A copy shows the same instance, root dentry and mountpoint as the mount
 * it copies: rewind's paths are dentries, so a process's root and cwd need
 * no moving onto the copies as Linux's copy_mnt_ns moves them; the walk
 * tells the namespaces apart where it crosses a mountpoint (fs/mount.c's
 * mount hash). Mounts are private: a mount or umount in one namespace is
 * never seen in another (docs/namespaces.md).
 */
#include "fs/mount.h"
#include "fs/mnt_namespace.h"
#include "fs/fs.h"
#include "kernel/process/cred.h"
#include "kernel/process/task.h"
#include "mm/kmalloc.h"
#include "uapi/sched.h"

struct mnt_namespace *
mnt_ns_get(struct mnt_namespace *ns)
{
	__atomic_add_fetch(&ns->ns.refcount, 1, __ATOMIC_RELAXED);
	return ns;
}

/*
 * Unmounts every mount of ns and frees it (namespace_mutex held). An
 * instance that was shown only here goes as umount's MNT_DETACH takes it,
 * the top of each such tree becoming a root of its own.
 */
static void
mnt_ns_free(struct mnt_namespace *ns)
{
	struct list_head gone = LIST_HEAD_INIT(gone);

	spin_lock(&mount_lock);
	while (!list_empty(&ns->mounts))
		mount_detach(list_entry(ns->mounts.next, struct mount, link), &gone);
	spin_unlock(&mount_lock);
	struct list_head *pos;
	list_for_each(pos, &gone) {
		struct mount *m = list_entry(pos, struct mount, link);
		if (m->last && m->parent && !m->parent->last)
			dentry_make_root(m->root);
	}
	mount_release(&gone);
	kfree(ns);
}

void
mnt_ns_put(struct mnt_namespace *ns)
{
	if (!ns || __atomic_sub_fetch(&ns->ns.refcount, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	mutex_lock(&namespace_mutex);
	mnt_ns_free(ns);
	mutex_unlock(&namespace_mutex);
}

struct mnt_namespace *
mnt_ns_copy(struct mnt_namespace *old)
{
	struct mnt_namespace *ns = kzalloc(sizeof(*ns));

	if (!ns)
		return NULL;
	ns->ns = (struct ns_common){ .refcount = 1, .inum = ns_alloc_inum(), .ops = &mnt_ns_ops };
	list_init(&ns->mounts);
	mutex_lock(&namespace_mutex);
	struct list_head *pos;
	list_for_each(pos, &old->mounts) {
		struct mount *m = list_entry(pos, struct mount, link);
		struct mount *c = mount_clone(m, ns);
		if (!c) {
			mnt_ns_free(ns);
			ns = NULL;
			break;
		}
		c->parent =
			m->parent ? m->parent->copy : NULL; /* a parent comes before its children */
		m->copy = c;
		if (m == old->root)
			ns->root = c;
		mount_attach(c);
	}
	mutex_unlock(&namespace_mutex);
	return ns;
}

/* ---- what nsfs, setns and procfs use ------------------------------------------------ */

struct mnt_namespace *
mnt_ns_of_process(int pid)
{
	struct ns_common *ns = task_ns_get(pid, &mnt_ns_ops);

	return ns ? container_of(ns, struct mnt_namespace, ns) : NULL;
}

static struct ns_common *
mnt_get(struct nsproxy *nsp)
{
	return &mnt_ns_get(nsp->mnt)->ns;
}

static void
mnt_put(struct ns_common *ns)
{
	mnt_ns_put(container_of(ns, struct mnt_namespace, ns));
}

static void
mnt_install(struct nsproxy *nsp, struct ns_common *ns)
{
	mnt_ns_put(nsp->mnt);
	nsp->mnt = container_of(ns, struct mnt_namespace, ns);
}

/* Linux's mntns_install: the joiner's root and cwd become the namespace's root. */
static int
mnt_enter(struct ns_common *ns)
{
	struct mnt_namespace *mnt = container_of(ns, struct mnt_namespace, ns);

	if (!capable(CAP_SYS_CHROOT))
		return -EPERM;
	return fs_context_enter_root(mnt->root->root);
}

const struct ns_ops mnt_ns_ops = {
	.name = "mnt",
	.type = CLONE_NEWNS,
	.get = mnt_get,
	.put = mnt_put,
	.install = mnt_install,
	.enter = mnt_enter,
};
