/*
 * locks.h - what the two halves of file locking share: fs/locks.c (record
 * and flock locks, /proc/locks) and fs/leases.c (leases). Both keep their
 * locks in the inode's lock context, under the one locks_mutex.
 */
#ifndef REWIND_FS_LOCKS_H
#define REWIND_FS_LOCKS_H

#include "fs/vfs.h"

/* An inode's locks, made at its first lock and freed when the last goes (Linux's i_flctx). */
struct file_lock_context {
	struct list_head records; /* POSIX and OFD locks: one space of byte ranges */
	struct list_head flocks;  /* flock(2) locks, whole-file: a space of their own */
	struct list_head leases;  /* struct lease (fs/leases.c) */
	struct inode *inode;	  /* whose: it goes before the inode does */
	struct list_head all;	  /* in lock_contexts, for /proc/locks */
};

extern struct mutex locks_mutex;
/* Whoever waits for a lock or a lease to go: woken, after the mutex is dropped, at each change. */
extern struct wait_queue lock_wait;

/* inode's context, made if it has none: NULL when out of memory (locks_mutex held). */
struct file_lock_context *ctx_get(struct inode *inode);
/* The inode's last lock is gone: so goes its context (locks_mutex held). */
void ctx_put_if_empty(struct inode *inode);

/* ---- fs/leases.c, for fs/locks.c ---- */
/* Drops f's lease on its inode, if it holds one (locks_mutex held): whether it did (wake lock_wait). */
bool leases_remove_file(struct file *f);
/* The /proc/locks lines of ctx's leases, numbered on from *id (locks_mutex held). */
void leases_show(struct file_lock_context *ctx, int *id, void (*emit)(void *arg, const char *line),
		 void *arg);

#endif
