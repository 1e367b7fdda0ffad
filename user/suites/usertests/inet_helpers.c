/*
 * inet_helpers.c - the loopback addresses, ports and connected TCP pairs
 * the internet socket tests share (inet.h).
 */
#include "usertests.h"
#include "inet.h"

#include <arpa/inet.h>
#include <string.h>
#include <unistd.h>

socklen_t
loopback(int family, int port, struct sockaddr_storage *a)
{
	memset(a, 0, sizeof(*a));
	if (family == AF_INET) {
		struct sockaddr_in *in = (struct sockaddr_in *)a;
		in->sin_family = AF_INET;
		in->sin_port = htons((unsigned short)port);
		in->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		return sizeof(*in);
	}
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)a;
	in6->sin6_family = AF_INET6;
	in6->sin6_port = htons((unsigned short)port);
	in6->sin6_addr = in6addr_loopback;
	return sizeof(*in6);
}

int
port_of(int fd)
{
	struct sockaddr_storage a;
	socklen_t len = sizeof(a);

	CHECK_OK(getsockname(fd, (struct sockaddr *)&a, &len));
	return ntohs(((struct sockaddr_in *)&a)->sin_port); /* sin6_port lies at one offset */
}

int
bound_socket(int family, int type)
{
	struct sockaddr_storage a;
	int fd = CHECK_OK(socket(family, type, 0));

	CHECK_OK(bind(fd, (struct sockaddr *)&a, loopback(family, 0, &a)));
	return fd;
}

int
tcp_listener(int family)
{
	int l = bound_socket(family, SOCK_STREAM);

	CHECK_OK(listen(l, 8));
	return l;
}

void
tcp_pair(int l, int *client, int *server)
{
	struct sockaddr_storage a;
	socklen_t len = sizeof(a);

	CHECK_OK(getsockname(l, (struct sockaddr *)&a, &len));
	*client = CHECK_OK(socket(a.ss_family, SOCK_STREAM, 0));
	CHECK_OK(connect(*client, (struct sockaddr *)&a, len));
	*server = CHECK_OK(accept(l, NULL, NULL));
}
