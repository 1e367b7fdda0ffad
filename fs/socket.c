/*
 * socket.c - socket and socketpair in a kernel without networking: no
 * address family is registered, so every well-formed request is
 * EAFNOSUPPORT, as Linux answers for a family whose module is absent
 * (glibc then falls back: nscd's socket, for one, is optional). Malformed
 * type flags are EINVAL first, in Linux's order.
 */
#include "uapi/errno.h"
#include "uapi/fcntl.h"
#include "kernel/syscall/syscall.h"

#define SOCK_TYPE_MASK 0xf
#define SOCK_MAX       11 /* types are 1..10 (SOCK_PACKET) */
#define NPROTO	       46 /* AF_MAX in Linux 6.1 */

static long
no_family(int family, int type)
{
	int base = type & SOCK_TYPE_MASK;

	if (type & ~(SOCK_TYPE_MASK | O_CLOEXEC | O_NONBLOCK))
		return -EINVAL; /* SOCK_CLOEXEC and SOCK_NONBLOCK are the O_ flags' values */
	if (family < 0 || family >= NPROTO)
		return -EAFNOSUPPORT;
	if (base >= SOCK_MAX)
		return -EINVAL;
	return -EAFNOSUPPORT;
}

SYSCALL3(socket, int, family, int, type, int, protocol)
{
	return no_family(family, type);
}

SYSCALL4(socketpair, int, family, int, type, int, protocol, int __user *, fds)
{
	return no_family(family, type);
}
