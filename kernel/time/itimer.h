/*
 * itimer.h - a process's real-time interval timer (ITIMER_REAL, alarm).
 */
#ifndef REWIND_ITIMER_H
#define REWIND_ITIMER_H

struct task;

/* A new process's timer, disarmed (fork does not inherit it; execve keeps it). */
void itimer_init(struct task *leader);
/* Before the process is freed: disarms the timer and waits for a SIGALRM being sent. */
void itimer_release(struct task *leader);
/*
 * SIGALRM was just taken from the process's pending set (sighand lock
 * held): a periodic timer arms its next interval.
 */
void itimer_signal_taken(struct task *leader);
/* execve by a thread that takes over from the leader: the armed timer moves to it. */
void itimer_handoff(struct task *from, struct task *to);

#endif
