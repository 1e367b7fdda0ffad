/*
 * ldisc.c - the terminal line discipline; see ldisc.h.
 */
#include "drivers/ldisc.h"
#include "kernel/lib/string.h"
#include "uapi/signal.h"

#define EOF_MARK  0 /* a NUL marked as a line end: see struct ldisc */
#define BACKSPACE 0x08
#define DEL	  0x7f

/* Linux's defaults (tty_std_termios), minus what is not implemented (IXON, IEXTEN). */
static const struct kernel_termios default_termios = {
	.c_iflag = ICRNL | IUTF8,
	.c_oflag = OPOST | ONLCR,
	.c_cflag = B115200 | CS8 | CREAD,
	.c_lflag = ISIG | ICANON | ECHO | ECHOE | ECHOK | ECHOCTL | ECHOKE,
	.c_cc = {
		[VINTR] = 'C' & 0x1f, [VQUIT] = '\\' & 0x1f, [VERASE] = DEL,
		[VKILL] = 'U' & 0x1f, [VEOF] = 'D' & 0x1f, [VTIME] = 0, [VMIN] = 1,
		[VSTART] = 'Q' & 0x1f, [VSTOP] = 'S' & 0x1f, [VSUSP] = 'Z' & 0x1f,
		[VREPRINT] = 'R' & 0x1f, [VDISCARD] = 'O' & 0x1f, [VWERASE] = 'W' & 0x1f,
		[VLNEXT] = 'V' & 0x1f,
	},
};

void
ldisc_init(struct ldisc *ld, ldisc_echo_fn echo, void *echo_ctx)
{
	memset(ld, 0, sizeof(*ld));
	ld->termios = default_termios;
	ld->echo = echo;
	ld->echo_ctx = echo_ctx;
}

/* ---- the ring ---------------------------------------------------------- */

static u32
used(const struct ldisc *ld)
{
	return ld->head - ld->tail;
}

static u8
byte_at(const struct ldisc *ld, u32 i)
{
	return ld->buf[i & (LDISC_BUF_SIZE - 1)];
}

/* Appends c to the line being edited (or, in raw mode, to the input). */
static void
append(struct ldisc *ld, u8 c)
{
	ld->buf[ld->head++ & (LDISC_BUF_SIZE - 1)] = c;
}

static bool
is_line_end(const struct ldisc *ld, u32 i)
{
	i &= LDISC_BUF_SIZE - 1;
	return ld->line_end[i / 64] & (1ull << (i % 64));
}

static void
set_line_end(struct ldisc *ld, u32 i, bool on)
{
	i &= LDISC_BUF_SIZE - 1;
	if (on)
		ld->line_end[i / 64] |= 1ull << (i % 64);
	else
		ld->line_end[i / 64] &= ~(1ull << (i % 64));
}

static bool
is_eof_mark(const struct ldisc *ld, u32 i)
{
	return is_line_end(ld, i) && byte_at(ld, i) == EOF_MARK;
}

/* ---- flags and special characters ------------------------------------- */

static bool
lflag(const struct ldisc *ld, u32 bit)
{
	return ld->termios.c_lflag & bit;
}

static bool
iflag(const struct ldisc *ld, u32 bit)
{
	return ld->termios.c_iflag & bit;
}

/* Whether c is the control character at index cc; a 0 there disables it. */
static bool
is_cc(const struct ldisc *ld, unsigned cc, u8 c)
{
	return ld->termios.c_cc[cc] != 0 && ld->termios.c_cc[cc] == c;
}

static bool
is_erase(const struct ldisc *ld, u8 c)
{
	/* Terminals disagree on what the backspace key sends, so both erase. */
	return is_cc(ld, VERASE, c) || c == BACKSPACE || c == DEL;
}

static bool
is_newline(const struct ldisc *ld, u8 c)
{
	return c == '\n' || is_cc(ld, VEOL, c) || is_cc(ld, VEOL2, c);
}

/* ---- echo -------------------------------------------------------------- */

static void
echo(struct ldisc *ld, const char *s, size_t n)
{
	ld->echo(ld->echo_ctx, s, n);
}

/* Whether c is echoed as ^X: ECHOCTL shows control characters but tab and newline. */
static bool
echoes_as_caret(const struct ldisc *ld, u8 c)
{
	return lflag(ld, ECHOCTL) && (c < 0x20 || c == DEL) && c != '\t' && c != '\n';
}

static void
echo_char(struct ldisc *ld, u8 c)
{
	if (!lflag(ld, ECHO))
		return;
	if (echoes_as_caret(ld, c)) {
		char caret[2] = { '^', (char)(c ^ 0x40) };
		echo(ld, caret, 2);
	} else {
		char ch = (char)c;
		echo(ld, &ch, 1);
	}
}

/*
 * Takes c off the screen: one column, two for a ^X. A tab is taken back as
 * one column too; getting it right would need the column the line started
 * at, which only output tracking (not done) could tell.
 */
static void
echo_erase(struct ldisc *ld, u8 c)
{
	if (!lflag(ld, ECHO))
		return;
	echo(ld, "\b \b", 3);
	if (echoes_as_caret(ld, c))
		echo(ld, "\b \b", 3);
}

/* A full buffer drops the character; the bell tells the typist (echo or not). */
static void
ring_bell(struct ldisc *ld)
{
	echo(ld, "\a", 1);
}

/* ---- canonical editing -------------------------------------------------- */

static bool
is_utf8_continuation(u8 c)
{
	return (c & 0xc0) == 0x80;
}

/* Erases the last character of the line being edited, if there is one. */
static void
erase_char(struct ldisc *ld)
{
	u8 c;

	if (ld->head == ld->canon_head)
		return;
	do
		c = byte_at(ld, --ld->head);
	while (iflag(ld, IUTF8) && is_utf8_continuation(c) && ld->head != ld->canon_head);
	echo_erase(ld, c);
}

