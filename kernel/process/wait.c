/*
 * wait.c - a parent waiting for its children: wait4 and waitid.
 *
 * Both come down to one search of the process's children (any thread may
 * wait for them) for one that matches - every child, one pid, or one
 * process group - and has something to report: it ended (a zombie, freed
 * here unless WNOWAIT leaves it), it stopped (WUNTRACED/WSTOPPED) or it
 * was continued (WCONTINUED); the last two are reported once each
 * (kernel/signal/stop.c keeps them). Without WNOHANG the caller sleeps on
 * its child_exited queue, which exits, stops and continues wake.
 *
 * A tracer also waits for its tracees (kernel/process/ptrace.c): their
 * ptrace stops, reported whatever the options, and their ends.
 *
 * A child belongs to the thread that forked it (parent_tid) and a tracee
 * to the thread that traces it, but any thread of the process may wait for
 * them, as on Linux; __WNOTHREAD narrows the wait to the caller's own
 * children and tracees. A thread that exits hands its children to another
 * of its group (exit.c). __WALL and __WCLONE are accepted and change
 * nothing: every child is waited for alike.
 */
#include "kernel/process/process.h"
#include "kernel/process/pidfd.h"
#include "kernel/process/session.h"
#include "fs/fs.h"
#include "kernel/sched/sched.h"
#include "kernel/signal/signal.h"
#include "kernel/syscall/syscall.h"
#include "kernel/time/cputime.h"
#include "kernel/time/itimer.h"
#include "kernel/time/posix_timer.h"
#include "kernel/x86/x86.h"
#include "uapi/errno.h"
#include "uapi/resource.h"
#include "uapi/wait.h"

#define WAIT4_OPTIONS (WNOHANG | WUNTRACED | WCONTINUED | __WNOTHREAD | __WCLONE | __WALL)
#define WAITID_OPTIONS \
	(WNOHANG | WNOWAIT | WEXITED | WSTOPPED | WCONTINUED | __WNOTHREAD | __WCLONE | __WALL)

/* Which children, and what of them, a wait asks for. */
struct wait_request {
	int idtype; /* P_ALL, P_PID or P_PGID */
	int id;
	int options;	     /* WEXITED, WSTOPPED, WCONTINUED, WNOHANG, WNOWAIT, __WNOTHREAD */
	struct task *waiter; /* __WNOTHREAD: only this thread's children and tracees; else NULL */
};

/* What the wait found. */
struct wait_found {
	struct task *zombie; /* to free (unlinked), or NULL */
	int pid;
	int status; /* as wait4 reports it */
	int why;    /* CLD_EXITED, CLD_KILLED, CLD_DUMPED, CLD_STOPPED, CLD_CONTINUED */
	struct cputime time;
	u64 faults;
	u64 maxrss_kb;
};

static bool
child_matches(const struct task *c, const struct wait_request *w)
{
	if (w->waiter && c->parent_tid != w->waiter->pid)
		return false;
	switch (w->idtype) {
	case P_PID:
		return c->tgid == w->id;
	case P_PGID:
		return c->pgid == w->id;
	default:
		return true;
	}
}

/* The child's whole CPU time and faults, its reaped children's included (RUSAGE_BOTH). */
static void
child_usage(struct task *c, struct wait_found *out)
{
	out->time = c->time;
	cputime_add(&out->time, c->exited_threads_time);
	cputime_add(&out->time, c->children_time);
	out->faults = c->minor_faults + c->children_minor_faults;
	out->maxrss_kb = MAX(c->maxrss_kb, c->children_maxrss_kb);
}

