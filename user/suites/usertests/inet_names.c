/*
 * inet_names.c - usertests: the addresses and ports TCP and UDP sockets
 * bind to on the loopback: EADDRINUSE and what SO_REUSEADDR and
 * SO_REUSEPORT let share a port, IPV6_V6ONLY's part in it, ephemeral
 * ports from ip_local_port_range, EACCES below port 1024, EADDRNOTAVAIL
 * for an address that is not local, the sockaddr length and family
 * checks, an unbound socket's name, the socket types the internet
 * families refuse, and "localhost" resolving through /etc/hosts.
 */
#define _GNU_SOURCE
#include "usertests.h"
#include "inet.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int
bind_at(int fd, int family, int port)
{
	struct sockaddr_storage a;

	return bind(fd, (struct sockaddr *)&a, loopback(family, port, &a));
}

static void
set_flag(int fd, int level, int name)
{
	int one = 1;

	CHECK_OK(setsockopt(fd, level, name, &one, sizeof(one)));
}

TEST(inet_bind_in_use)
{
	int a = bound_socket(AF_INET, SOCK_STREAM);
	int port = port_of(a);
	int b = CHECK_OK(socket(AF_INET, SOCK_STREAM, 0));

	CHECK_ERR(EADDRINUSE, bind_at(b, AF_INET, port));
	CHECK_ERR(EINVAL, bind_at(a, AF_INET, 0)); /* bound already */
	int u = CHECK_OK(socket(AF_INET, SOCK_DGRAM, 0));
	CHECK_OK(bind_at(u, AF_INET, port)); /* UDP's ports are not TCP's */
	struct sockaddr_in any = { .sin_family = AF_INET, .sin_port = htons((unsigned short)port) };
	CHECK_ERR(EADDRINUSE, bind(b, (struct sockaddr *)&any, sizeof(any))); /* overlaps */
	close(u);
	close(b);
	close(a);
}

/* SO_REUSEADDR: both set, neither listening, share; a listener keeps its port. */
TEST(inet_reuseaddr)
{
	int a = CHECK_OK(socket(AF_INET, SOCK_STREAM, 0));
	int b = CHECK_OK(socket(AF_INET, SOCK_STREAM, 0));

	set_flag(a, SOL_SOCKET, SO_REUSEADDR);
	set_flag(b, SOL_SOCKET, SO_REUSEADDR);
	CHECK_OK(bind_at(a, AF_INET, 0));
	CHECK_OK(bind_at(b, AF_INET, port_of(a)));
	CHECK_OK(listen(a, 1));
	CHECK_ERR(EADDRINUSE, listen(b, 1));
	int c = CHECK_OK(socket(AF_INET, SOCK_STREAM, 0));
	set_flag(c, SOL_SOCKET, SO_REUSEADDR);
	CHECK_ERR(EADDRINUSE, bind_at(c, AF_INET, port_of(a)));
	int v = 0;
	socklen_t len = sizeof(v);
	CHECK_OK(getsockopt(c, SOL_SOCKET, SO_REUSEADDR, &v, &len));
	CHECK_EQ(v, 1);
	close(c);
	close(b);
	close(a);
}

/* SO_REUSEPORT: two listeners on one port, and connections reach one of them. */
TEST(inet_reuseport)
{
	int a = CHECK_OK(socket(AF_INET, SOCK_STREAM, 0));
	int b = CHECK_OK(socket(AF_INET, SOCK_STREAM, 0));

	set_flag(a, SOL_SOCKET, SO_REUSEPORT);
	set_flag(b, SOL_SOCKET, SO_REUSEPORT);
	CHECK_OK(bind_at(a, AF_INET, 0));
	CHECK_OK(bind_at(b, AF_INET, port_of(a)));
	CHECK_OK(listen(a, 1));
	CHECK_OK(listen(b, 1));
	int c = CHECK_OK(socket(AF_INET, SOCK_STREAM, 0));
	struct sockaddr_storage to;
	CHECK_OK(connect(c, (struct sockaddr *)&to, loopback(AF_INET, port_of(a), &to)));
	close(c);
	close(b);
	close(a);
}

/* IPv6's :: takes IPv4's port too, unless IPV6_V6ONLY. */
TEST(inet_v6only_ports)
{
	struct sockaddr_in6 any6 = { .sin6_family = AF_INET6 };
	int six = CHECK_OK(socket(AF_INET6, SOCK_STREAM, 0));

	CHECK_OK(bind(six, (struct sockaddr *)&any6, sizeof(any6)));
	int four = CHECK_OK(socket(AF_INET, SOCK_STREAM, 0));
	CHECK_ERR(EADDRINUSE, bind_at(four, AF_INET, port_of(six)));
	close(six);
	int only = CHECK_OK(socket(AF_INET6, SOCK_STREAM, 0));
	set_flag(only, IPPROTO_IPV6, IPV6_V6ONLY);
	CHECK_OK(bind(only, (struct sockaddr *)&any6, sizeof(any6)));
	CHECK_OK(bind_at(four, AF_INET, port_of(only)));
	struct sockaddr_in6 mapped = { .sin6_family = AF_INET6 };
	inet_pton(AF_INET6, "::ffff:127.0.0.1", &mapped.sin6_addr);
	int m = CHECK_OK(socket(AF_INET6, SOCK_STREAM, 0));
	set_flag(m, IPPROTO_IPV6, IPV6_V6ONLY);
	CHECK_ERR(EINVAL, bind(m, (struct sockaddr *)&mapped, sizeof(mapped)));
	close(m);
	close(four);
	close(only);
}

