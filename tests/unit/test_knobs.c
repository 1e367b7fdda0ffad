/*
 * test_knobs.c - host tests for command-line splitting (kernel/lib/cmdline.c)
 * and the knob registry (kernel/knobs.c, kernel/knobs.h).
 *
 * The test declares its own knobs with KNOB_BOOL/KNOB_INT/KNOB_ENUM/KNOB_STRING; with
 * knobs.c's `help` they are the whole `knobs` section here (GNU ld provides
 * __start_knobs/__stop_knobs), since the kernel's other knobs are not
 * linked in. unit.h's printk keeps every line and the last one's level,
 * which `help` and knobs_print_state need, since they print several.
 *
 * Covers word splitting (blanks, quotes, over-long words), name=value and
 * bare flags, every bool spelling, integer syntax and range checks, enum
 * names, text (quoted, at the size limit, too long), and the warnings for
 * unknown knobs, invalid values and missing values, each of which must leave
 * every knob as it was.
 */
/* vsprintf.c (through unit.h) and knobs.c each have a static parse_int. */
#define parse_int vsprintf_parse_int
#include "kernel/lib/types.h"
#include "tests/unit/unit.h"
#undef parse_int
#include "kernel/lib/cmdline.c"
#include "kernel/knobs.c"
#include <limits.h>

/* ---- the test's knobs ---------------------------------------------------- */

KNOB_BOOL(t_flag, "t_flag", 0, true, "a test flag");
KNOB_INT(t_count, "t_count", 4, 0, 100, false, "a test count");
KNOB_INT(t_signed, "t_signed", -3, -50, 50, true, "a signed test range");
KNOB_INT(t_wide, "t_wide", 0, INT_MIN, INT_MAX, true, "the whole int range");
KNOB_ENUM(t_mode, "t_mode", 1, true, "a test enumeration", "legacy", "trap", "none");
KNOB_STRING(t_text, "t_text", 16, "dflt", "a test text");
static int t_freq_changes;
static void
t_freq_changed(void)
{
	t_freq_changes++;
}
KNOB_INT_OFF(t_freq, "t_freq", 0, 5000, true, t_freq_changed, "a rate whose 0 is off");
/* Long names, so that knobs_print_state needs more than one line. */
KNOB_INT(t_long1, "t_first_knob_with_a_name_long_enough_to_fill_a_state_line", 1, 0, 9, false,
	 "long");
KNOB_INT(t_long2, "t_second_knob_with_a_name_long_enough_to_fill_a_state_line", 2, 0, 9, false,
	 "long");
KNOB_INT(t_long3, "t_third_knob_with_a_name_long_enough_to_fill_a_state_line", 3, 0, 9, false,
	 "long");

#define NKNOBS 11 /* the ten above and knobs.c's `help` */

static void
reset(void)
{
	for_each_knob(k) {
		if (k->type == KNOB_STRING) {
			/* All of it, so that a write past the NUL would show. */
			memset(k->str, 0, k->str_size);
			strcpy(k->str, k->str_def);
		} else {
			*k->value = k->def;
		}
	}
	unit_log_clear();
}

/* Every knob's value (all str_size bytes of a text), to check that bad input changes none of them. */
struct snapshot {
	int v[NKNOBS];
	char text[NKNOBS][16];
};

static struct snapshot
snapshot(void)
{
	struct snapshot s;
	int i = 0;

	memset(&s, 0, sizeof(s));
	for_each_knob(k) {
		if (i == NKNOBS)
			break;
		if (k->type == KNOB_STRING)
			memcpy(s.text[i], k->str, MIN(k->str_size, sizeof(s.text[i])));
		else
			s.v[i] = *k->value;
		i++;
	}
	return s;
}

static bool
unchanged(struct snapshot before)
{
	struct snapshot now = snapshot();
	return memcmp(&before, &now, sizeof(now)) == 0;
}

UNIT_TEST(section_holds_exactly_the_test_knobs_and_help)
{
	CHECK_EQ(__stop_knobs - __start_knobs, NKNOBS);
	CHECK(knob_find("help") != NULL);
	CHECK(knob_find("t_flag") != NULL);
	CHECK(knob_find("t_mode") != NULL);
	CHECK(knob_find("t_text") != NULL);
}

/* ---- cmdline_next_word ---------------------------------------------------- */

