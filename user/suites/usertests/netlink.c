/*
 * netlink.c - usertests: AF_NETLINK sockets (fs/netlink*.c): socket's
 * types and protocols, port ids from bind and autobind, NETLINK_ROUTE's
 * link and address dumps of the loopback, acknowledgements and the
 * NLMSG_ERROR an unserved request gets, MSG_PEEK and MSG_TRUNC, poll.
 * They pass on the host's Linux too (whose lo looks the same).
 */
#define _GNU_SOURCE
#include "usertests.h"

#include "uapi/netlink.h"

#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

/* sockaddr_nl, which musl does not declare */
struct sockaddr_nl {
	sa_family_t nl_family;
	unsigned short nl_pad;
	unsigned nl_pid;
	unsigned nl_groups;
};

static int
route_socket(void)
{
	return CHECK_OK(socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE));
}

static unsigned
port_of(int s)
{
	struct sockaddr_nl a;
	socklen_t len = sizeof(a);

	CHECK_OK(getsockname(s, (struct sockaddr *)&a, &len));
	CHECK_EQ(len, sizeof(a));
	CHECK_EQ(a.nl_family, AF_NETLINK);
	return a.nl_pid;
}

/* Sends a request of type with flags and a one-byte family (rtgenmsg), sequence seq. */
static void
send_request(int s, int type, int flags, unsigned char family, unsigned seq)
{
	struct {
		struct nlmsghdr h;
		struct ifinfomsg ifi;
	} req = { { sizeof(req), type, flags, seq, 0 }, { .ifi_family = family } };
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };

	CHECK_EQ(sendto(s, &req, sizeof(req), 0, (struct sockaddr *)&kernel, sizeof(kernel)),
		 (long)sizeof(req));
}

TEST(netlink_socket_types_and_names)
{
	CHECK_ERR(ESOCKTNOSUPPORT, socket(AF_NETLINK, SOCK_STREAM, NETLINK_ROUTE));
	CHECK_ERR(EPROTONOSUPPORT, socket(AF_NETLINK, SOCK_RAW, 32));
	CHECK_ERR(EPROTONOSUPPORT, socket(AF_NETLINK, SOCK_RAW, -1));
	int sv[2];
	CHECK_ERR(EOPNOTSUPP, socketpair(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE, sv));

	int a = route_socket(), b = CHECK_OK(socket(AF_NETLINK, SOCK_DGRAM, NETLINK_ROUTE));
	int proto = -1;
	socklen_t len = sizeof(proto);
	CHECK_OK(getsockopt(a, SOL_SOCKET, SO_PROTOCOL, &proto, &len));
	CHECK_EQ(proto, NETLINK_ROUTE);
	CHECK_EQ(port_of(a), 0); /* unbound */
	struct sockaddr_nl any = { .nl_family = AF_NETLINK };
	CHECK_OK(bind(a, (struct sockaddr *)&any, sizeof(any)));
	CHECK_EQ(port_of(a), (unsigned)getpid()); /* the first takes the tgid */
	CHECK_OK(bind(b, (struct sockaddr *)&any, sizeof(any)));
	CHECK((int)port_of(b) < 0); /* then negative numbers */
	CHECK(port_of(b) != port_of(a));
	struct sockaddr_nl taken = { .nl_family = AF_NETLINK, .nl_pid = port_of(a) };
	int c = route_socket();
	CHECK_ERR(EADDRINUSE, bind(c, (struct sockaddr *)&taken, sizeof(taken)));
	struct sockaddr_nl mine = { .nl_family = AF_NETLINK, .nl_pid = 0x7ff00001 };
	CHECK_OK(bind(c, (struct sockaddr *)&mine, sizeof(mine)));
	CHECK_EQ(port_of(c), 0x7ff00001u);
	CHECK_ERR(EINVAL, bind(c, (struct sockaddr *)&taken, sizeof(taken))); /* bound already */
	CHECK_ERR(EINVAL, bind(c, (struct sockaddr *)&mine, sizeof(mine) - 1));
	struct sockaddr_nl peer;
	len = sizeof(peer);
	CHECK_OK(getpeername(c, (struct sockaddr *)&peer, &len)); /* the kernel, port 0 */
	CHECK_EQ(peer.nl_pid, 0);
	CHECK_ERR(EOPNOTSUPP, listen(c, 1));
	int one = 1;
	CHECK_ERR(ENOPROTOOPT, setsockopt(c, SOL_NETLINK, 0x7f, &one, sizeof(one)));
	CHECK_ERR(ENOPROTOOPT, setsockopt(c, SOL_IP, 1, &one, sizeof(one)));
	close(a);
	close(b);
	close(c);
	int d = route_socket(); /* the tgid is free again */
	CHECK_OK(bind(d, (struct sockaddr *)&any, sizeof(any)));
	CHECK_EQ(port_of(d), (unsigned)getpid());
	close(d);
}

