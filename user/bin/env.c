/*
 * env.c - runs a command in a changed environment, or prints the
 * environment.
 *
 *	env [-i] [NAME=VALUE...] [COMMAND [ARG...]]
 *
 * -i starts from an empty environment; each NAME=VALUE is set (replacing
 * an inherited one); COMMAND is searched in PATH. Without a command the
 * resulting environment is printed, one NAME=VALUE per line. Exit status
 * as POSIX's env: the command's, or 126 when it could not be run, 127
 * when it was not found. tools/rewind-run's --env runs programs through it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

int
main(int argc, char **argv)
{
	int i = 1;

	if (i < argc && !strcmp(argv[i], "-i")) {
		clearenv();
		i++;
	}
	for (; i < argc && strchr(argv[i], '='); i++) {
		if (putenv(argv[i])) {
			perror("env");
			return 125;
		}
	}
	if (i == argc) {
		for (char **e = environ; e && *e; e++)
			puts(*e);
		return fflush(stdout) ? 1 : 0;
	}
	execvp(argv[i], argv + i);
	fprintf(stderr, "env: %s: %s\n", argv[i], strerror(errno));
	return errno == ENOENT ? 127 : 126;
}
