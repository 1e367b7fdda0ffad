/*
 * cmdline.c - splitting the kernel command line into words; see cmdline.h.
 */
#include "kernel/lib/cmdline.h"

static bool
is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

int
cmdline_next_word(const char **cursor, char *word, size_t size)
{
	const char *p = *cursor;
	bool quoted = false;
	int len = 0;

	while (is_blank(*p))
		p++;
	if (!*p) {
		*cursor = p;
		return -1;
	}
	for (; *p && (quoted || !is_blank(*p)); p++) {
		if (*p == '\\' && (p[1] == '"' || p[1] == '\\'))
			p++; /* GRUB's escape (cmdline.h): the quote or backslash itself */
		if (*p == '"') {
			quoted = !quoted;
			continue;
		}
		if ((size_t)len + 1 < size)
			word[len] = *p;
		len++;
	}
	if (size)
		word[(size_t)len < size ? (size_t)len : size - 1] = '\0';
	*cursor = p;
	return len;
}

char *
cmdline_split_value(char *word)
{
	for (char *p = word; *p; p++) {
		if (*p == '=') {
			*p = '\0';
			return p + 1;
		}
	}
	return NULL;
}
