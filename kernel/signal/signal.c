/*
 * signal.c - generating signals and keeping them until delivery: the
 * dispositions (struct sighand, shared by a process's threads), the
 * pending sets (one per thread, one per process in its group leader) with
 * a siginfo queued for each signal (charged to a user, RLIMIT_SIGPENDING),
 * sending with Linux's choice of the
 * thread that takes a process-directed signal, death as a default action
 * decided when sending, and the state across fork, execve and exit.
 *
 * Delivery - the handler's frame on the user stack, rt_sigreturn, the
 * restart of interrupted system calls - is in signal_frame.c; the system
 * calls that manage signals are in signal_syscalls.c.
 *
 * Locking: a sender holds tasks_lock (the target cannot be freed, thread
 * lists are stable), then the target's sighand lock; wake-ups (run-queue
 * locks) nest inside both. A thread list changes under tasks_lock and its
 * process's sighand lock together (signal_lock_thread_list), so either one
 * is enough to walk it, and a task found on it under the sighand lock
 * cannot be freed before the unlock: changing a thread's own mask
 * (set_current_blocked, Linux's siglock-only sigprocmask) takes only the
 * sighand lock, and every reader of another thread's blocked mask
 * (pick_thread, wants_signal, the sender's ignore test) holds that lock
 * too. A thread reads its own blocked mask without the lock, since nobody
 * else changes it while it runs (a tracer's PTRACE_SETSIGMASK acts on a
 * stopped tracee). A sleeper's "is a signal pending"
 * test (task_interrupted) has a full barrier between marking itself
 * sleeping and reading the pending sets; the sender sets the bit, then
 * wakes under the run-queue lock: one of the two always sees the other.
 */
#include "kernel/signal/signal_internal.h"
#include "kernel/x86/entry.h"
#include "kernel/time/cputime.h"
#include "uapi/errno.h"
#include "kernel/process/cred.h"
#include "kernel/process/coredump.h"
#include "kernel/process/process.h"
#include "kernel/process/rlimit.h"
#include "kernel/sched/sched.h"
#include "kernel/x86/smp.h"
#include "kernel/syscall/syscall.h"
#include "kernel/lib/string.h"
#include "kernel/x86/traps.h"
#include "kernel/time/itimer.h"
#include "kernel/time/tsc.h"
#include "mm/kmalloc.h"
#include "uapi/param.h"

/* Faults are taken first: the instruction that raised one cannot go on before it is handled. */
#define SYNCHRONOUS_MASK                                                           \
	(sigmask(SIGSEGV) | sigmask(SIGBUS) | sigmask(SIGILL) | sigmask(SIGTRAP) | \
	 sigmask(SIGFPE) | sigmask(SIGSYS))

/* ---- dispositions -------------------------------------------------------------- */

bool
sig_default_ignored(int sig)
{
	switch (sig) {
	case SIGCHLD:
	case SIGURG:
	case SIGWINCH:
	case SIGCONT:
		return true;
	default:
		return false;
	}
}

/* Whether the default action applies and is death; sighand lock held. */
static bool
sig_fatal(struct task *t, int sig)
{
	return sig == SIGKILL || (sig_action(t, sig)->handler == SIG_DFL &&
				  !sig_default_ignored(sig) && !sig_is_stop(sig));
}

static struct sighand *
sighand_alloc(void)
{
	struct sighand *sh = kzalloc(sizeof(*sh));

	if (sh) {
		sh->refs = 1;
		spin_lock_init(&sh->lock, "sighand");
		wait_queue_init(&sh->signalfd_wq);
	}
	return sh;
}

struct sighand *
sighand_get(struct sighand *sh)
{
	__atomic_add_fetch(&sh->refs, 1, __ATOMIC_RELAXED);
	return sh;
}

void
sighand_put(struct sighand *sh)
{
	if (__atomic_sub_fetch(&sh->refs, 1, __ATOMIC_ACQ_REL) == 0)
		kfree(sh);
}

/* ---- pending sets -------------------------------------------------------------- */

static void
pending_init(struct sigpending *p)
{
	p->set = 0;
	list_init(&p->queue);
}

/*
 * A siginfo for a signal to t, charged to the real user of t's process
 * against its RLIMIT_SIGPENDING, as Linux's __sigqueue_alloc (which counts
 * the user's queued siginfos and timers everywhere); NULL at the limit
 * (unless may_exceed) or out of memory.
 */
