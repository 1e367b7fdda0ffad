/*
 * test_vsprintf.c - host tests for printk's formatter (kernel/lib/vsprintf.c).
 *
 * Covers every conversion, flag, width/precision form ('*' and '.*') and
 * length modifier that vsprintf.h documents. Where C defines the result,
 * kvsnprintf is compared with the host's vsnprintf (same(), which also
 * checks the snprintf-style return value); %p, "(null)" and unknown
 * conversions are the kernel's own and are checked against literals.
 * Truncation, size 0 and size 1 are checked with guard bytes around the
 * buffer, so a write past `size` is seen even where ASan would not see it.
 * kscnprintf, which returns what it wrote, is checked in the append idiom
 * it exists for.
 */
#include "kernel/lib/types.h"
#include "tests/unit/unit.h"
#include <limits.h>

/* kvsnprintf and the host's vsnprintf give the same text and length. */
static void __printf(2, 3) same_at(int line, const char *fmt, ...)
{
	char kbuf[512], hbuf[512];
	va_list ap, ap2;
	int kn, hn;

	va_start(ap, fmt);
	va_copy(ap2, ap);
	kn = kvsnprintf(kbuf, sizeof(kbuf), fmt, ap);
	hn = vsnprintf(hbuf, sizeof(hbuf), fmt, ap2);
	va_end(ap2);
	va_end(ap);
	if (kn != hn || strcmp(kbuf, hbuf) != 0) {
		printf("    %s:%d: format \"%s\": kernel \"%s\" (%d), host \"%s\" (%d)\n", __FILE__,
		       line, fmt, kbuf, kn, hbuf, hn);
		unit_failures_in_test++;
	}
}
#define same(...) same_at(__LINE__, __VA_ARGS__)

/* ksnprintf into a large buffer; returns the text, checks the length. */
static char fmtbuf[512];

static const char *__printf(1, 2) fmt(const char *f, ...)
{
	va_list ap;
	int n;

	va_start(ap, f);
	n = kvsnprintf(fmtbuf, sizeof(fmtbuf), f, ap);
	va_end(ap);
	CHECK_EQ(n, strlen(fmtbuf));
	return fmtbuf;
}

UNIT_TEST(plain_text_and_percent)
{
	same("hello, world");
	same("%s", "");
	same("100%%");
	same("%%%%|%%");
	same("a%cb", 'x');
}

UNIT_TEST(signed_decimal)
{
	same("%d %i", 0, 0);
	same("%d %i", 42, -42);
	same("%d", INT_MAX);
	same("%d", INT_MIN);
	same("[%5d] [%-5d] [%05d]", -42, -42, -42);
	same("[%1d] [%2d]", 123, -1);
}

UNIT_TEST(unsigned_conversions)
{
	same("%u %u", 0u, UINT_MAX);
	same("%x %X", 0xdeadbeefu, 0xdeadbeefu);
	same("%x %X %o", 0u, 0u, 0u);
	same("%o %o", 8u, 0777u);
	same("%o", UINT_MAX);
	same("%x", UINT_MAX);
}

/*
 * Some formats below are deliberately odd (flags C ignores, unknown
 * conversions, a '%' at the very end); the compiler's format checks
 * would reject them, so they are off for these tests.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat"
#pragma GCC diagnostic ignored "-Wformat-extra-args"

UNIT_TEST(left_and_zero_flags)
{
	same("[%-8x]", 0xabcu);
	same("[%08x]", 0xabcu);
	same("[%-08d]", 7); /* '-' wins over '0' */
	same("[%0-8d]", 7);
	same("[%08.3d]", 7); /* a precision turns '0' off */
	same("[%-10s]", "left");
	same("[%10s]", "right");
}

#pragma GCC diagnostic pop

UNIT_TEST(alternate_form)
{
	same("%#x %#X", 0x1fu, 0x1fu);
	same("%#o", 8u);
	same("%#x %#o", 0u, 0u); /* no prefix on zero */
	same("[%#010x]", 0x1fu); /* zeros go after the prefix */
	same("[%#10x] [%-#10x]", 0x1fu, 0x1fu);
	same("[%#.4x]", 0x1fu);
	same("%#lx", 0xffff800000000000ul);
}

UNIT_TEST(alternate_octal_with_precision)
{
	/* '#' only forces the first digit to be 0; precision zeros already do. */
	same("[%#.3o]", 8u);
	same("[%#.2o]", 8u);
	same("[%#5.3o]", 8u);
	same("[%#.0o]", 0u);
}

UNIT_TEST(precision_on_integers)
{
	same("[%.3d] [%.3d]", 7, -7);
	same("[%8.3d] [%-8.3d]", -7, 7);
	same("[%.3x] [%.1x]", 0xau, 0xabcu);
	same("[%.0d] [%.0x] [%5.0u] [%.0d]", 0, 0u, 0u, 3); /* zero with precision 0: no digits */
	same("[%.d]", 0);
}

