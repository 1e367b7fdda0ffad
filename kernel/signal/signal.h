/*
 * signal.h - POSIX signals with Linux's x86-64 ABI (uapi/signal.h): the
 * per-thread and per-process pending sets, sending, the kernel's
 * internal restart codes, and the hooks that fork, execve and exit call.
 * Generation and bookkeeping live in signal.c, the system calls in
 * signal_syscalls.c, delivery (the user-stack frame, rt_sigreturn,
 * system-call restart) in signal_frame.c.
 */
#ifndef REWIND_SIGNAL_H
#define REWIND_SIGNAL_H

#include "kernel/lib/list.h"
#include "kernel/process/user_count.h"
#include "kernel/lib/types.h"
#include "mm/uaccess.h"
#include "uapi/signal.h"

struct task;
struct trap_frame;

/*
 * Kernel-internal results that never reach user space: a sleep ended by a
 * signal, and how the call is to be restarted (signal_frame.c decides on
 * the way out, as Linux does).
 *   ERESTARTSYS: restart if no handler runs, or the handler has SA_RESTART;
 *   ERESTARTNOHAND: restart only if no handler runs (pause, sigsuspend);
 *   else -EINTR.
 */
#define ERESTARTSYS    512
#define ERESTARTNOHAND 514

/* One signal bit in a 64-bit sigset_t. */
static inline u64
sigmask(int sig)
{
	return 1ul << (sig - 1);
}

BUILD_BUG_ON(sizeof(struct kernel_siginfo) != 128);

/* Signals waiting for delivery: a bit per signal and the siginfo of each, oldest first. */
struct sigpending {
	u64 set;
	struct list_head queue; /* of struct sigqueue */
};

/*
 * A siginfo in a pending set, charged while it exists to a real user
 * (RLIMIT_SIGPENDING). Most are allocated when a signal is sent and freed
 * when it is taken, charged meanwhile to the real user of the process it
 * was sent to. A POSIX timer (kernel/time/posix_timer.c) owns one for its
 * whole life instead (Linux's preallocated sigqueue), charged to the user
 * who created the timer: it is in a pending set at most once, an expiry
 * while it waits only adds to its si_overrun, and taking it hands it back
 * to the timer (posix_timer_delivered). link: the sighand lock.
 */
struct sigqueue {
	struct list_head link; /* an owned one's is empty while it is not pending */
	struct kernel_siginfo info;
	bool owned;
	struct user_charge user;
};

/* The alternate signal stack (sigaltstack), per thread. */
struct altstack {
	u64 sp;
	u64 size;
	u32 flags; /* SS_AUTODISARM, or SS_DISABLE when there is none */
};

/* A synchronous fault's context, as the sigcontext reports it (trapno, err, cr2). */
struct fault_context {
	u64 trapno, error, cr2;
};

/* What a synchronous fault reports to the faulting thread's signal handler. */
struct fault_report {
	int sig;	   /* SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP */
	int code;	   /* si_code: SEGV_MAPERR, SEGV_ACCERR, BUS_ADRERR ... */
	u64 addr;	   /* si_addr, and the sigcontext's cr2 */
	short addr_lsb;	   /* si_addr_lsb of BUS_MCEERR_AR: PAGE_SHIFT */
	u64 trapno, error; /* the sigcontext's trapno and err */
	const char *why;   /* for the kernel log line if the signal kills */
};

/*
 * Sends a fault's signal to the current thread. It cannot be blocked or
 * ignored away (then the default action, death, applies); a handler runs
 * on the way back to user mode. Returns only if a handler is to run: a
 * fatal fault ends the process here, with the one-line kernel report.
 */
void force_sig_fault(const struct fault_report *r);
/* The same for a signal with no fault behind it (a bad signal frame): SIGSEGV, SI_KERNEL. */
void force_sigsegv(const char *why);

/*
 * Sends a signal. signal_send_process picks the thread as Linux does (the
 * current one if it belongs to the process and does not block it, else
 * one that does not); signal_send_thread is for that thread alone (tkill,
 * faults). A default action of death kills the whole process at once,
 * waking its sleepers. The caller holds tasks_lock (kernel/process/task.h), which
 * keeps the target from being freed. 0, or -EAGAIN when a realtime
 * signal's queue is full.
 */
