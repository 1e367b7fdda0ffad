/*
 * vsprintf.c - printk's formatter; see vsprintf.h for what it accepts.
 *
 * Output goes through a small cursor that counts every character but stores
 * only those that fit, which gives snprintf's return value for free.
 */
#include "kernel/lib/vsprintf.h"

struct out {
	char *buf;
	size_t size;
	size_t len;
};

static void
put(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void
pad(struct out *o, char c, int n)
{
	while (n-- > 0)
		put(o, c);
}

static void
put_string_raw(struct out *o, const char *s)
{
	while (*s)
		put(o, *s++);
}

struct spec {
	bool left; /* '-' */
	bool zero; /* '0' */
	bool alt;  /* '#': 0x before hex, 0 before octal */
	int width;
	int precision; /* -1: none */
};

static void
put_string(struct out *o, const char *s, const struct spec *sp)
{
	int len = 0;

	if (!s)
		s = "(null)";
	while (s[len] && (sp->precision < 0 || len < sp->precision))
		len++;
	if (!sp->left)
		pad(o, ' ', sp->width - len);
	for (int i = 0; i < len; i++)
		put(o, s[i]);
	if (sp->left)
		pad(o, ' ', sp->width - len);
}

static void
put_number(struct out *o, u64 v, bool negative, unsigned base, bool upper, const struct spec *sp)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	const char *prefix = negative ? "-" : "";
	char tmp[24];
	int n = 0;

	if (sp->alt && base == 16 && v)
		prefix = upper ? "0X" : "0x";
	/* As in C, a zero with precision 0 ("%.0d") has no digits at all. */
	if (v || sp->precision != 0) {
		do {
			tmp[n++] = digits[v % base];
			v /= base;
		} while (v);
	}
	/* Counted, not stored in tmp: a precision may ask for any number of them. */
	int zeros = sp->precision > n ? sp->precision - n : 0;
	/* '#' octal only needs the first digit to be 0; precision zeros may give it. */
	if (sp->alt && base == 8 && !zeros && (n == 0 || tmp[n - 1] != '0'))
		prefix = "0";

	int plen = 0;
	while (prefix[plen])
		plen++;
	int total = n + zeros + plen;
	if (!sp->left && sp->zero && sp->precision < 0) {
		put_string_raw(o, prefix);
		pad(o, '0', sp->width - total);
	} else {
		if (!sp->left)
			pad(o, ' ', sp->width - total);
		put_string_raw(o, prefix);
	}
	pad(o, '0', zeros);
	while (n)
		put(o, tmp[--n]);
	if (sp->left)
		pad(o, ' ', sp->width - total);
}

static int
parse_int(const char **p)
{
	int v = 0;

	while (**p >= '0' && **p <= '9')
		v = v * 10 + (*(*p)++ - '0');
	return v;
}

/* Reads an integer argument of the given length modifier ('H' = hh). */
static u64
fetch_unsigned(va_list *ap, char len)
{
	switch (len) {
	case 'l':
	case 'q':
	case 'z':
	case 't':
		return va_arg(*ap, u64);
	case 'h':
		return (u16)va_arg(*ap, unsigned);
	case 'H':
		return (u8)va_arg(*ap, unsigned);
	default:
		return va_arg(*ap, unsigned);
	}
}

static s64
fetch_signed(va_list *ap, char len)
{
	switch (len) {
	case 'l':
	case 'q':
	case 'z':
	case 't':
		return va_arg(*ap, s64);
	case 'h':
		return (s16)va_arg(*ap, int);
	case 'H':
		return (s8)va_arg(*ap, int);
	default:
		return va_arg(*ap, int);
	}
}

static const char *
parse_spec(const char *p, struct spec *sp, char *len, va_list *ap)
{
	*sp = (struct spec){ .precision = -1 };
	for (;; p++) {
		if (*p == '-')
			sp->left = true;
		else if (*p == '0')
			sp->zero = true;
		else if (*p == '#')
			sp->alt = true;
		else
			break;
	}
	if (*p == '*') {
		sp->width = va_arg(*ap, int);
		if (sp->width < 0) {
			sp->left = true;
			sp->width = -sp->width;
		}
		p++;
	} else {
		sp->width = parse_int(&p);
	}
	if (*p == '.') {
		p++;
		if (*p == '*') {
			sp->precision = va_arg(*ap, int);
			p++;
		} else {
			sp->precision = parse_int(&p);
		}
	}
	*len = 0;
	if (*p == 'h' && p[1] == 'h') {
		*len = 'H';
		p += 2;
	} else if (*p == 'l' && p[1] == 'l') {
		*len = 'q';
		p += 2;
	} else if (*p == 'h' || *p == 'l' || *p == 'z' || *p == 't') {
		*len = *p++;
	}
	return p;
}

int
kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap_in)
{
	struct out o = { buf, size, 0 };
	va_list ap;

	va_copy(ap, ap_in);
	for (const char *p = fmt; *p; p++) {
		if (*p != '%') {
			put(&o, *p);
			continue;
		}
		struct spec sp;
		char len;
		p = parse_spec(p + 1, &sp, &len, &ap);
		switch (*p) {
		case 'd':
		case 'i': {
			s64 v = fetch_signed(&ap, len);
			put_number(&o, v < 0 ? -(u64)v : (u64)v, v < 0, 10, false, &sp);
			break;
		}
		case 'u':
			put_number(&o, fetch_unsigned(&ap, len), false, 10, false, &sp);
			break;
		case 'x':
		case 'X':
			put_number(&o, fetch_unsigned(&ap, len), false, 16, *p == 'X', &sp);
			break;
		case 'o':
			put_number(&o, fetch_unsigned(&ap, len), false, 8, false, &sp);
			break;
		case 'p':
			put_string_raw(&o, "0x");
			sp.zero = true;
			sp.width = 16;
			put_number(&o, (u64)(uintptr_t)va_arg(ap, void *), false, 16, false, &sp);
			break;
		case 'c':
			/* A width pads %c as it pads every other conversion. */
			if (!sp.left)
				pad(&o, ' ', sp.width - 1);
			put(&o, (char)va_arg(ap, int));
			if (sp.left)
				pad(&o, ' ', sp.width - 1);
			break;
		case 's':
			put_string(&o, va_arg(ap, const char *), &sp);
			break;
		case '%':
			put(&o, '%');
			break;
		case '\0':
			p--; /* a lone '%' at the end: print nothing for it */
			break;
		default:
			put(&o, '%');
			put(&o, *p);
			break;
		}
	}
	va_end(ap);
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return (int)o.len;
}

int
ksnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = kvsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

int
kvscnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	int n = kvsnprintf(buf, size, fmt, ap);

	if (!size)
		return 0;
	return (size_t)n < size ? n : (int)(size - 1);
}

int
kscnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = kvscnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
