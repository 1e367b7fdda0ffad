/*
 * ptrace.c - the tracer-tracee link and the stops of a traced task, as
 * Linux's kernel/ptrace.c and the ptrace parts of kernel/signal.c.
 *
 * A traced task stops only in its own context, at a few places: the
 * system call's entry and exit (PTRACE_SYSCALL), the delivery of a signal,
 * its part in a group stop, the trap PTRACE_INTERRUPT or SIGCONT asks of
 * a seized tracee, and the events of fork, execve and exit the tracer
 * asked for. Each stop is one ptrace_stop(): the wait status to report
 * is left in the task, the tracer's process is woken (its wait4 finds
 * it, ptrace_wait_locked) and sent SIGCHLD, and the task sleeps until a
 * request resumes it, its tracer lets it go or it is killed. While it
 * sleeps its registers and memory are the tracer's to read and write
 * (ptrace_request.c).
 *
 * Locking: tasks_lock guards every field of struct ptrace_link; a stopped
 * tracee tests its `stopped` under it, as a group stop does (stop.c).
 */
#include "kernel/process/ptrace_internal.h"
#include "mm/kmalloc.h"
#include "kernel/process/process.h"
#include "kernel/sched/sched.h"
#include "kernel/signal/signal.h"
#include "kernel/syscall/syscall.h"
#include "kernel/x86/traps.h"
#include "kernel/x86/x86.h"
#include "uapi/errno.h"
#include "uapi/wait.h"

int ptrace_tracee_count;

/* The wait status of a stop: WIFSTOPPED, WSTOPSIG the low byte of what, the event above it. */
#define STOP_STATUS(what) (((what) << 8) | 0x7f)

void
ptrace_task_init(struct task *t)
{
	list_init(&t->ptrace.tracee_link);
	list_init(&t->ptrace.tracees);
	list_init(&t->ptrace.exits);
}

/* The tracer's process hears of a stop or an end: its wait4 wakes, and SIGCHLD comes. */
static void
notify_tracer(struct task *tracer, int code, int status)
{
	struct task *tracee = current();
	struct kernel_siginfo info = {
		.signo = SIGCHLD,
		.code = code,
		.child.pid = tracee->pid,
		.child.status = status,
	};

	signal_send_process(tracer->group_leader, &info);
	wake_up_all(&tracer->group_leader->child_exited);
}

/*
 * Whether t is to die without stopping: it was killed - but the exit
 * event of exit_group (which marks its threads killed too) still stops,
 * unless the death is SIGKILL's, as on Linux.
 */
static bool
must_leave(struct task *t, int status)
{
	bool exit_event = status == STOP_STATUS(SIGTRAP | (PTRACE_EVENT_EXIT << 8));

	return READ_ONCE(t->killed) &&
	       (!exit_event || (t->group_leader->group_exit_status & 0x7f) == SIGKILL);
}

/*
 * A listener leaves its stop when a new trap is asked of it: SIGCONT or
 * PTRACE_INTERRUPT (stop.c's STOP_PTRACE_TRAP, set under tasks_lock).
 */
static bool
listener_retraps(const struct task *t)
{
	return t->ptrace.listening && (READ_ONCE(t->stop_pending) & STOP_PTRACE_TRAP);
}

/*
 * Stops the current task for its tracer, reporting `status`, until it is
 * resumed, let go or killed, or, listening, asked for a new trap (taken
 * on its way back to user mode). info (may be NULL) is what GETSIGINFO
 * shows.
 */
