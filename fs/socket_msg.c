/*
 * socket_msg.c - the calls that send and receive on sockets: send, sendto,
 * sendmsg, sendmmsg and their receiving twins. They turn the caller's
 * buffers, address and control buffer (struct msghdr) into one request
 * for unix_send or unix_recv (fs/unix_io.c) and give back the sender's
 * address, the control messages and the MSG_TRUNC/MSG_CTRUNC flags as
 * Linux's net/socket.c does.
 */
#include "fs/unix.h"
#include "kernel/syscall/syscall.h"
#include "kernel/time/clock.h"
#include "kernel/time/tsc.h"
#include "mm/kmalloc.h"
#include "uapi/time.h"

/* A user msghdr into m (its iovec copied into *iov, to kfree): 0 or -errno. */
static int
msghdr_get(const struct kernel_msghdr *h, struct unix_msg_args *m, struct kernel_iovec **iov,
	   struct unix_address *name)
{
	*iov = NULL;
	if (h->msg_iovlen > UIO_MAXIOV)
		return -EMSGSIZE;
	long total = iovec_import(h->msg_iov, (int)h->msg_iovlen, iov);
	if (total < 0)
		return (int)total;
	m->iov = *iov;
	m->iovcnt = (int)h->msg_iovlen;
	m->total = (size_t)total;
	m->control = h->msg_control;
	m->controllen = h->msg_controllen;
	m->name = name;
	return 0;
}

/*
 * A send's destination from user memory, if one is given, as the socket
 * at fd reads it: 0 or -errno. TCP ignores it, as Linux's tcp_sendmsg.
 */
static int
name_get(int fd, const void __user *uaddr, int len, struct unix_msg_args *m, struct unix_address *a)
{
	struct file *f;

	if (!uaddr || !len)
		return 0;
	if (len < 0)
		return -EINVAL;
	int err = sock_get(fd, &f);
	if (err)
		return err;
	struct unix_sock *u = f->private;
	if (sock_is_inet(u) && u->type == SOCK_STREAM) {
		file_put(f);
		return 0;
	}
	err = sock_address_get(u, uaddr, len, a);
	if (!err && !sock_is_inet(u) && !sock_is_netlink(u) && a->sun.sun_family != AF_UNIX)
		err = -EINVAL;
	file_put(f);
	m->name = a;
	m->has_name = !err;
	return err;
}

static long
sock_send(int fd, struct unix_msg_args *m)
{
	struct file *f;
	long err = sock_get(fd, &f);

	if (err)
		return err;
	m->nonblock = file_nonblock(f);
	err = unix_send(f->private, m);
	file_put(f);
	return err;
}

static long
sock_recv(int fd, struct unix_msg_args *m)
{
	struct file *f;
	long err = sock_get(fd, &f);

	if (err)
		return err;
	m->nonblock = file_nonblock(f);
	err = unix_recv(f->private, m);
	file_put(f);
	return err;
}

SYSCALL6(sendto, int, fd, const void __user *, buf, size_t, len, unsigned, flags,
	 const void __user *, uaddr, int, namelen)
{
	struct kernel_iovec iov = { (void *)buf, MIN(len, MAX_RW_COUNT) };
	struct unix_msg_args m = { .iov = &iov, .iovcnt = 1, .total = iov.iov_len, .flags = flags };
	struct unix_address a;
	struct file *f;
	long err = sock_get(fd, &f); /* ENOTSOCK before the address, as Linux */

	if (err)
		return err;
	file_put(f);
	err = name_get(fd, uaddr, namelen, &m, &a);
	return err ? err : sock_send(fd, &m);
}

/* The sender's address to a user sockaddr (0 bytes if unnamed, as Linux's unix_copy_addr). */
static int
name_put(struct unix_msg_args *m, void __user *uaddr, int __user *ulen)
{
	static const struct unix_address none = { .len = 0 };

	return unix_address_put(m->has_name ? m->name : &none, uaddr, ulen);
}

SYSCALL6(recvfrom, int, fd, void __user *, buf, size_t, len, unsigned, flags, void __user *, uaddr,
	 int __user *, uaddr_len)
{
	struct kernel_iovec iov = { buf, MIN(len, MAX_RW_COUNT) };
	struct unix_address a;
	struct unix_msg_args m = {
		.iov = &iov, .iovcnt = 1, .total = iov.iov_len, .flags = flags, .name = &a
	};
	long ret = sock_recv(fd, &m);

	if (ret >= 0 && uaddr) {
		int err = name_put(&m, uaddr, uaddr_len);
		if (err)
			return err;
	}
	return ret;
}

long
do_sendmsg(int fd, const struct kernel_msghdr __user *uh, unsigned flags)
{
	struct kernel_msghdr h;
	struct kernel_iovec *iov;
	struct unix_address a;
	struct unix_msg_args m = { .flags = flags };

	if (copy_from_user(&h, uh, sizeof(h)))
		return -EFAULT;
	long err = msghdr_get(&h, &m, &iov, NULL);
	if (!err)
		err = name_get(fd, h.msg_name, h.msg_namelen, &m, &a);
	if (!err)
		err = sock_send(fd, &m);
	kfree(iov);
	return err;
}