/* Walks the messages of one datagram: counts links named lo and addresses, true at NLMSG_DONE. */
static bool
walk(char *buf, long n, unsigned seq, int *links, int *v4, int *v6)
{
	for (struct nlmsghdr *h = (struct nlmsghdr *)buf; NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
		CHECK_EQ(h->nlmsg_seq, seq);
		if (h->nlmsg_type == NLMSG_DONE)
			return true;
		CHECK(h->nlmsg_flags & NLM_F_MULTI);
		if (h->nlmsg_type == RTM_NEWLINK) {
			struct ifinfomsg *ifi = NLMSG_DATA(h);
			if (ifi->ifi_index == 1) {
				CHECK(ifi->ifi_flags & IFF_LOOPBACK);
				CHECK(ifi->ifi_flags & IFF_UP);
				(*links)++;
			}
		} else if (h->nlmsg_type == RTM_NEWADDR) {
			struct ifaddrmsg *ifa = NLMSG_DATA(h);
			if (ifa->ifa_index == 1 && ifa->ifa_family == AF_INET)
				(*v4)++;
			if (ifa->ifa_index == 1 && ifa->ifa_family == AF_INET6)
				(*v6)++;
		} else {
			fail("message type %d in a dump", h->nlmsg_type);
		}
	}
	return false;
}

/* Dumps of lo's link and addresses, as `ip link` and `ip addr` ask for them. */
TEST(netlink_route_dumps)
{
	int s = route_socket(), links = 0, v4 = 0, v6 = 0;
	static char buf[32768];
	struct sockaddr_nl from;
	socklen_t len = sizeof(from);

	send_request(s, RTM_GETLINK, NLM_F_REQUEST | NLM_F_DUMP, AF_UNSPEC, 7);
	for (bool done = false; !done;) {
		long n = CHECK_OK(recvfrom(s, buf, sizeof(buf), 0, (struct sockaddr *)&from, &len));
		CHECK_EQ(from.nl_pid, 0); /* from the kernel */
		done = walk(buf, n, 7, &links, &v4, &v6);
	}
	CHECK_EQ(links, 1);
	send_request(s, RTM_GETADDR, NLM_F_REQUEST | NLM_F_DUMP | NLM_F_ACK, AF_INET, 8);
	for (bool done = false; !done;)
		done = walk(buf, CHECK_OK(recv(s, buf, sizeof(buf), 0)), 8, &links, &v4, &v6);
	CHECK_EQ(v4, 1);
	CHECK_EQ(v6, 0);
	/* a dump is not acknowledged, NLM_F_ACK or not */
	CHECK_ERR(EAGAIN, recv(s, buf, sizeof(buf), MSG_DONTWAIT));
	close(s);
}

