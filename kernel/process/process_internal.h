/*
 * process_internal.h - what the process table (process.c) gives fork.c and
 * exit.c: process 1, a new thread's entry into the table, and the ids and
 * limits a process hands on. Nothing else includes it.
 */
#ifndef REWIND_PROCESS_INTERNAL_H
#define REWIND_PROCESS_INTERNAL_H

#include "kernel/process/task.h"

/* Process 1, the heir of every orphan; the thread whose execve takes over its leader replaces it. */
extern struct task *init_task;
/* Gives t a pid and makes it a new member of leader's thread group. */
void thread_register(struct task *t, struct task *leader);
/* Gives to from's limits, user ids and dumpable flag (fork, and execve's new leader); tasks_lock held. */
void copy_limits_and_ids(struct task *to, const struct task *from);

#endif
