/*
 * async_io.c - usertests: signal-driven I/O, as Linux has it. A file in
 * O_ASYNC mode (fcntl F_SETFL, or ioctl FIOASYNC) has its owner (F_SETOWN,
 * F_SETOWN_EX) signalled when it becomes ready: SIGIO, or F_SETSIG's
 * signal with si_code POLL_IN/POLL_OUT/POLL_HUP, si_band and si_fd. And
 * F_NOTIFY (dnotify): a directory's changes signalled the same way.
 *
 * The signals are blocked and taken with a zero-timeout sigtimedwait: the
 * kernel sends them inside the call that made the file ready, so they are
 * pending when it returns - a mechanism, not a time.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NOTE_SIG (SIGRTMIN + 1) /* the F_SETSIG signal these tests choose */

/* The pending sig taken into *si, or 0 when none is pending. */
static int
take_signal(int sig, siginfo_t *si)
{
	sigset_t set;
	struct timespec none = { 0, 0 };

	sigemptyset(&set);
	sigaddset(&set, sig);
	int got = sigtimedwait(&set, si, &none);
	if (got < 0)
		CHECK_EQ(errno, EAGAIN);
	return got < 0 ? 0 : got;
}

/* Takes the F_SETSIG signal, which must be pending, and checks what it says. */
static void
expect_note(int code, long band, int fd)
{
	siginfo_t si;

	CHECK_EQ(take_signal(NOTE_SIG, &si), NOTE_SIG);
	CHECK_EQ(si.si_code, code);
	CHECK_EQ(si.si_band, band);
	CHECK_EQ(si.si_fd, fd);
}

static void
no_signal(int sig)
{
	siginfo_t si;

	CHECK_EQ(take_signal(sig, &si), 0);
}

/* Makes fd's file O_ASYNC (on) or not, owned by this process, sending sig (0: SIGIO). */
static void
make_async(int fd, bool on, int sig)
{
	CHECK_OK(fcntl(fd, F_SETOWN, getpid()));
	CHECK_OK(fcntl(fd, F_SETSIG, sig));
	int fl = (int)CHECK_OK(fcntl(fd, F_GETFL));
	CHECK_OK(fcntl(fd, F_SETFL, on ? fl | O_ASYNC : fl & ~O_ASYNC));
	CHECK_EQ(!!(fcntl(fd, F_GETFL) & O_ASYNC), on);
}

TEST(async_pipe_sigio)
{
	int p[2];
	siginfo_t si;
	char c;

	block_signal(SIGIO);
	CHECK_OK(pipe(p));
	CHECK_OK(fcntl(p[0], F_SETFL, O_ASYNC)); /* no owner yet: nobody hears */
	CHECK_EQ(write(p[1], "a", 1), 1);
	no_signal(SIGIO);
	make_async(p[0], true, 0);
	CHECK_EQ(write(p[1], "b", 1), 1);
	CHECK_EQ(take_signal(SIGIO, &si), SIGIO);
	CHECK_EQ(si.si_code, SI_KERNEL); /* plain SIGIO says nothing more */
	CHECK_EQ(read(p[0], &c, 1), 1);	 /* the read end's owner hears of data only */
	no_signal(SIGIO);
	make_async(p[0], false, 0);
	CHECK_EQ(write(p[1], "c", 1), 1);
	no_signal(SIGIO);
	CHECK_OK(close(p[0]));
	CHECK_OK(close(p[1]));
}

TEST(async_setsig_siginfo)
{
	int p[2];
	char buf[8];

	block_signal(NOTE_SIG);
	CHECK_OK(pipe(p));
	make_async(p[0], true, NOTE_SIG);
	make_async(p[1], true, NOTE_SIG);
	CHECK_EQ(fcntl(p[0], F_GETSIG), NOTE_SIG);
	CHECK_EQ(write(p[1], "xy", 2), 2);
	expect_note(POLL_IN, POLLIN | POLLRDNORM, p[0]);
	no_signal(NOTE_SIG); /* the writing end hears of room, not of its own data */
	CHECK_EQ(read(p[0], buf, sizeof(buf)), 2);
	expect_note(POLL_OUT, POLLOUT | POLLWRNORM | POLLWRBAND, p[1]);
	/* si_fd is the fd O_ASYNC was turned on through: a dup does not change it. */
	int other = (int)CHECK_OK(dup(p[0]));
	CHECK_EQ(write(p[1], "z", 1), 1);
	expect_note(POLL_IN, POLLIN | POLLRDNORM, p[0]);
	CHECK_OK(close(other));
	CHECK_OK(close(p[1])); /* the last writer gone: the reader sees end of file */
	expect_note(POLL_IN, POLLIN | POLLRDNORM, p[0]);
	CHECK_OK(close(p[0]));
}

