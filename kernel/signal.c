/*
 * signal.c - each task's signal dispositions and blocked mask, as
 * rt_sigaction and rt_sigprocmask set and report them (Linux x86-64 ABI:
 * struct sigaction is handler, flags, restorer, mask; sigset_t is 8 bytes).
 *
 * This is the bookkeeping half of signals: programs (musl's fork, system,
 * posix_spawn) set masks and handlers and get Linux's answers back. Nothing
 * generates or delivers a signal yet - faults still end the process
 * directly (kernel/process.c) - that half comes with the vsyscall
 * milestone, which needs SIGSEGV with siginfo.
 */
#include "kernel/errno.h"
#include "kernel/signal.h"
#include "kernel/string.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "kernel/process.h"
#include "kernel/traps.h"

#define NSIG		64
#define SIGKILL		9
#define SIGSTOP		19
#define SIG_BLOCK	0
#define SIG_UNBLOCK	1
#define SIG_SETMASK	2
#define SIG_DFL		0
#define SIG_IGN		1
#define UNBLOCKABLE	((1ul << (SIGKILL - 1)) | (1ul << (SIGSTOP - 1)))

SYSCALL4(rt_sigaction, int, sig, const struct sigaction_k __user *, uact,
	 struct sigaction_k __user *, uold, size_t, sigsetsize)
{
	struct task *t = current();
	struct sigaction_k act;

	if (sigsetsize != sizeof(u64) || sig < 1 || sig > NSIG)
		return -EINVAL;
	if (uact && copy_from_user(&act, uact, sizeof(act)))
		return -EFAULT;
	if (uact && (sig == SIGKILL || sig == SIGSTOP))
		return -EINVAL;
	if (uold && copy_to_user(uold, &t->sig_actions[sig - 1], sizeof(*uold)))
		return -EFAULT;
	if (uact) {
		act.mask &= ~UNBLOCKABLE;
		t->sig_actions[sig - 1] = act;
	}
	return 0;
}

SYSCALL4(rt_sigprocmask, int, how, const u64 __user *, uset, u64 __user *, uold,
	 size_t, sigsetsize)
{
	struct task *t = current();
	u64 set;

	if (sigsetsize != sizeof(u64))
		return -EINVAL;
	if (uset && copy_from_user(&set, uset, sizeof(set)))
		return -EFAULT;
	if (uset && how != SIG_BLOCK && how != SIG_UNBLOCK && how != SIG_SETMASK)
		return -EINVAL;
	if (uold && copy_to_user(uold, &t->sig_blocked, sizeof(u64)))
		return -EFAULT;
	if (!uset)
		return 0;
	if (how == SIG_BLOCK)
		t->sig_blocked |= set;
	else if (how == SIG_UNBLOCK)
		t->sig_blocked &= ~set;
	else
		t->sig_blocked = set;
	t->sig_blocked &= ~UNBLOCKABLE;
	return 0;
}

void
signal_fork(struct task *child, const struct task *parent)
{
	child->sig_blocked = parent->sig_blocked;
	memcpy(child->sig_actions, parent->sig_actions, sizeof(child->sig_actions));
}

void
signal_exec(struct task *t)
{
	/* Handlers point into the old program: back to the default, but ignored stays ignored. */
	for (int i = 0; i < NSIG; i++)
		if (t->sig_actions[i].handler != SIG_IGN)
			t->sig_actions[i] = (struct sigaction_k){ .handler = SIG_DFL };
}

/* Until delivery exists: the default action of every fault signal. */
void
force_sig_fault(const struct fault_report *r)
{
	kill_current(r->sig, r->why, r->addr, task_user_frame(current())->rip);
}
