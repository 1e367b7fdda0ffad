/*
 * timeout.c - runs a command and signals it if it is still running after
 * a time, as coreutils' timeout does.
 *
 *	timeout [-s SIGNAL] [-k DURATION] [--preserve-status] DURATION COMMAND [ARG]...
 *	(also -sSIGNAL, --signal=SIGNAL, -kDURATION, --kill-after=DURATION)
 *
 * DURATION is a number, which may have a fraction, with an optional unit:
 * s (the default), m, h or d; 0 means no limit. When it runs out, SIGNAL
 * (TERM by default) goes to the command's process group, followed by
 * SIGCONT so that a stopped command sees it; with -k, KILL follows if the
 * command is still there that much later. SIGINT, SIGTERM, SIGHUP and
 * SIGQUIT sent to timeout itself are passed on to the command.
 *
 * Exit status: 124 if the time ran out (unless --preserve-status), 125 if
 * timeout itself failed (bad usage, fork), 126 if COMMAND was found but
 * could not be run, 127 if it was not found, 137 (128 + KILL) if KILL
 * ended it, else the command's own status. A command that a signal ended
 * on its own ends timeout with that same signal, so that a shell sees it.
 *
 * The command gets a process group of its own, so that the signal reaches
 * whatever it started too; like coreutils without --foreground, that
 * group is not the terminal's foreground, so a command that reads the
 * terminal is stopped (SIGTTIN).
 */
#include "lib/signame.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

enum {
	EXIT_TIMEDOUT = 124,
	EXIT_CANCELED = 125,
	EXIT_CANNOT_INVOKE = 126,
	EXIT_ENOENT = 127,
};

#define USAGE \
	"usage: timeout [-s SIGNAL] [-k DURATION] [--preserve-status] DURATION COMMAND [ARG]...\n"

/* Signals timeout waits for; the handler only notes them, the main loop acts. */
static const int watched[] = { SIGALRM, SIGCHLD, SIGINT, SIGTERM, SIGHUP, SIGQUIT };
static volatile sig_atomic_t alarm_rang, forwarded;

static void
note_signal(int sig)
{
	if (sig == SIGALRM)
		alarm_rang = 1;
	else if (sig != SIGCHLD)
		forwarded = sig;
}

static void __attribute__((noreturn)) usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "timeout: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n" USAGE);
	exit(EXIT_CANCELED);
}

/* A DURATION in seconds, or -1 if s is not one. */
static double
parse_duration(const char *s)
{
	char *end;
	double seconds = strtod(s, &end);

	if (end == s || !isfinite(seconds) || seconds < 0)
		return -1;
	if (!*end)
		return seconds;
	if (end[1])
		return -1;
	switch (*end) {
	case 's':
		return seconds;
	case 'm':
		return seconds * 60;
	case 'h':
		return seconds * 3600;
	case 'd':
		return seconds * 86400;
	}
	return -1;
}

/* Rings SIGALRM once, seconds from now (0: never). */
static void
set_alarm(double seconds)
{
	struct itimerval when = { 0 };

	if (seconds > 1e9)
		seconds = 1e9; /* about 31 years: as good as never, and fits time_t anywhere */
	when.it_value.tv_sec = (time_t)seconds;
	when.it_value.tv_usec = (suseconds_t)((seconds - (double)when.it_value.tv_sec) * 1e6);
	if (seconds > 0 && !when.it_value.tv_sec && !when.it_value.tv_usec)
		when.it_value.tv_usec = 1; /* a duration below 1 µs still runs out */
	setitimer(ITIMER_REAL, &when, NULL);
}

/* Sends sig to the command and its process group, and SIGCONT after it. */
static void
signal_command(pid_t pid, int sig)
{
	/* pid too: the child may not have made its group yet */
	kill(pid, sig);
	kill(-pid, sig);
	if (sig != SIGKILL && sig != SIGCONT) {
		kill(pid, SIGCONT);
		kill(-pid, SIGCONT);
	}
}

static void __attribute__((noreturn)) run_command(char **argv, const sigset_t *old_mask)
{
	setpgid(0, 0);
	/* A signal that came before exec must act on the command, not on timeout's handler. */
	for (size_t w = 0; w < sizeof(watched) / sizeof(watched[0]); w++)
		signal(watched[w], SIG_DFL);
	sigprocmask(SIG_SETMASK, old_mask, NULL);
	execvp(argv[0], argv);
	int e = errno;
	fprintf(stderr, "timeout: failed to run command '%s': %s\n", argv[0], strerror(e));
	_exit(e == ENOENT ? EXIT_ENOENT : EXIT_CANNOT_INVOKE);
}