TEST(async_fioasync_socket)
{
	int s[2], on = 1, off = 0;
	char c;

	block_signal(NOTE_SIG);
	CHECK_OK(socketpair(AF_UNIX, SOCK_STREAM, 0, s));
	CHECK_OK(fcntl(s[0], F_SETOWN, getpid()));
	CHECK_OK(fcntl(s[0], F_SETSIG, NOTE_SIG));
	CHECK_OK(ioctl(s[0], FIOASYNC, &on));
	CHECK(fcntl(s[0], F_GETFL) & O_ASYNC);
	CHECK_EQ(send(s[1], "m", 1, 0), 1);
	expect_note(POLL_IN, POLLIN | POLLRDNORM, s[0]);
	CHECK_EQ(recv(s[0], &c, 1, 0), 1);
	CHECK_OK(ioctl(s[0], FIOASYNC, &off));
	CHECK(!(fcntl(s[0], F_GETFL) & O_ASYNC));
	CHECK_EQ(send(s[1], "n", 1, 0), 1);
	no_signal(NOTE_SIG);
	CHECK_ERR(EFAULT, ioctl(s[0], FIOASYNC, (int *)8));
	CHECK_OK(ioctl(s[0], FIOASYNC, &on));
	CHECK_OK(close(s[1])); /* the peer gone: a hang-up */
	expect_note(POLL_HUP, POLLHUP | POLLERR, s[0]);
	CHECK_OK(close(s[0]));
}

/* The thread F_OWNER_TID names is the one signalled: its own pending set holds it. */
TEST(async_owner_thread_and_group)
{
	int p[2];
	struct f_owner_ex ex = { F_OWNER_TID, (pid_t)syscall(SYS_gettid) }, got;
	sigset_t pending;

	block_signal(SIGIO);
	CHECK_OK(pipe(p));
	make_async(p[0], true, 0);
	CHECK_OK(fcntl(p[0], F_SETOWN_EX, &ex));
	CHECK_OK(fcntl(p[0], F_GETOWN_EX, &got));
	CHECK_EQ(got.type, F_OWNER_TID);
	CHECK_EQ(write(p[1], "t", 1), 1);
	CHECK_OK(sigpending(&pending));
	CHECK(sigismember(&pending, SIGIO));
	siginfo_t si;
	CHECK_EQ(take_signal(SIGIO, &si), SIGIO);
	no_signal(SIGIO); /* once */
	/* A group owner: this process in a group of its own, so nobody else hears. */
	CHECK_OK(setpgid(0, 0));
	CHECK_OK(fcntl(p[0], F_SETOWN, -getpgrp()));
	CHECK_EQ(write(p[1], "g", 1), 1);
	CHECK_EQ(take_signal(SIGIO, &si), SIGIO);
	CHECK_OK(close(p[0]));
	CHECK_OK(close(p[1]));
}

/*
 * The owner's setter must be allowed to signal it (Linux's sigio_perm):
 * a file whose owner root set stays root's to send through, but one
 * whose owner nobody set never reaches root's process.
 */
TEST(async_owner_permission)
{
	int p[2], ready[2];

	if (geteuid() != 0)
		skip("needs root to become nobody");
	block_signal(SIGIO);
	CHECK_OK(pipe(p));
	CHECK_OK(pipe(ready));
	CHECK_OK(fcntl(p[0], F_SETFL, O_ASYNC));
	pid_t me = getpid(), child = xfork();
	if (child == 0) {
		CHECK_OK(setresuid(65534, 65534, 65534));
		CHECK_OK(fcntl(p[0], F_SETOWN, me)); /* set by nobody */
		CHECK_EQ(write(ready[1], "s", 1), 1);
		_exit(0);
	}
	CHECK_EQ(wait_status(child), 0);
	char c;
	CHECK_EQ(read(ready[0], &c, 1), 1);
	CHECK_EQ(fcntl(p[0], F_GETOWN), me);
	CHECK_EQ(write(p[1], "w", 1), 1);
	no_signal(SIGIO);		     /* nobody may not signal root's process */
	CHECK_OK(fcntl(p[0], F_SETOWN, me)); /* set by root: it may */
	CHECK_EQ(write(p[1], "w", 1), 1);
	siginfo_t si;
	CHECK_EQ(take_signal(SIGIO, &si), SIGIO);
}

/* Asked through go, answers through answer whether SIGIO (blocked) came since last asked. */
static void __attribute__((noreturn)) answer_sigio_questions(int go[2], int answer[2])
{
	siginfo_t si;
	char c;

	close(go[1]); /* the asker's: its close ends the questions */
	close(answer[0]);
	while (read(go[0], &c, 1) == 1)
		if (write(answer[1], take_signal(SIGIO, &si) ? "y" : "n", 1) != 1)
			_exit(1);
	_exit(0);
}

