/*
 * inet_stream.c - usertests: TCP sockets on the loopback as an application
 * sees them (IPv4 and IPv6): connect and accept with their addresses,
 * ECONNREFUSED, a non-blocking connect's EINPROGRESS and SO_ERROR,
 * shutdown and end of file, EPIPE and SIGPIPE after the peer closed, the
 * reset a close with unread data sends (ECONNRESET), MSG_PEEK,
 * MSG_DONTWAIT and MSG_WAITALL, FIONREAD, poll and epoll readiness, and
 * the TCP options programs set.
 */
#define _GNU_SOURCE
#include "usertests.h"
#include "inet.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

static int
sockopt(int fd, int level, int name)
{
	int v = -1;
	socklen_t len = sizeof(v);

	CHECK_OK(getsockopt(fd, level, name, &v, &len));
	CHECK_EQ(len, sizeof(v));
	return v;
}

static void
same_address(const struct sockaddr_storage *a, const struct sockaddr_storage *b, socklen_t len)
{
	CHECK_EQ(a->ss_family, b->ss_family);
	CHECK(memcmp(a, b, len) == 0);
}

static void
connect_accept(int family)
{
	struct sockaddr_storage lname, cname, peer, got;
	socklen_t len = sizeof(lname);
	int l = tcp_listener(family);

	CHECK_OK(getsockname(l, (struct sockaddr *)&lname, &len));
	int c = CHECK_OK(socket(family, SOCK_STREAM, 0));
	CHECK_OK(connect(c, (struct sockaddr *)&lname, len));
	CHECK_ERR(EISCONN, connect(c, (struct sockaddr *)&lname, len));
	socklen_t glen = sizeof(got);
	int s = CHECK_OK(accept4(l, (struct sockaddr *)&got, &glen, SOCK_CLOEXEC));
	CHECK_EQ(glen, len);
	CHECK(fcntl(s, F_GETFD) & FD_CLOEXEC);
	/* the accepted end's peer is the client's name, the client's peer the listener's */
	socklen_t clen = sizeof(cname), plen = sizeof(peer);
	CHECK_OK(getsockname(c, (struct sockaddr *)&cname, &clen));
	same_address(&got, &cname, len);
	CHECK_OK(getpeername(c, (struct sockaddr *)&peer, &plen));
	same_address(&peer, &lname, len);
	plen = sizeof(peer);
	CHECK_OK(getpeername(s, (struct sockaddr *)&peer, &plen));
	same_address(&peer, &cname, len);
	CHECK(port_of(c) != port_of(l));
	CHECK_EQ(port_of(s), port_of(l));
	CHECK_EQ(write(c, "ping", 4), 4);
	char buf[8] = { 0 };
	CHECK_EQ(read(s, buf, sizeof(buf)), 4);
	CHECK(strcmp(buf, "ping") == 0);
	CHECK_EQ(send(s, "pong!", 5, 0), 5);
	CHECK_EQ(recv(c, buf, sizeof(buf), 0), 5);
	CHECK(memcmp(buf, "pong!", 5) == 0);
	close(c);
	CHECK_EQ(read(s, buf, sizeof(buf)), 0); /* the client's FIN */
	close(s);
	close(l);
}

TEST(tcp_connect_accept_v4)
{
	connect_accept(AF_INET);
}

TEST(tcp_connect_accept_v6)
{
	connect_accept(AF_INET6);
}

/* A port a socket holds without listening, and one nobody holds: both refuse. */
TEST(tcp_connect_refused)
{
	struct sockaddr_storage a;
	int held = bound_socket(AF_INET, SOCK_STREAM);
	int c = CHECK_OK(socket(AF_INET, SOCK_STREAM, 0));

	CHECK_ERR(ECONNREFUSED,
		  connect(c, (struct sockaddr *)&a, loopback(AF_INET, port_of(held), &a)));
	int l = tcp_listener(AF_INET);
	int port = port_of(l);
	close(l);
	int c2 = CHECK_OK(socket(AF_INET, SOCK_STREAM, 0));
	CHECK_ERR(ECONNREFUSED, connect(c2, (struct sockaddr *)&a, loopback(AF_INET, port, &a)));
	CHECK_ERR(ENOTCONN, getpeername(c2, (struct sockaddr *)&a, &(socklen_t){ sizeof(a) }));
	close(c2);
	close(c);
	close(held);
}

