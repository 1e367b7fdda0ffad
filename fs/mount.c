/*
 * mount.c - the mount table: the root file system made at boot, and
 * mount(2) and umount2(2), which show a new file-system instance at a
 * directory and take it away again, as Linux's do.
 *
 * A mount is an instance (super.c) shown at a dentry it covers. The
 * instance's root gets a dentry of its own, named as the covered one and
 * with the same parent (dentry_alloc_mount_root): ".." out of it leads
 * where ".." out of the covered directory would, and getcwd and
 * /proc/mounts read paths through it as on Linux. The covered dentry is
 * left as it was, its contents hidden and back after umount; the path walk
 * steps from it onto the top mount's root (mount_follow). Mounting on a
 * directory that is already a mount point stacks: the new mount covers the
 * root of the one that was on top, and umount takes the top one off.
 *
 * Each mount namespace (fs/mnt_namespace.c) has a tree of its own; a
 * mount(2) or umount2(2) changes the caller's. The tree is bounded as
 * Linux's is: at most mount_max mounts (/proc/sys/fs/mount-max, 100000),
 * the root's included; past it mount(2) fails with ENOSPC. Each mount's
 * memory is charged to the process that made it (mm/oom_kill.h), as
 * Linux's mnt_cache is SLAB_ACCOUNT: it stays charged after the process is
 * gone, while the mount lives.
 *
 * What rewind leaves out: bind mounts and MS_MOVE (EINVAL; an instance has
 * one mount in a namespace, so the mount flags live in the instance),
 * propagation (MS_SHARED and friends are accepted on a mount point and
 * change nothing: every mount is private), MNT_EXPIRE (EINVAL), and
 * mounting on the root directory itself (EBUSY: a process's root would not
 * see it, as on Linux, and it could never be unmounted).
 *
 * Invariants, all under mount_lock (a spinlock):
 *   - a namespace's mounts holds its attached mounts in mount order, its
 *     root first, and the mount hash each that has a mountpoint, under
 *     (namespace, mountpoint);
 *   - dentry->mounted counts the attached mounts whose mountpoint it is,
 *     in every namespace (in one, at most one: a second mount there covers
 *     the first's root instead), and a mount holds a reference on its
 *     mountpoint and its root dentry;
 *   - sb->nr_mounts counts the attached mounts of the instance; the last
 *     one's going unmounts it;
 *   - a mount's parent is the mount of its namespace its mountpoint is on.
 * The walk reads dentry->mounted without the lock, and only when it is
 * non-zero takes the lock to find the mount; a umount racing with it
 * leaves it either on the covered dentry or holding the unmounted root.
 * namespace_mutex serializes mount, remount and umount (they sleep: path
 * walks, options, the tree's teardown) and keeps the table still for
 * /proc/mounts; it is taken before mount_lock, never under it.
 */
#include "fs/vfs.h"
#include "fs/hugetlbfs.h"
#include "fs/mount.h"
#include "kernel/process/cred.h"
#include "uapi/errno.h"
#include "uapi/mount.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/process/task.h"
#include "kernel/syscall/syscall.h"
#include "kernel/lib/string.h"
#include "kernel/lib/vsprintf.h"
#include "locking/lockdebug.h"
#include "mm/kmalloc.h"
#include "mm/oom_kill.h"

unsigned long mount_max = 100000;

struct dentry *vfs_root;

static struct mount root_mount = { .source = "rootfs", .ns = &init_mnt_ns };
struct mnt_namespace init_mnt_ns = {
	.ns = { .refcount = 1, .ops = &mnt_ns_ops },
	.mounts = LIST_HEAD_INIT(init_mnt_ns.mounts),
	.root = &root_mount,
};
struct spinlock mount_lock = SPINLOCK_INIT("mount");
struct mutex namespace_mutex = MUTEX_INIT(namespace_mutex, "namespace");
static u32 next_mnt_id = 1;

/*
 * The mount hash: the attached mounts by (namespace, mountpoint), as Linux
 * finds a mount by (parent mount, mountpoint); mount_lock.
 */
#define MOUNT_HASH_SIZE 256
static struct mount *mount_hash[MOUNT_HASH_SIZE];

