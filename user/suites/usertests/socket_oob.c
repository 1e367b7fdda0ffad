/*
 * socket_oob.c - usertests: urgent data on AF_UNIX stream sockets
 * (MSG_OOB, Linux 5.15+): the last byte of a send(MSG_OOB) marked, reads
 * stopping at the mark, recv(MSG_OOB), SIOCATMARK, POLLPRI, a byte read
 * past and lost, a newer mark, SO_OOBINLINE, SIGURG to the F_SETOWN
 * owner, and the socket types and sizes that refuse it.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static int
at_mark(int fd)
{
	int v = -1;

	CHECK_OK(ioctl(fd, SIOCATMARK, &v));
	return v;
}

/* recv(MSG_OOB): the urgent byte, with MSG_OOB in msg_flags. */
static char
recv_urgent(int fd)
{
	char c = 0;
	struct iovec iov = { &c, 1 };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };

	CHECK_EQ(recvmsg(fd, &mh, MSG_OOB), 1);
	CHECK(mh.msg_flags & MSG_OOB);
	return c;
}

static void
expect_read(int fd, const char *want)
{
	char buf[16] = { 0 };

	CHECK_EQ(recv(fd, buf, sizeof(buf) - 1, MSG_DONTWAIT), (ssize_t)strlen(want));
	CHECK(strcmp(buf, want) == 0);
}

static void
stream_pair(int s[2])
{
	CHECK_OK(socketpair(AF_UNIX, SOCK_STREAM, 0, s));
}

TEST(oob_mark_and_recv)
{
	int s[2];
	char c;

	stream_pair(s);
	CHECK_EQ(send(s[0], "ab", 2, 0), 2);
	CHECK_EQ(send(s[0], "xyc", 3, MSG_OOB), 3); /* "xy" ordinary, 'c' urgent */
	struct pollfd pfd = { s[1], POLLPRI, 0 };
	CHECK(poll(&pfd, 1, 0) == 1 && (pfd.revents & POLLPRI));
	CHECK_EQ(at_mark(s[1]), 0);
	expect_read(s[1], "abxy"); /* a read stops at the mark */
	CHECK_EQ(at_mark(s[1]), 1);
	CHECK_EQ(recv(s[1], &c, 1, MSG_OOB | MSG_PEEK), 1); /* a peek leaves it */
	CHECK_EQ(recv_urgent(s[1]), 'c');
	/* SIOCATMARK now: 0 on 6.1 and rewind, 1 on later Linux (TCP's rule): not asked */
	CHECK(poll(&pfd, 1, 0) == 0);
	CHECK_ERR(EINVAL, recv(s[1], &c, 1, MSG_OOB)); /* taken already */
	CHECK_ERR(EAGAIN, recv(s[1], &c, 1, MSG_DONTWAIT));
	close(s[0]);
	close(s[1]);
}

TEST(oob_read_past_is_lost)
{
	int s[2];
	char c;

	stream_pair(s);
	CHECK_EQ(send(s[0], "ab", 2, MSG_OOB), 2);
	CHECK_EQ(send(s[0], "cd", 2, 0), 2);
	expect_read(s[1], "a");
	expect_read(s[1], "cd"); /* 'b' not taken with MSG_OOB: dropped */
	CHECK_ERR(EINVAL, recv(s[1], &c, 1, MSG_OOB));
	close(s[0]);
	close(s[1]);
}

TEST(oob_newer_mark_wins)
{
	int s[2];

	stream_pair(s);
	CHECK_EQ(send(s[0], "a", 1, MSG_OOB), 1);
	CHECK_EQ(send(s[0], "b", 1, MSG_OOB), 1);
	expect_read(s[1], "a"); /* the older urgent byte is ordinary data now */
	CHECK_EQ(recv_urgent(s[1]), 'b');
	close(s[0]);
	close(s[1]);
}

TEST(oob_inline)
{
	int s[2], on = 1, v = 0;
	socklen_t len = sizeof(v);
	char c;

	stream_pair(s);
	CHECK_OK(setsockopt(s[1], SOL_SOCKET, SO_OOBINLINE, &on, sizeof(on)));
	CHECK_OK(getsockopt(s[1], SOL_SOCKET, SO_OOBINLINE, &v, &len));
	CHECK_EQ(v, 1);
	CHECK_EQ(send(s[0], "ab", 2, 0), 2);
	CHECK_EQ(send(s[0], "c", 1, MSG_OOB), 1);
	CHECK_EQ(send(s[0], "d", 1, 0), 1);
	expect_read(s[1], "ab"); /* still stops at the mark */
	CHECK_EQ(at_mark(s[1]), 1);
	CHECK_ERR(EINVAL, recv(s[1], &c, 1, MSG_OOB)); /* it is in the stream */
	expect_read(s[1], "cd");
	close(s[0]);
	close(s[1]);
}

