/*
 * experiment - runs the registered experiments inside one boot and prints
 * their report, for a machine with no host beside it to read the console
 * (a USB stick on a laptop, the GRUB menu's experiment entries).
 *
 *	experiment [--quick] [--then-shell] NAME...|all
 *
 * Each experiment's plan was made at build time from experiments/NAME.toml
 * by tools/onboard-plans, with tools/reproduce's own planner: the script
 * /etc/experiments/NAME.sh runs every benchmark under every knob variant,
 * interleaved and repeated, switching the knobs at run time with the
 * shell's `knob` builtin; NAME.plan names each step's variant and lists the
 * seed ratios. On a second kernel build (the stick's PARAVIRT=n kernel,
 * say: uname -v names it) the plan is NAME@BUILD's, whose steps are the
 * build's own variant, so that its figures pair with the default kernel's
 * boot by repeat (tools/reproduce --from-console combines the two serial
 * logs; the table shows the one side it has of such a ratio).
 * This program runs the script, passes its output through
 * (the raw @result lines reach the serial port as on a host run), keeps
 * the figures, and at the end prints the report: per group of figures an
 * @result line with the median, per ratio an @ratio line, and last, so
 * that it stays on the screen, a summary table: our ratio (median over
 * median) with its per-repeat range beside the seed's, and whether the
 * regression reproduced, judged as tools/reprolib/ratios.py judges it, all
 * under the ground the figures stand on (TCG, KVM or bare metal). Before
 * the table it asks the screen console for as many text rows as the table
 * needs (the fbcon_rows knob: the font is scaled down if it must be), so
 * that the whole table stays on the screen of a machine without a serial
 * port; the serial port gets every line anyway.
 *
 * --then-shell: after the report, a shell on the console instead of the
 * end of the run (init would power off, and the report would vanish from
 * the screen). Exit status: 0 when every step ended with status 0.
 *
 * Not for: the host-side statistics and plots (tools/reproduce).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernel/x86/ground.h"
#include "lib/bench.h"

#define PLAN_DIR      "/etc/experiments"
#define DEFAULT_BUILD "default" /* kernel/sys_info.h's name for the default kernel */
#define SCREEN_ROWS   "/proc/sys/rewind/fbcon_rows"
#define TABLE_WIDTH   100 /* the widest line of the table */
#define MAX_NAME      128
#define MAX_LINE      4096
#define MAX_REPEATS   64

struct step {
	int number, repeat;
	char variant[MAX_NAME], params[MAX_NAME], bench[MAX_NAME];
	int status; /* -1: never ended */
};

struct ref { /* "[BENCH:]METRIC[@VARIANT]"; empty bench or variant: any */
	char bench[MAX_NAME], metric[MAX_NAME], variant[MAX_NAME];
};

struct ratio {
	struct ref num, den;
	double seed, tolerance;
	char expect[16], name[MAX_NAME], seed_text[MAX_NAME];
};

struct figure {
	const struct step *step;
	char bench[MAX_NAME], metric[MAX_NAME], unit[32];
	double value;
};

struct experiment {
	char name[MAX_NAME], title[MAX_NAME], build[MAX_NAME];
	bool quick;
	int repeats;
	struct step *steps;
	int nsteps;
	struct ratio *ratios;
	int nratios;
	struct figure *figures;
	int nfigures;
	int failed_steps;
};

static void *
grow(void *array, int count, size_t size)
{
	if (count & (count - 1))
		return array; /* room left: capacity doubles at powers of two */
	void *bigger = realloc(array, (count ? 2 * count : 1) * size);
	if (!bigger) {
		perror("experiment");
		exit(2);
	}
	return bigger;
}

