/*
 * socket_queues.c - usertests: what a program can ask of the bytes queued
 * in a pipe or an AF_UNIX socket without reading them - FIONREAD/SIOCINQ
 * (to read), SIOCOUTQ (sent, not yet read) - and SO_PEEK_OFF, where the
 * next MSG_PEEK starts, on streams and datagrams.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <termios.h>
#include <unistd.h>

/* Linux's <linux/sockios.h> names, which musl lacks: the same numbers as these. */
#define SOCK_INQ  FIONREAD
#define SOCK_OUTQ TIOCOUTQ

static int
queued(int fd, unsigned long cmd)
{
	int n = -1;

	CHECK_OK(ioctl(fd, cmd, &n));
	return n;
}

static int
peek_off(int fd)
{
	int v = -2;
	socklen_t len = sizeof(v);

	CHECK_OK(getsockopt(fd, SOL_SOCKET, SO_PEEK_OFF, &v, &len));
	return v;
}

static void
set_peek_off(int fd, int v)
{
	CHECK_OK(setsockopt(fd, SOL_SOCKET, SO_PEEK_OFF, &v, sizeof(v)));
}

/* Receives with flags into buf (NUL-terminated), expecting want. */
static void
expect_recv(int fd, int flags, size_t n, const char *want)
{
	char buf[32] = { 0 };

	CHECK(n < sizeof(buf));
	CHECK_EQ(recv(fd, buf, n, flags), (ssize_t)strlen(want));
	CHECK(strcmp(buf, want) == 0);
}

TEST(fionread_pipe)
{
	char buf[4];
	int p[2];

	CHECK_OK(pipe(p));
	CHECK_EQ(queued(p[0], FIONREAD), 0);
	CHECK_EQ(write(p[1], "hello", 5), 5);
	CHECK_EQ(queued(p[0], FIONREAD), 5);
	CHECK_EQ(read(p[0], buf, 2), 2);
	CHECK_EQ(queued(p[0], FIONREAD), 3);
	CHECK_ERR(EFAULT, ioctl(p[0], FIONREAD, (int *)8));
	close(p[0]);
	close(p[1]);
}

TEST(siocinq_siocoutq_stream)
{
	char buf[16];
	int s[2];

	CHECK_OK(socketpair(AF_UNIX, SOCK_STREAM, 0, s));
	CHECK(queued(s[1], SOCK_INQ) == 0 && queued(s[0], SOCK_OUTQ) == 0);
	CHECK_EQ(send(s[0], "hello", 5, 0), 5);
	CHECK_EQ(send(s[0], "world!", 6, 0), 6);
	CHECK_EQ(queued(s[1], SOCK_INQ), 11); /* every message's bytes */
	CHECK_EQ(queued(s[1], FIONREAD), 11);
	CHECK(queued(s[0], SOCK_OUTQ) >= 11); /* Linux counts each buffer's overhead too */
	CHECK_EQ(read(s[1], buf, 3), 3);
	CHECK_EQ(queued(s[1], SOCK_INQ), 8);
	CHECK_EQ(read(s[1], buf, sizeof(buf)), 8); /* across the messages */
	CHECK(queued(s[1], SOCK_INQ) == 0 && queued(s[0], SOCK_OUTQ) == 0); /* all read */
	CHECK_ERR(EFAULT, ioctl(s[1], SOCK_INQ, (int *)8));
	struct termios t;
	CHECK_ERR(ENOTTY, ioctl(s[0], TCGETS, &t));
	close(s[0]);
	close(s[1]);
}

TEST(siocinq_records_and_listener)
{
	int d[2], q[2];
	int l = (int)CHECK_OK(socket(AF_UNIX, SOCK_STREAM, 0));
	struct sockaddr_un addr = { .sun_family = AF_UNIX };

	CHECK_OK(socketpair(AF_UNIX, SOCK_DGRAM, 0, d));
	CHECK_OK(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, q));
	CHECK_EQ(send(d[0], "abc", 3, 0), 3);
	CHECK_EQ(send(d[0], "defghij", 7, 0), 7);
	CHECK_EQ(queued(d[1], SOCK_INQ), 3); /* a datagram socket: the first datagram */
	CHECK_EQ(send(q[0], "abc", 3, 0), 3);
	CHECK_EQ(send(q[0], "defghij", 7, 0), 7);
	CHECK_EQ(queued(q[1], SOCK_INQ), 10); /* seqpacket: all of them */
	snprintf(addr.sun_path + 1, sizeof(addr.sun_path) - 1, "usertests-inq-%d", getpid());
	CHECK_OK(bind(l, (struct sockaddr *)&addr, sizeof(addr)));
	CHECK_OK(listen(l, 1));
	int n;
	CHECK_ERR(EINVAL, ioctl(l, SOCK_INQ, &n));
	close(l);
	close(d[0]);
	close(d[1]);
	close(q[0]);
	close(q[1]);
}

