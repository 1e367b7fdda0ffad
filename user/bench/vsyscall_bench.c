/*
 * vsyscall_bench.c - docs/seeds.md's seed 001 table: what it costs to ask the time (and
 * the CPU) through the system call, through the vDSO and through the
 * legacy vsyscall page, the latter under every vsyscall= mode.
 *
 * Functions: gettimeofday, clock_gettime(CLOCK_MONOTONIC) (no vsyscall
 * entry exists for it), time and getcpu, plus a dummy system call
 * (getppid) as the floor of any kernel entry and a bare rdtsc as the floor
 * of any clock read in user mode. Metrics are named
 * FUNCTION_ROUTE, and for the vsyscall route FUNCTION_vsyscall_MODE.
 *
 * On rewind each repeat measures the syscall and vDSO routes, then switches
 * /proc/sys/rewind/vsyscall through every mode that can be called (all but
 * none) and measures the page: the variants interleave A, B, C ... A, B,
 * C within one boot (docs/grounds.md, "Measurement rules"); the mode in
 * force at the start is restored at the end. On Linux the page is measured
 * in whatever mode the kernel was booted with (read from /proc/self/maps),
 * if any.
 *
 * At the end: the seed's ratios computed from the fastest batch of each
 * figure (median over repeats), as "ratio_*" results.
 */
#include "lib/bench.h"
#include "lib/clock_routes.h"
#include "lib/procfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#define MAX_REPEATS 64
#define MAX_FIGURES 64

static const char *const rewind_modes[] = {
	"legacy", "trap", "trap-sysret", "native", "emulate", "xonly",
};

/* Every batchmin figure measured, by metric name, for the closing ratios. */
static struct figure {
	char metric[64];
	double batchmin[MAX_REPEATS];
	int n;
} figures[MAX_FIGURES];
static int nfigures;

static void
remember(const char *metric, double batchmin_ns)
{
	struct figure *f = figures;

	while (f < figures + nfigures && strcmp(f->metric, metric) != 0)
		f++;
	if (f == figures + nfigures) {
		if (nfigures == MAX_FIGURES)
			return;
		snprintf(f->metric, sizeof(f->metric), "%s", metric);
		nfigures++;
	}
	if (f->n < MAX_REPEATS)
		f->batchmin[f->n++] = batchmin_ns;
}

static int
compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median fastest-batch figure of a metric over the repeats, or 0 if never measured. */
static double
median_of(const char *metric)
{
	for (struct figure *f = figures; f < figures + nfigures; f++) {
		if (strcmp(f->metric, metric) != 0)
			continue;
		qsort(f->batchmin, (size_t)f->n, sizeof(double), compare_doubles);
		return f->n % 2 ? f->batchmin[f->n / 2]
				: (f->batchmin[f->n / 2 - 1] + f->batchmin[f->n / 2]) / 2;
	}
	return 0;
}

static void
measure(const char *metric, void (*op)(void *), void *fn)
{
	struct bench_stat s = bench_measure(op, fn);

	bench_report(metric, s, "ns");
	remember(metric, s.batchmin_ns);
}

static void
op_gettimeofday(void *fn)
{
	struct timeval tv;

	((gettimeofday_fn)fn)(&tv, NULL);
}

static void
op_clock_monotonic(void *fn)
{
	struct timespec ts;

	((clock_gettime_fn)fn)(CLOCK_MONOTONIC, &ts);
}

static void
op_time(void *fn)
{
	((time_fn)fn)(NULL);
}

static void
op_getcpu(void *fn)
{
	unsigned cpu;

	((getcpu_fn)fn)(&cpu, NULL, NULL);
}

/* The floor of any clock read from user mode: the counter itself (the goal: vDSO within 1.3x). */
static void
op_rdtsc(void *unused)
{
	unsigned lo, hi;

	(void)unused;
	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
}

static void
op_dummy_syscall(void *unused)
{
	long ret;

	(void)unused;
	__asm__ __volatile__("syscall"
			     : "=a"(ret)
			     : "a"((long)SYS_getppid)
			     : "rcx", "r11", "memory");
}

/* One route's functions; suffix names the vsyscall mode ("" for the others). */
static void
measure_route(enum clock_route r, const char *suffix)
{
	struct clock_routes c = clock_routes_get(r);
	const struct {
		const char *name;
		void (*op)(void *);
		void *fn;
	} calls[] = {
		{ "gettimeofday", op_gettimeofday, (void *)c.gettimeofday },
		{ "clock_monotonic", op_clock_monotonic, (void *)c.clock_gettime },
		{ "time", op_time, (void *)c.time },
		{ "getcpu", op_getcpu, (void *)c.getcpu },
	};
	char m[64];

	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		if (!calls[i].fn)
			continue;
		snprintf(m, sizeof(m), "%s_%s%s", calls[i].name, clock_route_name(r), suffix);
		measure(m, calls[i].op, calls[i].fn);
	}
}

