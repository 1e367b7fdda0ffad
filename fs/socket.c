/*
 * socket.c - the socket system calls and socket files.
 *
 * AF_UNIX sockets (fs/unix_*.c), AF_INET and AF_INET6 ones on the
 * loopback (fs/inet_*.c, built on the same machinery), AF_NETLINK ones
 * (fs/netlink*.c, datagram sockets whose peer is the kernel); every other family
 * is EAFNOSUPPORT, as Linux answers for a family whose module is absent
 * (see docs/sockets.md). Malformed type flags are EINVAL
 * first, in Linux's order. A socket is a file on an inode of its own (S_IFSOCK, on
 * an instance never mounted, as Linux's sockfs): read and write are recv
 * and send, poll reports what a send or receive would find, fstat shows
 * the type and /proc/<pid>/fd shows "socket:[inode]". A socket call on
 * any other file is ENOTSOCK.
 */
#include "fs/inet.h"
#include "kernel/process/cred.h"
#include "kernel/syscall/syscall.h"
#include "kernel/time/clock.h"
#include "kernel/time/tsc.h"
#include "mm/kmalloc.h"
#include "uapi/ioctls.h"
#include "uapi/magic.h"
#include "uapi/time.h"

struct fs_type sockfs_type = { .name = "sockfs", .magic = SOCKFS_MAGIC };
struct super_block *sockfs_sb;

/* ---- socket files ---------------------------------------------------------------- */

static long
socket_read(struct file *f, char __user *buf, size_t n, u64 *pos)
{
	struct kernel_iovec iov = { buf, n };
	struct unix_msg_args m = {
		.iov = &iov, .iovcnt = 1, .total = n, .nonblock = READ_ONCE(f->flags) & O_NONBLOCK
	};

	return unix_recv(f->private, &m);
}

static long
socket_write(struct file *f, const char __user *buf, size_t n, u64 *pos)
{
	struct kernel_iovec iov = { (void *)buf, n };
	struct unix_msg_args m = {
		.iov = &iov, .iovcnt = 1, .total = n, .nonblock = READ_ONCE(f->flags) & O_NONBLOCK
	};

	return unix_send(f->private, &m);
}

/* Linux's unix_poll and unix_dgram_poll, read without the lock as they are. */
static unsigned
socket_poll(struct file *f, struct poll_table *pt)
{
	struct unix_sock *u = f->private;
	u32 shutdown = READ_ONCE(u->shutdown);
	unsigned mask = 0;

	poll_wait(f, &u->wq, pt);
	if (READ_ONCE(u->error))
		mask |= POLLERR;
	if (shutdown == SHUTDOWN_MASK)
		mask |= POLLHUP;
	if (shutdown & RCV_SHUTDOWN)
		mask |= POLLRDHUP | POLLIN | POLLRDNORM;
	if (READ_ONCE(u->qlen))
		mask |= POLLIN | POLLRDNORM;
	if (READ_ONCE(u->oob_msg))
		mask |= POLLPRI; /* urgent data waits */
	if (u->type != SOCK_DGRAM && u->state == UNIX_UNCONNECTED) {
		mask |= POLLHUP;
		if (u->type == SOCK_SEQPACKET)
			return mask;
	}
	if (unix_writable(u))
		mask |= POLLOUT | POLLWRNORM | POLLWRBAND;
	return mask;
}

/*
 * Linux's unix_ioctl: what a read could take (SIOCINQ, which is FIONREAD),
 * what this socket sent that its receiver has not read (SIOCOUTQ, counted
 * with each message's overhead as Linux counts skb truesize), and whether
 * the next byte is the urgent one (SIOCATMARK; a UDP socket has no urgent
 * data and no such ioctl, ENOTTY as Linux's udp_ioctl). What the socket's
 * family does not know goes to the network devices, as Linux's sock_ioctl.
 */
static long
socket_ioctl(struct file *f, unsigned cmd, unsigned long arg)
{
	struct unix_sock *u = f->private;
	long amount;

	if (cmd != SIOCINQ && cmd != SIOCOUTQ && (cmd != SIOCATMARK || sock_is_udp(u)))
		return netdev_ioctl(cmd, arg);
	if (mutex_lock_killable(&unix_lock))
		return -EINTR;
	switch (cmd) {
	case SIOCINQ:
		amount = unix_inq_len(u);
		break;
	case SIOCOUTQ:
		amount = (long)u->wmem;
		break;
	default: /* SIOCATMARK */
		amount = unix_at_mark(u);
		break;
	}
	mutex_unlock(&unix_lock);
	if (amount < 0)
		return amount;
	int v = (int)amount;
	return copy_to_user((int __user *)arg, &v, sizeof(v)) ? -EFAULT : 0;
}

