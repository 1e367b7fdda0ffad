/*
 * signal_syscalls.c - the system calls that manage signals: rt_sigaction,
 * rt_sigprocmask, rt_sigpending, rt_sigsuspend, pause, rt_sigtimedwait,
 * kill, tkill, tgkill, rt_sigqueueinfo and rt_tgsigqueueinfo (Linux x86-64
 * ABI: sigset_t is 8 bytes, struct sigaction is handler, flags, restorer,
 * mask).
 *
 * kill(0, sig) reaches the caller's process group, kill(-pgid, sig) group
 * pgid (kernel/process/session.c), kill(-1, sig) every process but init
 * and the caller's. A user's signal reaches only the processes it may
 * signal (signal_permitted): kill(-1) skips the others, a group with none
 * of its own is EPERM.
 * rt_sigreturn and sigaltstack are with the frame code (signal_frame.c).
 */
#include "kernel/signal/signal_internal.h"
#include "kernel/time/posix_timer.h"
#include "kernel/process/cred.h"
#include "kernel/process/pidfd.h"
#include "kernel/process/session.h"
#include "fs/fs.h"
#include "uapi/errno.h"
#include "kernel/sched/sched.h"
#include "kernel/syscall/syscall.h"
#include "kernel/time/tsc.h"
#include "uapi/time.h"
#include "kernel/time/time64.h"

static bool
valid_signal(int sig)
{
	return sig >= 1 && sig <= _NSIG;
}

/* ---- dispositions and the mask ---------------------------------------------------- */

/* Puts the action of sig into *old and installs *act, each if given; sh's lock held. */
static inline void
swap_action_locked(struct sighand *sh, int sig, struct kernel_sigaction *act,
		   struct kernel_sigaction *old)
{
	struct kernel_sigaction *k = &sh->action[sig - 1];

	if (old)
		*old = *k;
	if (act) {
		act->mask &= ~UNBLOCKABLE;
		*k = *act;
	}
}

SYSCALL4(rt_sigaction, int, sig, const struct kernel_sigaction __user *, uact,
	 struct kernel_sigaction __user *, uold, size_t, sigsetsize)
{
	struct task *t = current();
	struct kernel_sigaction act, old;