/* Splits line into words joined with '|' (empty words show as ""). */
static const char *
split(const char *line)
{
	static char out[512];
	const char *cursor = line;
	char word[128];
	int len;

	out[0] = '\0';
	while ((len = cmdline_next_word(&cursor, word, sizeof(word))) >= 0) {
		CHECK_EQ(len, strlen(word));
		if (out[0])
			strcat(out, "|");
		strcat(out, word);
	}
	CHECK_EQ(*cursor, '\0');
	return out;
}

UNIT_TEST(words_split_at_spaces_tabs_and_newlines)
{
	CHECK_STR(split("a b c"), "a|b|c");
	CHECK_STR(split("  lead and trail  "), "lead|and|trail");
	CHECK_STR(split("many     spaces"), "many|spaces");
	CHECK_STR(split("tab\tsep\t\tx"), "tab|sep|x");
	CHECK_STR(split("one\ntwo\r\nthree"), "one|two|three");
	CHECK_STR(split("single"), "single");
}

/* GRUB's multiboot2 command escapes quotes and backslashes: \" is a quote, \\ a backslash. */
UNIT_TEST(grub_escaped_quotes_group_words_as_quotes_do)
{
	CHECK_STR(split("run=\\\"/bin/experiment --then-shell vsyscall\\\" x=1"),
		  "run=/bin/experiment --then-shell vsyscall|x=1");
	CHECK_STR(split("a\\\\b c"), "a\\b|c");
	CHECK_STR(split("keep\\n \\"), "keep\\n|\\"); /* other backslashes stay */
}

UNIT_TEST(empty_and_blank_lines_have_no_words)
{
	const char *line = " \t \n";
	const char *cursor = line;
	char word[8] = "xxxxxxx";

	CHECK_EQ(cmdline_next_word(&cursor, word, sizeof(word)), -1);
	CHECK_EQ(cursor, line + strlen(line));
	cursor = "";
	CHECK_EQ(cmdline_next_word(&cursor, word, sizeof(word)), -1);
	CHECK_EQ(cmdline_next_word(&cursor, word, sizeof(word)), -1); /* and stays done */
}

UNIT_TEST(quotes_group_blanks_and_are_removed)
{
	CHECK_STR(split("run=\"bench -n 3\" next"), "run=bench -n 3|next");
	CHECK_STR(split("\"a b\"c d"), "a bc|d");
	CHECK_STR(split("x=\"tab\there\""), "x=tab\there");
	CHECK_STR(split("mid\"dle\"word"), "middleword");
	CHECK_STR(split("open=\"never closed  "), "open=never closed  ");
}

UNIT_TEST(empty_quotes_are_an_empty_word)
{
	const char *cursor = "\"\" after";
	char word[8];

	CHECK_EQ(cmdline_next_word(&cursor, word, sizeof(word)), 0);
	CHECK_STR(word, "");
	CHECK_EQ(cmdline_next_word(&cursor, word, sizeof(word)), 5);
	CHECK_STR(word, "after");
}

UNIT_TEST(long_word_is_cut_but_reports_full_length)
{
	const char *cursor = "abcdefg \"q u\"oted next";
	char word[8];

	memset(word, 'G', sizeof(word));
	CHECK_EQ(cmdline_next_word(&cursor, word, 4), 7);
	CHECK_STR(word, "abc");
	CHECK_EQ(word[4], 'G');				  /* nothing written past size */
	CHECK_EQ(cmdline_next_word(&cursor, word, 4), 7); /* quotes are not counted */
	CHECK_STR(word, "q u");
	CHECK_EQ(cmdline_next_word(&cursor, word, 4), 4); /* exactly one too long */
	CHECK_STR(word, "nex");
	CHECK_EQ(cmdline_next_word(&cursor, word, 4), -1);
}

UNIT_TEST(word_fitting_exactly_is_not_cut)
{
	const char *cursor = "abc";
	char word[4];

	CHECK_EQ(cmdline_next_word(&cursor, word, sizeof(word)), 3);
	CHECK_STR(word, "abc");
}

UNIT_TEST(tiny_word_buffers)
{
	const char *cursor = "abc de";
	char word[2] = { 'G', 'G' };

	CHECK_EQ(cmdline_next_word(&cursor, word, 1), 3);
	CHECK_EQ(word[0], '\0');
	CHECK_EQ(word[1], 'G');
	word[0] = 'G';
	CHECK_EQ(cmdline_next_word(&cursor, word, 0), 2); /* size 0: only measures */
	CHECK_EQ(word[0], 'G');
	CHECK_EQ(cmdline_next_word(&cursor, word, 0), -1);
}

/* ---- cmdline_split_value -------------------------------------------------- */