static struct mount **
mount_hash_chain(const struct mnt_namespace *ns, const struct dentry *mountpoint)
{
	uintptr_t key = (uintptr_t)ns ^ ((uintptr_t)mountpoint >> 4);

	return &mount_hash[(key ^ (key >> 8) ^ (key >> 16)) % MOUNT_HASH_SIZE];
}

/* The flags an instance keeps from mount(2) (the rest are requests, not state). */
#define MS_KEPT                                                                                    \
	(MS_RDONLY | MS_SYNCHRONOUS | MS_DIRSYNC | MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_NOATIME | \
	 MS_NODIRATIME | MS_RELATIME | MS_NOSYMFOLLOW)
#define MS_ATIME (MS_NOATIME | MS_RELATIME | MS_STRICTATIME)

/*
 * The invariants above for m, attached, as mount_attach leaves it and
 * mount_detach finds it (mount_lock held): its parent is a mount of its
 * namespace on the instance its mountpoint is on.
 */
static void
assert_attached(const struct mount *m)
{
	LOCKDEBUG_ASSERT(!spin_not_mine(&mount_lock), "mount");
	LOCKDEBUG_ASSERT(!m->mountpoint || m->mountpoint->mounted > 0, "mount");
	LOCKDEBUG_ASSERT(!m->mountpoint || (m->parent && m->parent->ns == m->ns &&
					    m->parent->sb == m->mountpoint->inode->sb),
			 "mount");
}

/* ---- the walk's side ------------------------------------------------------- */

struct mnt_namespace *
current_mnt_ns(void)
{
	struct task *t = current();

	return t ? task_nsproxy(t)->mnt : &init_mnt_ns;
}

/* The mount of ns on d (mount_lock held), or NULL. */
static struct mount *
mount_on(struct mnt_namespace *ns, struct dentry *d)
{
	for (struct mount *m = *mount_hash_chain(ns, d); m; m = m->hash_next)
		if (m->mountpoint == d && m->ns == ns)
			return m;
	return NULL;
}

struct mount *
mount_of_root(struct mnt_namespace *ns, struct dentry *d)
{
	struct list_head *pos;

	list_for_each(pos, &ns->mounts) {
		struct mount *m = list_entry(pos, struct mount, link);
		if (m->root == d)
			return m;
	}
	return NULL;
}

/* d->mounted counts mounts in every namespace: only then is the caller's looked up. */
struct dentry *
mount_follow(struct dentry *d)
{
	struct mnt_namespace *ns = NULL;

	while (READ_ONCE(d->mounted)) {
		if (!ns)
			ns = current_mnt_ns();
		spin_lock(&mount_lock);
		struct mount *m = mount_on(ns, d);
		struct dentry *root = m ? dget(m->root) : NULL;
		spin_unlock(&mount_lock);
		if (!root)
			break;
		dput(d);
		d = root;
	}
	return d;
}

/* ---- boot ------------------------------------------------------------------- */

static void
make_dir(const char *path, u32 mode)
{
	int err = vfs_mkdirat(AT_FDCWD, path, mode);

	if (err)
		panic("vfs: cannot create %s: error %d", path, -err);
}

/*
 * The root of the tree and what hangs off it at boot: a RAM file system
 * root with /dev (device nodes), /proc (where procfs is mounted) and /tmp,
 * then the devices.
 */
