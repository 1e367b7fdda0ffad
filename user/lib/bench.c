/*
 * bench.c - see bench.h.
 */
#include "lib/bench.h"
#include "lib/figure.h"
#include "lib/procfile.h"
#include "kernel/x86/ground.h"

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#define BATCH_TARGET_NS 1e6 /* about 1 ms per batch */

static const char *bench;
static double seconds_per_metric = 0.5;
static int quick, repeats;
static char variant[2048];
/*
 * The knobs bench_set_knob has switched, each with the value it had
 * before: put back at exit and on the signals that end a run from the
 * terminal or a supervisor, so that a benchmark stopped by ^C leaves the
 * machine's policies as it found them for whatever runs next.
 */
static struct varied_knob {
	char name[64];
	char path[96];
	char line[130]; /* the value at the start, with its newline, ready to write */
	int len;
} varied[8];
static int nvaried;
static pid_t knob_owner; /* forked children inherit the handlers but do not restore */
static const int restoring_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

double
bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int
bench_on_rewind(void)
{
	struct utsname u;

	return uname(&u) == 0 && strcmp(u.sysname, "rewind") == 0;
}

/*
 * Whether a knob belongs in the variant: it is not at its default (the
 * "# default:" line of its file), or this benchmark switches it, so that its
 * figures say which side they are. Text knobs (run=, init=: "# type: text")
 * name what runs, not a policy, and are left out.
 */
static int
knob_in_variant(const char *name, const char *value, const char *file_text)
{
	char def[128], type[16];

	for (int i = 0; i < nvaried; i++)
		if (strcmp(varied[i].name, name) == 0)
			return 1;
	if (field_str(file_text, "# type", type, sizeof(type)) == 0 && strcmp(type, "text") == 0)
		return 0;
	/* Without a default to compare with, say what is in force. */
	return field_str(file_text, "# default", def, sizeof(def)) != 0 || strcmp(def, value) != 0;
}

/* Appends "name":"value" for every knob of /proc/sys/rewind/ that knob_in_variant keeps. */
static void
append_knobs(char *out, size_t size)
{
	DIR *d = opendir("/proc/sys/rewind");
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char path[300], text[2048], value[128];
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/sys/rewind/%s", e->d_name);
		if (read_text_file(path, text, sizeof(text)) < 0)
			continue;
		snprintf(value, sizeof(value), "%.*s", (int)strcspn(text, "\n\"\\"), text);
		if (!knob_in_variant(e->d_name, value, text))
			continue;
		size_t n = strlen(out);
		snprintf(out + n, size - n, ",\"%s\":\"%s\"", e->d_name, value);
	}
	closedir(d);
}

/* The hypervisor's CPUID signature ("TCGTCGTCGTCG", "KVMKVMKVM"), or "none" on bare metal. */
static void
hypervisor_name(char out[13])
{
	struct ground g = ground_detect();

	strcpy(out, g.signature[0] ? g.signature : "none");
}

/* On rewind the last word of uname's version ("#1 SMP nopv", kernel/sys_info.h). */
void
bench_kernel_build(char *out, size_t size)
{
	struct utsname u;
	const char *word;

	if (uname(&u) != 0) {
		snprintf(out, size, "unknown");
		return;
	}
	word = strrchr(u.version, ' ');
	if (strcmp(u.sysname, "rewind") == 0 && word)
		snprintf(out, size, "%s", word + 1);
	else
		snprintf(out, size, "%s", u.sysname);
	for (char *p = out; *p; p++)
		*p = isalnum((unsigned char)*p) ? tolower((unsigned char)*p) : '_';
}

/*
 * Where the figures come from (docs/grounds.md, "Measurement rules"): one
 * @meta line per run with the CPU the guest sees, the hypervisor under it,
 * the CPU count, the TSC rate and the kernel build, beside the kernel and
 * release that every variant carries.
 */
static void
print_meta(void)
{
	static char cpuinfo[16384];
	char model[96] = "unknown", hypervisor[13], build[65];
	double mhz = 0;
	const char *f;

	if (read_text_file("/proc/cpuinfo", cpuinfo, sizeof(cpuinfo)) > 0) {
		if (field_str(cpuinfo, "model name", model, sizeof(model)) == 0)
			model[strcspn(model, "\"\\")] = '\0';
		if ((f = find_field(cpuinfo, "cpu MHz")))
			mhz = atof(f);
	}
	hypervisor_name(hypervisor);
	bench_kernel_build(build, sizeof(build));
	printf("@meta {\"bench\":\"%s\",\"cpu\":\"%s\",\"hypervisor\":\"%s\",\"cpus\":%ld,"
	       "\"tsc_mhz\":%.3f,\"build\":\"%s\"}\n",
	       bench, model, hypervisor, sysconf(_SC_NPROCESSORS_ONLN), mhz, build);
}

