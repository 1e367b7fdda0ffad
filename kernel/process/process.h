/*
 * process.h - process life cycle: ids, fork, exit, wait, and killing a
 * process (exit_group, a fatal signal or fault).
 */
#ifndef REWIND_PROCESS_H
#define REWIND_PROCESS_H

#include "kernel/process/task.h"

/* clone flags (Linux) */
#define CLONE_VM		0x00000100
#define CLONE_FS		0x00000200
#define CLONE_FILES		0x00000400
#define CLONE_SIGHAND		0x00000800
#define CLONE_PIDFD		0x00001000
#define CLONE_VFORK		0x00004000
#define CLONE_PARENT		0x00008000
#define CLONE_THREAD		0x00010000
#define CLONE_SYSVSEM		0x00040000
#define CLONE_SETTLS		0x00080000
#define CLONE_PARENT_SETTID	0x00100000
#define CLONE_CHILD_CLEARTID	0x00200000
#define CLONE_DETACHED		0x00400000
#define CLONE_CHILD_SETTID	0x01000000
#define CLONE_SIGNAL_MASK	0xff		/* the signal the parent gets when the child ends */

/* Gives t a pid (its own tgid), links it under parent (NULL: none) and into all_tasks. */
void task_register(struct task *t, struct task *parent);
/* Ends the current task with a wait status (exit code << 8, or a signal number). */
__noreturn void task_exit(int wait_status);
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
/* Ends the current process after a fatal fault, with a one-line report. */
__noreturn void kill_current(int sig, const char *why, u64 addr, u64 rip);
/* Starts the first user process (/sbin/init, or `init=`), pid 1. */
void start_init_process(void);
/* Whether `run=` gave init a command to run. */
bool init_has_run_command(void);

#endif
