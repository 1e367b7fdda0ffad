/*
 * timekeeping.h - the system's clocks: CLOCK_REALTIME, MONOTONIC,
 * MONOTONIC_RAW, BOOTTIME and the coarse variants, kept by the boot CPU's
 * timer tick from the chosen clocksource and published to user mode in
 * the vvar page (kernel/vdso/vvar.h).
 *
 * MONOTONIC starts at ns_since_boot() when timekeeping starts, and with
 * the TSC as clocksource advances with it; MONOTONIC_RAW and BOOTTIME equal
 * MONOTONIC (rewind never steers the rate, and never suspends).
 * REALTIME starts at the CMOS RTC's time and moves with settimeofday.
 *
 * The clocksource knob (`clocksource=tsc|hpet|acpi_pm|kvm-clock`, run
 * time) is looked at on every tick: a change switches source at that tick,
 * after the time so far has been counted with the old one.
 */
#ifndef REWIND_TIMEKEEPING_H
#define REWIND_TIMEKEEPING_H

#include "kernel/lib/types.h"

/* Boot CPU, once the clocksources are registered: picks one, reads the RTC. */
void timekeeping_init(void);
/* The boot CPU's timer tick (interrupts off). */
void timekeeping_tick(void);
/* A clock in ns; clock is a VVAR_CLOCK_* id (Linux's numbering); -1ull for other ids. */
u64 timekeeping_read_ns(int clock);
/* Sets CLOCK_REALTIME. */
void timekeeping_set_realtime(u64 ns);
/* REALTIME minus MONOTONIC, ns: turns a wall-clock deadline into a monotonic one. */
s64 timekeeping_realtime_offset_ns(void);
/* The coarse clocks' resolution: one tick. */
u64 timekeeping_tick_ns(void);
/* settimeofday's timezone, which gettimeofday reports back. */
void timekeeping_get_tz(int *minuteswest, int *dsttime);
void timekeeping_set_tz(int minuteswest, int dsttime);
/* The name of the clocksource the clocks run on now. */
const char *timekeeping_clocksource_name(void);

#endif