UNIT_TEST(split_value_at_first_equals)
{
	char a[] = "name=value", b[] = "flag", c[] = "empty=", d[] = "k=a=b", e[] = "=v";

	CHECK_STR(cmdline_split_value(a), "value");
	CHECK_STR(a, "name");
	CHECK(cmdline_split_value(b) == NULL);
	CHECK_STR(b, "flag");
	CHECK_STR(cmdline_split_value(c), "");
	CHECK_STR(c, "empty");
	CHECK_STR(cmdline_split_value(d), "a=b");
	CHECK_STR(d, "k");
	CHECK_STR(cmdline_split_value(e), "v");
	CHECK_STR(e, "");
}

/* ---- applying a command line ---------------------------------------------- */

UNIT_TEST(name_value_sets_each_kind_of_knob)
{
	reset();
	CHECK_EQ(knobs_apply_cmdline("t_flag=1 t_count=17 t_signed=-20 t_mode=none"), 0);
	CHECK_EQ(t_flag, 1);
	CHECK_EQ(t_count, 17);
	CHECK_EQ(t_signed, -20);
	CHECK_EQ(t_mode, 2);
	CHECK_EQ(unit_log_count, 0); /* valid input is silent */
}

UNIT_TEST(bare_bool_flag_means_on)
{
	reset();
	knobs_apply_cmdline("t_flag");
	CHECK_EQ(t_flag, 1);
	CHECK_EQ(unit_log_count, 0);
}

UNIT_TEST(later_words_win)
{
	reset();
	knobs_apply_cmdline("t_count=1 t_count=2\tt_count=3");
	CHECK_EQ(t_count, 3);
}

UNIT_TEST(quoted_values_lose_their_quotes)
{
	reset();
	knobs_apply_cmdline("t_mode=\"legacy\" \"t_count=9\"");
	CHECK_EQ(t_mode, 0);
	CHECK_EQ(t_count, 9);
}

UNIT_TEST(empty_command_line_changes_nothing)
{
	reset();
	struct snapshot before = snapshot();
	knobs_apply_cmdline("");
	knobs_apply_cmdline("   \t  ");
	CHECK(unchanged(before));
	CHECK_EQ(unit_log_count, 0);
}

UNIT_TEST(every_bool_spelling)
{
	static const char *const on[] = { "1", "on", "yes", "true", "y" };
	static const char *const off[] = { "0", "off", "no", "false", "n" };

	for (size_t i = 0; i < ARRAY_SIZE(on); i++) {
		reset();
		CHECK_EQ(knob_set(knob_find("t_flag"), on[i]), 0);
		CHECK_EQ(t_flag, 1);
		CHECK_EQ(knob_set(knob_find("t_flag"), off[i]), 0);
		CHECK_EQ(t_flag, 0);
	}
	CHECK_EQ(unit_log_count, 0);
}

UNIT_TEST(bad_bool_spellings_are_rejected)
{
	static const char *const bad[] = { "", "2", "-1", "ON", "Yes", "tru", "yess", "0x1" };
	const struct knob *k = knob_find("t_flag");

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		reset();
		t_flag = 1;
		CHECK_EQ(knob_set(k, bad[i]), -EINVAL);
		CHECK_EQ(t_flag, 1);
		CHECK(unit_logged("(valid: 0|1); keeping 1"));
	}
}

/* knob_set on t_count (0..100), returning the value afterwards. */
static int
set_count(const char *s, int expect_ret)
{
	reset();
	CHECK_EQ(knob_set(knob_find("t_count"), s), expect_ret);
	return t_count;
}

UNIT_TEST(int_syntax)
{
	CHECK_EQ(set_count("0", 0), 0);
	CHECK_EQ(set_count("42", 0), 42);
	CHECK_EQ(set_count("100", 0), 100);
	CHECK_EQ(set_count("0x1f", 0), 31);
	CHECK_EQ(set_count("0X1F", 0), 31);
	CHECK_EQ(set_count("0x0", 0), 0);
	CHECK_EQ(set_count("007", 0), 7); /* leading zeros are decimal, not octal */
	CHECK_EQ(set_count("-0", 0), 0);
}

