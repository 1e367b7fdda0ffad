/*
 * tsc.h - the time-stamp counter: its calibrated rate and time since boot.
 *
 * The rate comes from CPUID (leaf 0x15/0x16, or the hypervisor's TSC leaf
 * 0x40000010) when the CPU states it, else from counting TSC cycles across
 * a 10 ms PIT interval. Conversions use a fixed-point multiplier, as
 * Linux's clocksource mult/shift does.
 */
#ifndef REWIND_TSC_H
#define REWIND_TSC_H

#include "kernel/types.h"

extern u64 tsc_hz;		/* 0 until calibrated */
extern u64 tsc_at_boot;		/* TSC at the 32-bit entry */
extern const char *tsc_source;	/* how tsc_hz was found */

void tsc_calibrate(void);
u64 tsc_cycles_to_ns(u64 cycles);
u64 tsc_ns_to_cycles(u64 ns);
u64 ns_since_boot(void);
/* Busy-waits; usable before interrupts work. */
void tsc_delay_us(u64 us);

#endif
