/*
 * test_judge.c - the in-boot runner's verdicts on the host: user/lib/judge.c's
 * intervals, verdicts and control states, and user/bin/experiment.c's
 * judging of an experiment's figures - per-repeat ratios, repeats dropped and
 * counted, controls voiding the verdicts they guard - on figures built by
 * hand, as tests/tools/test_reproduce.py checks tools/reprolib's.
 */
#include "tests/unit/unit.h"

#define main experiment_main /* the runner's own main is not this program's */
#include "user/bin/experiment.c"
#undef main
#include "user/lib/experiment_judge.c"
#include "user/lib/figure.c"
#include "user/lib/judge.c"

/* The runner asks which kernel build and revision it is on; here there is none. */
void
bench_kernel_build(char *out, size_t size)
{
	snprintf(out, size, "%s", DEFAULT_BUILD);
}

bool
bench_kernel_revision(char *out, size_t size)
{
	snprintf(out, size, "?");
	return false;
}

static struct interval
interval_of3(double a, double b, double c)
{
	double v[] = { a, b, c };
	return interval_of(v, 3);
}

/* The stick's report and the benchmarks' lines are read by people: no 1.235e+05. */
UNIT_TEST(figures_for_people_are_never_in_scientific_notation)
{
	char s[32];

	readable_figure(s, sizeof(s), 123456.4);
	CHECK_STR(s, "123456");
	readable_figure(s, sizeof(s), 218.94);
	CHECK_STR(s, "218.9");
	readable_figure(s, sizeof(s), 0.00002);
	CHECK_STR(s, "0.00002000");
	readable_figure(s, sizeof(s), 999.97);
	CHECK_STR(s, "1000");
	readable_figure(s, sizeof(s), 0);
	CHECK_STR(s, "0");
}

UNIT_TEST(few_repeats_give_their_range)
{
	struct interval i = interval_of3(1.2, 0.9, 1.0);

	CHECK(i.value == 1.0 && i.low == 0.9 && i.high == 1.2 && i.n == 3 && !i.bootstrap);
	CHECK(interval_of(NULL, 0).n == 0);
}

UNIT_TEST(many_repeats_give_a_reproducible_bootstrap_inside_the_range)
{
	double v[12], w[12];

	for (int k = 0; k < 12; k++)
		v[k] = w[k] = 2.0 + (k % 5) * 0.1 + (k == 7 ? 3.0 : 0.0);
	struct interval a = interval_of(v, 12), b = interval_of(w, 12);
	CHECK(a.bootstrap && a.n == 12);
	CHECK(a.low == b.low && a.high == b.high); /* a fixed seed */
	CHECK(2.0 <= a.low && a.low <= a.value && a.value <= a.high && a.high < 5.0);
}

UNIT_TEST(verdicts_judge_the_whole_interval)
{
	struct interval i;

	i = interval_of3(0.9, 1.1, 1.2);
	CHECK_STR(ratio_verdict(&i, "higher", 2, 2), "inconclusive (interval straddles 1)");
	i = interval_of3(0.5, 0.6, 0.7);
	CHECK_STR(ratio_verdict(&i, "higher", 2, 2), "no (wrong direction)");
	CHECK_STR(ratio_verdict(&i, "lower", 0.5, 2), "yes");
	i = interval_of3(1.9, 2.0, 2.2);
	CHECK_STR(ratio_verdict(&i, "higher", 2, 2), "yes");
	i = interval_of3(1.01, 1.02, 1.03);
	CHECK_STR(ratio_verdict(&i, "higher", 4.4, 2), "direction only (smaller effect)");
	i = interval_of3(100, 120, 150);
	CHECK_STR(ratio_verdict(&i, "higher", 1.17, 2), "direction only (larger effect)");
	i = interval_of3(0.98, 1.0, 1.03);
	CHECK_STR(ratio_verdict(&i, "same", 1, 1.1), "yes");
	i = interval_of3(0.98, 1.0, 1.3);
	CHECK_STR(ratio_verdict(&i, "same", 1, 1.1),
		  "inconclusive (interval reaches past the tolerance)");
	i = interval_of(NULL, 0);
	CHECK_STR(ratio_verdict(&i, "higher", 2, 2), "not measured");
}

UNIT_TEST(control_states)
{
	struct interval i = interval_of3(1.0, 1.2, 1.5), none = interval_of(NULL, 0);

	CHECK_EQ(control_state(&i, 0, 2.0), CONTROL_HOLDS);
	CHECK_EQ(control_state(&i, 0, 0.8), CONTROL_FAILS);
	CHECK_EQ(control_state(&i, 1.1, INFINITY), CONTROL_UNSETTLED);
	CHECK_EQ(control_state(&none, 0, 2.0), CONTROL_NOT_MEASURED);
}

