/*
 * unix_sock.c - AF_UNIX sockets: their life and their connections, as
 * Linux's net/unix/af_unix.c has them.
 *
 * A stream or seqpacket connect makes a new socket on the listener's side
 * at once, connected to the caller, and queues it on the listener; accept
 * hands it out. Data sent before the accept waits in its queue. A
 * connection ends half by half (shutdown) or with a close: the peer then
 * reads what is left and end of file, and its sends fail with EPIPE. A
 * datagram socket's connect only names its default destination.
 *
 * What a socket has queued at its peers (wmem, bounded by SO_SNDBUF) is
 * charged in pages to its creator's user and process as a pipe's buffer
 * is (fs/pipe_accounting.c, mm/oom_kill.c), so sockets cannot hold more
 * kernel memory than pipes could.
 */
#include "fs/unix.h"
#include "kernel/process/cred.h"
#include "kernel/sched/sched.h"
#include "kernel/time/tsc.h"
#include "mm/kmalloc.h"
#include "mm/layout.h"
#include "mm/oom_kill.h"

struct mutex unix_lock = MUTEX_INIT(unix_lock, "unix");

struct kernel_ucred
unix_current_cred(void)
{
	return (struct kernel_ucred){ .pid = current()->tgid,
				      .uid = current_uids().effective,
				      .gid = current_gids().effective };
}

struct unix_sock *
unix_sock_alloc(int family, int type)
{
	struct unix_sock *u = kzalloc(sizeof(*u));

	if (!u)
		return NULL;
	u->charge = mem_charge_current();
	if (!u->charge) {
		kfree(u);
		return NULL;
	}
	u->refcount = 1;
	u->family = family;
	u->type = type;
	u->sndbuf = SOCK_BUF_DEFAULT;
	u->rcvbuf = SOCK_BUF_DEFAULT;
	u->peek_off = -1;
	u->cred = unix_current_cred();
	u->account = (struct pipe_account){ .user = USER_CHARGE(current_uids().real) };
	list_init(&u->queue);
	list_init(&u->pending_link);
	list_init(&u->bound_link);
	list_init(&u->inet_link);
	list_init(&u->gc_link);
	wait_queue_init(&u->wq);
	list_init(&u->fasync);
	mutex_init(&u->iolock, "unix_iolock");
	return u;
}

void
unix_sock_get(struct unix_sock *u)
{
	__atomic_add_fetch(&u->refcount, 1, __ATOMIC_RELAXED);
}

