/*
 * init.c - process 1: runs the one program the kernel command line names,
 * or an interactive shell.
 *
 * The kernel gives init a fixed environment (HOME, PATH, TERM) and the
 * `run` knob's text as $run; unlike Linux it does not pass other
 * `name=value` words on (every word is a knob). With `run=CMD ARGS` init
 * runs that command line once, framing its output with two
 * machine-readable lines
 *
 *	@run-begin
 *	... the program's output ...
 *	@exit <status>
 *
 * (the exit code, or 128 + signal number if it was killed), and powers the
 * machine off, so a harness on the host sees the verdict on the console.
 * Without `run`, it shows /etc/motd and keeps a shell on the console,
 * starting a new one whenever the last one exits.
 *
 * Being process 1 it also inherits every orphan, so whenever it waits it
 * reaps whatever child has ended, not only the one it started.
 *
 * Not for: service management, mounting, reading configuration.
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/power.h"

#define MAX_ARGS 64

/*
 * The kernel normally opens the console as fds 0, 1 and 2 before starting
 * init; if it did not, do it here so that messages have somewhere to go.
 */
static void
ensure_console(void)
{
	for (int fd = 0; fd < 3; fd++) {
		if (fcntl(fd, F_GETFD) >= 0)
			continue;
		int c = open("/dev/console", O_RDWR);

		if (c >= 0 && c != fd) {
			dup2(c, fd);
			close(c);
		}
	}
}

/*
 * Splits line in place into words at blanks. Single and double quotes group
 * blanks into one word and are removed; the kernel command line itself uses
 * double quotes (run="sh -c 'echo a b'"), so single quotes are the ones that
 * usually reach us. Returns the number of words, -1 if there are too many.
 */
static int
split_words(char *line, char **argv, int max)
{
	char *in = line, *out = line;
	int argc = 0;

	for (;;) {
		while (*in == ' ' || *in == '\t')
			in++;
		if (!*in)
			break;
		if (argc == max - 1)
			return -1;
		argv[argc++] = out;
		for (char quote = 0; *in && (quote || (*in != ' ' && *in != '\t')); in++) {
			if (!quote && (*in == '"' || *in == '\''))
				quote = *in;
			else if (quote && *in == quote)
				quote = 0;
			else
				*out++ = *in;
		}
		/* The word ends here; in and out may share the byte, so step first. */
		if (*in)
			in++;
		*out++ = '\0';
	}
	argv[argc] = NULL;
	return argc;
}

/* Exit code or 128 + signal, the way shells report a status. */
static int
status_code(int status)
{
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

/*
 * Waits until child pid ends, reaping any orphan that ends meanwhile.
 * Returns its wait status, or -1 if it cannot be waited for.
 */
static int
wait_for(pid_t pid)
{
	int status;

	for (;;) {
		pid_t got = wait(&status);

		if (got == pid)
			return status;
		if (got < 0 && errno != EINTR)
			return -1;
	}
}

/*
 * Starts argv[0] (searched in PATH) in a child; the child ends with 127 if
 * it cannot. A console shell leads a session with the console as its
 * controlling terminal, as getty and busybox init give theirs, so that
 * job control works in it.
 */
static pid_t
spawn(char **argv, bool console_session)
{
	pid_t pid = fork();

	if (pid != 0)
		return pid;
	if (console_session && (setsid() < 0 || ioctl(STDIN_FILENO, TIOCSCTTY, 0) < 0))
		fprintf(stderr, "init: no controlling terminal for '%s': %s\n", argv[0],
			strerror(errno));
	execvp(argv[0], argv);
	fprintf(stderr, "init: cannot run '%s': %s\n", argv[0], strerror(errno));
	_exit(127);
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * The end of a run= boot. Only process 1 powers off: the same binary run
 * by hand on a host (where it is not process 1) just exits with the status,
 * instead of switching off the developer's machine.
 */
static void __attribute__((noreturn)) finish(int code)
{
	if (getpid() != 1)
		exit(code);
	if (power_off() < 0)
		fprintf(stderr, "init: power off failed: %s\n", strerror(errno));
	/* Process 1 must not exit; keep reaping so that nothing piles up. */
	for (;;)
		if (wait(NULL) < 0)
			sleep(1);
}

static void __attribute__((noreturn)) run_command(char *line)
{
	char *argv[MAX_ARGS];
	int argc = split_words(line, argv, MAX_ARGS);
	int code = 127;

	if (argc < 0) {
		fprintf(stderr, "init: run= has more than %d words\n", MAX_ARGS - 1);
	} else {
		/* Everything from here to "@exit" is the program's (tools/rewind-run relies on it). */
		printf("@run-begin\n");
		fflush(stdout);
		pid_t pid = spawn(argv, false);

		if (pid < 0)
			fprintf(stderr, "init: fork: %s\n", strerror(errno));
		else
			code = status_code(wait_for(pid));
	}
	printf("@exit %d\n", code);
	fflush(stdout);
	finish(code);
}

static void
show_motd(void)
{
	char buf[512];
	ssize_t n;
	int fd = open("/etc/motd", O_RDONLY);

	if (fd < 0)
		return;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		write(STDOUT_FILENO, buf, n);
	close(fd);
}

static void __attribute__((noreturn)) run_shells(void)
{
	char *argv[] = { "sh", NULL };

	show_motd();
	for (;;) {
		double start = now();
		pid_t pid = spawn(argv, true);

		if (pid < 0)
			fprintf(stderr, "init: fork: %s\n", strerror(errno));
		else
			wait_for(pid);
		/* A shell that cannot even start must not flood the console. */
		if (now() - start < 1.0)
			sleep(1);
	}
}

int
main(void)
{
	char *cmd = getenv("run");

	ensure_console();
	setenv("PATH", "/bin", 0);
	setenv("HOME", "/", 0);
	if (cmd && strspn(cmd, " \t") < strlen(cmd)) {
		char *line = strdup(cmd);

		/* The program gets the environment, but not our instructions. */
		unsetenv("run");
		run_command(line);
	}
	run_shells();
}