static struct sigqueue *
sigqueue_alloc(struct task *t, bool may_exceed)
{
	struct task *leader = t->group_leader;
	struct user_charge user = USER_CHARGE(READ_ONCE(leader->uids.real));

	if (may_exceed)
		user_count_add(&user, USER_SIGPENDING, 1);
	else if (!user_count_add_one_within(&user, USER_SIGPENDING,
					    task_rlimit(leader, RLIMIT_SIGPENDING)))
		return NULL;
	struct sigqueue *q = kmalloc(sizeof(*q));
	if (!q) {
		user_count_add(&user, USER_SIGPENDING, -1);
		return NULL;
	}
	q->owned = false;
	q->user = user;
	return q;
}

/* Frees q and gives back its charge. */
static void
sigqueue_free(struct sigqueue *q)
{
	user_count_add(&q->user, USER_SIGPENDING, -1);
	kfree(q);
}

/* Takes q out of p: an owned one goes back to its timer, any other is freed. Sighand lock held. */
static void
pending_unlink(struct sigpending *p, struct sigqueue *q)
{
	list_del(&q->link); /* leaves it empty: not pending */
	if (!q->owned)
		sigqueue_free(q);
}

/* Removes the signals in mask and their siginfos; sighand lock held. */
static void
pending_flush(struct sigpending *p, u64 mask)
{
	struct list_head *pos = p->queue.next;

	while (pos != &p->queue) {
		struct sigqueue *q = list_entry(pos, struct sigqueue, link);
		pos = pos->next;
		if (mask & sigmask(q->info.signo))
			pending_unlink(p, q);
	}
	p->set &= ~mask;
}

/*
 * Adds a signal sent to t. A standard signal is pending at most once (a
 * second one merges with the first); realtime signals queue, each with its
 * siginfo. If no siginfo can be stored the signal is still pending, and
 * is taken as if kill() by pid 0, uid 0 had sent it (pending_take) -
 * except a realtime one from sigqueue, tgkill and the like, which fails
 * -EAGAIN, as Linux's. The kernel's and kill's standard signals (si_code
 * >= 0) may go past RLIMIT_SIGPENDING, as Linux's override_rlimit.
 * Sighand lock held.
 */
static int
pending_add(struct task *t, struct sigpending *p, const struct kernel_siginfo *info)
{
	int sig = info->signo;

	if (sig < SIGRTMIN && (p->set & sigmask(sig)))
		return 0;
	struct sigqueue *q = sigqueue_alloc(t, sig < SIGRTMIN && info->code >= 0);
	if (q) {
		q->info = *info;
		list_add_tail(&q->link, &p->queue);
	} else if (sig >= SIGRTMIN && info->code != SI_USER) {
		return -EAGAIN;
	}
	p->set |= sigmask(sig);
	return 0;
}

/* The lowest signal in pending & mask, faults first; 0 if none. */
static int
next_signal(u64 pending, u64 mask)
{
	u64 ready = pending & mask;

	if (ready & SYNCHRONOUS_MASK)
		ready &= SYNCHRONOUS_MASK;
	return ready ? __builtin_ctzl(ready) + 1 : 0;
}

/*
 * Takes sig's oldest siginfo out of p; the bit stays while another one is
 * queued. Whether it was a live timer's: the caller tells the timer.
 */
static bool
pending_take(struct sigpending *p, int sig, struct kernel_siginfo *info)
{
	struct sigqueue *found = NULL;
	bool more = false;
	struct list_head *pos;

	list_for_each(pos, &p->queue) {
		struct sigqueue *q = list_entry(pos, struct sigqueue, link);
		if (q->info.signo != sig)
			continue;
		if (found) {
			more = true;
			break;
		}
		found = q;
	}
	bool timer = found && found->owned;
	if (found) {
		*info = found->info;
		pending_unlink(p, found);
	} else { /* sent with no siginfo to spare: Linux's collect_signal reports kill() by pid 0 */
		*info = (struct kernel_siginfo){ .signo = sig, .code = SI_USER };
	}
	if (!more)
		p->set &= ~sigmask(sig);
	return timer;
}

int
dequeue_signal(struct task *t, u64 mask, struct kernel_siginfo *info, bool *timer)
{
	struct sigpending *p = &t->sig_pending;
	int sig = next_signal(p->set, mask);

	if (!sig) {
		p = &t->group_leader->sig_shared;
		sig = next_signal(p->set, mask);
	}
	*timer = sig && pending_take(p, sig, info);
	if (sig == SIGALRM && p == &t->group_leader->sig_shared)
		itimer_signal_taken(t->group_leader);
	return sig;
}