/* The last reference: what it queued is gone already (each message held one), its name too. */
void
unix_sock_put(struct unix_sock *u)
{
	if (__atomic_sub_fetch(&u->refcount, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	if (u->peer)
		unix_sock_put(u->peer);
	mem_charge_put(u->charge);
	kfree(u->inet.dest);
	kfree(u->addr);
	kfree(u);
}

static u64
pages_of(u64 bytes)
{
	return (bytes + PAGE_SIZE - 1) / PAGE_SIZE;
}

void
unix_wmem_add(struct unix_sock *u, s64 delta)
{
	s64 pages = (s64)pages_of(u->wmem + (u64)delta) - (s64)pages_of(u->wmem);

	u->wmem += (u64)delta;
	if (pages) {
		pipe_account_add(&u->account, pages);
		mem_charge_add(u->charge, pages);
	}
}

int
unix_wait(struct wait_queue *q, bool (*ready)(void *arg), void *arg, bool nonblock, u64 timeo,
	  struct mutex *iolock)
{
	u64 deadline = timeo ? ns_since_boot() + timeo : 0;

	for (;;) {
		WAIT_ENTRY(we);
		prepare_to_wait(q, &we); /* before the test: no lost wake-up */
		int err = 0;
		u64 now = deadline ? ns_since_boot() : 0;
		if (ready(arg))
			err = 1;
		else if (nonblock || (deadline && now >= deadline))
			err = -EAGAIN;
		else if (task_interrupted())
			err = timeo ? -EINTR : -ERESTARTSYS;
		if (err) {
			finish_wait(q, &we);
			return err > 0 ? 0 : err;
		}
		mutex_unlock(&unix_lock);
		if (iolock)
			mutex_unlock(
				iolock); /* another reader may take what is there, or not wait */
		if (deadline)
			schedule_timeout_ns(deadline - now);
		else
			schedule();
		finish_wait(q, &we);
		err = iolock ? mutex_lock_killable(iolock) : 0;
		mutex_lock(&unix_lock); /* its holders never sleep: a short wait */
		if (err)
			return -EINTR; /* a fatal signal: the iolock is not held */
	}
}

/* a now stands for b's other end; b took a's credentials for SO_PEERCRED. */
static void
unix_link_peer(struct unix_sock *a, struct unix_sock *b, struct kernel_ucred cred)
{
	unix_sock_get(b);
	a->peer = b;
	a->state = UNIX_CONNECTED;
	b->peercred = cred;
	b->has_peercred = true;
}

void
unix_pair(struct unix_sock *a, struct unix_sock *b)
{
	unix_link_peer(a, b, a->cred);
	unix_link_peer(b, a, b->cred);
}

/* ---- connecting -------------------------------------------------------------- */

/* A listener with room for one more connection, or one no longer listening (checked after). */
static bool
listener_has_room(void *arg)
{
	struct unix_sock *l = arg;

	return l->dead || l->state != UNIX_LISTENING || l->qlen <= l->backlog;
}

int
unix_connect_stream(struct unix_sock *u, struct unix_sock *l, bool nonblock)
{
	if (u->state == UNIX_CONNECTED)
		return -EISCONN;
	if (u->state == UNIX_LISTENING)
		return -EINVAL;
	int err = unix_wait(&l->wq, listener_has_room, l, nonblock, u->sndtimeo, NULL);
	if (err)
		return err;
	if (l->dead || l->state != UNIX_LISTENING || (l->shutdown & RCV_SHUTDOWN))
		return -ECONNREFUSED;
	if (u->state != UNIX_UNCONNECTED) /* another thread connected it while we slept */
		return u->state == UNIX_CONNECTED ? -EISCONN : -EINVAL;
	struct unix_sock *n = unix_sock_alloc(l->family, u->type);
	if (!n)
		return -ENOMEM;
	n->inet = l->inet; /* an accepted TCP socket inherits the listener's options */
	if (l->addr) {
		n->addr = kmalloc(sizeof(*n->addr));
		if (!n->addr) {
			unix_sock_put(n);
			return -ENOMEM;
		}
		*n->addr = *l->addr; /* getsockname on the accepted socket: the listener's name */
	}
	n->cred = l->cred;	       /* the accepted end stands for the listener */
	unix_link_peer(u, n, u->cred); /* the accepted end sees the connector's credentials */
	unix_link_peer(n, u, n->cred); /* and the connector the listener's */
	list_add_tail(&n->pending_link, &l->queue); /* the queue's reference: n's own */
	l->qlen++;
	wake_up_all(&l->wq);
	kill_fasync(&l->fasync, POLL_IN); /* a connection to accept */
	return 0;
}

/* A datagram socket's default destination becomes d (NULL: none), as Linux's unix_dgram_connect. */
static void
connect_dgram(struct unix_sock *u, struct unix_sock *d)
{
	struct unix_sock *old = u->peer;

	u->peer = d;
	u->state = d ? UNIX_CONNECTED : UNIX_UNCONNECTED;
	if (d)
		unix_sock_get(d);
	if (old) {
		wake_up_all(&old->wq);
		unix_sock_put(old);
	}
}

int
unix_connect(struct unix_sock *u, const struct unix_address *to, bool nonblock)
{
	struct unix_sock *target = NULL;

	if (to->sun.sun_family == AF_UNSPEC && u->type == SOCK_DGRAM) {
		mutex_lock(&unix_lock);
		connect_dgram(u, NULL);
		mutex_unlock(&unix_lock);
		return 0;
	}
	if (to->sun.sun_family != AF_UNIX)
		return -EINVAL;
	int err = unix_find(to, u->type, &target);
	if (err)
		return err;
	if (mutex_lock_killable(&unix_lock)) {
		unix_sock_put(target);
		return -EINTR;
	}
	if (u->passcred && !u->addr)
		err = unix_autobind(u);
	if (err)
		;
	else if (u->type != SOCK_DGRAM)
		err = unix_connect_stream(u, target, nonblock);
	else if (target->dead)
		err = -ECONNREFUSED;
	else if (target->peer && target->peer != u && target != u)
		err = -EPERM; /* it is connected elsewhere: it takes nothing from us */
	else
		connect_dgram(u, target);
	unix_sock_put(target);
	mutex_unlock(&unix_lock);
	return err;
}

int
unix_listen(struct unix_sock *u, int backlog)
{
	int err = 0;

	if (u->type == SOCK_DGRAM)
		return -EOPNOTSUPP;
	if (mutex_lock_killable(&unix_lock))
		return -EINTR;
	if (!u->addr || u->state == UNIX_CONNECTED)
		err = -EINVAL;
	else {
		/* Linux's __sys_listen: above somaxconn (or negative, seen unsigned) is somaxconn. */
		u->backlog = (unsigned)backlog > SOMAXCONN ? SOMAXCONN : (u32)backlog;
		u->state = UNIX_LISTENING;
		u->cred = unix_current_cred(); /* what connectors' SO_PEERCRED shows */
		wake_up_all(&u->wq);	       /* connectors waiting for room */
	}
	mutex_unlock(&unix_lock);
	return err;
}

static bool
has_pending(void *arg)
{
	struct unix_sock *l = arg;

	return l->qlen || l->state != UNIX_LISTENING || (l->shutdown & RCV_SHUTDOWN);
}

int
unix_accept(struct unix_sock *u, bool nonblock, struct unix_sock **out)
{
	if (u->type == SOCK_DGRAM)
		return -EOPNOTSUPP;
	if (mutex_lock_killable(&unix_lock))
		return -EINTR;
	int err = u->state == UNIX_LISTENING ? 0 : -EINVAL;
	if (!err)
		err = unix_wait(&u->wq, has_pending, u, nonblock, u->rcvtimeo, NULL);
	if (!err && !u->qlen)
		err = -EINVAL; /* shut down or no longer listening while we slept */
	if (!err) {
		struct unix_sock *n = list_first_entry(&u->queue, struct unix_sock, pending_link);
		list_del(&n->pending_link);
		u->qlen--;
		*out = n;
		wake_up_all(&u->wq); /* room for a waiting connector */
	}
	mutex_unlock(&unix_lock);
	return err;
}

/* The other end of a connection hears that this side shut down how (SHUT_RD/WR/RDWR + 1 bits). */
static void
tell_peer(struct unix_sock *u, u32 mode)
{
	struct unix_sock *p = u->peer;

	if (!p || u->type == SOCK_DGRAM)
		return;
	if (mode & RCV_SHUTDOWN)
		p->shutdown |= SEND_SHUTDOWN;
	if (mode & SEND_SHUTDOWN)
		p->shutdown |= RCV_SHUTDOWN;
	wake_up_all(&p->wq);
	/* Its reader sees the end of the stream: POLL_HUP if it can no longer send either. */
	if (mode & SEND_SHUTDOWN)
		kill_fasync(&p->fasync, mode & RCV_SHUTDOWN ? POLL_HUP : POLL_IN);
}

int
unix_shutdown(struct unix_sock *u, int how)
{
	if (how < SHUT_RD || how > SHUT_RDWR)
		return -EINVAL;
	u32 mode = (u32)how + 1; /* SHUT_RD -> RCV_SHUTDOWN, SHUT_WR -> SEND_SHUTDOWN, both */
	if (mutex_lock_killable(&unix_lock))
		return -EINTR;
	u->shutdown |= mode;
	tell_peer(u, mode);
	wake_up_all(&u->wq);
	mutex_unlock(&unix_lock);
	return 0;
}

/* Takes u's received messages onto out (to free without the lock); their senders get them back. */
static void
take_queue(struct unix_sock *u, struct list_head *out)
{
	while (!list_empty(&u->queue)) {
		struct unix_msg *msg = list_first_entry(&u->queue, struct unix_msg, link);
		unix_msg_dequeue(u, msg);
		list_add_tail(&msg->link, out);
	}
}

/*
 * u goes away as Linux's unix_release_sock: its peer sees both halves shut
 * (ECONNRESET too if data was left unread here), connections it never
 * accepted go the same way, its name is free again. unix_lock held; the
 * messages and nodes to free after are added to msgs and nodes.
 */
static void
unix_close(struct unix_sock *u, struct list_head *msgs, struct inode **node)
{
	u->dead = true;
	u->shutdown = SHUTDOWN_MASK;
	list_del(&u->inet_link); /* out of /proc/net (a socket never listed links to itself) */
	list_init(&u->inet_link);
	unix_unbind(u, node);
	struct unix_sock *p = u->peer;
	if (p && u->type != SOCK_DGRAM) {
		p->shutdown = SHUTDOWN_MASK;
		if (!list_empty(&u->queue))
			p->error = ECONNRESET;
	}
	if (p) {
		/* The peer keeps pointing here: it must see this side dead, not unconnected. */
		u->peer = NULL;
		wake_up_all(&p->wq);
		if (u->type != SOCK_DGRAM)
			kill_fasync(&p->fasync, POLL_HUP);
		unix_sock_put(p);
	}
	if (u->state == UNIX_LISTENING) {
		while (!list_empty(&u->queue)) {
			struct unix_sock *n =
				list_first_entry(&u->queue, struct unix_sock, pending_link);
			list_del(&n->pending_link);
			struct inode *unused = NULL;
			unix_close(n, msgs, &unused);
			unix_sock_put(n);
		}
		u->qlen = 0;
	}
	take_queue(u, msgs);
	wake_up_all(&u->wq);
}

void
unix_release(struct unix_sock *u)
{
	struct list_head msgs;
	struct inode *node = NULL;

	list_init(&msgs);
	mutex_lock(&unix_lock);
	unix_close(u, &msgs, &node);
	mutex_unlock(&unix_lock);
	unix_msgs_notinflight(&msgs);
	unix_msgs_free(&msgs); /* files in flight may be sockets: without the lock */
	if (node)
		inode_put(node);
	mutex_lock(&unix_lock);
	unix_sock_put(u);
	mutex_unlock(&unix_lock);
	unix_gc(); /* this socket may have been the last way into a ring of them */
}