UNIT_TEST(int_range_is_inclusive_and_enforced)
{
	CHECK_EQ(set_count("101", -EINVAL), 4);
	CHECK_EQ(set_count("-1", -EINVAL), 4);
	CHECK_EQ(set_count("0x65", -EINVAL), 4);
	CHECK(unit_logged("invalid value '0x65' for t_count (valid: 0..100); keeping 4"));
	reset();
	CHECK_EQ(knob_set(knob_find("t_signed"), "-50"), 0);
	CHECK_EQ(t_signed, -50);
	CHECK_EQ(knob_set(knob_find("t_signed"), "-0x10"), 0);
	CHECK_EQ(t_signed, -16);
	CHECK_EQ(knob_set(knob_find("t_signed"), "-51"), -EINVAL);
	CHECK_EQ(t_signed, -16);
	CHECK(unit_logged("(valid: -50..50); keeping -16"));
}

UNIT_TEST(int_junk_is_rejected)
{
	static const char *const junk[] = {
		"",   "-",  "0x",  "-0x", "abc", "12abc", "1 2",   " 5",
		"5 ", "+5", "--5", "0xg", "1.5", "1e3",	  "0b101", "x10",
	};

	for (size_t i = 0; i < ARRAY_SIZE(junk); i++) {
		CHECK_EQ(set_count(junk[i], -EINVAL), 4);
		CHECK(unit_logged("for t_count (valid: 0..100); keeping 4"));
	}
}

UNIT_TEST(int_limits_and_overflow)
{
	const struct knob *k = knob_find("t_wide");

	reset();
	CHECK_EQ(knob_set(k, "2147483647"), 0);
	CHECK_EQ(t_wide, INT_MAX);
	CHECK_EQ(knob_set(k, "-2147483648"), 0);
	CHECK_EQ(t_wide, INT_MIN);
	CHECK_EQ(knob_set(k, "0x7fffffff"), 0);
	CHECK_EQ(t_wide, INT_MAX);
	t_wide = 5;
	CHECK_EQ(knob_set(k, "2147483648"), -EINVAL);
	CHECK_EQ(knob_set(k, "-2147483649"), -EINVAL);
	CHECK_EQ(knob_set(k, "0x80000000"), -EINVAL);
	CHECK_EQ(knob_set(k, "4294967301"), -EINVAL); /* 2^32 + 5: must not wrap to 5 */
	CHECK_EQ(knob_set(k, "99999999999999999999999999"), -EINVAL);
	CHECK_EQ(knob_set(k, "0xffffffffffffffffffff"), -EINVAL);
	CHECK_EQ(knob_set(k, "-99999999999999999999999999"), -EINVAL);
	CHECK_EQ(t_wide, 5);
}

UNIT_TEST(int_with_an_off_name_takes_it_and_shows_it)
{
	const struct knob *k = knob_find("t_freq");
	char buf[64];

	reset();
	t_freq_changes = 0;
	CHECK_EQ(knob_set(k, "997"), 0);
	CHECK_EQ(t_freq, 997);
	knob_format_current(k, buf, sizeof(buf));
	CHECK(strcmp(buf, "997") == 0);
	CHECK_EQ(knob_set(k, "off"), 0);
	CHECK_EQ(t_freq, 0);
	knob_format_current(k, buf, sizeof(buf));
	CHECK(strcmp(buf, "off") == 0);
	CHECK_EQ(knob_set(k, "0"), 0);
	CHECK_EQ(t_freq, 0);
	CHECK_EQ(t_freq_changes, 3);
	CHECK_EQ(knob_set(k, "5001"), -EINVAL);
	CHECK_EQ(knob_set(k, "of"), -EINVAL);
	CHECK(unit_logged("for t_freq (valid: off|0..5000); keeping off"));
	CHECK_EQ(t_freq_changes, 3);
}

UNIT_TEST(enum_takes_names_only)
{
	const struct knob *k = knob_find("t_mode");

	reset();
	CHECK_EQ(knob_set(k, "legacy"), 0);
	CHECK_EQ(t_mode, 0);
	CHECK_EQ(knob_set(k, "trap"), 0);
	CHECK_EQ(t_mode, 1);
	CHECK_EQ(knob_set(k, "none"), 0);
	CHECK_EQ(t_mode, 2);
	CHECK_EQ(knob_set(k, "2"), -EINVAL); /* not by number */
	CHECK_EQ(knob_set(k, "NONE"), -EINVAL);
	CHECK_EQ(knob_set(k, "tra"), -EINVAL);
	CHECK_EQ(knob_set(k, ""), -EINVAL);
	CHECK_EQ(t_mode, 2);
	CHECK(unit_logged("invalid value '' for t_mode (valid: legacy|trap|none); keeping none"));
	CHECK_EQ(unit_log_level, LOG_WARNING);
}