void
flush_pending(struct task *t, u64 mask)
{
	struct task *leader = t->group_leader;
	struct list_head *pos;

	pending_flush(&leader->sig_shared, mask);
	list_for_each(pos, &leader->threads)
		pending_flush(&list_entry(pos, struct task, thread_link)->sig_pending, mask);
}

/*
 * Whether t would act on sig now: not exiting, not stopped (a stopped
 * process takes its signals once continued; SIGKILL never gets here), and
 * not blocking sig (or waiting for it).
 */
static bool
wants_signal(struct task *t, int sig)
{
	if (READ_ONCE(t->killed) || READ_ONCE(t->state) == TASK_ZOMBIE || READ_ONCE(t->stopped))
		return false;
	return !(t->sig_blocked & sigmask(sig)) || (t->sig_waiting & sigmask(sig));
}

bool
signal_pending(void)
{
	struct task *t = current();

	__atomic_thread_fence(__ATOMIC_SEQ_CST); /* our "sleeping" before their pending bit */
	if (READ_ONCE(t->killed))
		return true;
	return t->sighand && sig_deliverable(t);
}

/* ---- sending ------------------------------------------------------------------- */

/* Makes t notice a signal: ends an interruptible sleep, or interrupts user mode on its CPU. */
static void
signal_wake(struct task *t)
{
	wake_up_task(t);
	if (t != current() && READ_ONCE(t->on_cpu))
		smp_send_reschedule(READ_ONCE(t->cpu));
}

/*
 * The thread of leader's process to take sig, as Linux picks it; NULL if
 * all block it. The sighand lock held (tasks_lock is not needed: see the
 * locking rule at the top).
 */
static struct task *
pick_thread(struct task *leader, int sig)
{
	struct task *cur = current();
	struct list_head *pos;

	if (cur->group_leader == leader && wants_signal(cur, sig))
		return cur;
	list_for_each(pos, &leader->threads) {
		struct task *m = list_entry(pos, struct task, thread_link);
		if (wants_signal(m, sig))
			return m;
	}
	return NULL;
}

/*
 * Puts a timer's owned q in p, or, if it waits there already, adds one to
 * its overrun: false then, nobody is to be woken again. Sighand lock held.
 */
static bool
pending_add_owned(struct sigpending *p, struct sigqueue *q)
{
	if (!list_empty(&q->link)) {
		q->info.timer.overrun += q->info.timer.overrun < __INT_MAX__;
		return false;
	}
	q->info.timer.overrun = 0;
	list_add_tail(&q->link, &p->queue);
	p->set |= sigmask(q->info.signo);
	return true;
}

/*
 * The common part of the sends: t is the thread named (thread-directed)
 * or any member of the process; a timer's signal comes in its owned q
 * (info is then q's), and *owned_pending tells whether q is pending after.
 * tasks_lock held.
 */
static int
send_signal(struct task *t, const struct kernel_siginfo *info, bool whole_process,
	    struct sigqueue *owned, bool *owned_pending)
{
	struct task *leader = t->group_leader;
	int sig = info->signo, err = 0;
	bool continued = false;

	if (!t->sighand || leader->group_exiting || !leader->live_threads)
		return 0; /* a kernel thread, or a process on its way out: nothing to do */
	u64 flags = sighand_lock(t);
	/* init only gets the signals it has a handler for, unless traced (its tracer sees all) */
	if (leader->pid == 1 && sig_action(t, sig)->handler == SIG_DFL && !t->ptrace.tracer)
		goto out;
	if (sig == SIGKILL) {
		group_kill_locked(leader, SIGKILL);
		goto out;
	}
	continued = stop_prepare_send(leader, sig);
	/*
	 * Ignored signals are dropped now, unless blocked (the disposition
	 * may change meanwhile) or traced (the tracer sees every signal).
	 */
	if (!(t->sig_blocked & sigmask(sig)) && sig_handler_ignores(sig_action(t, sig), sig) &&
	    !t->ptrace.tracer)
		goto out;
	struct sigpending *p = whole_process ? &leader->sig_shared : &t->sig_pending;
	if (owned) {
		*owned_pending = true;
		if (!pending_add_owned(p, owned))
			goto out;
	} else if ((err = pending_add(t, p, info)) != 0) {
		goto out;
	}
	/* A signalfd may read it (signalfd.c); woken under the lock, so the sighand is this one. */
	wake_up_all(&t->sighand->signalfd_wq);
	struct task *target = whole_process ? pick_thread(leader, sig) : t;
	if (!target || !wants_signal(target, sig))
		goto out; /* pending until a thread unblocks it */
	/* A core signal is left to the target's delivery, where the dump is (Linux's complete_signal). */
	if (sig_fatal(t, sig) && !sig_dumps_core(sig) && !(target->sig_waiting & sigmask(sig)) &&
	    !target->ptrace.tracer)
		group_kill_locked(leader, sig);
	else
		signal_wake(target);
out:
	sighand_unlock(t, flags);
	if (continued)
		stop_notify_continued(leader);
	return err;
}

