/*
 * terminal_jobs.c - usertests: the controlling terminal and job control
 * at the terminal. A session leader takes a terminal (TIOCSCTTY) and
 * gives it up (TIOCNOTTY, or by exiting: its foreground group gets
 * SIGHUP); TIOCGPGRP, TIOCSPGRP and TIOCGSID with Linux's errnos; a
 * background group that reads gets SIGTTIN (EIO if it ignores SIGTTIN or
 * is orphaned), one that writes under TOSTOP or changes the settings gets
 * SIGTTOU (unless it blocks or ignores it); ^C, ^\ and ^Z signal the
 * foreground group, by c_cc and only under ISIG, discarding the input;
 * vhangup (root only) takes the terminal from the caller's session.
 *
 * The terminal is a pseudo-terminal on Linux, whose master side types;
 * rewind has no pseudo-terminals, so there the console is the terminal
 * and TIOCSTI types. Each test runs in a new session, so nothing else owns
 * the terminal, and puts the console's settings back.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#define NO_SUCH_PID 999999999

struct terminal {
	int fd;	    /* the terminal */
	int master; /* its pseudo-terminal master, or -1 (the console: TIOCSTI types) */
	struct termios saved;
};

/* A terminal nobody controls, opened without becoming anybody's. */
static void
open_terminal(struct terminal *t)
{
	t->master = posix_openpt(O_RDWR | O_NOCTTY);
	if (t->master < 0) {
		if (!on_rewind())
			skip("no pseudo-terminal: %s", strerror(errno));
		t->fd = CHECK_OK(open("/dev/console", O_RDWR | O_NOCTTY));
	} else {
		CHECK_OK(grantpt(t->master));
		CHECK_OK(unlockpt(t->master));
		t->fd = CHECK_OK(open(ptsname(t->master), O_RDWR | O_NOCTTY));
	}
	CHECK_OK(tcgetattr(t->fd, &t->saved));
	struct termios quiet = t->saved;
	quiet.c_lflag &= ~ECHO; /* what the tests type stays off the console */
	CHECK_OK(tcsetattr(t->fd, TCSANOW, &quiet));
}