/*
 * tests/judge_cases.txt, which tools/reprolib is held to as well
 * (tests/tools/test_judge_cases.py): one table, so the two judges agree.
 * Read from the top of the tree, where make runs the unit tests.
 */
#define JUDGE_CASES "tests/judge_cases.txt"

static char *
trimmed(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	char *end = s + strlen(s);
	while (end > s && strchr(" \t\n", end[-1]))
		*--end = 0;
	return s;
}

/* The verdict or state of one row's head words and values. */
static const char *
judge_case(const char *head, char *values)
{
	double v[32];
	int n = 0;
	char *end;

	for (double x = strtod(values, &end); end != values && n < 32; x = strtod(values, &end)) {
		v[n++] = x;
		values = end;
	}
	struct interval i = interval_of(v, n);
	char kind[16], expect[16];
	double a, b, c;
	if (sscanf(head, "ratio %15s %lf %lf", expect, &a, &b) == 3)
		return ratio_verdict(&i, expect, a, b);
	if (sscanf(head, "%15s %lf %lf", kind, &a, &c) == 3 && !strcmp(kind, "control"))
		return control_state_name(control_state(&i, a, c));
	return "(a row this test cannot read)";
}

UNIT_TEST(every_row_of_the_shared_table_is_judged_as_written)
{
	FILE *f = fopen(JUDGE_CASES, "r");
	char line[512];
	int rows = 0, number = 0;

	CHECK(f != NULL);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		number++;
		char *head = line, *values = strchr(line, '|'), *want;
		if (line[0] == '#' || !values || !(want = strchr(values + 1, '|')))
			continue;
		*values++ = 0;
		*want++ = 0;
		const char *got = judge_case(head, values);
		if (strcmp(got, trimmed(want)))
			printf("    %s:%d: \"%s\", table says \"%s\"\n", JUDGE_CASES, number, got,
			       trimmed(want));
		CHECK(!strcmp(got, trimmed(want)));
		rows++;
	}
	fclose(f);
	CHECK(rows > 20);
}

/* ---- an experiment's figures, built by hand ---- */

static void
add_step(struct experiment *e, int repeat, const char *variant, const char *params, int status)
{
	e->steps = grow(e->steps, e->nsteps, sizeof(*e->steps));
	struct step *s = &e->steps[e->nsteps];
	memset(s, 0, sizeof(*s));
	s->number = ++e->nsteps;
	s->repeat = repeat;
	s->status = status;
	strcpy(s->variant, variant);
	strcpy(s->params, params);
	strcpy(s->bench, "bench");
}

/* A figure of step number (every step added first: figures point at them). */
static void
add_figure(struct experiment *e, int number, const char *metric, double value)
{
	e->figures = grow(e->figures, e->nfigures, sizeof(*e->figures));
	struct figure *f = &e->figures[e->nfigures++];
	memset(f, 0, sizeof(*f));
	f->step = &e->steps[number - 1];
	strcpy(f->bench, "bench");
	strcpy(f->metric, metric);
	strcpy(f->unit, "ms");
	f->value = value;
}

static void
add_ratio(struct experiment *e, const char *name, const char *num, const char *den,
	  const char *expect, double seed)
{
	e->ratios = grow(e->ratios, e->nratios, sizeof(*e->ratios));
	struct ratio *r = &e->ratios[e->nratios++];
	memset(r, 0, sizeof(*r));
	parse_ref(&r->num, num);
	parse_ref(&r->den, den);
	strcpy(r->name, name);
	strcpy(r->expect, expect);
	r->seed = seed;
	r->tolerance = 2;
}

static void
add_control(struct experiment *e, const char *num, const char *den, double at_most,
	    const char *guarded)
{
	e->controls = grow(e->controls, e->ncontrols, sizeof(*e->controls));
	struct control *c = &e->controls[e->ncontrols++];
	memset(c, 0, sizeof(*c));
	parse_ref(&c->num, num);
	parse_ref(&c->den, den);
	strcpy(c->name, "ctl");
	c->at_most = at_most;
	c->nguards = 1;
	strcpy(c->guards[0], guarded);
}

static void
release(struct experiment *e)
{
	free(e->steps);
	free(e->figures);
	free(e->ratios);
	free(e->controls);
	free(e->rows);
}

static const struct row *
row_of(const struct experiment *e, const char *name, const char *label)
{
	for (int k = 0; k < e->nrows; k++) {
		const struct row *r = &e->rows[k];
		const char *n = r->ratio ? r->ratio->name : r->control->name;
		if (!strcmp(n, name) && !strcmp(shown_label(r), label))
			return r;
	}
	return NULL;
}

