/*
 * stop.c - job control's stop and continue: the group stop that SIGSTOP,
 * SIGTSTP, SIGTTIN and SIGTTOU start by default, SIGCONT that ends it,
 * and what the parent learns of both (SIGCHLD with CLD_STOPPED or
 * CLD_CONTINUED, wait4's WUNTRACED and WCONTINUED, waitid's).
 *
 * A stop is the whole process's, as in Linux: the thread that takes the
 * stop signal marks every thread stop_pending and counts them in the
 * leader's stop_count; each one, on its way back to user mode (a sleep in
 * a system call ends as for a signal, and the call restarts afterwards),
 * takes its part and sleeps. The last to arrive makes the process
 * STOPPED and tells the parent. SIGCONT, when sent, ends the stop at once:
 * the sleepers wake, stop signals still pending are dropped (and a stop
 * signal sent drops a pending SIGCONT). SIGKILL and other fatal signals
 * still kill: a stopped thread leaves its sleep when it is killed.
 *
 * Locking: the leader's jobctl, stop_count and stop_signal, and every
 * thread's stop_pending, change under tasks_lock (the thread list is
 * walked) and the sighand lock; stopped threads sleep testing jobctl under
 * tasks_lock, which the SIGCONT sender holds, so no wake-up is lost.
 */
#include "kernel/signal/signal_internal.h"
#include "kernel/process/process.h"
#include "kernel/process/ptrace.h"
#include "kernel/process/session.h"
#include "kernel/sched/sched.h"
#include "kernel/x86/smp.h"
#include "uapi/wait.h"

#define STOP_SIGNALS (sigmask(SIGSTOP) | sigmask(SIGTSTP) | sigmask(SIGTTIN) | sigmask(SIGTTOU))

bool
sig_is_stop(int sig)
{
	return sigmask(sig) & STOP_SIGNALS;
}

bool
signal_group_stopped(const struct task *leader)
{
	return READ_ONCE(leader->jobctl) & JOBCTL_STOPPED;
}

int
signal_group_stop_signal(const struct task *leader)
{
	return READ_ONCE(leader->jobctl) & JOBCTL_STOPPING ? READ_ONCE(leader->stop_signal) : 0;
}

/*
 * SIGCHLD to the parent for a stop or a continue (always SIGCHLD, whatever
 * the exit signal), unless it asked for none with SA_NOCLDSTOP; its wait
 * calls wake either way. tasks_lock held, no sighand lock.
 */
static void
notify_parent(struct task *leader, int why, int sig)
{
	struct task *parent = leader->parent;
	struct kernel_siginfo info = {
		.signo = SIGCHLD,
		.code = why,
		.child.pid = leader->tgid,
		.child.status = sig,
	};

	if (!parent || !parent->sighand)
		return;
	if (!(READ_ONCE(sig_action(parent, SIGCHLD)->flags) & SA_NOCLDSTOP))
		signal_send_process(parent, &info);
	wake_up_all(&parent->child_exited);
}

/* Makes thread m leave a sleep or user mode for the stop it is marked for. */
static void
wake_to_stop(struct task *m)
{
	wake_up_task(m);
	if (READ_ONCE(m->on_cpu))
		smp_send_reschedule(READ_ONCE(m->cpu));
}

/* One thread of the stop has arrived; the last makes it complete. Both locks held. */
static bool
arrive(struct task *leader)
{
	if (--leader->stop_count > 0)
		return false;
	leader->jobctl |= JOBCTL_STOPPED | JOBCTL_REPORT_STOP;
	return true;
}

/* Starts leader's group stop with sig, unless one is under way; both locks held. */
static void
begin_group_stop(struct task *leader, int sig)
{
	struct list_head *pos;

	if (leader->jobctl & JOBCTL_STOPPING)
		return;
	leader->jobctl = (leader->jobctl & ~JOBCTL_REPORT_CONT) | JOBCTL_STOPPING;
	leader->stop_signal = sig;
	leader->stop_count = 0;
	list_for_each(pos, &leader->threads) {
		struct task *m = list_entry(pos, struct task, thread_link);
		if (READ_ONCE(m->killed))
			continue;
		m->stop_pending |= STOP_GROUP;
		leader->stop_count++;
		if (m != current())
			wake_to_stop(m);
	}
}

void
signal_stop(int sig)
{
	struct task *t = current(), *leader = t->group_leader;
	u64 flags = spin_lock_irqsave(&tasks_lock);

	/* POSIX: the terminal's stops do nothing to a group no shell can continue. */
	if (sig != SIGSTOP && session_group_orphaned(leader->pgid)) {
		spin_unlock_irqrestore(&tasks_lock, flags);
		return;
	}
	spin_lock(&t->sighand->lock);
	if (!READ_ONCE(t->killed))
		begin_group_stop(leader, sig);
	spin_unlock(&t->sighand->lock);
	spin_unlock_irqrestore(&tasks_lock, flags);
	signal_stop_join();
}

