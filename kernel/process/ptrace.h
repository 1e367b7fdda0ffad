/*
 * ptrace.h - one task tracing another, as Linux's ptrace(2): the link
 * between tracer and tracee that every task carries, and the hooks through
 * which system calls, signal delivery, fork, execve and exit stop a
 * tracee (ptrace.c). The requests themselves are in ptrace_request.c, the
 * register views in ptrace_regs.c. docs/ptrace.md tells the stop model.
 */
#ifndef REWIND_PTRACE_H
#define REWIND_PTRACE_H

#include "kernel/lib/list.h"
#include "kernel/lib/types.h"
#include "uapi/signal.h"

struct task;
struct trap_frame;
struct ptrace_exit;

/* A task's side of tracing, both as a tracee and as a tracer; tasks_lock guards all of it. */
struct ptrace_link {
	/* as a tracee */
	struct task *tracer;	      /* the tracing thread, or NULL */
	struct list_head tracee_link; /* in tracer's tracees */
	struct ptrace_exit *exit;     /* kept ready for the tracer to hear of this task's end */
	unsigned options;	      /* PTRACE_O_* */
	bool seized;		      /* by PTRACE_SEIZE (or inherited from one) */
	bool stopped;		      /* in a ptrace stop, until the tracer resumes it */
	bool listening;		      /* PTRACE_LISTEN: still stopped, but not reported */
	bool trace_syscalls;	      /* resumed by PTRACE_SYSCALL: stop at entry and exit */
	bool stepping;		      /* resumed by PTRACE_SINGLESTEP: TF set in its frame */
	bool forced_tf;		      /* that TF is the tracer's, not the program's own */
	u8 syscall_stop;	      /* PTRACE_SYSCALL_INFO_* of the stop it is in */
	int report;		      /* wait status of a stop not yet waited for; 0: none */
	int resume_signal; /* a signal-delivery-stop's signal, as the tracer resumed it */
	bool detached;	   /* PTRACE_DETACH ended the stop: resume_signal stays its choice */
	u64 message;	   /* PTRACE_GETEVENTMSG */
	bool has_siginfo;  /* a signal's stop, an event's, a seized group stop */
	bool end_held;	   /* a leader whose end its parent hears of after its tracer's wait */
	struct kernel_siginfo siginfo;

	/* as a tracer */
	struct list_head tracees;
	struct list_head exits; /* tracees' ends not yet waited for (struct ptrace_exit) */
};

/*
 * How many tasks are traced: syscall_dispatch takes its slow way while
 * this is not 0, so that an untraced system call pays one instruction.
 */
extern int ptrace_tracee_count;

/* A new task's empty lists (task_alloc). */
void ptrace_task_init(struct task *t);

/*
 * Whether the current task's system calls take ptrace_syscall: it stops
 * at their entry and exit, or it is single-stepped (a call is one step).
 */
bool ptrace_traces_syscalls(void);
void ptrace_syscall(struct trap_frame *f);

/*
 * signal-delivery-stop for sig (not SIGKILL): the tracer sees it and
 * resumes with the signal to deliver instead (info rewritten to match), or
 * 0 to drop it.
 */
int ptrace_signal_stop(int sig, struct kernel_siginfo *info);
/* A traced thread's part in a group stop is a ptrace stop; tasks_lock not held. */
void ptrace_group_stop(int sig);
/* The PTRACE_EVENT_STOP trap PTRACE_INTERRUPT or SIGCONT asked (signal.h's STOP_PTRACE_TRAP). */
void ptrace_trap_stop(void);
/* A PTRACE_EVENT_* stop, if the tracer asked for that event; message for GETEVENTMSG. */
void ptrace_event(int event, u64 message);

/*
 * fork/clone: clears the TF a single-stepping parent's frame gave child;
 * attaches child to the tracer of the current task if its options follow
 * this kind of clone; the PTRACE_EVENT_* to stop with after
 * the child starts, or 0. tasks_lock not held; child not yet running.
 */
int ptrace_fork(struct task *child, u64 clone_flags);
/* execve succeeded: the exec event stop, or SIGTRAP for an old-style tracee. */
void ptrace_exec(int old_pid);
/*
 * The current task is exiting with wait_status (tasks_lock held): its
 * tracer hears of it, and its own tracees are let go (EXITKILL: killed).
 */
void ptrace_exit_locked(struct task *t, int wait_status);

/* The tracer's wait (wait.c): what a tracee of `waiter`'s process has to report. */
struct ptrace_wait {
	int idtype, id;		  /* P_ALL, P_PID or P_PGID */
	bool consume;		  /* not WNOWAIT */
	bool exits;		  /* WEXITED: ends are wanted too */
	struct task *only_tracer; /* __WNOTHREAD: this thread's tracees only; NULL: the process's */
	int pid, status;
};
/* 1: found (filled in), 0: tracees match but have nothing, -1: none match. tasks_lock held. */
int ptrace_wait_locked(struct task *waiter, struct ptrace_wait *w);

/* /proc/<pid>/status's TracerPid: the tracer's thread id, or 0. tasks_lock held. */
int ptrace_tracer_pid(const struct task *t);

#endif
