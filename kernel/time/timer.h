/*
 * timer.h - kernel timers: a function called at a TSC deadline, once or
 * periodically, from the timer interrupt of the CPU that armed it (each
 * CPU has its own queue, timer.c). With high-resolution events (the
 * `highres` knob, drivers/lapic.c) that interrupt comes at the deadline,
 * on an idle CPU whose tick stopped too (tick.c); without, at the next
 * tick. For ITIMER_REAL and alarm (kernel/time/itimer.c), the POSIX
 * timers (posix_timer.c) and timerfd (fs/timerfd.c); timed sleeps have
 * their own per-CPU lists in sched.c because they only need a wake-up.
 */
#ifndef REWIND_TIMER_H
#define REWIND_TIMER_H

#include "kernel/lib/pairing_heap.h"
#include "kernel/lib/types.h"

struct timer_base;

struct timer {
	struct pheap_node node;	 /* in its base's heap while armed */
	struct timer_base *base; /* the CPU queue it was last armed on (timer.c) */
	bool armed;
	u64 deadline; /* TSC */
	u64 period;   /* TSC cycles between expiries, or 0 for once */
	/*
	 * Interrupts off, in interrupt context: must not sleep. expiries: the
	 * periods that passed since the last call (1, or more when the tick
	 * came later than a period), which POSIX timers count as overruns.
	 * Calls for one timer never overlap: only its base's CPU makes them.
	 */
	void (*fn)(struct timer *, u64 expiries);
	int running; /* calls of fn in progress */
};

void timer_init(struct timer *t, void (*fn)(struct timer *, u64));
/*
 * (Re)arms t for deadline, then every period cycles (0: once), on this
 * CPU's queue (on the one running its function, if it is running);
 * deadline 0 disarms.
 */
void timer_arm(struct timer *t, u64 deadline, u64 period);
/*
 * (Re)arms t once, for when clock (CLOCK_REALTIME, _MONOTONIC, _BOOTTIME or
 * _TAI) reads expiry_ns; a time already past fires at once. For the POSIX
 * timers and timerfd. The deadline is the TSC's: a later clock_settime does
 * not move it (Linux's does for CLOCK_REALTIME).
 */
void timer_arm_at(struct timer *t, int clock, u64 expiry_ns);
/* Cycles until t's next expiry (at least 1 while armed), or 0 when it is not armed. */
u64 timer_remaining(const struct timer *t, u64 now);
/* Disarms t and waits for a call of fn that is running elsewhere: then t may be freed. */
void timer_cancel(struct timer *t);
/* From every CPU's timer interrupt: calls the functions of this CPU's timers that are due. */
void timers_run(void);
/* The earliest deadline armed on this CPU's queue (~0: none). */
u64 timers_next_deadline(void);
/*
 * Asks for a timer interrupt on this CPU at TSC deadline, or as soon as it
 * can when that has passed (drivers/lapic.c); a no-op without
 * high-resolution events, where the next tick serves.
 */
void timer_interrupt_at(u64 deadline);

#endif