void
vfs_init(void)
{
	root_sb = sb_alloc(&rootfs_type);
	pipefs_sb = sb_alloc(&pipefs_type);
	sockfs_sb = sb_alloc(&sockfs_type);
	if (!root_sb || !pipefs_sb || !sockfs_sb)
		panic("vfs: no memory for the root file system");
	anon_inode_init();
	root_sb->max_pages = SB_PAGES_KNOB;
	root_sb->mode = 0755;
	struct inode *root = ramfs_new_inode(root_sb, S_IFDIR | 0755);
	vfs_root = root ? dentry_alloc_root(root) : NULL;
	if (!vfs_root)
		panic("vfs: no memory for the root directory");
	root_mount.sb = sb_get(root_sb);
	root_mount.root = dget(vfs_root);
	root_sb->mnt_id = next_mnt_id++;
	root_sb->nr_mounts = 1;
	init_mnt_ns.ns.inum = ns_alloc_inum(); /* Linux 6.1's first: mnt:[4026531840] */
	/* The root mount is the first (host tests boot the VFS again). */
	list_init(&init_mnt_ns.mounts);
	list_add_tail(&root_mount.link, &init_mnt_ns.mounts);
	init_mnt_ns.count = 1;
	memset(mount_hash, 0, sizeof(mount_hash));
	register_filesystem(&tmpfs_type);
	register_filesystem(&ramfs_type);
	hugetlbfs_init();
	make_dir("/dev", 0755);
	make_dir("/proc", 0555);
	make_dir("/sys", 0555);
	make_dir("/tmp", 01777);
	mem_devices_init();
	userfaultfd_dev_init();
	console_dev_init();
	pr_info("vfs: ramfs root with /dev, /proc, /sys, /tmp\n");
}

/* ---- options ---------------------------------------------------------------- */

/* Applies "key[=value],..." (options is changed in place) to sb: 0 or -EINVAL. */
static int
parse_options(struct super_block *sb, char *options, bool remount)
{
	char *p = options;

	while (p && *p) {
		char *key = p, *comma = strchr(p, ','), *eq;
		if (comma)
			*comma = '\0';
		p = comma ? comma + 1 : NULL;
		if (!*key)
			continue;
		eq = strchr(key, '=');
		if (eq)
			*eq = '\0';
		int err = sb->type->parse_option
				  ? sb->type->parse_option(sb, key, eq ? eq + 1 : NULL, remount)
				  : -EINVAL;
		if (err)
			return err;
	}
	return 0;
}

/* The instance flags a new mount's request gives: relatime unless asked otherwise, as Linux. */
static u32
new_flags(u32 flags)
{
	if (!(flags & MS_ATIME))
		flags |= MS_RELATIME;
	return flags & MS_KEPT;
}

/* ---- mount ------------------------------------------------------------------ */

/* A new instance of type with its root inode, options applied: 0 or -errno. */
static int
new_instance(struct fs_type *type, char *options, u32 flags, struct super_block **sbp,
	     struct inode **rootp)
{
	struct super_block *sb = sb_alloc(type);

	if (!sb)
		return -ENOMEM;
	if (type->init)
		type->init(sb);
	int err = parse_options(sb, options, false);
	struct inode *root = err ? NULL : type->new_root(sb);
	if (!err && !root)
		err = -ENOMEM;
	if (err) {
		sb_put(sb);
		return err;
	}
	sb->flags = new_flags(flags);
	*sbp = sb;
	*rootp = root;
	return 0;
}

/*
 * Linux's graft checks (d's inode->lock held, so that rmdir, which checks
 * d->mounted under the same lock, cannot remove it meanwhile): a directory
 * that still has a name, not the root, on a mounted instance (not in a
 * tree unmounted lazily, which umount empties). And one the walk will meet again:
 * a linked RAM-file-system name or a mount's root; procfs makes a new
 * dentry at every lookup, so a mount there could never be reached (EINVAL).
 */
static int
mountpoint_check(struct dentry *d)
{
	if (!S_ISDIR(d->inode->mode))
		return -ENOTDIR;
	if (d->deleted || d->inode->dead)
		return -ENOENT;
	if (d == vfs_root)
		return -EBUSY;
	if (!READ_ONCE(d->inode->sb->mnt_id))
		return -EINVAL; /* in a tree unmounted lazily: it is going away */
	spin_lock(&mount_lock);
	bool mount_root = mount_of_root(current_mnt_ns(), d) != NULL;
	spin_unlock(&mount_lock);
	return d->linked || mount_root ? 0 : -EINVAL;
}

/* Adds (sign 1) or gives back (-1) m's bytes to the process that made it. */
static void
mount_charge(struct mount *m, int sign)
{
	if (m->charge)
		mem_charge_add_bytes(m->charge, sign * (s64)(sizeof(*m) + strlen(m->source) + 1));
}

