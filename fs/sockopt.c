/*
 * sockopt.c - getsockopt and setsockopt at SOL_SOCKET for AF_UNIX sockets,
 * with Linux's values and quirks: SO_SNDBUF and SO_RCVBUF store twice what
 * is asked (the kernel's bookkeeping share, Linux says), capped at
 * net.core.wmem_max/rmem_max unless root forces them; SO_PEERCRED is the
 * peer's credentials as at connect (or socketpair, or listen); timeouts
 * are a struct timeval; SO_PEEK_OFF is where the next MSG_PEEK starts
 * (unix_io.c moves it). An option rewind does not know is ENOPROTOOPT,
 * another level EOPNOTSUPP (AF_UNIX has no options of its own). TCP and
 * UDP sockets add SO_REUSEADDR and SO_REUSEPORT here, and the TCP and
 * IPv6 levels in fs/inet_sock.c.
 */
#include "fs/inet.h"
#include "kernel/process/cred.h"
#include "kernel/lib/string.h"
#include "uapi/time.h"
#include "kernel/time/time64.h"

static int
timeout_get(u64 ns, struct kernel_timeval *tv)
{
	tv->tv_sec = (long)(ns / NSEC_PER_SEC);
	tv->tv_usec = (long)(ns % NSEC_PER_SEC / NSEC_PER_USEC);
	return sizeof(*tv);
}

/* The option's value into val (at most 16 bytes): its length, or -ENOPROTOOPT. */
static int
option_value(struct unix_sock *u, int level, int name, char *val)
{
	if (level != SOL_SOCKET)
		return (int)inet_getsockopt(u, level, name, val);
	int v;

	switch (name) {
	case SO_TYPE:
		v = u->type;
		break;
	case SO_DOMAIN:
		v = u->family;
		break;
	case SO_PROTOCOL:
		v = sock_is_netlink(u)	     ? u->nl.protocol
		    : !sock_is_inet(u)	     ? 0
		    : u->type == SOCK_STREAM ? IPPROTO_TCP
					     : IPPROTO_UDP;
		break;
	case SO_REUSEADDR:
		v = u->inet.reuseaddr;
		break;
	case SO_REUSEPORT:
		v = u->inet.reuseport;
		break;
	case SO_ERROR:
		v = u->error;
		u->error = 0;
		break;
	case SO_SNDBUF:
		v = (int)u->sndbuf;
		break;
	case SO_RCVBUF:
		v = (int)u->rcvbuf;
		break;
	case SO_PASSCRED:
		v = u->passcred;
		break;
	case SO_ACCEPTCONN:
		v = u->state == UNIX_LISTENING;
		break;
	case SO_PEEK_OFF:
		v = u->peek_off;
		break;
	case SO_OOBINLINE:
		v = u->oobinline;
		break;
	case SO_PEERCRED: {
		/* No peer: pid 0 and the overflow ids, as Linux's cred_to_ucred(NULL). */
		struct kernel_ucred c =
			u->has_peercred ? u->peercred : (struct kernel_ucred){ 0, 65534, 65534 };
		memcpy(val, &c, sizeof(c));
		return sizeof(c);
	}
	case SO_RCVTIMEO_OLD:
	case SO_RCVTIMEO_NEW:
		return timeout_get(u->rcvtimeo, (struct kernel_timeval *)val);
	case SO_SNDTIMEO_OLD:
	case SO_SNDTIMEO_NEW:
		return timeout_get(u->sndtimeo, (struct kernel_timeval *)val);
	default:
		return -ENOPROTOOPT;
	}
	memcpy(val, &v, sizeof(v));
	return sizeof(v);
}

