/*
 * test_scancode.c - PS/2 scancode set 1 to bytes on the host: letters,
 * digits, shift, caps lock (and its key repeat), ctrl, the 0xe0 keys that
 * type something and those that must not, and the Pause sequence.
 */
#include "tests/unit/unit.h"
#include "drivers/scancode.c"

static struct scancode_state st;

/* Feeds the codes; returns the bytes typed, as a string. */
static const char *
keys(const u8 *codes, size_t n)
{
	static char out[64];
	size_t len = 0;

	for (size_t i = 0; i < n; i++) {
		int c = scancode_to_byte(&st, codes[i]);
		if (c >= 0)
			out[len++] = (char)c;
	}
	out[len] = '\0';
	return out;
}

#define KEYS(...) keys((const u8[]){ __VA_ARGS__ }, sizeof((const u8[]){ __VA_ARGS__ }))

UNIT_TEST(letters_digits_and_punctuation)
{
	memset(&st, 0, sizeof(st));
	/* h i (press, release), space, 1, 0, '-', '/', '`' */
	CHECK_STR(KEYS(0x23, 0xa3, 0x17, 0x97, 0x39, 0x02, 0x0b, 0x0c, 0x35, 0x29), "hi 10-/`");
	CHECK_STR(KEYS(0x1c, 0x0e, 0x0f, 0x01), "\r\x7f\t\x1b");
	/* the last entries of the table: keypad 7 and keypad . */
	CHECK_STR(KEYS(0x47, 0x53, 0x37), "7.*");
	/* beyond it: F11 */
	CHECK_STR(KEYS(0x57, 0xd7), "");
}

UNIT_TEST(shift)
{
	memset(&st, 0, sizeof(st));
	CHECK_STR(KEYS(0x2a, 0x1e, 0x02, 0x28, 0xaa, 0x1e), "A!\"a");
	CHECK_STR(KEYS(0x36, 0x2b, 0x0d, 0xb6, 0x0d), "|+=");
	/* both shifts down, one released: still shifted */
	CHECK_STR(KEYS(0x2a, 0x36, 0xaa, 0x1f, 0xb6, 0x1f), "Ss");
}

UNIT_TEST(caps_lock_affects_letters_only)
{
	memset(&st, 0, sizeof(st));
	CHECK_STR(KEYS(0x3a, 0xba, 0x10, 0x02), "Q1");
	CHECK_STR(KEYS(0x2a, 0x10, 0x02, 0xaa), "q!");
	/* a held caps lock repeats its make code: one toggle only */
	CHECK_STR(KEYS(0x3a, 0x3a, 0x3a, 0xba, 0x10), "q");
}

UNIT_TEST(ctrl_makes_control_characters)
{
	memset(&st, 0, sizeof(st));
	CHECK_STR(KEYS(0x1d, 0x2e, 0x16, 0x20, 0x9d, 0x2e),
		  "\x03\x15\x04"
		  "c");
	/* right ctrl comes with the prefix */
	CHECK_STR(KEYS(0xe0, 0x1d, 0x1e, 0xe0, 0x9d, 0x1e),
		  "\x01"
		  "a");
	/* with shift and caps lock too; digits unchanged */
	CHECK_STR(KEYS(0x3a, 0xba, 0x1d, 0x2a, 0x2c, 0x02, 0xaa, 0x9d),
		  "\x1a"
		  "!");
}

UNIT_TEST(extended_keys)
{
	memset(&st, 0, sizeof(st));
	/* keypad Enter and keypad / type; arrows (sharing keypad codes) do not */
	CHECK_STR(KEYS(0xe0, 0x1c, 0xe0, 0x9c, 0xe0, 0x35, 0xe0, 0xb5), "\r/");
	CHECK_STR(KEYS(0xe0, 0x48, 0xe0, 0xc8, 0xe0, 0x4b, 0xe0, 0x50, 0x48), "8");
	/* Print Screen wraps itself in a fake shift: nothing typed, nothing shifted */
	CHECK_STR(KEYS(0xe0, 0x2a, 0xe0, 0x37, 0xe0, 0xb7, 0xe0, 0xaa, 0x1e), "a");
	CHECK_STR(KEYS(0xe0, 0x2a, 0x1e, 0xe0, 0xaa), "a");
}

UNIT_TEST(pause_types_nothing)
{
	memset(&st, 0, sizeof(st));
	CHECK_STR(KEYS(0xe1, 0x1d, 0x45, 0xe1, 0x9d, 0xc5, 0x1e), "a");
	CHECK(!(st.held & (MOD_LCTRL | MOD_RCTRL)));
}