/* A child (SIGIO blocked, answering questions) that has the pid want, or 0 if none could. */
static pid_t
child_with_pid(pid_t want, int go[2], int answer[2])
{
	for (int attempt = 0; attempt < 50; attempt++) {
		char last[16];
		snprintf(last, sizeof(last), "%d", want - 1);
		int fd = (int)CHECK_OK(open("/proc/sys/kernel/ns_last_pid", O_WRONLY));
		CHECK_EQ(write(fd, last, strlen(last)), (ssize_t)strlen(last));
		CHECK_OK(close(fd));
		pid_t child = xfork();
		if (child == 0)
			answer_sigio_questions(go, answer);
		if (child == want)
			return child;
		CHECK_OK(kill(child, SIGKILL)); /* something else took the pid first: again */
		wait_status(child);
	}
	return 0;
}

/* Writes to the O_ASYNC pipe p, then asks the child whether it was signalled. */
static char
signalled_by_write(int p[2], int go[2], int answer[2])
{
	char c;

	CHECK_EQ(write(p[1], "w", 1), 1);
	CHECK_EQ(write(go[1], "?", 1), 1);
	CHECK_EQ(read(answer[0], &c, 1), 1);
	return c;
}

/*
 * An owner is a process, not a number (Linux holds its struct pid): once
 * it is gone, a new process given the same pid (through ns_last_pid) is
 * not signalled.
 */
TEST(async_owner_pid_reuse)
{
	int p[2], go[2], answer[2];

	if (geteuid() != 0 || access("/proc/sys/kernel/ns_last_pid", W_OK) != 0)
		skip("needs root and /proc/sys/kernel/ns_last_pid to reuse a pid");
	block_signal(SIGIO);
	CHECK_OK(pipe(p));
	CHECK_OK(pipe(go));
	CHECK_OK(pipe(answer));
	CHECK_OK(fcntl(p[0], F_SETFL, O_ASYNC));
	pid_t first = xfork();
	if (first == 0)
		answer_sigio_questions(go, answer);
	CHECK_OK(fcntl(p[0], F_SETOWN, first));
	CHECK_EQ(signalled_by_write(p, go, answer), 'y');
	CHECK_OK(kill(first, SIGKILL));
	wait_status(first);
	pid_t second = child_with_pid(first, go, answer);
	if (!second)
		skip("pid %d was taken by others each time", (int)first);
	CHECK_EQ(fcntl(p[0], F_GETOWN), 0); /* what it named is gone (Linux asks pid_task) */
	CHECK_EQ(signalled_by_write(p, go, answer), 'n');
	CHECK_OK(fcntl(p[0], F_SETOWN, second)); /* named anew, it is the owner */
	CHECK_EQ(signalled_by_write(p, go, answer), 'y');
	CHECK_OK(close(go[1]));
	CHECK_EQ(wait_status(second), 0);
}

/* ---- F_NOTIFY ---- */

TEST(dnotify_events)
{
	int dir;

	block_signal(NOTE_SIG);
	CHECK_OK(mkdir("d", 0755));
	dir = (int)CHECK_OK(open("d", O_RDONLY | O_DIRECTORY));
	CHECK_OK(fcntl(dir, F_SETSIG, NOTE_SIG));
	CHECK_OK(fcntl(dir, F_NOTIFY, DN_CREATE | DN_MULTISHOT));
	CHECK_EQ(fcntl(dir, F_GETOWN), getpid()); /* the caller, as no owner was set */
	int f = create_file("d/f", "x", 1, 0644);
	expect_note(POLL_MSG, POLLIN | POLLRDNORM | POLLMSG, dir);
	no_signal(NOTE_SIG);
	CHECK_OK(fcntl(dir, F_NOTIFY, DN_MODIFY | DN_MULTISHOT)); /* adds to DN_CREATE */
	CHECK_EQ(write(f, "y", 1), 1);
	expect_note(POLL_MSG, POLLIN | POLLRDNORM | POLLMSG, dir);
	CHECK_OK(close(f));
	no_signal(NOTE_SIG); /* closing is no event */
	CHECK_OK(close(create_file("d/g", "", 0, 0644)));
	expect_note(POLL_MSG, POLLIN | POLLRDNORM | POLLMSG, dir);
	CHECK_OK(unlink("d/g")); /* DN_DELETE not asked for */
	no_signal(NOTE_SIG);
	CHECK_OK(fcntl(dir, F_NOTIFY, 0)); /* stops it */
	CHECK_OK(close(create_file("d/h", "", 0, 0644)));
	no_signal(NOTE_SIG);
	CHECK_OK(close(dir));
}

