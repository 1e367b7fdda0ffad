/*
 * fork.c - creating processes and threads: fork, vfork and clone, what the
 * child shares with its parent or is given a copy of, and set_tid_address
 * (the clear-child-tid word clone also sets).
 *
 * The child enters the process table (process.c) last, once its state is
 * complete: a new process as a child of the forking process's leader,
 * whichever thread forked it; a thread (CLONE_THREAD) as a member of the
 * leader's group.
 */
#include "kernel/process/process.h"
#include "kernel/process/process_internal.h"
#include "uapi/ptrace.h"
#include "uapi/errno.h"
#include "kernel/process/cred.h"
#include "kernel/process/rlimit.h"
#include "kernel/process/vfork.h"
#include "kernel/process/nsproxy.h"
#include "ipc/ipc.h"
#include "kernel/keys/keys.h"
#include "kernel/x86/fpu.h"
#include "kernel/sched/sched.h"
#include "kernel/signal/signal.h"
#include "kernel/syscall/syscall.h"
#include "fs/fs.h"
#include "mm/vm.h"

#define CLONE_SUPPORTED                                                                          \
	(CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_VFORK | CLONE_THREAD |        \
	 CLONE_SYSVSEM | CLONE_SETTLS | CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID |             \
	 CLONE_DETACHED | CLONE_CHILD_SETTID | CLONE_PARENT | CLONE_IO | CSIGNAL | CLONE_NEWNS | \
	 CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET |             \
	 CLONE_NEWCGROUP)

struct clone_args_k {
	u64 flags;
	u64 stack; /* the child's rsp, or 0 for the parent's */
	int __user *parent_tid;
	int __user *child_tid;
	u64 tls;
};

/*
 * RLIMIT_NPROC: the tasks of the caller's real user, zombies included
 * until reaped, as Linux's per-user count; root is exempt (Linux: the root
 * user and CAP_SYS_RESOURCE), so only a process that gave up root meets it.
 * threads_max: the tasks in all, root's too (Linux's nr_threads check),
 * kept as a count (process.c), so that root's clones walk no list.
 */
static bool
over_task_limit(void)
{
	u64 limit = rlimit(RLIMIT_NPROC);
	u32 uid = current()->group_leader->uids.real;
	u64 mine = 0, flags;
	struct list_head *pos;

	if (task_count() >= READ_ONCE(threads_max))
		return true;
	if (limit == RLIM_INFINITY || capable(CAP_SYS_RESOURCE) || capable(CAP_SYS_ADMIN))
		return false;
	flags = spin_lock_irqsave(&tasks_lock);
	list_for_each(pos, &all_tasks) {
		struct task *t = list_entry(pos, struct task, all_link);
		mine += t->group_leader && t->group_leader->uids.real == uid;
	}
	spin_unlock_irqrestore(&tasks_lock, flags);
	return mine >= limit;
}

/* Linux's rules for flag combinations. */
static long
check_clone_flags(u64 flags)
{
	if (flags & ~(u64)CLONE_SUPPORTED)
		return -EINVAL;
	if ((flags & CLONE_THREAD) && !(flags & CLONE_SIGHAND))
		return -EINVAL;
	if ((flags & CLONE_SIGHAND) && !(flags & CLONE_VM))
		return -EINVAL;
	/* init has no parent to share, and would leave orphans none could reap (Linux's rule). */
	if ((flags & CLONE_PARENT) && current()->group_leader->pid == 1)
		return -EINVAL;
	/* A new mount namespace gets its own root and cwd, which a shared fs context cannot be. */
	if ((flags & (CLONE_NEWNS | CLONE_FS)) == (CLONE_NEWNS | CLONE_FS))
		return -EINVAL;
	/* The old IPC namespace's semaphores are out of the new one's reach: no shared undo list. */
	if ((flags & (CLONE_NEWIPC | CLONE_SYSVSEM)) == (CLONE_NEWIPC | CLONE_SYSVSEM))
		return -EINVAL;
	if ((flags & CLONE_THREAD) && (flags & (CLONE_NEWUSER | CLONE_NEWPID)))
		return -EINVAL;
	if (flags & CLONE_NEWUSER)
		return -EINVAL; /* no user namespaces: Linux without CONFIG_USER_NS */
	return 0;
}

/*
 * The child's share of the parent's process state: shared or copied as the
 * flags say; its kernel stack is charged to the process it joins or starts.
 * 0, or the errno: EMFILE for a file table with an fd at or above
 * fs.nr_open (Linux's dup_fd), ENOMEM for everything else.
 */
