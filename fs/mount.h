/*
 * mount.h - what fs/mount.c (the mount table) and fs/mnt_namespace.c (mount
 * namespaces) share: a mount, a namespace's tree of them, and the locks and
 * steps that attach and detach a mount. Nothing outside those two files.
 */
#ifndef REWIND_FS_MOUNT_H
#define REWIND_FS_MOUNT_H

#include "fs/vfs.h"
#include "fs/mnt_namespace.h"
#include "kernel/process/nsproxy.h"

struct mem_charge;

struct mount {
	struct super_block *sb;	   /* referenced */
	struct dentry *root;	   /* the instance's root as shown here, referenced */
	struct dentry *mountpoint; /* the dentry covered, referenced; NULL for a namespace's root */
	struct mount *parent;	  /* the mount mountpoint belongs to; NULL for a namespace's root */
	struct mnt_namespace *ns; /* the namespace whose tree it is in */
	char *source;		  /* the first field of /proc/mounts */
	struct list_head link;	  /* in ns->mounts, or on a list of detached ones */
	struct mount *hash_next;  /* in its (namespace, mountpoint) chain of the mount hash */
	struct mount *copy;	  /* its copy while copy_tree runs (namespace_mutex) */
	bool last;		  /* detached as the instance's last mount */
	struct mem_charge *charge; /* its maker's process; NULL: the kernel's */
};

/* A mount namespace: a tree of mounts, its root mount first in mounts. */
struct mnt_namespace {
	struct ns_common ns;
	struct list_head mounts; /* attached, in mount order (a parent before its children) */
	unsigned long count;	 /* mounts in it (mount_max bounds it) */
	struct mount *root;
};

extern struct mnt_namespace init_mnt_ns;
extern struct spinlock mount_lock;
extern struct mutex namespace_mutex;

/* A new mount of m's instance, as m shows it, for ns (namespace_mutex held); NULL: no memory. */
struct mount *mount_clone(struct mount *m, struct mnt_namespace *ns);
/* Puts m, with its fields set, into its namespace's tree (namespace_mutex held). */
void mount_attach(struct mount *m);
/* Takes m out of its namespace's tree onto gone (mount_lock held). */
void mount_detach(struct mount *m, struct list_head *gone);
/* The mount of ns whose root is d (mount_lock held), or NULL. */
struct mount *mount_of_root(struct mnt_namespace *ns, struct dentry *d);
/* The mount of ns that d is on (mount_lock held): the last on its instance, or NULL. */
struct mount *mount_of_dentry(struct mnt_namespace *ns, struct dentry *d);
/* Whether m is top or hangs below it (namespace_mutex or mount_lock held). */
bool mount_is_below(const struct mount *m, const struct mount *top);
/*
 * pivot_root's step: m (attached, not a namespace's root) now covers
 * mountpoint under parent (namespace_mutex held); its root's name and
 * parent are the caller's (dentry_cover).
 */
void mount_move(struct mount *m, struct dentry *mountpoint, struct mount *parent);
/* Frees detached mounts (namespace_mutex held, mount_lock not). */
void mount_release(struct list_head *gone);

#endif
