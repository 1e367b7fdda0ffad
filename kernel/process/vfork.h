/*
 * vfork.h - clone(CLONE_VFORK): the parent sleeps until the child has
 * left the memory they share, by exec or exit (kernel/process/vfork.c).
 */
#ifndef REWIND_VFORK_H
#define REWIND_VFORK_H

struct task;
struct vfork_done;

/* Before the child runs: what the parent will wait on, or NULL (out of memory). */
struct vfork_done *vfork_prepare(struct task *child);
/*
 * After the child was started: the parent (the current task) sleeps until
 * the child execs or exits, or the parent is killed; vd is gone then.
 */
void vfork_wait(struct vfork_done *vd);
/* t no longer uses its parent's memory (exec replaced it, or t exits): its vfork parent goes on. */
void vfork_release(struct task *t);

#endif