int signal_send_process(struct task *p, const struct kernel_siginfo *info);
int signal_send_thread(struct task *t, const struct kernel_siginfo *info);
/*
 * A stopped tracee's queued siginfos (PTRACE_PEEKSIGINFO): up to n of its
 * own queue's, or its process's (shared), from the off-th on, oldest
 * first; how many were copied into out. tasks_lock held.
 */
int signal_peek_queue(struct task *t, bool shared, u64 off, struct kernel_siginfo *out, int n);
/* A stopped tracee's mask as PTRACE_GETSIGMASK shows it: a sigsuspend's saved one if it waits in one. */
u64 signal_tracee_mask(struct task *t);
/*
 * PTRACE_SETSIGMASK: t's mask (SIGKILL and SIGSTOP stay unblocked), and a
 * sigsuspend's saved one is no longer restored, as Linux's
 * clear_tsk_restore_sigmask. t is stopped; tasks_lock held.
 */
void signal_set_tracee_mask(struct task *t, u64 mask);
/* Whether the caller may send info to p's process (signal_syscalls.c); tasks_lock held. */
bool signal_permitted(const struct task *p, const struct kernel_siginfo *info);
/*
 * A POSIX timer's signal q, owned by the timer, for t's process
 * (whole_process) or thread t. If q is still pending the expiry only adds
 * one to its overrun (capped at INT_MAX, Linux's DELAYTIMER_MAX); else q is
 * queued with an overrun of 0. Whether q is pending now: false when the
 * signal is ignored (or its process is on its way out). tasks_lock held,
 * as for the other sends.
 */
bool signal_send_timer(struct task *t, struct sigqueue *q, bool whole_process);
/*
 * A POSIX timer's own siginfo, not pending, charged to the caller's real
 * user against the caller's RLIMIT_SIGPENDING as a queued one is (Linux
 * charges it at timer_create, so that a user's timers and queued signals
 * share one bound); NULL at the limit or out of memory. signal_disown
 * gives it and its charge back.
 */
struct sigqueue *signal_timer_sigqueue(void);
/*
 * The timer that owned q is gone (t: a task of its process, which must
 * still hold its signal table): q is freed now, or, if it is pending, once
 * it has been delivered (Linux delivers the last signal of a deleted timer).
 */
void signal_disown(struct task *t, struct sigqueue *q);

/*
 * t has left its thread group (tasks_lock held): a process signal it may
 * have been chosen to take is handed to a thread that takes it, or it
 * would wait while every other thread sleeps (Linux's retarget_shared_pending).
 */
void signal_exit_retarget(struct task *t);
/*
 * Taken around a change of t's process's thread list (t joining or
 * leaving), inside tasks_lock with interrupts off: the list then changes
 * under both locks, and a walk under the sighand lock alone can trust it
 * (signal.c's locking rule). Nothing for a kernel thread (no signal table).
 */
void signal_lock_thread_list(struct task *t);
void signal_unlock_thread_list(struct task *t);
/* A signal from the kernel to the current thread (SIGPIPE): SI_USER from itself, as Linux. */
void signal_send_self(int sig);

/* Whether an unblocked signal is pending for the current task (or it is being killed). */
bool signal_pending(void);
/* signal_work_on_return, the test on every return to user mode: return_work.h. */

/*
 * ppoll and pselect6: the caller's mask is replaced by mask while the call
 * sleeps (the sigsuspend way). signal_restore_temporary_mask then puts the
 * old one back at once, or, when the call was interrupted, on the way out
 * after a handler's frame has recorded it (Linux's
 * restore_saved_sigmask_unless), so that the signal that ended the wait is
 * delivered.
 */
void signal_set_temporary_mask(u64 mask);
void signal_restore_temporary_mask(bool interrupted);
/* The same with the mask in user memory, as Linux's set_user_sigmask: 0, -EINVAL (size), -EFAULT. */
long signal_set_temporary_mask_user(const u64 __user *mask, size_t size);

/* ---- job control's stop and continue (stop.c) ---- */

/* A process's group-stop state, in its leader's jobctl. */
#define JOBCTL_STOPPING	   1u /* a group stop is under way or complete: threads sleep */
#define JOBCTL_STOPPED	   2u /* every thread has stopped */
#define JOBCTL_REPORT_STOP 4u /* stopped, not yet reported to a WUNTRACED wait */
#define JOBCTL_REPORT_CONT 8u /* continued, not yet reported to a WCONTINUED wait */

