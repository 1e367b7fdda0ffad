/*
 * process.c - process ids, fork, exit, wait4, and the identity syscalls.
 *
 * tasks_lock guards the pid space, the all_tasks list and every parent/
 * children link. A task that exits becomes a zombie holding only its wait
 * status and CPU times; its children pass to init (pid 1), which reaps
 * them. The parent frees the zombie in wait4, once the zombie's CPU has
 * switched away from its kernel stack (on_cpu).
 */
#include "kernel/process.h"
#include "kernel/cputime.h"
#include "kernel/errno.h"
#include "kernel/exec.h"
#include "kernel/fpu.h"
#include "kernel/knobs.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/sched.h"
#include "kernel/signal.h"
#include "kernel/string.h"
#include "kernel/syscall.h"
#include "kernel/traps.h"
#include "kernel/vsprintf.h"
#include "fs/fs.h"
#include "mm/vm.h"

#define WNOHANG		1
#define WUNTRACED	2
#define __WALL		0x40000000
#define __WCLONE	0x80000000
#define PID_MAX		4194304		/* Linux's pid_max limit on 64-bit */

struct list_head all_tasks = LIST_HEAD_INIT(all_tasks);
struct spinlock tasks_lock = SPINLOCK_INIT("tasks");
static int last_pid;
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

/* The next unused pid; tasks_lock held. */
static int
alloc_pid(void)
{
	do {
		last_pid = last_pid >= PID_MAX - 1 ? 2 : last_pid + 1;
	} while (task_find(last_pid));
	return last_pid;
}

void
task_register(struct task *t, struct task *parent)
{
	u64 flags = spin_lock_irqsave(&tasks_lock);
	t->pid = t->tgid = alloc_pid();
	t->parent = parent;
	if (parent)
		list_add_tail(&t->sibling, &parent->children);
	list_add_tail(&t->all_link, &all_tasks);
	spin_unlock_irqrestore(&tasks_lock, flags);
}

/* ---- fork -------------------------------------------------------------------- */

static long
do_fork(struct trap_frame *f)
{
	struct task *parent = current();
	struct task *child = task_alloc(parent->comm);

	if (!child)
		return -ENOMEM;
	child->mm = mm_fork(parent->mm);
	child->files = files_dup(parent->files);
	child->fs = fs_context_dup(parent->fs);
	if (!child->mm || !child->files || !child->fs) {
		if (child->mm)
			mm_put(child->mm);
		if (child->files)
			files_put(child->files);
		if (child->fs)
			fs_context_put(child->fs);
		task_free(child);
		return -ENOMEM;
	}
	fpu_save(&child->fpu);		/* the parent's live registers */
	signal_fork(child, parent);
	child->fs_base = parent->fs_base;
	struct trap_frame *cf = task_user_frame(child);
	*cf = *f;
	cf->rax = 0;			/* fork returns 0 in the child */
	task_prepare_user_return(child);
	task_register(child, parent);
	int pid = child->pid;
	sched_start_task(child);
	return pid;
}

SYSCALL_FRAME(fork)
{
	return do_fork(f);
}

SYSCALL_FRAME(vfork)
{
	return do_fork(f);	/* a full copy-on-write fork is a correct vfork */
}

#define CLONE_SIGNAL_MASK 0xff
#define SIGCHLD 17

/* Until threads arrive (SMP milestone): clone as fork only. */
SYSCALL_FRAME(clone)
{
	u64 flags = f->rdi;

	if ((flags & ~(u64)CLONE_SIGNAL_MASK) != 0 || (flags & CLONE_SIGNAL_MASK) != SIGCHLD)
		return -EINVAL;
	return do_fork(f);
}

/* ---- exit -------------------------------------------------------------------- */

/* Gives the children to init; tasks_lock held. */
static void
reparent_children(struct task *t)
{
	while (!list_empty(&t->children)) {
		struct task *c = list_first_entry(&t->children, struct task, sibling);
		list_del(&c->sibling);
		c->parent = init_task;
		list_add_tail(&c->sibling, &init_task->children);
	}
	wake_up_all(&init_task->child_exited);
}

__noreturn void
task_exit(int wait_status)
{
	struct task *t = current();

	if (t == init_task)
		panic("init (pid 1) exited with wait status %#x", wait_status);
	if (t->files)
		files_put(t->files);
	if (t->fs)
		fs_context_put(t->fs);
	t->files = NULL;
	t->fs = NULL;
	if (t->mm) {
		struct mm *mm = t->mm;
		mm_activate(NULL);
		t->mm = NULL;
		mm_put(mm);
	}
	u64 flags = spin_lock_irqsave(&tasks_lock);
	reparent_children(t);
	t->exit_status = wait_status;
	WRITE_ONCE(t->state, TASK_ZOMBIE);
	if (t->parent)
		wake_up_all(&t->parent->child_exited);
	spin_unlock_irqrestore(&tasks_lock, flags);
	schedule();
	panic("a zombie was scheduled");
}

