/*
 * signame.c - reads a signal's name or number from a command line.
 */
#include "lib/signame.h"

#include <signal.h>
#include <stdlib.h>
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

int
signal_by_name(const char *s)
{
	char *end;
	long n = strtol(s, &end, 10);

	if (end != s && !*end)
		return n >= 0 && n < 65 ? (int)n : -1;
	if (!strncasecmp(s, "SIG", 3))
		s += 3;
	for (size_t i = 0; i < sizeof(signals) / sizeof(signals[0]); i++)
		if (!strcasecmp(s, signals[i].name))
			return signals[i].number;
	return -1;
}