int
signal_send_process(struct task *p, const struct kernel_siginfo *info)
{
	return send_signal(p, info, true, NULL, NULL);
}

int
signal_send_thread(struct task *t, const struct kernel_siginfo *info)
{
	return send_signal(t, info, false, NULL, NULL);
}

bool
signal_send_timer(struct task *t, struct sigqueue *q, bool whole_process)
{
	bool pending = false;

	send_signal(t, &q->info, whole_process, q, &pending);
	return pending;
}

struct sigqueue *
signal_timer_sigqueue(void)
{
	struct sigqueue *q = sigqueue_alloc(current(), false);

	if (q) {
		list_init(&q->link);
		q->owned = true;
	}
	return q;
}

void
signal_disown(struct task *t, struct sigqueue *q)
{
	u64 flags = sighand_lock(t);
	bool pending = !list_empty(&q->link);

	q->owned = false;
	sighand_unlock(t, flags);
	if (!pending)
		sigqueue_free(q);
}

void
signal_send_self(int sig)
{
	struct task *t = current();
	struct kernel_siginfo info = { .signo = sig,
				       .code = SI_USER,
				       .kill = { .pid = t->tgid, .uid = current_uids().real } };
	u64 flags = spin_lock_irqsave(&tasks_lock);

	signal_send_thread(t,
			   &info); /* the calling thread's, as Linux's send_sig(SIGPIPE, current) */
	spin_unlock_irqrestore(&tasks_lock, flags);
}

void
signal_lock_thread_list(struct task *t)
{
	if (t->sighand)
		spin_lock(&t->sighand->lock);
}

void
signal_unlock_thread_list(struct task *t)
{
	if (t->sighand)
		spin_unlock(&t->sighand->lock);
}

void
set_current_blocked(u64 mask)
{
	struct task *t = current();
	u64 flags = spin_lock_irqsave(&t->sighand->lock); /* only t replaces t->sighand */
	u64 newly_blocked = mask & ~t->sig_blocked & t->group_leader->sig_shared.set;
	t->sig_blocked = mask & ~UNBLOCKABLE;
	/* A process signal this thread now blocks may be for another thread to take. */
	while (newly_blocked) {
		int sig = __builtin_ctzl(newly_blocked) + 1;
		newly_blocked &= ~sigmask(sig);
		struct task *other = pick_thread(t->group_leader, sig);
		if (other)
			signal_wake(other);
	}
	spin_unlock_irqrestore(&t->sighand->lock, flags);
}

int
signal_peek_queue(struct task *t, bool shared, u64 off, struct kernel_siginfo *out, int n)
{
	struct sigpending *p = shared ? &t->group_leader->sig_shared : &t->sig_pending;
	struct list_head *pos;
	int copied = 0;
	u64 flags = sighand_lock(t);

	list_for_each(pos, &p->queue) {
		if (copied == n)
			break;
		if (off) {
			off--;
			continue;
		}
		out[copied++] = list_entry(pos, struct sigqueue, link)->info;
	}
	sighand_unlock(t, flags);
	return copied;
}

u64
signal_tracee_mask(struct task *t)
{
	return t->sig_restore_mask ? t->sig_saved_mask : t->sig_blocked;
}

void
signal_set_tracee_mask(struct task *t, u64 mask)
{
	u64 flags = sighand_lock(t);

	t->sig_blocked = mask & ~UNBLOCKABLE;
	t->sig_restore_mask = false;
	sighand_unlock(t, flags);
}

