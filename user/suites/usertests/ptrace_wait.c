/*
 * ptrace_wait.c - usertests: who hears of a traced process's end, and
 * when: a tracer that is not the real parent waits for it first, and only
 * then may the parent reap it (Linux's order, which debuggers attached to
 * another's child rely on); WNOWAIT leaves the end to be waited for again;
 * an execve by a non-leader thread, whose leader's end is not reported.
 */
#define _GNU_SOURCE
#include "usertests.h"
#include "tracer.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHILD_STATUS 5

/* One byte through a pipe: a step of the three processes' handshake. */
static void
send_byte(int fd)
{
	if (write(fd, "x", 1) != 1)
		_exit(91);
}

static void
receive_byte(int fd)
{
	char c;

	if (read(fd, &c, 1) != 1)
		_exit(92);
}

/*
 * The tracer, a sibling of its tracee: seizes it, says so, peeks at its
 * end with WNOWAIT and says so, then, told to, waits for it for good.
 * Exits 0 if every wait said what Linux says.
 */
static void __attribute__((noreturn)) sibling_tracer(pid_t tracee, int to_parent, int from_parent)
{
	siginfo_t si = { 0 };
	int status;

	if (ptrace(PTRACE_SEIZE, tracee, 0, 0) != 0)
		_exit(93);
	send_byte(to_parent);
	if (waitid(P_PID, tracee, &si, WEXITED | WNOWAIT | __WALL) != 0 || si.si_pid != tracee ||
	    si.si_code != CLD_EXITED || si.si_status != CHILD_STATUS)
		_exit(94);
	send_byte(to_parent);
	receive_byte(from_parent);
	if (waitpid(tracee, &status, __WALL) != tracee || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != CHILD_STATUS)
		_exit(95);
	_exit(waitpid(tracee, &status, __WALL | WNOHANG) == -1 && errno == ECHILD ? 0 : 96);
}

TEST(ptrace_real_parent_reaps_a_traced_child_after_its_tracer_has_waited)
{
	int go[2], up[2], down[2], status;

	CHECK_OK(pipe(go));
	CHECK_OK(pipe(up));
	CHECK_OK(pipe(down));
	pid_t child = xfork();
	if (child == 0) {
		receive_byte(go[0]);
		_exit(CHILD_STATUS);
	}
	pid_t tracer = xfork();
	if (tracer == 0)
		sibling_tracer(child, up[1], down[0]);
	receive_byte(up[0]); /* seized */
	send_byte(go[1]);
	receive_byte(up[0]); /* the tracer has seen its end, and left it there */
	CHECK_EQ(CHECK_OK(waitpid(child, &status, WNOHANG)), 0); /* not yet the parent's */
	send_byte(down[1]);
	CHECK_EQ(CHECK_OK(waitpid(child, &status, 0)), child);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == CHILD_STATUS);
	CHECK_EQ(CHECK_OK(waitpid(tracer, &status, 0)), tracer);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* A tracer that ends without waiting lets the parent have the end. */
TEST(ptrace_real_parent_reaps_a_traced_child_once_its_tracer_is_gone)
{
	int go[2], up[2], status;

	CHECK_OK(pipe(go));
	CHECK_OK(pipe(up));
	pid_t child = xfork();
	if (child == 0) {
		receive_byte(go[0]);
		_exit(CHILD_STATUS);
	}
	pid_t tracer = xfork();
	if (tracer == 0) {
		siginfo_t si = { 0 };
		if (ptrace(PTRACE_SEIZE, child, 0, 0) != 0)
			_exit(93);
		send_byte(up[1]);
		_exit(waitid(P_PID, child, &si, WEXITED | WNOWAIT | __WALL) == 0 ? 0 : 94);
	}
	receive_byte(up[0]);
	send_byte(go[1]);
	CHECK_EQ(CHECK_OK(waitpid(tracer, &status, 0)), tracer);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK_EQ(CHECK_OK(waitpid(child, &status, 0)), child);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == CHILD_STATUS);
}

static void *
exec_from_a_thread(void *unused)
{
	char *argv[] = { "usertests", "no_such_test_runs_here", NULL };

	(void)unused;
	execv("/proc/self/exe", argv);
	_exit(97);
}

/* The traced child's body: a second thread execs, the leader waits to be ended by it. */
static void
start_an_execing_thread(void)
{
	pthread_t thread;

	if (pthread_create(&thread, NULL, exec_from_a_thread, NULL) != 0)
		_exit(98);
	sleep_forever();
}

/*
 * The execing thread reports PTRACE_EVENT_EXEC under the leader's pid
 * with its own old tid as the event's message, and the leader, whose pid
 * it took, reports no end of its own (ptrace(2), "execve(2) under ptrace").
 *
 * The new thread's first stop may be reported before the leader's clone
 * event (both wait to be seen; a loaded machine lets both happen before
 * the tracer runs). Continued then, the thread would exec and kill the
 * leader in its event stop, whose report is lost with it, on Linux too:
 * so the thread stays stopped until the clone event was read.
 */
TEST(ptrace_exec_by_a_thread_reports_under_the_leaders_pid_without_its_death)
{
	pid_t pid = traced_child(start_an_execing_thread), thread = 0, held = 0;
	unsigned long msg = 0;

	CHECK_OK(trace(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC));
	CHECK_OK(trace(PTRACE_CONT, pid, 0, 0));
	for (;;) {
		int status;
		pid_t who = CHECK_OK(waitpid(-1, &status, __WALL));
		if (!WIFSTOPPED(status))
			fail("pid %d: wait status %#x before the exec event", who, status);
		if (status == STOPPED_WITH(SIGTRAP | (PTRACE_EVENT_EXEC << 8))) {
			CHECK_EQ(who, pid);
			break;
		}
		if (status == STOPPED_WITH(SIGTRAP | (PTRACE_EVENT_CLONE << 8))) {
			CHECK_OK(trace(PTRACE_GETEVENTMSG, who, 0, (unsigned long)&msg));
			thread = (pid_t)msg;
			if (held)
				CHECK_OK(trace(PTRACE_CONT, held, 0, 0));
		} else if (who != pid && !thread) {
			held = who;
			continue;
		}
		CHECK_OK(trace(PTRACE_CONT, who, 0, 0));
	}
	CHECK_OK(trace(PTRACE_GETEVENTMSG, pid, 0, (unsigned long)&msg));
	CHECK(thread != 0 && (pid_t)msg == thread);
	kill_and_reap(pid);
}