TEST(oob_refused)
{
	int s[2], d[2], q[2];
	char c;

	stream_pair(s);
	CHECK_OK(socketpair(AF_UNIX, SOCK_DGRAM, 0, d));
	CHECK_OK(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, q));
	CHECK_ERR(EOPNOTSUPP, send(s[0], "", 0, MSG_OOB)); /* no byte to mark */
	CHECK_ERR(EOPNOTSUPP, send(d[0], "a", 1, MSG_OOB));
	CHECK_ERR(EOPNOTSUPP, send(q[0], "a", 1, MSG_OOB));
	CHECK_EQ(send(d[0], "a", 1, 0), 1);
	CHECK_ERR(EOPNOTSUPP, recv(d[1], &c, 1, MSG_OOB));
	CHECK_ERR(EINVAL, recv(s[1], &c, 1, MSG_OOB)); /* none sent */
	close(s[0]);
	close(s[1]);
	close(d[0]);
	close(d[1]);
	close(q[0]);
	close(q[1]);
}

static volatile sig_atomic_t urgent_signals;

static void
on_sigurg(int sig)
{
	(void)sig;
	urgent_signals++;
}

/* Sends one urgent byte over s and says whether SIGURG came (pending signals arrive on return). */
static bool
urgent_signalled(int s[2])
{
	int before = urgent_signals;

	CHECK_EQ(send(s[0], "u", 1, MSG_OOB), 1);
	return urgent_signals > before;
}

TEST(oob_sigurg_to_owner)
{
	int s[2];

	stream_pair(s);
	CHECK_OK(setpgid(0, 0)); /* a group of its own, for the group owner below */
	signal(SIGURG, on_sigurg);
	CHECK_EQ(fcntl(s[1], F_GETOWN), 0);
	CHECK(!urgent_signalled(s)); /* no owner: nobody hears */
	CHECK_OK(fcntl(s[1], F_SETOWN, getpid()));
	CHECK_EQ(fcntl(s[1], F_GETOWN), getpid());
	CHECK(urgent_signalled(s));
	CHECK_OK(fcntl(s[1], F_SETOWN, -getpgrp())); /* a process group */
	CHECK_EQ(fcntl(s[1], F_GETOWN), -getpgrp());
	CHECK(urgent_signalled(s));
	CHECK_OK(fcntl(s[0], F_SETOWN, getpid())); /* the sender's owner hears nothing */
	CHECK_OK(fcntl(s[1], F_SETOWN, 0));
	CHECK(!urgent_signalled(s));
	close(s[0]);
	close(s[1]);
}

TEST(f_setown_errors)
{
	int p[2];

	CHECK_OK(pipe(p));
	pid_t child = fork();
	if (child == 0)
		_exit(0);
	CHECK_OK(waitpid(child, NULL, 0)); /* its pid names nobody now */
	CHECK_ERR(ESRCH, fcntl(p[0], F_SETOWN, child));
	CHECK_ERR(EINVAL, fcntl(p[0], F_SETOWN, INT_MIN));
	CHECK_ERR(EBADF, fcntl(-1, F_SETOWN, getpid()));
	CHECK_EQ(fcntl(p[0], F_GETOWN), 0);
	close(p[0]);
	close(p[1]);
}

/*
 * F_SETOWN_EX and F_GETOWN_EX: the owner as a (type, pid) pair, F_SETOWN's reading back as a
 * process or a group, a new file's as "thread 0", as Linux's. glibc's F_GETOWN is F_GETOWN_EX.
 */
TEST(f_owner_ex_pairs)
{
	struct f_owner_ex ex;
	pid_t tid = (pid_t)syscall(SYS_gettid);
	int p[2];

	CHECK_OK(pipe(p));
	CHECK_OK(fcntl(p[0], F_GETOWN_EX, &ex));
	CHECK_EQ(ex.type, F_OWNER_TID);
	CHECK_EQ(ex.pid, 0);
	CHECK_OK(fcntl(p[0], F_SETOWN, getpid()));
	CHECK_OK(fcntl(p[0], F_GETOWN_EX, &ex));
	CHECK_EQ(ex.type, F_OWNER_PID);
	CHECK_EQ(ex.pid, getpid());
	pid_t group = fork(); /* a group of its own: rewind-run's program may have pgid 0 */
	if (group == 0) {
		pause();
		_exit(0);
	}
	CHECK_OK(setpgid(group, group));
	CHECK_OK(fcntl(p[0], F_SETOWN, -group));
	CHECK_OK(fcntl(p[0], F_GETOWN_EX, &ex));
	CHECK_EQ(ex.type, F_OWNER_PGRP);
	CHECK_EQ(ex.pid, group);
	CHECK_EQ(fcntl(p[0], F_GETOWN), -group);
	CHECK_OK(kill(group, SIGKILL));
	CHECK_OK(waitpid(group, NULL, 0));
	ex = (struct f_owner_ex){ .type = F_OWNER_TID, .pid = tid };
	CHECK_OK(fcntl(p[0], F_SETOWN_EX, &ex));
	CHECK_EQ(fcntl(p[0], F_GETOWN), tid);
	ex.type = F_OWNER_PGRP + 1;
	CHECK_ERR(EINVAL, fcntl(p[0], F_SETOWN_EX, &ex));
	CHECK_ERR(EFAULT, fcntl(p[0], F_SETOWN_EX, (void *)8));
	CHECK_ERR(EFAULT, fcntl(p[0], F_GETOWN_EX, (void *)8));
	close(p[0]);
	close(p[1]);
}
