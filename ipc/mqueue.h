/*
 * mqueue.h - POSIX message queues (ipc/mqueue.c): the table of named
 * queues and the limits of /proc/sys/fs/mqueue, kept in one object so
 * that an IPC namespace can own one of its own (Linux keeps both in its
 * ipc_namespace). Today there is one, mq_init_ns.
 */
#ifndef REWIND_IPC_MQUEUE_H
#define REWIND_IPC_MQUEUE_H

#include "kernel/lib/list.h"
#include "kernel/lib/types.h"
#include "locking/mutex.h"
#include "uapi/limits.h"

struct inode;
struct super_block;

struct mq_namespace {
	struct mutex lock;	    /* the names */
	struct list_head queues;    /* of struct mqueue, by name, while linked */
	unsigned long queues_count; /* atomic: queues made and not yet freed (queues_max's) */
	/* /proc/sys/fs/mqueue/: Linux's names, defaults and bounds */
	unsigned long queues_max, msg_max, msgsize_max, msg_default, msgsize_default;
	struct super_block *sb; /* the queues' inodes are on it */
};

extern struct mq_namespace mq_init_ns;

/* The file-system type of the queues' inodes and of /dev/mqueue (ipc/mqueue_fs.c). */
extern struct fs_type mqueue_fs_type;
/* Registers it, so that mount(2) can show the queues, and makes mq_init_ns.sb (boot). */
void mqueue_init(void);

/* The named queue's inode, referenced; NULL if none (ipc/mqueue.c). */
struct inode *mq_name_inode(struct mq_namespace *ns, const char *name);
/* The n-th named queue's name and inode number: false past the last. */
bool mq_nth_name(struct mq_namespace *ns, u64 n, char name[NAME_MAX + 1], u64 *ino);
/* Removes a name, as mq_unlink: 0, -ENOENT, or -EACCES for another user's queue. */
int mq_unlink_name(struct mq_namespace *ns, const char *name);

/* Linux's hard bounds of the limits (ipc_namespace.h's HARD_*, MIN_*). */
#define MQ_HARD_QUEUESMAX  1024
#define MQ_HARD_MSGMAX	   65536
#define MQ_HARD_MSGSIZEMAX (16 * 1024 * 1024)
#define MQ_MIN_MSGMAX	   1
#define MQ_MIN_MSGSIZEMAX  128

#endif
