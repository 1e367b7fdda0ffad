/*
 * nsfs.h - namespaces as files (fs/nsfs.c), for /proc/<pid>/ns.
 */
#ifndef REWIND_FS_NSFS_H
#define REWIND_FS_NSFS_H

#include "kernel/lib/types.h"

struct dentry;
struct ns_common;

/* The nsfs instance, at boot after vfs_init. */
void nsfs_init(void);
/* A dentry for ns's file; takes over the caller's reference on ns. 0 or -ENOMEM. */
int nsfs_dentry(struct ns_common *ns, struct dentry **out);
/* "uts:[4026531838]", what the link reads: its length. */
int nsfs_link_text(const struct ns_common *ns, char *buf, size_t size);

#endif