static void
measure_vsyscall_modes(void)
{
	char suffix[32];

	if (!bench_on_rewind()) {
		const char *mode = vsyscall_mode_now();
		if (mode) {
			bench_metric_name(suffix, sizeof(suffix), "_%s", mode);
			measure_route(ROUTE_VSYSCALL, suffix);
		}
		return;
	}
	for (size_t i = 0; i < sizeof(rewind_modes) / sizeof(rewind_modes[0]); i++) {
		if (bench_set_knob("vsyscall", rewind_modes[i]) != 0) {
			printf("# vsyscall=%s refused by the kernel: skipped\n", rewind_modes[i]);
			continue;
		}
		bench_metric_name(suffix, sizeof(suffix), "_%s", rewind_modes[i]);
		measure_route(ROUTE_VSYSCALL, suffix);
	}
}

/* A ratio of two medians, as a result, when both were measured. */
static void
report_ratio(const char *name, const char *numerator, const char *denominator, const char *seed)
{
	double a = median_of(numerator), b = median_of(denominator);
	char metric[96];

	if (a <= 0 || b <= 0)
		return;
	bench_metric_name(metric, sizeof(metric), "ratio_%s", name);
	bench_result(metric, a / b, "x");
	printf("  %-36s   seed 001: %s\n", "", seed);
}

static void
report_ratios(void)
{
	printf("# ratios of the median fastest batches (seed 001 beside them)\n");
	report_ratio("gettimeofday_trap_over_vdso", "gettimeofday_vsyscall_trap",
		     "gettimeofday_vdso", "237.44 / 20.95 = 11.3");
	report_ratio("gettimeofday_syscall_over_vdso", "gettimeofday_syscall", "gettimeofday_vdso",
		     "70.75 / 20.95 = 3.4");
	report_ratio("gettimeofday_trap_sysret_over_trap", "gettimeofday_vsyscall_trap_sysret",
		     "gettimeofday_vsyscall_trap", "157 / 237 = 0.66");
	report_ratio("gettimeofday_legacy_over_vdso", "gettimeofday_vsyscall_legacy",
		     "gettimeofday_vdso", "about 1 (2.6.39: the page was the vDSO's code)");
	report_ratio("gettimeofday_emulate_over_trap", "gettimeofday_vsyscall_emulate",
		     "gettimeofday_vsyscall_trap", "(3.1's #PF emulation vs 3.0's int 0xcc)");
	report_ratio("time_trap_over_vdso", "time_vsyscall_trap", "time_vdso",
		     "207.35 / 1.75 = 118");
	report_ratio("getcpu_trap_over_vdso", "getcpu_vsyscall_trap", "getcpu_vdso",
		     "214.27 / 12.42 = 17");
	report_ratio("clock_monotonic_vdso_over_rdtsc", "clock_monotonic_vdso", "rdtsc",
		     "(the goal: at most 1.3)");
	report_ratio("dummy_syscall_over_clock_monotonic_vdso", "dummy_syscall",
		     "clock_monotonic_vdso", "33.5 / 16.2 = 2.1");
}

static const struct bench_help help = {
	.name = "vsyscall",
	.about = "The time and the CPU through the system call, the vDSO and the vsyscall page\n"
		 "under every vsyscall= mode (seed 001), in ns, and the seed's ratios.",
	.synopsis = "",
	.options = "",
};

int
main(int argc, char **argv)
{
	char mode_at_start[64] = "";
	int repeats;

	bench_init(argc, argv, &help);
	repeats = bench_repeats(bench_quick() ? 1 : 3);
	if (repeats > MAX_REPEATS)
		repeats = MAX_REPEATS;
	knob_read("vsyscall", mode_at_start, sizeof(mode_at_start));
	if (!clock_routes_get(ROUTE_VDSO).gettimeofday)
		printf("# no vDSO (AT_SYSINFO_EHDR missing): vdso figures skipped\n");
	for (int rep = 0; rep < repeats; rep++) {
		printf("# repeat %d of %d\n", rep + 1, repeats);
		measure_route(ROUTE_SYSCALL, "");
		measure_route(ROUTE_VDSO, "");
		measure("dummy_syscall", op_dummy_syscall, NULL);
		measure("rdtsc", op_rdtsc, NULL);
		measure_vsyscall_modes();
	}
	if (mode_at_start[0] && bench_set_knob("vsyscall", mode_at_start) != 0)
		printf("# could not restore vsyscall=%s\n", mode_at_start);
	report_ratios();
	return 0;
}