/* A non-blocking connect: EINPROGRESS, then POLLOUT and SO_ERROR tell how it went. */
TEST(tcp_nonblocking_connect)
{
	struct sockaddr_storage a;
	int l = tcp_listener(AF_INET);
	int c = CHECK_OK(socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0));

	CHECK_ERR(EINPROGRESS,
		  connect(c, (struct sockaddr *)&a, loopback(AF_INET, port_of(l), &a)));
	struct pollfd p = { c, POLLOUT, 0 };
	CHECK_EQ(poll(&p, 1, 10000), 1);
	CHECK(p.revents & POLLOUT);
	CHECK_EQ(sockopt(c, SOL_SOCKET, SO_ERROR), 0);
	/* the next connect reports the outcome (0), and only the one after it EISCONN */
	CHECK_OK(connect(c, (struct sockaddr *)&a, sizeof(struct sockaddr_in)));
	CHECK_ERR(EISCONN, connect(c, (struct sockaddr *)&a, sizeof(struct sockaddr_in)));
	int s = CHECK_OK(accept(l, NULL, NULL));
	close(s);
	close(c);
	int port = port_of(l);
	close(l);
	int r = CHECK_OK(socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0));
	CHECK_ERR(EINPROGRESS, connect(r, (struct sockaddr *)&a, loopback(AF_INET, port, &a)));
	p = (struct pollfd){ r, POLLOUT, 0 };
	CHECK_EQ(poll(&p, 1, 10000), 1);
	CHECK(p.revents & POLLERR);
	CHECK_EQ(sockopt(r, SOL_SOCKET, SO_ERROR), ECONNREFUSED);
	CHECK_EQ(sockopt(r, SOL_SOCKET, SO_ERROR), 0); /* read once */
	close(r);
}

TEST(tcp_shutdown_and_eof)
{
	int l = tcp_listener(AF_INET), c, s;
	char buf[8];

	int lone = CHECK_OK(socket(AF_INET, SOCK_STREAM, 0));
	CHECK_ERR(ENOTCONN, recv(lone, buf, sizeof(buf), 0));
	CHECK_ERR(ENOTCONN, shutdown(lone, SHUT_RD));
	CHECK_EQ(recv(lone, buf, sizeof(buf), 0), 0); /* shut all the same, as Linux */
	close(lone);
	tcp_pair(l, &c, &s);
	CHECK_ERR(EINVAL, shutdown(c, 3));
	CHECK_OK(shutdown(c, SHUT_WR));
	CHECK_EQ(read(s, buf, sizeof(buf)), 0);
	CHECK_EQ(send(c, "x", 1, MSG_NOSIGNAL), -1); /* this side no longer sends */
	CHECK_EQ(errno, EPIPE);
	CHECK_EQ(write(s, "back", 4), 4); /* the other half still carries */
	CHECK_EQ(read(c, buf, sizeof(buf)), 4);
	CHECK_OK(shutdown(s, SHUT_WR));
	CHECK_EQ(read(c, buf, sizeof(buf)), 0);
	close(c);
	close(s);
	close(l);
}

/* After the peer closed, sends fail with EPIPE, and SIGPIPE comes without MSG_NOSIGNAL. */
TEST(tcp_epipe_and_sigpipe)
{
	int l = tcp_listener(AF_INET), c, s;
	sigset_t pipe_set, old;

	tcp_pair(l, &c, &s);
	close(s);
	int tries = 0;
	while (send(c, "x", 1, MSG_NOSIGNAL) == 1 && ++tries < 100)
		; /* the first goes out; the peer's reset answers it */
	CHECK_EQ(errno, EPIPE);
	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	CHECK_OK(sigprocmask(SIG_BLOCK, &pipe_set, &old));
	CHECK_ERR(EPIPE, send(c, "x", 1, 0));
	sigset_t pending;
	CHECK_OK(sigpending(&pending));
	CHECK(sigismember(&pending, SIGPIPE));
	int sig;
	CHECK_OK(sigwait(&pipe_set, &sig));
	CHECK_OK(sigprocmask(SIG_SETMASK, &old, NULL));
	close(c);
	close(l);
}

/* A close with data unread resets the connection: the peer's calls fail with ECONNRESET. */
TEST(tcp_close_unread_resets)
{
	int l = tcp_listener(AF_INET), c, s;
	char buf[8];

	tcp_pair(l, &c, &s);
	CHECK_EQ(send(s, "unread", 6, 0), 6);
	struct pollfd p = { c, POLLIN, 0 };
	CHECK_EQ(poll(&p, 1, 10000), 1);
	close(c);
	CHECK_ERR(ECONNRESET, recv(s, buf, sizeof(buf), 0));
	CHECK_EQ(recv(s, buf, sizeof(buf), 0), 0); /* then the end: the error is told once */
	close(s);
	close(l);
}

