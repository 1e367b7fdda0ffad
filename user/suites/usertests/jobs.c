/*
 * jobs.c - usertests: process groups and sessions, what job control is
 * built on. setpgid, getpgid, getpgrp, setsid and getsid with Linux's
 * rules and errnos, the ids across fork and execve, signals to a group
 * (kill(0), kill(-pgid)), waiting for a group (waitpid(0), waitpid(-pgid),
 * waitid(P_PGID)), and the SIGHUP and SIGCONT a stopped group gets when it
 * becomes orphaned.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define NO_SUCH_PID 999999999

/* Reads one byte from fd, failing the test at end of file. */
static char
read_byte(int fd)
{
	char c;

	if (read(fd, &c, 1) != 1)
		fail("read from the synchronisation pipe: %s", strerror(errno));
	return c;
}

static void
write_byte(int fd, char c)
{
	if (write(fd, &c, 1) != 1)
		fail("write to the synchronisation pipe: %s", strerror(errno));
}

TEST(process_group_ids)
{
	pid_t pgrp = getpgrp(), sid = getsid(0);

	CHECK_EQ(pgrp, getpgid(0));
	CHECK_EQ(pgrp, getpgid(getpid()));
	CHECK_EQ(sid, CHECK_OK(getsid(getpid())));
	CHECK_ERR(ESRCH, getpgid(NO_SUCH_PID));
	CHECK_ERR(ESRCH, getsid(NO_SUCH_PID));
	CHECK_ERR(ESRCH, syscall(SYS_getpgid, -1));
	CHECK_ERR(EINVAL, setpgid(0, -1));
	CHECK_ERR(ESRCH, setpgid(NO_SUCH_PID, 0));
	/* The parent is no child of ours. */
	CHECK_ERR(ESRCH, setpgid(getppid(), 0));
	/* A group of our own, then into a child's group (same session), then our own again. */
	CHECK_OK(setpgid(0, 0));
	CHECK_EQ(getpgrp(), getpid());
	CHECK_EQ(getsid(0), sid);
	int go[2];
	CHECK_OK(pipe(go));
	pid_t child = xfork();
	if (child == 0) {
		close(go[1]);
		read_byte(go[0]);
		_exit(0);
	}
	CHECK_OK(setpgid(child, child));
	CHECK_OK(setpgid(0, child));
	CHECK(getpgrp() == child && getpgid(child) == child);
	CHECK_OK(setpgid(0, getpid()));
	CHECK_EQ(getpgrp(), getpid());
	/* No group has this number. */
	CHECK_ERR(EPERM, setpgid(0, NO_SUCH_PID));
	write_byte(go[1], 'g');
	expect_exit(child, 0, "child with a group of its own");
}

/* The rules for moving a child: before it runs another program, and within the session. */
TEST(setpgid_of_a_child)
{
	int go[2], told[2];

	CHECK_OK(pipe(go));
	CHECK_OK(pipe(told));
	pid_t child = xfork();
	if (child == 0) {
		read_byte(go[0]);
		pid_t pgid = getpgrp();
		write(told[1], &pgid, sizeof(pgid));
		read_byte(go[0]);
		_exit(0);
	}
	CHECK_OK(setpgid(child, child));
	CHECK_EQ(getpgid(child), child);
	write_byte(go[1], 'g');
	pid_t seen;
	CHECK_EQ(read(told[0], &seen, sizeof(seen)), sizeof(seen));
	CHECK_EQ(seen, child);
	/* Into ours (a group of our own: the one we started in may be init's 0), then into none. */
	CHECK_OK(setpgid(0, 0));
	CHECK_OK(setpgid(child, getpid()));
	CHECK_EQ(getpgid(child), getpid());
	CHECK_ERR(EPERM, setpgid(child, NO_SUCH_PID));
	write_byte(go[1], 'g');
	expect_exit(child, 0, "child moved between groups");

	/* After execve: EACCES. */
	char fd[16];
	snprintf(fd, sizeof(fd), "%d", told[1]);
	child = xfork();
	if (child == 0) {
		char *argv[] = { self_path, "--helper", "ready", fd, NULL };
		execv(self_path, argv);
		_exit(127);
	}
	CHECK_EQ(read_byte(told[0]), 'r');
	CHECK_ERR(EACCES, setpgid(child, child));
	kill(child, SIGKILL);
	expect_signaled(wait_status(child), SIGKILL, "exec'd child");

	/* A child in a session of its own: EPERM (for the session leader and the session). */
	child = xfork();
	if (child == 0) {
		if (setsid() != getpid())
			fail("setsid: %s", strerror(errno));
		write_byte(told[1], 's');
		read_byte(go[0]);
		_exit(0);
	}
	CHECK_EQ(read_byte(told[0]), 's');
	CHECK_ERR(EPERM, setpgid(child, child));
	CHECK_ERR(EPERM, setpgid(child, getpgrp()));
	CHECK_EQ(getsid(child), child);
	write_byte(go[1], 'g');
	expect_exit(child, 0, "session leader child");
}

