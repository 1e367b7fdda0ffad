/*
 * ntp.h - the kernel's NTP clock model, as Linux's kernel/time/ntp.c has
 * it: the state adjtimex(2) reads and sets (offset, frequency, errors,
 * status, time constant, tick, TAI offset, adjtime(3)'s pending slew),
 * the leap-second state machine, and the length of the coming second that
 * the timekeeper turns into its rate.
 *
 * Plain arithmetic on its own state, no locks: kernel/time/timekeeping.c
 * calls it with tk_lock held, once a second of CLOCK_REALTIME
 * (ntp_second_overflow) and from adjtimex (ntp_adjtimex).
 */
#ifndef REWIND_NTP_H
#define REWIND_NTP_H

#include "kernel/lib/types.h"

struct kernel_timex;

/* Within the kernel, adjtime(3)'s requests are told apart by this bit, and read by the other. */
#define ADJ_ADJTIME	    0x8000
#define ADJ_OFFSET_READONLY 0x2000

/*
 * Applies tx's modes (already validated and allowed; ADJ_SETOFFSET is
 * the caller's) and fills tx with the state, the time as now_sec.now_ns;
 * returns the clock state adjtimex returns (TIME_OK .. TIME_ERROR).
 */
int ntp_adjtimex(struct kernel_timex *tx, s64 now_sec, long now_ns);
/*
 * CLOCK_REALTIME has just entered second secs: advances the leap-second
 * state and the slews by one second. Returns the step the clock takes
 * there: -1 when a leap second is inserted (the second repeats), +1 when
 * one is deleted, else 0.
 */
int ntp_second_overflow(s64 secs);
/* The coming second's length relative to a true second, minus one, as a fraction << 32. */
s64 ntp_rate_excess(void);
/* TAI minus UTC, in seconds (ADJ_TAI; a leap second moves it). */
int ntp_tai_offset(void);

#endif