/* The release is the same for every rewind kernel, so the revision is what tells them apart. */
bool
bench_kernel_revision(char *out, size_t size)
{
	struct utsname u;

	if (uname(&u) != 0 || strcmp(u.sysname, "rewind") != 0)
		return false;
	const char *end = strrchr(u.version, ' ');
	const char *start = end;
	if (!end)
		return false;
	while (start > u.version && start[-1] != ' ')
		start--;
	snprintf(out, size, "%.*s", (int)(end - start), start);
	return start > u.version;
}

static void
build_variant(void)
{
	struct utsname u;
	char revision[65];

	if (uname(&u) != 0)
		strcpy(u.sysname, "unknown");
	snprintf(variant, sizeof(variant), "{\"os\":\"%s\",\"release\":\"%s\"", u.sysname,
		 u.release);
	if (bench_kernel_revision(revision, sizeof(revision)))
		snprintf(variant + strlen(variant), sizeof(variant) - strlen(variant),
			 ",\"revision\":\"%s\"", revision);
	append_knobs(variant, sizeof(variant) - 1);
	strcat(variant, "}");
}

/* Async-signal-safe: only open, write and close, on text prepared beforehand. */
static void
restore_knobs(void)
{
	if (getpid() != knob_owner)
		return;
	for (int i = 0; i < nvaried; i++) {
		int fd = open(varied[i].path, O_WRONLY);

		if (fd < 0)
			continue;
		/* A refused old value leaves nothing more to try from a handler. */
		(void)!write(fd, varied[i].line, varied[i].len);
		close(fd);
	}
}

/* SA_RESETHAND: the signal raised again ends the process as it would have. */
static void
restore_knobs_and_die(int sig)
{
	restore_knobs();
	raise(sig);
}

