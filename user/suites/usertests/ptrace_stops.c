/*
 * ptrace_stops.c - usertests: group stops and SIGCONT under a tracer, as
 * gdb and strace meet them: SEIZE's event stops, PTRACE_LISTEN and
 * PTRACE_INTERRUPT, SIGCONT re-trapping a seized or an old-style tracee,
 * and attaching to (and detaching from) a process already stopped.
 */
#define _GNU_SOURCE
#include "usertests.h"
#include "tracer.h"

#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/procfile.h"

TEST(ptrace_seize_then_interrupt_stops_with_event_stop)
{
	pid_t pid = xfork();

	if (pid == 0)
		sleep_forever();
	CHECK_OK(trace(PTRACE_SEIZE, pid, 0, PTRACE_O_TRACESYSGOOD));
	CHECK_ERR(ESRCH, trace(PTRACE_GETEVENTMSG, pid, 0, 0)); /* running: not stopped */
	CHECK_OK(trace(PTRACE_INTERRUPT, pid, 0, 0));
	expect_stop(pid, SIGTRAP | (PTRACE_EVENT_STOP << 8));
	CHECK_OK(trace(PTRACE_CONT, pid, 0, 0));
	kill_and_reap(pid);
}

/*
 * SIGCONT to a seized tracee: the tracer sees the continue (an event stop), then the signal
 * itself (its signal-delivery-stop); the tracee is then ended.
 */
static void
expect_sigcont_retrap(pid_t pid)
{
	CHECK_OK(kill(pid, SIGCONT));
	expect_stop(pid, SIGTRAP | (PTRACE_EVENT_STOP << 8));
	CHECK_OK(trace(PTRACE_CONT, pid, 0, 0));
	expect_stop(pid, SIGCONT);
	CHECK_OK(trace(PTRACE_CONT, pid, 0, 0));
	kill_and_reap(pid);
}

/* A child seized and stopped by SIGSTOP, in its group-stop (the tracer passed the signal on). */
static pid_t
seized_group_stopped_child(void)
{
	pid_t pid = xfork();

	if (pid == 0)
		sleep_forever();
	CHECK_OK(trace(PTRACE_SEIZE, pid, 0, 0));
	CHECK_OK(kill(pid, SIGSTOP));
	expect_stop(pid, SIGSTOP); /* the signal-delivery-stop */
	CHECK_OK(trace(PTRACE_CONT, pid, 0, SIGSTOP));
	expect_stop(pid, SIGSTOP | (PTRACE_EVENT_STOP << 8)); /* the group-stop */
	return pid;
}

TEST(ptrace_listen_keeps_a_group_stop_until_sigcont_retraps)
{
	pid_t pid = seized_group_stopped_child();
	int status;

	CHECK_OK(trace(PTRACE_LISTEN, pid, 0, 0));
	CHECK(CHECK_OK(waitpid(pid, &status, __WALL | WNOHANG)) == 0); /* not reported */
	CHECK_ERR(ESRCH, trace(PTRACE_CONT, pid, 0, 0)); /* a listener is not in a trap */
	expect_sigcont_retrap(pid);
}

TEST(ptrace_sigcont_traps_a_running_seized_tracee_before_its_delivery)
{
	pid_t pid = xfork();

	if (pid == 0)
		sleep_forever();
	CHECK_OK(trace(PTRACE_SEIZE, pid, 0, 0));
	expect_sigcont_retrap(pid);
}

TEST(ptrace_interrupt_retraps_a_listener_still_group_stopped)
{
	pid_t pid = seized_group_stopped_child();

	CHECK_OK(trace(PTRACE_LISTEN, pid, 0, 0));
	CHECK_OK(trace(PTRACE_INTERRUPT, pid, 0, 0));
	expect_stop(pid, SIGSTOP | (PTRACE_EVENT_STOP << 8));
	kill_and_reap(pid);
}

TEST(ptrace_listen_outside_a_seized_event_stop_is_eio)
{
	pid_t old_style = traced_child(sleep_forever); /* in SIGSTOP's signal-delivery-stop */
	pid_t seized = xfork();

	if (seized == 0)
		sleep_forever();
	CHECK_ERR(EIO, trace(PTRACE_LISTEN, old_style, 0, 0));
	CHECK_OK(trace(PTRACE_SEIZE, seized, 0, 0));
	CHECK_OK(kill(seized, SIGSTOP));
	expect_stop(seized, SIGSTOP);
	CHECK_ERR(EIO, trace(PTRACE_LISTEN, seized, 0, 0));
	kill_and_reap(old_style);
	kill_and_reap(seized);
}

/* Fails the test unless pid is in a group-stop: a stop with no siginfo (GETSIGINFO's EINVAL). */
static void
expect_group_stop_without_siginfo(pid_t pid)
{
	siginfo_t si;

	CHECK_ERR(EINVAL, trace(PTRACE_GETSIGINFO, pid, 0, (unsigned long)&si));
}