/* m is found at its mountpoint (mount_lock held). */
static void
hash_in(struct mount *m)
{
	struct mount **chain = mount_hash_chain(m->ns, m->mountpoint);

	m->hash_next = *chain;
	*chain = m;
	m->mountpoint->mounted++;
}

static void
hash_out(struct mount *m)
{
	struct mount **p = mount_hash_chain(m->ns, m->mountpoint);

	while (*p != m)
		p = &(*p)->hash_next;
	*p = m->hash_next;
	m->mountpoint->mounted--;
}

void
mount_move(struct mount *m, struct dentry *mountpoint, struct mount *parent)
{
	struct dentry *old = m->mountpoint;

	spin_lock(&mount_lock);
	hash_out(m);
	m->mountpoint = dget(mountpoint);
	m->parent = parent;
	hash_in(m);
	assert_attached(m);
	spin_unlock(&mount_lock);
	dput(old);
}

void
mount_attach(struct mount *m)
{
	struct mnt_namespace *ns = m->ns;

	mount_charge(m, 1);
	ns->count++;
	spin_lock(&mount_lock);
	if (m->mountpoint)
		hash_in(m);
	m->sb->nr_mounts++;
	list_add_tail(&m->link, &ns->mounts);
	assert_attached(m);
	spin_unlock(&mount_lock);
}

/* A mount of sb's root dentry root at mountpoint in ns, source copied; NULL: no memory. */
static struct mount *
mount_alloc(struct super_block *sb, struct dentry *root, struct dentry *mountpoint,
	    struct mnt_namespace *ns, const char *source)
{
	struct mount *m = kzalloc(sizeof(*m));
	char *src = kmalloc(strlen(source) + 1);

	if (!m || !src) {
		kfree(m);
		kfree(src);
		return NULL;
	}
	memcpy(src, source, strlen(source) + 1);
	*m = (struct mount){ .sb = sb_get(sb),
			     .root = dget(root),
			     .mountpoint = mountpoint ? dget(mountpoint) : NULL,
			     .ns = ns,
			     .source = src,
			     .charge = mem_charge_current() };
	return m;
}

/* Frees m, detached or never attached. */
static void
mount_free(struct mount *m)
{
	dput(m->mountpoint);
	dput(m->root);
	sb_put(m->sb);
	if (m->charge)
		mem_charge_put(m->charge);
	kfree(m->source);
	kfree(m);
}

struct mount *
mount_clone(struct mount *m, struct mnt_namespace *ns)
{
	return mount_alloc(m->sb, m->root, m->mountpoint, ns, m->source);
}

bool
mount_is_below(const struct mount *m, const struct mount *top)
{
	for (; m; m = m->parent)
		if (m == top)
			return true;
	return false;
}

struct mount *
mount_of_dentry(struct mnt_namespace *ns, struct dentry *mountpoint)
{
	struct mount *parent = NULL;
	struct list_head *pos;

	list_for_each(pos, &ns->mounts) {
		struct mount *p = list_entry(pos, struct mount, link);
		if (p->sb == mountpoint->inode->sb)
			parent = p;
	}
	return parent;
}

/* Shows a new instance of type at mountpoint (namespace_mutex held): 0 or -errno. */
static int
graft(struct dentry *mountpoint, struct fs_type *type, const char *source, u32 flags, char *options)
{
	struct mnt_namespace *ns = current_mnt_ns();
	struct super_block *sb;
	struct inode *root_inode;
	int err = new_instance(type, options, flags, &sb, &root_inode);

	if (err)
		return err;
	struct dentry *root = dentry_alloc_mount_root(root_inode, mountpoint);
	struct mount *m = root ? mount_alloc(sb, root, mountpoint, ns, source) : NULL;
	if (root)
		dput(root); /* m holds its own, and its own on sb: */
	sb_put(sb);
	mutex_lock(&mountpoint->inode->lock);
	err = !m ? -ENOMEM : mountpoint_check(mountpoint);
	if (!err && ns->count >= READ_ONCE(mount_max))
		err = -ENOSPC; /* Linux's count_mounts */
	if (!err) {
		spin_lock(&mount_lock);
		m->parent = mount_of_dentry(ns, mountpoint);
		spin_unlock(&mount_lock);
		sb->mnt_id = next_mnt_id++;
		mount_attach(m);
	}
	mutex_unlock(&mountpoint->inode->lock);
	if (err && m)
		mount_free(m);
	return err;
}

