/*
 * task.h - a task is one thread of execution, with its kernel stack, its
 * saved CPU state and its share of a process: address space (mm), open
 * files, file-system context. A process is a group of tasks sharing those
 * (one task each until threads arrive with the SMP milestone); pid is the
 * task's own id and tgid the process's, as in Linux.
 *
 * Lifetime: a task is created by fork/clone or as a kernel thread, runs,
 * exits to a zombie that keeps only its exit status and CPU times, and is
 * freed when its parent reaps it with wait4.
 */
#ifndef REWIND_TASK_H
#define REWIND_TASK_H

#include "kernel/lib/list.h"
#include "kernel/process/ptrace.h"
#include "kernel/x86/debugreg.h"
#include "kernel/x86/percpu.h"
#include "kernel/signal/signal.h"
#include "kernel/time/timer.h"
#include "kernel/lib/types.h"
#include "kernel/sched/wait.h"
#include "mm/layout.h"
#include "uapi/resource.h"

struct mm;
struct vfork_done;
struct files;
struct sem_undo_list;
struct nsproxy;
struct fs_context;
struct trap_frame;
struct sighand;
struct group_list;
struct landlock_domain;
struct key;

/*
 * A process's real, effective and saved ids, and the one files are made
 * and checked with (Linux's fsuid, fsgid): of users, or of groups (cred.c).
 */
struct id_set {
	u32 real, effective, saved, fs;
};

/*
 * capabilities(7)'s five sets of a process, bit n for capability n, and
 * the securebits that steer how uid changes and execve move them
 * (capability.c).
 */
struct cap_sets {
	u64 effective, permitted, inheritable, bounding, ambient;
	u32 securebits;
};

enum task_state {
	TASK_RUNNABLE, /* on a run queue or running */
	TASK_SLEEPING, /* waiting on a wait queue or a timer */
	TASK_ZOMBIE,   /* exited, waiting for its parent's wait4 */
};

#define TASK_COMM_LEN 16

/*
 * A task's user FPU state in the XSAVE standard format (kernel/x86/xstate.h):
 * the 512-byte FXSAVE region (x87, MMX, SSE), the 64-byte XSAVE header, then
 * AVX's upper YMM halves (256 bytes at 576). On a CPU without XSAVE only
 * the FXSAVE region is used. XSAVE needs it 64-byte aligned.
 */
#define FXSAVE_SIZE    512
#define FPU_STATE_SIZE 832
struct fpu_state {
	u8 bytes[FPU_STATE_SIZE];
} __aligned(64);

/*
 * CPU time, in TSC cycles, split as Linux reports it, by both methods
 * (kernel/time/cputime.c): exact (user, sys) and sampled at the tick (tick_*).
 */
struct cputime {
	u64 user;
	u64 sys;
	u64 tick_user;
	u64 tick_sys;
};

/* ITIMER_VIRTUAL or ITIMER_PROF (kernel/time/itimer.c): CPU time left, and the reload; 0: off. */
struct cpu_itimer {
	u64 left_ns, interval_ns;
};

struct task {
	/* scheduling (kernel/sched/sched.c) */
	int state;		   /* enum task_state; READ_ONCE/WRITE_ONCE */
	bool on_cpu;		   /* running right now: its stack is in use */
	struct list_head run_link; /* on a run queue */
	unsigned cpu;		   /* whose run queue (and rq lock) it belongs to */
	u64 cpus_allowed;	   /* affinity: a bit per CPU */
	int migrate_to;		   /* -1, or the CPU to move to once switched out */
	int slice;		   /* ticks left before preemption */
	s64 vruntime;		   /* CPU ticks scaled by NICE_0 weight / own weight (sched.c) */
	s8 nice;		   /* -20..19: the weight of a SCHED_NORMAL/BATCH task */
	u8 policy;		   /* SCHED_NORMAL... (uapi/sched.h) */
	u8 rt_priority;		   /* 1..99 for SCHED_FIFO and SCHED_RR, else 0 */
	bool reset_on_fork;	   /* SCHED_RESET_ON_FORK: children start normal */
	bool yielded;		   /* sched_yield: queue behind the peers */
	u16 ioprio;		   /* ioprio_set's class and level: kept, not applied */
	u64 saved_rsp;		   /* while switched out */
	u64 kstack_top;
	u64 wake_deadline;	     /* TSC deadline of a timed sleep, or 0 */
	struct list_head timer_link; /* on the sleep-timer list */
	void (*kthread_fn)(void *);  /* kernel threads: what to run */
	void *kthread_arg;

