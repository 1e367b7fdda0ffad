/*
 * unix_io.c - moving data between AF_UNIX sockets, as Linux's
 * unix_stream_sendmsg/unix_dgram_sendmsg and their recvmsg.
 *
 * A send copies the caller's bytes into messages on the receiver's queue
 * (a stream splits a large write; a datagram or seqpacket record is one
 * message, at most SO_SNDBUF - 32 bytes, else EMSGSIZE). The sender waits
 * while what it has queued (wmem) is at its SO_SNDBUF, and a datagram
 * sender also while a receiver not connected back to it holds more than
 * max_dgram_qlen (10) messages. A stream reader takes bytes across
 * messages (up to one carrying files); a datagram or seqpacket reader
 * takes one message, the rest of it lost (MSG_TRUNC says so).
 *
 * A stream carries one urgent byte at a time, as Linux's AF_UNIX since
 * 5.15: send(MSG_OOB) queues its last byte as a message of its own and
 * marks it (a newer one takes the mark, the older byte stays as data).
 * The receiver's owner (F_SETOWN) gets SIGURG. Reads stop at the mark;
 * recv(MSG_OOB) takes the byte out of band; a read that reaches it first
 * drops it, unless SO_OOBINLINE keeps it in the stream (then MSG_OOB is
 * EINVAL).
 *
 * TCP and UDP sockets (fs/inet_sock.c) move their data here too: TCP as a
 * stream, UDP as datagrams that never make their sender wait - one that
 * finds no receiver, or its receiver's SO_RCVBUF full, is dropped.
 */
#include "fs/inet.h"
#include "kernel/lib/string.h"
#include "kernel/process/cred.h"
#include "kernel/signal/signal.h"
#include "mm/kmalloc.h"

#define STREAM_CHUNK 65536u /* the most one stream message carries (Linux's SKB_MAX_ALLOC order) */

/* Copies n bytes at offset off of the iovec m from or to buf: 0 or -EFAULT. */
static int
iov_copy(const struct unix_msg_args *m, size_t off, char *buf, size_t n, bool to_user)
{
	for (int i = 0; i < m->iovcnt && n; i++) {
		size_t len = m->iov[i].iov_len;
		if (off >= len) {
			off -= len;
			continue;
		}
		size_t part = MIN(n, len - off);
		char __user *at = (char __user *)m->iov[i].iov_base + off;
		if (to_user ? copy_to_user(at, buf, part) : copy_from_user(buf, at, part))
			return -EFAULT;
		buf += part;
		n -= part;
		off = 0;
	}
	return 0;
}

/* What sending msg costs its sender. */
static u64
msg_cost(const struct unix_msg *msg)
{
	return msg->len + MSG_OVERHEAD;
}

static void
msg_free(struct unix_msg *msg)
{
	for (u32 i = 0; i < msg->nfiles; i++)
		file_put(msg->files[i]);
	kfree(msg->files);
	kfree(msg);
}

void
unix_msgs_free(struct list_head *msgs)
{
	while (!list_empty(msgs)) {
		struct unix_msg *msg = list_first_entry(msgs, struct unix_msg, link);
		list_del(&msg->link);
		msg_free(msg);
	}
}

void
unix_msg_dequeue(struct unix_sock *u, struct unix_msg *msg)
{
	struct unix_sock *s = msg->sender;

	list_del(&msg->link);
	if (u->oob_msg == msg)
		u->oob_msg = NULL;
	u->qlen--;
	u->rmem -= msg_cost(msg);
	unix_wmem_add(s, -(s64)msg_cost(msg));
	wake_up_all(&s->wq);
	wake_up_all(&u->wq); /* a datagram sender waiting for the queue to shorten */
	if (s->async_nospace && unix_writable(s)) { /* room again for a sender that had none */
		s->async_nospace = false;
		kill_fasync(&s->fasync, POLL_OUT);
	}
	unix_sock_put(s);
}

/* ---- sending ---------------------------------------------------------------------- */

struct send_state {
	struct unix_sock *u, *to; /* the sender and the receiver (referenced) */
	u64 need;		  /* the cost of the next message */
};