long
unix_getsockopt(struct unix_sock *u, int level, int name, void __user *uval, int __user *ulen)
{
	char val[16] __aligned(8);
	int len;

	if (level != SOL_SOCKET && sock_is_netlink(u))
		return -ENOPROTOOPT; /* no SOL_NETLINK options here: Linux's answer to unknown ones */
	if (level != SOL_SOCKET && !sock_is_inet(u))
		return -EOPNOTSUPP;
	if (copy_from_user(&len, ulen, sizeof(len)))
		return -EFAULT;
	if (len < 0)
		return -EINVAL;
	if (mutex_lock_killable(&unix_lock))
		return -EINTR;
	int size = option_value(u, level, name, val);
	mutex_unlock(&unix_lock);
	if (size < 0)
		return size;
	len = MIN(len, size); /* a short buffer gets the start, as Linux */
	if (copy_to_user(uval, val, (size_t)len) || copy_to_user(ulen, &len, sizeof(len)))
		return -EFAULT;
	return 0;
}

/* Linux's sock_set_timeout: 0 is forever, a negative time is at once. */
static int
timeout_set(const void __user *uval, int len, u64 *ns)
{
	struct kernel_timeval tv;

	if (len < (int)sizeof(tv))
		return -EINVAL;
	if (copy_from_user(&tv, uval, sizeof(tv)))
		return -EFAULT;
	if (tv.tv_usec < 0 || tv.tv_usec >= 1000000)
		return -EDOM;
	if (tv.tv_sec < 0)
		*ns = 1; /* the shortest wait there is */
	else
		*ns = (u64)tv.tv_sec * NSEC_PER_SEC + (u64)tv.tv_usec * NSEC_PER_USEC;
	return 0;
}

/* A buffer size as Linux stores it: doubled, at least min, val capped at max unless forced. */
static u32
buffer_size(int val, u32 min, bool force)
{
	u64 v = val < 0 ? 0 : (u64)val;

	if (!force)
		v = MIN(v, (u64)SOCK_BUF_MAX);
	v *= 2;
	return (u32)MIN(MAX(v, (u64)min), (u64)INT32_MAX);
}

long
unix_setsockopt(struct unix_sock *u, int level, int name, const void __user *uval, int len)
{
	int v = 0;

	if (level != SOL_SOCKET && sock_is_netlink(u))
		return -ENOPROTOOPT; /* no SOL_NETLINK options here: Linux's answer to unknown ones */
	if (level != SOL_SOCKET && !sock_is_inet(u))
		return -EOPNOTSUPP;
	if (level == SOL_SOCKET && (name == SO_RCVTIMEO_OLD || name == SO_RCVTIMEO_NEW))
		return timeout_set(uval, len, &u->rcvtimeo);
	if (level == SOL_SOCKET && (name == SO_SNDTIMEO_OLD || name == SO_SNDTIMEO_NEW))
		return timeout_set(uval, len, &u->sndtimeo);
	if (len < (int)sizeof(int))
		return -EINVAL;
	if (copy_from_user(&v, uval, sizeof(v)))
		return -EFAULT;
	bool force = level == SOL_SOCKET && (name == SO_SNDBUFFORCE || name == SO_RCVBUFFORCE);
	if (force && !capable(CAP_NET_ADMIN))
		return -EPERM;
	long err = 0;
	if (mutex_lock_killable(&unix_lock))
		return -EINTR;
	if (level != SOL_SOCKET) {
		err = inet_setsockopt(u, level, name, v);
		mutex_unlock(&unix_lock);
		return err;
	}
	switch (name) {
	case SO_REUSEADDR:
		u->inet.reuseaddr = v != 0;
		break;
	case SO_REUSEPORT:
		u->inet.reuseport = v != 0;
		break;
	case SO_SNDBUF:
	case SO_SNDBUFFORCE:
		u->sndbuf = buffer_size(v, SOCK_MIN_SNDBUF, force);
		wake_up_all(&u->wq); /* room for a waiting sender, perhaps */
		break;
	case SO_RCVBUF:
	case SO_RCVBUFFORCE:
		u->rcvbuf = buffer_size(v, SOCK_MIN_RCVBUF, force);
		break;
	case SO_PASSCRED:
		u->passcred = v != 0;
		break;
	case SO_PEEK_OFF:
		u->peek_off = v; /* any value, as Linux 6.1's unix_set_peek_off; -1 turns it off */
		break;
	case SO_OOBINLINE:
		u->oobinline = v != 0;
		break;
	default:
		err = -ENOPROTOOPT;
	}
	mutex_unlock(&unix_lock);
	return err;
}
