/*
 * netlink_route.c - the kernel's side of NETLINK_ROUTE, as Linux's
 * net/core/rtnetlink.c answers it, for the one device rewind has (the
 * loopback, fs/netdev.c). Each request in a send is read in turn, as
 * Linux's netlink_rcv_skb: RTM_GETLINK dumps list `lo` and RTM_GETADDR
 * dumps its addresses (127.0.0.1/8 and ::1/128; one family if the
 * request names AF_INET or AF_INET6), each in one datagram ending with
 * NLMSG_DONE, which is what busybox's `ip link` and `ip addr` read; a
 * RTM_GETLINK without NLM_F_DUMP asks for one device by index or name
 * (ENODEV for another). What rewind cannot serve - routes, neighbours,
 * changes (EPERM without CAP_NET_ADMIN first) - gets an NLMSG_ERROR with
 * EOPNOTSUPP, as Linux answers a type nobody registered; a request with
 * NLM_F_ACK gets an acknowledgement (error 0). Messages that are not
 * requests, or below NLMSG_MIN_TYPE, are only acknowledged if asked.
 */
#include "fs/inet.h"
#include "kernel/lib/string.h"
#include "kernel/process/cred.h"
#include "mm/kmalloc.h"

#define RT_REPLY_MAX 1024 /* the largest answer here: a dump of lo's two addresses */
#define RT_DUMPED    1	  /* a rt_request answered by a dump: no acknowledgement, as Linux */

/* An answer being built: messages one after another in buf. */
struct reply {
	u32 len;
	u32 msg; /* where the message being built starts */
	u32 seq, portid;
	char buf[RT_REPLY_MAX];
};

/* Appends len bytes (zeros if data is NULL), padded to 4: where they are. */
static void *
reply_put(struct reply *r, const void *data, u32 len)
{
	char *at = r->buf + r->len;

	memset(at, 0, NLMSG_ALIGN(len));
	if (data)
		memcpy(at, data, len);
	r->len += NLMSG_ALIGN(len);
	return at;
}

/* Starts a message of type with flags; its fixed part follows. */
static void
reply_begin(struct reply *r, u16 type, u16 flags)
{
	struct nlmsghdr h = { 0, type, flags, r->seq, r->portid };

	r->msg = r->len;
	reply_put(r, &h, sizeof(h));
}

static void
reply_attr(struct reply *r, u16 type, const void *data, u32 len)
{
	struct rtattr a = { (u16)(sizeof(a) + len), type };

	reply_put(r, &a, sizeof(a));
	reply_put(r, data, len);
}

static void
reply_u32(struct reply *r, u16 type, u32 v)
{
	reply_attr(r, type, &v, sizeof(v));
}

static void
reply_end(struct reply *r)
{
	((struct nlmsghdr *)(r->buf + r->msg))->nlmsg_len = r->len - r->msg;
}

/* lo as RTM_NEWLINK says it (`ip link`: loopback, up, mtu 65536, qdisc noqueue). */
static void
rt_link(struct reply *r, u16 flags)
{
	struct ifinfomsg ifi = { .ifi_type = ARPHRD_LOOPBACK,
				 .ifi_index = LO_INDEX,
				 .ifi_flags = LO_FLAGS | IFF_LOWER_UP };
	static const u8 no_hwaddr[6];
	u8 zero = 0;

	reply_begin(r, RTM_NEWLINK, flags);
	reply_put(r, &ifi, sizeof(ifi));
	reply_attr(r, IFLA_IFNAME, "lo", 3);
	reply_u32(r, IFLA_TXQLEN, LO_TXQLEN);
	reply_attr(r, IFLA_OPERSTATE, &zero, 1); /* IF_OPER_UNKNOWN, as Linux's lo */
	reply_attr(r, IFLA_LINKMODE, &zero, 1);
	reply_u32(r, IFLA_MTU, LO_MTU);
	reply_attr(r, IFLA_QDISC, "noqueue", 8);
	reply_attr(r, IFLA_ADDRESS, no_hwaddr, sizeof(no_hwaddr));
	reply_attr(r, IFLA_BROADCAST, no_hwaddr, sizeof(no_hwaddr));
	reply_end(r);
}

/* One of lo's addresses as RTM_NEWADDR says it. */
static void
rt_addr(struct reply *r, u8 family, const void *addr, u32 len, u8 prefix)
{
	struct ifaddrmsg ifa = { family, prefix, IFA_F_PERMANENT, RT_SCOPE_HOST, LO_INDEX };

	reply_begin(r, RTM_NEWADDR, NLM_F_MULTI);
	reply_put(r, &ifa, sizeof(ifa));
	reply_attr(r, IFA_ADDRESS, addr, len);
	if (family == AF_INET) {
		reply_attr(r, IFA_LOCAL, addr, len);
		reply_attr(r, IFA_LABEL, "lo", 3);
	}
	reply_u32(r, IFA_FLAGS, IFA_F_PERMANENT);
	reply_end(r);
}

static void
rt_done(struct reply *r)
{
	int zero = 0;

	reply_begin(r, NLMSG_DONE, NLM_F_MULTI);
	reply_put(r, &zero, sizeof(zero));
	reply_end(r);
}