	/* user-mode state kept across switches */
	struct fpu_state fpu;
	u64 fs_base;
	struct debugregs debugregs; /* a tracer's hardware breakpoints (debugreg.c) */
	bool tsc_sigsegv;	    /* PR_SET_TSC: user-mode rdtsc faults (kernel/x86/tsc_mode.h) */

	/* identity */
	int pid;  /* this task (thread) */
	int tgid; /* its process */
	char comm[TASK_COMM_LEN];
	unsigned int personality;   /* personality(2)'s flags (personality.c) */
	u64 timer_slack_ns;	    /* PR_SET_TIMERSLACK's; 0: default_timer_slack_ns (prctl.c) */
	u64 default_timer_slack_ns; /* the creator's slack at fork; 0: TIMER_SLACK_NS */

	/* the process it belongs to */
	/*
	 * NULL for kernel threads. Its owner reads it freely; it is changed
	 * (exec, exit) and read by others (get_task_mm) under alloc_lock.
	 */
	struct mm *mm;
	struct spinlock alloc_lock; /* task_lock(): mm against other tasks' get_task_mm */
	/*
	 * files, fs and exe_file are swapped under tasks_lock (exit, exec), so
	 * that procfs can take references on another process's under it.
	 */
	struct files *files;
	struct fs_context *fs;
	struct file *exe_file; /* what execve ran, referenced (/proc/<pid>/exe); NULL: none */
	struct sem_undo_list *sysvsem; /* SEM_UNDO's adjustments (ipc/sem_undo.c), or NULL */
	struct nsproxy *nsproxy;       /* its namespaces (nsproxy.h); tasks_lock to change */
	struct task *parent;	       /* leader only (threads: NULL); tasks_lock */
	int parent_tgid; /* parent's tgid, 0 without one: getppid reads it without tasks_lock */
	struct list_head children; /* of struct task, via sibling */
	struct list_head sibling;
	struct wait_queue child_exited; /* wait4 sleeps here */
	int exit_status;		/* wait status as wait4 reports it */
	u64 clear_child_tid;		/* set_tid_address, CLONE_CHILD_CLEARTID */
	u64 set_child_tid;		/* CLONE_CHILD_SETTID: written in the child's memory */
	u64 robust_list; /* set_robust_list: walked at exit and exec (robust_futex.c) */
	struct vfork_done
		*vfork_done; /* CLONE_VFORK: the parent waits on it (vfork.c); task_lock */

	/* threads: a process is the group of tasks with its leader's tgid */
	struct task *group_leader;    /* itself for a process's first task */
	struct list_head thread_link; /* in the leader's threads, leader included */
	struct list_head threads;     /* leader only */
	int live_threads;	      /* leader only: group members not yet exited */
	bool group_exiting;	      /* leader only: exit_group in progress */
	bool child_subreaper;	      /* leader only: PR_SET_CHILD_SUBREAPER (exit.c) */
	struct task *exec_task;	      /* leader only: an execve waiting for the others to leave */
	struct task *core_dumper;     /* leader only: a core dump waiting for the others to leave */
	int group_exit_status;	      /* leader only */
	bool killed; /* asked to exit (exit_group, a fatal signal): leave at the next chance */

