/*
 * pid_syscall.c - /proc/<pid>/syscall: the system call a process's first
 * thread (in task/<tid>, that thread) is in, in Linux's format: the call's
 * number, its six arguments, then the user stack and instruction pointers,
 * in hex; "-1 SP PC" when it is not in a call (stopped after a fault, say),
 * "-1 0x0 0x0" for a zombie, whose kernel stack may be gone, and "running"
 * when it runs on a CPU or waits for one, as its frame is then not still.
 * A reader's own shows its open, as rewind's /proc makes a file's text at
 * the open (Linux at the read: there, the read). For who may inspect the
 * process (marked `inspects`), as Linux asks ptrace access.
 *
 * What it is for: a process that should have ended but sleeps names the
 * call it sleeps in (leakcheck lists every process left this way).
 */
#include "fs/proc/internal.h"
#include "kernel/process/process.h"
#include "kernel/x86/traps.h"
#include "uapi/errno.h"

struct syscall_view {
	bool running, in_call;
	u64 nr, args[6], sp, pc;
};

/* t's view; tasks_lock held, t not freed under it. */
static void
view_of(struct task *t, struct syscall_view *v)
{
	const struct trap_frame *f;

	*v = (struct syscall_view){ 0 };
	if (READ_ONCE(t->state) == TASK_ZOMBIE || !t->mm)
		return;
	if (t != current() && READ_ONCE(t->state) == TASK_RUNNABLE) {
		v->running = true;
		return;
	}
	f = task_user_frame(t);
	v->sp = f->rsp;
	v->pc = f->rip;
	v->in_call = f->vector == VEC_SYSCALL_INSN || f->vector == VEC_SYSCALL_INT80;
	if (!v->in_call)
		return;
	v->nr = f->error;
	v->args[0] = f->rdi;
	v->args[1] = f->rsi;
	v->args[2] = f->rdx;
	v->args[3] = f->r10;
	v->args[4] = f->r8;
	v->args[5] = f->r9;
}

int
proc_show_syscall(struct procbuf *b, union proc_arg arg)
{
	struct syscall_view v;
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct task *t = arg.task.tid ? task_find(arg.task.tid) : proc_find_leader(arg.pid);
	bool found = t && t->tgid == arg.pid;

	if (found)
		view_of(t, &v);
	spin_unlock_irqrestore(&tasks_lock, flags);
	if (!found)
		return -ESRCH;
	if (v.running)
		procbuf_printf(b, "running\n");
	else if (!v.in_call)
		procbuf_printf(b, "-1 0x%lx 0x%lx\n", v.sp, v.pc);
	else
		procbuf_printf(b, "%ld 0x%lx 0x%lx 0x%lx 0x%lx 0x%lx 0x%lx 0x%lx 0x%lx\n",
			       (long)v.nr, v.args[0], v.args[1], v.args[2], v.args[3], v.args[4],
			       v.args[5], v.sp, v.pc);
	return 0;
}
