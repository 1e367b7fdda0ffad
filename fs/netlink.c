/*
 * netlink.c - AF_NETLINK sockets, as Linux's net/netlink/af_netlink.c
 * behaves for what programs use of it: a datagram socket whose usual peer
 * is the kernel. glibc's mq_notify(SIGEV_THREAD) listens on one (the
 * kernel sends the cookie: ipc/mqueue.c), and `ip link`, `ip addr` ask
 * NETLINK_ROUTE about the devices (fs/netlink_route.c); other protocols
 * are EPROTONOSUPPORT.
 *
 * A netlink socket is a datagram unix_sock (fs/unix.h), so receiving,
 * MSG_PEEK, MSG_TRUNC, poll, SO_RCVBUF and the other options are that
 * code's. Its name is a port id: bind picks one (EADDRINUSE if taken) or
 * lets the kernel choose, as the first send or connect does too: the
 * process's tgid if free, else a negative number, as Linux's
 * netlink_autobind. A send to port 0 goes to the kernel, which answers
 * at once on the sender's queue (its messages' cost counts as the
 * receiver's own sends: nothing else holds them). A send to another port
 * (root's alone, CAP_NET_ADMIN, as NETLINK_ROUTE allows no others) reaches
 * the socket bound there, waiting while that one's SO_RCVBUF is full.
 * Multicast groups are accepted in bind (NETLINK_ROUTE lets anyone join)
 * and never hear anything.
 */
#include "fs/inet.h"
#include "kernel/process/cred.h"
#include "kernel/process/task.h"
#include "kernel/lib/string.h"
#include "kernel/random.h"
#include "mm/kmalloc.h"

#define NL_ADDR_LEN ((u32)sizeof(struct kernel_sockaddr_nl))

static struct list_head nl_bound =
	LIST_HEAD_INIT(nl_bound); /* bound netlink sockets, by bound_link */

int
netlink_type(int base, int protocol)
{
	if (base != 3 && base != SOCK_DGRAM) /* SOCK_RAW or SOCK_DGRAM, the same */
		return -ESOCKTNOSUPPORT;
	if (protocol != NETLINK_ROUTE) /* 0..31 are Linux's; rewind serves one */
		return -EPROTONOSUPPORT;
	return SOCK_DGRAM;
}

int
netlink_address_get(const void __user *uaddr, int len, struct unix_address *a)
{
	if (len < (int)NL_ADDR_LEN)
		return -EINVAL;
	if (copy_from_user(&a->snl, uaddr, NL_ADDR_LEN))
		return -EFAULT;
	a->len = NL_ADDR_LEN;
	return a->snl.nl_family == AF_NETLINK ? 0 : -EINVAL;
}

/* The socket of u's protocol bound to portid, or NULL. unix_lock held. */
static struct unix_sock *
nl_lookup(const struct unix_sock *u, u32 portid)
{
	struct list_head *e;

	list_for_each(e, &nl_bound) {
		struct unix_sock *s = list_entry(e, struct unix_sock, bound_link);
		if (s->nl.protocol == u->nl.protocol && s->nl.portid == portid)
			return s;
	}
	return NULL;
}

/* Binds u to portid with groups: unix_lock held. */
static int
nl_insert(struct unix_sock *u, u32 portid, u32 groups)
{
	if (nl_lookup(u, portid))
		return -EADDRINUSE;
	u->addr = kzalloc(sizeof(*u->addr));
	if (!u->addr)
		return -ENOMEM;
	u->addr->len = NL_ADDR_LEN;
	u->addr->snl.nl_family = AF_NETLINK;
	u->addr->snl.nl_pid = portid;
	u->addr->snl.nl_groups = groups;
	u->nl.portid = portid;
	list_add_tail(&u->bound_link, &nl_bound);
	return 0;
}

/* A port id for u if it has none: the tgid, else a free negative number. unix_lock held. */
static int
nl_autobind(struct unix_sock *u)
{
	s32 portid = current()->tgid;
	u16 start;

	if (u->addr)
		return 0;
	get_random_bytes(&start, sizeof(start));
	for (s32 rover = -4097 - start; nl_lookup(u, (u32)portid);)
		portid = rover--;
	return nl_insert(u, (u32)portid, 0);
}

int
netlink_bind(struct unix_sock *u, const struct unix_address *a)
{
	int err = 0;

	if (mutex_lock_killable(&unix_lock))
		return -EINTR;
	if (u->addr) {
		if (a->snl.nl_pid != u->nl.portid)
			err = -EINVAL;
		else
			u->addr->snl.nl_groups = a->snl.nl_groups;
	} else if (a->snl.nl_pid) {
		err = nl_insert(u, a->snl.nl_pid, a->snl.nl_groups);
	} else if (!(err = nl_autobind(u))) {
		u->addr->snl.nl_groups = a->snl.nl_groups;
	}
	mutex_unlock(&unix_lock);
	return err;
}

