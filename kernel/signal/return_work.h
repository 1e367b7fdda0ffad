/*
 * return_work.h - whether a task has signal work before it returns to user
 * mode: asked on every return (kernel/x86/entry.c, exit_to_user), so it is
 * inline there, a few loads of the task's own fields.
 */
#ifndef REWIND_SIGNAL_RETURN_WORK_H
#define REWIND_SIGNAL_RETURN_WORK_H

#include "kernel/process/task.h"
#include "kernel/syscall/syscall.h"
#include "uapi/errno.h"

/* Whether t has a signal to act on now (no barrier: for the return to user mode). */
static inline bool
sig_deliverable(struct task *t)
{
	u64 pending = READ_ONCE(t->sig_pending.set) | READ_ONCE(t->group_leader->sig_shared.set);

	return (pending & (~READ_ONCE(t->sig_blocked) | READ_ONCE(t->sig_waiting))) ||
	       READ_ONCE(t->stop_pending);
}

/*
 * Whether the way back to user mode through f has signal work for t (the
 * current task): a signal to deliver, a kill, a mask to put back after
 * sigsuspend, an interrupted call to settle. Asked with interrupts off on
 * every return, so no fence: a signal sent after it interrupts this CPU the
 * moment user mode runs.
 */
static inline bool
signal_work_on_return(struct task *t, const struct trap_frame *f)
{
	long ret = (long)f->rax;

	return READ_ONCE(t->killed) || t->sig_restore_mask || (t->sighand && sig_deliverable(t)) ||
	       ((ret == -ERESTARTSYS || ret == -ERESTARTNOHAND) && syscall_restartable(f));
}

#endif