TEST(setsid_rules)
{
	pid_t child = xfork();

	if (child == 0) {
		pid_t me = getpid(), old_sid = getsid(0);
		if (setsid() != me)
			fail("setsid() in a child: %s", strerror(errno));
		if (getsid(0) != me || getpgrp() != me || old_sid == me)
			fail("after setsid: sid %d pgrp %d, want %d", getsid(0), getpgrp(), me);
		/* A session leader is a group leader: no second setsid, no move. */
		CHECK_ERR(EPERM, setsid());
		CHECK_ERR(EPERM, setpgid(0, 0));
		/* No controlling terminal in a new session. */
		CHECK_ERR(ENXIO, open("/dev/tty", O_RDWR));
		/* A child of the leader is in its session and group, and may not setsid into the group's id. */
		pid_t grandchild = xfork();
		if (grandchild == 0) {
			if (getsid(0) != me || getpgrp() != me)
				fail("grandchild: sid %d pgrp %d, want %d", getsid(0), getpgrp(),
				     me);
			CHECK_OK(setsid());
			_exit(0);
		}
		expect_exit(grandchild, 0, "grandchild setsid");
		_exit(0);
	}
	expect_exit(child, 0, "setsid child");

	/* A group leader cannot start a session: its group would span two. */
	child = xfork();
	if (child == 0) {
		CHECK_OK(setpgid(0, 0));
		CHECK_ERR(EPERM, setsid());
		_exit(0);
	}
	expect_exit(child, 0, "group leader setsid");
}

/* The ids survive fork and execve: a helper run by execve reports them. */
TEST(ids_across_fork_and_exec)
{
	int p[2];

	CHECK_OK(pipe(p));
	pid_t child = xfork();
	if (child == 0) {
		CHECK_OK(setsid());
		pid_t grandchild = xfork();
		if (grandchild == 0) {
			pid_t ids[2] = { getpgrp(), getsid(0) };
			write(p[1], ids, sizeof(ids));
			char fd[16], *argv[] = { self_path, "--helper", "ready", fd, NULL };
			snprintf(fd, sizeof(fd), "%d", p[1]);
			execv(self_path, argv);
			_exit(127);
		}
		pid_t ids[2];
		if (read(p[0], ids, sizeof(ids)) != sizeof(ids) || ids[0] != getpid() ||
		    ids[1] != getpid())
			fail("forked child: pgrp %d sid %d, want %d", ids[0], ids[1], getpid());
		if (read_byte(p[0]) != 'r')
			fail("the helper did not start");
		/* After execve, as seen from outside. */
		if (getpgid(grandchild) != getpid() || getsid(grandchild) != getpid())
			fail("exec'd child: pgid %d sid %d, want %d", getpgid(grandchild),
			     getsid(grandchild), getpid());
		kill(grandchild, SIGKILL);
		wait_status(grandchild);
		_exit(0);
	}
	expect_exit(child, 0, "session child");
}

static volatile sig_atomic_t usr1_seen;

static void
count_usr1(int sig)
{
	(void)sig;
	usr1_seen++;
}

