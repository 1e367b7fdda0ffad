/*
 * scancode.h - turning PS/2 keyboard scancodes (set 1, which the 8042
 * controller's translation delivers) into the bytes a terminal sends, for
 * a US layout: shift, caps lock (letters only), ctrl (ctrl+letter gives
 * 1..26). Enter sends '\r' and Backspace DEL, as on a Linux console; the
 * keypad sends its digits (num lock is taken as on). Keys with no byte
 * (arrows, function keys, alt, Pause) produce nothing.
 *
 * Hardware-free: drivers/ps2kbd.c feeds it; tests/unit/test_scancode.c
 * tests it on the host.
 */
#ifndef REWIND_SCANCODE_H
#define REWIND_SCANCODE_H

#include "kernel/lib/types.h"

struct scancode_state {
	u8 held; /* modifier keys down: MOD_* in scancode.c */
	bool caps_lock;
	bool extended; /* the previous byte was the 0xe0 prefix */
	u8 skip;       /* bytes of a Pause sequence still to come */
};

/* The byte the scancode types, or -1 when it types none. */
int scancode_to_byte(struct scancode_state *s, u8 code);

#endif