/* Puts the settings back (from any group: SIGTTOU blocked) and lets the typed input go. */
static void
restore_terminal(struct terminal *t)
{
	sigset_t ttou, old;

	sigemptyset(&ttou);
	sigaddset(&ttou, SIGTTOU);
	sigprocmask(SIG_BLOCK, &ttou, &old);
	tcsetattr(t->fd, TCSAFLUSH, &t->saved);
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/* Types keys at the terminal, as a person would. */
static void
type_keys(const struct terminal *t, const char *keys)
{
	for (; *keys; keys++) {
		if (t->master >= 0)
			CHECK_OK(write(t->master, keys, 1));
		else
			CHECK_OK(ioctl(t->fd, TIOCSTI, keys));
	}
}

/* The caller becomes a session leader with t as its controlling terminal. */
static void
take_terminal(struct terminal *t)
{
	CHECK_OK(setsid());
	open_terminal(t);
	CHECK_OK(ioctl(t->fd, TIOCSCTTY, 0));
}

static void
set_lflag(const struct terminal *t, tcflag_t bit, bool on)
{
	struct termios tio;

	CHECK_OK(tcgetattr(t->fd, &tio));
	tio.c_lflag = on ? tio.c_lflag | bit : tio.c_lflag & ~bit;
	CHECK_OK(tcsetattr(t->fd, TCSANOW, &tio));
}

/* Runs fn in a child of its own session; fails the test unless it exits with 0. */
static void
in_new_session(void (*fn)(void), const char *what)
{
	pid_t pid = xfork();

	if (pid == 0) {
		fn();
		_exit(0);
	}
	expect_exit(pid, 0, what);
}

static volatile sig_atomic_t hangups;

static void
count_hangup(int sig)
{
	(void)sig;
	hangups++;
}

static void
controlling_terminal(void)
{
	struct terminal t;

	CHECK_OK(setsid());
	open_terminal(&t);
	/* Not ours yet: opening never made it so. */
	CHECK_ERR(ENOTTY, tcgetpgrp(t.fd));
	CHECK_ERR(ENOTTY, tcgetsid(t.fd));
	CHECK_ERR(ENXIO, open("/dev/tty", O_RDWR));
	CHECK_OK(ioctl(t.fd, TIOCSCTTY, 0));
	CHECK_OK(ioctl(t.fd, TIOCSCTTY, 0)); /* already ours: fine */
	CHECK_EQ(tcgetpgrp(t.fd), getpid());
	CHECK_EQ(tcgetsid(t.fd), getpid());
	close(CHECK_OK(open("/dev/tty", O_RDWR)));

	pid_t member = xfork();
	if (member == 0) {
		/* Not a session leader: cannot take it; may give it up for itself alone. */
		CHECK_ERR(EPERM, ioctl(t.fd, TIOCSCTTY, 0));
		CHECK_EQ(tcgetpgrp(t.fd), getppid());
		CHECK_OK(ioctl(t.fd, TIOCNOTTY));
		CHECK_ERR(ENOTTY, tcgetpgrp(t.fd));
		CHECK_ERR(ENXIO, open("/dev/tty", O_RDWR));
		_exit(0);
	}
	expect_exit(member, 0, "session member");
	CHECK_EQ(tcgetpgrp(t.fd), getpid());

	pid_t other = xfork();
	if (other == 0) {
		/* Another session's leader: the terminal is taken. */
		CHECK_OK(setsid());
		CHECK_ERR(EPERM, ioctl(t.fd, TIOCSCTTY, 0));
		CHECK_ERR(ENOTTY, tcgetpgrp(t.fd));
		_exit(0);
	}
	expect_exit(other, 0, "other session");

	/* The leader gives it up: its foreground group (itself) gets SIGHUP. */
	signal(SIGHUP, count_hangup);
	CHECK_OK(ioctl(t.fd, TIOCNOTTY));
	CHECK_EQ(hangups, 1);
	CHECK_ERR(ENOTTY, tcgetpgrp(t.fd));
	restore_terminal(&t);
}

TEST(controlling_terminal)
{
	in_new_session(controlling_terminal, "session leader");
}

/* Foreground changes: only to a group of the session. */
static void
foreground_group(void)
{
	struct terminal t;
	pid_t outside = getpgrp();

	take_terminal(&t);
	CHECK_ERR(ESRCH, tcsetpgrp(t.fd, NO_SUCH_PID));
	CHECK_ERR(EINVAL, tcsetpgrp(t.fd, -1));
	CHECK_ERR(EPERM, tcsetpgrp(t.fd, outside)); /* our parent's group: another session */
	int go[2];
	CHECK_OK(pipe(go));
	pid_t bg = xfork();
	if (bg == 0) {
		char c;
		close(go[1]);
		read(go[0], &c, 1);
		_exit(0);
	}
	CHECK_OK(setpgid(bg, bg));
	CHECK_OK(tcsetpgrp(t.fd, bg));
	CHECK_EQ(tcgetpgrp(t.fd), bg);
	/* Now we are the background: taking it back needs SIGTTOU blocked. */
	sigset_t ttou;
	sigemptyset(&ttou);
	sigaddset(&ttou, SIGTTOU);
	sigprocmask(SIG_BLOCK, &ttou, NULL);
	CHECK_OK(tcsetpgrp(t.fd, getpgrp()));
	CHECK_EQ(tcgetpgrp(t.fd), getpid());
	close(go[1]);
	expect_exit(bg, 0, "group brought to the foreground");
	restore_terminal(&t);
}

TEST(terminal_foreground_group)
{
	in_new_session(foreground_group, "session leader");
}

/* What a background process does to the terminal, and what it exits with. */
enum bg_action { BG_READ, BG_READ_TTIN_IGNORED, BG_WRITE, BG_SETATTR, BG_SETATTR_TTOU_BLOCKED };

static void __attribute__((noreturn)) background_child(const struct terminal *t, enum bg_action a)
{
	char c = 'x';
	struct termios tio;

	tcgetattr(t->fd, &tio);
	switch (a) {
	case BG_READ:
		_exit(read(t->fd, &c, 1) == 1 ? 0 : 10);
	case BG_READ_TTIN_IGNORED:
		signal(SIGTTIN, SIG_IGN);
		_exit(read(t->fd, &c, 1) < 0 && errno == EIO ? 0 : 11);
	case BG_WRITE:
		_exit(write(t->fd, "\n", 1) == 1 ? 0 : 12);
	case BG_SETATTR:
		_exit(tcsetattr(t->fd, TCSANOW, &tio) == 0 ? 0 : 13);
	case BG_SETATTR_TTOU_BLOCKED: {
		sigset_t ttou;
		sigemptyset(&ttou);
		sigaddset(&ttou, SIGTTOU);
		sigprocmask(SIG_BLOCK, &ttou, NULL);
		_exit(tcsetattr(t->fd, TCSANOW, &tio) == 0 ? 0 : 14);
	}
	}
	_exit(99);
}

/* Starts a in a background group; returns its pid. */
static pid_t
start_background(const struct terminal *t, enum bg_action a)
{
	pid_t pid = xfork();

	if (pid == 0) {
		setpgid(0, 0);
		background_child(t, a);
	}
	setpgid(pid, pid);
	return pid;
}

/* Waits until pid stops, checking the signal. */
static void
expect_stopped(pid_t pid, int sig, const char *what)
{
	int status;

	CHECK_EQ(waitpid(pid, &status, WUNTRACED), pid);
	if (!WIFSTOPPED(status) || WSTOPSIG(status) != sig)
		fail("%s: wait status %#x, want stopped by %d", what, status, sig);
}

static void
background_access(void)
{
	struct terminal t;

	take_terminal(&t);
	pid_t pid = start_background(&t, BG_READ);
	expect_stopped(pid, SIGTTIN, "background read");
	kill(pid, SIGKILL);
	wait_status(pid);
	expect_exit(start_background(&t, BG_READ_TTIN_IGNORED), 0,
		    "background read, SIGTTIN ignored");
	expect_exit(start_background(&t, BG_WRITE), 0, "background write without TOSTOP");
	expect_exit(start_background(&t, BG_SETATTR_TTOU_BLOCKED), 0,
		    "background tcsetattr, SIGTTOU blocked");
	pid = start_background(&t, BG_SETATTR);
	expect_stopped(pid, SIGTTOU, "background tcsetattr");
	kill(pid, SIGKILL);
	wait_status(pid);
	/* TOSTOP: a background write stops; continued once TOSTOP is off, the write is made. */
	set_lflag(&t, TOSTOP, true);
	pid = start_background(&t, BG_WRITE);
	expect_stopped(pid, SIGTTOU, "background write with TOSTOP");
	set_lflag(&t, TOSTOP, false);
	kill(pid, SIGCONT);
	expect_exit(pid, 0, "background write, continued");
	restore_terminal(&t);
}

TEST(terminal_background_access)
{
	in_new_session(background_access, "session leader");
}

/* A read from an orphaned background group fails with EIO: nobody could continue it. */
static void
orphaned_read(void)
{
	struct terminal t;
	int p[2], verdict[2];

	take_terminal(&t);
	CHECK_OK(pipe(p));
	CHECK_OK(pipe(verdict));
	pid_t middle = xfork();
	if (middle == 0) {
		pid_t reader = xfork();
		if (reader == 0) {
			char c;
			setpgid(0, 0);
			read(p[0], &c, 1); /* until the middle process has gone */
			ssize_t n = read(t.fd, &c, 1);
			c = n < 0 && errno == EIO ? 'E' : 'x';
			write(verdict[1], &c, 1);
			_exit(0);
		}
		_exit(0);
	}
	expect_exit(middle, 0, "middle process");
	/* The reader's parent is gone (to init, outside the session): its group is orphaned. */
	CHECK_EQ(write(p[1], "g", 1), 1);
	char c = 0;
	close(verdict[1]);
	read(verdict[0], &c, 1);
	CHECK_EQ(c, 'E');
	restore_terminal(&t);
}

TEST(terminal_orphaned_background_read)
{
	in_new_session(orphaned_read, "session leader");
}

/* Waits until the caller's group is in the foreground (its parent puts it there). */
static void
wait_foreground(const struct terminal *t)
{
	while (tcgetpgrp(t->fd) != getpgrp())
		sched_yield();
}

/* Waits for one of the signals in set; its number, with its siginfo code. */
static int
wait_signal(const sigset_t *set, int *code)
{
	siginfo_t info;
	int sig = sigwaitinfo(set, &info);

	if (sig < 0)
		fail("sigwaitinfo: %s", strerror(errno));
	*code = info.si_code;
	return sig;
}

static void
expect_key_signal(const struct terminal *t, const char *key, const sigset_t *set, int want)
{
	int code;

	type_keys(t, key);
	int sig = wait_signal(set, &code);
	if (sig != want || code != SI_KERNEL)
		fail("key %#x: signal %d code %d, want %d from the kernel (%d)", key[0], sig, code,
		     want, SI_KERNEL);
}

/* In the foreground group: the keys signal it; c_cc moves them; ISIG turns them off. */
static void
foreground_keys(const struct terminal *t)
{
	sigset_t set;
	char buf[16];

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGQUIT);
	sigaddset(&set, SIGTSTP);
	sigprocmask(SIG_BLOCK, &set, NULL);
	expect_key_signal(t, "\x03", &set, SIGINT);
	expect_key_signal(t, "\x1c", &set, SIGQUIT);
	expect_key_signal(t, "\x1a", &set, SIGTSTP);
	/* The key discards what was typed before it. */
	type_keys(t, "lost");
	expect_key_signal(t, "\x03", &set, SIGINT);
	type_keys(t, "kept\n");
	CHECK(read(t->fd, buf, sizeof(buf)) == 5 && !memcmp(buf, "kept\n", 5));
	/* Another interrupt character; ^C is then typed text. */
	struct termios tio;
	CHECK_OK(tcgetattr(t->fd, &tio));
	tio.c_cc[VINTR] = 'X' & 0x1f;
	CHECK_OK(tcsetattr(t->fd, TCSANOW, &tio));
	expect_key_signal(t, "\x18", &set, SIGINT);
	type_keys(t, "\x03\n");
	CHECK(read(t->fd, buf, sizeof(buf)) == 2 && buf[0] == 3);
	/* Without ISIG no key signals: the line arrives and nothing is pending. */
	set_lflag(t, ISIG, false);
	type_keys(t, "\x18\x1c\x1a\n");
	CHECK(read(t->fd, buf, sizeof(buf)) == 4 && buf[0] == 0x18);
	sigset_t pending;
	sigpending(&pending);
	CHECK(!sigismember(&pending, SIGINT) && !sigismember(&pending, SIGQUIT) &&
	      !sigismember(&pending, SIGTSTP));
	set_lflag(t, ISIG, true);
}

