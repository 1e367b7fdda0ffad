/*
 * fanotify.h - what fs/fanotify.c (groups, marks, the queue, the system
 * calls) and fs/fanotify_perm.c (the permission events a task waits on)
 * share.
 */
#ifndef REWIND_FANOTIFY_H
#define REWIND_FANOTIFY_H

#include "fs/notify.h"
#include "kernel/sched/wait.h"
#include "uapi/fanotify.h"

#define FAN_PERM_EVENTS (FAN_OPEN_PERM | FAN_ACCESS_PERM | FAN_OPEN_EXEC_PERM)

/* What an event is about: a file, the directory it is named in, where it is mounted. */
struct fan_object {
	struct inode *inode;
	struct dentry *dentry;	      /* NULL for a nameless file (a pipe) */
	struct inode *parent;	      /* the directory dentry is in, or NULL */
	struct dentry *parent_dentry; /* referenced, or NULL */
	bool isdir;
};

/* Where a task waiting on its permission events learns their answers. */
struct fan_asker {
	struct wait_queue wq;
	unsigned pending; /* events not answered yet (fanotify_lock) */
	bool denied;
};

enum fan_perm_state { PERM_QUEUED, PERM_READING, PERM_AWAITING, PERM_ANSWERED };

struct fan_group;

struct fan_event {
	struct list_head link;	     /* in its group's queue, then (permission) its awaiting */
	struct list_head merge_link; /* while queued, in its group's bucket (not permission) */
	struct fan_group *group;
	u32 mask; /* FAN_* */
	bool isdir;
	int pid;
	struct dentry *dentry; /* referenced: what read opens; NULL: no fd */
	/* Permission events only, under fanotify_lock: */
	enum fan_perm_state state;
	struct list_head asker_link; /* in the waiting task's list */
	struct fan_asker *asker;     /* NULL once the task gave up waiting */
	int fd;			     /* the fd read gave for it: the response names it */
};

/* Queued events are found to merge into by their object and process, as Linux's merge hash. */
#define MERGE_BUCKETS 128

struct fan_group {
	struct list_head link; /* in groups */
	u32 uid;	       /* the real uid that made it: whose limit it counts in */
	u32 flags;	       /* fanotify_init's */
	u32 event_f_flags;     /* how read opens each event's file */
	struct list_head marks;
	unsigned nr_marks, max_marks;
	struct list_head queue;		       /* events, oldest first */
	struct list_head merge[MERGE_BUCKETS]; /* the queued events, newest first in each */
	unsigned queued, max_queued;
	struct fan_event overflow; /* FAN_Q_OVERFLOW, in the queue at most once */
	struct list_head awaiting; /* permission events read, not answered yet */
	struct wait_queue wq;	   /* readers and poll */
};

/* Guards the groups, their marks, queues and permission events. */
extern struct spinlock fanotify_lock;
extern struct list_head fanotify_groups;

/* Fills o for the file f: false when f is nothing fanotify reports (fanotify's own opens). */
bool fan_object_get(struct file *f, struct fan_object *o);
void fan_object_put(struct fan_object *o);
/* Which events of mask g's marks want about o (fanotify_lock held). */
u32 fan_group_mask(struct fan_group *g, const struct fan_object *o, u32 mask);
/* A new event about o for g (fanotify_lock held), or NULL. */
struct fan_event *fan_event_new(struct fan_group *g, const struct fan_object *o, u32 mask);
/* Frees an event (no lock held: its dentry may go). */
void fan_event_free(struct fan_event *e);
/* Queues e for g (fanotify_lock held): false when the queue is full (e is not queued). */
bool fan_queue(struct fan_group *g, struct fan_event *e);

/* ---- fs/fanotify_perm.c ---- */

/* read gave the permission event e as fd (ok: to the listener) (no lock held). */
void fan_perm_reported(struct fan_event *e, int fd, bool ok);
/* write(2) on the group: the listener's struct fanotify_response. */
long fan_perm_write(struct fan_group *g, const char __user *buf, size_t n);
/* The group goes: its permission events are allowed (fanotify_lock held). */
void fan_perm_release(struct fan_group *g);

#endif
