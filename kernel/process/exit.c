/*
 * process.c - process ids, fork, exit, and the identity syscalls (wait4 and
 * waitid are in wait.c).
 *
 * tasks_lock guards the pid space, the all_tasks list, every parent/
 * children link and every thread-group list. A task that exits becomes a
 * zombie holding only its wait status and CPU times; its children pass to
 * init (pid 1), which reaps them. Children belong to the process - to its
 * leader - whichever thread forked them, so any thread may wait for them
 * and they stay with the process until its last thread ends (as Linux). The parent frees the zombie in wait4,
 * once the zombie's CPU has switched away from its kernel stack (on_cpu).
 *
 * Threads (clone with CLONE_THREAD) join their leader's group: they share
 * its tgid and are not children of anyone. A thread that exits is freed by
 * the kernel itself (dead_threads, reaped once off its CPU); the process is
 * reported to its parent when the last member of the group has exited,
 * with the leader's status, or exit_group's. exit_group and a fatal signal
 * (kernel/signal/signal.c) mark every member `killed`: each leaves at its next
 * return to user mode, and interruptible sleeps end early for it. The
 * parent also gets the child's exit signal (SIGCHLD) then.
 */
#include "kernel/process/process.h"
#include "uapi/ptrace.h"
#include "kernel/x86/entry.h"
#include "kernel/time/cputime.h"
#include "uapi/errno.h"
#include "kernel/process/exec.h"
#include "kernel/process/cred.h"
#include "kernel/process/rlimit.h"
#include "kernel/process/session.h"
#include "kernel/process/vfork.h"
#include "kernel/x86/fpu.h"
#include "kernel/sched/futex.h"
#include "kernel/time/itimer.h"
#include "kernel/time/posix_timer.h"
#include "kernel/knobs.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "kernel/signal/signal.h"
#include "kernel/x86/smp.h"
#include "kernel/lib/string.h"
#include "kernel/syscall/syscall.h"
#include "kernel/x86/traps.h"
#include "kernel/lib/vsprintf.h"
#include "fs/fs.h"
#include "mm/vm.h"
#include "uapi/wait.h"

struct list_head all_tasks = LIST_HEAD_INIT(all_tasks);
static struct list_head dead_threads = LIST_HEAD_INIT(dead_threads);
struct spinlock tasks_lock = SPINLOCK_INIT("tasks");
static int last_pid;
static u64 nr_forks; /* processes and threads created since boot; tasks_lock */
static struct task *init_task;

struct task *
task_find(int pid)
{
	struct list_head *pos;

	list_for_each(pos, &all_tasks) {
		struct task *t = list_entry(pos, struct task, all_link);
		if (t->pid == pid)
			return t;
	}
	return NULL;
}

void
task_census(struct task_census *c)
{
	struct list_head *pos;
	u64 flags = spin_lock_irqsave(&tasks_lock);

	c->tasks = 0;
	list_for_each(pos, &all_tasks)
		c->tasks++;
	c->last_pid = last_pid;
	c->forks = nr_forks;
	spin_unlock_irqrestore(&tasks_lock, flags);
}

/* The next unused pid, never 1 (init's, whenever init starts); tasks_lock held. */
static int
alloc_pid(void)
{
	nr_forks++;
	do {
		last_pid = last_pid >= PID_MAX - 1 || last_pid < 1 ? 2 : last_pid + 1;
	} while (task_find(last_pid));
	return last_pid;
}

/* A process's limits, user ids and dumpable flag, which are its leader's: inherited at fork, handed on by execve. */
static void
copy_limits_and_ids(struct task *to, const struct task *from)
{
	memcpy(to->rlim, from->rlim, sizeof(to->rlim));
	to->uids = from->uids;
	to->gids = from->gids;
	to->not_dumpable = from->not_dumpable;
}

