/*
 * exec_dumpable.c - usertests: what execve does to a process's dumpable
 * flag (PR_GET_DUMPABLE, and so who may trace it or read its /proc
 * files): a program its runner may execute but not read leaves it not
 * dumpable, as Linux's would_dump.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/*
 * A program started from the file at path, told through a pipe that it
 * runs; its tracing by the caller (nobody) is err (0: allowed), and it
 * reports its own PR_GET_DUMPABLE as dumpable.
 */
static void
expect_dumpable_after_exec(const char *path, int dumpable, int err)
{
	char fd[16], want[4];
	int ready[2];
	char c;

	CHECK_OK(pipe(ready));
	snprintf(fd, sizeof(fd), "%d", ready[1]);
	snprintf(want, sizeof(want), "%d", dumpable);
	char *argv[] = { (char *)path, "--helper", "ready", fd, NULL }, *envp[] = { NULL };
	char *check[] = { (char *)path, "--helper", "dumpable", want, NULL };
	pid_t pid = xfork();
	if (pid == 0) {
		syscall(SYS_execve, path, argv, envp);
		_exit(127);
	}
	close(ready[1]);
	CHECK_EQ(read(ready[0], &c, 1), 1l); /* past its execve */
	close(ready[0]);
	if (err)
		CHECK_ERR(err, ptrace(PTRACE_ATTACH, pid, 0, 0));
	else
		CHECK_OK(ptrace(PTRACE_ATTACH, pid, 0, 0));
	CHECK_OK(kill(pid, SIGKILL));
	wait_status(pid);
	if ((pid = xfork()) == 0) {
		syscall(SYS_execve, path, check, envp);
		_exit(127);
	}
	expect_exited(wait_status(pid), 0, "helper checking PR_GET_DUMPABLE");
}

static void
dumpable_checks_as_nobody(const char *dir)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/readable", dir);
	expect_dumpable_after_exec(path, 1, 0);
	snprintf(path, sizeof(path), "%s/unreadable", dir);
	expect_dumpable_after_exec(path, 0, EPERM);
}

/*
 * A program its runner may execute but not read is not dumpable (Linux's
 * would_dump): its memory cannot be read through ptrace or /proc instead.
 */
TEST(exec_of_an_unreadable_program_makes_it_not_dumpable)
{
	const char *names[] = { "readable", "unreadable" };
	const mode_t modes[] = { 0755, 0711 };
	char dir[64], path[128];
	size_t len;

	if (geteuid() != 0)
		skip("needs root");
	unsigned char *self = read_self(&len);
	snprintf(dir, sizeof(dir), "/tmp/exec_dump_%d", getpid());
	CHECK_OK(mkdir(dir, 0755));
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		close(create_file(path, self, len, modes[i]));
		CHECK_OK(chmod(path, modes[i])); /* past the umask */
	}
	free(self);
	as_nobody(dumpable_checks_as_nobody, dir);
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		CHECK_OK(unlink(path));
	}
	CHECK_OK(rmdir(dir));
}
