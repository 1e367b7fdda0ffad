/*
 * test_ldisc.c - the terminal line discipline on the host: typing and echo,
 * erase (also at the start of a line and of UTF-8 characters), ^U, ^D at
 * the start and in the middle of a line, CR to NL, ^C, a full buffer,
 * short reads, raw mode with VMIN, echo off, and switching modes.
 */
#include "tests/unit/unit.h"
#include "drivers/ldisc.c"

static char echoed[3 * LDISC_BUF_SIZE];
static size_t echoed_len;

static void
capture_echo(void *ctx, const char *s, size_t n)
{
	CHECK(ctx == echoed);
	CHECK(echoed_len + n < sizeof(echoed));
	memcpy(echoed + echoed_len, s, n);
	echoed_len += n;
	echoed[echoed_len] = '\0';
}

static struct ldisc ld;

static void
setup(void)
{
	ldisc_init(&ld, capture_echo, echoed);
	echoed_len = 0;
	echoed[0] = '\0';
}

/* Feeds s; returns how many bytes reported that something became readable. */
static int
type(const char *s)
{
	int wakes = 0;

	while (*s)
		wakes += ldisc_receive(&ld, (u8)*s++);
	return wakes;
}

/* One read of up to n bytes, as a string (its length in *len when wanted). */
static const char *
read_str(size_t n, size_t *len)
{
	static char buf[LDISC_BUF_SIZE + 1];
	size_t got = ldisc_read(&ld, buf, MIN(n, LDISC_BUF_SIZE));

	buf[got] = '\0';
	if (len)
		*len = got;
	return buf;
}

static void
set_lflag(u32 clear, u32 set, u8 vmin)
{
	struct kernel_termios t = ld.termios;

	t.c_lflag = (t.c_lflag & ~clear) | set;
	t.c_cc[VMIN] = vmin;
	ldisc_set_termios(&ld, &t);
}

UNIT_TEST(termios_abi)
{
	/* What TCGETS copies on x86-64 Linux: four u32, c_line, c_cc[19]. */
	CHECK_EQ(sizeof(struct kernel_termios), 36);
	CHECK_EQ(offsetof(struct kernel_termios, c_line), 16);
	CHECK_EQ(offsetof(struct kernel_termios, c_cc), 17);
	setup();
	CHECK_EQ(ld.termios.c_cc[VERASE], 0x7f);
	CHECK_EQ(ld.termios.c_cc[VMIN], 1);
	CHECK(ld.termios.c_lflag & ICANON);
}

UNIT_TEST(typing_completes_a_line)
{
	setup();
	CHECK_EQ(type("ls -l"), 0);
	CHECK(!ldisc_input_available(&ld));
	CHECK(!ldisc_read_ready(&ld, 100));
	CHECK_STR(echoed, "ls -l");
	CHECK_EQ(type("\n"), 1);
	CHECK(ldisc_read_ready(&ld, 100));
	CHECK_EQ(ldisc_readable(&ld), 6);
	CHECK_STR(read_str(100, NULL), "ls -l\n");
	CHECK(!ldisc_input_available(&ld));
	CHECK_STR(echoed, "ls -l\n");
}

UNIT_TEST(one_line_per_read)
{
	setup();
	type("one\ntwo\nthr");
	CHECK_EQ(ldisc_readable(&ld), 8);
	CHECK_STR(read_str(100, NULL), "one\n");
	CHECK_STR(read_str(100, NULL), "two\n");
	CHECK(!ldisc_read_ready(&ld, 100));
	type("ee\n");
	CHECK_STR(read_str(100, NULL), "three\n");
}

UNIT_TEST(short_reads_take_a_line_in_pieces)
{
	setup();
	type("hello\nx\n");
	CHECK_STR(read_str(2, NULL), "he");
	CHECK_STR(read_str(2, NULL), "ll");
	CHECK_STR(read_str(2, NULL), "o\n");
	CHECK_STR(read_str(100, NULL), "x\n");
}

