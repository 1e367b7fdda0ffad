/*
 * pid_thread.c - what /proc/<pid>/task/<tid> shows of the thread itself:
 * the state letter every stat and status give, and, in a thread's own
 * directory, its tid, state, CPU and name in place of the process's. Linux
 * shows each thread's own there; programs watch a thread go to sleep by it
 * (LTP's futex tests read task/<tid>/stat until every waiter is 'S').
 */
#include "fs/proc/internal.h"
#include "fs/proc/text.h"
#include "kernel/lib/string.h"
#include "kernel/process/task.h"

char
proc_state_letter(const struct task *t)
{
	if (t->ptrace.stopped)
		return 't'; /* in a ptrace stop (kernel/process/ptrace.c) */
	if (READ_ONCE(t->stopped))
		return 'T'; /* asleep in a group stop (kernel/signal/stop.c) */
	switch (READ_ONCE(t->state)) {
	case TASK_RUNNABLE:
		return 'R';
	case TASK_SLEEPING:
		return 'S';
	default:
		return 'Z';
	}
}

void
proc_thread_view(union proc_arg arg, struct procfs_task *out)
{
	if (!arg.task.tid)
		return; /* a process's directory: the leader speaks for it */
	u64 flags = spin_lock_irqsave(&tasks_lock);
	const struct task *t = task_find(arg.task.tid);

	if (t && t->tgid == arg.task.pid) {
		out->pid = t->pid;
		out->state = proc_state_letter(t);
		out->cpu = t->cpu;
		memcpy(out->comm, t->comm, sizeof(out->comm));
		out->comm[sizeof(out->comm) - 1] = '\0';
	}
	spin_unlock_irqrestore(&tasks_lock, flags);
}