/* kill(0) reaches the caller's group and kill(-pgid) a named group, and nothing outside them. */
TEST(kill_process_group)
{
	pid_t leader = xfork();

	if (leader == 0) {
		CHECK_OK(setpgid(0, 0));
		signal(SIGUSR1, count_usr1);
		sigset_t usr1, old;
		sigemptyset(&usr1);
		sigaddset(&usr1, SIGUSR1);
		sigprocmask(SIG_BLOCK, &usr1, &old);
		pid_t member = xfork();
		if (member == 0) {
			signal(SIGUSR1, SIG_DFL);
			sigprocmask(SIG_SETMASK, &old, NULL);
			for (;;)
				pause();
		}
		pid_t outsider = xfork();
		if (outsider == 0) {
			signal(SIGUSR1, SIG_DFL);
			sigprocmask(SIG_SETMASK, &old, NULL);
			CHECK_OK(setpgid(0, 0));
			for (;;)
				pause();
		}
		/* The outsider may still be on its way into its own group: put it there from here too. */
		setpgid(outsider, outsider);
		CHECK_OK(kill(0, SIGUSR1));
		while (!usr1_seen)
			sigsuspend(&old);
		expect_signaled(wait_status(member), SIGUSR1, "member of the group");
		CHECK_EQ(waitpid(outsider, NULL, WNOHANG), 0);
		CHECK_OK(kill(-outsider, 0));
		CHECK_OK(kill(-outsider, SIGTERM));
		expect_signaled(wait_status(outsider), SIGTERM, "the other group");
		CHECK_ERR(ESRCH, kill(-outsider, 0));
		CHECK_ERR(ESRCH, kill(-NO_SUCH_PID, SIGTERM));
		_exit(0);
	}
	expect_exit(leader, 0, "group leader");
}

/* waitpid(0) and waitpid(-pgid) wait for one group's children; waitid(P_PGID) too. */
TEST(wait_for_a_group)
{
	pid_t parent = xfork();

	if (parent == 0) {
		CHECK_OK(setpgid(0, 0));
		int go[2];
		CHECK_OK(pipe(go));
		pid_t same = xfork();
		if (same == 0) {
			read_byte(go[0]);
			_exit(3);
		}
		pid_t other = xfork();
		if (other == 0) {
			read_byte(go[0]);
			_exit(4);
		}
		CHECK_OK(setpgid(other, other));
		int status;
		CHECK_EQ(waitpid(0, &status, WNOHANG), 0);
		CHECK_EQ(waitpid(-other, &status, WNOHANG), 0);
		CHECK_ERR(ECHILD, waitpid(-NO_SUCH_PID, &status, WNOHANG));
		write_byte(go[1], 'g');
		write_byte(go[1], 'g');
		CHECK_EQ(waitpid(0, &status, 0), same);
		expect_exited(status, 3, "child in our group");
		/* Only the other group's child is left: not ours to wait for with 0. */
		CHECK_ERR(ECHILD, waitpid(0, &status, 0));
		siginfo_t info = { 0 };
		CHECK_OK(waitid(P_PGID, other, &info, WEXITED | WNOWAIT));
		CHECK(info.si_pid == other && info.si_code == CLD_EXITED && info.si_status == 4);
		CHECK_EQ(waitpid(-other, &status, 0), other);
		expect_exited(status, 4, "child in the other group");
		_exit(0);
	}
	expect_exit(parent, 0, "waiting parent");
}

static void
note_hangup(int sig)
{
	usr1_seen = sig; /* one handler's record is enough here */
}

/*
 * POSIX: when a group with a stopped member becomes orphaned, every member
 * gets SIGHUP, then SIGCONT. The middle process holds the group (its parent
 * in the session, outside the group); when it exits, nobody could continue
 * the stopped child but that signal pair.
 */
TEST(orphaned_stopped_group_gets_hangup)
{
	int p[2];

	CHECK_OK(pipe(p));
	pid_t middle = xfork();
	if (middle == 0) {
		CHECK_OK(
			setsid()); /* a session of our own: the host's init cannot hold the group */
		pid_t stopped = xfork();
		if (stopped == 0) {
			CHECK_OK(setpgid(0, 0));
			signal(SIGHUP, note_hangup);
			raise(SIGSTOP);
			/* Continued: by the SIGCONT that follows the SIGHUP. */
			while (!usr1_seen)
				pause();
			write_byte(p[1], usr1_seen == SIGHUP ? 'H' : '?');
			_exit(0);
		}
		int status;
		if (waitpid(stopped, &status, WUNTRACED) != stopped || !WIFSTOPPED(status))
			fail("the child did not stop");
		_exit(0); /* orphans the stopped group */
	}
	expect_exit(middle, 0, "middle process");
	close(p[1]);
	CHECK_EQ(read_byte(p[0]), 'H');
}
