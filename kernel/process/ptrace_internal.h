/*
 * ptrace_internal.h - what ptrace.c (the link and the stops) gives
 * ptrace_request.c and ptrace_regs.c (the requests). Nothing else
 * includes it.
 */
#ifndef REWIND_PTRACE_INTERNAL_H
#define REWIND_PTRACE_INTERNAL_H

#include "kernel/process/ptrace.h"
#include "kernel/process/task.h"
#include "uapi/ptrace.h"

/* What a tracee ends with, kept for the tracer's wait once the task itself is gone. */
struct ptrace_exit {
	struct list_head link;
	int pid, pgid;
	int status;
	struct task *held_leader; /* its zombie, whose parent hears of it once this is waited for */
};

/*
 * Makes tracer trace t (PTRACE_ATTACH, SEIZE, TRACEME, a traced fork's
 * child): -EPERM if t is traced already. The exit note is allocated by the
 * caller, before tasks_lock. tasks_lock held.
 */
int ptrace_link_locked(struct task *t, struct task *tracer, struct ptrace_exit *exit, bool seized,
		       unsigned options);
/* Ends the tracing of t, which resumes with signal sig if stopped; tasks_lock held. */
void ptrace_unlink_locked(struct task *t, int sig);
/*
 * Resumes a stopped tracee with signal sig, stopping at its system calls
 * or not, single-stepping it (TF) or not; tasks_lock held.
 */
void ptrace_resume_locked(struct task *t, int sig, bool trace_syscalls, bool step);
/* Asks a tracee for a PTRACE_EVENT_STOP (PTRACE_INTERRUPT); tasks_lock held. */
void ptrace_interrupt_locked(struct task *t);
/*
 * PTRACE_LISTEN: a seized tracee in a PTRACE_EVENT_STOP stays stopped but
 * is no longer reported, until SIGCONT or PTRACE_INTERRUPT traps it again
 * (-EIO for any other tracee or stop). tasks_lock held.
 */
int ptrace_listen_locked(struct task *t);

/* ptrace_regs.c: the tracee's registers as struct user_regs_struct, and back (-EIO: refused). */
void ptrace_get_regs(struct task *t, struct kernel_user_regs *r);
int ptrace_set_regs(struct task *t, const struct kernel_user_regs *r);
/* PEEKUSER/POKEUSER at offset off of struct user (-EIO: not a word there). */
int ptrace_peek_user(struct task *t, u64 off, u64 *value);
int ptrace_poke_user(struct task *t, u64 off, u64 value);
/* The FXSAVE region of fx (FXSAVE_SIZE bytes); the tracee is off its CPU. */
void ptrace_get_fpregs(struct task *t, struct fpu_state *fx);
void ptrace_set_fpregs(struct task *t, const struct fpu_state *fx);
/* The whole state as an XSAVE image (NT_X86_XSTATE); -EINVAL: refused, nothing changed. */
void ptrace_get_xstate(struct task *t, struct fpu_state *x);
int ptrace_set_xstate(struct task *t, const struct fpu_state *x);

#endif
