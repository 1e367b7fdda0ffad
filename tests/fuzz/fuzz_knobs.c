/*
 * fuzz_knobs.c - the kernel command line and the knob parser
 * (kernel/lib/cmdline.c, kernel/knobs.c) on arbitrary text: every word of
 * it applied to a registry of each knob type, as the boot command line and
 * writes to /proc/sys/rewind/<knob> are. Values must stay in their ranges.
 */
#include "tests/fuzz/fuzz_host.h"
/* vsprintf.c and knobs.c each have a static parse_int; one TU needs two names. */
#define parse_int vsprintf_parse_int
#include "kernel/lib/vsprintf.c"
#undef parse_int
#include "kernel/lib/cmdline.c"
#include "kernel/knobs.c"

KNOB_INT(f_int, "f_int", 5, -3, 1000, true, "an integer");
KNOB_ENUM(f_enum, "f_enum", 0, true, "an enumeration", "a", "bb", "ccc");
KNOB_BOOL(f_bool, "f_bool", 0, true, "a flag");
KNOB_STRING(f_text, "f_text", 16, "x", "a text");

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	char buf[64];

	memcpy(text, data, size);
	text[size] = '\0';
	knobs_apply_cmdline(text);
	/* the same text as one value of each knob, as a /proc/sys write gives it */
	for (const struct knob *k = __start_knobs; k < __stop_knobs; k++)
		if (k->runtime)
			knob_set(k, text);
	if (f_int < -3 || f_int > 1000 || f_enum < 0 || f_enum > 2 ||
	    (f_bool != 0 && f_bool != 1) || strnlen(f_text, sizeof(f_text)) >= sizeof(f_text))
		abort(); /* a knob out of its range */
	for (const struct knob *k = __start_knobs; k < __stop_knobs; k++)
		knob_format_current(k, buf, sizeof(buf));
	free(text);
	return 0;
}
