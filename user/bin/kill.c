/*
 * kill.c - sends a signal to processes.
 *
 *	kill [-SIGNAL] PID...     SIGNAL: a number or a name (TERM, KILL ...);
 *	                          the default is TERM
 */
#include "lib/signame.h"

#include <err.h>
#include <signal.h>
#include <stdlib.h>

static int
parse_signal(const char *s)
{
	int sig = signal_by_name(s);

	if (sig < 0)
		errx(2, "unknown signal '%s'", s);
	return sig;
}

int
main(int argc, char **argv)
{
	int sig = SIGTERM, i = 1, rc = 0;

	if (argc > 1 && argv[1][0] == '-' && argv[1][1]) {
		sig = parse_signal(argv[1] + 1);
		i++;
	}
	if (i == argc)
		errx(2, "usage: kill [-SIGNAL] PID...");
	for (; i < argc; i++) {
		char *end;
		long pid = strtol(argv[i], &end, 10);

		if (end == argv[i] || *end)
			errx(2, "'%s' is not a process id", argv[i]);
		if (kill((pid_t)pid, sig) < 0) {
			warn("%s", argv[i]);
			rc = 1;
		}
	}
	return rc;
}
