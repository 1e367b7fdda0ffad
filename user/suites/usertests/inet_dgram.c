/*
 * inet_dgram.c - usertests: UDP sockets on the loopback: message
 * boundaries, truncation (MSG_TRUNC both ways), the sender's address,
 * connect naming a default peer, 0.0.0.0 and 127.x reaching the loopback,
 * EMSGSIZE past 65507 bytes, the ECONNREFUSED a connected socket hears
 * after sending to a closed port, FIONREAD, and IPv6 with v4-mapped
 * addresses and IPV6_V6ONLY; the socket ioctls a UDP socket lacks
 * (SIOCATMARK: ENOTTY) and the loopback device's (SIOCGIFCONF ...).
 */
#define _GNU_SOURCE
#include "usertests.h"
#include "inet.h"

#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* Waits until fd has something to read (the loopback delivers at once; this is the mechanism). */
static void
wait_readable(int fd)
{
	struct pollfd p = { fd, POLLIN, 0 };

	CHECK_EQ(poll(&p, 1, 10000), 1);
}

TEST(udp_boundaries_and_truncation)
{
	int r = bound_socket(AF_INET, SOCK_DGRAM);
	int s = CHECK_OK(socket(AF_INET, SOCK_DGRAM, 0));
	struct sockaddr_storage a, from;
	socklen_t alen = loopback(AF_INET, port_of(r), &a);
	char buf[16] = { 0 };

	CHECK_EQ(sendto(s, "first", 5, 0, (struct sockaddr *)&a, alen), 5);
	CHECK_EQ(sendto(s, "second!", 7, 0, (struct sockaddr *)&a, alen), 7);
	wait_readable(r);
	int n = -1;
	CHECK_OK(ioctl(r, FIONREAD, &n));
	CHECK_EQ(n, 5); /* the first datagram's size */
	socklen_t flen = sizeof(from);
	CHECK_EQ(recvfrom(r, buf, sizeof(buf), 0, (struct sockaddr *)&from, &flen), 5);
	CHECK_EQ(flen, sizeof(struct sockaddr_in));
	CHECK_EQ(((struct sockaddr_in *)&from)->sin_addr.s_addr, htonl(INADDR_LOOPBACK));
	CHECK_EQ(ntohs(((struct sockaddr_in *)&from)->sin_port), port_of(s)); /* sendto bound it */
	struct iovec iov = { buf, 3 };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	wait_readable(r);
	CHECK_EQ(recvmsg(r, &mh, 0), 3);
	CHECK(mh.msg_flags & MSG_TRUNC);
	CHECK(memcmp(buf, "sec", 3) == 0);
	CHECK_ERR(EAGAIN, recv(r, buf, sizeof(buf), MSG_DONTWAIT)); /* the rest was lost */
	CHECK_EQ(sendto(s, "0123456789", 10, 0, (struct sockaddr *)&a, alen), 10);
	wait_readable(r);
	CHECK_EQ(recv(r, buf, 4, MSG_TRUNC), 10); /* the datagram's real length */
	CHECK_EQ(send(s, "x", 1, 0), -1);
	CHECK_EQ(errno, EDESTADDRREQ);
	close(s);
	close(r);
}

TEST(udp_connect_default_peer)
{
	int r = bound_socket(AF_INET, SOCK_DGRAM);
	int other = bound_socket(AF_INET, SOCK_DGRAM);
	int s = CHECK_OK(socket(AF_INET, SOCK_DGRAM, 0));
	struct sockaddr_storage a, peer;
	socklen_t alen = loopback(AF_INET, port_of(r), &a), plen = sizeof(peer);
	char buf[8];

	CHECK_ERR(ENOTCONN, getpeername(s, (struct sockaddr *)&peer, &plen));
	CHECK_OK(connect(s, (struct sockaddr *)&a, alen));
	CHECK_OK(getpeername(s, (struct sockaddr *)&peer, &plen));
	CHECK(memcmp(&peer, &a, alen) == 0);
	CHECK_EQ(send(s, "hi", 2, 0), 2);
	wait_readable(r);
	CHECK_EQ(recv(r, buf, sizeof(buf), 0), 2);
	/* a connected socket hears its peer alone */
	struct sockaddr_storage sa;
	socklen_t salen = loopback(AF_INET, port_of(s), &sa);
	CHECK_EQ(sendto(other, "no", 2, 0, (struct sockaddr *)&sa, salen), 2);
	CHECK_EQ(sendto(r, "yes", 3, 0, (struct sockaddr *)&sa, salen), 3);
	wait_readable(s);
	CHECK_EQ(recv(s, buf, sizeof(buf), 0), 3);
	CHECK_ERR(EAGAIN, recv(s, buf, sizeof(buf), MSG_DONTWAIT));
	struct sockaddr unspec = { .sa_family = AF_UNSPEC };
	CHECK_OK(connect(s, &unspec, sizeof(unspec))); /* forgets the peer */
	CHECK_ERR(ENOTCONN, getpeername(s, (struct sockaddr *)&peer, &plen));
	close(s);
	close(other);
	close(r);
}

