/*
 * exit.c - a task's end: exit, exit_group, death by a fatal signal or
 * fault, the zombie it leaves and the freeing of exited threads; and the
 * end of a process's other threads when one of them calls execve.
 *
 * A task that exits becomes a zombie holding only its wait status and CPU
 * times; its children pass to the nearest ancestor that asked for them
 * (PR_SET_CHILD_SUBREAPER) or else to init (pid 1), which reaps them. The parent
 * frees the zombie in wait4 (wait.c), once the zombie's CPU has switched
 * away from its kernel stack (on_cpu).
 *
 * A thread that exits is freed by the kernel itself (dead_threads, reaped
 * once off its CPU); the process is reported to its parent when the last
 * member of the group has exited, with the leader's status, or
 * exit_group's. exit_group and a fatal signal (kernel/signal/signal.c) mark
 * every member `killed`: each leaves at its next return to user mode, and
 * interruptible sleeps end early for it. The parent also gets the child's
 * exit signal (SIGCHLD) then.
 */
#include "kernel/process/process.h"
#include "kernel/process/process_internal.h"
#include "uapi/ptrace.h"
#include "uapi/errno.h"
#include "kernel/time/cputime.h"
#include "kernel/process/session.h"
#include "kernel/process/vfork.h"
#include "kernel/process/nsproxy.h"
#include "ipc/ipc.h"
#include "kernel/keys/keys.h"
#include "kernel/process/pidfd.h"
#include "kernel/process/coredump.h"
#include "kernel/sched/futex.h"
#include "kernel/time/itimer.h"
#include "kernel/time/posix_timer.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "kernel/signal/signal.h"
#include "kernel/x86/smp.h"
#include "kernel/syscall/syscall.h"
#include "fs/fs.h"
#include "mm/vm.h"

static struct list_head dead_threads = LIST_HEAD_INIT(dead_threads);

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

/* Makes from's children to's; tasks_lock held. */
static void
move_children(struct task *from, struct task *to)
{
	while (!list_empty(&from->children)) {
		struct task *c = list_first_entry(&from->children, struct task, sibling);
		list_del(&c->sibling);
		task_set_parent(c, to);
		list_add_tail(&c->sibling, &to->children);
	}
}

/*
 * Who takes the orphans of process leader: its nearest ancestor that asked
 * (PR_SET_CHILD_SUBREAPER) and is not ending, else init, as Linux's
 * find_new_reaper. tasks_lock held.
 */
static struct task *
new_reaper(struct task *leader)
{
	for (struct task *p = leader->parent; p && p != init_task; p = p->parent)
		if (p->child_subreaper && p->live_threads && !p->group_exiting)
			return p;
	return init_task;
}

/*
 * Whom the children of a dying thread of leader's process count as the one
 * that forked them: another live thread of the group, else a live thread
 * of the new reaper, as Linux's find_new_reaper and find_alive_thread (so
 * that its __WNOTHREAD wait finds them); pid 1 before init exists (a
 * kernel self-test's threads at boot). tasks_lock held.
 */
static int
heir_pid(struct task *leader)
{
	struct task *heirs = list_empty(&leader->threads) ? new_reaper(leader) : leader;

	if (!heirs)
		return 1;
	if (list_empty(&heirs->threads))
		return heirs->pid;
	return list_first_entry(&heirs->threads, struct task, thread_link)->pid;
}

/*
 * The processes thread dying forked learn that their parent is gone, as
 * Linux's forget_original_parent: each of their threads that asked with
 * PR_SET_PDEATHSIG gets its signal (to its process, from the dying
 * process), and they count another thread of the group, or their new
 * reaper once the group is gone, as the one that forked them. Called once dying has left
 * its group; tasks_lock held.
 */