static void
terminal_keys(void)
{
	struct terminal t;

	take_terminal(&t);
	pid_t fg = xfork();
	if (fg == 0) {
		setpgid(0, 0);
		wait_foreground(&t);
		foreground_keys(&t);
		_exit(0);
	}
	CHECK_OK(setpgid(fg, fg));
	CHECK_OK(tcsetpgrp(t.fd, fg));
	/* The leader is in the background: the keys must not reach it (it would die of SIGINT). */
	expect_exit(fg, 0, "foreground group");

	/* ^Z with the default action stops the foreground job. */
	sigset_t ttou;
	sigemptyset(&ttou);
	sigaddset(&ttou, SIGTTOU);
	sigprocmask(SIG_BLOCK, &ttou, NULL);
	fg = xfork();
	if (fg == 0) {
		setpgid(0, 0);
		wait_foreground(&t);
		type_keys(&t, "\x1a");
		for (;;)
			pause();
	}
	setpgid(fg, fg);
	CHECK_OK(tcsetpgrp(t.fd, fg));
	expect_stopped(fg, SIGTSTP, "foreground job after ^Z");
	CHECK_OK(tcsetpgrp(t.fd, getpgrp()));
	kill(fg, SIGKILL);
	wait_status(fg);
	restore_terminal(&t);
}