static void
ptrace_stop(int status, const struct kernel_siginfo *info, u8 syscall_stop)
{
	struct task *t = current();
	struct ptrace_link *p = &t->ptrace;
	u64 flags = spin_lock_irqsave(&tasks_lock);

	if (!p->tracer || must_leave(t, status)) {
		spin_unlock_irqrestore(&tasks_lock, flags);
		return;
	}
	p->report = status;
	p->stopped = true;
	p->resume_signal = 0;
	p->detached = false;
	p->syscall_stop = syscall_stop;
	p->has_siginfo = info != NULL;
	if (info)
		p->siginfo = *info;
	notify_tracer(p->tracer, CLD_TRAPPED, (status >> 8) & 0xff);
	for (;;) {
		set_current_sleeping();
		if (!p->stopped || must_leave(t, status) || listener_retraps(t))
			break;
		spin_unlock_irqrestore(&tasks_lock, flags);
		schedule();
		flags = spin_lock_irqsave(&tasks_lock);
	}
	WRITE_ONCE(t->state, TASK_RUNNABLE);
	p->stopped = false;
	p->listening = false;
	p->report = 0;
	p->syscall_stop = PTRACE_SYSCALL_INFO_NONE;
	spin_unlock_irqrestore(&tasks_lock, flags);
}

/* A stop that reports SIGTRAP with `what` above it: an event, or a system call's. */
static void
trap_stop(int what, int code, u8 syscall_stop)
{
	struct kernel_siginfo info = { .signo = SIGTRAP, .code = code };

	ptrace_stop(STOP_STATUS(what), &info, syscall_stop);
}

/* ---- system calls ----------------------------------------------------------------------- */

bool
ptrace_traces_syscalls(void)
{
	struct ptrace_link *p = &current()->ptrace;

	return READ_ONCE(p->trace_syscalls) || READ_ONCE(p->stepping);
}

/* A single-stepped system call ends in SIGTRAP, as Linux's user_single_step_report. */
static void
step_over_syscall(struct trap_frame *f)
{
	struct kernel_siginfo info = { .signo = SIGTRAP, .code = TRAP_BRKPT, .fault.addr = f->rip };
	u64 flags = spin_lock_irqsave(&tasks_lock);

	signal_send_thread(current(), &info);
	spin_unlock_irqrestore(&tasks_lock, flags);
}

static void
syscall_stop(u8 which)
{
	int sig = SIGTRAP;

	if (current()->ptrace.options & PTRACE_O_TRACESYSGOOD)
		sig |= 0x80;
	trap_stop(sig, sig, which);
}

/*
 * As Linux's x86-64 entry: rax reads -ENOSYS at the entry stop, the call
 * run is whatever orig_rax then holds (the tracer may change it and the
 * arguments), and orig_rax -1 skips the call, rax keeping what the tracer
 * left there.
 */
void
ptrace_syscall(struct trap_frame *f)
{
	struct ptrace_link *p = &current()->ptrace;

	if (!READ_ONCE(p->trace_syscalls)) {
		syscall_run(f);
	} else {
		f->rax = (u64)-ENOSYS;
		syscall_stop(PTRACE_SYSCALL_INFO_ENTRY);
		if (fatal_signal_pending())
			return;
		if (f->error != (u64)-1) {
			f->rax = f->error;
			syscall_run(f);
		}
	}
	if (READ_ONCE(p->trace_syscalls))
		syscall_stop(PTRACE_SYSCALL_INFO_EXIT);
	else if (READ_ONCE(p->stepping))
		step_over_syscall(f);
}

/* ---- signals and events ----------------------------------------------------------------- */

int
ptrace_signal_stop(int sig, struct kernel_siginfo *info)
{
	struct task *t = current();
	struct ptrace_link *p = &t->ptrace;

	ptrace_stop(STOP_STATUS(sig), info, PTRACE_SYSCALL_INFO_NONE);
	u64 flags = spin_lock_irqsave(&tasks_lock);
	int resumed = p->resume_signal;
	if (resumed && resumed != info->signo) /* the tracer's own signal, as Linux's SI_USER */
		*info = (struct kernel_siginfo){ .signo = resumed,
						 .code = SI_USER,
						 .kill.pid = p->tracer ? p->tracer->tgid : 0 };
	else if (resumed && p->has_siginfo)
		*info = p->siginfo; /* PTRACE_SETSIGINFO may have changed it */
	/* The tracer ended meanwhile: the signal is delivered as it came (a detach chose). */
	if (!p->tracer && !p->detached && !READ_ONCE(t->killed))
		resumed = sig;
	/* A signal the tracer chose that the thread blocks waits in its queue. */
	if (resumed && (t->sig_blocked & sigmask(resumed))) {
		signal_send_thread(t, info);
		resumed = 0;
	}
	spin_unlock_irqrestore(&tasks_lock, flags);
	return resumed;
}