/* The caller's namespace's mount whose root d is (namespace_mutex held), or NULL. */
static struct mount *
mount_at(struct dentry *d)
{
	spin_lock(&mount_lock);
	struct mount *m = mount_of_root(current_mnt_ns(), d);
	spin_unlock(&mount_lock);
	return m;
}

/*
 * MS_REMOUNT: new flags (the atime ones kept unless given, as Linux) and,
 * unless MS_BIND, options; going read-only with files open for writing is
 * EBUSY. Options are checked on a copy, so a bad one changes nothing.
 */
static int
remount(struct mount *m, u32 flags, char *options)
{
	struct super_block *sb = m->sb, opts = *sb;

	if (!(flags & MS_BIND)) {
		int err = parse_options(&opts, options, true);
		if (err)
			return err;
	}
	u32 old = READ_ONCE(sb->flags);
	u32 kept = flags & MS_ATIME ? 0 : old & (MS_NOATIME | MS_RELATIME);
	u32 want = (flags & MS_KEPT) | kept;
	__atomic_store_n(&sb->flags, want, __ATOMIC_SEQ_CST);
	if ((want & MS_RDONLY) && !(old & MS_RDONLY) &&
	    __atomic_load_n(&sb->writers, __ATOMIC_SEQ_CST)) {
		__atomic_store_n(&sb->flags, old, __ATOMIC_SEQ_CST);
		return -EBUSY;
	}
	WRITE_ONCE(sb->max_pages, opts.max_pages);
	WRITE_ONCE(sb->max_inodes, opts.max_inodes);
	return 0;
}

/* Only root mounts and unmounts (CAP_SYS_ADMIN); kernel threads (boot) may. */
static bool
may_mount(void)
{
	struct task *t = current();

	return !t || capable(CAP_SYS_ADMIN);
}

/* mount(2) on a kernel path, strings in kernel memory (options is changed). */
static int
do_mount(const char *source, const char *path, const char *type, u32 flags, char *options)
{
	struct dentry *d;

	if ((flags & MS_MGC_MSK) == MS_MGC_VAL)
		flags &= ~MS_MGC_MSK;
	int err = path_lookup(AT_FDCWD, path, &d);
	if (err)
		return err;
	if (!may_mount()) {
		dput(d);
		return -EPERM;
	}
	mutex_lock(&namespace_mutex);
	d = mount_follow(d); /* a mount may have come meanwhile: the top one */
	struct mount *m = mount_at(d);
	if (flags & MS_REMOUNT)
		err = m ? remount(m, flags, options) : -EINVAL;
	else if (flags & (MS_BIND | MS_MOVE))
		err = -EINVAL;
	else if (flags & (MS_SHARED | MS_PRIVATE | MS_SLAVE | MS_UNBINDABLE))
		err = m ? 0 : -EINVAL;
	else if (!type || !*type)
		err = -EINVAL;
	else if (!find_filesystem(type))
		err = -ENODEV;
	if (!err && !(flags & (MS_REMOUNT | MS_SHARED | MS_PRIVATE | MS_SLAVE | MS_UNBINDABLE)))
		err = graft(d, find_filesystem(type), source ? source : "none", flags, options);
	mutex_unlock(&namespace_mutex);
	dput(d);
	return err;
}

int
vfs_mount(const char *path, const char *type, const char *source, u32 flags, const char *options)
{
	char opts[64] = "";

	if (options && strlen(options) >= sizeof(opts))
		return -EINVAL;
	if (options)
		memcpy(opts, options, strlen(options) + 1);
	return do_mount(source, path, type, flags, opts);
}

/* ---- umount ----------------------------------------------------------------- */

/* Whether another mount hangs off m (mount_lock held). */
static bool
has_children(struct mount *m)
{
	struct list_head *pos;

	list_for_each(pos, &m->ns->mounts)
		if (list_entry(pos, struct mount, link)->parent == m)
			return true;
	return false;
}

