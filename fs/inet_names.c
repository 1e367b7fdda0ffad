/*
 * inet_names.c - the addresses and ports AF_INET and AF_INET6 sockets
 * bind to, as Linux has them on a machine whose one interface is the
 * loopback: 127.0.0.0/8 and ::1 are local, the any address (0.0.0.0, ::)
 * stands for them, anything else is EADDRNOTAVAIL to bind and
 * ENETUNREACH to reach. An AF_INET6 socket bound to :: hears IPv4 too,
 * as ::ffff:a.b.c.d, unless IPV6_V6ONLY.
 *
 * One table holds every bound TCP and UDP socket (under unix_lock); a
 * port is one protocol's. Two sockets may share a port when the addresses
 * they hear do not overlap, when both set SO_REUSEADDR and (for TCP)
 * neither listens, or when both set SO_REUSEPORT and belong to one user
 * (Linux's inet_csk_bind_conflict). Port 0 picks an ephemeral port from
 * ip_local_port_range (32768-60999); ports below 1024 need root.
 *
 * Inside, every address is compared in one form: IPv6, an IPv4 address
 * as its v4-mapped ::ffff:a.b.c.d.
 */
#include "fs/inet.h"
#include "kernel/lib/string.h"
#include "kernel/process/cred.h"
#include "mm/kmalloc.h"

static struct list_head inet_bound = LIST_HEAD_INIT(inet_bound); /* of unix_sock */

#define SIN6_LEN_RFC2133 24  /* a sockaddr_in6 without its scope id: still accepted */
#define SOCKADDR_MAX	 128 /* sizeof(struct sockaddr_storage): longer is EINVAL */