TEST(terminal_keys_signal_the_foreground)
{
	in_new_session(terminal_keys, "session leader");
}

/* When the session leader exits, its terminal's foreground group gets SIGHUP. */
static void
leader_exit(void)
{
	struct terminal t;
	int p[2];

	CHECK_OK(pipe(p));
	pid_t leader = xfork();
	if (leader == 0) {
		take_terminal(&t);
		pid_t fg = xfork();
		if (fg == 0) {
			signal(SIGHUP, count_hangup);
			setpgid(0, 0);
			write(p[1], "r", 1);
			while (!hangups)
				pause();
			char verdict = tcgetpgrp(t.fd) < 0 && errno == ENOTTY ? 'H' : 'T';
			write(p[1], &verdict, 1);
			_exit(0);
		}
		setpgid(fg, fg);
		CHECK_OK(tcsetpgrp(t.fd, fg));
		char c;
		read(p[0], &c, 1);
		restore_terminal(&t);
		_exit(0);
	}
	close(p[1]);
	expect_exit(leader, 0, "session leader");
	char c = 0;
	read(p[0], &c, 1);
	CHECK_EQ(c, 'H');
}

TEST(session_leader_exit_hangs_up)
{
	in_new_session(leader_exit, "outer session");
}

/*
 * O_ASYNC on a terminal: its owner gets SIGIO (here F_SETSIG's signal,
 * with POLL_IN and the fd) when a line of input is there to read. On
 * Linux the pseudo-terminal's input reaches the line discipline later,
 * from a work queue: the test waits for the signal, for no set time.
 */