UNIT_TEST(unknown_knob_warns_with_the_valid_names_and_changes_nothing)
{
	reset();
	struct snapshot before = snapshot();
	knobs_apply_cmdline("no_such_knob");
	CHECK(unchanged(before));
	CHECK_EQ(unit_log_count, 1);
	CHECK_EQ(unit_log_level, LOG_WARNING);
	CHECK(unit_logged("unknown knob 'no_such_knob' ignored"));
	for_each_knob(k)
		CHECK(unit_logged(k->name));
	CHECK(unit_logged("'help' describes them"));
}

UNIT_TEST(unknown_knob_with_value_names_only_the_name)
{
	reset();
	struct snapshot before = snapshot();
	CHECK_EQ(knobs_apply_cmdline("bogus=3 t_coun=5 T_COUNT=6 =7"), 4);
	CHECK(unchanged(before));
	CHECK_EQ(unit_log_count, 4);
	CHECK(unit_logged("unknown knob 'bogus' ignored"));
	CHECK(unit_logged("unknown knob 't_coun' ignored"));  /* no prefix matching */
	CHECK(unit_logged("unknown knob 'T_COUNT' ignored")); /* nor case folding */
	CHECK(unit_logged("unknown knob '' ignored"));
	CHECK(!strstr(unit_log, "bogus=3"));
}

UNIT_TEST(bad_words_do_not_stop_the_good_ones)
{
	reset();
	/* Each refused word counted, for knob_strict (kernel/main.c). */
	CHECK_EQ(knobs_apply_cmdline("bogus t_count=7 t_mode=weird t_signed=12 t_count"), 3);
	CHECK_EQ(t_count, 7);
	CHECK_EQ(t_mode, 1);
	CHECK_EQ(t_signed, 12);
	CHECK_EQ(unit_log_count, 3);
}

UNIT_TEST(invalid_value_warns_with_valid_values_and_keeps_the_old)
{
	reset();
	t_count = 9;
	knobs_apply_cmdline("t_count=lots");
	CHECK_EQ(t_count, 9);
	CHECK_EQ(unit_log_count, 1);
	CHECK_STR(unit_last_log,
		  "knobs: invalid value 'lots' for t_count (valid: 0..100); keeping 9\n");
	CHECK_EQ(unit_log_level, LOG_WARNING);
}

UNIT_TEST(non_bool_without_value_warns)
{
	reset();
	struct snapshot before = snapshot();
	knobs_apply_cmdline("t_count");
	CHECK(unchanged(before));
	CHECK_STR(unit_last_log, "knobs: t_count needs a value (t_count=<0..100>); ignored\n");
	knobs_apply_cmdline("t_mode");
	CHECK(unchanged(before));
	CHECK_STR(unit_last_log,
		  "knobs: t_mode needs a value (t_mode=<legacy|trap|none>); ignored\n");
	CHECK_EQ(unit_log_level, LOG_WARNING);
}

UNIT_TEST(over_long_word_is_ignored_with_a_warning)
{
	char line[1200];

	/* t_count=11 followed by 1100 more digits: too long, so not applied. */
	strcpy(line, "t_count=11");
	memset(line + 10, '1', 1100);
	strcpy(line + 1110, " t_flag");
	reset();
	knobs_apply_cmdline(line);
	CHECK_EQ(t_count, 4);
	CHECK_EQ(t_flag, 1); /* the next word still counts */
	CHECK_EQ(unit_log_count, 1);
	CHECK(unit_logged(
		"longer than 1023 characters ignored: t_count=11111111111111111111111111111111..."));

	/* 255 characters is still fine. */
	memset(line, ' ', sizeof(line));
	strcpy(line, "t_count=");
	memset(line + 8, '0', 245);
	strcpy(line + 253, "12");
	CHECK_EQ(strlen(line), 255);
	reset();
	knobs_apply_cmdline(line);
	CHECK_EQ(t_count, 12);
	CHECK_EQ(unit_log_count, 0);
}

/* ---- help and state -------------------------------------------------------- */