static int
socket_fasync(int fd, struct file *f, bool on)
{
	struct unix_sock *u = f->private;

	return fasync_helper(fd, f, on, &u->fasync);
}

static void
socket_release(struct file *f)
{
	unix_release(f->private);
}

/* Opening a socket anew (its name, /proc/<pid>/fd/N) is ENXIO, as Linux. */
static int
socket_open(struct inode *inode, struct file *f)
{
	return -ENXIO;
}

const struct file_operations socket_fops = {
	.open = socket_open,
	.read = socket_read,
	.write = socket_write,
	.poll = socket_poll,
	.ioctl = socket_ioctl,
	.fasync = socket_fasync,
	.release = socket_release,
};

/* A file for u (taking over the caller's reference): NULL when memory is short. */
static struct file *
socket_file(struct unix_sock *u, int flags)
{
	struct inode *inode = inode_alloc(sockfs_sb, S_IFSOCK | 0777, NULL, &socket_fops);

	if (!inode)
		return NULL;
	inode->uid = current_fsuid();
	inode->gid = current_fsgid();
	struct file *f = file_alloc(inode, NULL, O_RDWR | (flags & O_NONBLOCK));
	inode_put(inode);
	if (!f)
		return NULL;
	f->private = u;
	mutex_lock(&unix_lock);
	u->file = f;
	if (sock_is_inet(u))
		inet_sock_listed(u);
	mutex_unlock(&unix_lock);
	return f;
}

struct unix_sock *
unix_sock_of_file(struct file *f)
{
	return f->ops == &socket_fops ? f->private : NULL;
}

/* A file for u installed as a new fd: the fd, or -errno (u is closed then). */
static int
socket_fd(struct unix_sock *u, int flags)
{
	struct file *f = socket_file(u, flags);

	if (!f) {
		unix_release(u);
		return -ENOMEM;
	}
	int fd = fd_alloc(f, 0, flags & O_CLOEXEC);
	if (fd < 0)
		file_put(f);
	return fd;
}

int
sock_get(int fd, struct file **fp)
{
	struct file *f = fd_get(fd);

	if (!f)
		return -EBADF;
	if (f->ops != &socket_fops || !f->private) {
		file_put(f);
		return -ENOTSOCK;
	}
	*fp = f;
	return 0;
}

bool
file_nonblock(struct file *f)
{
	return READ_ONCE(f->flags) & O_NONBLOCK;
}

/* ---- socket, socketpair ------------------------------------------------------------ */

/* The TCP or UDP socket an AF_INET or AF_INET6 socket call asks for, as Linux's inet_create. */
static int
inet_type(int base, int protocol)
{
	if (base == SOCK_STREAM && (!protocol || protocol == IPPROTO_TCP))
		return SOCK_STREAM;
	if (base == SOCK_DGRAM && (!protocol || protocol == IPPROTO_UDP))
		return SOCK_DGRAM;
	if (base == SOCK_STREAM || base == SOCK_DGRAM)
		return -EPROTONOSUPPORT;
	if (base == 3) /* SOCK_RAW: CAP_NET_RAW's alone, and rewind has no raw IP */
		return capable(CAP_NET_RAW) ? -EPROTONOSUPPORT : -EPERM;
	return -ESOCKTNOSUPPORT;
}

/* The type a socket call asks for, or -errno, checked in Linux's order. */
static int
socket_type(int family, int type, int protocol)
{
	int base = type & SOCK_TYPE_MASK;

	if (type & ~(SOCK_TYPE_MASK | SOCK_CLOEXEC | SOCK_NONBLOCK))
		return -EINVAL;
	if (family < 0 || family >= AF_MAX)
		return -EAFNOSUPPORT;
	if (base > SOCK_PACKET)
		return -EINVAL;
	if (family == AF_INET || family == AF_INET6)
		return inet_type(base, protocol);
	if (family == AF_NETLINK)
		return netlink_type(base, protocol);
	if (family != AF_UNIX)
		return -EAFNOSUPPORT; /* docs/sockets.md */
	if (protocol && protocol != AF_UNIX)
		return -EPROTONOSUPPORT;
	if (base == 3) /* SOCK_RAW: a datagram socket, as Linux's unix_create */
		return SOCK_DGRAM;
	if (base != SOCK_STREAM && base != SOCK_DGRAM && base != SOCK_SEQPACKET)
		return -ESOCKTNOSUPPORT;
	return base;
}

