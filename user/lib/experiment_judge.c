/*
 * experiment_judge.c - an experiment's figures judged into rows
 * (experiment_judge.h); the interval and verdict rules are judge.c's.
 */
#include "lib/experiment_judge.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *
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
void
copy_text(char *dst, size_t size, const char *src)
{
	size_t n = strnlen(src, size - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

const char *const drop_names[NDROPS] = { "failed", "missing", "zero" };

/* "variant" or "variant params": the label of a step's group. */
void
label_of(const struct step *s, char *out, size_t size)
{
	snprintf(out, size, "%s%s%s", s->variant, s->params[0] ? " " : "", s->params);
}

/*
 * The pair label of figure f under ref: numerator and denominator figures
 * pair when theirs agree. A ref without a variant pairs them within each
 * variant (and sweep value); with one, across variants ("*" and the params).
 */
static void
pair_label(const struct figure *f, const struct ref *ref, char *out, size_t size)
{
	if (ref->variant[0])
		snprintf(out, size, "*%s", f->step->params);
	else
		label_of(f->step, out, size);
}

/* Does figure f belong to ref, and (pair not NULL) to the pair labelled pair? */
bool
matches(const struct figure *f, const struct ref *ref, const char *pair)
{
	char label[2 * MAX_NAME + 2];

	if (strcmp(f->metric, ref->metric) || (ref->bench[0] && strcmp(f->bench, ref->bench)))
		return false;
	if (ref->variant[0] && strcmp(f->step->variant, ref->variant))
		return false;
	pair_label(f, ref, label, sizeof(label));
	return !pair || !strcmp(label, pair);
}

bool
same_group(const struct step *a, const struct step *b)
{
	return !strcmp(a->bench, b->bench) && !strcmp(a->variant, b->variant) &&
	       !strcmp(a->params, b->params);
}

/*
 * One side of a ratio in one pair: per repeat the median of its figures
 * (NAN: none; a step may print a metric more than once, and a repeat is one
 * measurement), and the repeats in which the steps that feed it were
 * planned and in which they failed (bit r: repeat r).
 */
struct side {
	double value[MAX_REPEATS];
	uint64_t planned, failed;
	int figures;
};

static void
side_of(const struct experiment *e, const struct ref *ref, const char *pair, struct side *side)
{
	double *values = malloc((e->nfigures + 1) * sizeof(*values));

	if (!values) {
		perror("experiment");
		exit(2);
	}
	memset(side, 0, sizeof(*side));
	for (int r = 0; r < MAX_REPEATS; r++) {
		int n = 0;
		for (int i = 0; i < e->nfigures; i++) {
			const struct figure *f = &e->figures[i];
			if (f->step->repeat == r && matches(f, ref, pair))
				values[n++] = f->value;
		}
		side->value[r] = n ? median_of(values, n) : NAN;
		side->figures += n;
	}
	free(values);
	for (int k = 0; k < e->nsteps; k++) {
		const struct step *s = &e->steps[k];
		bool feeds = false;
		for (int i = 0; i < e->nfigures && !feeds; i++)
			feeds = matches(&e->figures[i], ref, pair) &&
				same_group(e->figures[i].step, s);
		if (!feeds || s->repeat < 0 || s->repeat >= MAX_REPEATS)
			continue;
		side->planned |= 1ull << s->repeat;
		if (s->status != 0)
			side->failed |= 1ull << s->repeat;
	}
}

/* The per-repeat ratios num / den and their interval; each repeat that gave none is counted. */
static struct estimate
estimate(const struct side *num, const struct side *den)
{
	struct estimate est = { 0 };
	double values[MAX_REPEATS];
	int n = 0;

	for (int r = 0; r < MAX_REPEATS; r++) {
		double a = num->value[r], b = den->value[r];
		bool planned = ((num->planned | den->planned) >> r) & 1;

		if (!planned && isnan(a) && isnan(b))
			continue;
		if (((num->failed | den->failed) >> r) & 1)
			est.dropped[DROP_FAILED]++;
		else if (isnan(a) || isnan(b))
			est.dropped[DROP_MISSING]++;
		else if (a <= 0 || b <= 0)
			est.dropped[DROP_ZERO]++;
		else
			values[n++] = a / b;
	}
	est.interval = interval_of(values, n);
	return est;
}

static struct row *
add_row(struct experiment *e)
{
	e->rows = grow(e->rows, e->nrows, sizeof(*e->rows));
	struct row *row = &e->rows[e->nrows++];
	memset(row, 0, sizeof(*row));
	return row;
}

/*
 * The rows of num / den: one per pair label that has both sides' figures
 * (ratios.py's pairs()); none at all gives one row with nothing measured,
 * whose key is the widest (ratios.py's empty Pair).
 */
static void
add_pairs(struct experiment *e, const struct ref *num, const struct ref *den,
	  const struct ratio *ratio, const struct control *control)
{
	char pair[2 * MAX_NAME + 2], den_pair[2 * MAX_NAME + 2];
	struct side num_side, den_side;
	int first = e->nrows;

	for (int i = 0; i < e->nfigures; i++) {
		const struct figure *f = &e->figures[i];
		bool seen = false;

		if (!matches(f, num, NULL))
			continue;
		pair_label(f, num, pair, sizeof(pair));
		for (int k = first; k < e->nrows; k++)
			seen |= !strcmp(e->rows[k].label, pair);
		if (seen)
			continue;
		pair_label(f, den, den_pair, sizeof(den_pair));
		side_of(e, den, den_pair, &den_side);
		if (!den_side.figures)
			continue;
		side_of(e, num, pair, &num_side);
		struct row *row = add_row(e);
		row->ratio = ratio;
		row->control = control;
		copy_text(row->label, sizeof(row->label), pair);
		copy_text(row->variant, sizeof(row->variant),
			  num->variant[0] ? "" : f->step->variant);
		copy_text(row->params, sizeof(row->params), f->step->params);
		row->est = estimate(&num_side, &den_side);
	}
	if (e->nrows == first) {
		struct row *row = add_row(e);
		row->ratio = ratio;
		row->control = control;
	}
}

/* Whether every word of part (space-separated "key=value") is one of whole's. */
bool
params_within(const char *part, const char *whole)
{
	char words[MAX_NAME], *save = NULL;

	copy_text(words, sizeof(words), part);
	for (char *w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		size_t len = strlen(w);
		bool found = false;
		for (const char *p = whole; (p = strstr(p, w)) && !found; p++)
			found = (p == whole || p[-1] == ' ') && (p[len] == ' ' || !p[len]);
		if (!found)
			return false;
	}
	return true;
}

/* Whether control row c speaks for ratio row r: c's sweep values are r's, and its variant. */
static bool
covers(const struct row *c, const struct row *r)
{
	return params_within(c->params, r->params) &&
	       (!c->variant[0] || !r->variant[0] || !strcmp(c->variant, r->variant));
}

static bool
guards(const struct control *c, const struct ratio *r)
{
	for (int k = 0; k < c->nguards; k++)
		if (!strcmp(c->guards[k], r->name))
			return true;
	return false;
}

void
bounds_text(const struct control *c, char *out, size_t size)
{
	if (c->at_least > 0 && isfinite(c->at_most))
		snprintf(out, size, ">= %.4g and <= %.4g", c->at_least, c->at_most);
	else if (c->at_least > 0)
		snprintf(out, size, ">= %.4g", c->at_least);
	else
		snprintf(out, size, "<= %.4g", c->at_most);
}

/*
 * A ratio row's verdict under the controls that guard it: the first that
 * fails voids it, else the first unsettled or unmeasured one makes it
 * inconclusive - nothing then says the ground was sound (controls.py).
 */
static void
guard_verdict(const struct experiment *e, struct row *r)
{
	static const enum control_state worst_first[] = { CONTROL_FAILS, CONTROL_UNSETTLED,
							  CONTROL_NOT_MEASURED };

	if (r->est.interval.n == 0)
		return;
	for (int w = 0; w < 3; w++)
		for (int k = 0; k < e->nrows; k++) {
			const struct row *c = &e->rows[k];
			const struct interval *i = &c->est.interval;
			char bounds[64];

			if (!c->control || c->state != worst_first[w] ||
			    !guards(c->control, r->ratio) || !covers(c, r))
				continue;
			bounds_text(c->control, bounds, sizeof(bounds));
			if (c->state == CONTROL_FAILS)
				snprintf(
					r->verdict, sizeof(r->verdict),
					"void: control \"%s\" failed (%.3g, %.3g - %.3g; must be %s)",
					c->control->name, i->value, i->low, i->high, bounds);
			else
				snprintf(r->verdict, sizeof(r->verdict),
					 "inconclusive: control \"%s\" %s", c->control->name,
					 control_state_name(c->state));
			snprintf(r->short_verdict, sizeof(r->short_verdict), "%s (control %s)",
				 c->state == CONTROL_FAILS ? "void" : "inconclusive",
				 control_state_name(c->state));
			return;
		}
}

/* Every ratio's and control's rows, the controls' states and the ratios' verdicts under them. */
void
judge(struct experiment *e)
{
	for (int i = 0; i < e->ncontrols; i++)
		add_pairs(e, &e->controls[i].num, &e->controls[i].den, NULL, &e->controls[i]);
	for (int i = 0; i < e->nratios; i++)
		add_pairs(e, &e->ratios[i].num, &e->ratios[i].den, &e->ratios[i], NULL);
	for (int k = 0; k < e->nrows; k++) {
		struct row *row = &e->rows[k];
		if (row->control) {
			row->state = control_state(&row->est.interval, row->control->at_least,
						   row->control->at_most);
			continue;
		}
		const char *v = ratio_verdict(&row->est.interval, row->ratio->expect,
					      row->ratio->seed, row->ratio->tolerance);
		copy_text(row->verdict, sizeof(row->verdict), v);
		copy_text(row->short_verdict, sizeof(row->short_verdict), v);
		guard_verdict(e, row);
	}
}

/* "1 failed, 2 zero": the repeats a row's figure lacks, or "" when none. */
void
dropped_text(const struct estimate *est, char *out, size_t size)
{
	size_t used = 0;

	out[0] = '\0';
	for (int d = 0; d < NDROPS; d++)
		if (est->dropped[d] && used < size)
			used += snprintf(out + used, size - used, "%s%d %s", used ? ", " : "",
					 est->dropped[d], drop_names[d]);
}

/* The median of ref's figures in pair (NULL: all of them), and their count in *n. */
double
median_of_ref(const struct experiment *e, const struct ref *ref, const char *pair, int *n)
{
	double *values = malloc((e->nfigures + 1) * sizeof(*values)), med;

	if (!values) {
		perror("experiment");
		exit(2);
	}
	*n = 0;
	for (int i = 0; i < e->nfigures; i++)
		if (matches(&e->figures[i], ref, pair))
			values[(*n)++] = e->figures[i].value;
	med = *n ? median_of(values, *n) : NAN;
	free(values);
	return med;
}