/* A seized tracee's PTRACE_EVENT_STOP: sig the group's stop signal, or SIGTRAP. */
static void
event_stop(int sig)
{
	int what = sig | (PTRACE_EVENT_STOP << 8);
	struct kernel_siginfo info = { .signo = sig, .code = what };

	ptrace_stop(STOP_STATUS(what), &info, PTRACE_SYSCALL_INFO_NONE);
}

/*
 * Old-style tracees show a group stop as the bare signal, with no siginfo
 * (GETSIGINFO's EINVAL tells it from a signal-delivery-stop); seized ones
 * as a PTRACE_EVENT_STOP, which PTRACE_LISTEN may leave waiting.
 */
void
ptrace_group_stop(int sig)
{
	if (current()->ptrace.seized)
		event_stop(sig);
	else
		ptrace_stop(STOP_STATUS(sig), NULL, PTRACE_SYSCALL_INFO_NONE);
}

/* As Linux's do_jobctl_trap: a trap while the process is group-stopped shows the stop signal. */
void
ptrace_trap_stop(void)
{
	int sig = signal_group_stop_signal(current()->group_leader);

	event_stop(sig ? sig : SIGTRAP);
}

void
ptrace_event(int event, u64 message)
{
	struct task *t = current();

	/*
	 * Untraced (every exit and clone of an ordinary program): no global
	 * lock. A tracer attaching meanwhile sees the event as having come
	 * before it, as Linux's unlocked ptrace_event_enabled.
	 */
	if (!READ_ONCE(t->ptrace.tracer))
		return;
	u64 flags = spin_lock_irqsave(&tasks_lock);
	bool wanted = t->ptrace.tracer && (t->ptrace.options & (1u << event));

	if (wanted)
		t->ptrace.message = message;
	spin_unlock_irqrestore(&tasks_lock, flags);
	if (wanted)
		trap_stop(SIGTRAP | (event << 8), SIGTRAP | (event << 8), PTRACE_SYSCALL_INFO_NONE);
}

/* ---- the link ----------------------------------------------------------------------- */

int
ptrace_link_locked(struct task *t, struct task *tracer, struct ptrace_exit *exit, bool seized,
		   unsigned options)
{
	struct ptrace_link *p = &t->ptrace;

	if (p->tracer)
		return -EPERM;
	p->tracer = tracer;
	p->exit = exit;
	p->seized = seized;
	p->options = options;
	p->trace_syscalls = false;
	list_add_tail(&p->tracee_link, &tracer->ptrace.tracees);
	WRITE_ONCE(ptrace_tracee_count, ptrace_tracee_count + 1);
	return 0;
}

void
ptrace_resume_locked(struct task *t, int sig, bool trace_syscalls, bool step)
{
	struct ptrace_link *p = &t->ptrace;
	struct trap_frame *f = task_user_frame(t);

	/* A program that set TF itself keeps it, stepped or not (Linux's TIF_FORCED_TF). */
	if (step && !(f->rflags & RFLAGS_TF)) {
		f->rflags |= RFLAGS_TF;
		p->forced_tf = true;
	} else if (!step && p->forced_tf) {
		f->rflags &= ~RFLAGS_TF;
		p->forced_tf = false;
	}
	WRITE_ONCE(p->stepping, step);
	p->resume_signal = sig;
	WRITE_ONCE(p->trace_syscalls, trace_syscalls);
	p->stopped = false;
	p->report = 0;
	wake_up_task(t);
}

void
ptrace_unlink_locked(struct task *t, int sig)
{
	struct ptrace_link *p = &t->ptrace;

	if (p->stopped)
		ptrace_resume_locked(t, sig, false, false);
	list_del(&p->tracee_link);
	list_init(&p->tracee_link);
	p->tracer = NULL;
	p->options = 0;
	p->seized = false;
	p->report = 0;
	kfree(p->exit);
	p->exit = NULL;
	WRITE_ONCE(p->trace_syscalls, false);
	WRITE_ONCE(ptrace_tracee_count, ptrace_tracee_count - 1);
}

