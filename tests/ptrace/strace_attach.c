/*
 * strace_attach.c - runs `strace -p` on a program that is already running,
 * lets it trace a while, interrupts it (as ^C does) and checks that the
 * program was let go and goes on: what tools/ptrace-check asks of
 * Debian's strace inside rewind, and of the host's Linux to compare.
 *
 *	strace_attach STRACE      last line "strace_attach: ok", exit 0
 *
 * Nothing is timed: each step waits for the state it needs (a tracer
 * in /proc/<pid>/status, a traced call in strace's log), with a generous
 * bound only against a hang.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define LOG	    "/tmp/strace_attach.log"
#define WAIT_POLLS  6000 /* of 10 ms: a minute, only against a hang */
#define TARGET_EXIT 3

static void
die(const char *what)
{
	printf("strace_attach: FAIL %s (%s)\n", what, strerror(errno));
	exit(1);
}

static void
pause_briefly(void)
{
	struct timespec ten_ms = { 0, 10 * 1000 * 1000 };

	nanosleep(&ten_ms, NULL);
}

/* The running program: getppid calls until a byte comes on ctl, then exit 3. */
static void __attribute__((noreturn)) run_target(int ctl)
{
	char c;

	for (;;) {
		getppid();
		pause_briefly();
		if (read(ctl, &c, 1) == 1)
			_exit(TARGET_EXIT);
	}
}

/* A field of /proc/<pid>/status ("TracerPid", "State"): its value text, or "" */
static void
status_field(pid_t pid, const char *name, char *out, size_t size)
{
	char path[64], text[4096], *p;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	int fd = open(path, O_RDONLY);
	n = fd < 0 ? -1 : read(fd, text, sizeof(text) - 1);
	if (fd >= 0)
		close(fd);
	out[0] = '\0';
	if (n <= 0)
		return;
	text[n] = '\0';
	for (p = text; (p = strstr(p, name)); p++)
		if ((p == text || p[-1] == '\n') && p[strlen(name)] == ':') {
			p += strlen(name) + 1;
			p += strspn(p, " \t");
			snprintf(out, size, "%.*s", (int)strcspn(p, "\n"), p);
			return;
		}
}

static bool
log_has(const char *text)
{
	char buf[65536];
	int fd = open(LOG, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	return strstr(buf, text) != NULL;
}

static bool
traced(pid_t pid)
{
	char v[32];

	status_field(pid, "TracerPid", v, sizeof(v));
	return v[0] && strcmp(v, "0") != 0;
}

static void
wait_for(bool (*cond)(pid_t), pid_t pid, bool want, const char *what)
{
	for (int i = 0; cond(pid) != want; i++) {
		if (i == WAIT_POLLS) {
			errno = ETIMEDOUT;
			die(what);
		}
		pause_briefly();
	}
}

static bool
log_shows_getppid(pid_t pid __attribute__((unused)))
{
	return log_has("getppid()");
}

int
main(int argc, char **argv)
{
	int ctl[2], status;
	char pidtext[16], state[64];

	if (argc != 2) {
		fprintf(stderr, "usage: strace_attach STRACE\n");
		return 2;
	}
	mkdir("/tmp", 01777);
	unlink(LOG);
	if (pipe2(ctl, O_NONBLOCK) < 0)
		die("pipe");
	pid_t target = fork();
	if (target == 0)
		run_target(ctl[0]);
	snprintf(pidtext, sizeof(pidtext), "%d", target);
	pid_t strace = fork();
	if (strace == 0) {
		execl(argv[1], "strace", "-o", LOG, "-p", pidtext, (char *)NULL);
		_exit(127);
	}
	wait_for(traced, target, true, "strace did not attach");
	wait_for(log_shows_getppid, target, true, "strace logged no getppid()");
	printf("strace_attach: attached, the log shows getppid()\n");
	kill(strace, SIGINT);
	if (waitpid(strace, &status, 0) != strace)
		die("waitpid strace");
	printf("strace_attach: strace ended with status %d\n",
	       WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	if (traced(target))
		die("the program is still traced");
	status_field(target, "State", state, sizeof(state));
	printf("strace_attach: detached, the program's state: %s\n", state);
	if (state[0] == 't' || state[0] == 'T')
		die("the program was left stopped");
	if (write(ctl[1], "x", 1) != 1)
		die("write");
	if (waitpid(target, &status, 0) != target)
		die("waitpid program");
	if (!WIFEXITED(status) || WEXITSTATUS(status) != TARGET_EXIT) {
		errno = 0;
		die("the program did not go on to its exit");
	}
	printf("strace_attach: the program went on and exited %d\n", TARGET_EXIT);
	printf("strace_attach: ok\n");
	return 0;
}
