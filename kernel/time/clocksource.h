/*
 * clocksource.h - free-running hardware counters the clocks are read from.
 *
 * A clocksource is a counter of some width (mask) ticking at a known rate,
 * with a read operation, a rating (higher is better), and the fixed-point
 * factors that turn a number of its cycles into nanoseconds:
 * ns = (cycles * mult) >> shift, as Linux's clocksources do. The drivers
 * (kernel/time/tsc.c, drivers/hpet.c, drivers/acpi_pm.c, drivers/kvmclock.c)
 * register what the machine has; the timekeeping core (kernel/time/timekeeping.c)
 * runs on one of them. Not here: which one is in use, and the clocks.
 */
#ifndef REWIND_CLOCKSOURCE_H
#define REWIND_CLOCKSOURCE_H

#include "kernel/lib/types.h"
#include "kernel/time/time64.h"

/* Longest stretch between two readings the conversion must survive (Linux's cap too). */
#define CLOCKSOURCE_MAX_SEC 600

/* Ratings, as Linux 3.x gave them: the best usable one runs the clocks. */
enum {
	RATING_KVMCLOCK = 400,
	RATING_TSC = 300,
	RATING_HPET = 250,
	RATING_ACPI_PM = 200,
	RATING_UNSTABLE = 0,
};

struct clocksource {
	const char *name;
	u64 (*read)(void);
	u64 mask; /* the counter's width: deltas are taken modulo mask + 1 */
	u64 hz;
	int rating;
	int vclock_mode; /* enum vclock_mode (kernel/vdso/vvar.h): how user mode reads it */
	u32 mult, shift; /* set by clocksource_register() */
	bool unstable;	 /* found unreliable: never chosen again */
};

/*
 * mult and shift converting from_hz cycles into to_hz units with the most
 * precision that still keeps max_cycles * mult below 2^63 (one spare bit,
 * so that a shifted remainder can be added without overflow).
 */
void clocks_calc_mult_shift(u32 *mult, u32 *shift, u64 from_hz, u64 to_hz, u64 max_cycles);

/* Computes cs's mult/shift, adds it to the list and prints its line. */
void clocksource_register(struct clocksource *cs);
/* The usable clocksource with the highest rating, or NULL. */
struct clocksource *clocksource_best(void);
/* A registered, usable clocksource by name, or NULL. */
struct clocksource *clocksource_find(const char *name);
/* Lowers its rating so that the timekeeping core moves off it at the next tick. */
void clocksource_mark_unstable(struct clocksource *cs, const char *why);
/* The usable ones' names, "tsc, hpet" (for warnings). */
void clocksource_list_usable(char *buf, size_t size);

/*
 * Cycles from last to now on a counter of width mask. A delta in the top
 * half of the range is a read that fell a little behind `last` (another
 * CPU's TSC, not quite in step): it counts as none, so time never runs
 * backwards. The consequence: the counter must be sampled more often than
 * every half wrap (2.3 s for a 24-bit PM timer; the tick does that).
 */
static inline u64
clocksource_delta(u64 now, u64 last, u64 mask)
{
	u64 delta = (now - last) & mask;

	return delta > mask >> 1 ? 0 : delta;
}

static inline u64
clocksource_cyc2ns(u64 cycles, u32 mult, u32 shift)
{
	return (cycles * mult) >> shift;
}

/* The largest delta the conversion must handle: a wrap, or CLOCKSOURCE_MAX_SEC. */
static inline u64
clocksource_max_cycles(u64 hz, u64 mask)
{
	u64 cap = hz * CLOCKSOURCE_MAX_SEC;

	return mask < cap ? mask : cap;
}

#endif
