/*
 * sockets.c - usertests: AF_UNIX sockets (stream, datagram, seqpacket),
 * their names, control messages, options, shutdown, readiness and errors,
 * as Linux has them; and ENOTSOCK for socket calls on other files.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <netinet/in.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/param.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

static void
pair(int type, int sv[2])
{
	CHECK_OK(socketpair(AF_UNIX, type, 0, sv));
}

/* A file-system or abstract (leading '@' becomes NUL) address; its length. */
static socklen_t
addr_of(const char *name, struct sockaddr_un *a)
{
	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	size_t n = strlen(name);
	memcpy(a->sun_path, name, n);
	if (name[0] == '@')
		a->sun_path[0] = '\0';
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n + (name[0] != '@'));
}

static int
bound_socket(int type, const char *name)
{
	struct sockaddr_un a;
	socklen_t len = addr_of(name, &a);
	int s = CHECK_OK(socket(AF_UNIX, type, 0));

	CHECK_OK(bind(s, (struct sockaddr *)&a, len));
	return s;
}

static int
connected_socket(int type, const char *name)
{
	struct sockaddr_un a;
	socklen_t len = addr_of(name, &a);
	int s = CHECK_OK(socket(AF_UNIX, type, 0));

	CHECK_OK(connect(s, (struct sockaddr *)&a, len));
	return s;
}

TEST(unix_stream_echo_socketpair)
{
	int sv[2];
	char buf[64];
	struct stat st;

	pair(SOCK_STREAM, sv);
	CHECK_EQ(write(sv[0], "hello", 5), 5);
	CHECK_EQ(send(sv[0], " world", 6, 0), 6);
	CHECK(read(sv[1], buf, sizeof(buf)) == 11 && memcmp(buf, "hello world", 11) == 0);
	CHECK_EQ(write(sv[1], "back", 4), 4);
	CHECK(recv(sv[0], buf, 2, 0) == 2 && memcmp(buf, "ba", 2) == 0);
	CHECK(recv(sv[0], buf, sizeof(buf), 0) == 2 && memcmp(buf, "ck", 2) == 0);
	CHECK_OK(fstat(sv[0], &st));
	CHECK(S_ISSOCK(st.st_mode));
	char link[64], want[64];
	ssize_t n = readlink("/proc/self/fd/3", link, sizeof(link) - 1);
	snprintf(want, sizeof(want), "socket:[%lu]", (unsigned long)st.st_ino);
	CHECK(sv[0] != 3 || (n > 0 && (link[n] = '\0', strcmp(link, want) == 0)));
	/* A megabyte through a child, which echoes it back. */
	pid_t pid = xfork();
	if (pid == 0) {
		char c[4096];
		ssize_t got;
		close(sv[0]);
		while ((got = read(sv[1], c, sizeof(c))) > 0)
			if (write(sv[1], c, (size_t)got) != got)
				_exit(1);
		_exit(got == 0 ? 0 : 2);
	}
	close(sv[1]);
	enum { MEG = 1 << 20 };
	/* Mapped, not static: usertests' data segment stays small for rlimit_data. */
	unsigned char *out = map_anon(MEG, PROT_READ | PROT_WRITE),
		      *in = map_anon(MEG, PROT_READ | PROT_WRITE);
	fill_pattern(out, MEG, 7);
	size_t sent = 0, recvd = 0;
	while (recvd < MEG) {
		if (sent < MEG) {
			ssize_t w = send(sv[0], out + sent, MIN(MEG - sent, 8192), MSG_DONTWAIT);
			if (w > 0)
				sent += (size_t)w;
			else
				CHECK_EQ(errno, EAGAIN);
		}
		ssize_t r = recv(sv[0], in + recvd, MEG - recvd, MSG_DONTWAIT);
		if (r > 0)
			recvd += (size_t)r;
		else
			CHECK(r < 0 && errno == EAGAIN);
	}
	CHECK(has_pattern(in, MEG, 7));
	CHECK_OK(shutdown(sv[0], SHUT_WR));
	expect_exit(pid, 0, "echo child");
	close(sv[0]);
}