/* 0.0.0.0 and any 127.x address reach a socket bound to 0.0.0.0. */
TEST(udp_any_and_loopback_net)
{
	int r = CHECK_OK(socket(AF_INET, SOCK_DGRAM, 0));
	struct sockaddr_in a = { .sin_family = AF_INET };
	char buf[8];

	CHECK_OK(bind(r, (struct sockaddr *)&a, sizeof(a)));
	int s = CHECK_OK(socket(AF_INET, SOCK_DGRAM, 0));
	a.sin_port = htons((unsigned short)port_of(r));
	CHECK_EQ(sendto(s, "any", 3, 0, (struct sockaddr *)&a, sizeof(a)), 3);
	wait_readable(r);
	CHECK_EQ(recv(r, buf, sizeof(buf), 0), 3);
	a.sin_addr.s_addr = htonl(0x7f000002); /* 127.0.0.2 */
	CHECK_EQ(sendto(s, "two", 3, 0, (struct sockaddr *)&a, sizeof(a)), 3);
	wait_readable(r);
	CHECK_EQ(recv(r, buf, sizeof(buf), 0), 3);
	close(s);
	close(r);
}

TEST(udp_message_size)
{
	int r = bound_socket(AF_INET, SOCK_DGRAM);
	int s = CHECK_OK(socket(AF_INET, SOCK_DGRAM, 0));
	struct sockaddr_storage a;
	socklen_t alen = loopback(AF_INET, port_of(r), &a);
	char *big = calloc(1, 65536);

	CHECK(big);
	CHECK_ERR(EMSGSIZE, sendto(s, big, 65508, 0, (struct sockaddr *)&a, alen));
	CHECK_EQ(sendto(s, big, 65507, 0, (struct sockaddr *)&a, alen), 65507);
	wait_readable(r);
	CHECK_EQ(recv(r, big, 65536, 0), 65507);
	CHECK_EQ(sendto(s, big, 0, 0, (struct sockaddr *)&a, alen), 0); /* an empty datagram */
	wait_readable(r);
	CHECK_EQ(recv(r, big, 65536, 0), 0);
	free(big);
	close(s);
	close(r);
}

/* A port nobody holds: an unconnected sender hears nothing, a connected one ECONNREFUSED. */
TEST(udp_closed_port_refused)
{
	int gone = bound_socket(AF_INET, SOCK_DGRAM);
	int port = port_of(gone);
	struct sockaddr_storage a;
	socklen_t alen = loopback(AF_INET, port, &a);
	char buf[4];

	close(gone);
	int s = CHECK_OK(socket(AF_INET, SOCK_DGRAM, 0));
	CHECK_EQ(sendto(s, "x", 1, 0, (struct sockaddr *)&a, alen), 1);
	CHECK_EQ(sendto(s, "x", 1, 0, (struct sockaddr *)&a, alen), 1);
	CHECK_ERR(EAGAIN, recv(s, buf, sizeof(buf), MSG_DONTWAIT));
	CHECK_OK(connect(s, (struct sockaddr *)&a, alen));
	CHECK_EQ(send(s, "x", 1, 0), 1);
	CHECK_ERR(ECONNREFUSED, recv(s, buf, sizeof(buf), MSG_DONTWAIT));
	CHECK_ERR(EAGAIN, recv(s, buf, sizeof(buf), MSG_DONTWAIT)); /* told once */
	CHECK_EQ(send(s, "x", 1, 0), 1);
	CHECK_ERR(ECONNREFUSED, send(s, "x", 1, 0));
	close(s);
}