/* Port 0 picks one from ip_local_port_range. */
TEST(inet_ephemeral_ports)
{
	int first = 32768, last = 60999; /* Linux's default, which rewind has */
	FILE *f = fopen("/proc/sys/net/ipv4/ip_local_port_range", "r");

	if (f) {
		CHECK_EQ(fscanf(f, "%d %d", &first, &last), 2);
		fclose(f);
	}
	for (int i = 0; i < 4; i++) {
		int fd = bound_socket(i & 1 ? AF_INET6 : AF_INET, i & 2 ? SOCK_DGRAM : SOCK_STREAM);
		int port = port_of(fd);
		CHECK(port >= first && port <= last);
		close(fd);
	}
}

/* Below port 1024 only root binds. */
TEST(inet_privileged_ports)
{
	if (geteuid() != 0)
		skip("needs root to drop to nobody");
	pid_t pid = xfork();
	if (pid == 0) {
		CHECK_OK(setuid(65534));
		int fd = CHECK_OK(socket(AF_INET, SOCK_STREAM, 0));
		CHECK_ERR(EACCES, bind_at(fd, AF_INET, 1023));
		_exit(0);
	}
	expect_exit(pid, 0, "nobody's bind");
}

TEST(inet_address_checks)
{
	int fd = CHECK_OK(socket(AF_INET, SOCK_DGRAM, 0));
	struct sockaddr_in a = { .sin_family = AF_INET };
	struct sockaddr_in6 a6 = { .sin6_family = AF_INET6 };
	socklen_t len = sizeof(a6);

	CHECK_OK(getsockname(fd, (struct sockaddr *)&a6, &len)); /* unbound: 0.0.0.0:0 */
	CHECK_EQ(len, sizeof(a));
	CHECK_EQ(((struct sockaddr_in *)&a6)->sin_family, AF_INET);
	CHECK_EQ(((struct sockaddr_in *)&a6)->sin_port, 0);
	CHECK_ERR(EINVAL, bind(fd, (struct sockaddr *)&a, sizeof(a) - 1));
	a6.sin6_family = AF_INET6;
	CHECK_ERR(EAFNOSUPPORT, bind(fd, (struct sockaddr *)&a6, sizeof(a6)));
	a.sin_family = AF_UNSPEC;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	CHECK_ERR(EAFNOSUPPORT, bind(fd, (struct sockaddr *)&a, sizeof(a)));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(0xc0000201); /* 192.0.2.1, TEST-NET-1: never local */
	CHECK_ERR(EADDRNOTAVAIL, bind(fd, (struct sockaddr *)&a, sizeof(a)));
	CHECK_ERR(EFAULT, bind(fd, (struct sockaddr *)1, sizeof(a)));
	int fd6 = CHECK_OK(socket(AF_INET6, SOCK_STREAM, 0));
	CHECK_ERR(EINVAL, bind(fd6, (struct sockaddr *)&a6, 23));
	CHECK_ERR(EAFNOSUPPORT, bind(fd6, (struct sockaddr *)&a, sizeof(a6)));
	len = sizeof(a6);
	CHECK_OK(getsockname(fd6, (struct sockaddr *)&a6, &len));
	CHECK_EQ(len, sizeof(a6));
	CHECK(IN6_IS_ADDR_UNSPECIFIED(&a6.sin6_addr));
	close(fd6);
	close(fd);
}

TEST(inet_socket_types)
{
	int sv[2];

	CHECK_ERR(EPROTONOSUPPORT, socket(AF_INET, SOCK_STREAM, IPPROTO_UDP));
	CHECK_ERR(EPROTONOSUPPORT, socket(AF_INET6, SOCK_DGRAM, IPPROTO_TCP));
	CHECK_ERR(EOPNOTSUPP, socketpair(AF_INET, SOCK_STREAM, 0, sv));
	int fd =
		CHECK_OK(socket(AF_INET6, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, IPPROTO_TCP));
	CHECK(fcntl(fd, F_GETFL) & O_NONBLOCK);
	close(fd);
	int u = CHECK_OK(socket(AF_INET, SOCK_DGRAM, 0));
	CHECK_ERR(EOPNOTSUPP, listen(u, 1));
	close(u);
}

/* "localhost" resolves through /etc/hosts (rewind's initrd has one) to the loopback. */
TEST(inet_localhost_resolves)
{
	struct addrinfo hints = { .ai_family = AF_INET, .ai_socktype = SOCK_STREAM }, *res;
	int l = tcp_listener(AF_INET);
	char port[16];

	snprintf(port, sizeof(port), "%d", port_of(l));
	CHECK_EQ(getaddrinfo("localhost", port, &hints, &res), 0);
	CHECK_EQ(((struct sockaddr_in *)res->ai_addr)->sin_addr.s_addr, htonl(INADDR_LOOPBACK));
	int c = CHECK_OK(socket(AF_INET, SOCK_STREAM, 0));
	CHECK_OK(connect(c, res->ai_addr, res->ai_addrlen));
	freeaddrinfo(res);
	close(c);
	close(l);
}
