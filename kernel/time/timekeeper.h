/*
 * timekeeper.h - the arithmetic of keeping time from a counter: the state
 * the clocks are computed from, and how it advances.
 *
 * Nanoseconds are kept shifted left by the counter's `shift` ("snsec"), so
 * the fraction of a nanosecond each conversion leaves is carried instead
 * of dropped, and the clocks do not drift from the counter however many
 * ticks pass. This is plain arithmetic on explicit counter values - no
 * hardware, no locks - so the host unit tests compile it unchanged; the
 * kernel's one instance, its lock and its tick are kernel/time/timekeeping.c.
 */
#ifndef REWIND_TIMEKEEPER_H
#define REWIND_TIMEKEEPER_H

#include "kernel/lib/types.h"

/* A clock's value at cycle_last: sec + (snsec >> shift) ns, snsec < 10^9 << shift. */
struct tk_base {
	u64 sec;
	u64 snsec;
};

struct timekeeper {
	u64 cycle_last; /* counter value the bases hold the time of */
	u64 mask;
	u32 mult, shift;     /* the rate the clocks run at: the counter's, corrected by NTP */
	u32 counter_mult;    /* the counter's own rate */
	s64 rate_excess;     /* NTP's correction: (length of a second - 1 s) / 1 s, << 32 */
	struct tk_base mono; /* CLOCK_MONOTONIC (and MONOTONIC_RAW, BOOTTIME) */
	struct tk_base real; /* CLOCK_REALTIME */
};

/* Starts counting from counter value now, with the clocks at mono_ns and real_ns. */
void timekeeper_start(struct timekeeper *tk, u64 now, u64 mask, u32 mult, u32 shift, u64 mono_ns,
		      u64 real_ns);
/* Moves cycle_last to now, adding the elapsed time to both clocks. */
void timekeeper_advance(struct timekeeper *tk, u64 now);
/* Carries on from another counter: the caller advanced tk to this instant with the old one. */
void timekeeper_change_counter(struct timekeeper *tk, u64 now, u64 mask, u32 mult, u32 shift);
/* The clock whose base is b, in ns, at counter value now (cycle_last or later). */
u64 timekeeper_read(const struct timekeeper *tk, const struct tk_base *b, u64 now);
/*
 * Runs the clocks from cycle_last on at the counter's rate times
 * 1 + excess / 2^32 (NTP's slew: kernel/time/ntp.h); the caller advanced
 * tk to now first, so the time so far keeps the old rate.
 */
void timekeeper_set_rate(struct timekeeper *tk, s64 excess);
/* Sets CLOCK_REALTIME, as of cycle_last. */
void timekeeper_set_real(struct timekeeper *tk, u64 real_ns);
/* A base's value in plain ns. */
u64 tk_base_ns(const struct tk_base *b, u32 shift);

#endif