/* A thread's stop_pending: the stops it is to take on its way to user mode. */
#define STOP_GROUP	 1u /* its part in its group's stop */
#define STOP_PTRACE_TRAP 2u /* PTRACE_INTERRUPT's or SIGCONT's, for its tracer */

/* SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU: their default action stops the process. */
bool sig_is_stop(int sig);
/* Whether the process whose leader this is has stopped (State T, orphaned groups). */
bool signal_group_stopped(const struct task *leader);
/* The signal of leader's group stop while one is under way or complete, else 0. */
int signal_group_stop_signal(const struct task *leader);
/*
 * The default action of stop signal sig, taken by the current thread: its
 * process stops (every thread), and this returns once it is continued or
 * killed. Not for SIGTSTP, SIGTTIN and SIGTTOU in an orphaned group: they
 * are dropped.
 */
void signal_stop(int sig);
/* The current thread takes its part in a group stop it was marked for, if any. */
void signal_stop_join(void);
/* Marks t for STOP_PTRACE_TRAP and wakes it (tasks_lock held). */
void signal_request_trap(struct task *t);
/* Takes the current thread's STOP_PTRACE_TRAP mark: whether it had one. */
bool signal_take_trap(void);
/* Thread t has left its group (tasks_lock held): a stop no longer waits for it. */
void signal_stop_thread_exit(struct task *t);
/* A new thread t of leader's process (tasks_lock held) joins a stop under way. */
void signal_stop_new_thread(struct task *t, struct task *leader);
/*
 * Whether the current thread may write to, or change, its controlling
 * terminal from a background group: false if it is to be stopped by
 * SIGTTOU (blocked or ignored SIGTTOU lets it through).
 */
bool signal_ignored_or_blocked(int sig);
/*
 * For wait4 and waitid (tasks_lock held): a stop (options has WSTOPPED) or a
 * continue (WCONTINUED) of the process not yet reported: the wait status
 * and in *why CLD_STOPPED or CLD_CONTINUED; 0 if none. Reported once,
 * unless WNOWAIT.
 */
int signal_wait_report(struct task *leader, int options, int *why);

/* For /proc/<pid>/status: the signals t's process ignores, and those it has handlers for. */
void signal_dispositions(struct task *t, u64 *ignored, u64 *caught);

/*
 * exit: SIGCHLD (or the clone's exit signal) to the parent of a process that
 * ended; tasks_lock held. Returns whether the parent wants no zombie - it
 * ignores SIGCHLD or set SA_NOCLDWAIT - so that the child is freed at once
 * and never reported by wait4 (POSIX; Linux's autoreap).
 */
bool signal_notify_parent(struct task *leader);

/* A new process's dispositions (all default), for the first process; -ENOMEM. */
int signal_init_process(struct task *t);
/*
 * fork/clone: share (CLONE_SIGHAND) or copy the dispositions; the mask is
 * inherited, and the alternate stack unless a thread shares the memory.
 * 0 or -ENOMEM.
 */
int signal_fork(struct task *child, struct task *parent, u64 clone_flags);
/* execve: handlers reset to the default (ignored signals stay ignored); the mask is kept. */
void signal_exec(struct task *t);
/* execve: a signal table of t's own if another task still shares it. 0 or -ENOMEM. */
int signal_unshare(struct task *t);
/* Whether another process shares t's handlers (clone with CLONE_SIGHAND and not CLONE_THREAD). */
bool signal_handlers_shared(struct task *t);
/* execve by a thread that becomes its group's leader: the process's pending signals move to it. */
void signal_take_shared(struct task *to, struct task *from);
/* The task is being freed: its queued signals and its share of the dispositions go. */
void signal_free(struct task *t);

/*
 * On every return to user mode (kernel/x86/entry.c, exit_to_user): delivers one
 * pending signal - a handler frame on the user stack, or the default action
 * - and settles a system call's restart. Returns whether it did anything,
 * so that the caller looks again (another signal may be pending).
 */
bool signal_deliver(struct trap_frame *f);

/* The most stack a handler's frame can take (setup_frame's alignments included): AT_MINSIGSTKSZ. */
u64 signal_frame_max_size(void);

#endif