TEST(unix_fs_names)
{
	struct sockaddr_un a, got;
	socklen_t len = sizeof(got);
	int l = bound_socket(SOCK_STREAM, "sock");
	struct stat st;

	CHECK_OK(stat("sock", &st));
	CHECK(S_ISSOCK(st.st_mode));
	CHECK_ERR(ENXIO, open("sock", O_RDWR));
	CHECK_OK(getsockname(l, (struct sockaddr *)&got, &len));
	CHECK(len == offsetof(struct sockaddr_un, sun_path) + 5 &&
	      strcmp(got.sun_path, "sock") == 0);
	CHECK_ERR(ECONNREFUSED, connect(CHECK_OK(socket(AF_UNIX, SOCK_STREAM, 0)),
					(struct sockaddr *)&a, addr_of("sock", &a)));
	CHECK_OK(listen(l, 5));
	int val = 0;
	socklen_t vlen = sizeof(val);
	CHECK_OK(getsockopt(l, SOL_SOCKET, SO_ACCEPTCONN, &val, &vlen));
	CHECK_EQ(val, 1);
	int c = connected_socket(SOCK_STREAM, "sock");
	CHECK_EQ(write(c, "ping", 4), 4); /* before the accept: it waits in the new socket */
	len = sizeof(got);
	int s = CHECK_OK(accept(l, (struct sockaddr *)&got, &len));
	CHECK_EQ(len, offsetof(struct sockaddr_un, sun_path)); /* the client has no name */
	char buf[8];
	CHECK(read(s, buf, sizeof(buf)) == 4 && memcmp(buf, "ping", 4) == 0);
	len = sizeof(got);
	CHECK_OK(getpeername(c, (struct sockaddr *)&got, &len));
	CHECK_EQ(strcmp(got.sun_path, "sock"), 0);
	len = sizeof(got);
	CHECK_OK(getsockname(s, (struct sockaddr *)&got, &len));
	CHECK_EQ(strcmp(got.sun_path, "sock"), 0);
	/* The name is taken while the file exists, even after the socket is gone. */
	int other = CHECK_OK(socket(AF_UNIX, SOCK_STREAM, 0));
	CHECK_ERR(EADDRINUSE, bind(other, (struct sockaddr *)&a, addr_of("sock", &a)));
	CHECK_ERR(EINVAL, bind(l, (struct sockaddr *)&a, addr_of("sock2", &a)));
	CHECK_ERR(EISCONN, connect(c, (struct sockaddr *)&a, addr_of("sock", &a)));
	CHECK_ERR(ENOENT, connect(other, (struct sockaddr *)&a, addr_of("missing", &a)));
	make_file("plain", "x", 1);
	CHECK_ERR(ECONNREFUSED, connect(other, (struct sockaddr *)&a, addr_of("plain", &a)));
	int dg = CHECK_OK(socket(AF_UNIX, SOCK_DGRAM, 0));
	CHECK_ERR(EPROTOTYPE, connect(dg, (struct sockaddr *)&a, addr_of("sock", &a)));
	close(l);
	CHECK_ERR(ECONNREFUSED, connect(other, (struct sockaddr *)&a, addr_of("sock", &a)));
	CHECK_OK(unlink("sock"));
	close(c);
	close(s);
	close(other);
	close(dg);
}

static void
connect_as_nobody(const char *path)
{
	struct sockaddr_un a;
	int s = socket(AF_UNIX, SOCK_STREAM, 0);

	if (connect(s, (struct sockaddr *)&a, addr_of(path, &a)) == 0 || errno != EACCES)
		fail("connect to a 0700 socket as nobody: %s, want EACCES", errname(errno));
}

TEST(unix_fs_name_needs_write_permission)
{
	if (geteuid() != 0)
		skip("needs root to become nobody");
	int l = bound_socket(SOCK_STREAM, "/tmp/usertests_private_sock");
	CHECK_OK(listen(l, 1));
	CHECK_OK(chmod("/tmp/usertests_private_sock", 0700));
	as_nobody(connect_as_nobody, "/tmp/usertests_private_sock");
	unlink("/tmp/usertests_private_sock");
	close(l);
}

