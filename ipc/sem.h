/*
 * sem.h - what the semaphore files share (ipc/sem.c: the sets and semop;
 * ipc/sem_ctl.c: semctl and /proc/sysvipc/sem; ipc/sem_undo.c: the undo
 * lists). Everything here is under sem_ids.lock.
 */
#ifndef REWIND_IPC_SEM_H
#define REWIND_IPC_SEM_H

#include "ipc/util.h"
#include "kernel/lib/list.h"
#include "kernel/sched/wait.h"

#define SEMVMX 32767  /* the largest value */
#define SEMAEM SEMVMX /* the largest adjustment an undo list holds */

struct sem {
	int val;
	int pid; /* the last process to change it */
};

struct sem_set {
	struct ipc_object perm;
	long otime, ctime;
	int nsems;
	struct list_head undos;	   /* struct sem_undo's set_link: every process's adjustments */
	struct list_head sleepers; /* struct sem_sleeper: for GETNCNT and GETZCNT */
	struct wait_queue wq;	   /* semop's sleepers: every change wakes them to look again */
	struct sem sems[];
};

/* A semop asleep, counted by the operation that could not proceed (SUSv3's rule, Linux's). */
struct sem_sleeper {
	struct list_head link;
	int num;
	bool zero; /* waits for 0, not for an increase */
};

/* One process's adjustments to one set (SEM_UNDO): applied when it exits. */
struct sem_undo {
	struct list_head list_link; /* in its sem_undo_list */
	struct list_head set_link;  /* in the set's undos, while the set lives */
	int semid;		    /* -1 once the set is removed */
	short adj[];
};

/* A process's undo entries: shared by the threads made with CLONE_SYSVSEM. */
struct sem_undo_list {
	unsigned refs; /* atomic */
	struct list_head undos;
};

extern struct ipc_ids sem_ids;

static inline struct sem_set *
to_set(struct ipc_object *obj)
{
	return container_of(obj, struct sem_set, perm);
}

/* The caller's entry for set, made if it has none: or NULL (-ENOMEM). */
struct sem_undo *sem_undo_find(struct sem_set *set);
/* The set goes: its entries forget it (freed with their lists). */
void sem_undo_forget_set(struct sem_set *set);
/* SETVAL and SETALL: what any process would have undone of sem num (all: -1) is forgotten. */
void sem_undo_clear(struct sem_set *set, int num);

#endif
