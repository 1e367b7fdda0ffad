/*
 * bench.h - timing loops and result lines shared by rewind's benchmarks
 * (user/bench/). The same static binaries run on rewind and on Linux, so
 * that every figure can be put beside Linux's.
 *
 * A measurement runs the operation in batches sized to last about 1 ms
 * and reports two figures per metric: the mean over every batch, and the
 * mean of the fastest batch ("_batchmin"), which is far steadier on a
 * shared, noisy host (docs/design.md, "Linux in the same VM, under TCG").
 *
 * Each figure is printed as one machine-readable line (docs/design.md,
 * "The @result line"):
 *   @result {"bench":"...","variant":{...},"metric":"...","value":N,"unit":"..."}
 * where variant holds the OS, its release and the rewind knobs that matter
 * to the figure: those not at their default (/proc/sys/rewind/<name> says
 * both) and those the benchmark switches with bench_set_knob, whatever
 * their value. So the line stays short enough to read past on a terminal;
 * the figure is also printed as a line of the human table.
 */
#ifndef USER_BENCH_H
#define USER_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bench_stat {
	double mean_ns;	    /* per operation, over all batches */
	double batchmin_ns; /* per operation, fastest batch */
	uint64_t ops;	    /* operations timed */
};

/*
 * What a benchmark says of itself. `name --help` prints it on stdout with
 * the options every benchmark takes and exits 0; a bad option prints the
 * usage line on stderr and exits 2.
 */
struct bench_help {
	const char *name;  /* the "bench" of its @result lines */
	const char *about; /* what it measures and in what unit, a line or a few */
	const char *
		synopsis; /* its own options, as in the usage line: "[-d N] [-n N]" ("" for none) */
	const char *options; /* a "  -d N   meaning" line per own option ("" for none) */
	const char *exits;   /* its exit statuses, or NULL for the usual: 0, 1 failed, 2 usage */
};

/*
 * Command-line options every benchmark takes: -t SECONDS per metric, -q
 * quick (0.05 s), -r N repeats of the whole set (for benchmarks that
 * interleave variants). bench_init_opts also hands the benchmark's own
 * options (more_opts, getopt syntax) to opt(), which returns 0 if the value is good.
 */
void bench_init(int argc, char **argv, const struct bench_help *help);
void bench_init_opts(int argc, char **argv, const struct bench_help *help, const char *more_opts,
		     int (*opt)(int c, const char *arg));
/*
 * If argv[1] is --help: prints help on stdout and exits 0. For a benchmark
 * that parses its options itself (common: whether it takes the common ones).
 */
void bench_answer_help(int argc, char **argv, const struct bench_help *help, bool common);
/* Whether -q was given. */
int bench_quick(void);
/* Seconds per metric: -t's value, 0.05 with -q, else 0.5. */
double bench_seconds(void);
/* The -r value, or fallback when none was given. */
int bench_repeats(int fallback);
/* Runs op(arg) repeatedly for the configured time; returns the per-operation figures. */
struct bench_stat bench_measure(void (*op)(void *), void *arg);
/* Like bench_measure, for operations that time themselves: op runs n operations, returns ns spent. */
struct bench_stat bench_measure_timed(double (*op)(void *, uint64_t n), void *arg);
/* Prints metric (the mean) and metric_batchmin, in the given unit (ns or us). */
void bench_report(const char *metric, struct bench_stat s, const char *unit);
/* Formats a metric name, with '-' (as in knob values like trap-sysret) made '_'. */
void bench_metric_name(char *out, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Prints one figure. */
void bench_result(const char *metric, double value, const char *unit);
double bench_now_ns(void);
/* Whether the kernel is rewind (else Linux or another). */
int bench_on_rewind(void);
/*
 * The kernel build, as a name of [a-z0-9_]: on rewind "default", "nopv" or
 * "pv30" (the Makefile's trees); elsewhere the system's name ("linux").
 */
void bench_kernel_build(char *out, size_t size);
/*
 * rewind's git revision, the word before the build in uname's version
 * ("#1 SMP d888c24 nopv"; the release is the Linux ABI level, 6.1.0):
 * false on another kernel.
 */
bool bench_kernel_revision(char *out, size_t size);
/*
 * Sets a rewind knob at run time (/proc/sys/rewind/NAME) and refreshes the
 * variant every later result carries; -1 if there is no such knob (Linux)
 * or the kernel refused the value. Every knob switched is put back to the
 * value it had before the first switch when the process exits, and when
 * SIGINT, SIGTERM, SIGHUP or SIGQUIT ends it (^C in the middle of a run).
 */
int bench_set_knob(const char *name, const char *value);

#endif