UNIT_TEST(help_prints_every_knob)
{
	reset();
	knobs_apply_cmdline("t_count=8 help");
	CHECK_EQ(knob_help, 1);
	CHECK_EQ(unit_log_count, 1 + NKNOBS); /* a heading, then one line each */
	CHECK_EQ(unit_log_level, LOG_NOTICE);
	CHECK(unit_logged("knobs (name=value on the kernel command line"));
	for_each_knob(k) {
		CHECK(unit_logged(k->name));
		CHECK(unit_logged(k->help));
	}
	/* name, runtime mark, valid values, default, current value, help */
	CHECK(unit_logged(
		"  t_count         0..100                       default 4        now 8        a test count [tests/unit/test_knobs.c]\n"));
	CHECK(unit_logged(
		"  t_mode        * legacy|trap|none             default trap     now trap     a test enumeration [tests/unit/test_knobs.c]\n"));
	CHECK(unit_logged(
		"  t_flag        * 0|1                          default 0        now 0        a test flag [tests/unit/test_knobs.c]\n"));
	/* Text in quotes; the valid column is one wider than its padding. */
	CHECK(unit_logged(
		"  t_text          text of at most 15 characters default \"dflt\"   now \"dflt\"   a test text [tests/unit/test_knobs.c]\n"));
}

UNIT_TEST(help_only_when_asked)
{
	reset();
	knobs_apply_cmdline("help=0 t_flag");
	CHECK_EQ(unit_log_count, 0);
	knobs_apply_cmdline("help=yes");
	CHECK_EQ(unit_log_count, 1 + NKNOBS);
}

/* The knob=value pairs on the state lines, in order, each line checked for length. */
static void
check_state_lines(char *pairs, size_t size)
{
	char *line = unit_log;

	pairs[0] = '\0';
	for (char *nl; (nl = strchr(line, '\n')); line = nl + 1) {
		CHECK(strncmp(line, "  knobs: ", 9) == 0);
		CHECK(nl - line <= 8 + 159); /* "  knobs:" and what fits in 160 */
		strncat(pairs, line + 8, MIN((size_t)(nl - line - 8), size - strlen(pairs) - 1));
	}
	CHECK_EQ(*line, '\0');
}

UNIT_TEST(state_lists_every_value_across_lines)
{
	char pairs[1024];

	reset();
	knobs_apply_cmdline("t_mode=legacy t_signed=-9 t_flag");
	unit_log_clear();
	knobs_print_state(LOG_INFO);
	CHECK(unit_log_count >= 2); /* the long names do not fit on one */
	CHECK_EQ(unit_log_level, LOG_INFO);
	check_state_lines(pairs, sizeof(pairs));
	strcat(pairs, " "); /* so every pair is " name=value " */
	CHECK(strstr(pairs, " t_flag=1 "));
	CHECK(strstr(pairs, " t_mode=legacy "));
	CHECK(strstr(pairs, " t_signed=-9 "));
	CHECK(strstr(pairs, " t_count=4 "));
	CHECK(strstr(pairs, " help=0 "));
	CHECK(strstr(pairs, " t_text=\"dflt\" "));
	CHECK(strstr(pairs, " t_first_knob_with_a_name_long_enough_to_fill_a_state_line=1 "));
	CHECK(strstr(pairs, " t_second_knob_with_a_name_long_enough_to_fill_a_state_line=2 "));
	CHECK(strstr(pairs, " t_third_knob_with_a_name_long_enough_to_fill_a_state_line=3 "));
	int npairs = 0;
	for (const char *p = pairs; (p = strchr(p, '=')); p++)
		npairs++;
	CHECK_EQ(npairs, NKNOBS);
}

/* ---- text knobs --------------------------------------------------------------- */

UNIT_TEST(text_set_by_name_value)
{
	reset();
	CHECK_STR(t_text, "dflt");
	knobs_apply_cmdline("t_text=hello");
	CHECK_STR(t_text, "hello");
	knobs_apply_cmdline("t_text=a=b"); /* only the first '=' separates */
	CHECK_STR(t_text, "a=b");
	knobs_apply_cmdline("t_text=x"); /* shorter than before: fully replaced */
	CHECK_STR(t_text, "x");
	knobs_apply_cmdline("t_text="); /* empty text is text */
	CHECK_STR(t_text, "");
	CHECK_EQ(unit_log_count, 0);
}

UNIT_TEST(text_in_quotes_keeps_its_spaces)
{
	reset();
	knobs_apply_cmdline("t_text=\"a b\" t_count=6");
	CHECK_STR(t_text, "a b");
	CHECK_EQ(t_count, 6); /* the quote ended the value */
	knobs_apply_cmdline("\"t_text=  two\tblanks \"");
	CHECK_STR(t_text, "  two\tblanks ");
	knobs_apply_cmdline("t_text=\"\"");
	CHECK_STR(t_text, "");
	knobs_apply_cmdline("t_text=\"-n 3\"\"x\""); /* quoted parts join */
	CHECK_STR(t_text, "-n 3x");
	CHECK_EQ(unit_log_count, 0);
}

