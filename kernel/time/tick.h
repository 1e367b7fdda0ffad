/*
 * tick.h - the timer tick: what each CPU's tick does, the machine-wide
 * duty one CPU does per jiffy, and stopping the tick on an idle CPU
 * (Linux's NO_HZ_IDLE, the `nohz` knob). drivers/lapic.c owns the timer
 * and calls in here; the idle loop (kernel/sched/sched.c) stops and
 * restarts the tick.
 */
#ifndef REWIND_TICK_H
#define REWIND_TICK_H

#include "kernel/lib/types.h"

struct cpu;
struct trap_frame;

extern u64 jiffies; /* periods of 1/hz s since the first tick */

/* This CPU's tick: its timer interrupt found a tick due at now (TSC); interrupts off. */
void tick_handle(struct cpu *c, const struct trap_frame *f, u64 now);
/* A timer interrupt on a CPU whose tick is stopped: the duty, and the keep-alive renewed. */
void tick_nohz_event(struct cpu *c, u64 now);
/*
 * The idle loop, interrupts off: nothing to run, so the tick stops (if
 * the knob and the timer's mode allow) until the next sleeper's or
 * kernel timer's deadline; and, leaving for a task, restarts it, settling
 * what the stopped ticks would have done.
 */
void tick_nohz_idle_enter(void);
void tick_nohz_idle_exit(void);
/* Every tickless CPU leaves idle once, restarting its tick: its next tick has a change to make. */
void tick_nohz_wake_all(void);
/* A busy CPU's tick with tasks waiting in its queue: one tickless idle CPU is sent to pull. */
void tick_nohz_kick_idle(void);

#endif