UNIT_TEST(precision_wider_than_any_number)
{
	/* More zeros than a u64 has digits must neither overflow nor be cut. */
	same("[%.30d]", 5);
	same("[%.40x]", 0xabcu);
	same("[%.64lo]", ~0ul);
	same("[%70.50d]", -12);
	same("[%.300d]", 1);
}

UNIT_TEST(star_width_and_precision)
{
	same("[%*d]", 6, 42);
	same("[%-*d]", 6, 42);
	same("[%*d]", -6, 42); /* negative width means '-' */
	same("[%.*d]", 4, 42);
	same("[%.*d]", -1, 42); /* negative precision means none */
	same("[%*.*d]", 8, 4, -42);
	same("[%*s]", 5, "ab");
	same("[%.*s]", 3, "abcdef");
	same("[%-*.*s]", 6, 2, "abcdef");
	same("[%0*x]", 6, 0xbeu);
}

UNIT_TEST(length_modifiers)
{
	same("%ld %lu %lx", LONG_MIN, ULONG_MAX, 0x123456789abcdeful);
	same("%lld %llu %llx", LLONG_MIN, ULLONG_MAX, 0xfedcba9876543210ull);
	same("%lli %llo", -1ll, 01234567012345670123ull);
	same("%zu %zx %zd", (size_t)-1, (size_t)0xabcdef, (ssize_t)-5);
	same("%td %tx", (ptrdiff_t)-123456789012, (ptrdiff_t)0x7fff);
	same("%hd %hu %hx", (short)-2, (unsigned short)65535, (unsigned short)0xbeef);
	same("%hhd %hhu %hhx", (signed char)-3, (unsigned char)250, (unsigned char)0x7f);
}

UNIT_TEST(short_modifiers_truncate_the_promoted_int)
{
	/* The argument arrives as an int; h and hh take only its low bits. */
	same("%hd %hu", 70000, 70000);
	same("%hhd %hhu %hhx", 200, 300, 0x1ff);
	same("%hx", 0x12345);
}

UNIT_TEST(widths_with_long_values)
{
	same("[%20lx] [%-20lu] [%020ld]", 0xabcul, 99ul, -99l);
	same("[%.20llu]", 12345ull);
}

UNIT_TEST(characters)
{
	same("%c%c%c", 'a', 'B', '0');
	same("[%3c] [%-3c]", 'x', 'y');
	same("[%*c]", 4, 'z');
	same("%c", 300); /* converted to unsigned char */
}

UNIT_TEST(strings)
{
	same("%s", "abc");
	same("[%s]", "");
	same("[%.0s] [%.2s] [%.10s]", "abc", "abc", "abc");
	same("[%5.2s] [%-5.2s]", "abc", "abc");
	same("%s and %s", "this", "that");
}

UNIT_TEST(null_string_prints_null)
{
	const char *volatile null = NULL; /* volatile: hide the NULL from -Wformat-overflow */

	CHECK_STR(fmt("[%s]", null), "[(null)]");
	CHECK_STR(fmt("[%8s]", null), "[  (null)]");
	CHECK_STR(fmt("[%-8s]", null), "[(null)  ]");
	CHECK_STR(fmt("[%.3s]", null), "[(nu]");
}

