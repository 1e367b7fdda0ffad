/*
 * echo.c - prints its arguments, separated by blanks.
 *
 *	echo [-n] [WORD...]     -n: no newline at the end
 *
 * No backslash escapes: the shell's quoting is enough for labs. The shell
 * has the same echo built in (user/sh.c); this one is for programs that
 * exec it. A failed write is reported, and the status is 1.
 */
#include "lib/echo.h"

int
main(int argc, char **argv)
{
	echo_words(argc, argv);
	return report_write_error("echo");
}