UNIT_TEST(cr_becomes_nl)
{
	setup();
	CHECK_EQ(type("pwd\r"), 1);
	CHECK_STR(read_str(100, NULL), "pwd\n");
	CHECK_STR(echoed, "pwd\n");

	/* Without ICRNL a CR is an ordinary character, echoed as ^M. */
	struct kernel_termios t = ld.termios;
	t.c_iflag &= ~ICRNL;
	ldisc_set_termios(&ld, &t);
	echoed_len = 0;
	type("a\rb\n");
	CHECK_STR(read_str(100, NULL), "a\rb\n");
	CHECK_STR(echoed, "a^Mb\n");

	t.c_iflag |= IGNCR;
	ldisc_set_termios(&ld, &t);
	type("c\r\n");
	CHECK_STR(read_str(100, NULL), "c\n");
}

UNIT_TEST(backspace_and_del_erase_one_character)
{
	setup();
	type("lx\x7f");
	CHECK_STR(echoed, "lx\b \b");
	type("s\x08\x08");
	CHECK_STR(echoed, "lx\b \bs\b \b\b \b");
	type("cat\n");
	CHECK_STR(read_str(100, NULL), "cat\n");
}

UNIT_TEST(erase_at_line_start_does_nothing)
{
	setup();
	type("\x7f\x08");
	CHECK_EQ(echoed_len, 0);
	CHECK(!ldisc_input_available(&ld));

	/* A completed line cannot be erased into. */
	type("ab\n\x7f\x7f"
	     "c\n");
	CHECK_STR(read_str(100, NULL), "ab\n");
	CHECK_STR(read_str(100, NULL), "c\n");
	CHECK_STR(echoed, "ab\nc\n");
}

UNIT_TEST(erase_takes_control_and_utf8_characters_whole)
{
	setup();
	type("a\x01\x7f");
	CHECK_STR(echoed, "a^A\b \b\b \b");
	echoed_len = 0;
	type("\xc3\xa9\x7f\n"); /* e-acute, two bytes, one erase */
	CHECK_STR(read_str(100, NULL), "a\n");
	CHECK_STR(echoed, "\xc3\xa9\b \b\n");
}

UNIT_TEST(kill_erases_the_whole_line)
{
	setup();
	type("rm -rf /\x15");
	CHECK_STR(echoed, "rm -rf /\b \b\b \b\b \b\b \b\b \b\b \b\b \b\b \b");
	CHECK(!ldisc_input_available(&ld));
	type("ls\n");
	CHECK_STR(read_str(100, NULL), "ls\n");
}

UNIT_TEST(eof_at_line_start_reads_zero)
{
	size_t len;

	setup();
	CHECK_EQ(type("\x04"), 1);
	CHECK_EQ(echoed_len, 0); /* ^D is not echoed */
	CHECK(ldisc_read_ready(&ld, 100));
	CHECK(ldisc_input_available(&ld));
	CHECK_EQ(ldisc_readable(&ld), 0);
	CHECK_STR(read_str(100, &len), "");
	CHECK_EQ(len, 0);
	CHECK(!ldisc_input_available(&ld)); /* consumed: the next read waits */
}

UNIT_TEST(eof_mid_line_pushes_the_line_without_newline)
{
	size_t len;

	setup();
	CHECK_EQ(type("abc\x04"), 1);
	CHECK_STR(read_str(100, &len), "abc");
	CHECK_EQ(len, 3);
	CHECK(!ldisc_input_available(&ld)); /* not a false EOF afterwards */

	/* The same when the reader's buffer ends exactly at the mark... */
	type("xyz\x04");
	CHECK_STR(read_str(3, NULL), "xyz");
	CHECK(!ldisc_input_available(&ld));

	/* ... or before it. */
	type("uvw\x04\x04");
	CHECK_STR(read_str(2, NULL), "uv");
	CHECK_STR(read_str(2, NULL), "w");
	CHECK_STR(read_str(2, &len), ""); /* the second ^D: a real EOF */
	CHECK_EQ(len, 0);
}

