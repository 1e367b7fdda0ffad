/*
 * netdev.c - the network devices as the socket ioctls show them. rewind
 * has one, the loopback `lo` (index 1, up, MTU 65536, 127.0.0.1/8), as
 * Linux in the same VM has; the internet sockets (fs/inet_*.c) are its
 * traffic. SIOCGIFCONF lists its IPv4 address, SIOCGIFFLAGS, SIOCGIFMTU,
 * SIOCGIFTXQLEN and SIOCGIFINDEX read it by name (ENODEV for another), as Linux's
 * dev_ioctl on any socket. SIOCSIFFLAGS needs CAP_NET_ADMIN and may
 * only keep the flags as they are: lo cannot go down here (EOPNOTSUPP).
 */
#include "fs/inet.h"
#include "kernel/lib/string.h"
#include "kernel/process/cred.h"
#include "uapi/ioctls.h"
#include "uapi/netlink.h"

#define IFNAMSIZ 16

/* Linux's struct ifreq: a device name, then one of the values asked about. */
struct kernel_ifreq {
	char name[IFNAMSIZ];
	union {
		struct kernel_sockaddr_in addr;
		short flags;
		int ivalue; /* the index, the MTU */
		char pad[24];
	};
};

/* Linux's struct ifconf: a buffer of ifreqs and its length in bytes. */
struct kernel_ifconf {
	int len;
	void __user *buf;
};

/* SIOCGIFCONF: an ifreq per IPv4 address, as many as fit (the length needed if buf is NULL). */
static long
netdev_ifconf(struct kernel_ifconf __user *uifc)
{
	struct kernel_ifconf ifc;
	struct kernel_ifreq lo = { .name = "lo" };

	if (copy_from_user(&ifc, uifc, sizeof(ifc)))
		return -EFAULT;
	int total = 0;
	if (!ifc.buf)
		total = sizeof(lo);
	else if (ifc.len >= (int)sizeof(lo)) {
		lo.addr.sin_family = AF_INET;
		lo.addr.sin_addr = 0x0100007f; /* 127.0.0.1, network order */
		if (copy_to_user(ifc.buf, &lo, sizeof(lo)))
			return -EFAULT;
		total = sizeof(lo);
	}
	return copy_to_user(&uifc->len, &total, sizeof(total)) ? -EFAULT : 0;
}

/* One device's value by name: SIOCGIFFLAGS, SIOCSIFFLAGS, SIOCGIFMTU, SIOCGIFTXQLEN, SIOCGIFINDEX. */
static long
netdev_ifreq(unsigned cmd, struct kernel_ifreq __user *uifr)
{
	struct kernel_ifreq ifr;

	if (copy_from_user(&ifr, uifr, sizeof(ifr)))
		return -EFAULT;
	ifr.name[IFNAMSIZ - 1] = '\0';
	if (cmd == SIOCSIFFLAGS && !capable(CAP_NET_ADMIN))
		return -EPERM;
	if (strcmp(ifr.name, "lo") != 0)
		return -ENODEV;
	switch (cmd) {
	case SIOCSIFFLAGS:
		return (ifr.flags & 0xffff) == LO_FLAGS ? 0 : -EOPNOTSUPP;
	case SIOCGIFFLAGS:
		ifr.flags = LO_FLAGS;
		break;
	case SIOCGIFMTU:
		ifr.ivalue = LO_MTU;
		break;
	case SIOCGIFTXQLEN:
		ifr.ivalue = LO_TXQLEN;
		break;
	default:
		ifr.ivalue = LO_INDEX;
		break;
	}
	return copy_to_user(uifr, &ifr, sizeof(ifr)) ? -EFAULT : 0;
}

long
netdev_ioctl(unsigned cmd, unsigned long arg)
{
	switch (cmd) {
	case SIOCGIFCONF:
		return netdev_ifconf((struct kernel_ifconf __user *)arg);
	case SIOCGIFFLAGS:
	case SIOCSIFFLAGS:
	case SIOCGIFMTU:
	case SIOCGIFTXQLEN:
	case SIOCGIFINDEX:
		return netdev_ifreq(cmd, (struct kernel_ifreq __user *)arg);
	default:
		return -ENOTTY;
	}
}
