/*
 * inet.h - AF_INET and AF_INET6 sockets on the loopback, the one interface
 * rewind has (Linux in the same VM has only lo too). They are the local
 * sockets of fs/unix.h with internet names: a TCP socket is a stream
 * socket, a UDP socket a datagram socket, and what differs - addresses
 * and ports, bind's sharing rules, UDP's connect, drops and errors, the
 * IP and TCP options - is in fs/inet_names.c and fs/inet_sock.c.
 */
#ifndef REWIND_INET_H
#define REWIND_INET_H

#include "fs/unix.h"
#include "uapi/netlink.h"

/* Linux's net.ipv4.ip_local_port_range default: where ephemeral ports come from. */
#define INET_PORT_FIRST 32768
#define INET_PORT_LAST	60999
#define INET_PROT_SOCK	1024  /* ports below need root (CAP_NET_BIND_SERVICE) */
#define UDP4_MAX_DATA	65507 /* 65535 less the IPv4 and UDP headers */
#define UDP6_MAX_DATA	65527 /* 65535 less the UDP header (IPv6's is outside the length) */

/* ---- inet_names.c ---- */
/* A sockaddr for u from user memory: 0, -EINVAL (short), -EAFNOSUPPORT (wrong family). */
int inet_address_get(struct unix_sock *u, const void __user *uaddr, int len,
		     struct unix_address *a);
int inet_bind(struct unix_sock *u, const struct unix_address *a);
/* Binds u to an ephemeral port at its family's any address if it has none: unix_lock held. */
int inet_autobind(struct unix_sock *u);
/*
 * Where a connect or send to a goes, into *dest: the any address is the
 * loopback's, -ENETUNREACH for an address that is not local. And u's own
 * address gets a port, and the loopback address if it had any. unix_lock held.
 */
int inet_route(struct unix_sock *u, const struct unix_address *a, struct unix_address *dest);
/* The socket of type bound where dest is and willing to hear from src, or NULL: unix_lock held. */
struct unix_sock *inet_lookup(const struct unix_address *dest, const struct unix_address *src,
			      int type, bool want_listener);
/* Whether u may listen at its port (no other listener shares it without SO_REUSEPORT). */
bool inet_may_listen(struct unix_sock *u);
/* a as seen by a socket of family: IPv4 in IPv6 as ::ffff:a.b.c.d and back. */
void inet_address_as(int family, struct unix_address *a);
bool inet_address_is_any(const struct unix_address *a);
/* u's unnamed address: its family's any address, port 0. */
void inet_address_any(const struct unix_sock *u, struct unix_address *a);

/* ---- inet_sock.c ---- */
/* One open internet socket as /proc/net/{tcp,udp}{,6} show it (fs/proc/net.c). */
struct inet_sock_info {
	struct unix_address local, remote; /* the any address and port 0 for none */
	int state;			   /* Linux's TCP_ESTABLISHED, TCP_LISTEN ... */
	u64 tx_queue, rx_queue;		   /* bytes sent not yet read, bytes to read */
	u32 uid;
	u64 ino;
};
/* u, given a file, is listed in /proc/net until closed: unix_lock held. */
void inet_sock_listed(struct unix_sock *u);
/* Calls show for every open socket of family and type, in order of creation. */
void inet_sockets_each(int family, int type, void (*show)(void *arg, const struct inet_sock_info *),
		       void *arg);
int inet_connect(struct unix_sock *u, const struct unix_address *to, bool nonblock);
int inet_listen(struct unix_sock *u, int backlog);
int inet_shutdown(struct unix_sock *u, int how);
/* A UDP send's receiver, referenced in *to, or NULL when the datagram is lost: 0 or -errno. */
int inet_dgram_target(struct unix_sock *u, struct unix_msg_args *m, struct unix_sock **to);
/* The most a datagram of u carries. */
size_t inet_dgram_max(const struct unix_sock *u);
long inet_getsockopt(struct unix_sock *u, int level, int name, void *val);
long inet_setsockopt(struct unix_sock *u, int level, int name, int val);

/* ---- netdev.c ---- */
/* The loopback device, the only one (its netlink view: fs/netlink_route.c). */
#define LO_INDEX  1
#define LO_FLAGS  (IFF_UP | IFF_LOOPBACK | IFF_RUNNING)
#define LO_MTU	  65536
#define LO_TXQLEN 1000 /* packets its queue would hold: Linux's default */
/* The network-device ioctls (SIOCGIFCONF, SIOCGIFFLAGS ...) of any socket: -ENOTTY for others. */
long netdev_ioctl(unsigned cmd, unsigned long arg);

#endif