static void
kill_line(struct ldisc *ld)
{
	while (ld->head != ld->canon_head)
		erase_char(ld);
}

/*
 * ^C, ^\ or ^Z under ISIG: the signal for the foreground group, which the
 * terminal sends once its lock is dropped. As Linux's n_tty, all input is
 * discarded first (unless NOFLSH) and the character is echoed (^C); the
 * shell that catches the signal starts the fresh line itself.
 */
static void
interrupt(struct ldisc *ld, u8 c, int sig)
{
	if (!lflag(ld, NOFLSH))
		ldisc_flush_input(ld);
	echo_char(ld, c);
	ld->signal = sig;
}

/* The signal c raises under ISIG, or 0. */
static int
signal_char(const struct ldisc *ld, u8 c)
{
	if (!lflag(ld, ISIG))
		return 0;
	if (is_cc(ld, VINTR, c))
		return SIGINT;
	if (is_cc(ld, VQUIT, c))
		return SIGQUIT;
	if (is_cc(ld, VSUSP, c))
		return SIGTSTP;
	return 0;
}

/* Ends the line with c (EOF_MARK for ^D), which makes it readable. */
static bool
end_line(struct ldisc *ld, u8 c)
{
	if (used(ld) >= LDISC_BUF_SIZE) {
		ring_bell(ld);
		return false;
	}
	set_line_end(ld, ld->head, true);
	append(ld, c);
	ld->canon_head = ld->head;
	if (c != EOF_MARK)
		echo_char(ld, c);
	return true;
}

/* An ordinary character joins the line, if room for the line's end remains. */
static void
add_char(struct ldisc *ld, u8 c)
{
	if (used(ld) >= LDISC_BUF_SIZE - 1) {
		ring_bell(ld);
		return;
	}
	append(ld, c);
	echo_char(ld, c);
}

static bool
receive_canonical(struct ldisc *ld, u8 c)
{
	if (is_erase(ld, c))
		erase_char(ld);
	else if (is_cc(ld, VKILL, c))
		kill_line(ld);
	else if (is_cc(ld, VEOF, c))
		return end_line(ld, EOF_MARK);
	else if (is_newline(ld, c))
		return end_line(ld, c);
	else
		add_char(ld, c);
	return false;
}

/* ---- input ---------------------------------------------------------------- */

/* Raw mode: every byte is readable at once; a full buffer drops it. */
static bool
receive_raw(struct ldisc *ld, u8 c)
{
	if (used(ld) >= LDISC_BUF_SIZE)
		return false;
	append(ld, c);
	ld->canon_head = ld->head;
	echo_char(ld, c);
	return true;
}

/* ICRNL, INLCR, IGNCR: -1 when the byte is to be ignored. */
static int
map_input(const struct ldisc *ld, u8 c)
{
	if (c == '\r' && iflag(ld, IGNCR))
		return -1;
	if (c == '\r' && iflag(ld, ICRNL))
		return '\n';
	if (c == '\n' && iflag(ld, INLCR))
		return '\r';
	return c;
}

bool
ldisc_receive(struct ldisc *ld, u8 byte)
{
	int c = map_input(ld, byte);

	if (c < 0)
		return false;
	int sig = signal_char(ld, (u8)c);
	if (sig) {
		interrupt(ld, (u8)c, sig);
		return false;
	}
	if (lflag(ld, ICANON))
		return receive_canonical(ld, (u8)c);
	return receive_raw(ld, (u8)c);
}

/* ---- reading -------------------------------------------------------------- */

bool
ldisc_input_available(const struct ldisc *ld)
{
	return ld->canon_head != ld->tail;
}

bool
ldisc_read_ready(const struct ldisc *ld, size_t n)
{
	if (lflag(ld, ICANON))
		return ldisc_input_available(ld);
	return ld->canon_head - ld->tail >= MIN((size_t)ld->termios.c_cc[VMIN], n);
}

size_t
ldisc_readable(const struct ldisc *ld)
{
	size_t n = 0;

	for (u32 i = ld->tail; i != ld->canon_head; i++)
		n += !is_eof_mark(ld, i);
	return n;
}

/* Takes the byte at the tail off the ring; returns whether it ended a line. */
static bool
consume(struct ldisc *ld)
{
	bool end = is_line_end(ld, ld->tail);

	set_line_end(ld, ld->tail, false);
	ld->tail++;
	return end;
}

size_t
ldisc_read(struct ldisc *ld, char *dst, size_t n)
{
	bool canonical = lflag(ld, ICANON);
	size_t copied = 0;

	if (n == 0)
		return 0;
	while (ld->tail != ld->canon_head) {
		/* The mark is consumed even when dst is full: it belongs to the
		 * line just returned, and left behind it would read as a false EOF. */
		if (is_eof_mark(ld, ld->tail)) {
			consume(ld);
			if (canonical)
				break;
			continue;
		}
		if (copied == n)
			break;
		dst[copied++] = (char)byte_at(ld, ld->tail);
		if (consume(ld) && canonical)
			break;
	}
	return copied;
}

/* ---- settings ------------------------------------------------------------- */

void
ldisc_set_termios(struct ldisc *ld, const struct kernel_termios *t)
{
	ld->termios = *t;
	if (!lflag(ld, ICANON))
		ld->canon_head = ld->head;
}

int
ldisc_take_signal(struct ldisc *ld)
{
	int sig = ld->signal;

	ld->signal = 0;
	return sig;
}

void
ldisc_flush_input(struct ldisc *ld)
{
	memset(ld->line_end, 0, sizeof(ld->line_end));
	ld->tail = ld->canon_head = ld->head;
}
