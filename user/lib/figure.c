/*
 * figure.c - a measured figure written for a person (figure.h).
 */
#include "lib/figure.h"

#include <stdio.h>

void
readable_figure(char *out, size_t size, double value)
{
	if (value >= 1e3 || value <= -1e3)
		snprintf(out, size, "%.0f", value);
	else if (value != 0 && value < 1e-4 && value > -1e-4)
		snprintf(out, size, "%.8f", value);
	else
		snprintf(out, size, "%.4g", value);
}
