/*
 * fuzz_procfs_write.c - what a write to /proc/sys/rewind/<knob> goes
 * through, on arbitrary bytes: fs/proc/procfs.c's length limit and blank
 * trimming (procfs_trim), the knob parser (knob_set), then the file's text
 * (procfs_format_knob) into buffers of every size. The input is a series
 * of writes, each a byte choosing the knob, a byte of length, the bytes.
 * What must hold: values stay in their ranges, the formatter never writes
 * past its buffer and reports the length it wanted, and the value a file
 * shows, written back, sets the knob to that same value.
 */
#include "tests/fuzz/fuzz_host.h"
/* vsprintf.c and knobs.c each have a static parse_int; one TU needs two names. */
#define parse_int vsprintf_parse_int
#include "kernel/lib/vsprintf.c"
#undef parse_int
#include "kernel/lib/cmdline.c"
#include "kernel/knobs.c"
#include "fs/proc/text.c"

#define PROC_WRITE_MAX 256 /* fs/proc/procfs.c's: longer writes are EINVAL */

KNOB_INT(f_int, "f_int", 5, -3, 1000, true, "an integer");
KNOB_INT_OFF(f_off, "f_off", 0, 997, true, NULL, "an integer also spelled off");
KNOB_ENUM(f_enum, "f_enum", 0, true, "an enumeration", "a", "bb", "ccc");
KNOB_BOOL(f_bool, "f_bool", 0, true, "a flag");
KNOB_STRING(f_text, "f_text", 16, "x", "a text");

/* The file's text in a buffer of size bytes: within it, NUL-terminated, the same wanted length. */
static size_t
format_into(const struct knob *k, char *buf, size_t size)
{
	struct procbuf b = { .p = buf, .size = size };

	memset(buf, 0x7e, size + 8);
	procfs_format_knob(&b, k);
	for (size_t i = size; i < size + 8; i++)
		if (buf[i] != 0x7e)
			abort(); /* written past the buffer */
	if (size && (!memchr(buf, '\0', size)))
		abort();
	return b.len;
}

/* The first line of k's file, written back, must give the same value. */
static void
check_round_trip(const struct knob *k)
{
	char text[512], again[512];
	size_t len = format_into(k, text, 400);

	for (size_t size = 0; size < 64; size++)
		if (format_into(k, again, size) != len)
			abort(); /* the wanted length depends on the room */
	if (k->type == KNOB_STRING)
		return; /* shown as it is: a newline in the text makes two lines */
	*strchr(text, '\n') = '\0';
	int before = *k->value;
	if (knob_set(k, procfs_trim(text)) != 0 || *k->value != before)
		abort();
}

static void
write_value(const struct knob *k, const uint8_t *bytes, size_t n)
{
	char text[PROC_WRITE_MAX];

	if (n >= sizeof(text))
		return; /* EINVAL */
	memcpy(text, bytes, n);
	text[n] = '\0';
	knob_set(k, procfs_trim(text));
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t nknobs = (size_t)(__stop_knobs - __start_knobs);

	while (size >= 2) {
		const struct knob *k = &__start_knobs[data[0] % nknobs];
		size_t n = MIN((size_t)data[1], size - 2);
		write_value(k, data + 2, n);
		data += 2 + n;
		size -= 2 + n;
		if (f_int < -3 || f_int > 1000 || f_off < 0 || f_off > 997 || f_enum < 0 ||
		    f_enum > 2 || (f_bool != 0 && f_bool != 1) ||
		    strnlen(f_text, sizeof(f_text)) >= sizeof(f_text))
			abort(); /* a knob out of its range */
		check_round_trip(k);
	}
	return 0;
}