/*
 * SIGCONT does not end an old-style tracee's group-stop: its tracer does
 * (Linux wakes only __TASK_STOPPED tasks). Resumed, it takes SIGCONT's
 * signal-delivery-stop, as strace shows it.
 */
static void
expect_sigcont_after_the_group_stop(pid_t pid)
{
	siginfo_t si;
	int status;

	CHECK_OK(kill(pid, SIGCONT));
	CHECK(CHECK_OK(waitpid(pid, &status, __WALL | WNOHANG)) == 0); /* nothing new */
	expect_group_stop_without_siginfo(pid); /* still in it: requests work */
	CHECK_OK(trace(PTRACE_CONT, pid, 0, 0));
	expect_stop(pid, SIGCONT);
	CHECK_OK(trace(PTRACE_GETSIGINFO, pid, 0, (unsigned long)&si));
	CHECK(si.si_signo == SIGCONT && si.si_code == SI_USER && si.si_pid == getpid());
	CHECK_OK(trace(PTRACE_CONT, pid, 0, SIGCONT));
	kill_and_reap(pid);
}

TEST(ptrace_sigcont_reaches_an_old_style_tracee_in_group_stop_when_resumed)
{
	pid_t pid = traced_child(sleep_forever); /* raise(SIGSTOP)'s signal-delivery-stop */

	CHECK_OK(trace(PTRACE_CONT, pid, 0, SIGSTOP));
	expect_stop(pid, SIGSTOP);
	expect_group_stop_without_siginfo(pid);
	expect_sigcont_after_the_group_stop(pid);
}

/* A child stopped by SIGSTOP (a group stop), its stop already reported to us. */
static pid_t
stopped_child(void)
{
	pid_t pid = xfork();
	int status;

	if (pid == 0)
		sleep_forever();
	CHECK_OK(kill(pid, SIGSTOP));
	CHECK_EQ(CHECK_OK(waitpid(pid, &status, WUNTRACED)), pid);
	CHECK(WIFSTOPPED(status) && WSTOPSIG(status) == SIGSTOP);
	return pid;
}

TEST(ptrace_attach_to_a_stopped_process_retraps_its_group_stop)
{
	pid_t pid = stopped_child();

	CHECK_OK(trace(PTRACE_ATTACH, pid, 0, 0));
	expect_stop(pid, SIGSTOP);
	expect_group_stop_without_siginfo(pid);
	/* SIGCONT drops the attach's own SIGSTOP, still pending, as any stop signal. */
	expect_sigcont_after_the_group_stop(pid);
}

/* As Linux waits for the trap in ptrace_attach, a request right after ATTACH finds it stopped. */
TEST(ptrace_attach_to_a_stopped_process_returns_with_it_in_its_trap)
{
	pid_t pid = stopped_child();
	unsigned long rip;

	CHECK_OK(trace(PTRACE_ATTACH, pid, 0, 0));
	CHECK_OK(trace(PTRACE_PEEKUSER, pid, offsetof(struct user_regs_struct, rip),
		       (unsigned long)&rip));
	expect_stop(pid, SIGSTOP);
	kill_and_reap(pid);
}

/* The state letter of /proc/<pid>/status ("T (stopped)": 'T'). */
static char
state_of(pid_t pid)
{
	char path[64], text[4096], state[32];

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	CHECK_OK(read_text_file(path, text, sizeof(text)));
	CHECK_OK(field_str(text, "State", state, sizeof(state)));
	return state[0];
}

TEST(ptrace_detach_from_a_retrapped_group_stop_leaves_it_stopped)
{
	pid_t pid = stopped_child();
	int status;

	CHECK_OK(trace(PTRACE_ATTACH, pid, 0, 0));
	expect_stop(pid, SIGSTOP);
	CHECK_OK(trace(PTRACE_DETACH, pid, 0, 0));
	/*
	 * Back in the group stop its process is still in: Linux gets there on
	 * the tracee's way out of its trap, so wait for it (bounded against a hang only).
	 */
	for (int i = 0; state_of(pid) != 'T'; i++) {
		if (i == 60000)
			fail("pid %d: state %c a minute after the detach, want T", pid,
			     state_of(pid));
		usleep(1000);
	}
	CHECK_OK(kill(pid, SIGCONT));
	CHECK_EQ(CHECK_OK(waitpid(pid, &status, WCONTINUED)), pid);
	CHECK(WIFCONTINUED(status));
	kill_and_reap(pid);
}

TEST(ptrace_seize_of_a_stopped_process_traps_with_its_stop_signal)
{
	pid_t pid = stopped_child();

	CHECK_OK(trace(PTRACE_SEIZE, pid, 0, 0));
	expect_stop(pid, SIGSTOP | (PTRACE_EVENT_STOP << 8));
	CHECK_OK(trace(PTRACE_LISTEN, pid, 0, 0));
	expect_sigcont_retrap(pid);
}