void
signal_exit_retarget(struct task *t)
{
	struct task *leader = t->group_leader;

	if (!t->sighand || !leader->live_threads)
		return; /* a kernel thread, or the last thread: nobody is left to take them */
	spin_lock(&t->sighand->lock);
	u64 pending = leader->sig_shared.set & ~t->sig_blocked;
	while (pending) {
		int sig = __builtin_ctzl(pending) + 1;
		pending &= ~sigmask(sig);
		struct task *other = pick_thread(leader, sig); /* never t: it is a zombie now */
		if (other)
			signal_wake(other);
	}
	spin_unlock(&t->sighand->lock);
}

/*
 * A fault's signal cannot be refused: if it is blocked or ignored, the
 * default comes back (Linux's force_sig). This also catches a fault inside
 * the fault's own handler, which runs with the signal blocked. Queues it
 * for the current thread and returns true if a handler will run, or a
 * tracer is to see it first (int3's and single-step's SIGTRAP); false if
 * the default action, death, applies.
 */
static bool
force_signal(const struct kernel_siginfo *info)
{
	struct task *t = current();
	int sig = info->signo;
	u64 flags = sighand_lock(t);
	struct kernel_sigaction *a = sig_action(t, sig);

	if ((t->sig_blocked & sigmask(sig)) || a->handler == SIG_IGN) {
		a->handler = SIG_DFL;
		t->sig_blocked &= ~sigmask(sig);
	}
	bool handled = a->handler != SIG_DFL || READ_ONCE(t->ptrace.tracer);
	if (handled)
		pending_add(t, &t->sig_pending, info);
	sighand_unlock(t, flags);
	return handled;
}

void
force_sig_fault(const struct fault_report *r)
{
	struct task *t = current();
	struct kernel_siginfo info = { .signo = r->sig,
				       .code = r->code,
				       .fault.addr = r->addr,
				       .fault.addr_lsb = r->addr_lsb };

	t->fault = (struct fault_context){ .trapno = r->trapno, .error = r->error, .cr2 = r->addr };
	if (!force_signal(&info))
		kill_current(&info, r->why, r->addr, task_user_frame(t)->rip);
}

void
force_sigsegv(const char *why)
{
	struct kernel_siginfo info = { .signo = SIGSEGV, .code = SI_KERNEL };

	if (!force_signal(&info))
		kill_current(&info, why, 0, task_user_frame(current())->rip);
}

bool
signal_ignored_or_blocked(int sig)
{
	struct task *t = current();
	u64 flags = sighand_lock(t);
	bool ignored = (t->sig_blocked & sigmask(sig)) || sig_action(t, sig)->handler == SIG_IGN;

	sighand_unlock(t, flags);
	return ignored;
}

void
signal_dispositions(struct task *t, u64 *ignored, u64 *caught)
{
	*ignored = *caught = 0;
	if (!t->sighand)
		return;
	u64 flags = sighand_lock(t);
	for (int sig = 1; sig <= _NSIG; sig++) {
		u64 handler = sig_action(t, sig)->handler;
		if (handler == SIG_IGN)
			*ignored |= sigmask(sig);
		else if (handler != SIG_DFL)
			*caught |= sigmask(sig);
	}
	sighand_unlock(t, flags);
}

static s64
to_clock_ticks(u64 cycles)
{
	return (s64)(cputime_ns(cycles) / (1000000000 / USER_HZ));
}

/* Whether parent asked for no zombies: SIGCHLD ignored, or SA_NOCLDWAIT on its action. */
static bool
parent_wants_no_zombies(struct task *parent)
{
	const struct kernel_sigaction *a = sig_action(parent, SIGCHLD);

	return READ_ONCE(a->handler) == SIG_IGN || (READ_ONCE(a->flags) & SA_NOCLDWAIT);
}

bool
signal_notify_parent(struct task *leader)
{
	int status = leader->exit_status;
	bool exited = (status & 0x7f) == 0;
	struct cputime c = leader->exited_threads_time;
	struct kernel_siginfo info = {
		.signo = leader->exit_signal,
		.code = wait_status_code(status),
		.child.pid = leader->tgid,
		.child.status = exited ? (status >> 8) & 0xff : status & 0x7f,
	};

	if (!leader->parent || !leader->parent->sighand)
		return false;
	if (info.signo == SIGCHLD && parent_wants_no_zombies(leader->parent))
		return true;
	if (!info.signo)
		return false;
	c.user += leader->time.user;
	c.sys += leader->time.sys;
	info.child.utime = to_clock_ticks(c.user);
	info.child.stime = to_clock_ticks(c.sys);
	signal_send_process(leader->parent, &info);
	return false;
}