SYSCALL3(sendmsg, int, fd, const struct kernel_msghdr __user *, msg, unsigned, flags)
{
	return do_sendmsg(fd, msg, flags);
}

/* What a receive gives back in the user's msghdr: the name, the control's length, flags. */
static int
msghdr_put(struct kernel_msghdr *h, struct kernel_msghdr __user *uh, struct unix_msg_args *m)
{
	int namelen = m->has_name ? (int)m->name->len : 0;

	if (h->msg_name &&
	    copy_to_user(h->msg_name, &m->name->sun, (size_t)MIN(h->msg_namelen, namelen)))
		return -EFAULT;
	h->msg_namelen = h->msg_name ? namelen : h->msg_namelen;
	h->msg_controllen = m->controllen;
	h->msg_flags = m->out_flags;
	if (copy_to_user(&uh->msg_namelen, &h->msg_namelen, sizeof(h->msg_namelen)) ||
	    copy_to_user(&uh->msg_controllen, &h->msg_controllen, sizeof(h->msg_controllen)) ||
	    copy_to_user(&uh->msg_flags, &h->msg_flags, sizeof(h->msg_flags)))
		return -EFAULT;
	return 0;
}

long
do_recvmsg(int fd, struct kernel_msghdr __user *uh, unsigned flags)
{
	struct kernel_msghdr h;
	struct kernel_iovec *iov;
	struct unix_address a;
	struct unix_msg_args m = { .flags = flags };

	if (copy_from_user(&h, uh, sizeof(h)))
		return -EFAULT;
	if (h.msg_namelen < 0)
		return -EINVAL;
	long ret = msghdr_get(&h, &m, &iov, &a);
	if (!ret)
		ret = sock_recv(fd, &m);
	if (ret >= 0) {
		int err = msghdr_put(&h, uh, &m);
		if (err)
			ret = err;
	}
	kfree(iov);
	return ret;
}

SYSCALL3(recvmsg, int, fd, struct kernel_msghdr __user *, msg, unsigned, flags)
{
	return do_recvmsg(fd, msg, flags);
}

/* ---- several messages at once ---------------------------------------------------------- */

/* Stores a message's length in its mmsghdr: 0 or -EFAULT. */
static int
mmsg_len_put(struct kernel_mmsghdr __user *mm, long len)
{
	unsigned n = (unsigned)len;

	return copy_to_user(&mm->msg_len, &n, sizeof(n)) ? -EFAULT : 0;
}

SYSCALL4(sendmmsg, int, fd, struct kernel_mmsghdr __user *, mmsg, unsigned, vlen, unsigned, flags)
{
	unsigned sent = 0;
	struct file *f;
	long err = sock_get(fd, &f);

	if (err)
		return err;
	file_put(f);
	for (vlen = MIN(vlen, UIO_MAXIOV); sent < vlen; sent++) {
		long n = do_sendmsg(fd, &mmsg[sent].msg_hdr, flags);
		if (n >= 0)
			n = mmsg_len_put(&mmsg[sent], n);
		if (n < 0) {
			err = n;
			break;
		}
	}
	return sent ? (long)sent : err;
}

/* Whether the deadline (ns since boot, 0: none) has passed; *left gets what remains. */
static bool
deadline_passed(u64 deadline, struct kernel_timespec *left)
{
	u64 now = ns_since_boot();

	*left = ns_to_timespec(deadline > now ? deadline - now : 0);
	return now >= deadline;
}

SYSCALL5(recvmmsg, int, fd, struct kernel_mmsghdr __user *, mmsg, unsigned, vlen, unsigned, flags,
	 struct kernel_timespec __user *, timeout)
{
	struct kernel_timespec ts;
	u64 deadline = 0, ns;
	unsigned got = 0;
	struct file *f;
	long err = sock_get(fd, &f);

	if (err)
		return err;
	file_put(f);
	if (timeout) {
		if (copy_from_user(&ts, timeout, sizeof(ts)))
			return -EFAULT;
		if (timespec_to_ns(&ts, &ns))
			return -EINVAL;
		deadline = ns_since_boot() + ns;
	}
	for (vlen = MIN(vlen, UIO_MAXIOV); got < vlen;) {
		long n = do_recvmsg(fd, &mmsg[got].msg_hdr, flags);
		if (n >= 0)
			n = mmsg_len_put(&mmsg[got], n);
		if (n < 0) {
			err = n;
			break;
		}
		got++;
		if (flags & MSG_WAITFORONE)
			flags |= MSG_DONTWAIT;
		if (deadline && deadline_passed(deadline, &ts))
			break;
	}
	if (deadline && (deadline_passed(deadline, &ts), copy_to_user(timeout, &ts, sizeof(ts))))
		return -EFAULT;
	return got ? (long)got : err;
}
