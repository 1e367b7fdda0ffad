/*
 * sysv_cleanup.h - removing every System V object after a fuzzing run
 * (sysv_cleanup.c).
 */
#ifndef USER_SYSV_CLEANUP_H
#define USER_SYSV_CLEANUP_H

/* Removes every shared-memory segment, message queue and semaphore set the caller may: how many. */
int remove_sysv_objects(void);

#endif
