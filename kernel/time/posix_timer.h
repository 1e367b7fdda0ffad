/*
 * posix_timer.h - a process's POSIX timers (timer_create and the rest):
 * what process creation, execve, exit and the tick call.
 */
#ifndef REWIND_POSIX_TIMER_H
#define REWIND_POSIX_TIMER_H

struct task;

/* A new process (leader): no timers, and ids from 0 again, as Linux's fork. */
void posix_timers_init(struct task *leader);
/*
 * Deletes every timer of leader's process (execve, the exit of its last
 * thread, the reaping of its leader; the later calls find none): none
 * fires once this returns. May sleep briefly; no locks held.
 */
void posix_timers_release(struct task *leader);
/* execve by a thread that takes over from the leader: the id counter goes on. */
void posix_timers_handoff(struct task *from, struct task *to);
/*
 * A thread of the timer's process has taken the signal of one of its
 * timers (signal.c's dequeue, no locks held): a periodic timer is armed
 * again for its next expiry, and info's si_overrun gets the periods that
 * passed meanwhile (Linux's posixtimer_rearm).
 */
struct kernel_siginfo;
void posix_timer_delivered(struct kernel_siginfo *info);
/*
 * The tick's machine-wide duty (tick.c): the CPU-time timers whose clock
 * has passed their deadline fire.
 */
void posix_cpu_timers_tick(void);

#endif