UNIT_TEST(signal_characters_flush_input_and_raise_signals)
{
	setup();
	type("done\nsleep 100\x03");
	CHECK_STR(echoed, "done\nsleep 100^C");
	CHECK(!ldisc_input_available(&ld)); /* the completed line went too, as in Linux */
	CHECK_EQ(ldisc_take_signal(&ld), SIGINT);
	CHECK_EQ(ldisc_take_signal(&ld), 0);
	type("ls\n");
	CHECK_STR(read_str(100, NULL), "ls\n");

	type("\x1c");
	CHECK_EQ(ldisc_take_signal(&ld), SIGQUIT);
	type("\x1a");
	CHECK_EQ(ldisc_take_signal(&ld), SIGTSTP);

	/* NOFLSH keeps the input; a c_cc entry set elsewhere moves the signal. */
	set_lflag(0, NOFLSH, 1);
	ld.termios.c_cc[VINTR] = 'x' & 0x1f;
	type("ab\x18");
	CHECK_EQ(ldisc_take_signal(&ld), SIGINT);
	type("\x03\n");
	CHECK_EQ(ldisc_take_signal(&ld), 0);
	CHECK_STR(read_str(100, NULL), "ab\x03\n");

	/* Without ISIG, ^C is an ordinary character. */
	set_lflag(ISIG, 0, 1);
	type("\x18\n");
	CHECK_EQ(ldisc_take_signal(&ld), 0);
	CHECK_STR(read_str(100, NULL), "\x18\n");
}

UNIT_TEST(full_buffer_drops_characters_and_rings)
{
	static char line[LDISC_BUF_SIZE + 1];
	size_t len;

	setup();
	memset(line, 'x', LDISC_BUF_SIZE - 1);
	line[LDISC_BUF_SIZE - 1] = '\0';
	type(line);
	CHECK_EQ(echoed_len, LDISC_BUF_SIZE - 1);
	type("yz");
	CHECK_EQ(echoed_len, LDISC_BUF_SIZE + 1);
	CHECK_STR(echoed + LDISC_BUF_SIZE - 1, "\a\a");

	/* The line can still be ended, and erasing makes room again. */
	type("\x7f"
	     "y\n");
	CHECK_STR(read_str(LDISC_BUF_SIZE, &len) + LDISC_BUF_SIZE - 3, "xy\n");
	CHECK_EQ(len, LDISC_BUF_SIZE);
	type("ok\n");
	CHECK_STR(read_str(100, NULL), "ok\n");
}

UNIT_TEST(full_buffer_of_unread_lines)
{
	setup();
	for (int i = 0; i < LDISC_BUF_SIZE / 2; i++)
		type("a\n");
	echoed_len = 0;
	CHECK_EQ(type("b\n"), 0);
	CHECK_STR(echoed, "\a\a");
	CHECK_STR(read_str(100, NULL), "a\n");
	CHECK_EQ(type("c\n"), 1);
}

UNIT_TEST(the_ring_wraps)
{
	setup();
	for (int i = 0; i < 3 * LDISC_BUF_SIZE / 5; i++) {
		echoed_len = 0;
		type("abcd\n");
		CHECK_STR(read_str(100, NULL), "abcd\n");
	}
	type("ef\x04");
	CHECK_STR(read_str(100, NULL), "ef");
	CHECK(!ldisc_input_available(&ld));
}