/* An acknowledgement, and the error an unserved request gets, with the request. */
TEST(netlink_route_errors_and_acks)
{
	int s = route_socket();
	char buf[4096];
	struct nlmsghdr *h = (struct nlmsghdr *)buf;
	struct nlmsgerr *e = NLMSG_DATA(h);

	send_request(s, RTM_GETLINK, NLM_F_REQUEST | NLM_F_ACK, AF_UNSPEC,
		     1); /* index 0, no name */
	long n = CHECK_OK(recv(s, buf, sizeof(buf), 0));
	CHECK(NLMSG_OK(h, n) && h->nlmsg_type == NLMSG_ERROR);
	CHECK_EQ(e->error, -EINVAL);
	CHECK_EQ(e->msg.nlmsg_seq, 1);

	send_request(s, 0x3ff, NLM_F_REQUEST | NLM_F_ACK, AF_UNSPEC, 2); /* no such type */
	n = CHECK_OK(recv(s, buf, sizeof(buf), 0));
	CHECK(NLMSG_OK(h, n) && h->nlmsg_type == NLMSG_ERROR);
	CHECK_EQ(e->error, -EOPNOTSUPP);
	CHECK_EQ(h->nlmsg_len, NLMSG_LENGTH(sizeof(*e) + sizeof(struct ifinfomsg)));

	send_request(s, NLMSG_NOOP, NLM_F_REQUEST | NLM_F_ACK, AF_UNSPEC, 3); /* control: acked */
	n = CHECK_OK(recv(s, buf, sizeof(buf), 0));
	CHECK(NLMSG_OK(h, n) && h->nlmsg_type == NLMSG_ERROR);
	CHECK_EQ(e->error, 0);
	CHECK_EQ(e->msg.nlmsg_seq, 3);
	CHECK_EQ(h->nlmsg_len, NLMSG_LENGTH(sizeof(*e)));
	CHECK(h->nlmsg_flags & NLM_F_CAPPED);
	CHECK_EQ(h->nlmsg_pid, port_of(s)); /* the send bound it */

	send_request(s, NLMSG_NOOP, NLM_F_REQUEST, AF_UNSPEC, 4); /* no ack asked: silence */
	CHECK_ERR(EAGAIN, recv(s, buf, sizeof(buf), MSG_DONTWAIT));
	close(s);
}

TEST(netlink_peek_trunc_poll)
{
	int s = route_socket();
	char buf[4096], small[8];
	struct pollfd p = { s, POLLIN, 0 };

	CHECK_EQ(poll(&p, 1, 0), 0);
	send_request(s, RTM_GETLINK, NLM_F_REQUEST | NLM_F_DUMP, AF_UNSPEC, 9);
	CHECK_EQ(poll(&p, 1, 1000), 1);
	long whole = CHECK_OK(recv(s, NULL, 0, MSG_PEEK | MSG_TRUNC)); /* the size, as libnl asks */
	CHECK(whole > (long)sizeof(struct nlmsghdr));
	struct iovec iov = { small, sizeof(small) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	CHECK_EQ(recvmsg(s, &mh, MSG_PEEK), (long)sizeof(small));
	CHECK(mh.msg_flags & MSG_TRUNC);
	CHECK_EQ(recv(s, buf, sizeof(buf), 0), whole);
	close(s);
}

static void
network_changes_refused(const char *arg __attribute__((unused)))
{
	int s = route_socket(), peer = route_socket();
	struct sockaddr_nl to = { .nl_family = AF_NETLINK };

	CHECK_OK(bind(peer, (struct sockaddr *)&to, sizeof(to))); /* port 0: one is chosen */
	to.nl_pid = port_of(peer);
	CHECK_ERR(EPERM, sendto(s, "x", 1, 0, (struct sockaddr *)&to, sizeof(to)));
	int udp = CHECK_OK(socket(AF_INET, SOCK_DGRAM, 0));
	/* struct ifreq's name and flags: glibc's <net/if.h> clashes with uapi/netlink.h's IFF_* */
	struct {
		char name[16];
		short flags;
		char pad[22];
	} ifr = { .name = "lo" };
	CHECK_OK(ioctl(udp, SIOCGIFFLAGS, &ifr));
	CHECK_ERR(EPERM, ioctl(udp, SIOCSIFFLAGS, &ifr));
	close(udp);
	close(peer);
	close(s);
}

/*
 * Without CAP_NET_ADMIN: no message to another user socket on NETLINK_ROUTE
 * (Linux's netlink_allowed, EPERM) and no change to a network device.
 */
TEST(netlink_and_device_changes_need_cap_net_admin)
{
	if (geteuid() != 0)
		skip("needs root to become nobody");
	as_nobody(network_changes_refused, NULL);
}