SYSCALL1(exit, int, code)
{
	task_exit((code & 0xff) << 8);
}

SYSCALL1(exit_group, int, code)
{
	task_exit((code & 0xff) << 8);
}

static const char *
signal_name(int sig)
{
	switch (sig) {
	case SIGILL: return "SIGILL";
	case SIGTRAP: return "SIGTRAP";
	case SIGBUS: return "SIGBUS";
	case SIGFPE: return "SIGFPE";
	case SIGKILL: return "SIGKILL";
	default: return "SIGSEGV";
	}
}

__noreturn void
kill_current(int sig, const char *why, u64 addr, u64 rip)
{
	struct task *t = current();

	pr_notice("pid %d (%s): killed by %s: %s at address %#lx, rip %#lx\n",
		  t->pid, t->comm, signal_name(sig), why, addr, rip);
	task_exit(sig);
}

/* ---- wait4 ------------------------------------------------------------------- */

static bool
child_matches(const struct task *c, int pid)
{
	return pid == -1 || pid == 0 || pid < -1 || c->pid == pid;	/* no process groups yet */
}

/* A zombie child matching pid, unlinked from the family; tasks_lock held. */
static struct task *
take_zombie(struct task *parent, int pid, bool *has_children)
{
	struct list_head *pos;

	*has_children = false;
	list_for_each(pos, &parent->children) {
		struct task *c = list_entry(pos, struct task, sibling);
		if (!child_matches(c, pid))
			continue;
		*has_children = true;
		if (READ_ONCE(c->state) == TASK_ZOMBIE) {
			list_del(&c->sibling);
			list_del(&c->all_link);
			return c;
		}
	}
	return NULL;
}

static long
reap(struct task *parent, struct task *c, int __user *ustatus, struct rusage_abi __user *uru)
{
	while (READ_ONCE(c->on_cpu))	/* its CPU is still leaving its stack */
		cpu_relax();
	int pid = c->pid, status = c->exit_status;
	struct cputime total = { c->time.user + c->children_time.user,
				 c->time.sys + c->children_time.sys };
	u64 faults = c->minor_faults + c->children_minor_faults;
	parent->children_time.user += total.user;
	parent->children_time.sys += total.sys;
	parent->children_minor_faults += faults;
	task_free(c);

	if (ustatus && copy_to_user(ustatus, &status, sizeof(status)))
		return -EFAULT;
	if (uru) {
		struct rusage_abi ru;
		fill_rusage(&ru, total, faults);
		if (copy_to_user(uru, &ru, sizeof(ru)))
			return -EFAULT;
	}
	return pid;
}

SYSCALL4(wait4, int, pid, int __user *, ustatus, int, options, struct rusage_abi __user *, uru)
{
	struct task *t = current();
	struct task *zombie = NULL;
	bool has_children;

	if (options & ~(WNOHANG | WUNTRACED | __WALL | __WCLONE))
		return -EINVAL;
	for (;;) {
		WAIT_ENTRY(e);
		prepare_to_wait(&t->child_exited, &e);
		u64 flags = spin_lock_irqsave(&tasks_lock);
		zombie = take_zombie(t, pid, &has_children);
		spin_unlock_irqrestore(&tasks_lock, flags);
		if (zombie || !has_children || (options & WNOHANG) || task_interrupted()) {
			finish_wait(&t->child_exited, &e);
			break;
		}
		schedule();
		finish_wait(&t->child_exited, &e);
	}
	if (zombie)
		return reap(t, zombie, ustatus, uru);
	if (!has_children)
		return -ECHILD;
	if (options & WNOHANG)
		return 0;
	return -EINTR;
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

SYSCALL0(getppid)
{
	struct task *p = current()->parent;
	return p ? p->tgid : 0;
}

SYSCALL0(getuid) { return 0; }
SYSCALL0(geteuid) { return 0; }
SYSCALL0(getgid) { return 0; }
SYSCALL0(getegid) { return 0; }

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
KNOB_STRING(run_command, "run", 1024, "",
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
	if (!t->files || !t->fs)
		panic("init: no memory for its file table");
	if (console_open_stdio())
		panic("init: cannot open /dev/console");
	ksnprintf(run_env, sizeof(run_env), "run=%s", run_command);
	if (!run_command[0])
		envp[3] = NULL;
	long err = kernel_execve(init_path, argv, envp);
	if (err)
		panic("init: cannot run %s (error %ld); try init=<path>", init_path, err);
	t->kthread_fn = NULL;
	prepare_return_to_user();
	local_irq_disable();
	cputime_exit_kernel(t);
	return_to_user(task_user_frame(t));
}

void
start_init_process(void)
{
	struct task *t = kthread_start("init", init_thread, NULL);

	if (!t || t->pid != 1)
		panic("init: could not start process 1");
	init_task = t;
}

bool
init_has_run_command(void)
{
	return run_command[0] != '\0';
}
