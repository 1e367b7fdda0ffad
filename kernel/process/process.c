/*
 * process.c - the process table: pids, the all_tasks list and a task's entry
 * into it (a new process, a new thread of one), the task fields other tasks
 * read under tasks_lock, the id calls (getpid, gettid, getppid) and process
 * 1. Creating a process is fork.c's, ending one exit.c's, waiting for one
 * wait.c's.
 *
 * tasks_lock guards the pid space, the all_tasks list, every parent/
 * children link and every thread-group list. Children belong to the
 * process - to its leader - whichever thread forked them, so any thread may
 * wait for them and they stay with the process until its last thread ends
 * (as Linux). Threads (clone with CLONE_THREAD) join their leader's group:
 * they share its tgid and are not children of anyone.
 */
#include "fs/vfs.h"
#include "kernel/landlock/landlock.h"
#include "kernel/process/coredump.h"
#include "kernel/process/process.h"
#include "kernel/process/process_internal.h"
#include "kernel/x86/entry.h"
#include "kernel/process/exec.h"
#include "kernel/process/rlimit.h"
#include "kernel/process/session.h"
#include "kernel/process/nsproxy.h"
#include "kernel/time/itimer.h"
#include "kernel/time/posix_timer.h"
#include "kernel/knobs.h"
#include "kernel/panic.h"
#include "kernel/process/cred.h"
#include "kernel/sched/sched.h"
#include "kernel/signal/signal.h"
#include "kernel/lib/string.h"
#include "kernel/syscall/syscall.h"
#include "kernel/lib/vsprintf.h"
#include "fs/fs.h"
#include "mm/vm.h"

struct list_head all_tasks = LIST_HEAD_INIT(all_tasks);
struct spinlock tasks_lock = SPINLOCK_INIT("tasks");
static int last_pid;
static u64 nr_forks; /* processes and threads created since boot; tasks_lock */
/* The tasks in all_tasks, zombies included (Linux's nr_threads): for threads-max without a walk. */
static unsigned nr_tasks; /* tasks_lock */
struct task *init_task;

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

struct file *
task_file_get(struct task *t, unsigned long fd)
{
	return t->files && fd <= INT32_MAX ? files_lookup(t->files, (int)fd) : NULL;
}

void
task_census(struct task_census *c)
{
	u64 flags = spin_lock_irqsave(&tasks_lock);

	c->tasks = nr_tasks;
	c->last_pid = last_pid;
	c->forks = nr_forks;
	spin_unlock_irqrestore(&tasks_lock, flags);
}

/* Puts t in all_tasks, where it counts toward threads-max; tasks_lock held. */
static void
task_link(struct task *t)
{
	list_add_tail(&t->all_link, &all_tasks);
	nr_tasks++;
}

void
task_unlink(struct task *t)
{
	list_del(&t->all_link);
	nr_tasks--;
}

unsigned
task_count(void)
{
	return READ_ONCE(nr_tasks);
}

void
pid_set_last(int pid)
{
	u64 flags = spin_lock_irqsave(&tasks_lock);

	last_pid = pid;
	spin_unlock_irqrestore(&tasks_lock, flags);
}

static int pid_max = PID_MAX_LIMIT;

int
pid_max_get(void)
{
	return READ_ONCE(pid_max);
}

int
pid_max_set(unsigned long n)
{
	if (n < PID_MAX_MIN || n > PID_MAX_LIMIT)
		return -EINVAL;
	WRITE_ONCE(pid_max, (int)n);
	return 0;
}

/* The next unused pid, never 1 (init's, whenever init starts); tasks_lock held. */
static int
alloc_pid(void)
{
	int limit = READ_ONCE(pid_max);

	nr_forks++;
	do {
		last_pid = last_pid >= limit - 1 || last_pid < 1 ? 2 : last_pid + 1;
	} while (task_find(last_pid));
	return last_pid;
}

/*
 * A process's limits, user and group ids, capabilities, supplementary
 * groups, Landlock domain and no_new_privs, dumpable flag, core dump filter and OOM adjustment, which are its leader's:
 * inherited at fork, handed on by execve.
 */
void
copy_limits_and_ids(struct task *to, const struct task *from)
{
	memcpy(to->rlim, from->rlim, sizeof(to->rlim));
	to->uids = from->uids;
	to->gids = from->gids;
	to->caps = from->caps;
	to->groups = group_list_get(from->groups);
	to->landlock = landlock_domain_get(from->landlock);
	to->no_new_privs = from->no_new_privs;
	to->not_dumpable = from->not_dumpable;
	to->coredump_filter = from->coredump_filter;
	to->oom_score_adj = from->oom_score_adj;
	to->oom_score_adj_min = from->oom_score_adj_min;
}

/*
 * The new process's ids, limits and session are its creator's (NULL: the
 * first process). Its parent is the creator, or with sibling (CLONE_PARENT)
 * the creator's parent, read here under tasks_lock as it may change.
 */
static void
register_with_pid(struct task *t, struct task *creator, int pid, bool sibling)
{
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct task *parent = creator && sibling ? creator->parent : creator;
	if (creator)
		copy_limits_and_ids(t, creator);
	else {
		rlimits_set_defaults(t->rlim); /* the first process: root */
		t->coredump_filter = COREDUMP_FILTER_DEFAULT;
		caps_set_root(&t->caps);
	}
	t->pid = t->tgid = pid ? pid : alloc_pid();
	task_set_parent(t, parent);
	t->group_leader = t;
	list_init(&t->threads);
	list_add_tail(&t->thread_link, &t->threads);
	t->live_threads = 1;
	itimer_init(t);
	posix_timers_init(t);
	/* The parent thread, whose exit PR_SET_PDEATHSIG watches: the creator's own, for a sibling. */
	t->parent_tid = !creator ? 0 : sibling ? creator->parent_tid : current()->pid;
	if (creator) {
		session_fork(t, creator);
		list_add_tail(&t->sibling, &parent->children);
	}
	task_link(t);
	spin_unlock_irqrestore(&tasks_lock, flags);
}

void
task_register(struct task *t, struct task *parent)
{
	register_with_pid(t, parent, 0, false);
}

void
task_register_sibling(struct task *t, struct task *creator)
{
	register_with_pid(t, creator, 0, true);
}

/* Makes t a new member of leader's thread group. */
void
thread_register(struct task *t, struct task *leader)
{
	u64 flags = spin_lock_irqsave(&tasks_lock);
	t->pid = alloc_pid();
	t->tgid = leader->tgid;
	/* The process's parent is its leader's: it may change (reparenting). */
	task_set_parent(t, NULL);
	/* Too late to join a process that is ending, or whose execve is getting rid of threads. */
	t->killed = leader->group_exiting || leader->exec_task;
	t->group_leader = leader;
	signal_lock_thread_list(t);
	list_add_tail(&t->thread_link, &leader->threads);
	signal_stop_new_thread(t, leader);
	signal_unlock_thread_list(t);
	leader->live_threads++;
	task_link(t);
	spin_unlock_irqrestore(&tasks_lock, flags);
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
 * ends (reparenting to init, which then may reap and free the old one): its
 * tgid is copied beside the pointer whenever that changes (task_set_parent),
 * so the call needs no lock, as Linux's reads real_parent under RCU.
 */
SYSCALL0(getppid)
{
	return READ_ONCE(current()->group_leader->parent_tgid);
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
	t->nsproxy = nsproxy_get(&init_nsproxy);
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
	register_with_pid(t, NULL, 1, false);
	init_task = t;
	sched_start_task(t);
}

bool
init_has_run_command(void)
{
	return run_command[0] != '\0';
}
