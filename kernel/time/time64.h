/*
 * time64.h - the unit conversions every clock, timer and timeout shares.
 * Signed long, as Linux's: a negative time converts as a negative time;
 * code shifting or wrapping a value casts to u64 where it does.
 * Standalone, so the vDSO (user code) includes it too.
 */
#ifndef REWIND_TIME64_H
#define REWIND_TIME64_H

#define MSEC_PER_SEC  1000L
#define USEC_PER_MSEC 1000L
#define USEC_PER_SEC  1000000L
#define NSEC_PER_USEC 1000L
#define NSEC_PER_MSEC 1000000L
#define NSEC_PER_SEC  1000000000L

#endif
