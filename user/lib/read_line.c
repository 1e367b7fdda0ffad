/*
 * read_line.c - one line from a file descriptor, a byte at a time, so that
 * nothing after the line is consumed (see read_line.h).
 */
#include "lib/read_line.h"

#include <errno.h>
#include <stdbool.h>
#include <unistd.h>

ssize_t
read_line(int fd, char *buf, size_t size)
{
	size_t len = 0;
	bool overflow = false;

	for (;;) {
		char c;
		ssize_t n = read(fd, &c, 1);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (len == 0 && !overflow)
				return -1;
			break;
		}
		if (c == '\n')
			break;
		if (len + 1 < size)
			buf[len++] = c;
		else
			overflow = true;
	}
	buf[len] = '\0';
	return overflow ? -2 : (ssize_t)len;
}
