/*
 * timeout.c - usertests: the timeout command (user/bin/timeout.c), the
 * program beside this one, run as coreutils' is: the command's own status,
 * 124 when the time runs out, 137 when KILL ends it, 125, 126 and 127 for
 * what went wrong before the command ran. On the host the same checks
 * hold for coreutils' timeout, which is how they were written.
 */
#include "usertests.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

/* Starts `timeout ARGS...` (at most 8), stderr silenced; its pid. Each "@NAME" is the program beside usertests. */
static pid_t
start_timeout(const char *first, ...)
{
	static char paths[9][PATH_MAX];
	char *argv[10];
	int n = 0;
	va_list ap;

	sibling("timeout", paths[0], sizeof(paths[0]));
	argv[n++] = paths[0];
	va_start(ap, first);
	for (const char *arg = first; arg && n < 9; arg = va_arg(ap, const char *), n++) {
		if (arg[0] == '@') {
			sibling(arg + 1, paths[n], sizeof(paths[n]));
			arg = paths[n];
		}
		argv[n] = (char *)arg;
	}
	va_end(ap);
	argv[n] = NULL;
	pid_t pid = xfork();
	if (pid == 0) {
		freopen("/dev/null", "w", stderr);
		execv(argv[0], argv);
		_exit(99);
	}
	return pid;
}

/*
 * What a shell's $? says of a wait status. When KILL ends the command,
 * coreutils' timeout dies of it with its process group, rewind's exits
 * 137: $? is 137 either way, and that is what scripts see.
 */
static int
shell_status(int status)
{
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

/* Runs `timeout ARGS...` to the end; its status as a shell's $? says it. */
#define RUN_TIMEOUT(...) shell_status(wait_status(start_timeout(__VA_ARGS__, (const char *)NULL)))

TEST(timeout_returns_the_command_status)
{
	CHECK_EQ(RUN_TIMEOUT("100", "@true"), 0);
	CHECK_EQ(RUN_TIMEOUT("100", "@false"), 1);
	CHECK_EQ(RUN_TIMEOUT("100", "@sh", "-c", "exit 7"), 7);
	CHECK_EQ(RUN_TIMEOUT("0", "@true"), 0);
}

TEST(timeout_ends_a_command_that_outlives_it)
{
	CHECK_EQ(RUN_TIMEOUT("0.1", "@sleep", "1000"), 124);
	CHECK_EQ(RUN_TIMEOUT("0.001m", "@sleep", "1000"), 124);
	/* --preserve-status: the command's own death by TERM */
	CHECK_EQ(RUN_TIMEOUT("--preserve-status", "0.1", "@sleep", "1000"), 128 + SIGTERM);
	CHECK_EQ(RUN_TIMEOUT("-s", "KILL", "0.1", "@sleep", "1000"), 128 + SIGKILL);
	/* CONT does not end sleep, so only -k's KILL does. */
	CHECK_EQ(RUN_TIMEOUT("-s", "CONT", "-k", "0.1", "0.1", "@sleep", "1000"), 128 + SIGKILL);
	CHECK_EQ(RUN_TIMEOUT("--signal=INT", "--kill-after=100", "0.1", "@sleep", "1000"), 124);
}

TEST(timeout_reports_its_own_failures)
{
	const char *plain = path_under("/tmp", "timeout_not_executable");

	make_file(plain, "#!/bin/sh\n", 10);
	CHECK_EQ(RUN_TIMEOUT("100", "/no/such/program"), 127);
	CHECK_EQ(RUN_TIMEOUT("100", plain), 126);
	CHECK_EQ(RUN_TIMEOUT("bogus", "@true"), 125);
	CHECK_EQ(RUN_TIMEOUT("-1", "@true"), 125);
	CHECK_EQ(RUN_TIMEOUT("-s", "NOSUCH", "1", "@true"), 125);
	CHECK_EQ(RUN_TIMEOUT("100"), 125);
	CHECK_OK(unlink(plain));
}

TEST(timeout_passes_a_signal_it_gets_to_the_command)
{
	pid_t pid = start_timeout("1000", "@sleep", "1000", (const char *)NULL);

	/* Asleep: it has its handlers and its command, and waits for either to speak. */
	wait_until_asleep(pid);
	CHECK_OK(kill(pid, SIGTERM));
	/* The command died of TERM before the time ran out, so timeout dies of it too. */
	expect_signaled(wait_status(pid), SIGTERM, "timeout sent TERM while its command runs");
}