/* An AF_INET6 socket bound to :: hears IPv4 as ::ffff:127.0.0.1, unless IPV6_V6ONLY. */
TEST(udp_v6_and_v4_mapped)
{
	struct sockaddr_in6 any6 = { .sin6_family = AF_INET6 }, from;
	int r = CHECK_OK(socket(AF_INET6, SOCK_DGRAM, 0));
	char buf[8];

	CHECK_OK(bind(r, (struct sockaddr *)&any6, sizeof(any6)));
	int port = port_of(r);
	struct sockaddr_storage a4, a6;
	socklen_t a4len = loopback(AF_INET, port, &a4), a6len = loopback(AF_INET6, port, &a6);
	int s4 = CHECK_OK(socket(AF_INET, SOCK_DGRAM, 0));
	int s6 = CHECK_OK(socket(AF_INET6, SOCK_DGRAM, 0));
	CHECK_EQ(sendto(s4, "four", 4, 0, (struct sockaddr *)&a4, a4len), 4);
	wait_readable(r);
	socklen_t flen = sizeof(from);
	CHECK_EQ(recvfrom(r, buf, sizeof(buf), 0, (struct sockaddr *)&from, &flen), 4);
	CHECK_EQ(flen, sizeof(from));
	CHECK(IN6_IS_ADDR_V4MAPPED(&from.sin6_addr));
	CHECK_EQ(from.sin6_addr.s6_addr[12], 127);
	CHECK_EQ(sendto(s6, "six", 3, 0, (struct sockaddr *)&a6, a6len), 3);
	wait_readable(r);
	flen = sizeof(from);
	CHECK_EQ(recvfrom(r, buf, sizeof(buf), 0, (struct sockaddr *)&from, &flen), 3);
	CHECK(IN6_IS_ADDR_LOOPBACK(&from.sin6_addr));
	close(r);

	int only = CHECK_OK(socket(AF_INET6, SOCK_DGRAM, 0));
	int one = 1;
	CHECK_OK(setsockopt(only, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one)));
	CHECK_OK(bind(only, (struct sockaddr *)&any6, sizeof(any6)));
	CHECK_ERR(EINVAL, setsockopt(only, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one)));
	a4len = loopback(AF_INET, port_of(only), &a4);
	CHECK_EQ(sendto(s4, "lost", 4, 0, (struct sockaddr *)&a4, a4len), 4);
	CHECK_ERR(EAGAIN, recv(only, buf, sizeof(buf), MSG_DONTWAIT));
	close(only);
	close(s6);
	close(s4);
}

/* UDP has no urgent data and no SIOCATMARK (Linux's udp_ioctl); a TCP or unix socket answers. */
TEST(udp_siocatmark_enotty)
{
	int s = CHECK_OK(socket(AF_INET, SOCK_DGRAM, 0)), at = -1;
	CHECK_ERR(ENOTTY, ioctl(s, SIOCATMARK, &at));
	int t = CHECK_OK(socket(AF_INET, SOCK_STREAM, 0));
	CHECK_OK(ioctl(t, SIOCATMARK, &at));
	CHECK_EQ(at, 0);
	CHECK_ERR(EFAULT, ioctl(t, SIOCATMARK, NULL));
	close(s);
	close(t);
}

/* The loopback device through any socket's ioctls: listed with 127.0.0.1, up, found by name. */
TEST(netdev_ioctls_loopback)
{
	int s = CHECK_OK(socket(AF_INET, SOCK_DGRAM, 0));
	struct ifreq reqs[8], ifr;
	struct ifconf ifc = { .ifc_len = sizeof(reqs), .ifc_buf = (char *)reqs };
	bool found = false;

	CHECK_OK(ioctl(s, SIOCGIFCONF, &ifc));
	CHECK(ifc.ifc_len > 0 && ifc.ifc_len % (int)sizeof(struct ifreq) == 0);
	for (int i = 0; i < ifc.ifc_len / (int)sizeof(struct ifreq); i++) {
		struct sockaddr_in *sin = (struct sockaddr_in *)&reqs[i].ifr_addr;
		if (strcmp(reqs[i].ifr_name, "lo") == 0) {
			found = true;
			CHECK_EQ(sin->sin_family, AF_INET);
			CHECK_EQ(sin->sin_addr.s_addr, htonl(INADDR_LOOPBACK));
		}
	}
	CHECK(found);
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, "lo");
	CHECK_OK(ioctl(s, SIOCGIFFLAGS, &ifr));
	CHECK((ifr.ifr_flags & (IFF_UP | IFF_LOOPBACK | IFF_RUNNING)) ==
	      (IFF_UP | IFF_LOOPBACK | IFF_RUNNING));
	CHECK_OK(ioctl(s, SIOCGIFINDEX, &ifr));
	CHECK_EQ(ifr.ifr_ifindex, 1);
	CHECK_EQ(if_nametoindex("lo"), 1);
	CHECK_OK(ioctl(s, SIOCGIFMTU, &ifr));
	CHECK_EQ(ifr.ifr_mtu, 65536);
	CHECK_OK(ioctl(s, SIOCGIFTXQLEN, &ifr));
	CHECK_EQ(ifr.ifr_qlen, 1000);
	CHECK_ERR(EFAULT, ioctl(s, SIOCGIFFLAGS, NULL));
	CHECK_ERR(EFAULT, ioctl(s, SIOCSIFFLAGS, NULL));
	strcpy(ifr.ifr_name, "nosuchdev0");
	CHECK_ERR(ENODEV, ioctl(s, SIOCGIFFLAGS, &ifr));
	close(s);
}