TEST(dnotify_oneshot_and_close)
{
	int dir;

	block_signal(SIGIO);
	CHECK_OK(mkdir("d", 0755));
	dir = (int)CHECK_OK(open("d", O_RDONLY | O_DIRECTORY));
	CHECK_OK(fcntl(dir, F_NOTIFY, DN_DELETE)); /* one signal, then it is gone */
	CHECK_OK(close(create_file("d/a", "", 0, 0644)));
	CHECK_OK(close(create_file("d/b", "", 0, 0644)));
	no_signal(SIGIO);
	CHECK_OK(unlink("d/a"));
	siginfo_t si;
	CHECK_EQ(take_signal(SIGIO, &si), SIGIO);
	CHECK_EQ(si.si_code, SI_KERNEL);
	CHECK_OK(unlink("d/b"));
	no_signal(SIGIO);
	/* Closing any fd of the file through which it was asked ends the request. */
	int again = (int)CHECK_OK(dup(dir));
	CHECK_OK(fcntl(dir, F_NOTIFY, DN_CREATE | DN_MULTISHOT));
	CHECK_OK(close(again));
	CHECK_OK(close(create_file("d/c", "", 0, 0644)));
	no_signal(SIGIO);
	CHECK_OK(close(dir));
}

TEST(dnotify_rename)
{
	int dir, other;

	block_signal(NOTE_SIG);
	CHECK_OK(mkdir("d", 0755));
	CHECK_OK(mkdir("e", 0755));
	CHECK_OK(close(create_file("d/f", "", 0, 0644)));
	dir = (int)CHECK_OK(open("d", O_RDONLY | O_DIRECTORY));
	other = (int)CHECK_OK(open("e", O_RDONLY | O_DIRECTORY));
	CHECK_OK(fcntl(dir, F_SETSIG, NOTE_SIG));
	CHECK_OK(fcntl(other, F_SETSIG, NOTE_SIG));
	CHECK_OK(fcntl(dir, F_NOTIFY, DN_RENAME | DN_MULTISHOT));
	CHECK_OK(fcntl(other, F_NOTIFY, DN_CREATE | DN_MULTISHOT));
	CHECK_OK(rename("d/f", "d/g")); /* inside d: DN_RENAME */
	expect_note(POLL_MSG, POLLIN | POLLRDNORM | POLLMSG, dir);
	no_signal(NOTE_SIG);
	CHECK_OK(rename("d/g", "e/g")); /* out of d: no DN_RENAME, a DN_CREATE in e */
	expect_note(POLL_MSG, POLLIN | POLLRDNORM | POLLMSG, other);
	no_signal(NOTE_SIG);
	CHECK_OK(close(dir));
	CHECK_OK(close(other));
}

/* A change of a subdirectory's attributes reaches both its own request and its parent's. */
TEST(dnotify_attrib_parent_and_child)
{
	siginfo_t si;

	block_signal(NOTE_SIG);
	CHECK_OK(mkdir("d", 0755));
	int parent = (int)CHECK_OK(open(".", O_RDONLY | O_DIRECTORY));
	int child = (int)CHECK_OK(open("d", O_RDONLY | O_DIRECTORY));
	for (int i = 0; i < 2; i++) {
		int fd = i ? child : parent;
		CHECK_OK(fcntl(fd, F_SETSIG, NOTE_SIG));
		CHECK_OK(fcntl(fd, F_NOTIFY, DN_ATTRIB | DN_MULTISHOT));
	}
	CHECK_OK(chmod("d", 0700));
	int heard = 0;
	for (int i = 0; i < 2; i++) {
		CHECK_EQ(take_signal(NOTE_SIG, &si), NOTE_SIG);
		heard |= si.si_fd == parent ? 1 : si.si_fd == child ? 2 : 4;
	}
	CHECK_EQ(heard, 3);
	no_signal(NOTE_SIG);
	CHECK_OK(close(parent));
	CHECK_OK(close(child));
}

TEST(dnotify_errors)
{
	int p[2];

	CHECK_OK(close(create_file("f", "", 0, 0644)));
	int f = (int)CHECK_OK(open("f", O_RDONLY));
	CHECK_ERR(ENOTDIR, fcntl(f, F_NOTIFY, DN_CREATE));
	CHECK_OK(fcntl(f, F_NOTIFY, 0)); /* nothing to end: fine */
	CHECK_OK(pipe(p));
	CHECK_ERR(ENOTDIR, fcntl(p[0], F_NOTIFY, DN_ACCESS));
	CHECK_ERR(EBADF, fcntl(-1, F_NOTIFY, DN_CREATE));
	int path = (int)CHECK_OK(open(".", O_PATH));
	CHECK_ERR(EBADF, fcntl(path, F_NOTIFY, DN_CREATE));
	CHECK_OK(close(f));
}
