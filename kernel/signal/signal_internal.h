/*
 * signal_internal.h - what the three parts of the signal code share:
 * signal.c (state, sending), signal_syscalls.c and signal_frame.c
 * (delivery). Nothing outside kernel/signal*.c includes this.
 */
#ifndef REWIND_SIGNAL_INTERNAL_H
#define REWIND_SIGNAL_INTERNAL_H

#include "kernel/signal/signal.h"
#include "kernel/signal/return_work.h"
#include "kernel/process/task.h"
#include "kernel/sched/wait.h"
#include "locking/spinlock.h"

/* SIGKILL and SIGSTOP: no handler, never blocked. */
#define UNBLOCKABLE (sigmask(SIGKILL) | sigmask(SIGSTOP))

/*
 * The dispositions, shared by the tasks of a CLONE_SIGHAND group (a
 * process's threads always are). The lock also guards the blocked masks
 * and pending sets of those tasks and of their process.
 */
struct sighand {
	int refs; /* atomic */
	struct spinlock lock;
	struct kernel_sigaction action[_NSIG];
	struct wait_queue signalfd_wq; /* woken by every signal queued (signalfd.c) */
};

/* A reference that keeps sh (and its signalfd_wq) alive; sighand_put drops it. */
struct sighand *sighand_get(struct sighand *sh);
void sighand_put(struct sighand *sh);

/*
 * Locks t's dispositions and pending sets. t->sighand is replaced only by
 * t itself (execve's signal_unshare), under tasks_lock and the old sighand's
 * lock: so the lock taken is checked to still be t's, and once it is, the
 * pointer holds still until the unlock. The old one cannot be freed under a
 * waiter who found it: other tasks lock t's sighand only under tasks_lock.
 */
static inline u64
sighand_lock(struct task *t)
{
	for (;;) {
		struct sighand *sh = READ_ONCE(t->sighand);
		u64 flags = spin_lock_irqsave(&sh->lock);
		if (sh == READ_ONCE(t->sighand))
			return flags;
		spin_unlock_irqrestore(&sh->lock, flags);
	}
}

static inline void
sighand_unlock(struct task *t, u64 flags)
{
	spin_unlock_irqrestore(&t->sighand->lock, flags);
}

static inline struct kernel_sigaction *
sig_action(struct task *t, int sig)
{
	return &t->sighand->action[sig - 1];
}

/* Whether SIG_DFL ignores sig (SIGCHLD, SIGURG, SIGWINCH, SIGCONT: its effect comes when sent). */
bool sig_default_ignored(int sig);
/*
 * Sending sig to leader's process, both locks held: SIGCONT ends a stop
 * and drops pending stop signals, a stop signal drops a pending SIGCONT.
 * Returns whether a complete stop ended: stop_notify_continued then tells
 * the parent (tasks_lock held, not the sighand lock).
 */
bool stop_prepare_send(struct task *leader, int sig);
void stop_notify_continued(struct task *leader);
/* Whether a disposition throws the signal away (SIG_IGN, or SIG_DFL with an ignoring default). */
static inline bool
sig_handler_ignores(const struct kernel_sigaction *a, int sig)
{
	return a->handler == SIG_IGN || (a->handler == SIG_DFL && sig_default_ignored(sig));
}
/*
 * Takes the first pending signal in mask for t (its own before its
 * process's, faults before the rest, then the lowest number) into info;
 * its number, or 0. *timer: it was a POSIX timer's, for the caller to pass
 * to posix_timer_delivered once it has dropped the sighand lock. Sighand
 * lock held.
 */
int dequeue_signal(struct task *t, u64 mask, struct kernel_siginfo *info, bool *timer);
/* Drops pending signals in mask from t's process and every thread; sighand lock held. */
void flush_pending(struct task *t, u64 mask);
/* Sets the current thread's blocked mask (less SIGKILL and SIGSTOP). */
void set_current_blocked(u64 mask);

/* signal_fpstate.c: the FPU image in a frame, Linux's layout (its size, 64-aligned). */
size_t signal_fpstate_size(void);
/* Writes the live FPU state at ufx; false if the stack cannot take it. */
bool signal_fpstate_save(u64 ufx);
/* Loads the image at ufx (0: a fresh state) into the registers; false: unreadable or refused. */
bool signal_fpstate_restore(u64 ufx);

#endif