/* ---- fork, execve, exit ----------------------------------------------------------- */

static void
signal_state_init(struct task *t)
{
	pending_init(&t->sig_pending);
	pending_init(&t->sig_shared);
	t->altstack = (struct altstack){ .flags = SS_DISABLE };
}

int
signal_init_process(struct task *t)
{
	signal_state_init(t);
	t->sighand = sighand_alloc();
	return t->sighand ? 0 : -ENOMEM;
}

int
signal_fork(struct task *child, struct task *parent, u64 clone_flags)
{
	signal_state_init(child);
	child->sig_blocked = parent->sig_blocked;
	int exit_signal = (int)(clone_flags & CSIGNAL);
	/* Like Linux, an exit signal that is no signal (clone's low byte is anything) sends nothing. */
	child->exit_signal = clone_flags & CLONE_THREAD || exit_signal > _NSIG ? 0 : exit_signal;
	/* A CLONE_PARENT child tells its parent as its creator does: its parent expects that. */
	if ((clone_flags & (CLONE_PARENT | CLONE_THREAD)) == CLONE_PARENT)
		child->exit_signal = parent->group_leader->exit_signal;
	/* A new thread on the same memory needs a stack of its own; a vfork child borrows. */
	if (!(clone_flags & CLONE_VM) || (clone_flags & CLONE_VFORK))
		child->altstack = parent->altstack;
	if (clone_flags & CLONE_SIGHAND) {
		__atomic_add_fetch(&parent->sighand->refs, 1, __ATOMIC_RELAXED);
		child->sighand = parent->sighand;
		return 0;
	}
	child->sighand = sighand_alloc();
	if (!child->sighand)
		return -ENOMEM;
	u64 flags = sighand_lock(parent);
	memcpy(child->sighand->action, parent->sighand->action, sizeof(child->sighand->action));
	sighand_unlock(parent, flags);
	return 0;
}

bool
signal_handlers_shared(struct task *t)
{
	return __atomic_load_n(&t->sighand->refs, __ATOMIC_ACQUIRE) > 1;
}

int
signal_unshare(struct task *t)
{
	struct sighand *old = t->sighand;

	if (__atomic_load_n(&old->refs, __ATOMIC_ACQUIRE) == 1)
		return 0;
	struct sighand *sh = sighand_alloc();
	if (!sh)
		return -ENOMEM;
	/* tasks_lock first: a parent's wait or a sender holding it must not find old (sighand_lock). */
	u64 flags = spin_lock_irqsave(&tasks_lock);
	spin_lock(&old->lock);
	memcpy(sh->action, old->action, sizeof(sh->action));
	WRITE_ONCE(t->sighand, sh);
	spin_unlock(&old->lock);
	spin_unlock_irqrestore(&tasks_lock, flags);
	sighand_put(old);
	return 0;
}

void
signal_take_shared(struct task *to, struct task *from)
{
	u64 flags = sighand_lock(to);

	to->sig_shared.set |= from->sig_shared.set;
	to->jobctl = from->jobctl & JOBCTL_REPORT_CONT; /* no stop is under way: this thread runs */
	while (!list_empty(&from->sig_shared.queue)) {
		struct list_head *q = from->sig_shared.queue.next;
		list_del(q);
		list_add_tail(q, &to->sig_shared.queue);
	}
	pending_init(&from->sig_shared);
	sighand_unlock(to, flags);
}

void
signal_exec(struct task *t)
{
	u64 flags = sighand_lock(t);

	/* Handlers point into the old program: back to the default, but ignored stays ignored. */
	for (int sig = 1; sig <= _NSIG; sig++) {
		struct kernel_sigaction *a = sig_action(t, sig);
		*a = (struct kernel_sigaction){ .handler =
							a->handler == SIG_IGN ? SIG_IGN : SIG_DFL };
	}
	t->altstack = (struct altstack){ .flags = SS_DISABLE };
	sighand_unlock(t, flags);
}

void
signal_free(struct task *t)
{
	if (!t->sighand)
		return; /* a kernel thread, or a fork that failed before its signal state */
	u64 flags = sighand_lock(t); /* a timer's owned siginfo may be looked at meanwhile */
	pending_flush(&t->sig_pending, ~0ul);
	pending_flush(&t->sig_shared, ~0ul);
	sighand_unlock(t, flags);
	sighand_put(t->sighand);
	t->sighand = NULL;
}
