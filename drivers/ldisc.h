/*
 * ldisc.h - the terminal line discipline: what happens to typed bytes
 * between the keyboard (or serial line) and read(2), as Linux's n_tty does.
 *
 * Canonical mode (ICANON, the default) collects a line with editing:
 * VERASE (DEL) and backspace erase a character, VKILL (^U) the whole line,
 * VEOF (^D) ends the input (at the start of a line read returns 0), and a
 * newline, VEOL or VEOL2 complete the line, which only then becomes
 * readable. Raw mode (ICANON cleared) makes every byte readable at once;
 * read returns when VMIN bytes are there (VTIME is not implemented).
 * Input processing: ICRNL, INLCR, IGNCR; IUTF8 (erase takes a whole UTF-8
 * character). Echo: ECHO, with ECHOCTL showing control characters as ^X;
 * erasing is always visual, as with ECHOE and ECHOKE. ISIG: VINTR (^C),
 * VQUIT (^\) and VSUSP (^Z) discard all input (unless NOFLSH), echo, and
 * leave SIGINT, SIGQUIT or SIGTSTP for the terminal to send to its
 * foreground group (ldisc_take_signal).
 * The c_oflag bits are kept for TCGETS but not acted on here: the consoles
 * themselves turn '\n' into a carriage return and a line feed.
 *
 * The buffer is LDISC_BUF_SIZE bytes for the completed lines not yet read
 * and the line being edited together, as in Linux. In canonical mode the
 * last byte is kept for the line's end: further characters are dropped and
 * a BEL is echoed.
 *
 * Hardware-free and not locked: the caller serialises (drivers/tty.c holds
 * its spinlock) and echoed bytes leave through a callback. Host-tested in
 * tests/unit/test_ldisc.c.
 */
#ifndef REWIND_LDISC_H
#define REWIND_LDISC_H

#include "kernel/lib/types.h"
#include "uapi/termios.h"

#define LDISC_BUF_SIZE 4096 /* a power of two; Linux's N_TTY_BUF_SIZE */

typedef void (*ldisc_echo_fn)(void *ctx, const char *s, size_t n);

/*
 * The buffer is a ring indexed by free-running counters:
 *   [tail, canon_head)   readable: completed lines (all bytes in raw mode)
 *   [canon_head, head)   the line being edited (empty in raw mode)
 * A set bit in line_end marks the byte that ends a line; a marked NUL is
 * the end-of-file mark that ^D leaves, which read consumes but never
 * returns (0 is "disabled" in c_cc, so no typed character can mean it).
 */
struct ldisc {
	struct kernel_termios termios;
	u8 buf[LDISC_BUF_SIZE];
	u64 line_end[LDISC_BUF_SIZE / 64];
	u32 tail, canon_head, head;
	ldisc_echo_fn echo;
	void *echo_ctx;
	int signal; /* raised by ISIG, not yet taken by the terminal */
};

/* Empty, with Linux's default termios (canonical, echo on). */
void ldisc_init(struct ldisc *ld, ldisc_echo_fn echo, void *echo_ctx);
/* One input byte; returns whether it made something readable (wake readers). */
bool ldisc_receive(struct ldisc *ld, u8 c);
/*
 * Whether a read of n bytes would return now: a completed line (or the
 * end-of-file mark) in canonical mode, at least min(VMIN, n) bytes in raw.
 */
bool ldisc_read_ready(const struct ldisc *ld, size_t n);
/* Whether there is anything to read (poll's POLLIN). */
bool ldisc_input_available(const struct ldisc *ld);
/* Bytes a read could return (FIONREAD). */
size_t ldisc_readable(const struct ldisc *ld);
/*
 * Moves up to n readable bytes to dst, at most one line in canonical mode:
 * the count; 0 when the end-of-file mark was reached.
 */
size_t ldisc_read(struct ldisc *ld, char *dst, size_t n);
/* TCSETS: leaving canonical mode makes the line being edited readable. */
void ldisc_set_termios(struct ldisc *ld, const struct kernel_termios *t);
/* The signal the last input raised (ISIG), or 0; taken once. */
int ldisc_take_signal(struct ldisc *ld);
/* Discards all input, read or not yet (TCSETSF). */
void ldisc_flush_input(struct ldisc *ld);

#endif