static void
terminal_input_signals(void)
{
	struct terminal t;
	int sig = SIGRTMIN + 2;
	sigset_t set;
	siginfo_t si;
	char line[8];

	sigemptyset(&set);
	sigaddset(&set, sig);
	CHECK_OK(sigprocmask(SIG_BLOCK, &set, NULL));
	take_terminal(&t);
	CHECK_OK(fcntl(t.fd, F_SETOWN, getpid()));
	CHECK_OK(fcntl(t.fd, F_SETSIG, sig));
	CHECK_OK(fcntl(t.fd, F_SETFL, fcntl(t.fd, F_GETFL) | O_ASYNC));
	type_keys(&t, "in\n");
	CHECK_EQ(sigwaitinfo(&set, &si), sig);
	CHECK_EQ(si.si_code, POLL_IN);
	CHECK_EQ(si.si_fd, t.fd);
	CHECK_EQ(read(t.fd, line, sizeof(line)), 3);
	restore_terminal(&t);
}

TEST(terminal_o_async)
{
	in_new_session(terminal_input_signals, "session leader");
}

/* vhangup: the session loses its terminal, and its leader gets SIGHUP. */
static void
hangup_own_terminal(void)
{
	struct terminal t;
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGHUP);
	CHECK_OK(sigprocmask(SIG_BLOCK, &set, NULL));
	take_terminal(&t);
	close(CHECK_OK(open("/dev/tty", O_RDWR)));
	CHECK_OK(syscall(SYS_vhangup));
	CHECK_EQ(sigwaitinfo(&set, NULL), SIGHUP);
	CHECK_ERR(ENXIO, open("/dev/tty", O_RDWR));
	restore_terminal(&t);
}

/* Without a controlling terminal there is nothing to hang up: 0. */
static void
hangup_without_terminal(void)
{
	CHECK_OK(setsid());
	CHECK_OK(syscall(SYS_vhangup));
}

static void
vhangup_refused(const char *unused)
{
	(void)unused;
	CHECK_ERR(EPERM, syscall(SYS_vhangup)); /* CAP_SYS_TTY_CONFIG */
}

TEST(vhangup)
{
	in_new_session(hangup_without_terminal, "no terminal");
	in_new_session(hangup_own_terminal, "session leader");
	as_nobody(vhangup_refused, NULL);
}
