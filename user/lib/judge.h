/*
 * judge.h - how far a ratio measured in one boot can be trusted, and whether
 * it reproduces a seed's: the in-boot runner's (user/bin/experiment.c) form
 * of tools/reprolib/intervals.py, ratios.py's verdict and controls.py's
 * states, so that a machine with no host beside it (the USB stick) judges
 * its figures as tools/reproduce does. Both judges are held to the rows of
 * tests/judge_cases.txt (tests/unit/test_judge.c, tests/tools/test_judge_cases.py).
 *
 * A ratio stands on its per-repeat values (one repeat's numerator over the
 * same repeat's denominator), never on one median over another. Its interval:
 * with fewer than JUDGE_BOOTSTRAP_FROM values their whole range, min - max (a
 * verdict must then hold in every repeat); from there on a 95 % percentile
 * bootstrap of the median, drawn from a fixed seed so that the same figures
 * always give the same report. The stream of draws is not Python's, so a
 * bootstrap's ends may differ from tools/reproduce's in the last digits;
 * min - max intervals are the same.
 */
#ifndef USER_JUDGE_H
#define USER_JUDGE_H

#include <stdbool.h>

#define JUDGE_BOOTSTRAP_FROM 8 /* values; fewer: min - max */

struct interval {
	double value; /* the median of the values */
	double low, high;
	int n;		/* the values it stands on; 0: none, nothing measured */
	bool bootstrap; /* false: min - max */
};

/* The median of v[n], n > 0 (v is sorted in place). */
double median_of(double *v, int n);

/* The interval of the median of values[n] (reordered); n == 0 gives n == 0. */
struct interval interval_of(double *values, int n);

/*
 * Whether an interval reproduces a seed ratio. expect is "higher", "lower"
 * or "same"; tolerance the factor the effect may be off by (see judge.c).
 * The texts are tools/reprolib/ratios.py's, word for word.
 */
const char *ratio_verdict(const struct interval *i, const char *expect, double seed,
			  double tolerance);

/* A control's state (tools/reprolib/controls.py): its bounds hold, fail or neither. */
enum control_state { CONTROL_HOLDS, CONTROL_FAILS, CONTROL_UNSETTLED, CONTROL_NOT_MEASURED };

enum control_state control_state(const struct interval *i, double at_least, double at_most);
const char *control_state_name(enum control_state s);

#endif