UNIT_TEST(pointers_are_0x_and_16_hex_digits)
{
	CHECK_STR(fmt("%p", (void *)0), "0x0000000000000000");
	CHECK_STR(fmt("%p", (void *)0x1234), "0x0000000000001234");
	CHECK_STR(fmt("%p", (void *)0xffff800000abcdefull), "0xffff800000abcdef");
	CHECK_STR(fmt("<%p>", (void *)0xdeadbeef), "<0x00000000deadbeef>");
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat"
#pragma GCC diagnostic ignored "-Wformat-extra-args"

UNIT_TEST(unknown_conversion_is_printed_verbatim)
{
	CHECK_STR(fmt("a%yb"), "a%yb");
	CHECK_STR(fmt("%w %d", 5), "%w 5"); /* later arguments stay in step */
}

UNIT_TEST(lone_percent_at_end_prints_nothing)
{
	CHECK_STR(fmt("abc%"), "abc");
	CHECK_STR(fmt("abc%-5"), "abc");
	CHECK_STR(fmt("abc%ll"), "abc");
}

#pragma GCC diagnostic pop

UNIT_TEST(arguments_stay_in_step_across_modifiers)
{
	same("%hhd %ld %s %hd %c %lld %zu %x", (signed char)1, 2l, "three", (short)4, '5', 6ll,
	     (size_t)7, 8u);
	same("%*d|%.*s|%d", 3, 1, 2, "xyz", 9);
}

/* A buffer with guard bytes either side, to see writes outside [0, size). */
struct guarded {
	char before[8];
	char buf[32];
	char after[8];
};

static void
guard_init(struct guarded *g)
{
	memset(g, 'G', sizeof(*g));
}

static bool
guards_intact(const struct guarded *g, size_t size)
{
	for (size_t i = 0; i < sizeof(g->before); i++)
		if (g->before[i] != 'G' || g->after[i] != 'G')
			return false;
	for (size_t i = size; i < sizeof(g->buf); i++)
		if (g->buf[i] != 'G')
			return false;
	return true;
}

UNIT_TEST(truncation_returns_full_length_and_terminates)
{
	struct guarded g;

	for (size_t size = 1; size <= 12; size++) {
		guard_init(&g);
		int n = ksnprintf(g.buf, size, "%s-%d", "abcdef", 1234);
		CHECK_EQ(n, 11);
		CHECK_EQ(strlen(g.buf), MIN(size - 1, 11));
		CHECK(strncmp(g.buf, "abcdef-1234", strlen(g.buf)) == 0);
		CHECK(guards_intact(&g, size));
	}
}

UNIT_TEST(exact_fit_boundary)
{
	char buf[6];

	CHECK_EQ(ksnprintf(buf, sizeof(buf), "hello"), 5); /* 5 + NUL fit */
	CHECK_STR(buf, "hello");
	CHECK_EQ(ksnprintf(buf, 5, "hello"), 5); /* NUL takes the 'o' */
	CHECK_STR(buf, "hell");
}

UNIT_TEST(size_one_gives_empty_string)
{
	struct guarded g;

	guard_init(&g);
	CHECK_EQ(ksnprintf(g.buf, 1, "%d", 123456), 6);
	CHECK_EQ(g.buf[0], '\0');
	CHECK(guards_intact(&g, 1));
}

UNIT_TEST(size_zero_writes_nothing)
{
	struct guarded g;

	guard_init(&g);
	CHECK_EQ(ksnprintf(g.buf, 0, "%s %d", "abc", 42), 6);
	CHECK(guards_intact(&g, 0));
	CHECK_EQ(ksnprintf(NULL, 0, "%08x%s", 1u, "tail"), 12); /* only measuring */
}

UNIT_TEST(truncated_padding_and_numbers_count_in_full)
{
	char buf[8];

	CHECK_EQ(ksnprintf(buf, sizeof(buf), "%300d", 1), 300);
	CHECK_STR(buf, "       ");
	CHECK_EQ(ksnprintf(buf, sizeof(buf), "%-300d", 1), 300);
	CHECK_STR(buf, "1      ");
	CHECK_EQ(ksnprintf(buf, sizeof(buf), "%lu", ULONG_MAX), 20);
	CHECK_STR(buf, "1844674");
	CHECK_EQ(ksnprintf(buf, sizeof(buf), "%p", (void *)0xab), 18);
	CHECK_STR(buf, "0x00000");
}

static int
format_twice(char *a, char *b, size_t size, const char *f, ...)
{
	va_list ap;
	int n1, n2;

	va_start(ap, f);
	n1 = kvsnprintf(a, size, f, ap);
	n2 = kvsnprintf(b, size, f, ap);
	va_end(ap);
	return n1 == n2 ? n1 : -1;
}

UNIT_TEST(caller_va_list_is_not_consumed)
{
	/* kvsnprintf works on a copy, so a caller may format the same list twice. */
	char a[32], b[32];

	CHECK_EQ(format_twice(a, b, sizeof(a), "%d %s %#lx", 7, "seven", 0x7ul), 11);
	CHECK_STR(a, "7 seven 0x7");
	CHECK_STR(a, b);
}

UNIT_TEST(kscnprintf_returns_what_it_wrote)
{
	struct guarded g;

	guard_init(&g);
	CHECK_EQ(kscnprintf(g.buf, 0, "%d", 123), 0);
	CHECK(guards_intact(&g, 0));
	CHECK_EQ(kscnprintf(g.buf, 1, "%d", 123), 0);
	CHECK_EQ(g.buf[0], '\0');
	CHECK_EQ(kscnprintf(g.buf, 4, "%d", 123), 3); /* exact fit */
	CHECK_STR(g.buf, "123");
	CHECK_EQ(kscnprintf(g.buf, 4, "%d", 12345), 3); /* cut: the NUL's byte is not counted */
	CHECK_STR(g.buf, "123");
	CHECK(guards_intact(&g, 4));
}

/* The idiom kscnprintf is for: appending never passes the end, however much is cut. */
UNIT_TEST(kscnprintf_appends_stay_inside_the_buffer)
{
	for (size_t size = 1; size <= 16; size++) {
		struct guarded g;
		size_t at = 0;

		guard_init(&g);
		for (int i = 0; i < 10; i++)
			at += (size_t)kscnprintf(g.buf + at, size - at, "%s%d", i ? "," : "",
						 i * 11);
		CHECK(at < size);
		CHECK_EQ(strlen(g.buf), at);
		CHECK(strncmp(g.buf, "0,11,22,33,44,55,66,77,88,99", at) == 0);
		CHECK(guards_intact(&g, size));
	}
}
