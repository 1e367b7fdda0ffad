/*
 * exec_threads.c - usertests: execve from a process with many threads. The
 * other threads must be gone before the new program runs, and a parent
 * waiting on the exec'ing child must not trip over the dispositions the
 * dead threads still hold. The helpers run as `usertests --helper ...`
 * (exec.c's run_helper).
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * execve in a multithreaded process: the other threads (running, blocked)
 * are gone before the new program starts; it runs alone, as the process
 * (pid and tid the process's, whichever thread called execve), with the
 * old handlers reset. The parent waits for it under the same pid.
 */
static void *
spin_forever(void *arg)
{
	for (volatile unsigned long *n = arg;;)
		(*n)++;
	return NULL;
}

static void *
block_forever(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

static char alone_pid[16];

static void *
exec_alone(void *arg)
{
	char *argv[] = { "usertests", "--helper", "alone", alone_pid, NULL };

	(void)arg;
	exec_helper(argv);
}

static void
ignore_signal(int sig)
{
	(void)sig;
}

TEST(exec_from_threads_runs_alone)
{
	static volatile unsigned long spins;

	for (int from_thread = 0; from_thread < 2; from_thread++) {
		pid_t pid = xfork();
		if (pid == 0) {
			pthread_t t;
			signal(SIGUSR1, ignore_signal);
			snprintf(alone_pid, sizeof(alone_pid), "%d", getpid());
			CHECK_EQ(pthread_create(&t, NULL, spin_forever, (void *)&spins), 0);
			CHECK_EQ(pthread_create(&t, NULL, block_forever, NULL), 0);
			if (from_thread) {
				CHECK_EQ(pthread_create(&t, NULL, exec_alone, NULL), 0);
				block_forever(NULL);
			}
			exec_alone(NULL);
		}
		expect_exit(pid, 0, from_thread ? "execve from a thread" : "execve from main");
	}
}

/* The helper of exec_from_threads_runs_alone: the process it runs in has one thread, itself. */
int
helper_alone(const char *pid)
{
	char status[4096];
	struct sigaction sa;
	int fd = open("/proc/self/status", O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, status, sizeof(status) - 1) : -1;

	if (getpid() != atoi(pid) || syscall(SYS_gettid) != getpid())
		fail("alone: pid %d tid %ld, want both %s", getpid(), syscall(SYS_gettid), pid);
	if (n <= 0)
		fail("alone: /proc/self/status unreadable (%s)", errname(errno));
	status[n] = '\0';
	const char *threads = strstr(status, "Threads:");
	if (!threads || atoi(threads + 8) != 1)
		fail("alone: /proc/self/status says %.20s, want Threads: 1",
		     threads ? threads : "no Threads line");
	if (sigaction(SIGUSR1, NULL, &sa) || sa.sa_handler != SIG_DFL)
		fail("alone: the old program's SIGUSR1 handler survived execve");
	return 0;
}

/*
 * A parent polling wait4 while its child execs from a threaded process: the
 * exec replaces the child's dispositions (the dead threads still hold the
 * old ones), and the parent's wait locks them meanwhile. It once unlocked
 * the new ones after locking the old (a lockdebug panic), so it is hammered
 * here: the parent polls with WUNTRACED|WCONTINUED, which looks at the
 * child's stop state under that lock, for the whole exec chain.
 */
#define THREADED_CHAIN_LENGTH 60

TEST(exec_while_parent_polls_wait)
{
	char arg[16], *argv[] = { "usertests", "--helper", "threaded_chain", arg, NULL };
	int status = 0;
	pid_t pid, got;

	snprintf(arg, sizeof(arg), "%d", THREADED_CHAIN_LENGTH);
	pid = xfork();
	if (pid == 0)
		exec_helper(argv);
	while ((got = waitpid(pid, &status, WNOHANG | WUNTRACED | WCONTINUED)) == 0)
		;
	if (got != pid)
		fail("waitpid(%d) returned %d (%s)", pid, got, errname(errno));
	expect_exited(status, 42, "the threaded exec chain");
}

/*
 * chain N (threaded_chain N): execs chain N-1 (after starting a thread that
 * the exec will end), and so on; exits 42 at the end of the chain.
 */
int
helper_chain(int n, bool threaded)
{
	char arg[16], *argv[] = { self_path, "--helper", threaded ? "threaded_chain" : "chain", arg,
				  NULL };
	pthread_t t;

	if (!getenv("USERTESTS_MARK"))
		fail("chain %d: the environment was lost", n);
	if (n == 0)
		return 42;
	if (threaded && pthread_create(&t, NULL, block_forever, NULL))
		fail("threaded chain %d: pthread_create failed", n);
	snprintf(arg, sizeof(arg), "%d", n - 1);
	execv(self_path, argv); /* the same environment */
	fail("chain %d: execve failed with %s", n, errname(errno));
}
