/*
 * itimer.h - a process's interval timers: real time (ITIMER_REAL, alarm)
 * and CPU time (ITIMER_VIRTUAL, ITIMER_PROF).
 */
#ifndef REWIND_ITIMER_H
#define REWIND_ITIMER_H

#include "kernel/lib/types.h"

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
/*
 * A tick charged ns of CPU time to t, in user mode or not: its process's
 * ITIMER_VIRTUAL (user) and ITIMER_PROF (both) count it down. Interrupts off.
 */
void itimer_cpu_tick(struct task *t, bool user, u64 ns);
/* execve by a thread that takes over from the leader: the armed timer moves to it. */
void itimer_handoff(struct task *from, struct task *to);

#endif
