/*
 * stopping.c - signaltests: job control's stop and continue. SIGSTOP and
 * the other stop signals stop a process until SIGCONT, the parent learns
 * of both through wait4 (WUNTRACED, WCONTINUED), waitid (WSTOPPED,
 * WCONTINUED, WNOWAIT) and SIGCHLD (CLD_STOPPED, CLD_CONTINUED, unless
 * SA_NOCLDSTOP); SIGCONT and the stop signals cancel each other's pending
 * instances; SIGKILL ends a stopped process; a stopped process's State is
 * "T (stopped)"; a call interrupted by the stop carries on afterwards.
 *
 * "Stopped" is checked through what the kernel reports (wait, /proc),
 * never by how long something did not run.
 */
#define _GNU_SOURCE
#include "signaltests.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The State line of /proc/<pid>/status, e.g. "T (stopped)". */
static void
proc_state(pid_t pid, char *out, size_t size)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		fail("read %s: %s", path, strerror(errno));
	buf[n] = '\0';
	char *line = strstr(buf, "State:\t");
	if (!line)
		fail("%s has no State line", path);
	line += strlen("State:\t");
	size_t len = strcspn(line, "\n");
	snprintf(out, size, "%.*s", (int)len, line);
}

/*
 * A child that blocks in read() on a pipe and exits with the byte's value
 * once it has one. It has a process group of its own, which we, in the
 * same session, hold: the terminal's stop signals stop it (they would not
 * in an orphaned group, as the one init's children share may be).
 */
static pid_t
start_reader(int *write_end)
{
	int p[2];

	CHECK_OK(pipe(p));
	pid_t pid = fork();
	if (pid == 0) {
		char c;
		setpgid(0, 0);
		close(p[1]);
		ssize_t n = read(p[0], &c, 1);
		_exit(n == 1 ? c : 100 + (n < 0 ? errno % 100 : 0));
	}
	CHECK(pid > 0);
	setpgid(pid, pid);
	close(p[0]);
	*write_end = p[1];
	return pid;
}

/* Stops pid with sig and checks what wait4 reports. */
static void
stop_and_check(pid_t pid, int sig)
{
	int status;

	CHECK_OK(kill(pid, sig));
	CHECK_EQ(waitpid(pid, &status, WUNTRACED), pid);
	if (!WIFSTOPPED(status) || WSTOPSIG(status) != sig)
		fail("wait status %#x, want stopped by %d", status, sig);
}

/*
 * SIGSTOP stops a process sleeping in read(); SIGCONT continues it, and the
 * interrupted read carries on (restarted), so the byte written later
 * arrives. Each stop and continue is reported once.
 */
TEST(stop_and_continue_a_sleeping_process)
{
	int fd, status;
	char state[64];
	pid_t pid = start_reader(&fd);

	stop_and_check(pid, SIGSTOP);
	proc_state(pid, state, sizeof(state));
	if (strcmp(state, "T (stopped)"))
		fail("State of a stopped process: '%s', want 'T (stopped)'", state);
	/* Reported once: a second WUNTRACED wait finds nothing new. */
	CHECK_EQ(waitpid(pid, &status, WUNTRACED | WNOHANG), 0);
	CHECK_EQ(waitpid(pid, &status, WCONTINUED | WNOHANG), 0);
	CHECK_OK(kill(pid, SIGCONT));
	CHECK_EQ(waitpid(pid, &status, WCONTINUED), pid);
	CHECK(WIFCONTINUED(status));
	CHECK_EQ(waitpid(pid, &status, WCONTINUED | WNOHANG), 0);
	proc_state(pid, state, sizeof(state));
	CHECK(state[0] != 'T');
	/* The other stop signals stop by default too. */
	stop_and_check(pid, SIGTSTP);
	CHECK_OK(kill(pid, SIGCONT));
	stop_and_check(pid, SIGTTIN);
	CHECK_OK(kill(pid, SIGCONT));
	stop_and_check(pid, SIGTTOU);
	CHECK_OK(kill(pid, SIGCONT));
	CHECK_EQ(write(fd, "\x2a", 1), 1);
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	expect_exited(status, 0x2a, "reader continued after its stops");
}

