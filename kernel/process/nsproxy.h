/*
 * nsproxy.h - a task's namespaces (Linux's struct nsproxy): which UTS
 * and mount namespace it lives in, one record shared by every task that
 * has the same ones (the threads of a process, and forked children until
 * one of them unshares), copied when clone or unshare asks for a new one
 * with CLONE_NEW*, and one of its namespaces replaced by setns.
 *
 * Each namespace is a struct ns_common: a reference count, the inode
 * number nsfs shows for it (stable for its life, "uts:[4026531838]"), and
 * the operations of its kind. The kinds rewind has are UTS
 * (kernel/process/uts_namespace.c) and mount (fs/mnt_namespace.c); the
 * others (IPC, pid, net, user, cgroup, time) are refused as nsproxy.c says.
 *
 * A task's nsproxy is NULL for the kernel's own threads, which live in
 * init_nsproxy (task_nsproxy says so), and for a process that has exited.
 * A task changes only its own nsproxy (unshare, setns), under tasks_lock,
 * so that another reading it there (procfs's /proc/<pid>/ns) can take a
 * reference on what it finds.
 */
#ifndef REWIND_PROCESS_NSPROXY_H
#define REWIND_PROCESS_NSPROXY_H

#include "kernel/lib/types.h"

struct task;
struct nsproxy;
struct ns_common;

/* What a kind of namespace does for nsfs and setns. */
struct ns_ops {
	const char *name; /* the link's text and the /proc/<pid>/ns file: "uts" */
	int type;	  /* its CLONE_NEW* flag: setns's nstype, NS_GET_NSTYPE's answer */
	/* A reference on the namespace of this kind in nsp. */
	struct ns_common *(*get)(struct nsproxy *nsp);
	void (*put)(struct ns_common *ns);
	/* Puts ns (a reference the caller gives) in nsp in place of the old one (dropped). */
	void (*install)(struct nsproxy *nsp, struct ns_common *ns);
	/* setns: what the caller must be and becomes on joining ns: 0 or -errno; NULL: nothing. */
	int (*enter)(struct ns_common *ns);
};

struct ns_common {
	unsigned refcount;
	u32 inum; /* the nsfs inode number */
	const struct ns_ops *ops;
};

struct uts_namespace;
struct mnt_namespace;

struct nsproxy {
	unsigned refcount;
	struct uts_namespace *uts;
	struct mnt_namespace *mnt;
};

extern struct nsproxy init_nsproxy;

/* The inode numbers Linux gives the first namespaces (include/linux/proc_ns.h). */
#define PROC_UTS_INIT_INO 0xEFFFFFFEu

/* A fresh nsfs inode number for a new namespace, never one given before. */
u32 ns_alloc_inum(void);

/* The namespaces t lives in (init_nsproxy for the kernel's threads); no reference. */
struct nsproxy *task_nsproxy(struct task *t);
/* The namespaces of process pid's leader with a reference on kind's one (procfs), or NULL. */
struct ns_common *task_ns_get(int pid, const struct ns_ops *kind);

struct nsproxy *nsproxy_get(struct nsproxy *nsp);
void nsproxy_put(struct nsproxy *nsp);

/*
 * The child's namespaces for clone with flags: the parent's shared, or a
 * copy with new ones where CLONE_NEW* asks; 0, or -EPERM, -EINVAL, -ENOMEM.
 */
int nsproxy_for_clone(struct task *parent, u64 flags, struct nsproxy **out);
/* setns: the caller joins ns, of its kind; 0 or -EPERM, -ENOMEM. */
int nsproxy_join(struct ns_common *ns);

#endif
