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
 * @result line with the median, per ratio and per control an @ratio or
 * @control line, and last, so that it stays on the screen, a summary table:
 * our ratio (the median of the per-repeat ratios) with its interval beside
 * the seed's, whether the regression reproduced, judged on the interval
 * and under the experiment's controls (lib/experiment_judge.h judges as
 * tools/reprolib's ratios.py and controls.py do), the repeats that gave no
 * ratio and why, and each control's state, all under the ground the
 * figures stand on (TCG, KVM or bare metal). Before
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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernel/x86/ground.h"
#include "lib/bench.h"
#include "lib/experiment_judge.h"
#include "lib/figure.h"

#define PLAN_DIR      "/etc/experiments"
#define DEFAULT_BUILD "default" /* kernel/sys_info.h's name for the default kernel */
#define SCREEN_ROWS   "/proc/sys/rewind/fbcon_rows"
#define TABLE_WIDTH   100 /* the widest line of the table */
#define MAX_LINE      4096

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
	char path[2 * MAX_NAME + 64], line[MAX_LINE], *f[6 + MAX_GUARDS];
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
		int n = split_tabs(line, f, 6 + MAX_GUARDS);

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
		} else if (n >= 6 && !strcmp(f[0], "control")) {
			e->controls = grow(e->controls, e->ncontrols, sizeof(*e->controls));
			struct control *c = &e->controls[e->ncontrols++];
			parse_ref(&c->num, f[1]);
			parse_ref(&c->den, f[2]);
			c->at_least = strtod(f[3], NULL);
			c->at_most = strtod(f[4], NULL);
			copy_field(c->name, f[5]);
			c->nguards = n - 6;
			for (int k = 0; k < c->nguards; k++)
				copy_field(c->guards[k], f[6 + k]);
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

/*
 * An @result line of the open step, in its exact form (docs/design.md, "The
 * @result line"); others are passed by.
 */
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

/* ---- the report ---------------------------------------------------------- */

/* One @result line per group (bench, variant, params, metric): its median. */
static void
print_medians(const struct experiment *e)
{
	for (int i = 0; i < e->nfigures; i++) {
		const struct figure *f = &e->figures[i];
		char label[2 * MAX_NAME + 2];
		struct ref ref = { .variant = "" };
		bool first = true;
		int n;

		for (int k = 0; k < i && first; k++) {
			const struct figure *g = &e->figures[k];
			first = strcmp(g->metric, f->metric) || strcmp(g->bench, f->bench) ||
				!same_group(g->step, f->step);
		}
		if (!first)
			continue;
		copy_text(ref.bench, sizeof(ref.bench), f->bench);
		copy_text(ref.metric, sizeof(ref.metric), f->metric);
		label_of(f->step, label, sizeof(label));
		double med = median_of_ref(e, &ref, label, &n);
		printf("@result {\"bench\":\"%s\",\"variant\":{\"experiment\":\"%s\",\"variant\":\"%s\","
		       "\"params\":\"%s\",\"stat\":\"median\",\"n\":\"%d\"},\"metric\":\"%s\","
		       "\"value\":%.6g,\"unit\":\"%s\"}\n",
		       f->bench, e->name, f->step->variant, f->step->params, n, f->metric, med,
		       f->unit);
	}
}

/* A row's label as the report shows it: without the "*" of a pair across variants. */
static const char *
shown_label(const struct row *row)
{
	return row->label[0] == '*' ? row->label + 1 : row->label;
}

/* The JSON fields of a row's estimate: ours, its interval and the repeats it lacks. */
static void
print_estimate_json(const struct row *row)
{
	const struct interval *i = &row->est.interval;

	printf("\"ours\":%.4g,\"low\":%.4g,\"high\":%.4g,\"interval\":\"%s\",\"n\":%d,"
	       "\"dropped\":{",
	       i->value, i->low, i->high, i->bootstrap ? "bootstrap" : "min-max", i->n);
	for (int d = 0, any = 0; d < NDROPS; d++)
		if (row->est.dropped[d])
			printf("%s\"%s\":%d", any++ ? "," : "", drop_names[d], row->est.dropped[d]);
	printf("}");
}

/* @ratio and @control lines: every row with its interval, dropped repeats and verdict. */
static void
print_row_lines(const struct experiment *e, const struct ground *g)
{
	for (int k = 0; k < e->nrows; k++) {
		const struct row *row = &e->rows[k];
		const char *name = row->ratio ? row->ratio->name : row->control->name;

		printf("@%s {\"experiment\":\"%s\",\"name\":\"%s\",",
		       row->ratio ? "ratio" : "control", e->name, name);
		if (row->est.interval.n == 0) {
			printf("\"ground\":\"%s\",\"verdict\":\"not measured\"}\n", g->name);
			continue;
		}
		printf("\"label\":\"%s\",\"ground\":\"%s\",", shown_label(row), g->name);
		print_estimate_json(row);
		if (row->ratio) {
			printf(",\"seed\":%g,\"verdict\":\"", row->ratio->seed);
			for (const char *c = row->verdict; *c; c++) /* a control's name is quoted */
				printf(*c == '"' ? "\\\"" : "%c", *c);
			printf("\"}\n");
		} else {
			char bounds[64];
			bounds_text(row->control, bounds, sizeof(bounds));
			printf(",\"bounds\":\"%s\",\"state\":\"%s\"}\n", bounds,
			       control_state_name(row->state));
		}
	}
}

/*
 * A ratio with one side's figures only: the other side is a second kernel
 * build's variant, measured in that kernel's boot. Shows the median this
 * boot has ("nopv 464 us"), for dividing by hand; tools/reproduce
 * --from-console pairs the two boots' figures by repeat.
 */
static bool
one_side(const struct experiment *e, const struct ref *num, const struct ref *den, char *out,
	 size_t size)
{
	const struct ref *sides[2] = { num, den };
	int n;

	for (int i = 0; i < 2; i++) {
		const struct ref *ref = sides[i];
		double med = median_of_ref(e, ref, NULL, &n);
		if (!ref->variant[0] || !n)
			continue;
		for (int k = 0; k < e->nfigures; k++)
			if (matches(&e->figures[k], ref, NULL)) {
				char figure[32];

				readable_figure(figure, sizeof(figure), med);
				snprintf(out, size, "%.8s %s %.8s", ref->variant, figure,
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

/*
 * One row of the table a person reads off the screen: the name and pair,
 * ours with its interval, the seed (a control: its bounds), the verdict
 * (a control: its state) and the repeats it lacks, if any.
 */
static void
print_table_row(FILE *out, const struct experiment *e, const struct row *row)
{
	const char *name = row->ratio ? row->ratio->name : row->control->name;
	const char *label = shown_label(row);
	const struct interval *i = &row->est.interval;
	char text[2 * MAX_NAME + 16], range[64] = "", seed[64], dropped[64];

	if (!strcmp(label, "default"))
		label = ""; /* the only variant: naming it says nothing */
	snprintf(text, sizeof(text), "%s%.*s%s%.*s%s", row->ratio ? "" : "control: ", MAX_NAME,
		 name, label[0] ? " [" : "", MAX_NAME, label, label[0] ? "]" : "");
	if (row->ratio)
		snprintf(seed, sizeof(seed), "%7.3g", row->ratio->seed);
	else
		bounds_text(row->control, seed, sizeof(seed));
	if (i->n == 0) {
		const struct ref *num = row->ratio ? &row->ratio->num : &row->control->num;
		const struct ref *den = row->ratio ? &row->ratio->den : &row->control->den;
		bool other = one_side(e, num, den, range, sizeof(range));
		fprintf(out, "   %-50.50s %8s %-17.17s %7s  %s\n", text, "-", range, seed,
			other ? "other boot" : "not measured here");
		return;
	}
	snprintf(range, sizeof(range), "(%.3g-%.3g)", i->low, i->high);
	dropped_text(&row->est, dropped, sizeof(dropped));
	fprintf(out, "   %-50.50s %8.3g %-17s %7s  %s%s%s\n", text, i->value, range, seed,
		row->ratio ? row->short_verdict : control_state_name(row->state),
		dropped[0] ? "; repeats dropped: " : "", dropped);
}

/* One experiment's rows of the table: its ratios, then the controls they stand on. */
static void
print_table(FILE *out, const struct experiment *e)
{
	print_heading(out, e);
	for (int k = 0; k < e->nrows; k++)
		if (e->rows[k].ratio)
			print_table_row(out, e, &e->rows[k]);
	for (int k = 0; k < e->nrows; k++)
		if (e->rows[k].control)
			print_table_row(out, e, &e->rows[k]);
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
	fprintf(out, "   %-50s %8s %-17s %7s  %s\n", "ratio", "ours", "(interval)", "seed",
		"reproduced");
	for (int i = 0; i < n; i++)
		print_table(out, &list[i]);
	fprintf(out,
		"(ours = the median of the per-repeat ratios; interval: their min-max under %d"
		" repeats, else a 95 %% bootstrap of the median; judged on the interval and the"
		" controls as tools/reproduce judges; ground: %s)\n@report-end\n",
		JUDGE_BOOTSTRAP_FROM, g->name);
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
		print_row_lines(&list[i], &g);
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
		judge(&list[i]);
		failed += list[i].failed_steps;
	}
	report(list, n, shell);
	if (shell)
		then_shell();
	return failed ? 1 : 0;
}