/* What c has to report to w, into out; false if nothing. tasks_lock held. */
static bool
child_report(struct task *c, const struct wait_request *w, struct wait_found *out)
{
	*out = (struct wait_found){ .pid = c->tgid };
	if (READ_ONCE(c->state) == TASK_ZOMBIE && c->live_threads == 0) {
		if (!(w->options & WEXITED) || c->ptrace.end_held) /* its tracer first */
			return false;
		out->status = c->exit_status;
		out->why = wait_status_code(c->exit_status);
		if (!(w->options & WNOWAIT)) {
			list_del(&c->sibling);
			task_unlink(c);
			out->zombie = c;
		} else {
			child_usage(c, out);
		}
		return true;
	}
	out->status = signal_wait_report(c, w->options, &out->why);
	if (!out->status)
		return false;
	child_usage(c, out);
	return true;
}

/* What a tracee of the waiting process has: a ptrace stop, or its end. tasks_lock held. */
static int
tracee_report(struct task *parent, const struct wait_request *w, struct wait_found *out)
{
	struct ptrace_wait pw = { .idtype = w->idtype,
				  .id = w->id,
				  .consume = !(w->options & WNOWAIT),
				  .exits = w->options & WEXITED,
				  .only_tracer = w->waiter };
	int found = ptrace_wait_locked(parent, &pw);

	if (found == 1) {
		*out = (struct wait_found){ .pid = pw.pid, .status = pw.status };
		out->why = (pw.status & 0xff) == 0x7f ? CLD_TRAPPED : wait_status_code(pw.status);
	}
	return found;
}

/* 1 with *out filled, 0 if matching children have nothing yet, -ECHILD if none match. */
static int
search_children(struct task *parent, const struct wait_request *w, struct wait_found *out)
{
	struct list_head *pos;
	u64 flags = spin_lock_irqsave(&tasks_lock);
	int traced = tracee_report(parent, w, out);
	bool any = traced == 0;

	if (traced == 1) {
		spin_unlock_irqrestore(&tasks_lock, flags);
		return 1;
	}

	list_for_each(pos, &parent->children) {
		struct task *c = list_entry(pos, struct task, sibling);
		if (!child_matches(c, w))
			continue;
		any = true;
		if (child_report(c, w, out)) {
			spin_unlock_irqrestore(&tasks_lock, flags);
			return 1;
		}
	}
	spin_unlock_irqrestore(&tasks_lock, flags);
	return any ? 0 : -ECHILD;
}

/* Frees the zombie, its times going to the parent's children's. */
static void
reap(struct task *parent, struct wait_found *found)
{
	struct task *c = found->zombie;

	reap_dead_threads();
	while (READ_ONCE(c->on_cpu)) /* its CPU is still leaving its stack */
		cpu_relax();
	child_usage(c, found);
	cputime_add(&parent->children_time, found->time);
	parent->children_minor_faults += found->faults;
	parent->children_maxrss_kb = MAX(parent->children_maxrss_kb, found->maxrss_kb);
	itimer_release(c);
	posix_timers_release(c);
	task_free(c);
}

/* 1 (found), 0 (WNOHANG, nothing yet), or -ECHILD, -ERESTARTSYS. */
static long
do_wait(struct wait_request *w, struct wait_found *found)
{
	struct task *t = current()->group_leader; /* the process's children, from any thread */
	int ret;

	w->waiter = (w->options & __WNOTHREAD) ? current() : NULL;
	for (;;) {
		WAIT_ENTRY(e);
		prepare_to_wait(&t->child_exited, &e);
		ret = search_children(t, w, found);
		if (ret || (w->options & WNOHANG) || task_interrupted()) {
			finish_wait(&t->child_exited, &e);
			break;
		}
		schedule();
		finish_wait(&t->child_exited, &e);
	}
	if (ret == 0 && !(w->options & WNOHANG))
		return -ERESTARTSYS;
	if (ret == 1 && found->zombie)
		reap(t, found);
	return ret;
}

static long
put_rusage(struct kernel_rusage __user *uru, const struct wait_found *found)
{
	struct kernel_rusage ru;

	if (!uru)
		return 0;
	fill_rusage(&ru, found->time, found->faults, found->maxrss_kb);
	return copy_to_user(uru, &ru, sizeof(ru)) ? -EFAULT : 0;
}