/* The wmem limit: SO_SNDBUF, or two pages once the user holds more than the soft limit. */
static u64
sndbuf_limit(struct unix_sock *u)
{
	if (pipe_user_unprivileged() && pipe_user_over_soft(pipe_account_add(&u->account, 0)))
		return MIN(u->sndbuf, PIPE_MIN_DEF_PAGES * PAGE_SIZE);
	return u->sndbuf;
}

static bool
receiver_gone(const struct unix_sock *u, const struct unix_sock *to)
{
	return to->dead || (u->type != SOCK_DGRAM && (to->shutdown & RCV_SHUTDOWN));
}

/* A datagram receiver not connected back to the sender takes at most max_dgram_qlen. */
static bool
receiver_full(const struct unix_sock *u, const struct unix_sock *to)
{
	return u->type == SOCK_DGRAM && to != u && to->peer != u && to->qlen > MAX_DGRAM_QLEN;
}

static bool
can_send(void *arg)
{
	struct send_state *s = arg;

	if ((s->u->shutdown & SEND_SHUTDOWN) || receiver_gone(s->u, s->to))
		return true; /* the caller finds out */
	if (sock_is_udp(s->u))
		return true; /* lo frees a datagram's cost to its sender at once */
	/* One message always goes into an empty budget, as Linux's sock_alloc_send_pskb. */
	return (s->u->wmem == 0 || s->u->wmem + s->need <= sndbuf_limit(s->u)) &&
	       !receiver_full(s->u, s->to);
}

/*
 * A message of n bytes from offset off of the caller's buffers, or NULL
 * with -errno in *err. Built before unix_lock is taken: the copy may fault
 * and sleep (behind the sender's mmap lock, or a userfaultfd handler that
 * never answers), and no other socket may wait for that.
 */
static struct unix_msg *
msg_build(const struct unix_msg_args *m, size_t off, u32 n, int *err)
{
	struct unix_msg *msg = kmalloc(sizeof(*msg) + n);

	*err = -ENOMEM;
	if (!msg)
		return NULL;
	*err = -EFAULT;
	if (iov_copy(m, off, msg->data, n, false)) {
		kfree(msg);
		return NULL;
	}
	msg->len = n;
	msg->off = 0;
	msg->nfiles = 0;
	msg->files = NULL;
	return msg;
}

/*
 * Queues msg at the receiver once the sender has room, with scm's files
 * and credentials: 0, 1 if a UDP datagram was dropped, or -errno (the
 * caller frees msg unless 0). unix_lock held.
 */
static int
send_one(struct send_state *s, struct unix_msg_args *m, struct unix_msg *msg, struct unix_scm *scm)
{
	struct unix_sock *u = s->u, *to = s->to;

	s->need = msg->len + MSG_OVERHEAD;
	if (!can_send(s))
		u->async_nospace = true; /* its O_ASYNC owner hears when room comes */
	int err = unix_wait(&u->wq, can_send, s, m->nonblock || (m->flags & MSG_DONTWAIT),
			    u->sndtimeo, NULL);
	if (err)
		return err;
	if (sock_is_udp(u) && (to->dead || to->rmem > to->rcvbuf))
		return 1; /* dropped, as Linux's __udp_enqueue_schedule_skb */
	if ((u->shutdown & SEND_SHUTDOWN) || receiver_gone(u, to))
		return u->type == SOCK_DGRAM && !(u->shutdown & SEND_SHUTDOWN) ? -ECONNREFUSED
									       : -EPIPE;
	msg->cred = scm->cred;
	msg->nfiles = scm->nfiles;
	msg->files = scm->files;
	scm->nfiles = 0; /* the message holds them now */
	scm->files = NULL;
	msg->sender = u;
	unix_sock_get(u);
	unix_wmem_add(u, (s64)msg_cost(msg));
	list_add_tail(&msg->link, &to->queue);
	to->qlen++;
	to->rmem += msg_cost(msg);
	wake_up_all(&to->wq);
	kill_fasync(&to->fasync, POLL_IN);
	return 0;
}

/* A datagram to a destination that is gone: a connected socket forgets it (Linux). */
static void
forget_dead_peer(struct unix_sock *u, struct unix_sock *to)
{
	if (u->peer == to && to->dead) {
		u->peer = NULL;
		u->state = UNIX_UNCONNECTED;
		unix_sock_put(to);
	}
}

