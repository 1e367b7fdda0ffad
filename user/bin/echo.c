/*
 * echo.c - prints its arguments, separated by blanks.
 *
 *	echo [-n] [WORD...]     -n: no newline at the end
 *
 * No backslash escapes: the shell's quoting is enough for labs.
 */
#include <stdio.h>
#include <string.h>

int
main(int argc, char **argv)
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
	return fflush(stdout) ? 1 : 0;
}
