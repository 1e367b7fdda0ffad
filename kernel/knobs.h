/*
 * knobs.h - the registry of run-time policies (docs/design.md, "Knobs, not
 * forks").
 *
 * A knob is a named int with a default, a help line and its valid values:
 * a boolean flag, an integer range, or an enumeration of names. Each file
 * declares its own knobs with the macros below; they land in the `knobs`
 * linker section, so one registry serves the kernel command line, `help`,
 * and /proc/sys/rewind/<name> (fs/proc/sysctl.c). Each entry records the
 * file that declared it, so that `help` leads to the code it switches.
 *
 * The live value is a plain int read with READ_ONCE and written with one
 * store, so a change is atomic with respect to the code that reads it.
 * Readers that need several reads of a knob to agree take one snapshot.
 */
#ifndef REWIND_KNOBS_H
#define REWIND_KNOBS_H

#include "kernel/lib/types.h"

enum knob_type { KNOB_BOOL, KNOB_INT, KNOB_ENUM, KNOB_STRING };

struct knob {
	const char *name;
	const char *help;
	const char *file; /* the source file that declares it */
	enum knob_type type;
	int *value;
	int def;
	int min, max;		  /* KNOB_INT: inclusive range */
	const char *zero_name;	  /* KNOB_INT or NULL: how 0 is spelled too ("off") */
	const char *const *names; /* KNOB_ENUM: value i is called names[i] */
	int nnames;
	char *str; /* KNOB_STRING: the text, str_size bytes with its NUL */
	size_t str_size;
	const char *str_def;
	bool runtime; /* may change after boot */
	/*
	 * Or NULL: called after every successful knob_set, for an owner that
	 * must act on a change (remap a page). It also runs for the command
	 * line, before most of the kernel is up: it must check that itself.
	 */
	void (*on_change)(void);
};

#define KNOB_REGISTER(var, ...)                                \
	static const struct knob knob_##var __section("knobs") \
		__used __aligned(8) = { .file = __FILE__, __VA_ARGS__ }

#define KNOB_BOOL(var, name_, def_, runtime_, help_) \
	int var = (def_);                            \
	KNOB_BOOL_AT(var, var, name_, def_, runtime_, help_)

/*
 * A boolean whose int the caller defines elsewhere (a field of a struct,
 * initialised to def_); id names the registry entry.
 */
#define KNOB_BOOL_AT(id, lvalue, name_, def_, runtime_, help_)                                 \
	KNOB_REGISTER(id, .name = name_, .help = help_, .type = KNOB_BOOL, .value = &(lvalue), \
		      .def = (def_), .min = 0, .max = 1, .runtime = runtime_)

#define KNOB_INT(var, name_, def_, min_, max_, runtime_, help_)                           \
	int var = (def_);                                                                 \
	KNOB_REGISTER(var, .name = name_, .help = help_, .type = KNOB_INT, .value = &var, \
		      .def = (def_), .min = (min_), .max = (max_), .runtime = runtime_)

/*
 * An integer whose 0 means "off" and is also spelled so (profile=off or
 * profile=997), with an owner's on_change_ (see struct knob), or NULL.
 */
#define KNOB_INT_OFF(var, name_, def_, max_, runtime_, on_change_, help_)                 \
	int var = (def_);                                                                 \
	KNOB_REGISTER(var, .name = name_, .help = help_, .type = KNOB_INT, .value = &var, \
		      .def = (def_), .min = 0, .max = (max_), .zero_name = "off",         \
		      .runtime = runtime_, .on_change = on_change_)

/* An integer in [min_, max_] whose owner's on_change_(void) runs after each change (see struct knob). */
#define KNOB_INT_NOTIFY(var, name_, def_, min_, max_, runtime_, on_change_, help_)        \
	int var = (def_);                                                                 \
	KNOB_REGISTER(var, .name = name_, .help = help_, .type = KNOB_INT, .value = &var, \
		      .def = (def_), .min = (min_), .max = (max_), .runtime = runtime_,   \
		      .on_change = on_change_)

/* The values are the names, in order: KNOB_ENUM(v, "mode", 0, true, "...", "a", "b"). */
#define KNOB_ENUM(var, name_, def_, runtime_, help_, ...) \
	KNOB_ENUM_NOTIFY(var, name_, def_, runtime_, NULL, help_, __VA_ARGS__)

/* An enum knob whose owner's on_change_(void) runs after each change (see struct knob). */
#define KNOB_ENUM_NOTIFY(var, name_, def_, runtime_, on_change_, help_, ...)               \
	static const char *const var##_names[] = { __VA_ARGS__ };                          \
	int var = (def_);                                                                  \
	KNOB_REGISTER(var, .name = name_, .help = help_, .type = KNOB_ENUM, .value = &var, \
		      .def = (def_), .min = 0, .max = (int)ARRAY_SIZE(var##_names) - 1,    \
		      .names = var##_names, .nnames = (int)ARRAY_SIZE(var##_names),        \
		      .runtime = runtime_, .on_change = on_change_)

/* Text, boot-time only (a reader could see it half-written): KNOB_STRING(v, "init", 64, "/sbin/init", "..."). */
#define KNOB_STRING(var, name_, size_, def_, help_)                                       \
	_Static_assert(sizeof(def_) <= (size_), "default of " name_ " too long");         \
	char var[size_] = def_;                                                           \
	KNOB_REGISTER(var, .name = name_, .help = help_, .type = KNOB_STRING, .str = var, \
		      .str_size = (size_), .str_def = (def_), .runtime = false)

const struct knob *knob_find(const char *name);
/* Parses and stores a value; on a bad one warns (naming the valid values) and keeps the old. */
int knob_set(const struct knob *k, const char *value);
/* The text of a value of a numeric knob (a name for enums). */
int knob_format_value(const struct knob *k, int value, char *buf, size_t size);
/* The text of the knob's current or default value, any type. */
int knob_format_current(const struct knob *k, char *buf, size_t size);
int knob_format_default(const struct knob *k, char *buf, size_t size);
/* The valid values, e.g. "0..7", "0|1", "legacy|trap|none". */
int knob_format_valid(const struct knob *k, char *buf, size_t size);
/* Applies the command line's words; returns how many it refused (each one warned about). */
int knobs_apply_cmdline(const char *cmdline);
void knobs_print_help(void);
/* Every knob's current value on as few lines as fit, at the given log level. */
void knobs_print_state(int level);

#endif
