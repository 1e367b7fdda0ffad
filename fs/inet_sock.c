/*
 * inet_sock.c - what TCP and UDP sockets on the loopback do differently
 * from the local sockets they are built on (fs/unix_sock.c, unix_io.c),
 * as an application sees Linux do it on lo:
 *
 * TCP: connect finds a listener at the address and port or fails with
 * ECONNREFUSED; a non-blocking connect says EINPROGRESS and leaves its
 * outcome in SO_ERROR (the handshake's answer comes after the call
 * returns on Linux too). listen binds an ephemeral port if there is none.
 *
 * UDP: connect only names the default peer (nothing need listen there);
 * a datagram to a port nobody holds is lost, and a connected socket
 * hears of it as Linux's ICMP port-unreachable tells it on lo: its next
 * send or receive fails with ECONNREFUSED. A datagram that finds its
 * receiver's SO_RCVBUF full is dropped, the sender never waits for a
 * receiver; one carries at most 65507 bytes (IPv6: 65527).
 */
#include "fs/inet.h"
#include "kernel/lib/string.h"
#include "mm/kmalloc.h"

/*
 * A connect gives u a port, and if it was bound to the any address the
 * loopback's that reaches dest (dest is in u's family's form): 127.0.0.1,
 * ::ffff:127.0.0.1 or ::1, as Linux's route on lo picks. unix_lock held.
 */
static int
bind_source(struct unix_sock *u, const struct unix_address *dest)
{
	static const u8 v4_loopback[4] = { 127, 0, 0, 1 };
	int err = inet_autobind(u);

	if (err || !inet_address_is_any(u->addr))
		return err;
	u16 port = u->addr->sin.sin_port;
	*u->addr = *dest;
	u->addr->sin.sin_port = port;
	if (u->family == AF_INET)
		memcpy(&u->addr->sin.sin_addr, v4_loopback, 4);
	else if (u->addr->sin6.sin6_addr[10] == 0xff) /* v4-mapped */
		memcpy(u->addr->sin6.sin6_addr + 12, v4_loopback, 4);
	return 0;
}

/* A UDP socket's default peer becomes dest (NULL: none). unix_lock held. */
static int
set_udp_peer(struct unix_sock *u, const struct unix_address *dest)
{
	struct unix_address *copy = NULL;

	if (dest) {
		copy = kmalloc(sizeof(*copy));
		if (!copy)
			return -ENOMEM;
		*copy = *dest;
	}
	kfree(u->inet.dest);
	u->inet.dest = copy;
	u->state = dest ? UNIX_CONNECTED : UNIX_UNCONNECTED;
	u->error = 0;
	return 0;
}

/* A TCP connect to dest: unix_lock held. */
static int
tcp_connect(struct unix_sock *u, const struct unix_address *dest, bool nonblock)
{
	if (u->inet.connecting) { /* the call after EINPROGRESS hears how it went, once */
		u->inet.connecting = false;
		int err = -u->error;
		u->error = 0;
		return err;
	}
	if (u->state == UNIX_CONNECTED)
		return -EISCONN;
	if (u->state == UNIX_LISTENING)
		return -EINVAL;
	struct unix_sock *l = inet_lookup(dest, NULL, SOCK_STREAM, true);
	int err = l ? 0 : -ECONNREFUSED;
	if (l) {
		unix_sock_get(l);
		err = unix_connect_stream(u, l, nonblock);
		unix_sock_put(l);
	}
	if (!err) {
		*u->peer->addr = *dest; /* the accepted end's name: where the connect went */
		inet_address_as(u->peer->family, u->peer->addr);
	}
	if (!nonblock || (err && err != -ECONNREFUSED))
		return err;
	u->error = -err; /* SO_ERROR tells how it went */
	u->inet.connecting = true;
	return -EINPROGRESS;
}