TEST(unix_abstract_names_and_autobind)
{
	char name[64];
	struct sockaddr_un a, got;
	socklen_t len = sizeof(got);

	snprintf(name, sizeof(name), "@usertests-%d", getpid());
	int l = bound_socket(SOCK_SEQPACKET, name);
	CHECK_OK(listen(l, 1));
	CHECK_OK(getsockname(l, (struct sockaddr *)&got, &len));
	CHECK(len == addr_of(name, &a) && memcmp(&got, &a, len) == 0);
	CHECK_ERR(EADDRINUSE,
		  bind(CHECK_OK(socket(AF_UNIX, SOCK_SEQPACKET, 0)), (struct sockaddr *)&a, len));
	int c = connected_socket(SOCK_SEQPACKET, name);
	int s = CHECK_OK(accept4(l, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK));
	CHECK(fcntl(s, F_GETFD) == FD_CLOEXEC && (fcntl(s, F_GETFL) & O_NONBLOCK));
	CHECK_ERR(EINVAL, syscall(SYS_accept4, l, NULL, NULL, 0x1)); /* libc might retry accept */
	/* Autobind: an empty address gets a name of five hex digits after a NUL. */
	int d = CHECK_OK(socket(AF_UNIX, SOCK_DGRAM, 0));
	CHECK_OK(bind(d, (struct sockaddr *)&a, offsetof(struct sockaddr_un, sun_path)));
	len = sizeof(got);
	CHECK_OK(getsockname(d, (struct sockaddr *)&got, &len));
	CHECK(len == offsetof(struct sockaddr_un, sun_path) + 6 && got.sun_path[0] == '\0');
	/* The name goes with the socket. */
	close(l);
	close(s);
	int again = bound_socket(SOCK_SEQPACKET, name);
	close(again);
	close(c);
	close(d);
}

TEST(unix_dgram_boundaries)
{
	char name[64], buf[64];
	struct sockaddr_un a, from;
	socklen_t flen = sizeof(from);

	snprintf(name, sizeof(name), "@usertests-dgram-%d", getpid());
	int r = bound_socket(SOCK_DGRAM, name);
	int s = bound_socket(SOCK_DGRAM, "sender");
	socklen_t alen = addr_of(name, &a);
	CHECK_EQ(sendto(s, "one", 3, 0, (struct sockaddr *)&a, alen), 3);
	CHECK_EQ(sendto(s, "second", 6, 0, (struct sockaddr *)&a, alen), 6);
	CHECK_EQ(sendto(s, "", 0, 0, (struct sockaddr *)&a, alen), 0);
	CHECK_EQ(recvfrom(r, buf, sizeof(buf), 0, (struct sockaddr *)&from, &flen), 3);
	CHECK(flen == offsetof(struct sockaddr_un, sun_path) + 7 &&
	      strcmp(from.sun_path, "sender") == 0);
	CHECK(recv(r, buf, 2, 0) == 2 && memcmp(buf, "se", 2) == 0); /* the rest is lost */
	CHECK_EQ(recv(r, buf, sizeof(buf), MSG_DONTWAIT), 0);	     /* an empty datagram */
	CHECK_ERR(EAGAIN, recv(r, buf, sizeof(buf), MSG_DONTWAIT));
	CHECK_ERR(ENOTCONN, send(s, "x", 1, 0));
	CHECK_ERR(EOPNOTSUPP, listen(r, 1));
	CHECK_ERR(EOPNOTSUPP, accept(r, NULL, NULL));
	/* connect names the default destination; AF_UNSPEC forgets it. */
	CHECK_OK(connect(s, (struct sockaddr *)&a, alen));
	CHECK_EQ(send(s, "abc", 3, 0), 3);
	CHECK_EQ(recv(r, buf, sizeof(buf), MSG_PEEK), 3);
	CHECK_EQ(recv(r, buf, 1, MSG_TRUNC), 3); /* MSG_TRUNC: the datagram's real length */
	struct sockaddr unspec = { .sa_family = AF_UNSPEC };
	CHECK_OK(connect(s, &unspec, sizeof(unspec)));
	CHECK_ERR(ENOTCONN, send(s, "x", 1, 0));
	/* A datagram longer than the send buffer cannot go. */
	int small = 8192;
	CHECK_OK(setsockopt(s, SOL_SOCKET, SO_SNDBUF, &small, sizeof(small)));
	static char big[65536];
	CHECK_ERR(EMSGSIZE, sendto(s, big, sizeof(big), 0, (struct sockaddr *)&a, alen));
	close(r);
	CHECK_ERR(ECONNREFUSED, sendto(s, "x", 1, 0, (struct sockaddr *)&a, alen));
	close(s);
}

