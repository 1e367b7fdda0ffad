/*
 * knobs.c - looking up, parsing, setting and listing knobs; see knobs.h.
 *
 * Bad input never stops the boot here: an unknown name or an invalid value
 * gets a warning that names what is valid, and the knob keeps its value;
 * knobs_apply_cmdline counts such words for a caller that asked to stop
 * (knob_strict, kernel/main.c).
 */
#include "kernel/knobs.h"
#include "kernel/lib/cmdline.h"
#include "uapi/errno.h"
#include "kernel/printk.h"
#include "kernel/lib/string.h"
#include "kernel/lib/vsprintf.h"

extern const struct knob __start_knobs[], __stop_knobs[];

KNOB_BOOL(knob_help, "help", 0, false,
	  "print every knob with its values and default, then boot on");

#define for_each_knob(k) for (const struct knob *k = __start_knobs; k < __stop_knobs; k++)

const struct knob *
knob_find(const char *name)
{
	for_each_knob(k)
		if (strcmp(k->name, name) == 0)
			return k;
	return NULL;
}

static bool
parse_bool(const char *s, int *out)
{
	static const char *const truths[] = { "1", "on", "yes", "true", "y" };
	static const char *const lies[] = { "0", "off", "no", "false", "n" };

	for (size_t i = 0; i < ARRAY_SIZE(truths); i++) {
		if (strcmp(s, truths[i]) == 0) {
			*out = 1;
			return true;
		}
		if (strcmp(s, lies[i]) == 0) {
			*out = 0;
			return true;
		}
	}
	return false;
}

/* Decimal or 0x-hex, optionally negative; rejects empty strings, junk and overflow. */
static bool
parse_int(const char *s, long min, long max, int *out)
{
	bool negative = *s == '-';
	unsigned base = 10;
	long v = 0;

	if (negative)
		s++;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return false;
	for (; *s; s++) {
		int d;
		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			return false;
		v = v * base + d;
		if (v > (long)1 << 40)
			return false;
	}
	if (negative)
		v = -v;
	if (v < min || v > max)
		return false;
	*out = (int)v;
	return true;
}

static bool
parse_value(const struct knob *k, const char *s, int *out)
{
	switch (k->type) {
	case KNOB_BOOL:
		return parse_bool(s, out);
	case KNOB_INT:
		if (k->zero_name && strcmp(s, k->zero_name) == 0) {
			*out = 0;
			return true;
		}
		return parse_int(s, k->min, k->max, out);
	case KNOB_STRING:
		return false;
	case KNOB_ENUM:
		for (int i = 0; i < k->nnames; i++) {
			if (strcmp(s, k->names[i]) == 0) {
				*out = i;
				return true;
			}
		}
		return false;
	}
	return false;
}

int
knob_format_value(const struct knob *k, int value, char *buf, size_t size)
{
	if (k->type == KNOB_ENUM && value >= 0 && value < k->nnames)
		return ksnprintf(buf, size, "%s", k->names[value]);
	if (k->type == KNOB_INT && k->zero_name && value == 0)
		return ksnprintf(buf, size, "%s", k->zero_name);
	return ksnprintf(buf, size, "%d", value);
}

int
knob_format_current(const struct knob *k, char *buf, size_t size)
{
	if (k->type == KNOB_STRING)
		return ksnprintf(buf, size, "\"%s\"", k->str);
	return knob_format_value(k, READ_ONCE(*k->value), buf, size);
}

int
knob_format_default(const struct knob *k, char *buf, size_t size)
{
	if (k->type == KNOB_STRING)
		return ksnprintf(buf, size, "\"%s\"", k->str_def);
	return knob_format_value(k, k->def, buf, size);
}

int
knob_format_valid(const struct knob *k, char *buf, size_t size)
{
	size_t n = 0;

	switch (k->type) {
	case KNOB_STRING:
		return ksnprintf(buf, size, "text of at most %zu characters", k->str_size - 1);
	case KNOB_BOOL:
		return ksnprintf(buf, size, "0|1");
	case KNOB_INT:
		if (k->zero_name)
			return ksnprintf(buf, size, "%s|%d..%d", k->zero_name, k->min, k->max);
		return ksnprintf(buf, size, "%d..%d", k->min, k->max);
	case KNOB_ENUM:
		if (size)
			buf[0] = '\0';
		for (int i = 0; i < k->nnames; i++)
			n += ksnprintf(buf + MIN(n, size), size - MIN(n, size), "%s%s",
				       i ? "|" : "", k->names[i]);
		return (int)n;
	}
	return 0;
}