/* A stream's urgent byte msg, just queued, takes the mark (an older one becomes data). */
static void
mark_urgent(struct unix_sock *to, struct unix_msg *msg)
{
	to->oob_msg = msg;
	if (!to->dead && to->file)
		file_signal_owner(to->file, SIGURG); /* Linux's sk_send_sigurg */
}

/*
 * Builds and sends one message of n bytes from offset off (the stream's
 * urgent byte if urgent): 0 or -errno. Takes unix_lock only to queue it.
 */
static int
send_msg(struct send_state *s, struct unix_msg_args *m, size_t off, u32 n, struct unix_scm *scm,
	 bool urgent)
{
	int err;
	struct unix_msg *msg = msg_build(m, off, n, &err);

	if (!msg)
		return err;
	if (mutex_lock_killable(&unix_lock)) {
		kfree(msg);
		return -EINTR;
	}
	err = send_one(s, m, msg, scm);
	if (!err && urgent)
		mark_urgent(s->to, msg);
	if (err == -ECONNREFUSED)
		forget_dead_peer(s->u, s->to);
	mutex_unlock(&unix_lock);
	if (err)
		kfree(msg);
	return err > 0 ? 0 : err;
}

/*
 * A TCP send's first checks, as Linux's tcp_sendmsg: an error the
 * connection had (ECONNRESET), then EPIPE if it is not connected. The
 * first send after the peer closed goes out and is lost (1): the peer's
 * reset answers it, and only the sends after it fail with EPIPE.
 */
static int
tcp_send_check(struct unix_sock *u)
{
	int err = 0;

	if (mutex_lock_killable(&unix_lock))
		return -EINTR;
	if (u->error) {
		err = -u->error;
		u->error = 0;
		u->inet.epipe = true;
	} else if (u->state != UNIX_CONNECTED)
		err = -EPIPE;
	else if (u->peer && u->peer->dead && !u->inet.epipe) {
		u->inet.epipe = true;
		err = 1;
	}
	mutex_unlock(&unix_lock);
	return err;
}

/*
 * The receiver of a send (referenced): the peer, or the datagram
 * destination named; NULL with 0 for a UDP datagram that is lost.
 */
static int
send_target(struct unix_sock *u, struct unix_msg_args *m, struct unix_sock **to)
{
	if (sock_is_udp(u))
		return inet_dgram_target(u, m, to);
	if (sock_is_inet(u)) {
		*to = NULL;
		int err = tcp_send_check(u);
		if (err)
			return err > 0 ? 0 : err;
	}
	if (u->type != SOCK_DGRAM) {
		if (m->has_name && u->type == SOCK_STREAM)
			return u->state == UNIX_CONNECTED ? -EISCONN : -EOPNOTSUPP;
		if (u->state != UNIX_CONNECTED)
			return -ENOTCONN;
	}
	if (m->has_name && u->type == SOCK_DGRAM)
		return unix_find(m->name, SOCK_DGRAM, to);
	if (mutex_lock_killable(&unix_lock))
		return -EINTR;
	*to = u->peer;
	if (*to)
		unix_sock_get(*to);
	mutex_unlock(&unix_lock);
	if (!*to)
		return u->type == SOCK_STREAM ? -EPIPE : -ENOTCONN;
	return 0;
}

/* The messages of a send, one at a time (unix_lock NOT held): bytes sent, or -errno. */
static long
send_msgs(struct send_state *s, struct unix_msg_args *m, struct unix_scm *scm)
{
	struct unix_sock *u = s->u;

	if (u->type != SOCK_STREAM) {
		if (!sock_is_udp(u) && m->total > u->sndbuf - 32)
			return -EMSGSIZE;
		int err = send_msg(s, m, 0, (u32)m->total, scm, false);
		return err ? err : (long)m->total;
	}
	/*
	 * No bytes, no message (Linux's unix_stream_sendmsg): an empty one
	 * makes the reader's queue look non-empty with no byte in it, and a
	 * MSG_PEEK read then spun, deaf to SIGKILL.
	 */
	if (!m->total)
		return (u->shutdown & SEND_SHUTDOWN) ? -EPIPE : 0;
	bool oob = m->flags & MSG_OOB;
	size_t done = 0, body = m->total - oob; /* MSG_OOB: the last byte goes on its own */
	while (done < body) {
		u32 n = (u32)MIN(body - done, MIN(STREAM_CHUNK, u->sndbuf / 2 - 64));
		int err = send_msg(s, m, done, n, scm, false);
		if (err)
			return done ? (long)done : err;
		done += n;
	}
	if (oob) {
		int err = send_msg(s, m, done, 1, scm, true);
		if (err)
			return done ? (long)done : err;
		done++;
	}
	return (long)done;
}

