/*
 * main.c - usertests, the user-space test suite: the Linux system-call
 * ABI as rewind's user programs see it. This file runs the tests, which
 * the other files of user/suites/usertests/ define, one area each.
 *
 *	usertests [NAME-PREFIX...]     run all tests, or those whose names start so
 *
 * One line per test ("ok NAME", "FAIL NAME: why", "skip NAME: why"), then
 * the sum "usertests: N passed, N failed"; the exit status is 0 only if
 * nothing failed. The harness is lib/testing.h: each test runs in its own
 * child process, here also in a fresh empty directory under $TMPDIR
 * (default /tmp), so that a crash, a leaked fd or a stray file in one test
 * cannot hurt the next.
 *
 * The suite must pass on a Linux host as an ordinary process (that is how
 * it is checked), so every expectation is what Linux does. Tests that need
 * rewind itself (knobs, its `int 0x80` entry) detect /proc/sys/rewind and
 * are skipped elsewhere. No test depends on how fast anything is: sleeps are
 * only checked to last at least as long as asked.
 *
 * Bad input is passed with raw syscall() wherever the libc wrapper would
 * check it, change it, or crash on it first (the vDSO clock_gettime would
 * fault on a bad pointer in user mode, for instance).
 *
 * The program also runs as its own helper for the exec tests:
 * `usertests --helper NAME ARGS...` (see run_helper() in exec.c).
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char self_path[PATH_MAX];

static char work_dir[PATH_MAX]; /* $TMPDIR/usertests.<pid>: one subdirectory per test */

/* Removes a directory tree; best effort, since the kernel under test may be at fault. */
static void
remove_tree(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;

	if (d) {
		while ((e = readdir(d))) {
			char child[PATH_MAX];
			struct stat st;

			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			snprintf(child, sizeof(child), "%s/%s", path, e->d_name);
			if (lstat(child, &st) == 0 && S_ISDIR(st.st_mode))
				remove_tree(child);
			else
				unlink(child);
		}
		closedir(d);
	}
	rmdir(path);
}

/* Where our executable is, as an absolute path, so that exec works from any directory. */
static void
find_self(const char *argv0)
{
	const char *path = getenv("PATH");
	char cwd[PATH_MAX];

	if (strchr(argv0, '/')) {
		int len;

		if (argv0[0] == '/' || !getcwd(cwd, sizeof(cwd)))
			len = snprintf(self_path, sizeof(self_path), "%s", argv0);
		else
			len = snprintf(self_path, sizeof(self_path), "%s/%s", cwd, argv0);
		if (len >= (int)sizeof(self_path))
			fprintf(stderr, "usertests: path of %s too long: exec tests will fail\n",
				argv0);
		return;
	}
	for (path = path ? path : "/bin"; *path;) {
		size_t len = strcspn(path, ":");

		snprintf(self_path, sizeof(self_path), "%.*s/%s", (int)len, path, argv0);
		if (access(self_path, X_OK) == 0 && self_path[0] == '/')
			return;
		path += len + (path[len] == ':');
	}
	snprintf(self_path, sizeof(self_path), "/bin/%s", argv0);
}

/* Each test's own directory: made before it starts, its working directory, removed after. */
static bool
test_dir(const char *test, char *path, size_t size)
{
	return snprintf(path, size, "%s/%s", work_dir, test) < (int)size;
}

static bool
make_test_dir(const char *test, char *why, size_t size)
{
	char dir[PATH_MAX];

	if (!test_dir(test, dir, sizeof(dir))) {
		snprintf(why, size, "%s/%s is too long a path", work_dir, test);
		return false;
	}
	if (mkdir(dir, 0755) < 0) {
		snprintf(why, size, "cannot set up: mkdir %s: %s", dir, strerror(errno));
		return false;
	}
	return true;
}

static void
enter_test_dir(const char *test)
{
	char dir[PATH_MAX];

	if (!test_dir(test, dir, sizeof(dir)) || chdir(dir) < 0)
		fail("chdir(%s) failed with %s", dir, errname(errno));
}

static void
remove_test_dir(const char *test)
{
	char dir[PATH_MAX];

	if (test_dir(test, dir, sizeof(dir)))
		remove_tree(dir);
}

int
main(int argc, char **argv)
{
	static const struct test_hooks hooks = { make_test_dir, enter_test_dir, remove_test_dir };
	const char *tmp = getenv("TMPDIR");
	int status;

	/* exec_empty_argv_gets_an_empty_argv0 runs us with no arguments: only "" arrives. */
	if (argc == 0 || !argv[0][0])
		return argc == 1 ? 0 : 3;
	find_self(argv[0]);
	if (argc > 1 && !strcmp(argv[1], "--helper"))
		return run_helper(argc - 2, argv + 2);
	snprintf(work_dir, sizeof(work_dir), "%s/usertests.%d", tmp && *tmp ? tmp : "/tmp",
		 getpid());
	if (mkdir(work_dir, 0755) < 0) {
		printf("usertests: cannot make %s: %s\n", work_dir, strerror(errno));
		printf("usertests: 0 passed, 1 failed\n");
		return 1;
	}
	status = test_run_all("usertests", argc - 1, argv + 1, &hooks);
	remove_tree(work_dir);
	return status;
}
