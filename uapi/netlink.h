/*
 * netlink.h - netlink messages as Linux defines them (linux/netlink.h,
 * linux/rtnetlink.h, linux/if_link.h, linux/if_addr.h): the header every
 * message starts with, errors and acknowledgements, and the route
 * family's link and address messages rewind answers (fs/netlink_route.c).
 */
#ifndef REWIND_UAPI_NETLINK_H
#define REWIND_UAPI_NETLINK_H

#define NETLINK_ROUTE 0
#define MAX_LINKS     32 /* protocols are 0..31 */
#define SOL_NETLINK   270

struct nlmsghdr {
	unsigned nlmsg_len; /* header included */
	unsigned short nlmsg_type;
	unsigned short nlmsg_flags;
	unsigned nlmsg_seq;
	unsigned nlmsg_pid;
};

#define NLMSG_ALIGNTO	  4u
#define NLMSG_ALIGN(len)  (((len) + NLMSG_ALIGNTO - 1) & ~(NLMSG_ALIGNTO - 1))
#define NLMSG_HDRLEN	  ((unsigned)NLMSG_ALIGN(sizeof(struct nlmsghdr)))
#define NLMSG_LENGTH(len) ((len) + NLMSG_HDRLEN)
#define NLMSG_DATA(h)	  ((void *)((char *)(h) + NLMSG_HDRLEN))
#define NLMSG_OK(h, len)                                                                        \
	((len) >= (long)sizeof(struct nlmsghdr) && (h)->nlmsg_len >= sizeof(struct nlmsghdr) && \
	 (h)->nlmsg_len <= (unsigned long)(len))
#define NLMSG_NEXT(h, len)                     \
	((len) -= NLMSG_ALIGN((h)->nlmsg_len), \
	 (struct nlmsghdr *)((char *)(h) + NLMSG_ALIGN((h)->nlmsg_len)))

#define NLM_F_REQUEST 0x1
#define NLM_F_MULTI   0x2
#define NLM_F_ACK     0x4
#define NLM_F_ROOT    0x100
#define NLM_F_MATCH   0x200
#define NLM_F_DUMP    (NLM_F_ROOT | NLM_F_MATCH)
#define NLM_F_CAPPED  0x100 /* an acknowledgement: the request's header alone follows */

#define NLMSG_NOOP     0x1
#define NLMSG_ERROR    0x2
#define NLMSG_DONE     0x3
#define NLMSG_MIN_TYPE 0x10 /* below: control messages */

struct nlmsgerr {
	int error; /* -errno, 0 for an acknowledgement */
	struct nlmsghdr msg;
};

struct rtattr {
	unsigned short rta_len;
	unsigned short rta_type;
};

#define RTA_ALIGN(len) (((len) + 3u) & ~3u)

#define RTM_BASE    16
#define RTM_GETLINK 18
#define RTM_NEWLINK 16
#define RTM_NEWADDR 20
#define RTM_GETADDR 22
#define RTM_MAX	    (RTM_BASE + 111) /* Linux 6.1's last message type, RTM_GETTUNNEL's kind */

struct ifinfomsg {
	unsigned char ifi_family;
	unsigned char ifi_pad;
	unsigned short ifi_type;
	int ifi_index;
	unsigned ifi_flags;
	unsigned ifi_change;
};

#define IFLA_ADDRESS   1
#define IFLA_BROADCAST 2
#define IFLA_IFNAME    3
#define IFLA_MTU       4
#define IFLA_QDISC     6
#define IFLA_TXQLEN    13
#define IFLA_OPERSTATE 16
#define IFLA_LINKMODE  17

struct ifaddrmsg {
	unsigned char ifa_family;
	unsigned char ifa_prefixlen;
	unsigned char ifa_flags;
	unsigned char ifa_scope;
	unsigned ifa_index;
};

#define IFA_ADDRESS 1
#define IFA_LOCAL   2
#define IFA_LABEL   3
#define IFA_FLAGS   8

#define IFA_F_PERMANENT 0x80
#define RT_SCOPE_HOST	254
#define ARPHRD_LOOPBACK 772
#define IFF_UP		0x1
#define IFF_LOOPBACK	0x8
#define IFF_RUNNING	0x40
#define IFF_LOWER_UP	0x10000

/* mq_notify's SIGEV_THREAD message (Linux's ipc/mqueue.c): a cookie, its last byte the news. */
#define NOTIFY_COOKIE_LEN 32
#define NOTIFY_NONE	  0
#define NOTIFY_WOKENUP	  1
#define NOTIFY_REMOVED	  2

#endif