int
netlink_connect(struct unix_sock *u, const void __user *uaddr, int len)
{
	struct unix_address addr, *a = &addr;
	int err = 0;

	if (len < (int)sizeof(u16))
		return -EINVAL;
	if (copy_from_user(&a->snl.nl_family, uaddr, sizeof(u16)))
		return -EFAULT;
	if (a->snl.nl_family != AF_UNSPEC && (err = netlink_address_get(uaddr, len, a)))
		return err;
	if (mutex_lock_killable(&unix_lock))
		return -EINTR;
	if (a->snl.nl_family == AF_UNSPEC) {
		u->nl.dst_portid = 0;
		u->state = UNIX_UNCONNECTED;
	} else if (!(err = nl_autobind(u))) {
		u->nl.dst_portid = a->snl.nl_pid;
		u->state = UNIX_CONNECTED;
	}
	mutex_unlock(&unix_lock);
	return err;
}

void
netlink_name(struct unix_sock *u, bool peer, struct unix_address *a)
{
	*a = (struct unix_address){ .len = NL_ADDR_LEN, .snl.nl_family = AF_NETLINK };
	mutex_lock(&unix_lock);
	if (peer)
		a->snl.nl_pid = u->nl.dst_portid;
	else if (u->addr)
		*a = *u->addr;
	mutex_unlock(&unix_lock);
}

/* Queues a message of len bytes at data with cred on to, sent by from. unix_lock held. */
static int
nl_enqueue(struct unix_sock *to, struct unix_sock *from, const void *data, u32 len,
	   struct kernel_ucred cred)
{
	struct unix_msg *msg = kzalloc(sizeof(*msg) + len);

	if (!msg)
		return -ENOMEM;
	memcpy(msg->data, data, len);
	msg->len = len;
	msg->cred = cred;
	msg->sender = from;
	unix_sock_get(from);
	unix_wmem_add(from, (s64)(len + MSG_OVERHEAD));
	list_add_tail(&msg->link, &to->queue);
	to->qlen++;
	to->rmem += len + MSG_OVERHEAD;
	wake_up_all(&to->wq);
	kill_fasync(&to->fasync, POLL_IN);
	return 0;
}

int
netlink_deliver(struct unix_sock *u, const void *data, u32 len)
{
	struct kernel_ucred kernel = { .pid = 0, .uid = 0, .gid = 0 };

	if (u->dead)
		return 0; /* no one to hear it */
	return nl_enqueue(u, u, data, len, kernel);
}

struct nl_room_wait {
	struct unix_sock *to;
};

static bool
nl_has_room(void *arg)
{
	struct nl_room_wait *w = arg;

	return w->to->dead || w->to->rmem <= w->to->rcvbuf;
}

/* A message from u to the socket at portid: ECONNREFUSED if none, waits for its SO_RCVBUF. */
static long
nl_send_to_user(struct unix_sock *u, u32 portid, const char *buf, u32 len, bool nonblock)
{
	struct nl_room_wait w = { nl_lookup(u, portid) };

	if (!w.to)
		return -ECONNREFUSED;
	unix_sock_get(w.to);
	long err = unix_wait(&w.to->wq, nl_has_room, &w, nonblock, u->sndtimeo, NULL);
	if (!err)
		err = w.to->dead ? -ECONNREFUSED
				 : nl_enqueue(w.to, u, buf, len, unix_current_cred());
	unix_sock_put(w.to);
	return err;
}

long
netlink_send(struct unix_sock *u, struct unix_msg_args *m)
{
	u32 dst = u->nl.dst_portid;

	if (m->flags & MSG_OOB)
		return -EOPNOTSUPP;
	if (m->has_name) {
		dst = m->name->snl.nl_pid;
		if ((dst || m->name->snl.nl_groups) && !capable(CAP_NET_ADMIN))
			return -EPERM; /* NETLINK_ROUTE's users talk to the kernel alone */
	}
	if (m->total > u->sndbuf - 32)
		return -EMSGSIZE;
	char *buf = kmalloc(m->total ? m->total : 1);
	if (!buf)
		return -ENOMEM;
	long err = 0;
	for (int i = 0, off = 0; i < m->iovcnt && !err; off += (int)m->iov[i++].iov_len)
		if (copy_from_user(buf + off, m->iov[i].iov_base, m->iov[i].iov_len))
			err = -EFAULT;
	if (!err && mutex_lock_killable(&unix_lock))
		err = -EINTR;
	if (!err) {
		err = nl_autobind(u);
		if (!err && dst)
			err = nl_send_to_user(u, dst, buf, (u32)m->total,
					      m->nonblock || (m->flags & MSG_DONTWAIT));
		else if (!err)
			rtnetlink_receive(u, buf, (u32)m->total);
		mutex_unlock(&unix_lock);
	}
	kfree(buf);
	return err ? err : (long)m->total;
}

struct unix_sock *
netlink_sock_of_file(struct file *f, int *err)
{
	struct unix_sock *u = unix_sock_of_file(f);

	*err = !u ? -ENOTSOCK : !sock_is_netlink(u) ? -EINVAL : 0;
	if (*err)
		return NULL;
	unix_sock_get(u);
	return u;
}

void
netlink_notify(struct unix_sock *u, const void *data, u32 len)
{
	mutex_lock(&unix_lock);
	if (data)
		netlink_deliver(u, data, len);
	unix_sock_put(u);
	mutex_unlock(&unix_lock);
}