void
signal_stop_join(void)
{
	struct task *t = current(), *leader = t->group_leader;
	u64 flags = spin_lock_irqsave(&tasks_lock);

	spin_lock(&t->sighand->lock);
	bool mine = t->stop_pending & STOP_GROUP, complete = false;
	if (mine) {
		t->stop_pending &= ~STOP_GROUP;
		complete = arrive(leader);
		t->stopped = true;
	}
	spin_unlock(&t->sighand->lock);
	if (!mine) {
		spin_unlock_irqrestore(&tasks_lock, flags);
		return;
	}
	if (complete)
		notify_parent(leader, CLD_STOPPED, leader->stop_signal);
	for (;;) {
		if (!(leader->jobctl & JOBCTL_STOPPING) || READ_ONCE(t->killed))
			break;
		/*
		 * Traced, or attached while stopped (Linux's JOBCTL_TRAP_STOP):
		 * the tracer, not SIGCONT, ends the stop, and then it runs. A
		 * tracer that detaches meanwhile leaves it in the group stop.
		 */
		if (t->ptrace.tracer) {
			WRITE_ONCE(t->state, TASK_RUNNABLE);
			spin_unlock_irqrestore(&tasks_lock, flags);
			ptrace_group_stop(leader->stop_signal);
			flags = spin_lock_irqsave(&tasks_lock);
			if (t->ptrace.tracer)
				break;
			continue;
		}
		set_current_sleeping();
		if (!(leader->jobctl & JOBCTL_STOPPING) || READ_ONCE(t->killed) || t->ptrace.tracer)
			continue;
		spin_unlock_irqrestore(&tasks_lock, flags);
		schedule();
		flags = spin_lock_irqsave(&tasks_lock);
	}
	WRITE_ONCE(t->state, TASK_RUNNABLE);
	WRITE_ONCE(t->stopped, false);
	spin_unlock_irqrestore(&tasks_lock, flags);
}

void
signal_stop_thread_exit(struct task *t)
{
	struct task *leader = t->group_leader;

	if (!t->sighand || !leader->live_threads)
		return;
	spin_lock(&t->sighand->lock);
	bool complete = (t->stop_pending & STOP_GROUP) && arrive(leader);
	t->stop_pending &= ~STOP_GROUP;
	spin_unlock(&t->sighand->lock);
	if (complete)
		notify_parent(leader, CLD_STOPPED, leader->stop_signal);
}

void
signal_stop_new_thread(struct task *t, struct task *leader)
{
	if (!(leader->jobctl & JOBCTL_STOPPING) || (leader->jobctl & JOBCTL_STOPPED))
		return;
	t->stop_pending |= STOP_GROUP;
	leader->stop_count++;
}

void
signal_request_trap(struct task *t)
{
	u64 flags = sighand_lock(t);

	t->stop_pending |= STOP_PTRACE_TRAP;
	sighand_unlock(t, flags);
	if (t != current())
		wake_to_stop(t);
}

bool
signal_take_trap(void)
{
	struct task *t = current();
	u64 flags = sighand_lock(t);
	bool had = t->stop_pending & STOP_PTRACE_TRAP;

	t->stop_pending &= ~STOP_PTRACE_TRAP;
	sighand_unlock(t, flags);
	return had;
}

/*
 * SIGCONT is news for the tracer of a seized thread, stopped or not: the
 * thread traps with PTRACE_EVENT_STOP on its way to user mode, or at once
 * if it listens (Linux's ptrace_trap_notify). Both locks held.
 */
static void
trap_seized_tracees(struct task *leader)
{
	struct list_head *pos;

	list_for_each(pos, &leader->threads) {
		struct task *m = list_entry(pos, struct task, thread_link);
		if (m->ptrace.tracer && m->ptrace.seized) {
			m->stop_pending |= STOP_PTRACE_TRAP;
			wake_to_stop(m);
		}
	}
}

bool
stop_prepare_send(struct task *leader, int sig)
{
	struct list_head *pos;

	if (sig_is_stop(sig)) {
		flush_pending(leader, sigmask(SIGCONT));
		return false;
	}
	if (sig != SIGCONT)
		return false;
	flush_pending(leader, STOP_SIGNALS);
	trap_seized_tracees(leader);
	if (!(leader->jobctl & JOBCTL_STOPPING))
		return false;
	bool was_stopped = leader->jobctl & JOBCTL_STOPPED;
	leader->jobctl &= ~(JOBCTL_STOPPING | JOBCTL_STOPPED | JOBCTL_REPORT_STOP);
	if (was_stopped)
		leader->jobctl |= JOBCTL_REPORT_CONT;
	leader->stop_count = 0;
	list_for_each(pos, &leader->threads) {
		struct task *m = list_entry(pos, struct task, thread_link);
		m->stop_pending &= ~STOP_GROUP;
		/* Running again as of now, as Linux's wake-up of TASK_STOPPED: /proc says so at once. */
		WRITE_ONCE(m->stopped, false);
		wake_up_task(m);
	}
	return was_stopped;
}

void
stop_notify_continued(struct task *leader)
{
	notify_parent(leader, CLD_CONTINUED, SIGCONT);
}

int
signal_wait_report(struct task *leader, int options, int *why)
{
	u64 flags = sighand_lock(leader);
	int status = 0;

	if ((options & WSTOPPED) && (leader->jobctl & JOBCTL_REPORT_STOP)) {
		status = (leader->stop_signal << 8) | 0x7f;
		*why = CLD_STOPPED;
		if (!(options & WNOWAIT))
			leader->jobctl &= ~JOBCTL_REPORT_STOP;
	} else if ((options & WCONTINUED) && (leader->jobctl & JOBCTL_REPORT_CONT)) {
		status = 0xffff;
		*why = CLD_CONTINUED;
		if (!(options & WNOWAIT))
			leader->jobctl &= ~JOBCTL_REPORT_CONT;
	}
	sighand_unlock(leader, flags);
	return status;
}
