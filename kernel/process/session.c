/*
 * session.c - process groups and sessions, the ids job control is built
 * on: setpgid, getpgid, getpgrp, setsid, getsid, signals to a whole group
 * (kill(0), kill(-pgid), the terminal's), and orphaned process groups.
 *
 * A process's group and session are numbers kept in its leader (pgid,
 * sid, under tasks_lock), as Linux keeps struct pid links: a group exists
 * while some process, zombies included, carries its number, and is found
 * by walking all_tasks. Children inherit both at fork and keep them
 * across execve. Process 1 and kernel threads start in group and session
 * 0, as Linux's init does before its first setsid.
 *
 * A group is orphaned (POSIX) when no member has a parent in another
 * group of the same session: no shell is left to continue it. Stop
 * signals from the terminal are then dropped, background reads fail with
 * EIO, and when a group becomes orphaned while some member is stopped,
 * each member gets SIGHUP and SIGCONT (Linux's kill_orphaned_pgrp).
 *
 * The controlling terminal is the terminal's business (drivers/tty.c): it
 * records which session it belongs to and its foreground group.
 */
#include "kernel/process/session.h"
#include "drivers/tty.h"
#include "kernel/process/process.h"
#include "kernel/signal/signal.h"
#include "kernel/syscall/syscall.h"
#include "uapi/errno.h"

/* Whether t is a process (a group leader with signal state): what groups are made of. */
static bool
is_process(const struct task *t)
{
	return t == t->group_leader && t->sighand;
}

static bool
is_zombie(const struct task *t)
{
	return READ_ONCE(t->state) == TASK_ZOMBIE;
}

void
session_fork(struct task *child, const struct task *parent)
{
	child->pgid = parent->pgid;
	child->sid = parent->sid;
	child->tty_detached = parent->tty_detached;
	child->did_exec = false;
}

void
session_take_over(struct task *to, const struct task *from)
{
	session_fork(to, from);
	to->did_exec = from->did_exec;
}

void
session_exec(struct task *t)
{
	u64 flags = spin_lock_irqsave(&tasks_lock);

	t->group_leader->did_exec = true;
	spin_unlock_irqrestore(&tasks_lock, flags);
}

int
session_send_to_group(int pgid, const struct kernel_siginfo *info)
{
	struct list_head *pos;
	bool found = false, sent = false;

	list_for_each(pos, &all_tasks) {
		struct task *p = list_entry(pos, struct task, all_link);
		if (!is_process(p) || p->pgid != pgid)
			continue;
		found = true;
		if (!signal_permitted(p, info))
			continue;
		sent = true;
		if (info->signo)
			signal_send_process(p, info);
	}
	return sent ? 0 : found ? -EPERM : -ESRCH;
}

void
session_signal_group(int pgid, int sig)
{
	struct kernel_siginfo info = { .signo = sig, .code = SI_KERNEL };
	u64 flags = spin_lock_irqsave(&tasks_lock);

	session_send_to_group(pgid, &info);
	spin_unlock_irqrestore(&tasks_lock, flags);
}

/* The process pid names (a thread's id names its process), or NULL; tasks_lock held. */
static struct task *
process_of(int pid)
{
	struct task *t = task_find(pid);

	return t ? t->group_leader : NULL;
}

void
session_signal_leader(int sid, int sig)
{
	struct kernel_siginfo info = { .signo = sig, .code = SI_KERNEL };
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct task *leader = process_of(sid);

	if (leader && leader->pid == sid && leader->sid == sid)
		signal_send_process(leader, &info);
	spin_unlock_irqrestore(&tasks_lock, flags);
}

/* The first process of group pgid, zombies included; tasks_lock held. */
static struct task *
group_member(int pgid)
{
	struct list_head *pos;

	list_for_each(pos, &all_tasks) {
		struct task *p = list_entry(pos, struct task, all_link);
		if (is_process(p) && p->pgid == pgid)
			return p;
	}
	return NULL;
}

bool
session_group_in_session(int pgid, int sid)
{
	struct task *m = group_member(pgid);

	return m && m->sid == sid;
}

/*
 * Whether group pgid would be orphaned without process ignore (NULL:
 * none): no live member but ignore has a parent outside the group in the
 * same session. Children of init do not hold a group (Linux's rule, as
 * init is in no user's session); nor do those of ignore, which are about
 * to pass to init. tasks_lock held.
 */
static bool
orphaned_without(int pgid, const struct task *ignore)
{
	struct list_head *pos;

	list_for_each(pos, &all_tasks) {
		struct task *p = list_entry(pos, struct task, all_link);
		if (!is_process(p) || p->pgid != pgid || p == ignore || is_zombie(p))
			continue;
		struct task *parent = p->parent;
		if (!parent || parent == ignore || parent->pid == 1)
			continue;
		if (parent->pgid != pgid && parent->sid == p->sid)
			return false;
	}
	return true;
}

bool
session_group_orphaned(int pgid)
{
	return orphaned_without(pgid, NULL);
}

static bool
has_stopped_member(int pgid)
{
	struct list_head *pos;

	list_for_each(pos, &all_tasks) {
		struct task *p = list_entry(pos, struct task, all_link);
		if (is_process(p) && p->pgid == pgid && !is_zombie(p) && signal_group_stopped(p))
			return true;
	}
	return false;
}