static long
clone_resources(struct task *child, struct task *parent, u64 flags)
{
	if (!task_charge_stack(child, flags & CLONE_THREAD ? parent->group_leader : child))
		return -ENOMEM;
	if (flags & CLONE_VM) {
		mm_get(parent->mm);
		child->mm = parent->mm;
	} else {
		child->mm = mm_fork(parent->mm);
	}
	int files_err = -ENOMEM;
	child->files = flags & CLONE_FILES ? files_share(parent->files)
					   : files_dup(parent->files, &files_err);
	child->fs = flags & CLONE_FS ? fs_context_share(parent->fs) : fs_context_dup(parent->fs);
	child->exe_file = parent->exe_file ? file_get(parent->exe_file) : NULL;
	keys_fork(child, parent, flags & CLONE_THREAD);
	if (!child->mm)
		return -ENOMEM;
	if (!child->files)
		return files_err;
	if (!child->fs || sem_undo_fork(child, parent, flags & CLONE_SYSVSEM) != 0 ||
	    signal_fork(child, parent, flags) != 0)
		return -ENOMEM;
	return 0;
}

static long
do_clone(struct trap_frame *f, const struct clone_args_k *a)
{
	struct task *parent = current();
	long err = check_clone_flags(a->flags);

	if (err)
		return err;
	if ((a->flags & CLONE_SETTLS) && !fs_base_allowed(a->tls))
		return -EPERM;
	if (over_task_limit())
		return -EAGAIN;
	struct nsproxy *nsp;
	err = nsproxy_for_clone(parent, a->flags, &nsp);
	if (err)
		return err;
	reap_dead_threads();
	struct task *child = task_alloc(parent->comm);
	if (!child) {
		nsproxy_put(nsp);
		return -ENOMEM;
	}
	child->nsproxy = nsp;
	struct vfork_done *vfork = NULL;
	err = clone_resources(child, parent, a->flags);
	if (!err && (a->flags & CLONE_VFORK) && !(vfork = vfork_prepare(child)))
		err = -ENOMEM;
	if (err) {
		if (child->mm)
			mm_put(child->mm);
		if (child->files)
			files_put(child->files);
		if (child->fs)
			fs_context_put(child->fs);
		if (child->exe_file)
			file_put(child->exe_file);
		sem_undo_exit(child);
		keys_exit(child);
		nsproxy_put(child->nsproxy);
		task_free(child);
		return err;
	}
	fpu_save(&child->fpu); /* the parent's live registers */
	child->fs_base = a->flags & CLONE_SETTLS ? a->tls : parent->fs_base;
	child->cpus_allowed = parent->cpus_allowed;
	child->personality = parent->personality;
	child->tsc_sigsegv = parent->tsc_sigsegv; /* as Linux's TIF_NOTSC */
	sched_fork(child, parent);
	child->default_timer_slack_ns = task_timer_slack(parent);
	struct trap_frame *cf = task_user_frame(child);
	*cf = *f;
	cf->rax = 0; /* clone and fork return 0 in the child */
	if (a->stack)
		cf->rsp = a->stack;
	if (a->flags & CLONE_CHILD_SETTID)
		child->set_child_tid = (u64)a->child_tid;
	if (a->flags & CLONE_CHILD_CLEARTID)
		child->clear_child_tid = (u64)a->child_tid;
	task_prepare_user_return(child);
	if (a->flags & CLONE_THREAD)
		thread_register(child, parent->group_leader);
	else if (a->flags & CLONE_PARENT)
		task_register_sibling(child, parent->group_leader);
	else
		task_register(child,
			      parent->group_leader); /* the process is the parent, not the thread */
	int pid = child->pid, child_pid = child->pid;
	if ((a->flags & CLONE_PARENT_SETTID) && copy_to_user(a->parent_tid, &pid, sizeof(pid)))
		pid = -EFAULT; /* Linux reports it too; the child runs all the same */
	int event = ptrace_fork(child, a->flags);
	sched_start_task(child);
	if (event)
		ptrace_event(event, child_pid);
	if (vfork) {
		vfork_wait(vfork); /* child may be gone already: only vfork is used */
		ptrace_event(PTRACE_EVENT_VFORK_DONE, child_pid);
	}
	return pid;
}

static long
do_fork(struct trap_frame *f)
{
	struct clone_args_k a = { .flags = SIGCHLD };

	return do_clone(f, &a);
}

SYSCALL_FRAME(fork, 0)
{
	return do_fork(f);
}

SYSCALL_FRAME(vfork, 0)
{
	struct clone_args_k a = { .flags = CLONE_VM | CLONE_VFORK | SIGCHLD };

	return do_clone(f, &a);
}

/* clone(flags, stack, parent_tid, child_tid, tls): the x86-64 argument order. */
SYSCALL_FRAME(clone, 5, SYSCALL_ARG(u64, flags), SYSCALL_ARG(u64, stack),
	      SYSCALL_ARG(int __user *, parent_tid), SYSCALL_ARG(int __user *, child_tid),
	      SYSCALL_ARG(u64, tls))
{
	struct clone_args_k a = { f->rdi, f->rsi, (int __user *)f->rdx, (int __user *)f->r10,
				  f->r8 };

	return do_clone(f, &a);
}

SYSCALL1(set_tid_address, u64, tidptr)
{
	current()->clear_child_tid = tidptr;
	return current()->pid;
}