void
mount_detach(struct mount *m, struct list_head *gone)
{
	assert_attached(m);
	if (m->mountpoint)
		hash_out(m);
	m->last = --m->sb->nr_mounts == 0;
	m->ns->count--;
	list_del(&m->link);
	list_add_tail(&m->link, gone);
}

/* MNT_DETACH: m and every mount below it, each parent before its children. */
static void
detach_tree(struct mount *m, struct list_head *gone)
{
	struct list_head *mounts = &m->ns->mounts;

	mount_detach(m, gone);
	for (struct list_head *g = gone->next; g != gone; g = g->next) {
		struct mount *parent = list_entry(g, struct mount, link);
		struct list_head *pos = mounts->next;
		while (pos != mounts) {
			struct mount *c = list_entry(pos, struct mount, link);
			pos = pos->next;
			if (c->parent == parent)
				mount_detach(c, gone);
		}
	}
}

/*
 * Frees detached mounts. The last mount of an instance unmounts it: its
 * tree goes now, or with its last pin (super.c).
 */
void
mount_release(struct list_head *gone)
{
	while (!list_empty(gone)) {
		struct mount *m = list_entry(gone->next, struct mount, link);
		list_del(&m->link);
		mount_charge(m, -1);
		if (m->last) {
			m->sb->mnt_id = 0;
			sb_detach(m->sb, m->root);
			m->root = NULL; /* sb_detach took the reference over */
		}
		mount_free(m);
	}
}

/*
 * umount2 of the caller's namespace's mount whose root is d
 * (namespace_mutex held). Open files, cwds and roots pin the instance, not
 * a mount: they make it EBUSY only where it is the instance's last mount.
 */
static int
do_umount(struct dentry *d, int flags)
{
	struct list_head gone = LIST_HEAD_INIT(gone);
	struct mnt_namespace *ns = current_mnt_ns();
	int err = 0;

	spin_lock(&mount_lock);
	struct mount *m = mount_of_root(ns, d);
	if (!m)
		err = -EINVAL;
	else if (m == ns->root)
		err = -EBUSY;
	else if (flags & MNT_DETACH)
		detach_tree(m, &gone);
	else if (has_children(m) ||
		 (m->sb->nr_mounts == 1 && __atomic_load_n(&m->sb->pins, __ATOMIC_SEQ_CST)))
		err = -EBUSY;
	else
		mount_detach(m, &gone);
	spin_unlock(&mount_lock);
	/* Whoever is still inside the detached tree stays in it ("..", dentry_make_root). */
	if (!err && m->last)
		dentry_make_root(m->root);
	mount_release(&gone);
	return err;
}

/* ---- the system calls -------------------------------------------------------- */

/* A string argument of mount(2) (NULL stays NULL): 0, -EFAULT or -ENOMEM. */
static int
copy_mount_string(const char __user *u, size_t max, char **out)
{
	*out = NULL;
	if (!u)
		return 0;
	char *s = kmalloc(max);
	if (!s)
		return -ENOMEM;
	long n = strncpy_from_user(s, u, max);
	if (n < 0) {
		kfree(s);
		return (int)n;
	}
	s[MIN((size_t)n, max - 1)] = '\0'; /* data may fill its page: Linux reads one */
	*out = s;
	return 0;
}

SYSCALL5(mount, const char __user *, usource, const char __user *, upath, const char __user *,
	 utype, unsigned long, flags, const void __user *, udata)
{
	char *type, *source = NULL, *path = NULL, *data = NULL;
	int err = copy_mount_string(utype, PAGE_SIZE, &type);

	if (!err)
		err = copy_mount_string(usource, PAGE_SIZE, &source);
	if (!err)
		err = copy_mount_string(udata, PAGE_SIZE, &data);
	if (!err)
		err = getname(upath, &path);
	if (!err)
		err = do_mount(source, path, type, (u32)flags, data);
	kfree(type);
	kfree(source);
	kfree(data);
	if (path)
		putname(path);
	return err;
}