SYSCALL4(wait4, int, pid, int __user *, ustatus, int, options, struct kernel_rusage __user *, uru)
{
	struct wait_request w = { .idtype = P_ALL, .options = options | WEXITED };
	struct wait_found found;

	if (options & ~WAIT4_OPTIONS)
		return -EINVAL;
	if (options & WUNTRACED)
		w.options |= WSTOPPED;
	if (pid == (int)(1u << 31))
		return -ESRCH; /* INT_MIN: no group can be named by its negation */
	if (pid > 0) {
		w.idtype = P_PID;
		w.id = pid;
	} else if (pid < -1) {
		w.idtype = P_PGID;
		w.id = -pid;
	} else if (pid == 0) {
		w.idtype = P_PGID;
		w.id = session_current().pgid;
	}
	long ret = do_wait(&w, &found);
	if (ret <= 0)
		return ret;
	if (ustatus && copy_to_user(ustatus, &found.status, sizeof(found.status)))
		return -EFAULT;
	return put_rusage(uru, &found) ?: found.pid;
}

/* waitid's siginfo: SIGCHLD with the child's pid and its exit code or signal; all zero for none. */
static long
put_child_info(struct kernel_siginfo __user *uinfo, long found, const struct wait_found *f)
{
	struct kernel_siginfo info = { 0 };

	if (!uinfo)
		return 0;
	if (found) {
		info.signo = SIGCHLD;
		info.code = f->why;
		info.child.pid = f->pid;
		info.child.status =
			f->why == CLD_EXITED				 ? (f->status >> 8) & 0xff
			: f->why == CLD_KILLED || f->why == CLD_DUMPED	 ? f->status & 0x7f
			: f->why == CLD_STOPPED || f->why == CLD_TRAPPED ? (f->status >> 8) & 0xff
									 : SIGCONT;
	}
	return copy_to_user(uinfo, &info, sizeof(info)) ? -EFAULT : 0;
}

/*
 * The process pidfd fd names, for waitid(P_PIDFD): a pid, or -EBADF if fd
 * is no pidfd; *nonblock if it is O_NONBLOCK (PIDFD_NONBLOCK).
 */
static int
pidfd_target(int fd, bool *nonblock)
{
	struct file *f = fd_get(fd);
	int pid = f ? pidfd_pid(f) : 0;

	if (f) {
		*nonblock = f->flags & O_NONBLOCK;
		file_put(f);
	}
	return pid ? pid : -EBADF;
}

SYSCALL5(waitid, int, idtype, int, id, struct kernel_siginfo __user *, uinfo, int, options,
	 struct kernel_rusage __user *, uru)
{
	struct wait_request w = { .idtype = idtype, .id = id, .options = options };
	struct wait_found found = { 0 };
	bool nonblock = false;

	if (options & ~WAITID_OPTIONS)
		return -EINVAL;
	if (!(options & (WEXITED | WSTOPPED | WCONTINUED)))
		return -EINVAL;
	switch (idtype) {
	case P_ALL:
		break;
	case P_PID:
		if (id <= 0)
			return -EINVAL;
		break;
	case P_PGID:
		if (id < 0)
			return -EINVAL;
		if (id == 0)
			w.id = session_current().pgid;
		break;
	case P_PIDFD:
		if (id < 0)
			return -EINVAL;
		w.idtype = P_PID;
		w.id = pidfd_target(id, &nonblock);
		if (w.id < 0)
			return w.id;
		if (nonblock)
			w.options |= WNOHANG;
		break;
	default:
		return -EINVAL;
	}
	long ret = do_wait(&w, &found);
	if (!ret && nonblock && !(options & WNOHANG))
		return -EAGAIN; /* a non-blocking pidfd's child has not ended yet, as Linux */
	if (ret < 0)
		return ret;
	if (put_child_info(uinfo, ret, &found))
		return -EFAULT;
	return ret ? put_rusage(uru, &found) : 0;
}