TEST(unix_seqpacket_boundaries_and_trunc)
{
	int sv[2];
	char buf[16];
	struct iovec iov = { buf, 4 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };

	pair(SOCK_SEQPACKET, sv);
	CHECK_EQ(send(sv[0], "abcdefgh", 8, 0), 8);
	CHECK_EQ(send(sv[0], "xy", 2, 0), 2);
	CHECK(recvmsg(sv[1], &m, 0) == 4 && (m.msg_flags & MSG_TRUNC) &&
	      memcmp(buf, "abcd", 4) == 0);
	m.msg_flags = 0;
	CHECK(recvmsg(sv[1], &m, 0) == 2 && !(m.msg_flags & MSG_TRUNC));
	CHECK_EQ(send(sv[0], "0123456789", 10, 0), 10);
	CHECK_EQ(recv(sv[1], buf, 3, MSG_TRUNC), 10);
	close(sv[0]);
	CHECK_EQ(recv(sv[1], buf, sizeof(buf), 0), 0); /* the peer is gone: end of file */
	int s = CHECK_OK(socket(AF_UNIX, SOCK_SEQPACKET, 0));
	CHECK_ERR(ENOTCONN, recv(s, buf, sizeof(buf), MSG_DONTWAIT));
	CHECK_ERR(ENOTCONN, send(s, "x", 1, MSG_NOSIGNAL));
	close(s);
	close(sv[1]);
}

TEST(unix_scm_rights_pipe)
{
	int sv[2], p[2], got;
	char buf[8];

	pair(SOCK_STREAM, sv);
	CHECK_OK(pipe(p));
	CHECK_EQ(send_fd(sv[0], p[1]), 1);
	close(p[1]); /* in flight, the pipe's write end stays alive */
	CHECK_EQ((recv_fd(sv[1], &got, CMSG_SPACE(sizeof(int) * 4), MSG_CMSG_CLOEXEC) & MSG_CTRUNC),
		 0);
	CHECK(got >= 0 && got != p[1] + 100);
	CHECK_EQ(fcntl(got, F_GETFD), FD_CLOEXEC);
	CHECK_EQ(write(got, "via", 3), 3);
	CHECK(read(p[0], buf, sizeof(buf)) == 3 && memcmp(buf, "via", 3) == 0);
	close(got);
	/* No room for the fd: MSG_CTRUNC, and the file is closed (EOF on the pipe). */
	CHECK_OK(pipe(p));
	CHECK_EQ(send_fd(sv[0], p[1]), 1);
	close(p[1]);
	CHECK(recv_fd(sv[1], &got, 0, 0) & MSG_CTRUNC);
	CHECK_EQ(got, -1);
	CHECK_EQ(read(p[0], buf, sizeof(buf)), 0);
	CHECK_ERR(EBADF, send_fd(sv[0], 999)); /* a bad fd cannot be sent */
	close(p[0]);
	close(sv[0]);
	close(sv[1]);
}

TEST(unix_peercred_and_passcred)
{
	int sv[2], on = 1;
	struct ucred cred;
	socklen_t len = sizeof(cred);

	pair(SOCK_STREAM, sv);
	CHECK_OK(getsockopt(sv[0], SOL_SOCKET, SO_PEERCRED, &cred, &len));
	CHECK(len == sizeof(cred) && cred.pid == getpid() && cred.uid == geteuid() &&
	      cred.gid == getegid());
	int lone = CHECK_OK(socket(AF_UNIX, SOCK_STREAM, 0));
	CHECK_OK(getsockopt(lone, SOL_SOCKET, SO_PEERCRED, &cred, &len));
	CHECK_EQ(cred.pid, 0);
	/* SO_PASSCRED: every message brings its sender's credentials. */
	CHECK_OK(setsockopt(sv[1], SOL_SOCKET, SO_PASSCRED, &on, sizeof(on)));
	pid_t pid = xfork();
	if (pid == 0) {
		CHECK_EQ(write(sv[0], "c", 1), 1);
		_exit(0);
	}
	expect_exit(pid, 0, "sender");
	union {
		char buf[CMSG_SPACE(sizeof(struct ucred))];
		struct cmsghdr align;
	} u;
	char c;
	struct iovec iov = { &c, 1 };
	struct msghdr m = { .msg_iov = &iov,
			    .msg_iovlen = 1,
			    .msg_control = u.buf,
			    .msg_controllen = sizeof(u.buf) };
	CHECK_EQ(recvmsg(sv[1], &m, 0), 1);
	struct cmsghdr *h = CMSG_FIRSTHDR(&m);
	CHECK(h && h->cmsg_type == SCM_CREDENTIALS && h->cmsg_len == CMSG_LEN(sizeof(cred)));
	memcpy(&cred, CMSG_DATA(h), sizeof(cred));
	CHECK(cred.pid == pid && cred.uid == getuid());
	int val;
	len = sizeof(val);
	CHECK_OK(getsockopt(sv[1], SOL_SOCKET, SO_PASSCRED, &val, &len));
	CHECK_EQ(val, 1);
	close(lone);
	close(sv[0]);
	close(sv[1]);
}