UNIT_TEST(raw_mode_bytes_are_readable_at_once)
{
	setup();
	set_lflag(ICANON, 0, 1);
	CHECK(!ldisc_read_ready(&ld, 100));
	CHECK_EQ(type("q"), 1);
	CHECK(ldisc_read_ready(&ld, 100));
	CHECK_STR(read_str(100, NULL), "q");

	/* Editing and line characters are just data. */
	type("a\x7f\x15\x04\r");
	CHECK_EQ(ldisc_readable(&ld), 5);
	CHECK_STR(read_str(100, NULL), "a\x7f\x15\x04\n");
	CHECK_STR(echoed, "qa^?^U^D\n");
}

UNIT_TEST(raw_mode_vmin)
{
	setup();
	set_lflag(ICANON | ECHO, 0, 3);
	type("ab");
	CHECK(ldisc_input_available(&ld));  /* poll says readable ... */
	CHECK(!ldisc_read_ready(&ld, 100)); /* ... but read waits for VMIN */
	CHECK(ldisc_read_ready(&ld, 2));    /* unless it asks for fewer */
	type("c");
	CHECK(ldisc_read_ready(&ld, 100));
	CHECK_STR(read_str(100, NULL), "abc");

	/* VMIN 0: a read never waits. */
	set_lflag(0, 0, 0);
	CHECK(ldisc_read_ready(&ld, 100));
	CHECK_STR(read_str(100, NULL), "");
}

UNIT_TEST(raw_mode_full_buffer_drops)
{
	setup();
	set_lflag(ICANON | ECHO, 0, 1);
	for (int i = 0; i < LDISC_BUF_SIZE; i++)
		CHECK(ldisc_receive(&ld, 'r'));
	CHECK(!ldisc_receive(&ld, 's'));
	CHECK_EQ(ldisc_readable(&ld), LDISC_BUF_SIZE);
	CHECK_EQ(echoed_len, 0);
}

UNIT_TEST(echo_off)
{
	setup();
	set_lflag(ECHO, 0, 1);
	type("secrex\x7ft\n");
	CHECK_EQ(echoed_len, 0);
	CHECK_STR(read_str(100, NULL), "secret\n");

	/* ECHOCTL off: control characters echo as themselves. */
	set_lflag(ECHOCTL, ECHO, 1);
	type("\x01\n");
	CHECK_STR(echoed, "\x01\n");
}

UNIT_TEST(leaving_canonical_mode_releases_the_edited_line)
{
	setup();
	type("done\npart");
	set_lflag(ICANON, 0, 1);
	CHECK_STR(read_str(100, NULL), "done\npart");

	/* Back to canonical: pending raw bytes read as one piece. */
	type("xy");
	set_lflag(0, ICANON, 1);
	CHECK(ldisc_read_ready(&ld, 100));
	CHECK_STR(read_str(100, NULL), "xy");
	type("z\n");
	CHECK_STR(read_str(100, NULL), "z\n");
}

UNIT_TEST(flush_discards_everything)
{
	setup();
	type("a\nb\x04"
	     "cd");
	ldisc_flush_input(&ld);
	CHECK(!ldisc_input_available(&ld));
	CHECK_EQ(ldisc_readable(&ld), 0);
	type("\x7f"
	     "e\n");
	CHECK_STR(read_str(100, NULL), "e\n");
}

UNIT_TEST(changed_control_characters)
{
	struct kernel_termios t;

	setup();
	t = ld.termios;
	t.c_cc[VEOF] = 0; /* disabled: ^D is ordinary */
	t.c_cc[VEOL] = ';';
	t.c_cc[VKILL] = '@';
	ldisc_set_termios(&ld, &t);
	type("\x04;");
	CHECK_STR(read_str(100, NULL), "\x04;");
	type("x@y;");
	CHECK_STR(read_str(100, NULL), "y;");
	/* A NUL byte is data, never the end-of-file mark. */
	CHECK(!ldisc_receive(&ld, 0));
	type("\n");
	CHECK_EQ(ldisc_readable(&ld), 2);
	size_t len;
	read_str(100, &len);
	CHECK_EQ(len, 2);
}
