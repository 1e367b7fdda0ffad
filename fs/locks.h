/*
 * locks.h - what the two halves of file locking share: fs/locks.c (record
 * and flock locks, /proc/locks) and fs/leases.c (leases). Both keep their
 * locks in the inode's lock context, under the one locks_mutex.
 */
#ifndef REWIND_FS_LOCKS_H
#define REWIND_FS_LOCKS_H

#include "fs/vfs.h"
#include "kernel/process/user_count.h"

struct mem_charge;
struct task;

/* An inode's locks, made at its first lock and freed when the last goes (Linux's i_flctx). */
struct file_lock_context {
	struct list_head records; /* POSIX and OFD locks: one space of byte ranges */
	struct list_head flocks;  /* flock(2) locks, whole-file: a space of their own */
	struct list_head leases;  /* struct lease (fs/leases.c) */
	struct inode *inode;	  /* whose: it goes before the inode does */
	struct list_head all;	  /* in lock_contexts, for /proc/locks */
};

#define LOCK_EOF INT64_MAX

/*
 * A lock's owner is an address: a process's struct files for a POSIX lock,
 * a struct file for an OFD or flock lock. Distinct live objects, so one
 * address never names two owners; each owner's locks go before it is freed.
 */
struct file_lock {
	struct list_head link; /* in one of inode->flctx's lists */
	const void *owner;
	/* F_GETLK's l_pid: a POSIX owner's tgid, -1 for an OFD lock (Linux's); flock: the taker's */
	int pid;
	short type;
	s64 start, end;
	struct mem_charge *charge; /* the taker's process, which the OOM killer weighs */
	struct user_charge user;   /* the taker's user, counted against locks_user_max */
};

enum waiter_kind { WAIT_POSIX, WAIT_OFD, WAIT_FLOCK, WAIT_LEASE_BREAK };

/*
 * A request asleep until a lock (or lease) goes: on the waiters list while
 * it sleeps, for /proc/locks's "->" lines and, for POSIX requests, the
 * deadlock check. It is taken off whenever the owner in its way changes
 * its locks, so that blocking never names a lock that is gone; it queues
 * again if it must sleep on.
 */
struct lock_waiter {
	struct list_head link;
	enum waiter_kind kind;
	struct file_lock request; /* what it asks; request.owner is whose */
	struct task *task;	  /* who sleeps: forget_waiters_of wakes it */
	const void *blocker;	  /* the owner of the lock in its way */
	const void *blocking;	  /* that lock: a struct file_lock or a lease */
};

extern struct mutex locks_mutex;
/*
 * Openers waiting for a lease to go sleep here (fs/leases.c), woken at each lease change;
 * record and flock waiters sleep on their own, woken by forget_waiters_of.
 */
extern struct wait_queue lock_wait;

/* inode's context, made if it has none: NULL when out of memory (locks_mutex held). */
struct file_lock_context *ctx_get(struct inode *inode);
/* The inode's last lock is gone: so goes its context (locks_mutex held). */
void ctx_put_if_empty(struct inode *inode);

/* w sleeps for the lock blocking, of blocker; it is off the list again once it wakes. */
void waiter_queue(struct lock_waiter *w, const void *blocker, const void *blocking);
void waiter_dequeue(struct lock_waiter *w);
/* owner's locks changed: the waiters it held up are off the list and woken (locks_mutex held). */
void forget_waiters_of(const void *owner);
/*
 * l's /proc/locks line (columns: kind and status, "POSIX  ADVISORY "), prefix "-> " for a
 * waiter; inode NULL: "<none>:0".
 */
void format_lock_line(char *buf, size_t size, int id, const char *prefix, const char *columns,
		      const struct file_lock *l, const struct inode *inode);
/* The "N: -> ..." lines of the waiters for the lock blocking on inode. */
void show_waiters(const void *blocking, int id, const struct inode *inode,
		  void (*emit)(void *arg, const char *line), void *arg);

/* ---- fs/leases.c, for fs/locks.c ---- */
/* Drops f's lease on its inode, if it holds one (locks_mutex held): whether it did (wake lock_wait). */
bool leases_remove_file(struct file *f);
/* The /proc/locks lines of ctx's leases, numbered on from *id (locks_mutex held). */
void leases_show(struct file_lock_context *ctx, int *id, void (*emit)(void *arg, const char *line),
		 void *arg);

#endif
