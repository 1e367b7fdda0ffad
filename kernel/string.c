/*
 * string.c - memcpy and friends for the freestanding kernel.
 *
 * memcpy and memset use the string instructions (rep movsb/stosb): on CPUs
 * with ERMS they are the fastest simple copy, under TCG they are one helper
 * call. GCC may also emit calls to these four for struct copies.
 */
#include "kernel/string.h"

void *
memcpy(void *dst, const void *src, size_t n)
{
	void *ret = dst;
	__asm__ __volatile__("rep movsb" : "+D"(dst), "+S"(src), "+c"(n) :: "memory");
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
	__asm__ __volatile__("rep stosb" : "+D"(dst), "+c"(n) : "a"(c) : "memory");
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