SYSCALL3(socket, int, family, int, type, int, protocol)
{
	int kind = socket_type(family, type, protocol);

	if (kind < 0)
		return kind;
	struct unix_sock *u = unix_sock_alloc(family, kind);
	if (!u)
		return -ENOMEM;
	u->nl.protocol = protocol;
	return socket_fd(u, type);
}

/* Both files of a new pair, or -ENOMEM with nothing left. */
static int
pair_files(int kind, int type, struct file **fa, struct file **fb)
{
	struct unix_sock *a = unix_sock_alloc(AF_UNIX, kind);
	struct unix_sock *b = a ? unix_sock_alloc(AF_UNIX, kind) : NULL;

	if (!b) {
		if (a)
			unix_sock_put(a);
		return -ENOMEM;
	}
	mutex_lock(&unix_lock);
	unix_pair(a, b);
	mutex_unlock(&unix_lock);
	*fa = socket_file(a, type);
	*fb = *fa ? socket_file(b, type) : NULL;
	if (*fb)
		return 0;
	if (*fa)
		file_put(*fa);
	else
		unix_release(a);
	unix_release(b);
	return -ENOMEM;
}

SYSCALL4(socketpair, int, family, int, type, int, protocol, int __user *, sv)
{
	int kind = socket_type(family, type, protocol);
	struct file *fa, *fb;

	if (kind < 0)
		return kind;
	if (family != AF_UNIX)
		return -EOPNOTSUPP; /* TCP, UDP and netlink sockets come in no pairs */
	int err = pair_files(kind, type, &fa, &fb);
	if (err)
		return err;
	int fds[2] = { fd_alloc(fa, 0, type & SOCK_CLOEXEC), -1 };
	if (fds[0] < 0) {
		file_put(fa);
		file_put(fb);
		return fds[0];
	}
	fds[1] = fd_alloc(fb, 0, type & SOCK_CLOEXEC);
	if (fds[1] < 0) {
		fd_close(fds[0]);
		file_put(fb);
		return fds[1];
	}
	if (copy_to_user(sv, fds, sizeof(fds))) {
		fd_close(fds[0]);
		fd_close(fds[1]);
		return -EFAULT;
	}
	return 0;
}

/* ---- names and connections ----------------------------------------------------------- */

/* A sockaddr for the socket u from user memory: 0 or -errno. */
int
sock_address_get(struct unix_sock *u, const void __user *uaddr, int len, struct unix_address *a)
{
	if (sock_is_netlink(u))
		return netlink_address_get(uaddr, len, a);
	return sock_is_inet(u) ? inet_address_get(u, uaddr, len, a)
			       : unix_address_get(uaddr, len, a);
}

SYSCALL3(bind, int, fd, const void __user *, uaddr, int, namelen)
{
	struct unix_address a;
	struct file *f;
	int err = sock_get(fd, &f);

	if (err)
		return err;
	struct unix_sock *u = f->private;
	err = sock_address_get(u, uaddr, namelen, &a);
	if (!err)
		err = sock_is_netlink(u) ? netlink_bind(u, &a)
		      : sock_is_inet(u)	 ? inet_bind(u, &a)
					 : unix_bind(u, &a);
	file_put(f);
	return err;
}

SYSCALL3(connect, int, fd, const void __user *, uaddr, int, namelen)
{
	struct unix_address a;
	struct file *f;
	int err = sock_get(fd, &f);

	if (err)
		return err;
	struct unix_sock *u = f->private;
	if (sock_is_netlink(u))
		err = netlink_connect(u, uaddr, namelen);
	else if (!(err = sock_address_get(u, uaddr, namelen, &a)))
		err = sock_is_inet(u) ? inet_connect(u, &a, file_nonblock(f))
				      : unix_connect(u, &a, file_nonblock(f));
	file_put(f);
	return err;
}

SYSCALL2(listen, int, fd, int, backlog)
{
	struct file *f;
	int err = sock_get(fd, &f);

	if (err)
		return err;
	struct unix_sock *u = f->private;
	err = sock_is_netlink(u) ? -EOPNOTSUPP
	      : sock_is_inet(u)	 ? inet_listen(u, backlog)
				 : unix_listen(u, backlog);
	file_put(f);
	return err;
}

/*
 * The peer's name for accept and getpeername, copied under the lock; NULL
 * if unnamed. An internet socket's as its family sees it; a UDP socket's
 * is the default peer connect named.
 */