int
inet_connect(struct unix_sock *u, const struct unix_address *to, bool nonblock)
{
	struct unix_address dest;
	int err = 0;

	if (mutex_lock_killable(&unix_lock))
		return -EINTR;
	if (to->sun.sun_family == AF_UNSPEC && u->type == SOCK_DGRAM)
		err = set_udp_peer(u, NULL);
	else if (to->sun.sun_family == AF_UNSPEC && u->state != UNIX_CONNECTED)
		err = 0; /* TCP's disconnect of a socket not connected */
	else if ((err = inet_route(u, to, &dest)) || (err = bind_source(u, &dest)))
		;
	else if (u->type == SOCK_DGRAM)
		err = set_udp_peer(u, &dest);
	else
		err = tcp_connect(u, &dest, nonblock);
	mutex_unlock(&unix_lock);
	return err;
}

int
inet_listen(struct unix_sock *u, int backlog)
{
	if (u->type == SOCK_DGRAM)
		return -EOPNOTSUPP;
	if (mutex_lock_killable(&unix_lock))
		return -EINTR;
	int err = u->state == UNIX_CONNECTED ? -EINVAL : inet_autobind(u);
	if (!err && u->state != UNIX_LISTENING && !inet_may_listen(u))
		err = -EADDRINUSE;
	mutex_unlock(&unix_lock);
	return err ? err : unix_listen(u, backlog);
}

int
inet_shutdown(struct unix_sock *u, int how)
{
	if (how < SHUT_RD || how > SHUT_RDWR)
		return -EINVAL;
	int err = unix_shutdown(u, how);
	if (!err && how != SHUT_RD) {
		mutex_lock(&unix_lock);
		u->inet.epipe = true; /* no last send goes out to a peer that closed meanwhile */
		mutex_unlock(&unix_lock);
	}
	/* Linux's inet_shutdown: nothing to shut is ENOTCONN, the bits set all the same */
	return !err && READ_ONCE(u->state) == UNIX_UNCONNECTED ? -ENOTCONN : err;
}

size_t
inet_dgram_max(const struct unix_sock *u)
{
	return u->family == AF_INET ? UDP4_MAX_DATA : UDP6_MAX_DATA;
}

/* An error a UDP send or receive reports once: ECONNREFUSED after a datagram was lost. */
static int
take_sock_error(struct unix_sock *u)
{
	int err = u->error;

	u->error = 0;
	return -err;
}

/* Where u's datagram goes, into *dest: 0 or -errno. unix_lock held. */
static int
udp_dest(struct unix_sock *u, struct unix_msg_args *m, struct unix_address *dest)
{
	if (m->has_name)
		return inet_route(u, m->name, dest);
	if (!u->inet.dest)
		return -EDESTADDRREQ;
	*dest = *u->inet.dest;
	return 0;
}

int
inet_dgram_target(struct unix_sock *u, struct unix_msg_args *m, struct unix_sock **to)
{
	struct unix_address dest;

	*to = NULL;
	if (mutex_lock_killable(&unix_lock))
		return -EINTR;
	int err = u->error ? take_sock_error(u) : udp_dest(u, m, &dest);
	if (!err)
		err = inet_autobind(u);
	if (!err)
		*to = inet_lookup(&dest, u->addr, SOCK_DGRAM, false);
	if (*to)
		unix_sock_get(*to);
	else if (!err && u->inet.dest && !m->has_name)
		u->error = ECONNREFUSED; /* the port unreachable, heard by a connected socket */
	mutex_unlock(&unix_lock);
	return err;
}

/* ---- options ----------------------------------------------------------------------- */

/* TCP_MAXSEG as Linux reads it: what was asked, else lo's segment (65483) once connected. */
static int
tcp_maxseg(const struct unix_sock *u)
{
	if (u->inet.maxseg)
		return u->inet.maxseg;
	return u->state == UNIX_CONNECTED ? 65483 : 536;
}

/* Whether level is one u's protocols answer at: IP, TCP or UDP, IPv6 for an AF_INET6 socket. */
static bool
known_level(const struct unix_sock *u, int level)
{
	return level == IPPROTO_IP ||
	       level == (u->type == SOCK_STREAM ? IPPROTO_TCP : IPPROTO_UDP) ||
	       (level == IPPROTO_IPV6 && u->family == AF_INET6);
}

