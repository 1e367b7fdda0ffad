/*
 * tsc.h - the time-stamp counter: its calibrated rate and time since boot.
 *
 * The rate comes from CPUID (leaf 0x15/0x16, or the hypervisor's TSC leaf
 * 0x40000010) when the CPU states it, else from counting TSC cycles across
 * a 10 ms PIT interval, refined against the HPET or PM timer once those
 * are found. Conversions use a fixed-point multiplier, as Linux's
 * clocksource mult/shift does. ns_since_boot() stays a plain TSC reading
 * for the scheduler, sleeps and futex deadlines, whatever clocksource the
 * clocks run on (kernel/time/timekeeping.c).
 */
#ifndef REWIND_TSC_H
#define REWIND_TSC_H

#include "kernel/lib/types.h"

extern u64 tsc_hz;	       /* 0 until calibrated */
extern u64 tsc_at_boot;	       /* TSC at the 32-bit entry */
extern const char *tsc_source; /* how tsc_hz was found */

void tsc_calibrate(void);
/*
 * Registers the TSC clocksource, after checking its rate against the
 * HPET or PM timer (registered first): a TSC that disagrees by more than
 * 1 % is marked unstable; a rate that came from the PIT is replaced by
 * the longer, finer measurement.
 */
void tsc_clocksource_init(void);
/*
 * The warp check at AP start-up (kernel/time/tsc_sync.c): the boot CPU and
 * the new CPU call these together; once tsc_sync_source() returns, the new
 * CPU needs nothing more from it, so the boot CPU may start the next.
 */
void tsc_sync_source(unsigned cpu);
void tsc_sync_target(void);
u64 tsc_cycles_to_ns(u64 cycles);
u64 tsc_ns_to_cycles(u64 ns);
u64 ns_since_boot(void);
/* Busy-waits; usable before interrupts work. */
void tsc_delay_us(u64 us);

#endif