static struct unix_address *
peer_name(struct unix_sock *u, struct unix_address *buf)
{
	struct unix_address *a = NULL;

	mutex_lock(&unix_lock);
	const struct unix_address *name = sock_is_udp(u) ? u->inet.dest
					  : u->peer	 ? u->peer->addr
							 : NULL;
	if (name) {
		*buf = *name;
		a = buf;
		if (sock_is_inet(u))
			inet_address_as(u->family, a);
	}
	mutex_unlock(&unix_lock);
	return a;
}

static long
do_accept4(int fd, void __user *upeer, int __user *ulen, int flags)
{
	struct unix_address buf;
	struct unix_sock *n;
	struct file *f;

	if (flags & ~(SOCK_CLOEXEC | SOCK_NONBLOCK))
		return -EINVAL;
	int err = sock_get(fd, &f);
	if (err)
		return err;
	err = unix_accept(f->private, file_nonblock(f), &n);
	file_put(f);
	if (err)
		return err;
	struct file *nf = socket_file(n, flags);
	if (!nf) {
		unix_release(n);
		return -ENOMEM;
	}
	if (upeer && (err = unix_address_put(peer_name(n, &buf), upeer, ulen))) {
		file_put(nf);
		return err;
	}
	int newfd = fd_alloc(nf, 0, flags & SOCK_CLOEXEC);
	if (newfd < 0)
		file_put(nf);
	return newfd;
}

SYSCALL3(accept, int, fd, void __user *, upeer, int __user *, upeer_len)
{
	return do_accept4(fd, upeer, upeer_len, 0);
}

SYSCALL4(accept4, int, fd, void __user *, upeer, int __user *, upeer_len, int, flags)
{
	return do_accept4(fd, upeer, upeer_len, flags);
}

SYSCALL3(getsockname, int, fd, void __user *, uaddr, int __user *, uaddr_len)
{
	struct unix_address buf, *a = NULL;
	struct file *f;
	int err = sock_get(fd, &f);

	if (err)
		return err;
	struct unix_sock *u = f->private;
	if (sock_is_netlink(u)) { /* unbound: port 0 */
		netlink_name(u, false, &buf);
		err = unix_address_put(&buf, uaddr, uaddr_len);
		file_put(f);
		return err;
	}
	mutex_lock(&unix_lock);
	if (u->addr) {
		buf = *u->addr;
		a = &buf;
	} else if (sock_is_inet(u)) {
		inet_address_any(u, &buf); /* unbound: the any address, port 0 */
		a = &buf;
	}
	mutex_unlock(&unix_lock);
	err = unix_address_put(a, uaddr, uaddr_len);
	file_put(f);
	return err;
}

SYSCALL3(getpeername, int, fd, void __user *, uaddr, int __user *, uaddr_len)
{
	struct unix_address buf;
	struct file *f;
	int err = sock_get(fd, &f);

	if (err)
		return err;
	struct unix_sock *u = f->private;
	if (sock_is_netlink(u)) { /* the destination, port 0 if none: never ENOTCONN */
		netlink_name(u, true, &buf);
		err = unix_address_put(&buf, uaddr, uaddr_len);
	} else if (READ_ONCE(u->state) != UNIX_CONNECTED)
		err = -ENOTCONN;
	else
		err = unix_address_put(peer_name(u, &buf), uaddr, uaddr_len);
	file_put(f);
	return err;
}

SYSCALL2(shutdown, int, fd, int, how)
{
	struct file *f;
	int err = sock_get(fd, &f);

	if (err)
		return err;
	struct unix_sock *u = f->private;
	err = sock_is_netlink(u) ? -EOPNOTSUPP
	      : sock_is_inet(u)	 ? inet_shutdown(u, how)
				 : unix_shutdown(u, how);
	file_put(f);
	return err;
}

SYSCALL5(getsockopt, int, fd, int, level, int, optname, void __user *, optval, int __user *, optlen)
{
	struct file *f;
	long err = sock_get(fd, &f);

	if (err)
		return err;
	err = unix_getsockopt(f->private, level, optname, optval, optlen);
	file_put(f);
	return err;
}

SYSCALL5(setsockopt, int, fd, int, level, int, optname, const void __user *, optval, int, optlen)
{
	struct file *f;
	long err = sock_get(fd, &f);

	if (err)
		return err;
	err = unix_setsockopt(f->private, level, optname, optval, optlen);
	file_put(f);
	return err;
}