static const u8 v4_prefix[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

static bool
bytes_zero(const u8 *p, size_t n)
{
	while (n--)
		if (*p++)
			return false;
	return true;
}

/* a's address in the one form (IPv4 v4-mapped). */
static void
address_key(const struct unix_address *a, u8 key[16])
{
	if (a->sun.sun_family == AF_INET6) {
		memcpy(key, a->sin6.sin6_addr, 16);
		return;
	}
	memcpy(key, v4_prefix, 12);
	memcpy(key + 12, &a->sin.sin_addr, 4);
}

static bool
key_is_v4(const u8 key[16])
{
	return memcmp(key, v4_prefix, 12) == 0;
}

static bool
key_is_any(const u8 key[16])
{
	return bytes_zero(key, 16) || (key_is_v4(key) && bytes_zero(key + 12, 4));
}

static bool
key_is_loopback(const u8 key[16])
{
	static const u8 v6_loopback[16] = { [15] = 1 };

	return key_is_v4(key) ? key[12] == 127 : memcmp(key, v6_loopback, 16) == 0;
}

/* The port, in host order (sin_port and sin6_port lie at one offset). */
static u16
inet_port(const struct unix_address *a)
{
	return __builtin_bswap16(a->sin.sin_port);
}

static void
set_inet_port(struct unix_address *a, u16 port)
{
	a->sin.sin_port = __builtin_bswap16(port);
}

/* ---- what a bound socket hears -------------------------------------------------- */

enum reach { REACH_NONE, REACH_ONE, REACH_ALL };

/* The IPv4 and IPv6 addresses a socket bound at key hears: none, the one, or all. */
struct scope {
	enum reach v4, v6;
	u8 key[16];
};

static struct scope
scope_of(const struct unix_sock *u, const struct unix_address *a)
{
	struct scope s = { .v4 = REACH_NONE, .v6 = REACH_NONE };

	address_key(a, s.key);
	if (key_is_v4(s.key))
		s.v4 = bytes_zero(s.key + 12, 4) ? REACH_ALL : REACH_ONE;
	else if (bytes_zero(s.key, 16)) {
		s.v6 = REACH_ALL;
		s.v4 = u->inet.v6only ? REACH_NONE : REACH_ALL;
	} else
		s.v6 = REACH_ONE;
	return s;
}

/* How well a socket of scope s hears key: 0 not at all, 1 as a wildcard, 2 by its address. */
static int
scope_hears(const struct scope *s, const u8 key[16])
{
	enum reach r = key_is_v4(key) ? s->v4 : s->v6;

	if (r == REACH_ALL)
		return 1;
	return r == REACH_ONE && memcmp(s->key, key, 16) == 0 ? 2 : 0;
}

static bool
reach_overlap(enum reach a, enum reach b, bool same)
{
	return a != REACH_NONE && b != REACH_NONE && (a == REACH_ALL || b == REACH_ALL || same);
}

static bool
scopes_overlap(const struct scope *a, const struct scope *b)
{
	bool same = memcmp(a->key, b->key, 16) == 0;

	return reach_overlap(a->v4, b->v4, same) || reach_overlap(a->v6, b->v6, same);
}

/* Whether u may share a port with o, which holds it already (Linux's bind conflict rules). */
static bool
may_share_port(const struct unix_sock *u, const struct unix_sock *o)
{
	if (u->inet.reuseport && o->inet.reuseport && u->cred.uid == o->cred.uid)
		return true;
	return u->inet.reuseaddr && o->inet.reuseaddr &&
	       (u->type == SOCK_DGRAM || o->state != UNIX_LISTENING);
}

/*
 * Whether port is taken for u at a: by a socket whose addresses overlap
 * and that will not share (strict: whatever its options). Only listeners,
 * if listeners_only. unix_lock held.
 */
static bool
port_taken(const struct unix_sock *u, const struct unix_address *a, u16 port, bool strict,
	   bool listeners_only)
{
	struct scope su = scope_of(u, a);
	struct list_head *e;

	list_for_each(e, &inet_bound) {
		struct unix_sock *o = list_entry(e, struct unix_sock, bound_link);
		if (o == u || o->type != u->type || inet_port(o->addr) != port)
			continue;
		if (listeners_only && o->state != UNIX_LISTENING)
			continue;
		struct scope so = scope_of(o, o->addr);
		if (scopes_overlap(&su, &so) && (strict || !may_share_port(u, o)))
			return true;
	}
	return false;
}

/* ---- user addresses --------------------------------------------------------------- */

int
inet_address_get(struct unix_sock *u, const void __user *uaddr, int len, struct unix_address *a)
{
	if (len < 0 || len > SOCKADDR_MAX)
		return -EINVAL; /* Linux's move_addr_to_kernel */
	memset(a, 0, sizeof(*a));
	if (copy_from_user(&a->sin6, uaddr, MIN((size_t)len, sizeof(a->sin6))))
		return -EFAULT;
	a->len = (u32)len;
	if (len < (int)sizeof(a->sin.sin_family))
		return -EINVAL;
	if (a->sun.sun_family == AF_UNSPEC)
		return 0; /* connect's disconnect, or (IPv4) the any address: the callers say */
	if (len < (u->family == AF_INET ? (int)sizeof(a->sin) : SIN6_LEN_RFC2133))
		return -EINVAL;
	if (a->sun.sun_family != u->family)
		return -EAFNOSUPPORT;
	a->len = u->family == AF_INET ? sizeof(a->sin) : sizeof(a->sin6);
	return 0;
}

/* An AF_UNSPEC address as an IPv4 socket takes it in bind and sendto: 0, or -errno. */
static int
unspec_as_inet(struct unix_sock *u, struct unix_address *a, bool any_only)
{
	if (a->sun.sun_family != AF_UNSPEC)
		return 0;
	if (u->family != AF_INET || a->len < sizeof(a->sin))
		return a->len < sizeof(a->sin) ? -EINVAL : -EAFNOSUPPORT;
	if (any_only && a->sin.sin_addr)
		return -EAFNOSUPPORT;
	a->sun.sun_family = AF_INET;
	a->len = sizeof(a->sin);
	return 0;
}

bool
inet_address_is_any(const struct unix_address *a)
{
	u8 key[16];

	address_key(a, key);
	return key_is_any(key);
}

void
inet_address_any(const struct unix_sock *u, struct unix_address *a)
{
	memset(a, 0, sizeof(*a));
	a->sun.sun_family = (unsigned short)u->family;
	a->len = u->family == AF_INET ? sizeof(a->sin) : sizeof(a->sin6);
}

void
inet_address_as(int family, struct unix_address *a)
{
	u8 key[16];
	u16 port = a->sin.sin_port;

	address_key(a, key);
	if (key_is_any(key)) { /* the any address, seen from outside, is the loopback's */
		if (key_is_v4(key))
			key[12] = 127, key[15] = 1;
		else
			key[15] = 1;
	}
	memset(a, 0, sizeof(*a));
	a->sun.sun_family = (unsigned short)family;
	a->sin.sin_port = port;
	if (family == AF_INET6) {
		memcpy(a->sin6.sin6_addr, key, 16);
		a->len = sizeof(a->sin6);
	} else {
		memcpy(&a->sin.sin_addr, key + 12, 4);
		a->len = sizeof(a->sin);
	}
}

/* ---- bind ------------------------------------------------------------------------- */

/* Gives u the name a (a copy): unix_lock held. */
static int
bind_name(struct unix_sock *u, const struct unix_address *a)
{
	u->addr = kmalloc(sizeof(*u->addr));
	if (!u->addr)
		return -ENOMEM;
	*u->addr = *a;
	list_add_tail(&u->bound_link, &inet_bound);
	return 0;
}

/* Binds u at a with a free ephemeral port: unix_lock held. */
static int
bind_ephemeral(struct unix_sock *u, const struct unix_address *a)
{
	static u32 next;
	const u32 range = INET_PORT_LAST - INET_PORT_FIRST + 1;
	struct unix_address named = *a;

	for (u32 tries = 0; tries < range; tries++) {
		u16 port = (u16)(INET_PORT_FIRST + next++ % range);
		if (!port_taken(u, a, port, true, false)) {
			set_inet_port(&named, port);
			return bind_name(u, &named);
		}
	}
	return -EADDRINUSE;
}

int
inet_autobind(struct unix_sock *u)
{
	struct unix_address any;

	if (u->addr)
		return 0;
	inet_address_any(u, &any);
	return bind_ephemeral(u, &any);
}

/* Whether an address a socket of u's family may bind: 0, -EADDRNOTAVAIL, -EINVAL. */
static int
inet_bindable(const struct unix_sock *u, const u8 key[16])
{
	if (u->family == AF_INET6 && key_is_v4(key) && u->inet.v6only)
		return -EINVAL;
	return key_is_any(key) || key_is_loopback(key) ? 0 : -EADDRNOTAVAIL;
}

int
inet_bind(struct unix_sock *u, const struct unix_address *to)
{
	struct unix_address a = *to;
	u8 key[16];
	int err = unspec_as_inet(u, &a, true);

	if (err)
		return err;
	address_key(&a, key);
	if ((err = inet_bindable(u, key)))
		return err;
	u16 port = inet_port(&a);
	if (port && port < INET_PROT_SOCK && !capable(CAP_NET_BIND_SERVICE))
		return -EACCES;
	if (mutex_lock_killable(&unix_lock))
		return -EINTR;
	if (u->addr)
		err = -EINVAL;
	else if (!port)
		err = bind_ephemeral(u, &a);
	else
		err = port_taken(u, &a, port, false, false) ? -EADDRINUSE : bind_name(u, &a);
	mutex_unlock(&unix_lock);
	return err;
}

bool
inet_may_listen(struct unix_sock *u)
{
	return !port_taken(u, u->addr, inet_port(u->addr), false, true);
}

/* ---- finding a destination ------------------------------------------------------------ */

int
inet_route(struct unix_sock *u, const struct unix_address *a, struct unix_address *dest)
{
	u8 key[16];

	*dest = *a;
	int err = unspec_as_inet(u, dest, false);
	if (err)
		return err;
	address_key(dest, key);
	if (u->family == AF_INET6 && key_is_v4(key) && u->inet.v6only)
		return -ENETUNREACH;
	if (!key_is_any(key) && !key_is_loopback(key))
		return -ENETUNREACH; /* lo is the only route */
	inet_address_as(u->family, dest);
	return 0;
}

/* Whether a connected datagram socket's peer is src (both as its family sees them). */
static bool
is_dgram_peer(const struct unix_sock *o, const struct unix_address *src)
{
	struct unix_address seen = *src;

	inet_address_as(o->family, &seen);
	return memcmp(&seen.sin6, &o->inet.dest->sin6, seen.len) == 0;
}

struct unix_sock *
inet_lookup(const struct unix_address *dest, const struct unix_address *src, int type,
	    bool want_listener)
{
	struct unix_sock *best = NULL;
	int best_score = 0;
	struct list_head *e;
	u8 key[16];

	address_key(dest, key);
	list_for_each(e, &inet_bound) {
		struct unix_sock *o = list_entry(e, struct unix_sock, bound_link);
		if (o->type != type || o->dead || inet_port(o->addr) != inet_port(dest))
			continue;
		if (want_listener && o->state != UNIX_LISTENING)
			continue;
		if (o->inet.dest && src && !is_dgram_peer(o, src))
			continue; /* a connected UDP socket hears its peer alone */
		struct scope s = scope_of(o, o->addr);
		int score = scope_hears(&s, key);
		if (score > best_score) {
			best = o;
			best_score = score;
		}
	}
	return best;
}