/* src into dst[size], cut short if it must be (names here are short). */
static void
copy_text(char *dst, size_t size, const char *src)
{
	size_t n = strnlen(src, size - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* A plan field: "-" stands for the empty text. */
static void
copy_field(char *dst, const char *src)
{
	copy_text(dst, MAX_NAME, strcmp(src, "-") ? src : "");
}

static void
parse_ref(struct ref *r, const char *text)
{
	char buf[MAX_NAME * 3], *at, *colon;

	copy_text(buf, sizeof(buf), text);
	at = strchr(buf, '@');
	if (at)
		*at++ = '\0';
	colon = strrchr(buf, ':');
	if (colon)
		*colon++ = '\0';
	copy_field(r->variant, at ? at : "");
	copy_field(r->bench, colon ? buf : "");
	copy_field(r->metric, colon ? colon : buf);
}

/* Splits a plan line at tabs; returns the number of fields. */
static int
split_tabs(char *line, char **field, int max)
{
	int n = 0;

	line[strcspn(line, "\n")] = '\0';
	while (n < max) {
		field[n++] = line;
		line = strchr(line, '\t');
		if (!line)
			break;
		*line++ = '\0';
	}
	return n;
}

/* PLAN_DIR/NAME[@BUILD][.quick].EXT, as tools/onboard-plans names them. */
static void
plan_path(char *path, size_t size, const char *name, const char *build, bool quick, const char *ext)
{
	bool other = strcmp(build, DEFAULT_BUILD) != 0;

	snprintf(path, size, PLAN_DIR "/%.*s%s%.*s%s.%s", MAX_NAME, name, other ? "@" : "",
		 MAX_NAME, other ? build : "", quick ? ".quick" : "", ext);
}

static bool
load_plan(struct experiment *e, const char *name, const char *build, bool quick)
{
	char path[2 * MAX_NAME + 64], line[MAX_LINE], *f[8];
	FILE *in;

	plan_path(path, sizeof(path), name, build, quick, "plan");
	in = fopen(path, "r");
	if (!in) {
		fprintf(stderr, "experiment: no plan for '%s' on kernel build %s (%s: %s)\n", name,
			build, path, strerror(errno));
		return false;
	}
	memset(e, 0, sizeof(*e));
	e->quick = quick;
	while (fgets(line, sizeof(line), in)) {
		int n = split_tabs(line, f, 8);

		if (n == 5 && !strcmp(f[0], "experiment")) {
			copy_field(e->name, f[1]);
			copy_field(e->title, f[2]);
			e->repeats = atoi(f[3]);
			copy_field(e->build, f[4]);
		} else if (n == 6 && !strcmp(f[0], "step")) {
			e->steps = grow(e->steps, e->nsteps, sizeof(*e->steps));
			struct step *s = &e->steps[e->nsteps++];
			s->number = atoi(f[1]);
			s->repeat = atoi(f[2]);
			copy_field(s->variant, f[3]);
			copy_field(s->params, f[4]);
			copy_field(s->bench, f[5]);
			s->status = -1;
		} else if (n == 8 && !strcmp(f[0], "ratio")) {
			e->ratios = grow(e->ratios, e->nratios, sizeof(*e->ratios));
			struct ratio *r = &e->ratios[e->nratios++];
			parse_ref(&r->num, f[1]);
			parse_ref(&r->den, f[2]);
			r->seed = atof(f[3]);
			copy_text(r->expect, sizeof(r->expect), f[4]);
			r->tolerance = atof(f[5]);
			copy_field(r->name, f[6]);
			copy_field(r->seed_text, f[7]);
		} else {
			fprintf(stderr, "experiment: %s: a line of an unknown form\n", path);
		}
	}
	fclose(in);
	return e->name[0] != '\0';
}

static struct step *
find_step(struct experiment *e, int number)
{
	for (int i = 0; i < e->nsteps; i++)
		if (e->steps[i].number == number)
			return &e->steps[i];
	return NULL;
}

/* Copies the JSON string after key (which ends with the opening quote). */
static bool
json_string(const char *line, const char *key, char *out, size_t size)
{
	const char *p = strstr(line, key);

	if (!p)
		return false;
	p += strlen(key);
	size_t n = strcspn(p, "\"");
	if (p[n] != '"' || n >= size)
		return false;
	memcpy(out, p, n);
	out[n] = '\0';
	return true;
}

/* An @result line of the open step (DESIGN.md 1.5's exact form); others are passed by. */
static void
take_result(struct experiment *e, const struct step *open, const char *line)
{
	const char *r = strstr(line, "@result {"), *v;
	struct figure f = { .step = open };
	char *end;

	if (!r || !open)
		return;
	if (!json_string(r, "{\"bench\":\"", f.bench, sizeof(f.bench)) ||
	    !json_string(r, "},\"metric\":\"", f.metric, sizeof(f.metric)) ||
	    !json_string(r, ",\"unit\":\"", f.unit, sizeof(f.unit)) ||
	    !(v = strstr(r, ",\"value\":")))
		return;
	f.value = strtod(v + strlen(",\"value\":"), &end);
	if (end == v + strlen(",\"value\":") || !isfinite(f.value))
		return;
	e->figures = grow(e->figures, e->nfigures, sizeof(*e->figures));
	e->figures[e->nfigures++] = f;
}

static void
progress(const struct experiment *e, const struct step *s)
{
	int index = (int)(s - e->steps) + 1;

	printf("experiment %s: step %d of %d, %s %s%s%s, repeat %d of %d\n", e->name, index,
	       e->nsteps, s->bench, s->variant, s->params[0] ? " " : "", s->params, s->repeat,
	       e->repeats);
}

/* Reads the script's output line by line: passes it on, follows the step markers. */
static void
follow(struct experiment *e, FILE *out)
{
	char line[MAX_LINE];
	struct step *open = NULL;
	const char *m;
	int n, status;

	while (fgets(line, sizeof(line), out)) {
		fputs(line, stdout);
		fflush(stdout);
		if ((m = strstr(line, "@repro-step ")) && sscanf(m, "@repro-step %d", &n) == 1) {
			open = find_step(e, n);
			if (open)
				progress(e, open);
		} else if ((m = strstr(line, "@repro-end ")) &&
			   sscanf(m, "@repro-end %d %d", &n, &status) == 2) {
			struct step *s = find_step(e, n);
			if (s)
				s->status = status;
			open = NULL;
		} else {
			take_result(e, open, line);
		}
	}
}

static int
run_script(struct experiment *e)
{
	char path[2 * MAX_NAME + 64];
	int fds[2], status;
	pid_t pid;

	plan_path(path, sizeof(path), e->name, e->build, e->quick, "sh");
	if (pipe(fds) < 0 || (pid = fork()) < 0) {
		perror("experiment");
		return -1;
	}
	if (pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		close(fds[0]);
		close(fds[1]);
		execl("/bin/sh", "sh", path, (char *)NULL);
		perror("experiment: /bin/sh");
		_exit(127);
	}
	close(fds[1]);
	FILE *out = fdopen(fds[0], "r");
	follow(e, out);
	fclose(out);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	for (int i = 0; i < e->nsteps; i++)
		e->failed_steps += e->steps[i].status != 0;
	return 0;
}

/* ---- statistics: tools/reprolib/summary.py and ratios.py, for one boot ---- */

static int
compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double
median(double *v, int n)
{
	qsort(v, n, sizeof(*v), compare_doubles);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* "variant" or "variant params": the label of a step's group. */
static void
label_of(const struct step *s, char *out, size_t size)
{
	snprintf(out, size, "%s%s%s", s->variant, s->params[0] ? " " : "", s->params);
}

/*
 * Does figure f belong to ref, and to the group of pair label `pair`? A
 * ref without a variant pairs numerator and denominator within each
 * variant (and sweep value); with one, across them (only params must agree).
 */
static bool
matches(const struct figure *f, const struct ref *ref, const char *pair)
{
	char label[2 * MAX_NAME + 2];

	if (strcmp(f->metric, ref->metric) || (ref->bench[0] && strcmp(f->bench, ref->bench)))
		return false;
	if (ref->variant[0] && strcmp(f->step->variant, ref->variant))
		return false;
	if (ref->variant[0])
		snprintf(label, sizeof(label), "*%s", f->step->params);
	else
		label_of(f->step, label, sizeof(label));
	return !pair || !strcmp(label, pair);
}

static void
pair_label(const struct figure *f, const struct ref *ref, char *out, size_t size)
{
	if (ref->variant[0])
		snprintf(out, size, "*%s", f->step->params);
	else
		label_of(f->step, out, size);
}

/*
 * The median of ref's figures in group pair; per_repeat[r] the median of
 * those of repeat r (NAN: none), since a step may print a metric more than
 * once and a repeat is one measurement (ratios.py's _by_repeat).
 */
static int
collect(const struct experiment *e, const struct ref *ref, const char *pair, double *med,
	double *per_repeat)
{
	double *values = malloc((e->nfigures + 1) * sizeof(*values));
	int n = 0;

	for (int r = 0; r < MAX_REPEATS; r++) {
		int in_repeat = 0;
		for (int i = 0; i < e->nfigures; i++) {
			const struct figure *f = &e->figures[i];
			if (f->step->repeat == r && matches(f, ref, pair))
				values[in_repeat++] = f->value;
		}
		per_repeat[r] = in_repeat ? median(values, in_repeat) : NAN;
	}
	for (int i = 0; i < e->nfigures; i++)
		if (matches(&e->figures[i], ref, pair))
			values[n++] = e->figures[i].value;
	*med = n ? median(values, n) : NAN;
	free(values);
	return n;
}

static const char *
verdict(const struct ratio *r, double ours)
{
	if (!(ours > 0))
		return "not measured";
	if (!strcmp(r->expect, "same"))
		return 1 / r->tolerance <= ours && ours <= r->tolerance ? "yes"
									: "no (not about 1)";
	if ((ours > 1) != !strcmp(r->expect, "higher") || ours == 1)
		return "no (wrong direction)";
	double effect = log(ours) / log(r->seed);
	if (1 / r->tolerance <= effect && effect <= r->tolerance)
		return "yes";
	return effect > 1 ? "direction only (larger effect)" : "direction only (smaller effect)";
}

struct ratio_row {
	char label[2 * MAX_NAME + 2];
	double ours, low, high;
	const char *verdict;
};

/* Emits one row per pair label that has both figures (ratios.py's rows()). */
static int
ratio_rows(const struct experiment *e, const struct ratio *r, struct ratio_row *rows, int max)
{
	char pair[2 * MAX_NAME + 2], den_pair[2 * MAX_NAME + 2];
	double num_rep[MAX_REPEATS], den_rep[MAX_REPEATS], num_med, den_med;
	int n = 0;

	for (int i = 0; i < e->nfigures && n < max; i++) {
		const struct figure *f = &e->figures[i];
		bool seen = false;

		if (!matches(f, &r->num, NULL))
			continue;
		pair_label(f, &r->num, pair, sizeof(pair));
		for (int k = 0; k < n; k++)
			seen |= !strcmp(rows[k].label, pair);
		if (seen)
			continue;
		/* The denominator's group of the same pair: its own label form, same params. */
		if (r->den.variant[0])
			snprintf(den_pair, sizeof(den_pair), "*%s", f->step->params);
		else
			label_of(f->step, den_pair, sizeof(den_pair));
		if (!collect(e, &r->den, den_pair, &den_med, den_rep) || !(den_med != 0))
			continue;
		collect(e, &r->num, pair, &num_med, num_rep);
		struct ratio_row *row = &rows[n++];
		copy_text(row->label, sizeof(row->label), pair);
		row->ours = num_med / den_med;
		row->low = INFINITY;
		row->high = -INFINITY;
		for (int k = 0; k < MAX_REPEATS; k++) {
			if (isnan(num_rep[k]) || isnan(den_rep[k]) || den_rep[k] == 0)
				continue;
			row->low = fmin(row->low, num_rep[k] / den_rep[k]);
			row->high = fmax(row->high, num_rep[k] / den_rep[k]);
		}
		row->verdict = verdict(r, row->ours);
	}
	return n;
}

/* ---- the report ---------------------------------------------------------- */

/* One @result line per group (bench, variant, params, metric): its median. */
static void
print_medians(const struct experiment *e)
{
	for (int i = 0; i < e->nfigures; i++) {
		const struct figure *f = &e->figures[i];
		char label[2 * MAX_NAME + 2];
		double values_med, per_repeat[MAX_REPEATS];
		struct ref ref;
		bool first = true;

		label_of(f->step, label, sizeof(label));
		for (int k = 0; k < i && first; k++) {
			const struct figure *g = &e->figures[k];
			first = strcmp(g->metric, f->metric) || strcmp(g->bench, f->bench) ||
				strcmp(g->step->variant, f->step->variant) ||
				strcmp(g->step->params, f->step->params);
		}
		if (!first)
			continue;
		copy_text(ref.bench, sizeof(ref.bench), f->bench);
		copy_text(ref.metric, sizeof(ref.metric), f->metric);
		ref.variant[0] = '\0';
		int n = collect(e, &ref, label, &values_med, per_repeat);
		printf("@result {\"bench\":\"%s\",\"variant\":{\"experiment\":\"%s\",\"variant\":\"%s\","
		       "\"params\":\"%s\",\"stat\":\"median\",\"n\":\"%d\"},\"metric\":\"%s\","
		       "\"value\":%.6g,\"unit\":\"%s\"}\n",
		       f->bench, e->name, f->step->variant, f->step->params, n, f->metric,
		       values_med, f->unit);
	}
}

static void
print_ratio_lines(const struct experiment *e, const struct ground *g)
{
	struct ratio_row rows[16];

	for (int i = 0; i < e->nratios; i++) {
		const struct ratio *r = &e->ratios[i];
		int n = ratio_rows(e, r, rows, 16);

		if (n == 0)
			printf("@ratio {\"experiment\":\"%s\",\"name\":\"%s\",\"ground\":\"%s\","
			       "\"seed\":%g,\"verdict\":\"not measured\"}\n",
			       e->name, r->name, g->name, r->seed);
		for (int k = 0; k < n; k++)
			printf("@ratio {\"experiment\":\"%s\",\"name\":\"%s\",\"label\":\"%s\","
			       "\"ground\":\"%s\",\"ours\":%.4g,\"low\":%.4g,\"high\":%.4g,"
			       "\"seed\":%g,\"verdict\":\"%s\"}\n",
			       e->name, r->name,
			       rows[k].label[0] == '*' ? rows[k].label + 1 : rows[k].label, g->name,
			       rows[k].ours, rows[k].low, rows[k].high, r->seed, rows[k].verdict);
	}
}

/*
 * A ratio with one side's figures only: the other side is a second kernel
 * build's variant, measured in that kernel's boot. Shows the median this
 * boot has ("nopv 464 us"), for dividing by hand; tools/reproduce
 * --from-console pairs the two boots' figures by repeat.
 */
static bool
one_side(const struct experiment *e, const struct ratio *r, char *out, size_t size)
{
	const struct ref *sides[2] = { &r->num, &r->den };
	double med, per_repeat[MAX_REPEATS];

	for (int i = 0; i < 2; i++) {
		const struct ref *ref = sides[i];
		if (!ref->variant[0] || !collect(e, ref, NULL, &med, per_repeat))
			continue;
		for (int k = 0; k < e->nfigures; k++)
			if (matches(&e->figures[k], ref, NULL)) {
				snprintf(out, size, "%.8s %.4g %.8s", ref->variant, med,
					 e->figures[k].unit);
				return true;
			}
	}
	return false;
}

/* The experiment's line: name, how it went, and as much of its title as fits. */
static void
print_heading(FILE *out, const struct experiment *e)
{
	char line[320], failed[64] = "every step ended well";

	if (e->failed_steps)
		snprintf(failed, sizeof(failed), "%d STEPS FAILED (see above)", e->failed_steps);
	snprintf(line, sizeof(line), "-- %.32s%s%.16s: %d repeat%s, %d steps, %s -- %.100s",
		 e->name, strcmp(e->build, DEFAULT_BUILD) ? " on " : "",
		 strcmp(e->build, DEFAULT_BUILD) ? e->build : "", e->repeats,
		 e->repeats == 1 ? "" : "s", e->nsteps, failed, e->title);
	fprintf(out, "%.*s\n", TABLE_WIDTH, line);
}

/* One experiment's rows of the table a person reads off the screen: at most 100 columns. */
static void
print_table(FILE *out, const struct experiment *e)
{
	struct ratio_row rows[16];
	char name[2 * MAX_NAME + 8], range[64];

	print_heading(out, e);
	for (int i = 0; i < e->nratios; i++) {
		const struct ratio *r = &e->ratios[i];
		int n = ratio_rows(e, r, rows, 16);

		if (n == 0 && one_side(e, r, range, sizeof(range)))
			fprintf(out, "   %-50.50s %8s %-17.17s %7.3g  %s\n", r->name, "-", range,
				r->seed, "other boot");
		else if (n == 0)
			fprintf(out, "   %-50.50s %8s %-17s %7.3g  %s\n", r->name, "-", "", r->seed,
				"not measured here");
		for (int k = 0; k < n; k++) {
			const char *label =
				rows[k].label[0] == '*' ? rows[k].label + 1 : rows[k].label;
			if (!strcmp(label, "default"))
				label = ""; /* the only variant: naming it says nothing */
			snprintf(name, sizeof(name), "%.*s%s%.*s%s", MAX_NAME, r->name,
				 label[0] ? " [" : "", MAX_NAME, label, label[0] ? "]" : "");
			snprintf(range, sizeof(range), "(%.3g-%.3g)", rows[k].low, rows[k].high);
			fprintf(out, "   %-50.50s %8.3g %-17s %7.3g  %s\n", name, rows[k].ours,
				isfinite(rows[k].low) ? range : "", r->seed, rows[k].verdict);
		}
	}
}

static void
print_machine(FILE *out, const struct ground *g)
{
	char line[256], model[128] = "unknown CPU", build[MAX_NAME], revision[MAX_NAME] = "?";
	FILE *f = fopen("/proc/cpuinfo", "r");

	while (f && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');
		if (!strncmp(line, "model name", 10) && colon) {
			copy_text(model, sizeof(model), colon + 2);
			model[strcspn(model, "\n")] = '\0';
			break;
		}
	}
	if (f)
		fclose(f);
	bench_kernel_revision(revision, sizeof(revision));
	bench_kernel_build(build, sizeof(build));
	fprintf(out, "ground: %s%s%s%s - the figures measure %s\n", g->name,
		g->signature[0] ? " (cpuid '" : "", g->signature, g->signature[0] ? "')" : "",
		g->what);
	fprintf(out, "machine: %.60s, %ld CPUs, rewind %s, kernel build %s\n", model,
		sysconf(_SC_NPROCESSORS_ONLN), revision, build);
}

/* The summary table, into a buffer: its rows are counted before it is shown. */
static char *
summary_table(const struct experiment *list, int n, const struct ground *g, size_t *len)
{
	char *text = NULL;
	FILE *out = open_memstream(&text, len);

	if (!out) {
		perror("experiment");
		exit(2);
	}
	fprintf(out, "==== rewind experiment report ====\n");
	print_machine(out, g);
	fprintf(out, "   %-50s %8s %-17s %7s  %s\n", "ratio", "ours", "(per repeat)", "seed",
		"reproduced");
	for (int i = 0; i < n; i++)
		print_table(out, &list[i]);
	fprintf(out,
		"(ours = median / median over the repeats; \"reproduced\" as tools/reproduce"
		" judges it; ground: %s)\n@report-end\n",
		g->name);
	fclose(out);
	return text;
}

/*
 * Asks the screen console for rows text rows (never fewer than it keeps
 * now): it scales its font down where it must (drivers/fbcon.c). No such
 * file (VGA text, another kernel): the table scrolls as it will.
 */
static void
make_room(int rows)
{
	char now[32] = "";
	FILE *f = fopen(SCREEN_ROWS, "r+");

	if (!f)
		return;
	if (fgets(now, sizeof(now), f) && atoi(now) < rows) {
		rewind(f);
		fprintf(f, "%d\n", rows);
	}
	fclose(f);
}

/* The lines that follow the table on the screen: then_shell's two and the prompt. */
#define SHELL_TAIL_ROWS 3

static void
report(struct experiment *list, int n, bool shell)
{
	struct ground g = ground_detect();
	size_t len;
	int rows = shell ? SHELL_TAIL_ROWS : 0;

	printf("\n@report-begin\n");
	for (int i = 0; i < n; i++)
		print_medians(&list[i]);
	for (int i = 0; i < n; i++)
		print_ratio_lines(&list[i], &g);
	char *table = summary_table(list, n, &g, &len);
	for (size_t i = 0; i < len; i++)
		rows += table[i] == '\n';
	printf("\n");
	fflush(stdout);
	make_room(rows);
	fwrite(table, 1, len, stdout);
	fflush(stdout);
	free(table);
}

/* A shell on the console for the person in front of the screen; does not return. */
static void
then_shell(void)
{
	printf("\nThe report is above; it also went to the serial port. A shell follows "
	       "(`poweroff` switches off).\n");
	fflush(stdout);
	if (setsid() < 0 || ioctl(STDIN_FILENO, TIOCSCTTY, 0) < 0)
		fprintf(stderr, "experiment: no controlling terminal for the shell: %s\n",
			strerror(errno));
	execl("/bin/sh", "sh", (char *)NULL);
	perror("experiment: /bin/sh");
	exit(127);
}

static int
usage(void)
{
	fprintf(stderr,
		"usage: experiment [--quick] [--then-shell] NAME...|all\n"
		"  the experiments are the files " PLAN_DIR
		"/NAME.plan (NAME@BUILD.plan on a\n"
		"  second kernel build: uname -v names the build)\n");
	return 2;
}

static int
compare_names(const void *a, const void *b)
{
	return strcmp(a, b);
}

/*
 * "all": every experiment with a plan for this kernel build (NAME.plan, or
 * NAME@BUILD.plan on a second build; not the .quick ones), in name order.
 */
static int
all_names(char names[][MAX_NAME], int max, const char *build)
{
	DIR *d = opendir(PLAN_DIR);
	struct dirent *de;
	char suffix[MAX_NAME + 8];
	int n = 0;

	snprintf(suffix, sizeof(suffix), "%s%.*s.plan", strcmp(build, DEFAULT_BUILD) ? "@" : "",
		 MAX_NAME, strcmp(build, DEFAULT_BUILD) ? build : "");
	while (d && n < max && (de = readdir(d))) {
		size_t len = strlen(de->d_name), cut = len - strlen(suffix);
		if (len > strlen(suffix) && len < MAX_NAME && !strcmp(de->d_name + cut, suffix) &&
		    !memchr(de->d_name, '@', cut) && !memchr(de->d_name, '.', cut)) {
			copy_text(names[n], cut + 1, de->d_name);
			n++;
		}
	}
	if (d)
		closedir(d);
	qsort(names, n, MAX_NAME, compare_names);
	return n;
}

int
main(int argc, char **argv)
{
	bool quick = false, shell = false;
	char names[16][MAX_NAME], build[MAX_NAME];
	struct experiment list[16];
	int n = 0, failed = 0;

	bench_kernel_build(build, sizeof(build));
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--quick"))
			quick = true;
		else if (!strcmp(argv[i], "--then-shell"))
			shell = true;
		else if (!strcmp(argv[i], "all"))
			n += all_names(names + n, 16 - n, build);
		else if (argv[i][0] == '-' || n == 16)
			return usage();
		else
			copy_text(names[n++], MAX_NAME, argv[i]);
	}
	if (n == 0) {
		fprintf(stderr, "experiment: no experiments to run on kernel build %s\n", build);
		return usage();
	}
	for (int i = 0; i < n; i++)
		if (!load_plan(&list[i], names[i], build, quick))
			return 2;
	struct ground g = ground_detect();
	printf("experiment: %d experiment%s on %s, kernel build %s%s\n", n, n == 1 ? "" : "s",
	       g.name, build, quick ? ", quick runs" : "");
	for (int i = 0; i < n; i++) {
		printf("experiment %s: %s, %d steps\n", list[i].name, list[i].title,
		       list[i].nsteps);
		printf("@experiment {\"experiment\":\"%s\",\"build\":\"%s\",\"quick\":%s,"
		       "\"repeats\":%d,\"steps\":%d}\n",
		       list[i].name, list[i].build, quick ? "true" : "false", list[i].repeats,
		       list[i].nsteps);
		fflush(stdout);
		if (run_script(&list[i]) < 0)
			return 2;
		failed += list[i].failed_steps;
	}
	report(list, n, shell);
	if (shell)
		then_shell();
	return failed ? 1 : 0;
}