/*
 * A send that goes out to nobody (a UDP datagram no socket hears, TCP's
 * last to a closed peer) still reads the caller's bytes, as Linux builds
 * the packet first: EFAULT for a bad buffer. A stream's takes at most
 * SO_SNDBUF of them.
 */
static long
send_lost(struct unix_sock *u, struct unix_msg_args *m)
{
	size_t n = u->type == SOCK_STREAM ? MIN(m->total, (size_t)u->sndbuf) : m->total;
	char *chunk = kmalloc(PAGE_SIZE);

	if (!chunk)
		return -ENOMEM;
	int err = 0;
	for (size_t off = 0; off < n && !err; off += PAGE_SIZE)
		err = iov_copy(m, off, chunk, MIN(n - off, PAGE_SIZE), false);
	kfree(chunk);
	return err ? err : (long)n;
}

/* A datagram sender unnamed gets a name when its receiver would learn who sent, as Linux. */
static int
sender_autobind(struct unix_sock *u, struct unix_sock *to)
{
	if (u->type != SOCK_DGRAM || sock_is_inet(u) || !(u->passcred || to->passcred))
		return 0;
	if (mutex_lock_killable(&unix_lock))
		return -EINTR;
	int err = u->addr ? 0 : unix_autobind(u);
	mutex_unlock(&unix_lock);
	return err;
}

long
unix_send(struct unix_sock *u, struct unix_msg_args *m)
{
	struct unix_scm scm;
	struct send_state s = { .u = u };

	if (sock_is_netlink(u))
		return netlink_send(u, m);
	if ((m->flags & MSG_OOB) && (u->type != SOCK_STREAM || !m->total))
		return -EOPNOTSUPP; /* only a stream has urgent data, and it needs a byte */
	if (sock_is_udp(u) && m->total > inet_dgram_max(u))
		return -EMSGSIZE;
	int err = unix_scm_get(m->control, m->controllen, &scm);
	if (err)
		return err;
	err = send_target(u, m, &s.to);
	if (err) {
		unix_scm_drop(&scm);
		if (err == -EPIPE && !(m->flags & MSG_NOSIGNAL))
			signal_send_self(SIGPIPE);
		return err;
	}
	if (!s.to) {
		unix_scm_drop(&scm);
		return send_lost(u, m);
	}
	long ret = sender_autobind(u, s.to);
	if (!ret)
		ret = send_msgs(&s, m, &scm);
	unix_sock_put(s.to);
	unix_scm_drop(&scm);
	if (ret == -EPIPE && !(m->flags & MSG_NOSIGNAL))
		signal_send_self(SIGPIPE);
	return ret;
}

bool
unix_writable(struct unix_sock *u)
{
	struct unix_sock *p = u->peer;

	if (u->state == UNIX_LISTENING)
		return false;
	if (sock_is_udp(u))
		return true; /* its datagrams cost it nothing once sent */
	if (p && receiver_full(u, p))
		return false;
	return u->wmem * 4 <= u->sndbuf; /* Linux's unix_writable */
}

/* ---- receiving -------------------------------------------------------------------- */

/* Bytes queued for u's reader, what stream readers took already aside. */
static u64
queued_bytes(struct unix_sock *u)
{
	u64 n = 0;

	for (struct list_head *e = u->queue.next; e != &u->queue; e = e->next) {
		struct unix_msg *msg = list_entry(e, struct unix_msg, link);
		n += msg->len - msg->off;
	}
	return n;
}

long
unix_inq_len(struct unix_sock *u)
{
	if (u->state == UNIX_LISTENING)
		return -EINVAL;
	if (u->type != SOCK_DGRAM)
		return (long)queued_bytes(u);
	return list_empty(&u->queue) ? 0 : list_first_entry(&u->queue, struct unix_msg, link)->len;
}