/* sendmsg on fd with an SCM_CREDENTIALS message claiming c; its result. */
static ssize_t
send_with_credentials(int fd, struct ucred c)
{
	return send_control(fd, SCM_CREDENTIALS, &c, sizeof(c));
}

static void
socket_privileges_refused(const char *arg __attribute__((unused)))
{
	int sv[2], size = 1 << 20;
	struct ucred own = { getpid(), getuid(), getgid() };

	pair(SOCK_DGRAM, sv);
	CHECK_ERR(EPERM, setsockopt(sv[0], SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)));
	CHECK_ERR(EPERM, setsockopt(sv[0], SOL_SOCKET, SO_SNDBUFFORCE, &size, sizeof(size)));
	CHECK_ERR(EPERM, send_with_credentials(sv[0], (struct ucred){ 1, own.uid, own.gid }));
	CHECK_ERR(EPERM, send_with_credentials(sv[0], (struct ucred){ own.pid, 0, own.gid }));
	CHECK_ERR(EPERM, send_with_credentials(sv[0], (struct ucred){ own.pid, own.uid, 0 }));
	CHECK_EQ(send_with_credentials(sv[0], own), 1);
	struct sockaddr_un a;
	socklen_t len = addr_of("/usertests_nobody_sock", &a); /* in root's 0755 / */
	CHECK_ERR(EACCES, bind(sv[0], (struct sockaddr *)&a, len));
	CHECK_ERR(EPERM, socket(AF_INET, SOCK_RAW, IPPROTO_ICMP));
	close(sv[0]);
	close(sv[1]);
}

/*
 * Buffer sizes past the sysctl limits are CAP_NET_ADMIN's; credentials other
 * than one's own need CAP_SYS_ADMIN (pid), CAP_SETUID, CAP_SETGID (Linux's
 * scm_check_creds); a name is made only where one may create a file; raw
 * sockets are CAP_NET_RAW's.
 */
TEST(unix_socket_privileges_as_nobody)
{
	if (geteuid() != 0)
		skip("needs root to become nobody");
	as_nobody(socket_privileges_refused, NULL);
}

