/*
 * exec_scripts.c - usertests: execve of a "#!" script runs its interpreter
 * with argv[0] replaced by the interpreter's path, the line's one argument
 * and the script's path. The interpreter here is this program with the
 * argument "--helper": a script named "exit" run with argv { "x", "33" }
 * becomes `usertests --helper exit 33`, which exits 33. A line without an
 * interpreter, or with one cut off by the 256 bytes read, is ENOEXEC; a
 * missing interpreter ENOENT; scripts running themselves ELOOP.
 */
#include "usertests.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void
write_script(const char *name, const char *line)
{
	close(create_file(name, line, strlen(line), 0755));
}

/* Runs script name with argv { "x", "33" }: exits 33 if this program ran as its helper "exit". */
static void
expect_script_exit_33(const char *name, const char *what)
{
	pid_t pid = xfork();

	if (pid == 0) {
		char *argv[] = { "x", "33", NULL }, *envp[] = { NULL };
		execve(name, argv, envp);
		_exit(127);
	}
	expect_exit(pid, 33, what);
}

TEST(exec_script_runs_its_interpreter)
{
	char line[PATH_MAX + 32];

	snprintf(line, sizeof(line), "#!%s --helper\necho not run\n", self_path);
	write_script("exit", line);
	expect_script_exit_33("exit", "a script whose interpreter is usertests --helper");
	/* Blanks around the interpreter and after its argument are not part of them. */
	snprintf(line, sizeof(line), "#! \t%s \t--helper \t\n", self_path);
	write_script("exit", line);
	expect_script_exit_33("exit", "the same line with blanks");
	/* No newline at all: the file's end ends the line. */
	snprintf(line, sizeof(line), "#!%s --helper", self_path);
	write_script("exit", line);
	expect_script_exit_33("exit", "a line without a newline");
}

TEST(exec_script_errors)
{
	char *argv[] = { "x", NULL }, *envp[] = { NULL };
	char line[300];

	write_script("empty", "#!\n");
	CHECK_ERR(ENOEXEC, execve("empty", argv, envp));
	write_script("blank", "#! \t \n");
	CHECK_ERR(ENOEXEC, execve("blank", argv, envp));
	write_script("missing", "#!/no/such/interpreter\n");
	CHECK_ERR(ENOENT, execve("missing", argv, envp));
	write_script("self", "#!./self\n");
	CHECK_ERR(ELOOP, execve("self", argv, envp));
	/* An interpreter's path longer than the first 256 bytes is not cut short: ENOEXEC. */
	memset(line, 'a', sizeof(line) - 1);
	line[0] = '#', line[1] = '!', line[2] = '/', line[sizeof(line) - 1] = '\0';
	write_script("long", line);
	CHECK_ERR(ENOEXEC, execve("long", argv, envp));
	write_script("no-x", "#!/bin/sh\n");
	CHECK_OK(chmod("no-x", 0644));
	CHECK_ERR(EACCES, execve("no-x", argv, envp));
}
