/*
 * string.c - memcpy and friends for the freestanding kernel.
 *
 * memcpy and memset move 8 bytes per step (rep movsq/stosq) and finish the
 * tail bytewise. QEMU 7.2's TCG executes "rep movsb" one byte per
 * iteration, which made byte-wise page clearing the dominant cost of a page
 * fault there (docs/design.md, "Linux in the same VM"); on real CPUs the
 * quadword form is as fast as ERMS "rep movsb" for aligned pages. GCC may
 * also emit calls to these four for struct copies.
 */
#include "kernel/lib/string.h"

void *
memcpy(void *dst, const void *src, size_t n)
{
	void *ret = dst;
	size_t quads = n / 8, tail = n % 8;

	__asm__ __volatile__("rep movsq" : "+D"(dst), "+S"(src), "+c"(quads) : : "memory");
	__asm__ __volatile__("rep movsb" : "+D"(dst), "+S"(src), "+c"(tail) : : "memory");
	return ret;
}

void *
memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d <= s || d >= s + n)
		return memcpy(dst, src, n);
	while (n--)
		d[n] = s[n];
	return dst;
}

void *
memset(void *dst, int c, size_t n)
{
	void *ret = dst;
	size_t quads = n / 8, tail = n % 8;
	u64 pattern = 0x0101010101010101ul * (u8)c;

	__asm__ __volatile__("rep stosq" : "+D"(dst), "+c"(quads) : "a"(pattern) : "memory");
	__asm__ __volatile__("rep stosb" : "+D"(dst), "+c"(tail) : "a"(pattern) : "memory");
	return ret;
}

int
memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}

size_t
strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return p - s;
}

size_t
strnlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

int
strcmp(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return (unsigned char)*a - (unsigned char)*b;
}

int
strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		if (!*a)
			break;
	}
	return 0;
}

char *
strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}

char *
strstr(const char *haystack, const char *needle)
{
	size_t n = strlen(needle);

	for (; *haystack; haystack++)
		if (strncmp(haystack, needle, n) == 0)
			return (char *)haystack;
	return n ? NULL : (char *)haystack;
}
