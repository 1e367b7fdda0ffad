/*
 * loadavg.h - the load average of /proc/loadavg and sysinfo, as Linux
 * computes it (kernel/sched/loadavg.c): every LOAD_FREQ the number of
 * active tasks is folded into three exponentially decaying averages, of
 * about 1, 5 and 15 minutes, in 11-bit fixed point.
 */
#ifndef REWIND_LOADAVG_H
#define REWIND_LOADAVG_H

#include "kernel/lib/types.h"

#define FSHIFT	11 /* bits of fraction */
#define FIXED_1 (1ul << FSHIFT)
/* e^(-5 s / 1, 5 and 15 min) in fixed point: the weight the old average keeps per sample. */
#define EXP_1  1884
#define EXP_5  2014
#define EXP_15 2037

/* Fixed-point x's integer part and two decimals (x already rounded by the caller). */
#define LOAD_INT(x)  ((x) >> FSHIFT)
#define LOAD_FRAC(x) LOAD_INT(((x) & (FIXED_1 - 1)) * 100)

/*
 * One step: load moves toward active (both fixed point) by 1 - exp,
 * rounding up while the load rises so that a constant load is reached
 * rather than approached forever from below (Linux's calc_load).
 */
static inline u64
calc_load(u64 load, u64 exp, u64 active)
{
	u64 next = load * exp + active * (FIXED_1 - exp);

	if (active >= load)
		next += FIXED_1 - 1;
	return next / FIXED_1;
}

/*
 * The tick's machine-wide duty (kernel/time/tick.c): takes a sample when
 * LOAD_FREQ has passed, after decaying the averages once for each sample
 * missed while every CPU idled without a tick (nothing ran then).
 */
void loadavg_tick(void);
/* The three averages now, fixed point. */
void loadavg_get(u64 avg[3]);

#endif