TEST(tcp_peek_dontwait_waitall)
{
	int l = tcp_listener(AF_INET), c, s;
	char buf[16] = { 0 };

	tcp_pair(l, &c, &s);
	CHECK_ERR(EAGAIN, recv(s, buf, sizeof(buf), MSG_DONTWAIT));
	CHECK_EQ(send(c, "hello", 5, 0), 5);
	struct pollfd p = { s, POLLIN, 0 };
	CHECK_EQ(poll(&p, 1, 10000), 1);
	int n = -1;
	CHECK_OK(ioctl(s, FIONREAD, &n));
	CHECK_EQ(n, 5);
	CHECK_EQ(recv(s, buf, sizeof(buf), MSG_PEEK), 5);
	CHECK_EQ(recv(s, buf, 2, 0), 2);
	CHECK(memcmp(buf, "he", 2) == 0);
	CHECK_OK(ioctl(s, FIONREAD, &n));
	CHECK_EQ(n, 3);
	pid_t pid = xfork();
	if (pid == 0) {
		usleep(20000);
		_exit(send(c, "world", 5, 0) == 5 ? 0 : 1);
	}
	CHECK_EQ(recv(s, buf, 8, MSG_WAITALL), 8); /* "llo" now, "world" from the child */
	CHECK(memcmp(buf, "lloworld", 8) == 0);
	expect_exit(pid, 0, "sender");
	close(c);
	close(s);
	close(l);
}

TEST(tcp_poll_and_epoll)
{
	int l = tcp_listener(AF_INET6), c, s;
	struct pollfd p = { l, POLLIN, 0 };

	CHECK_EQ(poll(&p, 1, 0), 0);
	struct sockaddr_storage a;
	c = CHECK_OK(socket(AF_INET6, SOCK_STREAM, 0));
	CHECK_OK(connect(c, (struct sockaddr *)&a, loopback(AF_INET6, port_of(l), &a)));
	CHECK_EQ(poll(&p, 1, 10000), 1); /* a connection to accept */
	s = CHECK_OK(accept(l, NULL, NULL));
	int ep = CHECK_OK(epoll_create1(EPOLL_CLOEXEC));
	struct epoll_event ev = { .events = EPOLLIN, .data.fd = s }, got;
	CHECK_OK(epoll_ctl(ep, EPOLL_CTL_ADD, s, &ev));
	CHECK_EQ(epoll_wait(ep, &got, 1, 0), 0);
	CHECK_EQ(write(c, "e", 1), 1);
	CHECK_EQ(epoll_wait(ep, &got, 1, 10000), 1);
	CHECK_EQ(got.data.fd, s);
	p = (struct pollfd){ s, POLLOUT, 0 };
	CHECK_EQ(poll(&p, 1, 0), 1);
	close(c);
	p = (struct pollfd){ s, POLLIN | POLLRDHUP, 0 };
	CHECK_EQ(poll(&p, 1, 10000), 1);
	CHECK(p.revents & POLLRDHUP);
	close(ep);
	close(s);
	close(l);
}

TEST(tcp_options)
{
	int fd = CHECK_OK(socket(AF_INET, SOCK_STREAM, 0));
	int one = 1, mss = 1000, size = 65536;

	CHECK_EQ(sockopt(fd, SOL_SOCKET, SO_TYPE), SOCK_STREAM);
	CHECK_EQ(sockopt(fd, SOL_SOCKET, SO_DOMAIN), AF_INET);
	CHECK_EQ(sockopt(fd, SOL_SOCKET, SO_PROTOCOL), IPPROTO_TCP);
	CHECK_EQ(sockopt(fd, IPPROTO_TCP, TCP_NODELAY), 0);
	CHECK_OK(setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)));
	CHECK_EQ(sockopt(fd, IPPROTO_TCP, TCP_NODELAY), 1);
	CHECK_OK(setsockopt(fd, IPPROTO_TCP, TCP_CORK, &one, sizeof(one)));
	CHECK_EQ(sockopt(fd, IPPROTO_TCP, TCP_CORK), 1);
	CHECK_OK(setsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &mss, sizeof(mss)));
	CHECK_EQ(sockopt(fd, IPPROTO_TCP, TCP_MAXSEG), 1000);
	int tiny = 10;
	CHECK_ERR(EINVAL, setsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &tiny, sizeof(tiny)));
	CHECK_OK(setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size)));
	CHECK_EQ(sockopt(fd, SOL_SOCKET, SO_RCVBUF), 2 * size); /* doubled, as Linux stores it */
	CHECK_OK(setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof(size)));
	CHECK_EQ(sockopt(fd, SOL_SOCKET, SO_SNDBUF), 2 * size);
	CHECK_EQ(sockopt(fd, SOL_SOCKET, SO_ACCEPTCONN), 0);
	CHECK_OK(listen(fd, 1));
	CHECK_EQ(sockopt(fd, SOL_SOCKET, SO_ACCEPTCONN), 1);
	CHECK(port_of(fd) != 0); /* listen bound an ephemeral port */
	close(fd);
	int u = CHECK_OK(socket(AF_INET, SOCK_DGRAM, 0));
	CHECK_EQ(sockopt(u, SOL_SOCKET, SO_PROTOCOL), IPPROTO_UDP);
	CHECK_ERR(ENOPROTOOPT, setsockopt(u, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)));
	close(u);
}
