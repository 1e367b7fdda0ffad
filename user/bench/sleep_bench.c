/*
 * sleep_bench.c - how long a short sleep really takes: nanosleep for 50 us,
 * 200 us and 1 ms, each timed with CLOCK_MONOTONIC, reported as the median
 * and the 90th percentile of the time asleep, in microseconds.
 *
 * With timer interrupts at ticks only (rewind's highres=0, or a Linux
 * without high-resolution timers) a sleep ends at the first tick after its
 * deadline, so every figure is about one tick (1 ms at hz=1000); with
 * high-resolution events it ends just after the deadline. The simulated
 * I/O waits of repair_storm and the POSIX timers of stress-ng are sleeps
 * of this kind.
 */
#include "lib/bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int
compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Sleeps n times for us microseconds; the median and 90th percentile of the time asleep. */
static void
measure(long us, int n)
{
	double *asleep = malloc(n * sizeof(*asleep));
	struct timespec req = { us / 1000000, us % 1000000 * 1000 };
	char metric[64];

	for (int i = 0; i < n; i++) {
		double t0 = bench_now_ns();
		nanosleep(&req, NULL);
		asleep[i] = (bench_now_ns() - t0) / 1000;
	}
	qsort(asleep, n, sizeof(*asleep), compare_doubles);
	bench_metric_name(metric, sizeof(metric), "nanosleep_%ldus_asleep", us);
	bench_result(metric, asleep[n / 2], "us");
	bench_metric_name(metric, sizeof(metric), "nanosleep_%ldus_asleep_p90", us);
	bench_result(metric, asleep[n * 9 / 10], "us");
	free(asleep);
}

static const struct bench_help help = {
	.name = "sleep",
	.about = "How long nanosleep of 50 us, 200 us and 1 ms really takes (CLOCK_MONOTONIC):\n"
		 "median and 90th percentile in us.",
	.synopsis = "",
	.options = "",
};

int
main(int argc, char **argv)
{
	static const long sleeps_us[] = { 50, 200, 1000 };

	bench_init(argc, argv, &help);
	for (unsigned i = 0; i < sizeof(sleeps_us) / sizeof(sleeps_us[0]); i++)
		measure(sleeps_us[i], bench_quick() ? 20 : 200);
	return 0;
}