	/* job control (kernel/process/session.c): leader only, under tasks_lock */
	int pgid;	   /* process group: 0 for init and kernel threads, as Linux's */
	int sid;	   /* session */
	bool did_exec;	   /* ran execve since fork: the parent's setpgid is EACCES */
	bool tty_detached; /* gave up the session's terminal (TIOCNOTTY by a non-leader) */

	/* the group stop (kernel/signal/stop.c): under the sighand lock */
	unsigned jobctl; /* leader only: JOBCTL_* (kernel/signal/signal.h) */
	int stop_count;	 /* leader only: threads still to stop in a group stop */
	int stop_signal; /* leader only: the signal that stopped the process */
	u8 stop_pending; /* STOP_GROUP: its part in a group stop; STOP_PTRACE_TRAP (signal.h) */
	bool stopped;	 /* this thread sleeps in a group stop (State T) */

	/* signals (kernel/signal*.c, itimer.c): sighand->lock guards these; the timer has its own */
	struct sighand *sighand; /* dispositions, shared by CLONE_SIGHAND */
	u64 sig_blocked;
	u64 sig_saved_mask;	       /* the mask to restore after sigsuspend */
	bool sig_restore_mask;	       /* sig_saved_mask is to be restored on the way out */
	u64 sig_waiting;	       /* rt_sigtimedwait: signals it waits for, blocked or not */
	struct sigpending sig_pending; /* directed at this thread */
	struct sigpending sig_shared;  /* leader only: directed at the process */
	struct altstack altstack;
	struct fault_context fault; /* the last fault's, for the sigcontext */
	int exit_signal;   /* sent to the parent when the process ends (clone's low byte) */
	int pdeath_signal; /* PR_SET_PDEATHSIG: sent to this process when its parent thread exits */
	int parent_tid;	   /* leader only: the thread of the parent that forked it (tasks_lock) */
	struct timer real_timer; /* leader only: ITIMER_REAL and alarm (kernel/time/itimer.c) */
	u64 real_interval_ns;	 /* leader only: its interval, as set */
	struct cpu_itimer
		cpu_itimers[2]; /* leader only: ITIMER_VIRTUAL, ITIMER_PROF (tasks_lock) */
	/* leader only: timer_create's timers (kernel/time/posix_timer.c, under its lock) */
	struct list_head posix_timers;
	struct mem_charge *mem_charge;	 /* the leader's: kernel memory it caused (mm/oom_kill.h) */
	struct mem_charge *stack_charge; /* where this task's stack is charged: its process's */
	/* leader only, tasks_lock: /proc/<pid>/oom_score_adj and the least an unprivileged write may set */
	short oom_score_adj, oom_score_adj_min;
	int next_posix_timer_id;

	/* resource limits, user and group ids, capabilities: leader only; tasks_lock for writing (rlimit.c, cred.c) */
	struct kernel_rlimit rlim[RLIM_NLIMITS];
	struct id_set uids, gids;
	struct cap_sets caps;
	struct group_list *groups; /* supplementary groups (groups.c); NULL: none */
	/*
	 * Linux's dumpable 0: the ids changed since the last execve, or
	 * PR_SET_DUMPABLE said so; /proc/<pid> is then root's (cred.h).
	 */
	bool not_dumpable;
	u32 coredump_filter; /* which areas a core holds (COREDUMP_*, kernel/process/coredump.h) */
	/*
	 * PR_SET_NO_NEW_PRIVS: execve may not raise privilege, and Landlock
	 * may restrict the process without CAP_SYS_ADMIN; never cleared.
	 */
	bool no_new_privs;
	/* The Landlock layers that restrict it (kernel/landlock/), referenced; NULL: none. */
	struct landlock_domain *landlock;
	/*
	 * The key retention service's keyrings, this thread's as Linux's
	 * credentials hold them (kernel/keys/process_keyrings.c, keys_lock):
	 * referenced, NULL until first used.
	 */
	struct key *thread_keyring, *process_keyring, *session_keyring;
	int reqkey_default; /* KEYCTL_SET_REQKEY_KEYRING's KEY_REQKEY_DEFL_* */

