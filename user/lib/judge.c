/*
 * judge.c - intervals and verdicts of per-repeat ratios (judge.h).
 *
 * The verdict is judged on the whole interval, never on one median: the
 * direction holds only when the interval lies on the seed's side of 1; it is
 * "inconclusive" when the interval straddles 1 and "no (wrong direction)"
 * only when it lies wholly on the other side. The magnitude holds when the
 * effect log(ratio) at some point of the interval is within the tolerance
 * factor of the seed's log(seed): +17 % with tolerance 2 asks for about +8 %
 * to +37 %, 11x for about 3.4x to 128x. "same" asks the interval to lie
 * within the tolerance factor of 1.
 */
#include "judge.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define RESAMPLES 2000
#define LEVEL	  0.95
#define DRAW_SEED 23 /* any fixed seed: the same figures give the same report */

static int
compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double
median_of(double *v, int n)
{
	qsort(v, n, sizeof(*v), compare_doubles);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* xorshift64*: a small generator whose stream depends on nothing but its seed. */
static uint64_t
next_draw(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 0x2545f4914f6cdd1dull;
}

/* The 95 % percentile bootstrap of the median of values[n], into *low and *high. */
static void
bootstrap(const double *values, int n, double *low, double *high)
{
	double *draws = malloc(RESAMPLES * sizeof(*draws)), *sample = malloc(n * sizeof(*sample));
	uint64_t state = DRAW_SEED;
	double cut = (1 - LEVEL) / 2;

	if (!draws || !sample) { /* no room to resample: the range, which is wider */
		free(draws);
		free(sample);
		*low = *high = values[0];
		for (int i = 1; i < n; i++)
			*low = fmin(*low, values[i]), *high = fmax(*high, values[i]);
		return;
	}
	for (int d = 0; d < RESAMPLES; d++) {
		for (int k = 0; k < n; k++)
			sample[k] = values[(next_draw(&state) >> 11) % (uint64_t)n];
		draws[d] = median_of(sample, n);
	}
	qsort(draws, RESAMPLES, sizeof(*draws), compare_doubles);
	*low = draws[(int)(cut * (RESAMPLES - 1))];
	*high = draws[(int)((1 - cut) * (RESAMPLES - 1))];
	free(draws);
	free(sample);
}

struct interval
interval_of(double *values, int n)
{
	struct interval i = { .n = n };

	if (n == 0)
		return i;
	i.value = median_of(values, n); /* sorts: values[0] and values[n-1] are the range */
	i.low = values[0];
	i.high = values[n - 1];
	if (n >= JUDGE_BOOTSTRAP_FROM) {
		i.bootstrap = true;
		bootstrap(values, n, &i.low, &i.high);
		i.low = fmin(i.low, i.value);
		i.high = fmax(i.high, i.value);
	}
	return i;
}

static bool
above(const struct interval *i, double bound)
{
	return i->low > bound;
}

static bool
below(const struct interval *i, double bound)
{
	return i->high < bound;
}

static bool
within(const struct interval *i, double low, double high)
{
	return low <= i->low && i->high <= high;
}

const char *
ratio_verdict(const struct interval *i, const char *expect, double seed, double tolerance)
{
	if (i->n == 0)
		return "not measured";
	if (!strcmp(expect, "same")) {
		if (within(i, 1 / tolerance, tolerance))
			return "yes";
		if (below(i, 1 / tolerance) || above(i, tolerance))
			return "no (not about 1)";
		return "inconclusive (interval reaches past the tolerance)";
	}
	bool higher = !strcmp(expect, "higher");
	if (higher ? below(i, 1) : above(i, 1))
		return "no (wrong direction)";
	if (!(higher ? above(i, 1) : below(i, 1)))
		return "inconclusive (interval straddles 1)";
	double a = log(i->low) / log(seed), b = log(i->high) / log(seed);
	if (fmax(a, b) < 1 / tolerance)
		return "direction only (smaller effect)";
	if (fmin(a, b) > tolerance)
		return "direction only (larger effect)";
	return "yes";
}

enum control_state
control_state(const struct interval *i, double at_least, double at_most)
{
	if (i->n == 0)
		return CONTROL_NOT_MEASURED;
	if (within(i, at_least, at_most))
		return CONTROL_HOLDS;
	if (above(i, at_most) || below(i, at_least))
		return CONTROL_FAILS;
	return CONTROL_UNSETTLED;
}

const char *
control_state_name(enum control_state s)
{
	static const char *const names[] = { "holds", "fails", "unsettled", "not measured" };
	return names[s];
}