UNIT_TEST(text_up_to_the_limit_is_taken)
{
	reset();
	CHECK_EQ(knob_set(knob_find("t_text"), "0123456789abcde"), 0); /* 15 + NUL = 16 */
	CHECK_STR(t_text, "0123456789abcde");
	CHECK_EQ(t_text[15], '\0');
	knobs_apply_cmdline("t_text=\"0123456789 bcde\"");
	CHECK_STR(t_text, "0123456789 bcde");
	CHECK_EQ(unit_log_count, 0);
}

UNIT_TEST(text_too_long_warns_with_the_limit_and_keeps_the_old)
{
	const struct knob *k = knob_find("t_text");

	reset();
	struct snapshot before = snapshot();
	CHECK_EQ(knob_set(k, "0123456789abcdef"), -EINVAL); /* 16: no room for the NUL */
	CHECK(unchanged(before));
	CHECK_STR(t_text, "dflt");
	CHECK_EQ(unit_log_count, 1);
	CHECK_EQ(unit_log_level, LOG_WARNING);
	CHECK_STR(unit_last_log,
		  "knobs: invalid value '0123456789abcdef' for t_text "
		  "(valid: text of at most 15 characters); keeping \"dflt\"\n");

	/* From the command line, after an earlier good value. */
	knobs_apply_cmdline("t_text=\"a b\"");
	before = snapshot();
	knobs_apply_cmdline("t_text=\"far too long for sixteen\"");
	CHECK(unchanged(before));
	CHECK_STR(t_text, "a b");
	CHECK_STR(unit_last_log,
		  "knobs: invalid value 'far too long for sixteen' for t_text "
		  "(valid: text of at most 15 characters); keeping \"a b\"\n");

	/* Much longer than any buffer of the knob's. */
	char longer[600];
	memset(longer, 'x', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	CHECK_EQ(knob_set(k, longer), -EINVAL);
	CHECK(unchanged(before));
	CHECK(unit_logged("(valid: text of at most 15 characters); keeping \"a b\"\n"));
}

UNIT_TEST(text_without_value_warns)
{
	reset();
	struct snapshot before = snapshot();
	knobs_apply_cmdline("t_text");
	CHECK(unchanged(before));
	CHECK_EQ(unit_log_count, 1);
	CHECK_EQ(unit_log_level, LOG_WARNING);
	CHECK_STR(
		unit_last_log,
		"knobs: t_text needs a value (t_text=<text of at most 15 characters>); ignored\n");
	CHECK_STR(t_text, "dflt");
}

UNIT_TEST(text_help_shows_default_and_current_in_quotes)
{
	reset();
	knobs_apply_cmdline("t_text=\"a b\" help");
	CHECK_EQ(unit_log_count, 1 + NKNOBS);
	CHECK(unit_logged(
		"  t_text          text of at most 15 characters default \"dflt\"   now \"a b\"    a test text [tests/unit/test_knobs.c]\n"));
}

UNIT_TEST(text_state_shows_the_value_in_quotes)
{
	char pairs[1024];

	reset();
	knobs_apply_cmdline("\"t_text=x y\"");
	unit_log_clear();
	knobs_print_state(LOG_INFO);
	check_state_lines(pairs, sizeof(pairs));
	CHECK(strstr(pairs, " t_text=\"x y\""));

	/* At its longest. */
	reset();
	knobs_apply_cmdline("t_text=0123456789abcde");
	unit_log_clear();
	knobs_print_state(LOG_INFO);
	check_state_lines(pairs, sizeof(pairs));
	CHECK(strstr(pairs, " t_text=\"0123456789abcde\""));
}

UNIT_TEST(text_formatting)
{
	const struct knob *k = knob_find("t_text");
	char buf[64];

	reset();
	CHECK_EQ(knob_format_valid(k, buf, sizeof(buf)), 29);
	CHECK_STR(buf, "text of at most 15 characters");
	CHECK_EQ(knob_format_default(k, buf, sizeof(buf)), 6);
	CHECK_STR(buf, "\"dflt\"");
	knob_set(k, "now");
	CHECK_EQ(knob_format_current(k, buf, sizeof(buf)), 5);
	CHECK_STR(buf, "\"now\"");
	CHECK_EQ(knob_format_default(k, buf, sizeof(buf)), 6); /* the default stays */
	CHECK_STR(buf, "\"dflt\"");
	/* Cut short safely. */
	memset(buf, 'G', sizeof(buf));
	CHECK_EQ(knob_format_current(k, buf, 3), 5);
	CHECK_STR(buf, "\"n");
	CHECK_EQ(buf[3], 'G');
}

UNIT_TEST(text_macro_fills_in_the_descriptor)
{
	const struct knob *k = knob_find("t_text");

	CHECK_EQ(k->type, KNOB_STRING);
	CHECK(k->str == t_text);
	CHECK_EQ(k->str_size, sizeof(t_text));
	CHECK_EQ(k->str_size, 16);
	CHECK_STR(k->str_def, "dflt");
	CHECK_STR(k->help, "a test text");
	CHECK(!k->runtime); /* text is boot-time only */
	CHECK(k->value == NULL);
}

/* ---- formatting ------------------------------------------------------------ */

UNIT_TEST(format_valid_for_each_type)
{
	char buf[64];

	CHECK_EQ(knob_format_valid(knob_find("t_flag"), buf, sizeof(buf)), 3);
	CHECK_STR(buf, "0|1");
	CHECK_EQ(knob_format_valid(knob_find("t_count"), buf, sizeof(buf)), 6);
	CHECK_STR(buf, "0..100");
	CHECK_EQ(knob_format_valid(knob_find("t_signed"), buf, sizeof(buf)), 7);
	CHECK_STR(buf, "-50..50");
	CHECK_EQ(knob_format_valid(knob_find("t_wide"), buf, sizeof(buf)), 23);
	CHECK_STR(buf, "-2147483648..2147483647");
	CHECK_EQ(knob_format_valid(knob_find("t_mode"), buf, sizeof(buf)), 16);
	CHECK_STR(buf, "legacy|trap|none");
}

UNIT_TEST(format_valid_enum_truncates_safely)
{
	const struct knob *k = knob_find("t_mode");
	char buf[24];

	for (size_t size = 0; size <= 18; size++) {
		memset(buf, 'G', sizeof(buf));
		CHECK_EQ(knob_format_valid(k, buf, size), 16);
		for (size_t i = size; i < sizeof(buf); i++)
			CHECK_EQ(buf[i], 'G');
		if (size) {
			CHECK_EQ(strlen(buf), MIN(size - 1, 16));
			CHECK(strncmp(buf, "legacy|trap|none", strlen(buf)) == 0);
		}
	}
}

UNIT_TEST(format_value_for_each_type)
{
	char buf[32];

	CHECK_EQ(knob_format_value(knob_find("t_flag"), 1, buf, sizeof(buf)), 1);
	CHECK_STR(buf, "1");
	CHECK_EQ(knob_format_value(knob_find("t_signed"), -42, buf, sizeof(buf)), 3);
	CHECK_STR(buf, "-42");
	CHECK_EQ(knob_format_value(knob_find("t_mode"), 0, buf, sizeof(buf)), 6);
	CHECK_STR(buf, "legacy");
	CHECK_EQ(knob_format_value(knob_find("t_mode"), 2, buf, sizeof(buf)), 4);
	CHECK_STR(buf, "none");
	/* A value with no name (set some other way) is shown as a number. */
	CHECK_EQ(knob_format_value(knob_find("t_mode"), 3, buf, sizeof(buf)), 1);
	CHECK_STR(buf, "3");
	CHECK_EQ(knob_format_value(knob_find("t_mode"), -1, buf, sizeof(buf)), 2);
	CHECK_STR(buf, "-1");
	CHECK_EQ(knob_format_value(knob_find("t_mode"), 1, buf, 3), 4);
	CHECK_STR(buf, "tr");
}

UNIT_TEST(macros_fill_in_the_descriptor)
{
	const struct knob *b = knob_find("t_flag"), *i = knob_find("t_count"),
			  *e = knob_find("t_mode");

	CHECK_EQ(b->type, KNOB_BOOL);
	CHECK(b->value == &t_flag);
	CHECK_EQ(b->min, 0);
	CHECK_EQ(b->max, 1);
	CHECK(b->runtime);
	CHECK_EQ(i->type, KNOB_INT);
	CHECK_EQ(i->def, 4);
	CHECK_EQ(i->max, 100);
	CHECK(!i->runtime);
	CHECK_EQ(e->type, KNOB_ENUM);
	CHECK_EQ(e->nnames, 3);
	CHECK_EQ(e->max, 2);
	CHECK_STR(e->names[1], "trap");
	CHECK_STR(e->help, "a test enumeration");
}