static void
register_with_pid(struct task *t, struct task *parent, int pid)
{
	u64 flags = spin_lock_irqsave(&tasks_lock);
	if (parent)
		copy_limits_and_ids(t, parent);
	else
		rlimits_set_defaults(t->rlim); /* the first process: root */
	t->pid = t->tgid = pid ? pid : alloc_pid();
	t->parent = parent;
	t->group_leader = t;
	list_init(&t->threads);
	list_add_tail(&t->thread_link, &t->threads);
	t->live_threads = 1;
	itimer_init(t);
	posix_timers_init(t);
	t->parent_tid = parent ? current()->pid : 0;
	if (parent) {
		session_fork(t, parent);
		list_add_tail(&t->sibling, &parent->children);
	}
	list_add_tail(&t->all_link, &all_tasks);
	spin_unlock_irqrestore(&tasks_lock, flags);
}

void
task_register(struct task *t, struct task *parent)
{
	register_with_pid(t, parent, 0);
}

/* Makes t a new member of leader's thread group. */
static void
thread_register(struct task *t, struct task *leader)
{
	u64 flags = spin_lock_irqsave(&tasks_lock);
	t->pid = alloc_pid();
	t->tgid = leader->tgid;
	t->parent = NULL; /* the process's parent is its leader's: it may change (reparenting) */
	/* Too late to join a process that is ending, or whose execve is getting rid of threads. */
	t->killed = leader->group_exiting || leader->exec_task;
	t->group_leader = leader;
	list_add_tail(&t->thread_link, &leader->threads);
	leader->live_threads++;
	signal_stop_new_thread(t, leader);
	list_add_tail(&t->all_link, &all_tasks);
	spin_unlock_irqrestore(&tasks_lock, flags);
}

void
reap_dead_threads(void)
{
	struct list_head done = LIST_HEAD_INIT(done);
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct list_head *pos = dead_threads.next;

	while (pos != &dead_threads) {
		struct task *t = list_entry(pos, struct task, sibling);
		pos = pos->next;
		if (!READ_ONCE(t->on_cpu)) {
			list_del(&t->sibling);
			list_add(&t->sibling, &done);
		}
	}
	spin_unlock_irqrestore(&tasks_lock, flags);
	while (!list_empty(&done)) {
		struct task *t = list_first_entry(&done, struct task, sibling);
		list_del(&t->sibling);
		if (t->group_leader == t &&
		    t->parent) { /* a process its parent wanted no zombie of */
			itimer_release(t);
			posix_timers_release(t);
		}
		task_free(t);
	}
}

/* ---- fork -------------------------------------------------------------------- */

#define CLONE_SUPPORTED                                                                   \
	(CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_VFORK | CLONE_THREAD | \
	 CLONE_SYSVSEM | CLONE_SETTLS | CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID |      \
	 CLONE_DETACHED | CLONE_CHILD_SETTID | CSIGNAL)

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
 */
static bool
over_task_limit(void)
{
	u64 limit = rlimit(RLIMIT_NPROC);

	if (limit == RLIM_INFINITY || privileged())
		return false;
	u32 uid = current()->group_leader->uids.real;
	u64 n = 0, flags = spin_lock_irqsave(&tasks_lock);
	struct list_head *pos;
	list_for_each(pos, &all_tasks) {
		struct task *t = list_entry(pos, struct task, all_link);
		n += t->group_leader && t->group_leader->uids.real == uid;
	}
	spin_unlock_irqrestore(&tasks_lock, flags);
	return n >= limit;
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
	return 0;
}