	struct ptrace_link ptrace; /* tracer and tracees (kernel/process/ptrace.c) */

	/* accounting (kernel/time/cputime.c) */
	struct cputime time;		    /* own */
	struct cputime children_time;	    /* reaped children's, for RUSAGE_CHILDREN */
	struct cputime exited_threads_time; /* leader only: its group's exited threads' */
	u64 time_stamp;			    /* TSC when the current user/sys stretch began */
	u64 start_tsc;
	u64 minor_faults, children_minor_faults;
	/* leader only, under tasks_lock: ru_maxrss of the address spaces it left (exec, exit) */
	u64 maxrss_kb, children_maxrss_kb; /* and the largest of its reaped children's */

	struct list_head all_link; /* every task, for /proc and ps */
};

/*
 * Whether addr may be a thread's FS base (arch_prctl(ARCH_SET_FS), clone's
 * CLONE_SETTLS): a user address, as Linux's TASK_SIZE_MAX check. The
 * context switch loads it with WRMSR, which faults in ring 0 on a
 * non-canonical address; both callers answer -EPERM.
 */
static inline bool
fs_base_allowed(u64 addr)
{
	return addr < USER_TOP;
}

/* The task running on this CPU. */
static inline struct task *
current(void)
{
	return this_cpu()->current;
}

/*
 * Whether the current task is to die (a fatal signal, exit_group): long
 * loops over user-sized work stop early then, as Linux's
 * fatal_signal_pending() checks, so that SIGKILL never waits for them.
 * Loops that may return a short count stop for any signal
 * (signal_pending(), kernel/signal/signal.h).
 */
static inline bool
fatal_signal_pending(void)
{
	return __atomic_load_n(&current()->killed, __ATOMIC_RELAXED);
}

/*
 * Makes parent (or none) the parent of process leader t; tasks_lock held.
 * The parent's tgid is kept beside the pointer so that getppid, the
 * lmbench null call, can read it without the lock: the parent itself may
 * be reaped and freed as soon as the lock is dropped (Linux reads
 * real_parent under RCU, which rewind does not have).
 */
static inline void
task_set_parent(struct task *t, struct task *parent)
{
	t->parent = parent;
	WRITE_ONCE(t->parent_tgid, parent ? parent->tgid : 0);
}

/*
 * The per-task lock that pins t->mm, as Linux's task_lock: taken inside
 * tasks_lock by a reader that found t in all_tasks (so that t itself
 * cannot be freed meanwhile), and inside it too by task_swap_mm.
 */
static inline void
task_lock(struct task *t)
{
	spin_lock(&t->alloc_lock);
}

static inline void
task_unlock(struct task *t)
{
	spin_unlock(&t->alloc_lock);
}

/*
 * Names thread t (its comm: ps, top, /proc/<pid>/stat), cut to
 * TASK_COMM_LEN - 1 bytes. Writers (exec, prctl, /proc/<pid>/comm) take
 * the task lock; readers copy the array whole and end it themselves.
 */
void task_set_comm(struct task *t, const char *name);

extern struct list_head all_tasks;
/*
 * all_tasks, parent/children links, pids; thread lists change under it and
 * their process's sighand lock together, so that either lock alone lets a
 * walk trust one (kernel/signal/signal.c's locking rule).
 */
extern struct spinlock tasks_lock;

/* A task by id, or NULL; the caller holds tasks_lock. */
struct task *task_find(int pid);
/*
 * t's open file at fd, referenced, or NULL if none (kcmp, pidfd_getfd);
 * tasks_lock held, which keeps t's fd table until exit lets it go.
 */
struct file *task_file_get(struct task *t, unsigned long fd);
/* The register frame of a user task's last entry to the kernel (top of its stack). */
struct trap_frame *task_user_frame(struct task *t);

#endif
