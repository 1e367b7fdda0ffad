/*
 * profile.h - the sampling profiler (docs/profiler.md): knob `profile=` (off, or
 * samples per second on every CPU), read as /proc/profile.
 *
 * Each CPU's LAPIC timer is switched to NMI delivery (drivers/lapic.h,
 * lapic_timer_nmi_mode), so code that runs with interrupts off - spinlock
 * holders, the entry paths, interrupt handlers - is sampled like anything
 * else. Every sample is the interrupted rip and its frame-pointer chain
 * (kernel/backtrace.h, bounded to the interrupted kernel stack), or, for a
 * sample in user mode, the user rip alone; it goes into this CPU's own
 * buffer, written only by this CPU's NMIs, so no lock is ever taken. A
 * full buffer counts what it drops.
 *
 * Not for: user-mode stacks (user frame pointers are the program's own
 * business), hardware event counters (TCG has no PMU).
 */
#ifndef REWIND_PROFILE_H
#define REWIND_PROFILE_H

#include "kernel/lib/types.h"

struct trap_frame;
struct procbuf;

#define PROFILE_DEPTH 32 /* frames per kernel sample, the sampled rip included */

/* What a sample interrupted, as /proc/profile spells it. */
enum profile_mode {
	PROFILE_KERNEL,	       /* 'k': kernel mode, interrupts on */
	PROFILE_KERNEL_IRQOFF, /* 'K': kernel mode, interrupts off */
	PROFILE_USER,	       /* 'u': user mode */
};

extern int profile_hz; /* the knob: 0 (off) or samples per second per CPU */

/* After the APs are up: allocates the buffers if the command line asked for samples. */
void profile_init(void);
/* Every CPU's tick: makes this CPU's timer follow the knob (on, off, another rate). */
void profile_tick(void);
/* Whether this CPU's tick has yet to take up a new rate: then it must not stop (tick.c). */
bool profile_tick_wanted(void);
/* From the NMI handler: takes a sample and passes the tick on; false if the NMI was not ours. */
bool profile_nmi(struct trap_frame *f);
/* Forgets every sample and lost count; CPUs drop their old samples lazily. */
void profile_reset(void);
/* /proc/profile: the header, then one line per distinct stack with its count. */
int profile_show(struct procbuf *b);

/* For the self-tests: one CPU's figures since the last reset. */
struct profile_cpu_state {
	u64 samples; /* recorded */
	u64 lost;    /* dropped: the buffer was full */
	u32 rate;    /* the rate this CPU samples at now; 0: its timer is the plain tick */
};
void profile_cpu_state(unsigned cpu, struct profile_cpu_state *out);
/*
 * Whether cpu holds a sample in the given mode with a frame (the rip or a
 * caller) in the function [lo, hi) and, if caller_hi is nonzero, a frame
 * further up in [caller_lo, caller_hi).
 */
bool profile_find_sample(unsigned cpu, enum profile_mode mode, u64 lo, u64 hi, u64 caller_lo,
			 u64 caller_hi);

#endif