/* The child's share of the parent's process state: shared or copied as the flags say. */
static bool
clone_resources(struct task *child, struct task *parent, u64 flags)
{
	if (flags & CLONE_VM) {
		mm_get(parent->mm);
		child->mm = parent->mm;
	} else {
		child->mm = mm_fork(parent->mm);
	}
	child->files = flags & CLONE_FILES ? files_share(parent->files) : files_dup(parent->files);
	child->fs = flags & CLONE_FS ? fs_context_share(parent->fs) : fs_context_dup(parent->fs);
	child->exe_file = parent->exe_file ? file_get(parent->exe_file) : NULL;
	return child->mm && child->files && child->fs && signal_fork(child, parent, flags) == 0;
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
	reap_dead_threads();
	struct task *child = task_alloc(parent->comm);
	if (!child)
		return -ENOMEM;
	struct vfork_done *vfork = NULL;
	if (!clone_resources(child, parent, a->flags) ||
	    ((a->flags & CLONE_VFORK) && !(vfork = vfork_prepare(child)))) {
		if (child->mm)
			mm_put(child->mm);
		if (child->files)
			files_put(child->files);
		if (child->fs)
			fs_context_put(child->fs);
		if (child->exe_file)
			file_put(child->exe_file);
		task_free(child);
		return -ENOMEM;
	}
	fpu_save(&child->fpu); /* the parent's live registers */
	child->fs_base = a->flags & CLONE_SETTLS ? a->tls : parent->fs_base;
	child->cpus_allowed = parent->cpus_allowed;
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

/* ---- exit -------------------------------------------------------------------- */

/* Makes from's children to's; tasks_lock held. */
static void
move_children(struct task *from, struct task *to)
{
	while (!list_empty(&from->children)) {
		struct task *c = list_first_entry(&from->children, struct task, sibling);
		list_del(&c->sibling);
		c->parent = to;
		list_add_tail(&c->sibling, &to->children);
	}
}

/*
 * The processes thread dying forked learn that their parent is gone, as
 * Linux's forget_original_parent: each of their threads that asked with
 * PR_SET_PDEATHSIG gets its signal (to its process, from the dying
 * process), and they count another thread of the group, or init once the
 * group is gone, as the one that forked them. Called once dying has left
 * its group; tasks_lock held.
 */
static void
notify_parent_death(struct task *dying)
{
	struct task *leader = dying->group_leader;
	int heir = list_empty(&leader->threads)
			   ? 1
			   : list_first_entry(&leader->threads, struct task, thread_link)->pid;
	struct kernel_siginfo info = { .code = SI_USER,
				       .kill = { .pid = dying->tgid, .uid = leader->uids.real } };
	struct list_head *pos, *tpos;

	list_for_each(pos, &leader->children) {
		struct task *c = list_entry(pos, struct task, sibling);
		if (c->parent_tid != dying->pid)
			continue;
		c->parent_tid = heir;
		list_for_each(tpos, &c->threads) {
			struct task *t = list_entry(tpos, struct task, thread_link);
			info.signo = READ_ONCE(t->pdeath_signal);
			if (info.signo)
				signal_send_process(t, &info);
		}
	}
}

/* Gives the children to init; tasks_lock held. */
static void
reparent_children(struct task *t)
{
	if (list_empty(&t->children))
		return;
	move_children(t, init_task);
	wake_up_all(&init_task->child_exited);
}

/* CLONE_CHILD_CLEARTID: zero the tid word and wake a joiner waiting on it (pthread_join). */
static void
clear_child_tid(struct task *t)
{
	int zero = 0;

	if (!t->clear_child_tid || !t->mm || READ_ONCE(t->mm->users) < 2)
		return;
	if (copy_to_user((int __user *)t->clear_child_tid, &zero, sizeof(zero)) == 0)
		futex_wake_address(t->mm, t->clear_child_tid, 1);
}

static void
release_resources(struct task *t)
{
	futex_robust_release(t);
	clear_child_tid(t);
	vfork_release(t);
	/* Out of procfs's sight first (it takes references under tasks_lock), then dropped. */
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct files *files = t->files;
	struct fs_context *fs = t->fs;
	struct file *exe = t->exe_file;
	t->files = NULL;
	t->fs = NULL;
	t->exe_file = NULL;
	spin_unlock_irqrestore(&tasks_lock, flags);
	if (files)
		files_put(files);
	if (fs)
		fs_context_put(fs);
	if (exe)
		file_put(exe);
	if (t->mm) {
		mm_activate(NULL);
		mm_put(task_swap_mm(t, NULL));
	}
}

struct mm *
task_swap_mm(struct task *t, struct mm *mm)
{
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct mm *old = t->mm;

	task_lock(t); /* against get_task_mm's readers */
	t->mm = mm;
	task_unlock(t);
	if (old && t->group_leader) /* exec and exit: getrusage keeps its high-water mark */
		t->group_leader->maxrss_kb = MAX(t->group_leader->maxrss_kb,
						 READ_ONCE(old->hiwater_rss) * (PAGE_SIZE / 1024));
	spin_unlock_irqrestore(&tasks_lock, flags);
	return old;
}

/*
 * The group's bookkeeping when member t exits; tasks_lock held. A thread
 * other than the leader is freed by the kernel; the leader stays a zombie,
 * and the parent hears of the process once no member is left.
 */
static void
leave_thread_group(struct task *t, int wait_status)
{
	struct task *leader = t->group_leader;

	t->exit_status = wait_status;
	list_del(&t->thread_link);
	/* The process keeps its time (all but the last few instructions to the final switch). */
	if (t != leader)
		cputime_add(&leader->exited_threads_time, t->time);
	if (t != leader || !t->parent) { /* a thread, or a kernel thread: nobody waits */
		list_del(&t->all_link);
		list_add_tail(&t->sibling, &dead_threads);
	}
	leader->live_threads--;
	if (leader->exec_task && leader->live_threads == 1)
		wake_up_task(leader->exec_task); /* execve waits to be alone (exec_single_thread) */
	if (leader->live_threads > 0)
		return;
	if (leader->group_exiting)
		leader->exit_status = leader->group_exit_status;
	if (leader->parent) {
		struct task *parent = leader->parent;
		if (signal_notify_parent(leader)) { /* no zombie wanted: freed like a thread */
			list_del(&leader->sibling);
			list_del(&leader->all_link);
			list_add_tail(&leader->sibling, &dead_threads);
		}
		wake_up_all(&parent->child_exited);
	}
}

void
task_set_exe_file(struct task *t, struct file *f)
{
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct file *old = t->exe_file;

	t->exe_file = file_get(f);
	spin_unlock_irqrestore(&tasks_lock, flags);
	if (old)
		file_put(old);
}

__noreturn void
task_exit(int wait_status)
{
	struct task *t = current();

	if (t->group_leader == init_task)
		panic("init (pid 1) exited with wait status %#x", wait_status);
	ptrace_event(PTRACE_EVENT_EXIT, wait_status);
	/*
	 * The last thread alive (no other can appear: only live threads
	 * clone) ends the process's POSIX timers, as Linux's exit_itimers.
	 * If two last threads exit together neither sees 1: the reaping of the
	 * leader deletes them then, and meanwhile they send nothing, the
	 * process having no live thread (send_signal).
	 */
	if (READ_ONCE(t->group_leader->live_threads) == 1)
		posix_timers_release(t->group_leader);
	release_resources(t);
	u64 flags = spin_lock_irqsave(&tasks_lock);
	ptrace_exit_locked(t, wait_status);
	WRITE_ONCE(t->state, TASK_ZOMBIE);
	leave_thread_group(t, wait_status);
	notify_parent_death(t);
	if (!t->group_leader->live_threads) { /* the process is gone: its children go to init */
		session_process_exit(t->group_leader);
		reparent_children(t->group_leader);
	}
	signal_exit_retarget(t);
	signal_stop_thread_exit(t);
	spin_unlock_irqrestore(&tasks_lock, flags);
	schedule();
	panic("a zombie was scheduled");
}

void
group_kill_locked(struct task *leader, int wait_status)
{
	struct list_head *pos;

	if (!leader->group_exiting) {
		leader->group_exiting = true;
		leader->group_exit_status = wait_status;
	}
	list_for_each(pos, &leader->threads) {
		struct task *m = list_entry(pos, struct task, thread_link);
		WRITE_ONCE(m->killed, true);
		wake_up_task(m);
		if (m != current())
			smp_send_reschedule(m->cpu);
	}
}

__noreturn void
group_exit(int wait_status)
{
	struct task *leader = current()->group_leader;
	u64 flags = spin_lock_irqsave(&tasks_lock);

	group_kill_locked(leader, wait_status);
	wait_status = leader->group_exit_status;
	spin_unlock_irqrestore(&tasks_lock, flags);
	task_exit(wait_status);
}

void
exit_if_killed(void)
{
	struct task *t = current();

	if (READ_ONCE(t->killed))
		task_exit(t->group_leader->group_exit_status);
}

SYSCALL1(exit, int, code)
{
	task_exit((code & 0xff) << 8);
}

SYSCALL1(exit_group, int, code)
{
	group_exit((code & 0xff) << 8);
}

static const char *
signal_name(int sig)
{
	switch (sig) {
	case SIGILL:
		return "SIGILL";
	case SIGTRAP:
		return "SIGTRAP";
	case SIGBUS:
		return "SIGBUS";
	case SIGFPE:
		return "SIGFPE";
	case SIGKILL:
		return "SIGKILL";
	default:
		return "SIGSEGV";
	}
}

__noreturn void
kill_current(int sig, const char *why, u64 addr, u64 rip)
{
	struct task *t = current();

	pr_notice_ratelimited("pid %d (%s): killed by %s: %s at address %#lx, rip %#lx\n", t->pid,
			      t->comm, signal_name(sig), why, addr, rip);
	group_exit(sig);
}

/* ---- execve in a thread group ---------------------------------------------------- */

/*
 * The exec'ing thread t takes over from the dead leader (Linux's
 * de_thread): its pid (the process's, which the parent and every kill
 * know), its place among the parent's children, its children, the
 * process's pending signals, interval timer and accounting. The old leader
 * takes t's pid and is freed like any exited thread. tasks_lock held.
 */
static void
take_over_leader(struct task *t, struct task *leader)
{
	int pid = t->pid;

	t->pid = leader->pid;
	leader->pid = pid;
	t->parent = leader->parent;
	leader->parent = NULL; /* so that freeing it releases no timer: t has it */
	if (t->parent) {
		struct list_head *prev = leader->sibling.prev;
		list_del(&leader->sibling);
		list_add(&t->sibling, prev);
	}
	move_children(leader, t);
	list_del(&t->thread_link);
	list_init(&t->threads);
	list_add_tail(&t->thread_link, &t->threads);
	t->group_leader = t;
	t->live_threads = 1;
	t->exit_signal = leader->exit_signal;
	copy_limits_and_ids(t, leader);
	t->start_tsc = leader->start_tsc;
	cputime_add(&t->exited_threads_time, leader->exited_threads_time);
	cputime_add(&t->exited_threads_time, leader->time);
	t->children_time = leader->children_time;
	t->minor_faults += leader->minor_faults;
	t->children_minor_faults = leader->children_minor_faults;
	t->maxrss_kb = MAX(t->maxrss_kb, leader->maxrss_kb);
	t->children_maxrss_kb = leader->children_maxrss_kb;
	signal_take_shared(t, leader);
	session_take_over(t, leader);
	if (leader == init_task)
		init_task = t;
	list_del(&leader->all_link);
	list_add_tail(&leader->sibling, &dead_threads); /* freed once off its CPU */
}

/*
 * execve's first step past the point where the new program is ready: the
 * other threads of the process are killed and waited for (they run the
 * old program, whose memory is about to go), so the new program starts
 * alone, as the process's leader, with a signal table of its own. -EAGAIN
 * when the process is ending anyway (exit_group, a fatal signal, another
 * thread's execve got there first): the caller then leaves.
 */
int
exec_single_thread(struct task *t)
{
	struct task *leader = t->group_leader;
	u64 flags = spin_lock_irqsave(&tasks_lock);

	if (leader->live_threads > 1 || leader != t) {
		if (leader->group_exiting || leader->exec_task || READ_ONCE(t->killed)) {
			spin_unlock_irqrestore(&tasks_lock, flags);
			return -EAGAIN;
		}
		leader->exec_task = t;
		struct list_head *pos;
		list_for_each(pos, &leader->threads) {
			struct task *m = list_entry(pos, struct task, thread_link);
			if (m == t)
				continue;
			WRITE_ONCE(m->killed, true);
			wake_up_task(m);
			smp_send_reschedule(m->cpu);
		}
		/* Sleeping is announced before the test, so the last one's wake-up is never lost. */
		for (;;) {
			set_current_sleeping();
			if (leader->live_threads == 1 || READ_ONCE(t->killed))
				break;
			spin_unlock_irqrestore(&tasks_lock, flags);
			schedule();
			flags = spin_lock_irqsave(&tasks_lock);
		}
		WRITE_ONCE(t->state, TASK_RUNNABLE);
		leader->exec_task = NULL;
		if (READ_ONCE(t->killed)) {
			spin_unlock_irqrestore(&tasks_lock, flags);
			return -EAGAIN;
		}
	}
	spin_unlock_irqrestore(&tasks_lock, flags);
	posix_timers_release(leader); /* execve deletes them, as Linux's */
	if (leader != t) {
		/* Before the old leader can be freed: its timer's expiry must be over. */
		itimer_handoff(leader, t);
		posix_timers_handoff(leader, t);
		flags = spin_lock_irqsave(&tasks_lock);
		take_over_leader(t, leader);
		spin_unlock_irqrestore(&tasks_lock, flags);
	}
	return signal_unshare(t);
}

/* ---- identity ---------------------------------------------------------------- */

SYSCALL0(getpid)
{
	return current()->tgid;
}

SYSCALL0(gettid)
{
	return current()->pid;
}

/*
 * The parent is the process's, its leader's, and it changes when the parent
 * ends (reparenting to init, which then may reap and free the old one):
 * read it under tasks_lock, as Linux reads real_parent under RCU.
 */
SYSCALL0(getppid)
{
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct task *p = current()->group_leader->parent;
	int ppid = p ? p->tgid : 0;

	spin_unlock_irqrestore(&tasks_lock, flags);
	return ppid;
}

#define NGROUPS_MAX 65536 /* Linux's limit on supplementary groups */

/*
 * Supplementary groups: every process is root with none, as the first
 * process of a Linux initramfs is. getgroups answers that empty list;
 * setgroups may set it empty again. A non-empty list would need per-process
 * credentials, which rewind does not have: refused with EPERM rather than
 * accepted and forgotten.
 */
SYSCALL2(getgroups, int, size, u32 __user *, list)
{
	return size < 0 ? -EINVAL : 0;
}

SYSCALL2(setgroups, long, size, const u32 __user *, list)
{
	if (!privileged())
		return -EPERM; /* CAP_SETGID, even for the empty list, as Linux asks first */
	if (size < 0 || size > NGROUPS_MAX)
		return -EINVAL;
	return size == 0 ? 0 : -EPERM;
}

SYSCALL1(set_tid_address, u64, tidptr)
{
	current()->clear_child_tid = tidptr;
	return current()->pid;
}

SYSCALL0(sched_yield)
{
	WRITE_ONCE(this_cpu()->need_resched, true);
	return 0;
}

/* ---- the first process --------------------------------------------------------- */

KNOB_STRING(init_path, "init", 128, "/sbin/init", "the program run as process 1");
KNOB_STRING(
	run_command, "run", 1024, "",
	"a command line for init to run (then power off with its status); passed to init as $run");

static void
init_thread(void *unused)
{
	struct task *t = current();
	char run_env[1040];
	const char *argv[] = { init_path, NULL };
	const char *envp[] = { "HOME=/", "PATH=/bin:/sbin", "TERM=linux", run_env, NULL };

	t->files = files_alloc();
	t->fs = fs_context_root();
	if (!t->files || !t->fs || signal_init_process(t))
		panic("init: no memory for its file table and signal state");
	if (console_open_stdio())
		panic("init: cannot open /dev/console");
	ksnprintf(run_env, sizeof(run_env), "run=%s", run_command);
	if (!run_command[0])
		envp[3] = NULL;
	long err = kernel_execve(init_path, argv, envp);
	if (err)
		panic("init: cannot run %s (error %ld); try init=<path>", init_path, err);
	t->kthread_fn = NULL;
	first_return_to_user(t);
}

void
start_init_process(void)
{
	struct task *t = kthread_create("init", init_thread, NULL, ~0ul);

	if (!t)
		panic("init: no memory to start process 1");
	register_with_pid(t, NULL, 1);
	init_task = t;
	sched_start_task(t);
}

bool
init_has_run_command(void)
{
	return run_command[0] != '\0';
}