void
ptrace_interrupt_locked(struct task *t)
{
	signal_request_trap(t);
}

int
ptrace_listen_locked(struct task *t)
{
	struct ptrace_link *p = &t->ptrace;

	if (!p->seized || !p->has_siginfo || (p->siginfo.code >> 8) != PTRACE_EVENT_STOP)
		return -EIO;
	p->listening = true;
	p->report = 0;
	/* A SIGCONT or INTERRUPT that came during the stop re-traps it at once, as on Linux. */
	if (READ_ONCE(t->stop_pending) & STOP_PTRACE_TRAP)
		wake_up_task(t);
	return 0;
}

/* ---- fork, execve, exit ----------------------------------------------------------------- */

/* The event a clone with these flags is (Linux's ptrace_event_enabled choice in kernel_clone). */
static int
clone_event(u64 clone_flags)
{
	if (clone_flags & CLONE_VFORK)
		return PTRACE_EVENT_VFORK;
	if ((clone_flags & CSIGNAL) != SIGCHLD)
		return PTRACE_EVENT_CLONE;
	return PTRACE_EVENT_FORK;
}

int
ptrace_fork(struct task *child, u64 clone_flags)
{
	struct task *t = current();
	int event = clone_event(clone_flags);

	/* The step is the parent's: the child does not inherit the tracer's TF. */
	if (READ_ONCE(t->ptrace.forced_tf))
		task_user_frame(child)->rflags &= ~RFLAGS_TF;
	if (!READ_ONCE(t->ptrace.tracer) || !(READ_ONCE(t->ptrace.options) & (1u << event)))
		return 0;
	struct ptrace_exit *exit = kzalloc(sizeof(*exit));
	if (!exit)
		return 0; /* the child runs untraced: Linux cannot fail here either */
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct ptrace_link *p = &t->ptrace;
	int err = p->tracer ? ptrace_link_locked(child, p->tracer, exit, p->seized, p->options)
			    : -ESRCH;
	if (!err && p->seized)
		signal_request_trap(child);
	else if (!err)
		signal_send_thread(child,
				   &(struct kernel_siginfo){ .signo = SIGSTOP, .code = SI_USER });
	spin_unlock_irqrestore(&tasks_lock, flags);
	if (err) {
		kfree(exit);
		return 0;
	}
	return event;
}

void
ptrace_exec(int old_pid)
{
	struct task *t = current();

	if (!READ_ONCE(t->ptrace.tracer))
		return;
	if (READ_ONCE(t->ptrace.options) & PTRACE_O_TRACEEXEC) {
		ptrace_event(PTRACE_EVENT_EXEC, old_pid);
	} else if (!t->ptrace.seized) {
		u64 flags = spin_lock_irqsave(&tasks_lock);
		signal_send_thread(t,
				   &(struct kernel_siginfo){ .signo = SIGTRAP, .code = SI_USER });
		spin_unlock_irqrestore(&tasks_lock, flags);
	}
}

/*
 * The tracer learns of t's end by its wait, unless it is t's parent and t
 * its process's last: the zombie tells it then, as to any parent. A
 * leader traced by another keeps its parent from hearing of its
 * process's end until the tracer has waited for it, as on Linux (whose
 * tracer reaps the zombie first, then notifies the real parent). A thread
 * that another's execve ends reports an exit with 0, and the leader
 * nothing: the execing thread takes its pid (Linux's de_thread releases
 * the old leader silently).
 */