long
inet_getsockopt(struct unix_sock *u, int level, int name, void *val)
{
	int v;

	if (!known_level(u, level))
		return -EOPNOTSUPP; /* Linux's ip_getsockopt for a level it does not know */
	if (level == IPPROTO_TCP && name == TCP_NODELAY)
		v = u->inet.nodelay;
	else if (level == IPPROTO_TCP && name == TCP_MAXSEG)
		v = tcp_maxseg(u);
	else if (level == IPPROTO_TCP && name == TCP_CORK)
		v = u->inet.cork;
	else if (level == IPPROTO_IPV6 && name == IPV6_V6ONLY)
		v = u->inet.v6only;
	else
		return -ENOPROTOOPT;
	memcpy(val, &v, sizeof(v));
	return sizeof(v);
}

/* Setting an option at a level the socket does not know is ENOPROTOOPT (ip_setsockopt). */
long
inet_setsockopt(struct unix_sock *u, int level, int name, int val)
{
	if (!known_level(u, level))
		return -ENOPROTOOPT;
	if (level == IPPROTO_TCP && name == TCP_NODELAY)
		u->inet.nodelay = val != 0;
	else if (level == IPPROTO_TCP && name == TCP_MAXSEG) {
		if (val && (val < 88 || val > 32767)) /* Linux's TCP_MIN_MSS and MAX_TCP_WINDOW */
			return -EINVAL;
		u->inet.maxseg = val;
	} else if (level == IPPROTO_TCP && name == TCP_CORK)
		u->inet.cork = val != 0;
	else if (level == IPPROTO_IPV6 && name == IPV6_V6ONLY) {
		if (u->addr)
			return -EINVAL; /* a bound socket's reach is settled */
		u->inet.v6only = val != 0;
	} else
		return -ENOPROTOOPT;
	return 0;
}

/* ---- the list /proc/net shows ------------------------------------------------------ */

/* Linux's TCP states as /proc/net/tcp numbers them (a UDP socket is ESTABLISHED or CLOSE). */
enum { TCP_ESTABLISHED = 1, TCP_CLOSE = 7, TCP_CLOSE_WAIT = 8, TCP_LISTEN = 10 };

static struct list_head inet_sockets = LIST_HEAD_INIT(inet_sockets); /* under unix_lock */

void
inet_sock_listed(struct unix_sock *u)
{
	list_add_tail(&u->inet_link, &inet_sockets);
}

static int
proc_state(const struct unix_sock *u)
{
	if (u->state == UNIX_LISTENING)
		return TCP_LISTEN;
	if (u->state != UNIX_CONNECTED)
		return TCP_CLOSE;
	return u->type == SOCK_STREAM && (u->shutdown & RCV_SHUTDOWN) ? TCP_CLOSE_WAIT
								      : TCP_ESTABLISHED;
}

/* What /proc/net shows of u: unix_lock held. */
static void
sock_info(struct unix_sock *u, struct inet_sock_info *info)
{
	const struct unix_address *remote = sock_is_udp(u) ? u->inet.dest
					    : u->peer	   ? u->peer->addr
							   : NULL;

	memset(info, 0, sizeof(*info));
	inet_address_any(u, &info->local);
	inet_address_any(u, &info->remote);
	if (u->addr)
		info->local = *u->addr;
	if (remote && u->state == UNIX_CONNECTED) {
		info->remote = *remote;
		inet_address_as(u->family, &info->remote);
	}
	info->state = proc_state(u);
	info->tx_queue = u->type == SOCK_STREAM && u->peer ? unix_inq_len(u->peer) : 0;
	info->rx_queue = u->type == SOCK_STREAM ? (u64)MAX(unix_inq_len(u), 0) : u->rmem;
	if (u->state == UNIX_LISTENING) /* Linux shows a listener's queue of connections */
		info->rx_queue = u->qlen, info->tx_queue = u->backlog;
	info->uid = u->file ? u->file->inode->uid : 0;
	info->ino = u->file ? u->file->inode->ino : 0;
}

void
inet_sockets_each(int family, int type, void (*show)(void *arg, const struct inet_sock_info *),
		  void *arg)
{
	struct inet_sock_info info;
	struct list_head *e;

	mutex_lock(&unix_lock);
	list_for_each(e, &inet_sockets) {
		struct unix_sock *u = list_entry(e, struct unix_sock, inet_link);
		if (u->family != family || u->type != type)
			continue;
		sock_info(u, &info);
		show(arg, &info);
	}
	mutex_unlock(&unix_lock);
}