TEST(unix_socket_options)
{
	int s = CHECK_OK(socket(AF_UNIX, SOCK_DGRAM, 0)), val;
	socklen_t len = sizeof(val);

	CHECK_OK(getsockopt(s, SOL_SOCKET, SO_TYPE, &val, &len));
	CHECK_EQ(val, SOCK_DGRAM);
	CHECK_OK(getsockopt(s, SOL_SOCKET, SO_DOMAIN, &val, &len));
	CHECK_EQ(val, AF_UNIX);
	CHECK_OK(getsockopt(s, SOL_SOCKET, SO_PROTOCOL, &val, &len));
	CHECK_EQ(val, 0);
	CHECK_OK(getsockopt(s, SOL_SOCKET, SO_ERROR, &val, &len));
	CHECK_EQ(val, 0);
	val = 65536;
	CHECK_OK(setsockopt(s, SOL_SOCKET, SO_SNDBUF, &val, sizeof(val)));
	CHECK_OK(getsockopt(s, SOL_SOCKET, SO_SNDBUF, &val, &len));
	CHECK_EQ(val, 131072); /* Linux doubles what it is given */
	val = 10000;
	CHECK_OK(setsockopt(s, SOL_SOCKET, SO_RCVBUF, &val, sizeof(val)));
	CHECK_OK(getsockopt(s, SOL_SOCKET, SO_RCVBUF, &val, &len));
	CHECK_EQ(val, 20000);
	struct timeval tv = { 0, 50000 };
	CHECK_OK(setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)));
	char name[64];
	snprintf(name, sizeof(name), "@usertests-timeo-%d", getpid());
	struct sockaddr_un a;
	CHECK_OK(bind(s, (struct sockaddr *)&a, addr_of(name, &a)));
	long long t0 = mono_ns();
	char c;
	CHECK_ERR(EAGAIN, recv(s, &c, 1, 0));
	CHECK(mono_ns() - t0 >= 40000000);
	len = sizeof(tv);
	CHECK_OK(getsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, &len));
	CHECK(len == sizeof(tv) && tv.tv_sec == 0 && tv.tv_usec >= 50000 &&
	      tv.tv_usec < 60000); /* Linux keeps jiffies */
	tv.tv_usec = 2000000;
	CHECK_ERR(EDOM, setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)));
	CHECK_ERR(EINVAL, setsockopt(s, SOL_SOCKET, SO_SNDBUF, &val, 2));
	CHECK_ERR(ENOPROTOOPT, getsockopt(s, SOL_SOCKET, 12345, &val, &len));
	len = sizeof(val);
	CHECK_ERR(EOPNOTSUPP, getsockopt(s, 6 /* SOL_TCP */, 1, &val, &len));
	close(s);
}

TEST(unix_shutdown_semantics)
{
	int sv[2];
	char buf[8];

	signal(SIGPIPE, SIG_IGN);
	pair(SOCK_STREAM, sv);
	CHECK_EQ(write(sv[0], "tail", 4), 4);
	CHECK_OK(shutdown(sv[0], SHUT_WR));
	CHECK_ERR(EPIPE, write(sv[0], "x", 1));
	CHECK_EQ(read(sv[1], buf, sizeof(buf)), 4);
	CHECK_EQ(read(sv[1], buf, sizeof(buf)), 0); /* the data, then end of file */
	CHECK_EQ(write(sv[1], "ok", 2), 2);	    /* the other half still works */
	CHECK_EQ(read(sv[0], buf, sizeof(buf)), 2);
	CHECK_OK(shutdown(sv[1], SHUT_RD));
	CHECK_ERR(EPIPE, write(sv[0], "x", 1));
	CHECK_ERR(EINVAL, shutdown(sv[0], 3));
	struct pollfd pfd = { sv[1], POLLIN | POLLRDHUP, 0 };
	CHECK(poll(&pfd, 1, 0) == 1 && (pfd.revents & POLLRDHUP));
	close(sv[0]);
	close(sv[1]);
}

static void
write_to_closed_peer(void)
{
	int sv[2];

	pair(SOCK_STREAM, sv);
	close(sv[1]);
	(void)write(sv[0], "x", 1);
	_exit(0);
}

TEST(unix_epipe_and_sigpipe)
{
	int sv[2];

	expect_killed(write_to_closed_peer, SIGPIPE, "write to a closed peer");
	pair(SOCK_STREAM, sv);
	close(sv[1]);
	CHECK_ERR(EPIPE, send(sv[0], "x", 1, MSG_NOSIGNAL)); /* no signal: the test lives on */
	close(sv[0]);
	int s = CHECK_OK(socket(AF_UNIX, SOCK_STREAM, 0));
	CHECK_ERR(ENOTCONN, send(s, "x", 1, MSG_NOSIGNAL));
	char c;
	CHECK_ERR(EINVAL, recv(s, &c, 1, 0));
	close(s);
}

TEST(unix_nonblocking_eagain)
{
	int sv[2];
	char buf[4096];

	CHECK_OK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sv));
	CHECK_ERR(EAGAIN, read(sv[0], buf, sizeof(buf)));
	memset(buf, 'x', sizeof(buf));
	size_t total = 0;
	ssize_t n;
	while ((n = write(sv[0], buf, sizeof(buf))) > 0)
		total += (size_t)n;
	CHECK(errno == EAGAIN && total > 0 && total < (64u << 20));
	int l = CHECK_OK(socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0));
	char name[64];
	snprintf(name, sizeof(name), "@usertests-nb-%d", getpid());
	struct sockaddr_un a;
	CHECK_OK(bind(l, (struct sockaddr *)&a, addr_of(name, &a)));
	CHECK_OK(listen(l, 0));
	CHECK_ERR(EAGAIN, accept(l, NULL, NULL));
	close(l);
	close(sv[0]);
	close(sv[1]);
}

