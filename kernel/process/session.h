/*
 * session.h - process groups and sessions (session.c): the ids, signals
 * to a group, and whether a group is orphaned.
 */
#ifndef REWIND_SESSION_H
#define REWIND_SESSION_H

#include "kernel/lib/types.h"

struct task;
struct kernel_siginfo;

/* fork: the child's group, session and terminal link are its parent's (leaders). */
void session_fork(struct task *child, const struct task *parent);
/* execve by a thread: the thread that becomes the leader takes the ids over. */
void session_take_over(struct task *to, const struct task *from);
/* execve: the parent may no longer move the process to another group (EACCES). */
void session_exec(struct task *t);
/*
 * Sends info to every process in group pgid that the sender may signal
 * (signal 0: none): 0, -EPERM if it may signal none of them, -ESRCH if
 * there is none. tasks_lock held.
 */
int session_send_to_group(int pgid, const struct kernel_siginfo *info);
/* The kernel's signal (SI_KERNEL) to group pgid; takes tasks_lock (the terminal's ISIG, SIGTTIN). */
void session_signal_group(int pgid, int sig);
/* The kernel's signal to the leader of session sid alone, if it lives; takes tasks_lock (hangup). */
void session_signal_leader(int sid, int sig);
/* Whether group pgid exists and belongs to session sid; tasks_lock held. */
bool session_group_in_session(int pgid, int sid);
/* Whether group pgid is orphaned (POSIX); tasks_lock held. */
bool session_group_orphaned(int pgid);
/*
 * The last thread of process leader has exited (tasks_lock held, before
 * its children go to init): a session leader's terminal is let go with a
 * SIGHUP to its foreground group, and groups this exit orphans get SIGHUP
 * and SIGCONT if a member is stopped.
 */
void session_process_exit(struct task *leader);
/* The current process's job-control ids, as the terminal needs them. */
struct session_ids {
	int pgid, sid;
	bool session_leader;
	bool tty_detached; /* gave the session's terminal up (TIOCNOTTY) */
};
struct session_ids session_current(void);
/* Takes tasks_lock: whether group pgid is orphaned (a background read's EIO, SIGTTOU's). */
bool session_is_orphaned(int pgid);
/* TIOCSPGRP's test (takes tasks_lock): 0 if group pgid is in session sid, -ESRCH, -EPERM. */
int session_check_foreground(int pgid, int sid);
/* TIOCNOTTY by a process that is not its session's leader: it alone gives the terminal up. */
void session_detach_tty(void);

#endif