TEST(sigkill_ends_a_stopped_process)
{
	int fd, status;
	pid_t pid = start_reader(&fd);

	stop_and_check(pid, SIGSTOP);
	CHECK_OK(kill(pid, SIGKILL));
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	expect_signaled(status, SIGKILL, "stopped process");

	/* Any other signal waits for the SIGCONT: a stopped process takes none. */
	pid = start_reader(&fd);
	stop_and_check(pid, SIGSTOP);
	CHECK_OK(kill(pid, SIGTERM));
	CHECK_EQ(waitpid(pid, &status, WNOHANG), 0);
	CHECK_OK(kill(pid, SIGCONT));
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	expect_signaled(status, SIGTERM, "stopped process, then continued");
}

/* A stop signal with a handler does not stop; ignored, it does nothing. */
TEST(stop_signal_handled_or_ignored)
{
	set_handler(SIGTSTP, record, 0);
	handled = 0;
	raise(SIGTSTP);
	CHECK(handled == 1 && handled_sig == SIGTSTP);
	set_disposition(SIGTTOU, SIG_IGN);
	raise(SIGTTOU);
	set_disposition(SIGTTIN, SIG_IGN);
	raise(SIGTTIN);
}

/* SIGCONT discards pending stop signals, a stop signal discards a pending SIGCONT. */
TEST(sigcont_and_stop_signals_cancel)
{
	sigset_t pending;

	mask_signal(SIG_BLOCK, SIGTSTP);
	mask_signal(SIG_BLOCK, SIGTTIN);
	mask_signal(SIG_BLOCK, SIGCONT);
	raise(SIGTSTP);
	raise(SIGTTIN);
	sigpending(&pending);
	CHECK(sigismember(&pending, SIGTSTP) && sigismember(&pending, SIGTTIN));
	raise(SIGCONT);
	sigpending(&pending);
	CHECK(!sigismember(&pending, SIGTSTP) && !sigismember(&pending, SIGTTIN));
	CHECK(sigismember(&pending, SIGCONT));
	raise(SIGTSTP);
	sigpending(&pending);
	CHECK(sigismember(&pending, SIGTSTP) && !sigismember(&pending, SIGCONT));
	set_disposition(SIGTSTP, SIG_IGN); /* so that unblocking it does not stop this test */
	mask_signal(SIG_UNBLOCK, SIGTSTP);
}

/* The parent's SIGCHLD: CLD_STOPPED with the stop signal, CLD_CONTINUED with SIGCONT, then CLD_EXITED. */
TEST(sigchld_for_stop_and_continue)
{
	int fd;
	siginfo_t info;
	sigset_t chld;
	struct timespec forever = { 3600, 0 };

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	mask_signal(SIG_BLOCK, SIGCHLD);
	set_handler(SIGCHLD, record, 0); /* not ignored, so that it queues */
	pid_t pid = start_reader(&fd);
	CHECK_OK(kill(pid, SIGTSTP));
	CHECK_EQ(sigtimedwait(&chld, &info, &forever), SIGCHLD);
	CHECK(info.si_code == CLD_STOPPED && info.si_pid == pid && info.si_status == SIGTSTP);
	CHECK_OK(kill(pid, SIGCONT));
	CHECK_EQ(sigtimedwait(&chld, &info, &forever), SIGCHLD);
	CHECK(info.si_code == CLD_CONTINUED && info.si_pid == pid && info.si_status == SIGCONT);
	CHECK_EQ(write(fd, "\x07", 1), 1);
	CHECK_EQ(sigtimedwait(&chld, &info, &forever), SIGCHLD);
	CHECK(info.si_code == CLD_EXITED && info.si_pid == pid && info.si_status == 7);
	CHECK_EQ(waitpid(pid, NULL, 0), pid);

	/* SA_NOCLDSTOP: no SIGCHLD for the stop or the continue, only for the end. */
	set_handler(SIGCHLD, record, SA_NOCLDSTOP);
	pid = start_reader(&fd);
	int status;
	stop_and_check(pid, SIGSTOP);
	CHECK_OK(kill(pid, SIGCONT));
	CHECK(waitpid(pid, &status, WCONTINUED) == pid && WIFCONTINUED(status));
	CHECK_EQ(write(fd, "\x08", 1), 1);
	CHECK_EQ(sigtimedwait(&chld, &info, &forever), SIGCHLD);
	CHECK(info.si_code == CLD_EXITED && info.si_status == 8);
	CHECK_EQ(waitpid(pid, NULL, 0), pid);
}