SYSCALL2(umount2, const char __user *, upath, int, flags)
{
	struct dentry *d;
	char *path;

	if (flags & ~(MNT_FORCE | MNT_DETACH | MNT_EXPIRE | UMOUNT_NOFOLLOW))
		return -EINVAL;
	int err = getname(upath, &path);
	if (err)
		return err;
	err = path_lookup_at(AT_FDCWD, path, !(flags & UMOUNT_NOFOLLOW), &d);
	putname(path);
	if (err)
		return err;
	if (!may_mount())
		err = -EPERM;
	else if (flags & MNT_EXPIRE)
		err = -EINVAL; /* no expiry marks are kept */
	if (!err) {
		mutex_lock(&namespace_mutex);
		err = do_umount(d, flags);
		mutex_unlock(&namespace_mutex);
	}
	dput(d);
	return err;
}

/* ---- /proc/mounts -------------------------------------------------------------- */

/* Appends s with space, tab, newline and backslash as \ooo, as Linux's mangle. */
static size_t
append_mangled(char *buf, size_t at, size_t size, const char *s)
{
	for (; *s && at + 5 < size; s++) {
		if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\\')
			at += (size_t)kscnprintf(buf + at, size - at, "\\%03o", (unsigned char)*s);
		else
			buf[at++] = *s;
	}
	buf[at] = '\0';
	return at;
}

/* Linux's show_sb_opts and show_mnt_opts, after "rw" or "ro". */
static size_t
show_flags(u32 flags, char *buf, size_t size)
{
	static const struct {
		u32 flag;
		const char *name;
	} names[] = {
		{ MS_SYNCHRONOUS, ",sync" },	    { MS_DIRSYNC, ",dirsync" },
		{ MS_NOSUID, ",nosuid" },	    { MS_NODEV, ",nodev" },
		{ MS_NOEXEC, ",noexec" },	    { MS_NOATIME, ",noatime" },
		{ MS_NODIRATIME, ",nodiratime" },   { MS_RELATIME, ",relatime" },
		{ MS_NOSYMFOLLOW, ",nosymfollow" },
	};
	size_t n = (size_t)kscnprintf(buf, size, flags & MS_RDONLY ? "ro" : "rw");

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (flags & names[i].flag)
			n += (size_t)kscnprintf(buf + n, size - n, "%s", names[i].name);
	return n;
}

/* One line: "source mount-point type options 0 0\n". */
static void
format_mount(struct mount *m, char *buf, size_t size, char *path)
{
	struct super_block *sb = m->sb;
	long len = dentry_path(m->root, path, PATH_MAX);
	size_t at = append_mangled(buf, 0, size, m->source);

	at += (size_t)kscnprintf(buf + at, size - at, " ");
	at = append_mangled(buf, at, size, len < 0 ? "?" : path);
	at += (size_t)kscnprintf(buf + at, size - at, " %s ", sb->type->name);
	at += show_flags(READ_ONCE(sb->flags), buf + at, size - at);
	if (sb->type->show_options)
		at += sb->type->show_options(sb, buf + at, size - at);
	ksnprintf(buf + at, size - at, " 0 0\n");
}

void
mounts_show(struct mnt_namespace *ns, void (*emit)(void *ctx, const char *line), void *ctx)
{
	size_t size = 8 * PATH_MAX + 512; /* the source and the path mangled: fourfold each */
	char *buf = kmalloc(size), *path = kmalloc(PATH_MAX);

	if (buf && path) {
		mutex_lock(&namespace_mutex);
		struct list_head *pos;
		list_for_each(pos, &ns->mounts) {
			format_mount(list_entry(pos, struct mount, link), buf, size, path);
			emit(ctx, buf);
		}
		mutex_unlock(&namespace_mutex);
	}
	kfree(buf);
	kfree(path);
}

struct inode *
mount_root_inode_of_dev(u32 dev)
{
	struct inode *inode = NULL;
	struct list_head *pos;

	spin_lock(&mount_lock);
	list_for_each(pos, &current_mnt_ns()->mounts) {
		struct mount *m = list_entry(pos, struct mount, link);
		if (m->sb->dev == dev) {
			inode = inode_get(m->root->inode);
			break;
		}
	}
	spin_unlock(&mount_lock);
	return inode;
}
