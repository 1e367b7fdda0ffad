/*
 * kill.c - sends a signal to processes.
 *
 *	kill [-SIGNAL] PID...     SIGNAL: a number or a name (TERM, KILL ...);
 *	                          the default is TERM
 */
#include <err.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct {
	const char *name;
	int number;
} signals[] = {
	{ "HUP", SIGHUP },   { "INT", SIGINT },	  { "QUIT", SIGQUIT }, { "ILL", SIGILL },
	{ "ABRT", SIGABRT }, { "FPE", SIGFPE },	  { "KILL", SIGKILL }, { "SEGV", SIGSEGV },
	{ "PIPE", SIGPIPE }, { "ALRM", SIGALRM }, { "TERM", SIGTERM }, { "USR1", SIGUSR1 },
	{ "USR2", SIGUSR2 }, { "CHLD", SIGCHLD }, { "CONT", SIGCONT }, { "STOP", SIGSTOP },
};

static int
parse_signal(const char *s)
{
	char *end;
	long n = strtol(s, &end, 10);

	if (end != s && !*end && n >= 0 && n < 65)
		return (int)n;
	if (!strncasecmp(s, "SIG", 3))
		s += 3;
	for (size_t i = 0; i < sizeof(signals) / sizeof(signals[0]); i++)
		if (!strcasecmp(s, signals[i].name))
			return signals[i].number;
	errx(2, "unknown signal '%s'", s);
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
