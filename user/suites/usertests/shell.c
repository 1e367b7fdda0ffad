/*
 * shell.c - usertests: rewind's shell (user/sh.c), the program beside this
 * one (/bin/sh on rewind, build/user/bin/sh on the host). A builtin whose
 * output cannot be written says so and fails, as bash's do; and the
 * questions of docs/labs/lab0-tour.md about refused knob writes have the
 * answers pinned here, so that the handout cannot drift from the kernel.
 */
#define _GNU_SOURCE
#include "usertests.h"
#include "lib/procfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Runs `sh -c script`; its stderr goes to err; returns its exit status. */
static int
run_shell(const char *script, char *err, size_t size)
{
	char sh[PATH_MAX];
	int pipefd[2], status;
	size_t got = 0;
	ssize_t n;

	sibling("sh", sh, sizeof(sh));
	CHECK_OK(pipe(pipefd));
	pid_t pid = CHECK_OK(fork());
	if (pid == 0) {
		dup2(pipefd[1], STDERR_FILENO);
		execl(sh, "sh", "-c", script, (char *)NULL);
		_exit(127);
	}
	close(pipefd[1]);
	while (got < size - 1 && (n = read(pipefd[0], err + got, size - 1 - got)) > 0)
		got += n;
	err[got] = '\0';
	close(pipefd[0]);
	CHECK_OK(waitpid(pid, &status, 0));
	if (!WIFEXITED(status))
		fail("sh -c '%s' did not exit (status %#x)", script, status);
	return WEXITSTATUS(status);
}

/* `sh -c script` exits with want and says said on stderr. */
static void
expect_shell(const char *script, int want, const char *said)
{
	char err[1024];
	int status = run_shell(script, err, sizeof(err));

	if (status != want || !strstr(err, said))
		fail("sh -c '%s': status %d, stderr '%s'; want %d and '%s'", script, status, err,
		     want, said);
}

TEST(shell_echo_reports_a_failed_write)
{
	char echo[PATH_MAX + 32];

	expect_shell("echo hi > /dev/full", 1, "sh: echo: write error: No space left on device");
	expect_shell("echo hi > /dev/full; exit $?", 1, "");
	expect_shell("echo hi > /dev/null", 0, "");
	sibling("echo", echo, sizeof(echo) - 16);
	strcat(echo, " hi > /dev/full");
	expect_shell(echo, 1, "echo: write error: No space left on device");
}

TEST(shell_knob_reports_a_failed_write)
{
	if (!on_rewind())
		skip("no /proc/sys/rewind (not running on rewind)");
	expect_shell("knob vsyscall > /dev/full", 1,
		     "sh: knob: write error: No space left on device");
}

/* lab 0, section 2: the two refused writes, and that the refused value changed nothing. */
TEST(shell_lab0_knob_write_answers)
{
	char before[256], after[256];

	if (!on_rewind())
		skip("no /proc/sys/rewind (not running on rewind)");
	CHECK_OK(read_text_file("/proc/sys/rewind/vsyscall", before, sizeof(before)));
	expect_shell("echo bogus > /proc/sys/rewind/vsyscall", 1,
		     "sh: echo: write error: Invalid argument");
	CHECK_OK(read_text_file("/proc/sys/rewind/vsyscall", after, sizeof(after)));
	CHECK_EQ(strcmp(before, after), 0);
	expect_shell("echo 100 > /proc/sys/rewind/hz", 1,
		     "sh: echo: write error: Operation not permitted");
}

/* exec replaces the shell: what follows never runs, and its redirections hold for the program. */
TEST(shell_exec_becomes_the_program)
{
	char script[2 * PATH_MAX + 64], echo[PATH_MAX];

	snprintf(script, sizeof(script), "exec %s --helper exit 5; exit 9", self_path);
	expect_shell(script, 5, "");
	sibling("echo", echo, sizeof(echo));
	snprintf(script, sizeof(script), "exec %s hi > /dev/full", echo);
	expect_shell(script, 1, "echo: write error: No space left on device");
	expect_shell("exec", 0, "");
	expect_shell("exec /nonexistent", 127, "sh: /nonexistent: not found");
}