/* Set once the command line is applied: later knob_set calls come from user programs. */
static bool cmdline_applied;

int
knob_set(const struct knob *k, const char *value)
{
	int v = 0;
	bool ok = k->type == KNOB_STRING ? strlen(value) < k->str_size : parse_value(k, value, &v);

	if (!ok) {
		char valid[256], cur[160];
		knob_format_valid(k, valid, sizeof(valid));
		knob_format_current(k, cur, sizeof(cur));
		/* Every bad word of the command line is named; a program writing /proc/sys is limited. */
		if (!cmdline_applied)
			pr_warn("knobs: invalid value '%s' for %s (valid: %s); keeping %s\n", value,
				k->name, valid, cur);
		else
			pr_warn_ratelimited(
				"knobs: invalid value '%s' for %s (valid: %s); keeping %s\n", value,
				k->name, valid, cur);
		return -EINVAL;
	}
	if (k->type == KNOB_STRING)
		memcpy(k->str, value, strlen(value) + 1);
	else
		WRITE_ONCE(*k->value, v);
	if (k->on_change)
		k->on_change();
	return 0;
}

static void
warn_unknown(const char *name)
{
	char list[1024];
	size_t n = 0;

	list[0] = '\0';
	for_each_knob(k)
		n += kscnprintf(list + n, sizeof(list) - n, "%s%s", n ? ", " : "", k->name);
	pr_warn("knobs: unknown knob '%s' ignored (valid knobs: %s; 'help' describes them)\n", name,
		list);
}

int
knobs_apply_cmdline(const char *cmdline)
{
	const char *cursor = cmdline;
	char word[1024];
	int len, refused = 0;

	while ((len = cmdline_next_word(&cursor, word, sizeof(word))) >= 0) {
		if ((size_t)len >= sizeof(word)) {
			pr_warn("knobs: command-line word longer than %zu characters ignored: %.40s...\n",
				sizeof(word) - 1, word);
			refused++;
			continue;
		}
		char *value = cmdline_split_value(word);
		const struct knob *k = knob_find(word);
		if (!k) {
			refused++;
			warn_unknown(word);
			continue;
		}
		if (!value) {
			if (k->type != KNOB_BOOL) {
				char valid[256];
				knob_format_valid(k, valid, sizeof(valid));
				pr_warn("knobs: %s needs a value (%s=<%s>); ignored\n", k->name,
					k->name, valid);
				refused++;
				continue;
			}
			value = "1";
		}
		if (knob_set(k, value) < 0)
			refused++;
	}
	cmdline_applied = true;
	if (READ_ONCE(knob_help))
		knobs_print_help();
	return refused;
}

void
knobs_print_help(void)
{
	pr_notice(
		"knobs (name=value on the kernel command line; * = settable at run time; [the file that declares it]):\n");
	for_each_knob(k) {
		char valid[256], def[160], cur[160];
		knob_format_valid(k, valid, sizeof(valid));
		knob_format_default(k, def, sizeof(def));
		knob_format_current(k, cur, sizeof(cur));
		pr_notice("  %-14s%c %-28s default %-8s now %-8s %s [%s]\n", k->name,
			  k->runtime ? '*' : ' ', valid, def, cur, k->help, k->file);
	}
}

void
knobs_print_state(int level)
{
	char line[160];
	size_t n = 0;

	for_each_knob(k) {
		char v[160];
		knob_format_current(k, v, sizeof(v));
		if (n && n + strlen(k->name) + strlen(v) + 2 >= sizeof(line) - 1) {
			printk(level, "  knobs:%s\n", line);
			n = 0;
		}
		n += kscnprintf(line + n, sizeof(line) - n, " %s=%s", k->name, v);
	}
	if (n)
		printk(level, "  knobs:%s\n", line);
}
