/*
 * landlock.h - Landlock, Linux's unprivileged sandbox (Documentation/
 * userspace-api/landlock.rst; docs/landlock.md): a process restricts
 * itself with rulesets (ruleset.c: landlock_create_ruleset,
 * landlock_add_rule, landlock_restrict_self), each a layer of its domain,
 * and the file-system calls ask here whether every layer allows an access
 * (check.c). The domain hangs on the process's credentials (its leader's
 * task, kernel/process/task.h): fork shares it, execve keeps it.
 */
#ifndef REWIND_LANDLOCK_H
#define REWIND_LANDLOCK_H

#include "kernel/lib/types.h"
#include "uapi/landlock.h"

/* Linux 6.1's ABI: the access rights of version 1 and LANDLOCK_ACCESS_FS_REFER. */
#define LANDLOCK_ABI_VERSION	2
#define LANDLOCK_MAX_LAYERS	16 /* restrict_self stacks at most this many (E2BIG) */
#define LANDLOCK_MASK_ACCESS_FS ((LANDLOCK_ACCESS_FS_REFER << 1) - 1)
/* The rights that mean something on a file that is not a directory. */
#define LANDLOCK_ACCESS_FILE \
	(LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE)

struct dentry;
struct inode;

/* One rule of a layer: the rights allowed on inode and, for a directory, beneath it. */
struct landlock_rule {
	struct inode *inode; /* referenced */
	u16 access;
};

/*
 * A process's domain: its newest layer, a frozen copy of the ruleset it
 * was made from, on top of the domain it had before (parent). Shared
 * between processes by reference and never changed once made.
 */
struct landlock_domain {
	int refs;
	int level;			/* 0 for the first layer, up to LANDLOCK_MAX_LAYERS - 1 */
	struct landlock_domain *parent; /* referenced; NULL under the first layer */
	u16 handled; /* the rights this layer is about: denied unless a rule allows */
	int nrules;
	struct landlock_rule rules[];
};

struct landlock_domain *landlock_domain_get(struct landlock_domain *dom);
void landlock_domain_put(struct landlock_domain *dom);
/* The current process's domain, referenced; NULL when nothing restricts it. */
struct landlock_domain *landlock_current_domain(void);

/* The rights a layer's rules allow on inode itself: 0 without a rule (ruleset.c). */
u16 landlock_rule_access(const struct landlock_rule *rules, int nrules, const struct inode *inode);

/*
 * The checks of check.c, each 0 or -EACCES as Linux's Landlock hooks
 * (-EXDEV for a reparenting the layers forbid), 0 for an unrestricted
 * process. open(2) of d with flags (O_PATH: nothing asked); execve of d;
 * making a file of mode's type in dir; removing a name from dir by rmdir
 * (a directory) or unlink (anything else), as Linux asks by the call.
 */
int landlock_may_open(struct dentry *d, u32 flags);
int landlock_may_exec(struct dentry *d);
int landlock_may_make(struct dentry *dir, u32 mode);
int landlock_may_remove(struct dentry *dir, bool rmdir);
/* link(2) of old into newdir. */
int landlock_may_link(struct dentry *old, struct dentry *newdir);
/* rename(2) of old in olddir to newdir, over target (NULL: none); exchange: RENAME_EXCHANGE. */
int landlock_may_rename(struct dentry *olddir, struct dentry *old, struct dentry *newdir,
			struct dentry *target, bool exchange);

#endif