static void
notify_parent_death(struct task *dying)
{
	struct task *leader = dying->group_leader;
	int heir = heir_pid(leader);
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

/* Gives the children to their new reaper; tasks_lock held. */
static void
reparent_children(struct task *t)
{
	if (list_empty(&t->children))
		return;
	struct task *reaper = new_reaper(t);
	move_children(t, reaper);
	wake_up_all(&reaper->child_exited);
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
	sem_undo_exit(t); /* before the mm goes: SEM_UNDO is the process's last act */
	keys_exit(t);
	clear_child_tid(t);
	vfork_release(t);
	/*
	 * Out of procfs's and setns's sight first (they take references under
	 * tasks_lock), all in one hold of that global lock, then dropped.
	 */
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct nsproxy *nsproxy = t->nsproxy;
	struct files *files = t->files;
	struct fs_context *fs = t->fs;
	struct file *exe = t->exe_file;
	t->nsproxy = NULL;
	t->files = NULL;
	t->fs = NULL;
	t->exe_file = NULL;
	spin_unlock_irqrestore(&tasks_lock, flags);
	nsproxy_put(nsproxy);
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

void
process_end_notify_parent_locked(struct task *leader)
{
	struct task *parent = leader->parent;

	if (!parent)
		return;
	if (signal_notify_parent(leader)) { /* no zombie wanted: freed like a thread */
		list_del(&leader->sibling);
		task_unlink(leader);
		list_add_tail(&leader->sibling, &dead_threads);
	}
	wake_up_all(&parent->child_exited);
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
	signal_lock_thread_list(t);
	list_del(&t->thread_link);
	list_init(&t->thread_link); /* empty: t has left, its leader may go (itimer_cpu_tick) */
	signal_unlock_thread_list(t);
	/* The process keeps its time (all but the last few instructions to the final switch). */
	if (t != leader)
		cputime_add(&leader->exited_threads_time, t->time);
	if (t != leader || !t->parent) { /* a thread, or a kernel thread: nobody waits */
		task_unlink(t);
		list_add_tail(&t->sibling, &dead_threads);
	}
	leader->live_threads--;
	if (leader->exec_task && leader->live_threads == 1)
		wake_up_task(leader->exec_task); /* execve waits to be alone (exec_single_thread) */
	if (leader->core_dumper && leader->live_threads == 1)
		wake_up_task(leader->core_dumper); /* so does a core dump (group_exit_dumping) */
	if (leader->live_threads > 0)
		return;
	pidfd_notify_exit();
	if (leader->group_exiting)
		leader->exit_status = leader->group_exit_status;
	/* A leader traced by another than its parent: the parent hears once the tracer has waited. */
	if (!leader->ptrace.end_held)
		process_end_notify_parent_locked(leader);
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
	if (!t->group_leader->live_threads) { /* the process is gone: its children go to a reaper */
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
kill_current(const struct kernel_siginfo *info, const char *why, u64 addr, u64 rip)
{
	struct task *t = current();

	pr_notice_ratelimited("pid %d (%s): killed by %s: %s at address %#lx, rip %#lx\n", t->pid,
			      t->comm, signal_name(info->signo), why, addr, rip);
	group_exit_by_signal(info);
}

/* ---- execve in a thread group ---------------------------------------------------- */

/*
 * The process's children count the exec'ing thread t, now its only one,
 * as the one that forked them: their forking threads are gone, and the pid
 * the last of them was handed to is the old leader's now. tasks_lock held.
 */
static void
claim_children(struct task *t)
{
	struct list_head *pos;

	list_for_each(pos, &t->children)
		list_entry(pos, struct task, sibling)->parent_tid = t->pid;
}

/*
 * The exec'ing thread t takes over from the dead leader (Linux's
 * de_thread): its pid (the process's, which the parent and every kill
 * know), its place among the parent's children, its children, the
 * process's pending signals, interval timer, accounting and kernel-memory
 * charge (mm/oom_kill.h). The old leader takes t's pid and is freed like
 * any exited thread. tasks_lock held.
 */
static void
take_over_leader(struct task *t, struct task *leader)
{
	int pid = t->pid;

	t->pid = leader->pid;
	leader->pid = pid;
	task_set_parent(t, leader->parent);
	task_set_parent(leader, NULL); /* so that freeing it releases no timer: t has it */
	if (t->parent) {
		struct list_head *prev = leader->sibling.prev;
		list_del(&leader->sibling);
		list_add(&t->sibling, prev);
	}
	move_children(leader, t);
	claim_children(t);
	signal_lock_thread_list(t); /* the old leader's, still: signal_unshare comes after */
	list_del(&t->thread_link);
	list_init(&t->threads);
	list_add_tail(&t->thread_link, &t->threads);
	t->group_leader = t;
	signal_unlock_thread_list(t);
	t->live_threads = 1;
	t->exit_signal = leader->exit_signal;
	t->child_subreaper = leader->child_subreaper;
	copy_limits_and_ids(t, leader);
	t->start_tsc = leader->start_tsc;
	cputime_add(&t->exited_threads_time, leader->exited_threads_time);
	cputime_add(&t->exited_threads_time, leader->time);
	t->children_time = leader->children_time;
	t->minor_faults += leader->minor_faults;
	t->children_minor_faults = leader->children_minor_faults;
	t->maxrss_kb = MAX(t->maxrss_kb, leader->maxrss_kb);
	t->children_maxrss_kb = leader->children_maxrss_kb;
	t->mem_charge = leader->mem_charge; /* what the process made stays its weight */
	leader->mem_charge = NULL;
	signal_take_shared(t, leader);
	session_take_over(t, leader);
	if (leader == init_task)
		init_task = t;
	task_unlink(leader);
	list_add_tail(&leader->sibling, &dead_threads); /* freed once off its CPU */
}

/*
 * Kills t's other threads and sleeps (tasks_lock dropped meanwhile) until
 * they are gone or t itself is killed: t is its leader's exec_task or
 * core_dumper, whom the last of them wakes (leave_thread_group).
 */
static void
kill_others_and_wait_locked(struct task *t, u64 *flags)
{
	struct task *leader = t->group_leader;
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
		spin_unlock_irqrestore(&tasks_lock, *flags);
		schedule();
		*flags = spin_lock_irqsave(&tasks_lock);
	}
	WRITE_ONCE(t->state, TASK_RUNNABLE);
}

/*
 * A fatal signal whose default action dumps core: the process ends as
 * group_exit would, but its other threads go first, so that the core
 * (kernel/process/coredump.c) shows the memory no thread changes any
 * more; the wait status gets WCOREDUMP when a core was written. When the
 * process is ending anyway (exit_group, SIGKILL, another thread's dump or
 * execve), no core: the caller leaves as that end says.
 */
static __noreturn void
group_exit_dumping(const struct kernel_siginfo *info)
{
	int sig = info->signo;
	struct task *t = current();
	struct task *leader = t->group_leader;
	u64 flags = spin_lock_irqsave(&tasks_lock);

	if (leader->group_exiting || leader->exec_task || READ_ONCE(t->killed)) {
		spin_unlock_irqrestore(&tasks_lock, flags);
		group_exit(sig);
	}
	leader->group_exiting = true; /* no execve starts, no other dump, no new signal */
	leader->group_exit_status = sig;
	leader->core_dumper = t;
	kill_others_and_wait_locked(t, &flags);
	leader->core_dumper = NULL;
	spin_unlock_irqrestore(&tasks_lock, flags);
	if (!READ_ONCE(t->killed) && coredump_write(info) == 0) {
		flags = spin_lock_irqsave(&tasks_lock);
		leader->group_exit_status |= WAIT_CORE_DUMPED;
		spin_unlock_irqrestore(&tasks_lock, flags);
	}
	group_exit(sig);
}

__noreturn void
group_exit_by_signal(const struct kernel_siginfo *info)
{
	if (sig_dumps_core(info->signo))
		group_exit_dumping(info);
	group_exit(info->signo);
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
		kill_others_and_wait_locked(t, &flags);
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
