/*
 * ipc_cleanup.h - removing every IPC object after a fuzzing run
 * (ipc_cleanup.c).
 */
#ifndef USER_IPC_CLEANUP_H
#define USER_IPC_CLEANUP_H

/* Removes every shared-memory segment, message queue and semaphore set the caller may: how many. */
int remove_sysv_objects(void);
/* Removes every POSIX message queue (each lives until mq_unlink): how many. */
int remove_message_queues(void);

#endif
