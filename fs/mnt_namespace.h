/*
 * mnt_namespace.h - mount namespaces (fs/mnt_namespace.c), as nsproxy.c
 * and procfs use them: each has its own tree of mounts (fs/mount.h).
 */
#ifndef REWIND_FS_MNT_NAMESPACE_H
#define REWIND_FS_MNT_NAMESPACE_H

struct mnt_namespace;

extern struct mnt_namespace init_mnt_ns;
extern const struct ns_ops mnt_ns_ops;

struct mnt_namespace *mnt_ns_get(struct mnt_namespace *ns);
/* Drops a reference; the last unmounts the namespace's mounts. */
void mnt_ns_put(struct mnt_namespace *ns);
/* The mount namespace of process pid, referenced; NULL if it has none (exited). */
struct mnt_namespace *mnt_ns_of_process(int pid);
/* The caller's (the first for the kernel's threads); no reference. */
struct mnt_namespace *current_mnt_ns(void);
/* CLONE_NEWNS: a new namespace with a copy of old's tree; NULL: no memory. */
struct mnt_namespace *mnt_ns_copy(struct mnt_namespace *old);

#endif
