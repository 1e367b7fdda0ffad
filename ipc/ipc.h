/*
 * ipc.h - what the rest of the kernel sees of System V IPC (ipc/): the
 * limits /proc/sys/kernel shows and sets, the /proc/sysvipc tables, and
 * the hooks fork and exit call for semaphore undo lists.
 */
#ifndef REWIND_IPC_H
#define REWIND_IPC_H

#include "kernel/lib/types.h"

struct procbuf;
struct task;

/* /proc/sys/kernel/{shmmax,shmall,shmmni,msgmax,msgmnb,msgmni,sem}. */
extern unsigned long shm_ctlmax, shm_ctlall, shm_ctlmni;
extern unsigned long msg_ctlmax, msg_ctlmnb, msg_ctlmni;
extern int sem_ctls[4]; /* semmsl, semmns, semopm, semmni: /proc/sys/kernel/sem's order */

/* /proc/sysvipc/{shm,msg,sem}: Linux's header line, then one line an object. */
void shm_proc_show(struct procbuf *b);
void msg_proc_show(struct procbuf *b);
void sem_proc_show(struct procbuf *b);

/*
 * A new task's semaphore undo list (ipc/sem_undo.c): the parent's, shared,
 * for CLONE_SYSVSEM, else none. 0 or -ENOMEM.
 */
int sem_undo_fork(struct task *child, struct task *parent, bool share);
/* A task ends: the last holder of its undo list applies and frees it. */
void sem_undo_exit(struct task *t);

#endif
