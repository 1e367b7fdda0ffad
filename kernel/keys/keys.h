/*
 * keys.h - what the rest of the kernel sees of the key retention service
 * (kernel/keys/, docs/keys.md): the keyrings a thread inherits at clone,
 * loses at execve and drops at exit, and the /proc files.
 */
#ifndef REWIND_KEYS_H
#define REWIND_KEYS_H

#include "kernel/lib/types.h"

struct task;
struct procbuf;

/* The child's keyrings: the session keyring always, the process keyring for a thread. */
void keys_fork(struct task *child, struct task *parent, bool thread);
/* execve: the thread and process keyrings go, the session keyring stays. */
void keys_exec(struct task *t);
/* A thread's exit: its keyrings are let go. */
void keys_exit(struct task *t);

/* /proc/keys and /proc/key-users, in Linux's format. */
void keys_proc_show_keys(struct procbuf *b);
void keys_proc_show_users(struct procbuf *b);

#endif
