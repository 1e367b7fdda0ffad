/*
 * scancode.c - scancode set 1 to bytes; see scancode.h.
 *
 * A key sends its make code when pressed (again while it repeats) and the
 * make code | 0x80 when released. Keys added after the original PC/XT
 * keyboard come after an 0xe0 prefix, some of them reusing an old key's
 * code (the arrows share the keypad's), so the prefix must be remembered
 * for one byte. Pause alone sends e1 1d 45 e1 9d c5 and no release.
 */
#include "drivers/scancode.h"

#define SC_EXTENDED 0xe0
#define SC_PAUSE    0xe1
#define SC_RELEASE  0x80
#define PAUSE_TAIL  2 /* bytes after each 0xe1 */

#define SC_CTRL	     0x1d /* left; right with the prefix */
#define SC_LSHIFT    0x2a
#define SC_RSHIFT    0x36
#define SC_CAPS_LOCK 0x3a
#define SC_ENTER     0x1c /* with the prefix: keypad Enter */
#define SC_SLASH     0x35 /* with the prefix: keypad / */

#define MOD_LSHIFT   0x01
#define MOD_RSHIFT   0x02
#define MOD_LCTRL    0x04
#define MOD_RCTRL    0x08
#define MOD_CAPS_KEY 0x10 /* held, so that its repeats do not toggle again */

/* The byte each make code types, without and with shift, up to 0x53. */
static const char plain[] =
	"\0\0331234567890-=\177\t" /* 0x00-0x0f */
	"qwertyuiop[]\r\0as"	   /* 0x10-0x1f */
	"dfghjkl;'`\0\\zxcv"	   /* 0x20-0x2f */
	"bnm,./\0*\0 \0\0\0\0\0\0" /* 0x30-0x3f */
	"\0\0\0\0\0\0\0"
	"789-456+1230."; /* 0x40-0x53: F6-F10, locks, keypad */
static const char shifted[] =
	"\0\033!@#$%^&*()_+\177\t"
	"QWERTYUIOP{}\r\0AS"
	"DFGHJKL:\"~\0|ZXCV"
	"BNM<>?\0*\0 \0\0\0\0\0\0"
	"\0\0\0\0\0\0\0"
	"789-456+1230.";
BUILD_BUG_ON(sizeof(plain) != 0x54 + 1 || sizeof(shifted) != sizeof(plain));

/* The modifier bit a key is, or 0. The prefixed shifts are fake ones that
 * some keyboards wrap around other keys: not modifiers. */
static u8
modifier_bit(u8 key, bool extended)
{
	switch (key) {
	case SC_CTRL:
		return extended ? MOD_RCTRL : MOD_LCTRL;
	case SC_LSHIFT:
		return extended ? 0 : MOD_LSHIFT;
	case SC_RSHIFT:
		return extended ? 0 : MOD_RSHIFT;
	case SC_CAPS_LOCK:
		return extended ? 0 : MOD_CAPS_KEY;
	}
	return 0;
}

/* Records a modifier key going down or up; returns whether key was one. */
static bool
track_modifier(struct scancode_state *s, u8 key, bool extended, bool released)
{
	u8 bit = modifier_bit(key, extended);

	if (!bit)
		return false;
	if (bit == MOD_CAPS_KEY && !released && !(s->held & MOD_CAPS_KEY))
		s->caps_lock = !s->caps_lock;
	if (released)
		s->held &= ~bit;
	else
		s->held |= bit;
	return true;
}

/* The prefixed keys that type something: keypad Enter and keypad slash. */
static int
extended_key(u8 key)
{
	if (key == SC_ENTER)
		return '\r';
	if (key == SC_SLASH)
		return '/';
	return -1;
}

static bool
is_letter(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int
plain_key(const struct scancode_state *s, u8 key)
{
	if (key >= sizeof(plain) - 1)
		return -1;
	char c = s->held & (MOD_LSHIFT | MOD_RSHIFT) ? shifted[key] : plain[key];
	if (c == 0)
		return -1;
	if (s->caps_lock && is_letter(c))
		c ^= 0x20; /* caps lock inverts shift, for letters only */
	if (s->held & (MOD_LCTRL | MOD_RCTRL) && c >= '@' && c < 0x7f)
		c &= 0x1f; /* ctrl+A = 1 ... ctrl+Z = 26, ctrl+[ = ESC */
	return (u8)c;
}

int
scancode_to_byte(struct scancode_state *s, u8 code)
{
	if (s->skip) {
		s->skip--;
		return -1;
	}
	if (code == SC_PAUSE) {
		s->skip = PAUSE_TAIL;
		return -1;
	}
	if (code == SC_EXTENDED) {
		s->extended = true;
		return -1;
	}

	bool extended = s->extended;
	bool released = code & SC_RELEASE;
	u8 key = code & ~SC_RELEASE;

	s->extended = false;
	if (track_modifier(s, key, extended, released) || released)
		return -1;
	return extended ? extended_key(key) : plain_key(s, key);
}
