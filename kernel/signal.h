/*
 * signal.h - per-task signal state across fork and execve; see signal.c.
 */
#ifndef REWIND_SIGNAL_H
#define REWIND_SIGNAL_H

struct task;

/* fork: the child inherits the mask and the dispositions. */
void signal_fork(struct task *child, const struct task *parent);
/* execve: handlers reset to the default (ignored signals stay ignored); the mask is kept. */
void signal_exec(struct task *t);

#endif