bool
unix_at_mark(struct unix_sock *u)
{
	return u->oob_msg && list_first_entry(&u->queue, struct unix_msg, link) == u->oob_msg;
}

/* Whether u holds data past the first beyond bytes (a peek offset's). */
static bool
has_data(struct unix_sock *u, size_t beyond)
{
	return beyond ? queued_bytes(u) > beyond : !list_empty(&u->queue);
}

/* What a reader waits for: data past beyond bytes of u's queue. */
struct recv_wait {
	struct unix_sock *u;
	size_t beyond;
};

/* Whether a reader of u has something to do: data, or news that none will come. */
static bool
can_recv(void *arg)
{
	struct recv_wait *w = arg;
	struct unix_sock *u = w->u;

	if (has_data(u, w->beyond) || u->error || (u->shutdown & RCV_SHUTDOWN))
		return true;
	if (u->type == SOCK_DGRAM)
		return false;
	return !u->peer || u->peer->dead;
}

/* Where a read starts in u's queue: a peek at SO_PEEK_OFF when it is set, else the head. */
static size_t
peek_start(struct unix_sock *u, const struct unix_msg_args *m)
{
	return (m->flags & MSG_PEEK) && u->peek_off >= 0 ? (size_t)u->peek_off : 0;
}

/* SO_PEEK_OFF follows what was read: forward by a peek's bytes, back by a read's (Linux). */
static void
peek_off_advance(struct unix_sock *u, bool peek, size_t n)
{
	if (u->peek_off < 0)
		return;
	if (peek)
		u->peek_off += (int)n;
	else
		u->peek_off = n >= (size_t)u->peek_off ? 0 : u->peek_off - (int)n;
}

static bool
cred_equal(const struct kernel_ucred *a, const struct kernel_ucred *b)
{
	return a->pid == b->pid && a->uid == b->uid && a->gid == b->gid;
}

/* Sets m->name to the sender's address (a copy, as u's family sees it), if it has one. */
static void
note_sender(struct unix_sock *u, struct unix_msg_args *m, const struct unix_msg *msg)
{
	if (sock_is_inet(u) && u->type == SOCK_STREAM)
		return; /* TCP names no sender: the peer is known */
	if (m->name && sock_is_netlink(u) && !msg->cred.pid) { /* the kernel's: port 0 */
		*m->name = (struct unix_address){ .len = sizeof(struct kernel_sockaddr_nl),
						  .snl.nl_family = AF_NETLINK };
		m->has_name = true;
	} else if (m->name && msg->sender->addr) {
		*m->name = *msg->sender->addr;
		m->has_name = true;
		if (sock_is_inet(u))
			inet_address_as(u->family, m->name);
	}
}

/*
 * Waits for data past the first beyond bytes of u's queue: 0 when there is
 * some, 1 for end of file, or -errno. unix_lock held.
 */
static int
wait_message(struct unix_sock *u, struct unix_msg_args *m, size_t beyond)
{
	struct recv_wait w = { u, beyond };
	int err = unix_wait(&u->wq, can_recv, &w, m->nonblock || (m->flags & MSG_DONTWAIT),
			    u->rcvtimeo, &u->iolock);
	if (err)
		return err;
	if (has_data(u, beyond))
		return 0;
	if (u->error) {
		err = -u->error;
		u->error = 0;
		return err;
	}
	return 1;
}

/*
 * What msg tells its reader besides its bytes, into got: its credentials,
 * and its files (taken over from a message that is consumed, duplicated
 * for a peek). unix_lock held.
 */
static int
take_control(struct unix_msg *msg, bool peek, struct unix_scm *got)
{
	got->cred = msg->cred;
	got->nfiles = 0;
	got->files = NULL;
	if (!msg->nfiles)
		return 0;
	if (!peek) {
		got->files = msg->files;
		got->nfiles = msg->nfiles;
		msg->files = NULL;
		msg->nfiles = 0;
		return 0;
	}
	got->files = kmalloc(msg->nfiles * sizeof(*got->files));
	if (!got->files)
		return -ENOMEM;
	for (u32 i = 0; i < msg->nfiles; i++)
		got->files[i] = file_get(msg->files[i]);
	got->nfiles = msg->nfiles;
	return 0;
}

