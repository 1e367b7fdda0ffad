/*
 * echo.c - echo's words, and the report of a failed write to stdout
 * (echo.h says who shares them and why).
 */
#include "lib/echo.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

void
echo_words(int argc, char **argv)
{
	int i = 1;
	int newline = 1;

	if (argc > 1 && !strcmp(argv[1], "-n")) {
		newline = 0;
		i++;
	}
	for (; i < argc; i++)
		printf("%s%s", argv[i], i < argc - 1 ? " " : "");
	if (newline)
		putchar('\n');
}

int
report_write_error(const char *who)
{
	/*
	 * A line-buffered stdout (a terminal's) has written, and failed, inside
	 * printf: fflush then has nothing left to write, but the error flag
	 * stays, and errno still holds the write's reason.
	 */
	int failed = fflush(stdout) == EOF || ferror(stdout);
	int reason = errno;

	if (!failed)
		return 0;
	fprintf(stderr, "%s: write error: %s\n", who, strerror(reason));
	clearerr(stdout);
	return 1;
}
