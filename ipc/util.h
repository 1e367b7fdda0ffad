/*
 * util.h - what the three System V IPC kinds (shared memory, message
 * queues, semaphore sets) share: the table that turns keys into ids, the
 * permission record every object carries with Linux's check of it, the
 * common parts of the *ctl commands and the limits /proc/sys/kernel shows.
 * See ipc/util.c.
 *
 * Locking: each kind has one sleeping mutex (ids->lock) over its table and
 * every object of the kind: a call finds its object, checks and changes it
 * under that lock, and a sleeper (msgsnd, msgrcv, semop) lets go of it
 * while it waits, holding a reference so that a removal cannot free the
 * object under it; it wakes to find the object marked removed (EIDRM).
 */
#ifndef REWIND_IPC_UTIL_H
#define REWIND_IPC_UTIL_H

#include "ipc/ipc.h"
#include "kernel/lib/list.h"
#include "locking/mutex.h"
#include "uapi/ipc.h"

#define IPCMNI_SHIFT 15
#define IPCMNI	     (1 << IPCMNI_SHIFT) /* slots per kind, as Linux without ipcmni_extend */
#define IPC_SEQ_MAX  (0x7fffffff >> IPCMNI_SHIFT)
#define IPC_KEY_HASH 1024 /* key buckets per kind: short chains even at 32000 objects */

/* Linux's struct kern_ipc_perm: who may use the object, and its place in the table. */
struct ipc_object {
	int id;			    /* (seq << IPCMNI_SHIFT) + slot */
	int key;		    /* IPC_PRIVATE once removed (a shm segment that lives on) */
	struct hlist_node key_link; /* in ids->keys, unless private */
	u32 uid, gid, cuid, cgid;
	u32 mode; /* the 0777 bits, and the kind's own (SHM_DEST, SHM_LOCKED) */
	u16 seq;
	bool removed;	/* out of the table: sleepers answer EIDRM */
	unsigned users; /* the table's reference and each sleeper's; under ids->lock */
};

struct ipc_ids;

/* What one kind lends the common get/ctl code. */
struct ipc_kind {
	const char *name; /* "shm", "msg", "sem" */
	/* A new object for key (perm filled in by ipc_add), or NULL with *err set. */
	struct ipc_object *(*create)(struct ipc_ids *ids, int key, int flags, unsigned long arg,
				     int *err);
	/* An existing object matched by key: 0, or why arg does not fit it (shm's size, sem's nsems). */
	int (*fits)(struct ipc_object *obj, unsigned long arg);
	/* Frees the object: it is out of the table and nobody holds it. */
	void (*free)(struct ipc_object *obj);
};

struct ipc_ids {
	const struct ipc_kind *kind;
	struct mutex lock;
	struct hlist_head keys[IPC_KEY_HASH]; /* the objects with a key, by key */
	struct ipc_object **slots;	      /* grown as needed, up to IPCMNI */
	int nslots;
	int in_use;
	int max_idx;   /* the highest slot in use, -1 when none */
	int free_hint; /* no slot below it is free */
	int last_idx;
	int seq;		    /* the sequence number new objects get, up to IPC_SEQ_MAX */
	unsigned long (*mni)(void); /* the kind's limit on objects (/proc/sys/kernel/shmmni ...) */
};

#define IPC_IDS_INIT(ids, k, n, limit)                                                         \
	{                                                                                      \
		.kind = (k), .lock = MUTEX_INIT((ids).lock, n), .max_idx = -1, .last_idx = -1, \
		.mni = (limit)                                                                 \
	}

#define sem_ctlmsl sem_ctls[0]
#define sem_ctlmns sem_ctls[1]
#define sem_ctlopm sem_ctls[2]
#define sem_ctlmni sem_ctls[3]

/* shmget/msgget/semget: the id for key and flags (IPC_CREAT, IPC_EXCL, the mode), or -errno. */
long ipc_get(struct ipc_ids *ids, int key, int flags, unsigned long arg);
/* The object id names, or NULL (EINVAL): never one removed, whose slot came back. ids->lock held. */
struct ipc_object *ipc_find(struct ipc_ids *ids, int id);
/* The object in slot idx, or in the slot an id names (the *_STAT commands), or NULL. ids->lock held. */
struct ipc_object *ipc_find_slot(struct ipc_ids *ids, int idx);
/*
 * What IPC_STAT (by id) or *_STAT and *_STAT_ANY (by slot) show: the object,
 * checked for reading but by *_STAT_ANY; or NULL with *err (EINVAL, EACCES).
 */
struct ipc_object *ipc_find_stat(struct ipc_ids *ids, int id, bool by_slot, bool any, long *err);
/* Linux's ipcperms: whether the caller may access obj as flag's 0777 bits ask (root may). */
bool ipc_may(const struct ipc_object *obj, int flag);
/* IPC_SET and IPC_RMID's check: the owner, the creator or root; else false (EPERM). */
bool ipc_may_control(const struct ipc_object *obj);
/* Out of the table, marked removed, the table's reference dropped. ids->lock held. */
void ipc_remove(struct ipc_ids *ids, struct ipc_object *obj);
/* The key no longer finds obj (a removed shm segment still attached). ids->lock held. */
void ipc_make_private(struct ipc_object *obj);
/* A sleeper's reference, and its end (which frees a removed object). ids->lock held. */
void ipc_hold(struct ipc_object *obj);
void ipc_drop(struct ipc_ids *ids, struct ipc_object *obj);
/* The highest slot in use (IPC_INFO's answer), 0 when none. ids->lock held. */
int ipc_max_idx(const struct ipc_ids *ids);
/* perm as the *ctl calls show it. */
void ipc_fill_perm(const struct ipc_object *obj, struct kernel_ipc64_perm *out);
/* IPC_SET's part: the owner and the 0777 bits from in. */
void ipc_set_perm(struct ipc_object *obj, const struct kernel_ipc64_perm *in);
/* The wall-clock seconds the objects' times are stamped with. */
long ipc_now(void);
/* The caller's process id, as the objects record it (lpid, lspid, sempid). */
int ipc_pid(void);
/* Each object of ids in slot order, ids->lock held meanwhile (/proc/sysvipc). */
void ipc_for_each(struct ipc_ids *ids, void (*fn)(struct ipc_object *obj, void *arg), void *arg);

#endif
