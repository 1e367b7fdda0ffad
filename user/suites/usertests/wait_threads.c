/*
 * wait_threads.c - usertests: whose children and tracees a thread waits
 * for. A child belongs to the thread that forked it and a tracee to the
 * thread that traces it; any thread of the process waits for them, but
 * __WNOTHREAD only for its own; once the forking thread has exited, its
 * children belong to a live thread of the group (Linux's
 * forget_original_parent), and after an execve by a thread, to that
 * thread, the process's only one.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sched.h>
#include <stdio.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHILD_CODE 7

/* The forking thread B and the main thread A, stepping in turn through two pipes. */
struct forker {
	int to_main[2], to_forker[2];
	bool traceme; /* the child stops under B as its tracer instead of exiting */
	pid_t child;
	pid_t tid; /* B's thread id */
};

static void
step_send(int fd)
{
	CHECK_EQ(write(fd, "s", 1), 1);
}

static void
step_receive(int fd)
{
	char c;

	CHECK_EQ(read(fd, &c, 1), 1);
}

/*
 * The child: exits at once, or first stops traced by the thread that
 * forked it, on an ignored signal (a tracer sees those too), which is
 * harmless whether its tracer's exit discards it or delivers it.
 */
static void
forked_child(bool traceme)
{
	if (traceme) {
		if (signal(SIGUSR1, SIG_IGN) == SIG_ERR || ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(2);
		raise(SIGUSR1);
	}
	_exit(CHILD_CODE);
}

/*
 * Thread B: forks, sees its own child's news with __WNOTHREAD (WNOWAIT
 * leaves it), lets the main thread look, then exits holding it.
 */
static void *
fork_and_hold(void *arg)
{
	struct forker *f = arg;
	siginfo_t info = { 0 };

	f->tid = (pid_t)syscall(SYS_gettid);
	f->child = xfork();
	if (f->child == 0)
		forked_child(f->traceme);
	CHECK_OK(waitid(P_PID, f->child, &info, WEXITED | WSTOPPED | WNOWAIT | __WNOTHREAD));
	CHECK_EQ(info.si_pid, f->child);
	CHECK_EQ(info.si_code, f->traceme ? CLD_TRAPPED : CLD_EXITED);
	step_send(f->to_main[1]);
	step_receive(f->to_forker[0]);
	return NULL;
}

/* Thread B forks and holds its child's news; A runs this once B has it. */
static void
start_forker(struct forker *f, pthread_t *thread)
{
	CHECK_OK(pipe(f->to_main));
	CHECK_OK(pipe(f->to_forker));
	CHECK_EQ(pthread_create(thread, NULL, fork_and_hold, f), 0);
	step_receive(f->to_main[0]);
}

/*
 * Waits until B has left its group. pthread_join returns once B's tid word
 * is cleared, which is before its exit hands its children over; its
 * thread id is gone only after.
 */
static void
join_and_wait_gone(pthread_t thread, pid_t tid)
{
	CHECK_EQ(pthread_join(thread, NULL), 0);
	while (syscall(SYS_tgkill, getpid(), tid, 0) == 0)
		sched_yield();
	CHECK_EQ(errno, ESRCH);
}

/* What A, not the forker, sees of B's child while B lives: only without __WNOTHREAD. */
static void
check_only_the_group_sees(pid_t child, int want_code)
{
	siginfo_t info = { 0 };
	int status;

	CHECK_ERR(ECHILD, waitpid(-1, &status, WNOHANG | __WNOTHREAD));
	CHECK_ERR(ECHILD, waitpid(child, &status, __WNOTHREAD));
	CHECK_ERR(ECHILD, waitid(P_ALL, 0, &info, WEXITED | WSTOPPED | WNOHANG | __WNOTHREAD));
	CHECK_OK(waitid(P_PID, child, &info, WEXITED | WSTOPPED | WNOWAIT));
	CHECK_EQ(info.si_pid, child);
	CHECK_EQ(info.si_code, want_code);
}

TEST(wnothread_waits_only_for_the_callers_own_children)
{
	struct forker f = { .traceme = false };
	pthread_t b;
	int status;

	start_forker(&f, &b);
	check_only_the_group_sees(f.child, CLD_EXITED);
	step_send(f.to_forker[1]);
	join_and_wait_gone(b, f.tid);
	/* B is gone: its child is the main thread's now, even to __WNOTHREAD. */
	CHECK_EQ(waitpid(-1, &status, __WNOTHREAD), f.child);
	expect_exited(status, CHILD_CODE, "the exited thread's child");
	CHECK_ERR(ECHILD, waitpid(-1, &status, WNOHANG));
}

TEST(wnothread_waits_only_for_the_callers_own_tracees)
{
	struct forker f = { .traceme = true };
	pthread_t b;
	int status;

	start_forker(&f, &b);
	check_only_the_group_sees(f.child, CLD_TRAPPED);
	/* B exits: its tracee is let go (Linux's exit_ptrace), and runs on to its exit. */
	step_send(f.to_forker[1]);
	join_and_wait_gone(b, f.tid);
	CHECK_EQ(waitpid(f.child, &status, __WNOTHREAD), f.child);
	expect_exited(status, CHILD_CODE, "the released tracee");
}

int
helper_own_child(pid_t child, int code)
{
	int status;

	if (waitpid(child, &status, __WNOTHREAD) != child)
		return 1;
	return WIFEXITED(status) && WEXITSTATUS(status) == code ? 0 : 2;
}

/* Thread B forks, then execs a helper that waits for that child as its own. */
static void *
fork_then_exec(void *unused)
{
	char pid_text[16], code_text[16];
	char *argv[] = { "usertests", "--helper", "own_child", pid_text, code_text, NULL };
	pid_t child = xfork();

	(void)unused;
	if (child == 0)
		_exit(CHILD_CODE);
	snprintf(pid_text, sizeof(pid_text), "%d", child);
	snprintf(code_text, sizeof(code_text), "%d", CHILD_CODE);
	exec_helper(argv);
}

TEST(wnothread_after_a_threads_execve_waits_for_its_children)
{
	pid_t pid = xfork();

	if (pid == 0) { /* the process whose thread B execs: its main thread ends then */
		pthread_t b;
		if (pthread_create(&b, NULL, fork_then_exec, NULL))
			_exit(90);
		for (;;)
			pause();
	}
	expect_exit(pid, 0, "the execed thread's __WNOTHREAD wait for its child");
}
