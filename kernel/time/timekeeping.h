/*
 * timekeeping.h - the system's clocks: CLOCK_REALTIME, MONOTONIC,
 * MONOTONIC_RAW, BOOTTIME and the coarse variants, kept by the tick's
 * machine-wide duty (kernel/time/tick.c) from the chosen clocksource and published to user mode in
 * the vvar page (kernel/vdso/vvar.h).
 *
 * MONOTONIC starts at ns_since_boot() when timekeeping starts, and
 * advances with the clocksource at the rate NTP's state asks
 * (kernel/time/ntp.h, set by adjtimex); MONOTONIC_RAW and BOOTTIME equal
 * MONOTONIC (rewind keeps no unslewed clock, and never suspends).
 * REALTIME starts at the CMOS RTC's time, runs at the same rate, and
 * steps with settimeofday, ADJ_SETOFFSET and leap seconds; CLOCK_TAI is
 * REALTIME plus adjtimex's TAI offset.
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
/* The tick's machine-wide duty (kernel/time/tick.c), one CPU at a time, interrupts off. */
void timekeeping_tick(void);
/* A clock in ns; clock is a VVAR_CLOCK_* id (Linux's numbering); -1ull for other ids. */
u64 timekeeping_read_ns(int clock);
/* Sets CLOCK_REALTIME. */
void timekeeping_set_realtime(u64 ns);
/* Steps CLOCK_REALTIME by delta_ns (adjtimex's ADJ_SETOFFSET); -EINVAL if it would go before boot. */
long timekeeping_inject_offset(s64 delta_ns);
struct kernel_timex;
/* adjtimex's modes applied to the NTP state (kernel/time/ntp.h) under the clocks' lock. */
int timekeeping_adjtimex(struct kernel_timex *tx);
/* REALTIME minus MONOTONIC, ns: turns a wall-clock deadline into a monotonic one. */
s64 timekeeping_realtime_offset_ns(void);
/* The coarse clocks' resolution: one tick. */
u64 timekeeping_tick_ns(void);
/*
 * The longest the clocks may go without timekeeping_tick and still count
 * every cycle of their counter: how long every CPU may idle without a tick.
 */
u64 timekeeping_max_idle_ns(void);
/* settimeofday's timezone, which gettimeofday reports back. */
void timekeeping_get_tz(int *minuteswest, int *dsttime);
void timekeeping_set_tz(int minuteswest, int dsttime);
/* The name of the clocksource the clocks run on now. */
const char *timekeeping_clocksource_name(void);

#endif
