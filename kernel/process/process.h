/*
 * process.h - process life cycle: the process table and ids (process.c),
 * fork (fork.c), exit and killing a process - exit_group, a fatal signal or
 * fault (exit.c).
 */
#ifndef REWIND_PROCESS_H
#define REWIND_PROCESS_H

#include "kernel/process/task.h"
#include "uapi/sched.h"	 /* the clone flags */
#include "uapi/signal.h" /* CLD_* */

struct kernel_siginfo;

/*
 * Pids go up to pid_max - 1, then wrap; /proc/sys/kernel/pid_max sets it
 * between PID_MAX_MIN and PID_MAX_LIMIT (Linux's on 64-bit, and the boot value).
 */
#define PID_MAX_LIMIT 4194304
#define PID_MAX_MIN   301 /* Linux's RESERVED_PIDS + 1 */

/* Frees exited threads, and processes whose parent wants no zombie, once their CPU has left their stack. */
void reap_dead_threads(void);
/* Gives t a pid (its own tgid), links it under parent (NULL: none) and into all_tasks. */
void task_register(struct task *t, struct task *parent);
/*
 * A thread's timer slack (PR_SET_TIMERSLACK, /proc/<pid>/timerslack_ns):
 * how late Linux may fire its timers to batch wake-ups. rewind fires them
 * on time, which any slack allows; the value is kept, inherited as the
 * child's default and reported, as Linux's.
 */
#define TIMER_SLACK_NS 50000 /* Linux's default, 50 us */
u64 task_timer_slack(const struct task *t);
/* Sets it; 0 goes back to the thread's default. */
void task_set_timer_slack(struct task *t, u64 ns);
/* The same for clone's CLONE_PARENT: t's parent is creator's parent, its ids creator's. */
void task_register_sibling(struct task *t, struct task *creator);
/* Takes t out of all_tasks: it no longer counts toward threads-max; tasks_lock held. */
void task_unlink(struct task *t);
/* How many tasks there are, zombies included (Linux's nr_threads), without walking them. */
unsigned task_count(void);
/* Counts for /proc/stat and /proc/loadavg. */
struct task_census {
	unsigned tasks; /* every task with a pid, zombies included (Linux's nr_threads) */
	int last_pid;	/* the pid handed out last */
	u64 forks;	/* tasks created since boot, threads included (Linux's total_forks) */
};
void task_census(struct task_census *c);
/* The next fork takes the first free pid after pid (/proc/sys/kernel/ns_last_pid's write). */
void pid_set_last(int pid);
/*
 * The parent of leader's ended process hears of it (its exit signal,
 * and its wait wakes); a parent that wants no zombies gets the process
 * freed instead. tasks_lock held.
 */
void process_end_notify_parent_locked(struct task *leader);
/* The pid limit now; setting it outside [PID_MAX_MIN, PID_MAX_LIMIT] is -EINVAL. */
int pid_max_get(void);
int pid_max_set(unsigned long n);
/* How a wait status ended, as SIGCHLD and waitid say it: CLD_EXITED, CLD_KILLED or CLD_DUMPED. */
static inline int
wait_status_code(int status)
{
	if (!(status & 0x7f))
		return CLD_EXITED;
	return status & 0x80 ? CLD_DUMPED : CLD_KILLED;
}
/* Ends the current task with a wait status (exit code << 8, or a signal number). */
__noreturn void task_exit(int wait_status);
/* execve: t now runs f (a new reference is taken; the old one is dropped). */
void task_set_exe_file(struct task *t, struct file *f);
/*
 * Gives t the address space mm (exec, exit: NULL), returning the old one
 * with its reference: under tasks_lock and the task's own task_lock, so
 * that whoever holds either may take a reference on another task's mm (the
 * OOM killer walks all_tasks under the first, get_task_mm takes the second).
 */
struct mm *task_swap_mm(struct task *t, struct mm *mm);
/* Leaves if exit_group (or a fatal fault in another thread) asked this task to. */
void exit_if_killed(void);
/*
 * Ends every member of leader's process with one wait status (a signal's
 * death): each leaves at its next return to user mode, sleepers are woken.
 * tasks_lock held.
 */
void group_kill_locked(struct task *leader, int wait_status);
/* Ends the current process (exit_group, death by signal). */
__noreturn void group_exit(int wait_status);
/*
 * Ends the current process by the default action of info's fatal signal:
 * with a core file first when that action is to dump core (coredump.h).
 */
__noreturn void group_exit_by_signal(const struct kernel_siginfo *info);
/* Ends the current process after a fatal fault, with a one-line report. */
__noreturn void kill_current(const struct kernel_siginfo *info, const char *why, u64 addr, u64 rip);
/*
 * execve, once the new program is ready: kills the process's other threads
 * and waits until they are gone; a thread that is not the leader takes the
 * leader's place and pid; the signal table is unshared. 0, or -EAGAIN when
 * the process is ending anyway, -ENOMEM.
 */
int exec_single_thread(struct task *t);
/* Starts the first user process (/sbin/init, or `init=`), pid 1. */
void start_init_process(void);
/* Whether `run=` gave init a command to run. */
bool init_has_run_command(void);

#endif