static void
report_exit_locked(struct task *t, int wait_status)
{
	struct ptrace_link *p = &t->ptrace;
	struct task *tracer = p->tracer;
	struct ptrace_exit *exit = p->exit;
	bool leader = t->group_leader == t;
	bool parent_hears = leader && t->parent == tracer->group_leader;
	struct task *execer = t->group_leader->exec_task;
	/* Another thread's execve ends it: the leader's pid goes on in the execing thread. */
	bool superseded = execer && execer != t;

	p->exit = NULL;
	ptrace_unlink_locked(t, 0);
	if (parent_hears || (superseded && leader)) {
		kfree(exit);
		return;
	}
	if (superseded)
		wait_status = 0; /* as if by _exit(0), as Linux's de_thread leaves it */
	exit->pid = t->pid;
	exit->pgid = t->group_leader->pgid;
	exit->status = wait_status;
	if (leader && t->parent) {
		exit->held_leader = t;
		p->end_held = true;
	}
	list_add_tail(&exit->link, &tracer->ptrace.exits);
	wake_up_all(&tracer->group_leader->child_exited);
}

/* The tracer has waited for an end (or is gone): the parent it held back hears of it now. */
static void
exit_note_free_locked(struct ptrace_exit *e)
{
	struct task *leader = e->held_leader;

	list_del(&e->link);
	kfree(e);
	if (!leader)
		return;
	leader->ptrace.end_held = false;
	if (!leader->live_threads)
		process_end_notify_parent_locked(leader);
}

void
ptrace_exit_locked(struct task *t, int wait_status)
{
	struct ptrace_link *p = &t->ptrace;

	if (p->tracer)
		report_exit_locked(t, wait_status);
	while (!list_empty(&p->tracees)) {
		struct task *tracee =
			list_first_entry(&p->tracees, struct task, ptrace.tracee_link);
		if (tracee->ptrace.options & PTRACE_O_EXITKILL)
			signal_send_thread(tracee, &(struct kernel_siginfo){ .signo = SIGKILL,
									     .code = SI_USER });
		ptrace_unlink_locked(tracee, 0);
	}
	while (!list_empty(&p->exits))
		exit_note_free_locked(list_first_entry(&p->exits, struct ptrace_exit, link));
}

/* ---- the tracer's wait ------------------------------------------------------------------ */

static bool
wait_matches(const struct ptrace_wait *w, int pid, int pgid)
{
	switch (w->idtype) {
	case P_PID:
		return pid == w->id;
	case P_PGID:
		return pgid == w->id;
	default:
		return true;
	}
}

/* A stop or an end of one of tracer's tracees; -1 if none matches. */
static int
wait_one_tracer(struct task *tracer, struct ptrace_wait *w)
{
	struct list_head *pos;
	int found = -1;

	list_for_each(pos, &tracer->ptrace.exits) {
		struct ptrace_exit *e = list_entry(pos, struct ptrace_exit, link);
		if (!wait_matches(w, e->pid, e->pgid))
			continue;
		found = 0;
		if (!w->exits)
			continue;
		w->pid = e->pid;
		w->status = e->status;
		if (w->consume)
			exit_note_free_locked(e);
		return 1;
	}
	list_for_each(pos, &tracer->ptrace.tracees) {
		struct task *t = list_entry(pos, struct task, ptrace.tracee_link);
		if (!wait_matches(w, t->pid, t->group_leader->pgid))
			continue;
		found = 0;
		if (!t->ptrace.report)
			continue;
		w->pid = t->pid;
		w->status = t->ptrace.report;
		if (w->consume)
			t->ptrace.report = 0;
		return 1;
	}
	return found;
}

int
ptrace_wait_locked(struct task *waiter, struct ptrace_wait *w)
{
	struct list_head *pos;
	int found = -1;

	if (w->only_tracer)
		return wait_one_tracer(w->only_tracer, w);
	/* Any thread of the tracer's process may wait, as without __WNOTHREAD on Linux. */
	list_for_each(pos, &waiter->group_leader->threads) {
		struct task *tracer = list_entry(pos, struct task, thread_link);
		int r = wait_one_tracer(tracer, w);
		if (r == 1)
			return 1;
		found = MAX(found, r);
	}
	return found;
}

int
ptrace_tracer_pid(const struct task *t)
{
	return t->ptrace.tracer ? t->ptrace.tracer->pid : 0;
}
