/*
 * inet.h - the internet families as Linux x86-64 user space sees them:
 * sockaddr_in and sockaddr_in6, the protocol numbers, and the IP, IPv6 and
 * TCP options rewind's loopback sockets know (Linux's linux/in.h,
 * linux/in6.h and linux/tcp.h). Ports and IPv4 addresses are in network
 * byte order, as on the wire.
 */
#ifndef REWIND_UAPI_INET_H
#define REWIND_UAPI_INET_H

#define IPPROTO_IP   0
#define IPPROTO_TCP  6
#define IPPROTO_UDP  17
#define IPPROTO_IPV6 41

#define SO_REUSEADDR 2
#define SO_REUSEPORT 15

#define TCP_NODELAY 1
#define TCP_MAXSEG  2
#define TCP_CORK    3

#define IPV6_V6ONLY 26

struct kernel_sockaddr_in {
	unsigned short sin_family;
	unsigned short sin_port;
	unsigned sin_addr;
	unsigned char sin_zero[8];
};

struct kernel_sockaddr_in6 {
	unsigned short sin6_family;
	unsigned short sin6_port;
	unsigned sin6_flowinfo;
	unsigned char sin6_addr[16];
	unsigned sin6_scope_id;
};

#endif