/* POSIX: a group orphaned by this exit with a stopped member gets SIGHUP, then SIGCONT. */
static void
hang_up_if_orphaned(int pgid, int sid, const struct task *exiting)
{
	if (pgid == exiting->pgid && exiting->parent &&
	    (exiting->parent->pgid == pgid || exiting->parent->sid != sid))
		return; /* the exiting process never held its own group */
	if (!orphaned_without(pgid, exiting) || !has_stopped_member(pgid))
		return;
	struct kernel_siginfo hup = { .signo = SIGHUP, .code = SI_KERNEL };
	struct kernel_siginfo cont = { .signo = SIGCONT, .code = SI_KERNEL };
	session_send_to_group(pgid, &hup);
	session_send_to_group(pgid, &cont);
}

void
session_process_exit(struct task *leader)
{
	struct list_head *pos;

	if (leader->pid == leader->sid) {
		int fg = tty_session_ended(leader->sid);
		if (fg > 0) {
			struct kernel_siginfo hup = { .signo = SIGHUP, .code = SI_KERNEL };
			session_send_to_group(fg, &hup);
		}
	}
	hang_up_if_orphaned(leader->pgid, leader->sid, leader);
	list_for_each(pos, &leader->children) {
		struct task *c = list_entry(pos, struct task, sibling);
		if (c->pgid != leader->pgid && c->sid == leader->sid)
			hang_up_if_orphaned(c->pgid, c->sid, leader);
	}
}

struct session_ids
session_current(void)
{
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct task *leader = current()->group_leader;
	struct session_ids ids = {
		.pgid = leader->pgid,
		.sid = leader->sid,
		.session_leader = leader->tgid == leader->sid,
		.tty_detached = leader->tty_detached,
	};

	spin_unlock_irqrestore(&tasks_lock, flags);
	return ids;
}

bool
session_is_orphaned(int pgid)
{
	u64 flags = spin_lock_irqsave(&tasks_lock);
	bool orphaned = session_group_orphaned(pgid);

	spin_unlock_irqrestore(&tasks_lock, flags);
	return orphaned;
}

int
session_check_foreground(int pgid, int sid)
{
	u64 flags = spin_lock_irqsave(&tasks_lock);
	/* As Linux's session_of_pgrp: a number no group has may still be a process's. */
	struct task *m = group_member(pgid) ?: process_of(pgid);
	int err = 0;

	if (!m)
		err = -ESRCH;
	else if (m->sid != sid)
		err = -EPERM;
	spin_unlock_irqrestore(&tasks_lock, flags);
	return err;
}

void
session_detach_tty(void)
{
	u64 flags = spin_lock_irqsave(&tasks_lock);

	current()->group_leader->tty_detached = true;
	spin_unlock_irqrestore(&tasks_lock, flags);
}

/* ---- the system calls -------------------------------------------------------------- */

/* Linux's checks, in its order: who may move p, and into which group. tasks_lock held. */
static long
check_setpgid(struct task *self, struct task *p, int pid, int pgid)
{
	if (p->parent == self) {
		if (p->sid != self->sid)
			return -EPERM;
		if (p->did_exec)
			return -EACCES;
	} else if (p != self) {
		return -ESRCH;
	}
	if (p->pid == p->sid)
		return -EPERM; /* a session leader stays in its group */
	if (pgid != pid && !session_group_in_session(pgid, self->sid))
		return -EPERM;
	return 0;
}

SYSCALL2(setpgid, int, pid, int, pgid)
{
	struct task *self = current()->group_leader;

	if (pgid < 0)
		return -EINVAL;
	u64 flags = spin_lock_irqsave(&tasks_lock);
	if (!pid)
		pid = self->tgid;
	if (!pgid)
		pgid = pid;
	struct task *t = task_find(pid);
	long err = -ESRCH;
	if (t && t != t->group_leader)
		err = -EINVAL; /* a thread of a process, not the process */
	else if (t)
		err = check_setpgid(self, t, pid, pgid);
	if (!err)
		t->pgid = pgid;
	spin_unlock_irqrestore(&tasks_lock, flags);
	return err;
}

/* getpgid and getsid: pid 0 is the caller. */
static long
get_id(int pid, bool session)
{
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct task *p = pid ? process_of(pid) : current()->group_leader;
	long ret = -ESRCH;

	if (pid < 0)
		p = NULL;
	if (p)
		ret = session ? p->sid : p->pgid;
	spin_unlock_irqrestore(&tasks_lock, flags);
	return ret;
}

SYSCALL1(getpgid, int, pid)
{
	return get_id(pid, false);
}

SYSCALL0(getpgrp)
{
	return get_id(0, false);
}

SYSCALL1(getsid, int, pid)
{
	return get_id(pid, true);
}

/* A new session and group named after the caller, with no terminal; not for a group leader. */
SYSCALL0(setsid)
{
	struct task *self = current()->group_leader;
	u64 flags = spin_lock_irqsave(&tasks_lock);
	long ret = -EPERM;

	if (!group_member(self->tgid)) {
		self->pgid = self->sid = self->tgid;
		self->tty_detached = false;
		ret = self->sid;
	}
	spin_unlock_irqrestore(&tasks_lock, flags);
	return ret;
}