/* RTM_GETADDR's dump: IPv4's, then IPv6's, unless family names one. */
static void
rt_dump_addrs(struct reply *r, u8 family)
{
	static const u8 v4[4] = { 127, 0, 0, 1 };
	static const u8 v6[16] = { [15] = 1 };

	if (family != AF_INET6)
		rt_addr(r, AF_INET, v4, sizeof(v4), 8);
	if (family != AF_INET)
		rt_addr(r, AF_INET6, v6, sizeof(v6), 128);
}

/* Whether the attributes of a RTM_GETLINK name lo (IFLA_IFNAME). */
static bool
rt_names_lo(const char *p, u32 len)
{
	struct rtattr a;

	while (len >= sizeof(a)) {
		memcpy(&a, p, sizeof(a));
		if (a.rta_len < sizeof(a) || a.rta_len > len)
			return false;
		if (a.rta_type == IFLA_IFNAME)
			return a.rta_len - sizeof(a) >= 3 && memcmp(p + sizeof(a), "lo", 3) == 0;
		p += RTA_ALIGN(a.rta_len);
		len -= MIN(len, RTA_ALIGN(a.rta_len));
	}
	return false;
}

/* RTM_GETLINK for one device (Linux's rtnl_getlink): by index, else by name. */
static int
rt_get_link(struct reply *r, const char *p, u32 len)
{
	struct ifinfomsg ifi;

	if (len < sizeof(ifi))
		return -EINVAL;
	memcpy(&ifi, p, sizeof(ifi));
	if (ifi.ifi_index > 0 ? ifi.ifi_index != LO_INDEX
			      : !rt_names_lo(p + sizeof(ifi), len - (u32)sizeof(ifi)))
		return ifi.ifi_index > 0 || len > sizeof(ifi) ? -ENODEV : -EINVAL;
	rt_link(r, 0);
	return 0;
}

/* One request (Linux's rtnetlink_rcv_msg): 0, RT_DUMPED, or -errno for its NLMSG_ERROR. */
static int
rt_request(struct reply *r, const struct nlmsghdr *h, const char *p, u32 len)
{
	if (h->nlmsg_type > RTM_MAX)
		return -EOPNOTSUPP;
	if (len < 1)
		return 0; /* no family: Linux ignores it */
	bool get = ((h->nlmsg_type - RTM_BASE) & 3) == 2;
	if (!get && !capable(CAP_NET_ADMIN))
		return -EPERM;
	if (get && (h->nlmsg_flags & NLM_F_DUMP)) {
		if (h->nlmsg_type == RTM_GETLINK)
			rt_link(r, NLM_F_MULTI);
		else if (h->nlmsg_type == RTM_GETADDR)
			rt_dump_addrs(r, (u8)p[0]);
		else
			return -EOPNOTSUPP;
		rt_done(r);
		return RT_DUMPED;
	}
	if (h->nlmsg_type == RTM_GETLINK)
		return rt_get_link(r, p, len);
	return -EOPNOTSUPP;
}

/*
 * NLMSG_ERROR for the request at req: err (0: an acknowledgement, which
 * carries the request's header alone, NLM_F_CAPPED; an error carries it
 * all, as Linux's netlink_ack without NETLINK_CAP_ACK).
 */
static void
rt_ack(struct unix_sock *u, struct reply *r, const char *req, const struct nlmsghdr *h, int err)
{
	u32 body = err ? h->nlmsg_len : (u32)sizeof(*h);
	u32 n = NLMSG_HDRLEN + sizeof(int) + NLMSG_ALIGN(body);
	char *buf = kmalloc(n);

	if (!buf)
		return;
	struct nlmsghdr e = { n, NLMSG_ERROR, err ? 0 : NLM_F_CAPPED, h->nlmsg_seq, r->portid };
	memset(buf, 0, n);
	memcpy(buf, &e, sizeof(e));
	memcpy(buf + NLMSG_HDRLEN, &err, sizeof(err));
	memcpy(buf + NLMSG_HDRLEN + sizeof(int), req, body);
	netlink_deliver(u, buf, n);
	kfree(buf);
}

void
rtnetlink_receive(struct unix_sock *u, const char *buf, u32 len)
{
	struct nlmsghdr h;

	while (len >= NLMSG_HDRLEN) {
		memcpy(&h, buf, sizeof(h));
		if (h.nlmsg_len < NLMSG_HDRLEN || h.nlmsg_len > len)
			return;
		struct reply *r = kmalloc(sizeof(*r));
		if (!r)
			return;
		*r = (struct reply){ .seq = h.nlmsg_seq, .portid = u->nl.portid };
		int err = 0;
		if ((h.nlmsg_flags & NLM_F_REQUEST) && h.nlmsg_type >= NLMSG_MIN_TYPE)
			err = rt_request(r, &h, buf + NLMSG_HDRLEN, h.nlmsg_len - NLMSG_HDRLEN);
		if (r->len)
			netlink_deliver(u, r->buf, r->len);
		if (err != RT_DUMPED && (err || (h.nlmsg_flags & NLM_F_ACK)))
			rt_ack(u, r, buf, &h, err);
		kfree(r);
		u32 step = MIN(NLMSG_ALIGN(h.nlmsg_len), len);
		buf += step;
		len -= step;
	}
}