/* The command's wait status as timeout's exit status; a signal that ended it ends timeout too. */
static int
exit_status(int status, bool timed_out, bool preserve)
{
	if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);

		if (timed_out && sig == SIGKILL)
			return 128 + sig;
		if (!timed_out) {
			signal(sig, SIG_DFL);
			sigset_t just;
			sigemptyset(&just);
			sigaddset(&just, sig);
			sigprocmask(SIG_UNBLOCK, &just, NULL);
			raise(sig);
		}
		status = 128 + sig;
	} else {
		status = WEXITSTATUS(status);
	}
	return timed_out && !preserve ? EXIT_TIMEDOUT : status;
}

/* Waits for the command, signalling it when the time runs out; returns timeout's status. */
static int
supervise(pid_t pid, int sig, double kill_after, bool preserve, const sigset_t *wait_mask)
{
	bool timed_out = false, killed = false;
	int status;

	for (;;) {
		pid_t done = waitpid(pid, &status, WNOHANG);

		if (done == pid)
			return exit_status(status, timed_out, preserve);
		if (done < 0 && errno != EINTR) {
			perror("timeout: waitpid");
			return EXIT_CANCELED;
		}
		if (forwarded) {
			signal_command(pid, forwarded);
			forwarded = 0;
		}
		if (alarm_rang && !killed) {
			alarm_rang = 0;
			signal_command(pid, timed_out ? SIGKILL : sig);
			killed = timed_out;
			timed_out = true;
			if (kill_after > 0 && !killed)
				set_alarm(kill_after);
		}
		sigsuspend(wait_mask);
	}
}

/*
 * The value of option argv[*i] if it is short (-s VALUE, -sVALUE) or long
 * (--signal=VALUE, --signal VALUE), stepping *i past a separate value; NULL
 * if it is another option.
 */
static const char *
option_value(int argc, char **argv, int *i, const char *short_name, const char *long_name)
{
	const char *arg = argv[*i], *value;
	size_t len = strlen(long_name);

	if (!strncmp(arg, short_name, 2))
		value = arg[2] ? arg + 2 : NULL;
	else if (!strncmp(arg, long_name, len) && arg[len] == '=')
		value = arg + len + 1;
	else if (!strcmp(arg, long_name))
		value = NULL;
	else
		return NULL;
	if (!value) {
		if (*i + 1 == argc)
			usage_error("option '%s' needs a value", arg);
		value = argv[++*i];
	}
	return value;
}

int
main(int argc, char **argv)
{
	int sig = SIGTERM, i = 1;
	double kill_after = 0;
	bool preserve = false;

	for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		const char *arg = argv[i], *value;

		if (!strcmp(arg, "--")) {
			i++;
			break;
		} else if (!strcmp(arg, "--help")) {
			printf(USAGE
			       "Exit status: 124 timed out, 125 timeout failed, 126 COMMAND cannot "
			       "run, 127 COMMAND not found, 137 KILLed, else COMMAND's.\n");
			return 0;
		} else if (!strcmp(arg, "--preserve-status")) {
			preserve = true;
		} else if ((value = option_value(argc, argv, &i, "-s", "--signal"))) {
			if ((sig = signal_by_name(value)) <= 0)
				usage_error("invalid signal '%s'", value);
		} else if ((value = option_value(argc, argv, &i, "-k", "--kill-after"))) {
			if ((kill_after = parse_duration(value)) < 0)
				usage_error("invalid time interval '%s'", value);
		} else {
			usage_error("unknown option '%s'", arg);
		}
	}
	if (argc - i < 2)
		usage_error("%s", argc - i == 1 ? "missing COMMAND" : "missing DURATION");
	double limit = parse_duration(argv[i]);
	if (limit < 0)
		usage_error("invalid time interval '%s'", argv[i]);

	sigset_t block, old_mask;
	struct sigaction note = { .sa_handler = note_signal };
	sigemptyset(&block);
	for (size_t w = 0; w < sizeof(watched) / sizeof(watched[0]); w++) {
		sigaddset(&block, watched[w]);
		sigaction(watched[w], &note, NULL);
	}
	sigprocmask(SIG_BLOCK, &block, &old_mask);
	sigset_t wait_mask = old_mask; /* what sigsuspend lets in: every watched signal */
	for (size_t w = 0; w < sizeof(watched) / sizeof(watched[0]); w++)
		sigdelset(&wait_mask, watched[w]);
	pid_t pid = fork();
	if (pid < 0) {
		perror("timeout: fork");
		return EXIT_CANCELED;
	}
	if (pid == 0)
		run_command(argv + i + 1, &old_mask);
	setpgid(pid, pid);
	set_alarm(limit);
	return supervise(pid, sig, kill_after, preserve, &wait_mask);
}