/*
 * Copies n bytes at from to the reader's buffers at offset off: 0 or
 * -EFAULT. The copy may fault and sleep, so unix_lock is dropped for it
 * and taken again after; the message stays queued meanwhile, as the
 * reader holds the socket's iolock and only a reader takes messages off a
 * socket whose file is open.
 */
static int
copy_to_reader(const struct unix_msg_args *m, size_t off, char *from, size_t n)
{
	mutex_unlock(&unix_lock);
	int err = iov_copy(m, off, from, n, true);
	mutex_lock(&unix_lock); /* its holders never sleep: a short wait */
	return err;
}

/*
 * The record a read at offset off of u's queue starts in, and in *skip
 * where in it: whole records the offset passes are stepped over (Linux's
 * __skb_try_recv_from_queue). NULL if the offset is past them all.
 */
static struct unix_msg *
record_at(struct unix_sock *u, size_t off, size_t *skip)
{
	for (struct list_head *e = u->queue.next; e != &u->queue; e = e->next) {
		struct unix_msg *msg = list_entry(e, struct unix_msg, link);
		if (!off || off < msg->len) {
			*skip = off;
			return msg;
		}
		off -= msg->len;
	}
	return NULL;
}

/* One datagram or seqpacket record (from SO_PEEK_OFF on for a peek). */
static long
recv_record(struct unix_sock *u, struct unix_msg_args *m, struct unix_scm *got,
	    struct list_head *done)
{
	bool peek = m->flags & MSG_PEEK;
	size_t skip, start = peek_start(u, m);

	if (u->type == SOCK_SEQPACKET && u->state != UNIX_CONNECTED)
		return -ENOTCONN;
	int err = wait_message(u, m, start);
	if (err)
		return err > 0 ? 0 : err;
	struct unix_msg *msg = record_at(u, start, &skip);
	size_t left = msg->len - skip, n = MIN(m->total, left);
	if (copy_to_reader(m, 0, msg->data + skip, n))
		return -EFAULT;
	if (take_control(msg, peek, got))
		return -ENOMEM;
	note_sender(u, m, msg);
	if (n < left)
		m->out_flags |= MSG_TRUNC;
	long ret = (m->flags & MSG_TRUNC) ? (long)left : (long)n;
	peek_off_advance(u, peek, peek ? n : msg->len);
	if (!peek) {
		unix_msg_dequeue(u, msg);
		list_add_tail(&msg->link, done);
	}
	return ret;
}

/*
 * The message a stream read at offset copied (from the head) goes on
 * with, and in *skip how much of it a peek has seen already; NULL if none.
 */
static struct unix_msg *
stream_next(struct unix_sock *u, bool peek, size_t copied, size_t *skip)
{
	size_t seen = 0;

	*skip = 0;
	if (list_empty(&u->queue))
		return NULL;
	if (!peek)
		return list_first_entry(&u->queue, struct unix_msg, link);
	for (struct list_head *e = u->queue.next; e != &u->queue; e = e->next) {
		struct unix_msg *msg = list_entry(e, struct unix_msg, link);
		size_t left = msg->len - msg->off;
		if (seen + left > copied) {
			*skip = copied - seen;
			return msg;
		}
		seen += left;
	}
	return NULL;
}

/* Stream bytes, across messages, until enough (1, or all with MSG_WAITALL). */
static long
stream_copy(struct unix_sock *u, struct unix_msg_args *m, struct unix_scm *got,
	    struct list_head *done)
{
	size_t copied = 0, target = (m->flags & MSG_WAITALL) ? m->total : 1;
	bool peek = m->flags & MSG_PEEK;
	size_t start = peek_start(u, m);