static void
arm_restore(void)
{
	struct sigaction sa = { .sa_handler = restore_knobs_and_die, .sa_flags = SA_RESETHAND };

	knob_owner = getpid();
	atexit(restore_knobs);
	for (size_t i = 0; i < sizeof(restoring_signals) / sizeof(restoring_signals[0]); i++) {
		struct sigaction old;

		/* A signal ignored by whoever started us (nohup) stays ignored. */
		if (sigaction(restoring_signals[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
			sigaction(restoring_signals[i], &sa, NULL);
	}
}

/* The slot of a knob already switched, or a new one holding its value now; NULL if none. */
static struct varied_knob *
remember_knob(const char *name, bool *is_new)
{
	struct varied_knob *v;
	char now[sizeof(v->line) - 1];

	*is_new = false;
	for (int i = 0; i < nvaried; i++)
		if (strcmp(varied[i].name, name) == 0)
			return &varied[i];
	if (nvaried == (int)(sizeof(varied) / sizeof(varied[0])) ||
	    knob_read(name, now, sizeof(now)) != 0)
		return NULL;
	if (!knob_owner)
		arm_restore();
	v = &varied[nvaried];
	snprintf(v->name, sizeof(v->name), "%s", name);
	snprintf(v->path, sizeof(v->path), "/proc/sys/rewind/%s", name);
	v->len = snprintf(v->line, sizeof(v->line), "%s\n", now);
	*is_new = true;
	nvaried++; /* only now may a signal handler see it */
	return v;
}

int
bench_set_knob(const char *name, const char *value)
{
	char now[128];
	bool is_new;

	if (!remember_knob(name, &is_new))
		return -1;
	/* A refused value leaves the old one: check what is in force now. */
	if (knob_write(name, value) != 0 || knob_read(name, now, sizeof(now)) != 0 ||
	    strcmp(now, value) != 0) {
		if (is_new)
			nvaried--;
		return -1;
	}
	build_variant();
	return 0;
}

#define COMMON_SYNOPSIS "[-q] [-t SECONDS] [-r REPEATS]"
#define COMMON_OPTIONS                                                                              \
	"  -q          quick: 0.05 s per metric (and smaller sizes where the benchmark has them)\n" \
	"  -t SECONDS  seconds per metric (default 0.5)\n"                                          \
	"  -r REPEATS  repeats of the whole set, variants interleaved within each\n"                \
	"              (benchmarks that switch variants themselves; others ignore it)\n"
#define USUAL_EXITS                                                                            \
	"  0  the figures were printed\n"                                                      \
	"  1  a measurement failed (a system call or a child went wrong: stderr says which)\n" \
	"  2  bad usage\n"

static const char *
program_name(const char *argv0)
{
	const char *slash = strrchr(argv0, '/');

	return slash ? slash + 1 : argv0;
}

static void
print_usage(FILE *f, const char *argv0, const struct bench_help *help, bool common)
{
	fprintf(f, "usage: %s %s%s%s\n", program_name(argv0), common ? COMMON_SYNOPSIS : "",
		common && help->synopsis[0] ? " " : "", help->synopsis);
}

void
bench_answer_help(int argc, char **argv, const struct bench_help *help, bool common)
{
	if (argc < 2 || strcmp(argv[1], "--help") != 0)
		return;
	print_usage(stdout, argv[0], help, common);
	printf("\n%s\n\noptions:\n%s%s\nexit status:\n%s", help->about,
	       common ? COMMON_OPTIONS : "", help->options,
	       help->exits ? help->exits : USUAL_EXITS);
	printf("\nEach figure is an @result line on stdout (bench \"%s\"; docs/userspace.md).\n",
	       help->name);
	exit(0);
}

void
bench_init_opts(int argc, char **argv, const struct bench_help *help, const char *more_opts,
		int (*opt)(int c, const char *arg))
{
	char opts[64];
	int c;

	bench_answer_help(argc, argv, help, true);
	bench = help->name;
	snprintf(opts, sizeof(opts), "qt:r:%s", more_opts);
	while ((c = getopt(argc, argv, opts)) != -1) {
		if (c == 'q') {
			quick = 1;
			seconds_per_metric = 0.05;
		} else if (c == 't' && atof(optarg) > 0) {
			seconds_per_metric = atof(optarg);
		} else if (c == 'r' && atoi(optarg) > 0) {
			repeats = atoi(optarg);
		} else if (c == '?' || !strchr(more_opts, c) || opt(c, optarg) != 0) {
			print_usage(stderr, argv[0], help, true);
			exit(2);
		}
	}
	build_variant();
	print_meta();
	printf("# %s: %.2f s per metric, variant %s\n", bench, seconds_per_metric, variant);
}

void
bench_init(int argc, char **argv, const struct bench_help *help)
{
	bench_init_opts(argc, argv, help, "", NULL);
}

int
bench_quick(void)
{
	return quick;
}

double
bench_seconds(void)
{
	return seconds_per_metric;
}

int
bench_repeats(int fallback)
{
	return repeats ? repeats : fallback;
}

struct repeat {
	void (*op)(void *);
	void *arg;
};

static double
run_batch(void *p, uint64_t n)
{
	struct repeat *r = p;
	double t0 = bench_now_ns();

	for (uint64_t i = 0; i < n; i++)
		r->op(r->arg);
	return bench_now_ns() - t0;
}

struct bench_stat
bench_measure_timed(double (*op)(void *, uint64_t n), void *arg)
{
	struct bench_stat s = { 0, 1e300, 0 };
	uint64_t n = 1;
	double total = 0, spent;

	op(arg, 1); /* warm up: first-touch faults, caches */
	while ((spent = op(arg, n)) < BATCH_TARGET_NS && n < (1ull << 40))
		n *= 2;
	double deadline = bench_now_ns() + seconds_per_metric * 1e9;
	do {
		total += spent;
		s.ops += n;
		if (spent / n < s.batchmin_ns)
			s.batchmin_ns = spent / n;
		spent = op(arg, n);
	} while (bench_now_ns() < deadline);
	s.mean_ns = total / s.ops;
	return s;
}

struct bench_stat
bench_measure(void (*op)(void *), void *arg)
{
	struct repeat r = { op, arg };

	return bench_measure_timed(run_batch, &r);
}

void
bench_metric_name(char *out, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(out, size, fmt, ap);
	va_end(ap);
	for (char *p = out; *p; p++)
		if (*p == '-')
			*p = '_';
}

void
bench_result(const char *metric, double value, const char *unit)
{
	char figure[64];

	readable_figure(figure, sizeof(figure), value);
	printf("@result {\"bench\":\"%s\",\"variant\":%s,\"metric\":\"%s\",\"value\":%.4g,\"unit\":\"%s\"}\n",
	       bench, variant, metric, value, unit);
	printf("  %-36s %12s %s\n", metric, figure, unit);
	fflush(stdout);
}

void
bench_report(const char *metric, struct bench_stat s, const char *unit)
{
	double scale = strcmp(unit, "us") == 0 ? 1e-3 : 1.0;
	char name[128];

	bench_result(metric, s.mean_ns * scale, unit);
	snprintf(name, sizeof(name), "%s_batchmin", metric);
	bench_result(name, s.batchmin_ns * scale, unit);
}
