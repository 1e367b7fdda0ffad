/*
 * experiment_judge.h - an experiment's figures judged, for the in-boot
 * runner (user/bin/experiment.c): the plan's steps, ratios and controls,
 * the figures the steps printed, and judge(), which turns them into rows -
 * per pair of numerator and denominator groups the per-repeat ratios with
 * their interval (judge.h), the repeats dropped and why, the controls'
 * states and the ratios' verdicts under the controls that guard them, as
 * tools/reprolib's ratios.py and controls.py give them on the host.
 */
#ifndef USER_EXPERIMENT_JUDGE_H
#define USER_EXPERIMENT_JUDGE_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/judge.h"

#define MAX_NAME    128
#define MAX_REPEATS 64 /* repeat numbers below this: a bit each in a uint64_t */
#define MAX_GUARDS  16 /* tools/onboard-plans refuses more */
#define MAX_VERDICT (MAX_NAME + 160)

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

/* A ratio that must lie within bounds for the verdicts it guards to mean anything. */
struct control {
	struct ref num, den;
	double at_least, at_most; /* 0 and inf: no bound */
	char name[MAX_NAME], guards[MAX_GUARDS][MAX_NAME];
	int nguards;
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
	struct control *controls;
	int ncontrols;
	struct figure *figures;
	int nfigures;
	int failed_steps;
	struct row *rows; /* judge()'s: every ratio's and control's rows */
	int nrows;
};

/* Why a planned repeat gave no ratio (ratios.py's DROP_REASONS). */
enum drop { DROP_FAILED, DROP_MISSING, DROP_ZERO, NDROPS };
extern const char *const drop_names[NDROPS];

struct estimate {
	struct interval interval;
	int dropped[NDROPS];
};

/*
 * One row of the report: a ratio's or a control's estimate in one pair. Its
 * key (variant, "" when both sides name theirs; params) says which control
 * rows speak for which ratio rows (controls.py's _covers).
 */
struct row {
	const struct ratio *ratio;     /* or */
	const struct control *control; /* one of the two */
	char label[2 * MAX_NAME + 2], variant[MAX_NAME], params[MAX_NAME];
	struct estimate est;
	enum control_state state;  /* a control row's */
	char verdict[MAX_VERDICT]; /* a ratio row's, under its controls */
	char short_verdict[48];	   /* the same, for the screen's table */
};

/* array with room for count + 1 elements of size (capacity doubles at powers of two). */
void *grow(void *array, int count, size_t size);
/* src into dst[size], cut short if it must be. */
void copy_text(char *dst, size_t size, const char *src);
/* "variant" or "variant params": the label of a step's group. */
void label_of(const struct step *s, char *out, size_t size);
/* Does figure f belong to ref, and (pair not NULL) to the pair labelled pair? */
bool matches(const struct figure *f, const struct ref *ref, const char *pair);
/* Whether two steps feed the same group of figures: bench, variant and params. */
bool same_group(const struct step *a, const struct step *b);
/* Whether every word of part (space-separated "key=value") is one of whole's. */
bool params_within(const char *part, const char *whole);
/* A control's bounds as the report shows them: ">= a", "<= b" or both. */
void bounds_text(const struct control *c, char *out, size_t size);
/* The median of ref's figures in pair (NULL: all of them), and their count in *n. */
double median_of_ref(const struct experiment *e, const struct ref *ref, const char *pair, int *n);
/* Every ratio's and control's rows, the controls' states and the ratios' verdicts under them. */
void judge(struct experiment *e);
/* "1 failed, 2 zero": the repeats a row's figure lacks, or "" when none. */
void dropped_text(const struct estimate *est, char *out, size_t size);

#endif