	if (u->state != UNIX_CONNECTED && sock_is_inet(u)) /* TCP: 0 once shut, as Linux */
		return (u->shutdown & RCV_SHUTDOWN) ? 0 : -ENOTCONN;
	if (u->state != UNIX_CONNECTED)
		return -EINVAL;
	while (copied < m->total) {
		size_t skip;
		struct unix_msg *msg = stream_next(u, peek, start + copied, &skip);
		if (!msg) {
			if (copied >= target || (peek && copied))
				break;
			int err = wait_message(u, m,
					       start); /* a peek waits only before its first byte */
			if (err)
				return copied ? (long)copied : err > 0 ? 0 : err;
			continue;
		}
		if (msg == u->oob_msg) {
			if (copied)
				break; /* a read stops at the urgent byte's mark */
			if (!peek && !u->oobinline) {
				/* not taken with MSG_OOB: it is lost, as Linux's manage_oob */
				unix_msg_dequeue(u, msg);
				list_add_tail(&msg->link, done);
				continue;
			}
			if (!peek)
				u->oob_msg = NULL; /* inline: an ordinary byte from now on */
		}
		if (copied && (msg->nfiles || (u->passcred && !cred_equal(&msg->cred, &got->cred))))
			break; /* files, or another sender's bytes, start a read of their own */
		size_t n = MIN(m->total - copied, msg->len - msg->off - skip);
		if (copy_to_reader(m, copied, msg->data + msg->off + skip, n))
			return copied ? (long)copied : -EFAULT;
		bool carried_files = msg->nfiles;
		if (!copied) {
			note_sender(u, m, msg);
			if (take_control(msg, peek, got))
				return -ENOMEM;
		}
		copied += n;
		if (!peek) {
			msg->off += (u32)n;
			if (msg->off == msg->len) {
				unix_msg_dequeue(u, msg);
				list_add_tail(&msg->link, done);
			}
		}
		if (carried_files)
			break;
	}
	return (long)copied;
}

/*
 * recv(MSG_OOB): the urgent byte, once (a peek leaves it), MSG_OOB in
 * msg_flags; EINVAL when there is none or SO_OOBINLINE keeps it in the
 * stream (Linux's unix_stream_recv_urg). It never waits.
 */
static long
recv_urgent(struct unix_sock *u, struct unix_msg_args *m, struct list_head *done)
{
	struct unix_msg *msg = u->oob_msg;

	if (!msg || u->oobinline)
		return -EINVAL;
	if (copy_to_reader(m, 0, msg->data, MIN(m->total, 1)))
		return -EFAULT;
	if (!(m->flags & MSG_PEEK)) {
		unix_msg_dequeue(u, msg);
		list_add_tail(&msg->link, done);
	}
	m->out_flags |= MSG_OOB;
	return 1;
}

/* A stream read, SO_PEEK_OFF moved by what it took. */
static long
recv_stream(struct unix_sock *u, struct unix_msg_args *m, struct unix_scm *got,
	    struct list_head *done)
{
	long ret = stream_copy(u, m, got, done);

	if (ret > 0)
		peek_off_advance(u, m->flags & MSG_PEEK, (size_t)ret);
	return ret;
}

long
unix_recv(struct unix_sock *u, struct unix_msg_args *m)
{
	struct list_head done;
	struct unix_scm got = { .nfiles = 0 };

	if ((m->flags & MSG_OOB) && u->type != SOCK_STREAM)
		return -EOPNOTSUPP;
	if ((m->flags & MSG_ERRQUEUE) && sock_is_inet(u))
		return -EAGAIN; /* its error queue is always empty: nothing sets IP_RECVERR's errors */
	list_init(&done);
	m->has_name = false;
	m->out_flags = m->flags & MSG_CMSG_CLOEXEC; /* Linux gives it back in msg_flags */
	got.cred.pid = -1;			    /* no message read: no control */
	if (mutex_lock_killable(&u->iolock))
		return -EINTR;
	if (mutex_lock_killable(&unix_lock)) {
		mutex_unlock(&u->iolock);
		return -EINTR;
	}
	long ret = (m->flags & MSG_OOB)	    ? recv_urgent(u, m, &done)
		   : u->type == SOCK_STREAM ? recv_stream(u, m, &got, &done)
					    : recv_record(u, m, &got, &done);
	bool passcred = u->passcred;
	mutex_unlock(&unix_lock);
	if (mutex_is_held_by_me(&u->iolock)) /* a fatal signal may have ended its re-take */
		mutex_unlock(&u->iolock);
	if (ret >= 0 && got.cred.pid != -1)
		unix_scm_put(&got, passcred, m);
	else
		unix_scm_drop(&got);
	unix_msgs_free(&done);
	return ret;
}