TEST(unix_poll_and_epoll_readiness)
{
	int sv[2];
	char c;

	pair(SOCK_STREAM, sv);
	struct pollfd pfd = { sv[1], POLLIN | POLLOUT, 0 };
	CHECK(poll(&pfd, 1, 0) == 1 && pfd.revents == POLLOUT);
	int ep = CHECK_OK(epoll_create1(0));
	struct epoll_event ev = { .events = EPOLLIN, .data.fd = sv[1] };
	CHECK_OK(epoll_ctl(ep, EPOLL_CTL_ADD, sv[1], &ev));
	CHECK_EQ(epoll_wait(ep, &ev, 1, 0), 0);
	pid_t pid = write_later(sv[0]); /* wakes both waits below */
	CHECK(epoll_wait(ep, &ev, 1, 5000) == 1 && ev.data.fd == sv[1] && (ev.events & EPOLLIN));
	CHECK(poll(&pfd, 1, 5000) == 1 && (pfd.revents & POLLIN));
	expect_exit(pid, 0, "writer");
	CHECK_EQ(read(sv[1], &c, 1), 1);
	close(sv[0]);
	pfd.events = POLLIN;
	CHECK(poll(&pfd, 1, 0) == 1 && (pfd.revents & POLLHUP) && (pfd.revents & POLLIN));
	/* A listener is readable when a connection waits. */
	char name[64];
	snprintf(name, sizeof(name), "@usertests-poll-%d", getpid());
	int l = bound_socket(SOCK_STREAM, name);
	CHECK_OK(listen(l, 4));
	struct pollfd lp = { l, POLLIN, 0 };
	CHECK_EQ(poll(&lp, 1, 0), 0);
	int cl = connected_socket(SOCK_STREAM, name);
	CHECK(poll(&lp, 1, 0) == 1 && lp.revents == POLLIN);
	close(cl);
	close(l);
	close(ep);
	close(sv[1]);
}

TEST(unix_enotsock_and_argument_errors)
{
	int fd = create_file("f", "x", 1, 0644);
	struct sockaddr_un a;
	socklen_t len = sizeof(a);
	int val;

	CHECK_ERR(ENOTSOCK, getpeername(fd, (struct sockaddr *)&a, &len));
	CHECK_ERR(ENOTSOCK, getsockname(fd, (struct sockaddr *)&a, &len));
	CHECK_ERR(ENOTSOCK, listen(fd, 1));
	CHECK_ERR(ENOTSOCK, accept(fd, NULL, NULL));
	CHECK_ERR(ENOTSOCK, shutdown(fd, SHUT_RD));
	CHECK_ERR(ENOTSOCK, send(fd, "x", 1, 0));
	CHECK_ERR(ENOTSOCK, getsockopt(fd, SOL_SOCKET, SO_TYPE, &val, &len));
	CHECK_ERR(EBADF, getpeername(-1, (struct sockaddr *)&a, &len));
	int s = CHECK_OK(socket(AF_UNIX, SOCK_STREAM, 0));
	CHECK_ERR(EPROTONOSUPPORT, socket(AF_UNIX, SOCK_STREAM, 7));
	CHECK_ERR(ESOCKTNOSUPPORT, socket(AF_UNIX, 4 /* SOCK_RDM */, 0));
	CHECK_ERR(EINVAL, bind(s, (struct sockaddr *)&a, 1));
	a.sun_family = AF_INET;
	CHECK_ERR(EINVAL, bind(s, (struct sockaddr *)&a, sizeof(a)));
	CHECK_ERR(EINVAL, listen(s, 1)); /* not bound */
	CHECK_ERR(ENOTCONN, getpeername(s, (struct sockaddr *)&a, &len));
	CHECK_ERR(EINVAL, accept(s, NULL, NULL));
	char name[64];
	snprintf(name, sizeof(name), "@usertests-refused-%d", getpid());
	CHECK_ERR(ECONNREFUSED, connect(s, (struct sockaddr *)&a, addr_of(name, &a)));
	close(s);
	close(fd);
}