TEST(so_peek_off_stream)
{
	int s[2];

	CHECK_OK(socketpair(AF_UNIX, SOCK_STREAM, 0, s));
	CHECK_EQ(peek_off(s[1]), -1); /* off: peeks start at the head */
	CHECK_EQ(send(s[0], "abc", 3, 0), 3);
	CHECK_EQ(send(s[0], "def", 3, 0), 3);
	expect_recv(s[1], MSG_PEEK, 2, "ab");
	expect_recv(s[1], MSG_PEEK, 2, "ab");
	set_peek_off(s[1], 0);
	expect_recv(s[1], MSG_PEEK, 2, "ab");
	expect_recv(s[1], MSG_PEEK, 2, "cd"); /* on from where the last peek ended */
	CHECK_EQ(peek_off(s[1]), 4);
	expect_recv(s[1], MSG_PEEK, 8, "ef");
	CHECK_EQ(peek_off(s[1]), 6);
	char c;
	CHECK_ERR(EAGAIN, recv(s[1], &c, 1, MSG_PEEK | MSG_DONTWAIT)); /* nothing past it */
	expect_recv(s[1], 0, 3, "abc"); /* a read moves it back by what it took */
	CHECK_EQ(peek_off(s[1]), 3);
	expect_recv(s[1], 0, 1, "d");
	CHECK_EQ(peek_off(s[1]), 2);
	set_peek_off(s[1], 1);
	expect_recv(s[1], MSG_PEEK, 8, "f");
	set_peek_off(s[1], -1);
	expect_recv(s[1], MSG_PEEK, 8, "ef");
	CHECK_EQ(peek_off(s[1]), -1);
	close(s[0]);
	close(s[1]);
}

TEST(so_peek_off_datagram)
{
	int d[2];

	CHECK_OK(socketpair(AF_UNIX, SOCK_DGRAM, 0, d));
	CHECK_EQ(send(d[0], "one", 3, 0), 3);
	CHECK_EQ(send(d[0], "three", 5, 0), 5);
	set_peek_off(d[1], 0);
	expect_recv(d[1], MSG_PEEK, 16, "one");
	CHECK_EQ(peek_off(d[1]), 3);
	expect_recv(d[1], MSG_PEEK, 16, "three"); /* the offset steps over whole datagrams */
	CHECK_EQ(peek_off(d[1]), 8);
	expect_recv(d[1], 0, 16, "one");
	CHECK_EQ(peek_off(d[1]), 5);
	char c;
	CHECK_ERR(EAGAIN, recv(d[1], &c, 1, MSG_PEEK | MSG_DONTWAIT));
	set_peek_off(d[1], 2);
	expect_recv(d[1], MSG_PEEK, 16, "ree"); /* inside a datagram: from there */
	expect_recv(d[1], 0, 16, "three");
	CHECK_EQ(peek_off(d[1]), 0);
	close(d[0]);
	close(d[1]);
}

/*
 * A stream send of no bytes queues nothing (Linux's unix_stream_sendmsg),
 * so a peek finds nothing to wait past: it once found an empty message,
 * spun with the one AF_UNIX lock held and was deaf to SIGKILL, and every
 * socket call of every process then hung (docs/long-runs.md, issue 24).
 * A peek that blocks on the empty stream still dies of SIGKILL, and the
 * stream works after.
 */
TEST(stream_empty_send_then_peek)
{
	int s[2];
	char c;

	CHECK_OK(socketpair(AF_UNIX, SOCK_STREAM, 0, s));
	CHECK_EQ(send(s[0], "", 0, 0), 0);
	CHECK_EQ(queued(s[1], SOCK_INQ), 0);
	CHECK_ERR(EAGAIN, recv(s[1], &c, 1, MSG_PEEK | MSG_DONTWAIT));
	pid_t reader = xfork();
	if (reader == 0) {
		recv(s[1], &c, 1, MSG_PEEK);
		_exit(1); /* SIGKILL ends the peek first */
	}
	wait_until_asleep(reader);
	CHECK_OK(kill(reader, SIGKILL));
	expect_signaled(wait_status(reader), SIGKILL, "the blocked peek");
	CHECK_EQ(send(s[0], "x", 1, 0), 1);
	expect_recv(s[1], MSG_PEEK, 1, "x");
	expect_recv(s[1], 0, 1, "x");
	CHECK_OK(shutdown(s[1], SHUT_WR));
	CHECK_ERR(EPIPE, send(s[1], "", 0, MSG_NOSIGNAL)); /* shut: EPIPE even for no bytes */
	close(s[0]);
	close(s[1]);
}