	if (sigsetsize != sizeof(u64) || !valid_signal(sig))
		return -EINVAL;
	if (uact && copy_from_user(&act, uact, sizeof(act)))
		return -EFAULT;
	if (uact && (sig == SIGKILL || sig == SIGSTOP))
		return -EINVAL;
	/*
	 * The sighand lock alone, as Linux takes only the siglock here, unless
	 * other tasks need tasks_lock (taken first) too: discarding the pending
	 * signal walks the threads, and an exiting child reads its parent's
	 * SIGCHLD action under it (parent_wants_no_zombies, two fields at once).
	 * Only t itself replaces t->sighand (execve), so it holds still here.
	 */
	struct sighand *sh = t->sighand;
	if (uact && (sig == SIGCHLD || sig_handler_ignores(&act, sig))) {
		u64 flags = spin_lock_irqsave(&tasks_lock);
		spin_lock(&sh->lock);
		swap_action_locked(sh, sig, &act, uold ? &old : NULL);
		/* POSIX: setting an ignoring disposition discards the pending signal. */
		if (sig_handler_ignores(&act, sig))
			flush_pending(t, sigmask(sig));
		spin_unlock(&sh->lock);
		spin_unlock_irqrestore(&tasks_lock, flags);
	} else {
		u64 flags = spin_lock_irqsave(&sh->lock);
		swap_action_locked(sh, sig, uact ? &act : NULL, uold ? &old : NULL);
		spin_unlock_irqrestore(&sh->lock, flags);
	}
	if (uold && copy_to_user(uold, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

SYSCALL4(rt_sigprocmask, int, how, const u64 __user *, uset, u64 __user *, uold, size_t, sigsetsize)
{
	struct task *t = current();
	u64 set, old = t->sig_blocked; /* only this thread changes its mask */

	if (sigsetsize != sizeof(u64))
		return -EINVAL;
	if (uset && copy_from_user(&set, uset, sizeof(set)))
		return -EFAULT;
	if (uset && how != SIG_BLOCK && how != SIG_UNBLOCK && how != SIG_SETMASK)
		return -EINVAL;
	if (uold && copy_to_user(uold, &old, sizeof(old)))
		return -EFAULT;
	if (!uset)
		return 0;
	if (how == SIG_BLOCK)
		set |= old;
	else if (how == SIG_UNBLOCK)
		set = old & ~set;
	set_current_blocked(set);
	return 0;
}

/* Pending signals that are blocked (the others are being delivered). */
SYSCALL2(rt_sigpending, u64 __user *, uset, size_t, sigsetsize)
{
	struct task *t = current();

	if (sigsetsize > sizeof(u64))
		return -EINVAL;
	u64 flags = sighand_lock(t);
	u64 set = (t->sig_pending.set | t->group_leader->sig_shared.set) & t->sig_blocked;
	sighand_unlock(t, flags);
	return copy_to_user(uset, &set, sigsetsize) ? -EFAULT : 0;
}

/* ---- waiting for signals ------------------------------------------------------------ */

/*
 * Sleeps until a signal is to be acted on (or the task is killed): 0; or
 * until *deadline (ns since boot, NULL: never) passes: -EAGAIN.
 */
static long
sleep_until_signal(const u64 *deadline)
{
	long ret = 0;

	for (;;) {
		set_current_sleeping();
		if (signal_pending())
			break;
		u64 now = ns_since_boot();
		if (deadline && now >= *deadline) {
			ret = -EAGAIN;
			break;
		}
		if (deadline)
			schedule_timeout_ns(*deadline - now);
		else
			schedule();
	}
	WRITE_ONCE(current()->state, TASK_RUNNABLE);
	return ret;
}

/* A handler always ends these: they are never restarted after one (ERESTARTNOHAND). */
SYSCALL0(pause)
{
	sleep_until_signal(NULL);
	return -ERESTARTNOHAND;
}

/* The mask is back to the caller's on the way out, after the handler's frame has recorded it. */
SYSCALL2(rt_sigsuspend, const u64 __user *, umask, size_t, sigsetsize)
{
	struct task *t = current();
	u64 mask;

	if (sigsetsize != sizeof(u64))
		return -EINVAL;
	if (copy_from_user(&mask, umask, sizeof(mask)))
		return -EFAULT;
	t->sig_saved_mask = t->sig_blocked;
	t->sig_restore_mask = true;
	set_current_blocked(mask);
	sleep_until_signal(NULL);
	return -ERESTARTNOHAND;
}

void
signal_set_temporary_mask(u64 mask)
{
	struct task *t = current();

	t->sig_saved_mask = t->sig_blocked;
	t->sig_restore_mask = true;
	set_current_blocked(mask);
}

long
signal_set_temporary_mask_user(const u64 __user *umask, size_t size)
{
	u64 mask;

	if (size != sizeof(mask))
		return -EINVAL;
	if (copy_from_user(&mask, umask, sizeof(mask)))
		return -EFAULT;
	signal_set_temporary_mask(mask);
	return 0;
}

void
signal_restore_temporary_mask(bool interrupted)
{
	struct task *t = current();

	if (interrupted || !t->sig_restore_mask)
		return;
	t->sig_restore_mask = false;
	set_current_blocked(t->sig_saved_mask);
}

static long
timespec_to_deadline(const struct kernel_timespec __user *uts, u64 *deadline)
{
	struct kernel_timespec ts;

	if (copy_from_user(&ts, uts, sizeof(ts)))
		return -EFAULT;
	if (ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= NSEC_PER_SEC)
		return -EINVAL;
	u64 ns = (u64)ts.tv_sec >= (1ul << 62) / NSEC_PER_SEC
			 ? 1ul << 62
			 : (u64)ts.tv_sec * NSEC_PER_SEC + (u64)ts.tv_nsec;
	*deadline = ns_since_boot() + ns;
	return 0;
}

/*
 * Takes one of the signals in uthese (usually blocked ones) without a
 * handler running. While it sleeps, those signals wake it as if unblocked
 * (sig_waiting); any other signal it acts on ends the wait with -EINTR.
 */
SYSCALL4(rt_sigtimedwait, const u64 __user *, uthese, struct kernel_siginfo __user *, uinfo,
	 const struct kernel_timespec __user *, uts, size_t, sigsetsize)
{
	struct task *t = current();
	struct kernel_siginfo info;
	u64 these, deadline;
	long ret;

	if (sigsetsize != sizeof(u64))
		return -EINVAL;
	if (copy_from_user(&these, uthese, sizeof(these)))
		return -EFAULT;
	if (uts && (ret = timespec_to_deadline(uts, &deadline)))
		return ret;
	these &= ~UNBLOCKABLE;
	for (;;) {
		bool timer;
		u64 flags = sighand_lock(t);
		ret = dequeue_signal(t, these, &info, &timer);
		t->sig_waiting = ret ? 0 : these;
		sighand_unlock(t, flags);
		if (timer)
			posix_timer_delivered(&info);
		if (ret)
			break;
		ret = sleep_until_signal(uts ? &deadline : NULL);
		u64 pending =
			READ_ONCE(t->sig_pending.set) | READ_ONCE(t->group_leader->sig_shared.set);
		if (!ret && !(pending & these))
			ret = -EINTR;
		if (ret)
			break;
	}
	WRITE_ONCE(t->sig_waiting, 0);
	if (ret > 0 && uinfo && copy_to_user(uinfo, &info, sizeof(info)))
		return -EFAULT;
	return ret;
}

/* ---- sending ---------------------------------------------------------------------- */

/*
 * The kernel's own signals (a code above 0) go anywhere; a user's (kill,
 * tkill, sigqueue) go where Linux's check_kill_permission lets them: from
 * root; from a sender whose real or effective uid is the target's real or
 * saved one; and SIGCONT within the sender's session, so that a shell
 * continues the job it stopped even after the job changed its ids.
 */
bool
signal_permitted(const struct task *p, const struct kernel_siginfo *info)
{
	const struct task *target = p->group_leader ? p->group_leader : p;
	struct id_set me = current_uids();

	if (info->code > 0 || capable(CAP_KILL))
		return true;
	u32 real = READ_ONCE(target->uids.real), saved = READ_ONCE(target->uids.saved);
	if (me.effective == real || me.effective == saved || me.real == real || me.real == saved)
		return true;
	return info->signo == SIGCONT && target->sid == current()->group_leader->sid;
}

/* To the process of t (a thread id names its process, as in Linux); tasks_lock held. */
static long
send_to_process(struct task *t, const struct kernel_siginfo *info)
{
	if (!t)
		return -ESRCH;
	if (!signal_permitted(t, info))
		return -EPERM;
	return info->signo ? signal_send_process(t, info) : 0;
}

/*
 * kill(-1): every process but init and the caller's that the caller may
 * signal; 0 if there is any process besides those two, as Linux, even if
 * none of them could be signalled. tasks_lock held.
 */
static long
send_to_all(const struct kernel_siginfo *info)
{
	struct list_head *pos;
	bool found = false;

	list_for_each(pos, &all_tasks) {
		struct task *p = list_entry(pos, struct task, all_link);
		if (p != p->group_leader || p->pid == 1 || p->tgid == current()->tgid ||
		    !p->sighand)
			continue;
		found = true;
		send_to_process(p, info);
	}
	return found ? 0 : -ESRCH;
}

static long
kill_locked(int pid, const struct kernel_siginfo *info)
{
	if (pid == -1)
		return send_to_all(info);
	if (pid == 0)
		return session_send_to_group(current()->group_leader->pgid, info);
	if (pid == (int)(1u << 31))
		return -ESRCH; /* INT_MIN, whose -pid would overflow: Linux says ESRCH too */
	if (pid < 0)
		return session_send_to_group(-pid, info);
	return send_to_process(task_find(pid), info);
}

/* kill's and tkill's siginfo: the sender's process and real user, as Linux's prepare_kill_siginfo. */
static struct kernel_siginfo
kill_siginfo(int sig, int code)
{
	return (struct kernel_siginfo){ .signo = sig,
					.code = code,
					.kill = { .pid = current()->tgid,
						  .uid = current_uids().real } };
}

SYSCALL2(kill, int, pid, int, sig)
{
	struct kernel_siginfo info = kill_siginfo(sig, SI_USER);

	if (sig && !valid_signal(sig))
		return -EINVAL;
	u64 flags = spin_lock_irqsave(&tasks_lock);
	long ret = kill_locked(pid, &info);
	spin_unlock_irqrestore(&tasks_lock, flags);
	return ret;
}

/* tkill, tgkill and rt_tgsigqueueinfo: to one thread; tgid -1 means any process. */
static long
send_to_thread(int tgid, int tid, struct kernel_siginfo *info)
{
	if (tid <= 0 || (info->signo && !valid_signal(info->signo)))
		return -EINVAL;
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct task *t = task_find(tid);
	long ret = 0;
	if (!t || READ_ONCE(t->state) == TASK_ZOMBIE || (tgid != -1 && t->tgid != tgid))
		ret = -ESRCH;
	else if (!signal_permitted(t, info))
		ret = -EPERM;
	else if (info->signo)
		ret = signal_send_thread(t, info);
	spin_unlock_irqrestore(&tasks_lock, flags);
	return ret;
}

SYSCALL2(tkill, int, tid, int, sig)
{
	struct kernel_siginfo info = kill_siginfo(sig, SI_TKILL);

	return send_to_thread(-1, tid, &info);
}

SYSCALL3(tgkill, int, tgid, int, tid, int, sig)
{
	struct kernel_siginfo info = kill_siginfo(sig, SI_TKILL);

	if (tgid <= 0)
		return -EINVAL;
	return send_to_thread(tgid, tid, &info);
}

/* sigqueue: the caller's siginfo; only to itself may it claim to be the kernel or kill(). */
SYSCALL3(rt_sigqueueinfo, int, tgid, int, sig, const struct kernel_siginfo __user *, uinfo)
{
	struct kernel_siginfo info;

	if (!valid_signal(sig))
		return -EINVAL;
	if (copy_from_user(&info, uinfo, sizeof(info)))
		return -EFAULT;
	if ((info.code >= 0 || info.code == SI_TKILL) && tgid != current()->tgid)
		return -EPERM;
	info.signo = sig;
	u64 flags = spin_lock_irqsave(&tasks_lock);
	long ret = tgid > 0 ? send_to_process(task_find(tgid), &info) : -ESRCH;
	spin_unlock_irqrestore(&tasks_lock, flags);
	return ret;
}

/*
 * rt_tgsigqueueinfo: sigqueue to one thread; the claim to be the kernel or
 * tgkill is the sending thread's own, as Linux compares the target with the
 * caller's thread id.
 */
SYSCALL4(rt_tgsigqueueinfo, int, tgid, int, tid, int, sig, const struct kernel_siginfo __user *,
	 uinfo)
{
	struct kernel_siginfo info;

	if (copy_from_user(&info, uinfo, sizeof(info)))
		return -EFAULT;
	if (tgid <= 0 || tid <= 0)
		return -EINVAL;
	if ((info.code >= 0 || info.code == SI_TKILL) && tid != current()->pid)
		return -EPERM;
	info.signo = sig;
	return send_to_thread(tgid, tid, &info);
}

/*
 * pidfd_send_signal: kill(2) to the process a pidfd (or an open /proc/<pid>
 * directory) names, ESRCH once it was reaped; with info, rt_sigqueueinfo's
 * rules for a user's siginfo.
 */
SYSCALL4(pidfd_send_signal, int, pidfd, int, sig, const struct kernel_siginfo __user *, uinfo,
	 unsigned, flags)
{
	struct kernel_siginfo info = kill_siginfo(sig, SI_USER);

	if (flags || (sig && !valid_signal(sig)))
		return -EINVAL;
	if (uinfo) {
		if (copy_from_user(&info, uinfo, sizeof(info)))
			return -EFAULT;
		if (info.signo != sig)
			return -EINVAL;
	}
	struct file *f = fd_get(pidfd);
	if (!f)
		return -EBADF;
	struct task *leader;
	u64 irq = spin_lock_irqsave(&tasks_lock);
	long ret = pidfd_signal_target_locked(f, &leader);
	if (ret >= 0) {
		if (uinfo && ret != current()->tgid && (info.code >= 0 || info.code == SI_TKILL))
			ret = -EPERM;
		else
			ret = send_to_process(leader, &info);
	}
	spin_unlock_irqrestore(&tasks_lock, irq);
	file_put(f);
	return ret;
}