/* Three repeats, one step each; figures: num and den per repeat. */
static struct experiment
three_repeats(const double num[3], const double den[3], int failed_repeat)
{
	struct experiment e = { .name = "t", .repeats = 3 };

	for (int r = 1; r <= 3; r++)
		add_step(&e, r, "default", "", r == failed_repeat);
	for (int r = 1; r <= 3; r++) {
		add_figure(&e, r, "num", num[r - 1]);
		add_figure(&e, r, "den", den[r - 1]);
	}
	return e;
}

UNIT_TEST(a_zero_repeat_is_dropped_and_counted_and_the_rest_straddle)
{
	const double num[] = { 1.2, 0.9, 0 }, den[] = { 1, 1, 1 };
	struct experiment e = three_repeats(num, den, 0);

	add_ratio(&e, "r", "num", "den", "higher", 2);
	judge(&e);
	const struct row *r = row_of(&e, "r", "default");
	CHECK(r != NULL);
	if (!r) {
		release(&e);
		return;
	}
	CHECK_EQ(r->est.interval.n, 2);
	CHECK_EQ(r->est.dropped[DROP_ZERO], 1);
	CHECK(r->est.interval.low == 0.9 && r->est.interval.high == 1.2);
	CHECK_STR(r->verdict, "inconclusive (interval straddles 1)");
	release(&e);
}

UNIT_TEST(a_failed_step_drops_its_repeat)
{
	const double num[] = { 2.0, 2.1, 50 }, den[] = { 1, 1, 1 };
	struct experiment e = three_repeats(num, den, 3);

	add_ratio(&e, "r", "num", "den", "higher", 2);
	judge(&e);
	const struct row *r = row_of(&e, "r", "default");
	CHECK(r && r->est.dropped[DROP_FAILED] == 1 && r->est.interval.n == 2);
	CHECK(r && r->est.interval.high < 3); /* the failed repeat's 50 is not in it */
	CHECK_STR(r ? r->verdict : NULL, "yes");
	release(&e);
}

/* Steps of two variants at two CPU counts; ratio a/b per variant, control c/b. */
static struct experiment
two_counts(double control_at_2, double control_at_4)
{
	struct experiment e = { .name = "t", .repeats = 2 };
	const char *params[] = { "CPUS=2", "CPUS=4" };
	double control[] = { control_at_2, control_at_4 };

	for (int r = 1; r <= 2; r++)
		for (int p = 0; p < 2; p++)
			add_step(&e, r, "default", params[p], 0);
	for (int k = 0; k < 4; k++) {
		add_figure(&e, k + 1, "a", 5.0 + k * 0.1);
		add_figure(&e, k + 1, "b", 1.0);
		add_figure(&e, k + 1, "c", control[k % 2]);
	}
	add_ratio(&e, "spin", "a@default", "b@default", "higher", 4.4);
	add_control(&e, "c@default", "b@default", 2.0, "spin");
	judge(&e);
	return e;
}

UNIT_TEST(a_failed_control_voids_the_verdicts_it_guards_and_no_others)
{
	struct experiment e = two_counts(1.0, 126);
	const struct row *at2 = row_of(&e, "spin", "CPUS=2"), *at4 = row_of(&e, "spin", "CPUS=4");

	CHECK(at2 && at4);
	if (!at2 || !at4) {
		release(&e);
		return;
	}
	CHECK_STR(at2->verdict, "yes"); /* its own control holds */
	CHECK_STR(at4->verdict, "void: control \"ctl\" failed (126, 126 - 126; must be <= 2)");
	CHECK_STR(at4->short_verdict, "void (control fails)");
	CHECK_EQ(row_of(&e, "ctl", "CPUS=4")->state, CONTROL_FAILS);
	release(&e);
}

UNIT_TEST(an_unsettled_control_makes_the_verdict_inconclusive)
{
	struct experiment e = two_counts(1.0, 1.0);

	e.figures[2].value = 2.5; /* repeat 1 at CPUS=2: the control reaches past 2 */
	e.nrows = 0;
	judge(&e);
	CHECK_STR(row_of(&e, "spin", "CPUS=2")->verdict, "inconclusive: control \"ctl\" unsettled");
	CHECK_STR(row_of(&e, "spin", "CPUS=4")->verdict, "yes");
	release(&e);
}

UNIT_TEST(an_unmeasured_control_makes_every_verdict_it_guards_inconclusive)
{
	struct experiment e = two_counts(1.0, 1.0);

	strcpy(e.controls[0].num.metric, "nowhere");
	e.nrows = 0;
	judge(&e);
	CHECK_STR(row_of(&e, "spin", "CPUS=4")->verdict,
		  "inconclusive: control \"ctl\" not measured");
	release(&e);
}

UNIT_TEST(sweep_values_are_matched_word_by_word)
{
	CHECK(params_within("CPUS=2", "CPUS=2 threads=8"));
	CHECK(params_within("", "CPUS=2"));
	CHECK(!params_within("CPUS=2", "CPUS=24"));
	CHECK(!params_within("CPUS=4", "CPUS=2"));
}
