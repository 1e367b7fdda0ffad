/*
 * mqueue.h - POSIX message queues (ipc/mqueue.c): the table of named
 * queues and the limits of /proc/sys/fs/mqueue, kept in one object so
 * that an IPC namespace can own one of its own (Linux keeps both in its
 * ipc_namespace). Today there is one, mq_init_ns.
 */
#ifndef REWIND_IPC_MQUEUE_H
#define REWIND_IPC_MQUEUE_H

#include "kernel/lib/list.h"
#include "locking/mutex.h"

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

/* Linux's hard bounds of the limits (ipc_namespace.h's HARD_*, MIN_*). */
#define MQ_HARD_QUEUESMAX  1024
#define MQ_HARD_MSGMAX	   65536
#define MQ_HARD_MSGSIZEMAX (16 * 1024 * 1024)
#define MQ_MIN_MSGMAX	   1
#define MQ_MIN_MSGSIZEMAX  128

#endif
