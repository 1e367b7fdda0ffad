/*
 * figure.h - a measured figure written for a person: %.4g would write
 * 123456 ns as 1.235e+05 and 0.00002 as 2e-05, so figures of 1000 and more
 * are whole numbers and tiny ones decimals, as tools/reprolib/numbers.py
 * writes them on the host. For the benchmarks' lines (lib/bench.c) and the
 * stick's report (bin/experiment.c); @result lines, read by programs, keep
 * their own form.
 */
#ifndef USER_FIGURE_H
#define USER_FIGURE_H

#include <stddef.h>

void readable_figure(char *out, size_t size, double value);

#endif