/* waitid: WSTOPPED and WCONTINUED, WNOWAIT leaving the report in place, and its errors. */
TEST(waitid_stopped_and_continued)
{
	int fd;
	siginfo_t info;
	pid_t pid = start_reader(&fd);

	CHECK_ERR(EINVAL, waitid(P_PID, pid, &info, WNOHANG));
	CHECK_ERR(EINVAL, waitid(P_PID, 0, &info, WEXITED));
	CHECK_ERR(EINVAL, waitid(7, pid, &info, WEXITED));
	CHECK_OK(kill(pid, SIGSTOP));
	memset(&info, 0xff, sizeof(info));
	CHECK_OK(waitid(P_PID, pid, &info, WSTOPPED | WNOWAIT));
	CHECK(info.si_signo == SIGCHLD && info.si_code == CLD_STOPPED && info.si_pid == pid &&
	      info.si_status == SIGSTOP);
	CHECK_OK(waitid(P_ALL, 0, &info, WSTOPPED));
	CHECK(info.si_code == CLD_STOPPED && info.si_pid == pid);
	/* Taken: nothing left to report, and WNOHANG then zeroes the siginfo. */
	memset(&info, 0xff, sizeof(info));
	CHECK_OK(waitid(P_PID, pid, &info, WSTOPPED | WNOHANG));
	CHECK(info.si_pid == 0 && info.si_signo == 0);
	CHECK_OK(kill(pid, SIGCONT));
	CHECK_OK(waitid(P_PID, pid, &info, WCONTINUED));
	CHECK(info.si_code == CLD_CONTINUED && info.si_status == SIGCONT && info.si_pid == pid);
	/* WEXITED alone does not report a stop. */
	CHECK_OK(kill(pid, SIGSTOP));
	CHECK_OK(waitid(P_PID, pid, &info, WSTOPPED));
	memset(&info, 0xff, sizeof(info));
	CHECK_OK(waitid(P_PID, pid, &info, WEXITED | WNOHANG));
	CHECK_EQ(info.si_pid, 0);
	CHECK_OK(kill(pid, SIGKILL));
	CHECK_OK(waitid(P_PID, pid, &info, WEXITED | WNOWAIT));
	CHECK(info.si_code == CLD_KILLED && info.si_status == SIGKILL);
	int status;
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	expect_signaled(status, SIGKILL, "killed after waitid WNOWAIT");
}

/* POSIX: SIGTSTP, SIGTTIN and SIGTTOU do not stop a process in an orphaned group; SIGSTOP does. */
static void
stop_signals_in_an_orphaned_group(void)
{
	if (setsid() < 0) /* a new session: no parent in it, so the group is orphaned */
		_exit(90);
	raise(SIGTSTP);
	raise(SIGTTIN);
	raise(SIGTTOU);
	raise(SIGSTOP);
	_exit(0);
}

TEST(orphaned_group_ignores_terminal_stops)
{
	int status;
	pid_t pid = fork();

	if (pid == 0)
		stop_signals_in_an_orphaned_group();
	CHECK_EQ(waitpid(pid, &status, WUNTRACED), pid);
	if (!WIFSTOPPED(status) || WSTOPSIG(status) != SIGSTOP)
		fail("wait status %#x, want stopped by SIGSTOP (the terminal's stops dropped)",
		     status);
	CHECK_OK(kill(pid, SIGCONT));
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	expect_exited(status, 0, "orphaned child");
}
