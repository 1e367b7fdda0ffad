/*
 * unix.h - AF_UNIX sockets inside the kernel: what the files that build
 * them share (fs/socket.c the calls and socket files, unix_sock.c
 * connections, unix_names.c addresses, unix_io.c data, unix_scm.c control
 * messages, unix_gc.c files in flight and their collector, sockopt.c options).
 *
 * Locking rules (the one place that says them):
 *
 *  - unix_lock, one mutex, guards every socket's state, queue, peer link
 *    and counters, the bound-name tables (AF_UNIX, TCP/UDP, netlink), the
 *    /proc/net list, and the collector's in-flight list and marks. A
 *    connect or a send touches two sockets; one lock keeps that simple.
 *    Its holders never sleep: no copy to or from user memory is made
 *    under it (a send builds its message before, a receive drops it for
 *    the copy), it is dropped for every wait (unix_wait), and nothing
 *    calls file_put or inode_put under it (a file in flight may be a
 *    socket whose release takes it again). Inside it only spinlocks
 *    (wait queues, fasync, the user accounts) and kmalloc. A wait for it
 *    is therefore short, whoever the holder: release, the collector and
 *    the re-lock after a copy or a sleep take it with mutex_lock; the
 *    system calls' first take is mutex_lock_killable all the same.
 *
 *  - u->iolock, one per socket, serializes its readers (Linux's
 *    u->iolock): held across a receive, copies included, so that the
 *    message being copied stays queued while unix_lock is dropped (only a
 *    reader takes messages off a socket whose file is open; release and
 *    the collector empty the queues of sockets nobody holds a file of).
 *    A copy may fault and sleep as long as the reader's memory makes it
 *    (a userfaultfd page nobody answers): so it is taken with
 *    mutex_lock_killable and dropped while the reader waits for data
 *    (another reader, a non-blocking one, must not wait behind a sleeper).
 *    A fatal signal that ends its re-take ends the receive with -EINTR.
 *
 *  - Order: u->iolock, then unix_lock, then spinlocks; a copy under
 *    u->iolock may take the reader's mmap lock. No two iolocks are ever
 *    held at once.
 */
#ifndef REWIND_UNIX_H
#define REWIND_UNIX_H

#include "fs/pipe_accounting.h"
#include "fs/vfs.h"
#include "uapi/inet.h"
#include "uapi/socket.h"

extern struct mutex unix_lock;

/* Linux's net.core.{w,r}mem_default and _max, and SOCK_MIN_{SND,RCV}BUF on x86-64. */
#define SOCK_BUF_DEFAULT 212992u
#define SOCK_BUF_MAX	 212992u
#define SOCK_MIN_SNDBUF	 4608u
#define SOCK_MIN_RCVBUF	 2304u
#define SOMAXCONN	 4096u /* net.core.somaxconn */
#define MAX_DGRAM_QLEN	 10u   /* net.unix.max_dgram_qlen */
#define MSG_OVERHEAD	 256u  /* what a queued message costs besides its bytes (skb truesize) */

/* sk_shutdown bits: this side will receive, send no more. */
#define RCV_SHUTDOWN  1u
#define SEND_SHUTDOWN 2u
#define SHUTDOWN_MASK 3u

enum unix_state { UNIX_UNCONNECTED, UNIX_LISTENING, UNIX_CONNECTED };

/*
 * A bound name: sun_family and the path bytes, len in all (what getsockname
 * returns); an internet socket's sockaddr_in or sockaddr_in6 (fs/inet_names.c).
 */
struct unix_address {
	u32 len;
	union {
		struct kernel_sockaddr_un sun;
		struct kernel_sockaddr_in sin;
		struct kernel_sockaddr_in6 sin6;
		struct kernel_sockaddr_nl snl;
	};
};

/* What an AF_INET or AF_INET6 socket has besides the local machinery (fs/inet_*.c). */
struct inet_opts {
	bool reuseaddr, reuseport; /* SO_REUSEADDR, SO_REUSEPORT: who may share its port */
	bool v6only;		   /* IPV6_V6ONLY: an AF_INET6 socket takes no IPv4 */
	bool nodelay, cork;	   /* TCP_NODELAY, TCP_CORK: kept, there is no wire to wait for */
	int maxseg;		   /* TCP_MAXSEG asked, or 0 */
	bool epipe; /* TCP: sends fail with EPIPE now (the peer's reset came, or this side shut) */
	bool connecting;	   /* TCP: a non-blocking connect said EINPROGRESS */
	struct unix_address *dest; /* a connected datagram socket's peer, or NULL */
};

/* What an AF_NETLINK socket has besides the datagram machinery (fs/netlink.c). */
struct netlink_opts {
	int protocol;	/* NETLINK_ROUTE */
	u32 portid;	/* its address once bound (addr says so), 0 before */
	u32 dst_portid; /* connect's destination: 0, the kernel, by default */
};

struct unix_sock {
	u32 refcount; /* the file, a peer pointing at it, its queued messages, a listener's queue */
	int type;     /* SOCK_STREAM, SOCK_DGRAM, SOCK_SEQPACKET */
	int family;   /* AF_UNIX, AF_INET/AF_INET6 on the loopback (fs/inet_*.c), AF_NETLINK */
	struct inet_opts inet;
	struct netlink_opts nl;
	enum unix_state state;
	bool dead; /* its file is closed */
	/* its file, not referenced: valid while !dead (its owner hears SIGURG; unix_gc.c) */
	struct file *file;
	bool passcred;		/* SO_PASSCRED */
	u32 shutdown;		/* RCV_SHUTDOWN | SEND_SHUTDOWN */
	int error;		/* SO_ERROR: ECONNRESET when the peer left with data unread */
	struct unix_sock *peer; /* referenced: the other end, or a datagram socket's default */
	struct list_head queue; /* received unix_msgs; a listener's: connections not accepted */
	struct list_head pending_link; /* in a listener's queue, until accepted */
	u32 qlen;		       /* messages or connections in queue */
	u32 backlog;		       /* a listener's: connections it holds at most */
	u32 sndbuf, rcvbuf;
	u64 wmem;		/* bytes of this socket's messages queued anywhere */
	u64 rmem;		/* bytes of messages queued here (a UDP socket drops past rcvbuf) */
	u64 rcvtimeo, sndtimeo; /* ns; 0: forever */
	int peek_off;		/* SO_PEEK_OFF: where a MSG_PEEK starts; -1: at the head */
	bool oobinline;		/* SO_OOBINLINE: the urgent byte is read in the stream */
	struct unix_msg *oob_msg; /* a stream's urgent byte (MSG_OOB) in queue, unread, or NULL */
	struct kernel_ucred cred; /* its creator's, for the peer's SO_PEERCRED */
	struct kernel_ucred peercred;
	bool has_peercred;
	struct unix_address *addr;  /* bound name, or NULL */
	struct list_head inet_link; /* an internet socket with a file: in /proc/net's list */
	struct inode *node;	    /* a file-system name's socket inode, referenced */
	struct list_head bound_link;
	struct wait_queue wq;	 /* readers, writers, connectors, accepters, poll */
	struct mutex iolock;	 /* its readers, one at a time (the locking rules above) */
	struct list_head fasync; /* its file if in O_ASYNC mode (fs/fasync.c) */
	bool async_nospace;	 /* a send found no room: POLL_OUT when room comes (unix_io.c) */
	/* wmem's pages, charged to the creator's user and process as pipes are */
	struct pipe_account account;
	struct mem_charge *charge;
	u32 inflight;		  /* messages holding its file in flight (unix_gc.c) */
	struct list_head gc_link; /* in the collector's list while inflight > 0 */
	bool gc_candidate;	  /* the collector's marks, under unix_lock */
	u32 gc_refs;
};

/* One message in a receive queue (a stream's too: a write's worth of bytes). */
struct unix_msg {
	struct list_head link;
	struct unix_sock *sender; /* referenced: its wmem holds this message */
	u32 len, off;		  /* bytes, and bytes a stream reader took already */
	struct kernel_ucred cred;
	u32 nfiles;
	struct file **files; /* SCM_RIGHTS in flight, referenced */
	char data[];
};

/* ---- socket.c ---- */
/* The socket at fd, with its file referenced in *fp: 0, -EBADF, -ENOTSOCK. */
int sock_get(int fd, struct file **fp);
/* Whether calls on f must not wait (O_NONBLOCK now). */
bool file_nonblock(struct file *f);
/* A sockaddr for the socket u from user memory, as its family reads it: 0 or -errno. */
int sock_address_get(struct unix_sock *u, const void __user *uaddr, int len,
		     struct unix_address *a);
/* The socket f is, or NULL if it is no socket. */
struct unix_sock *unix_sock_of_file(struct file *f);

/* Whether u is an internet socket: a loopback TCP or UDP socket (fs/inet_*.c). */
static inline bool
sock_is_inet(const struct unix_sock *u)
{
	return u->family == AF_INET || u->family == AF_INET6;
}

/* Whether u is a netlink socket (fs/netlink.c): a datagram socket whose peer is the kernel. */
static inline bool
sock_is_netlink(const struct unix_sock *u)
{
	return u->family == AF_NETLINK;
}

static inline bool
sock_is_udp(const struct unix_sock *u)
{
	return sock_is_inet(u) && u->type == SOCK_DGRAM;
}

/* ---- unix_sock.c ---- */
struct unix_sock *unix_sock_alloc(int family, int type);
void unix_sock_get(struct unix_sock *u);
void unix_sock_put(struct unix_sock *u);
/* Makes the sockets a and b each other's peer (socketpair): unix_lock held. */
void unix_pair(struct unix_sock *a, struct unix_sock *b);
int unix_connect(struct unix_sock *u, const struct unix_address *to, bool nonblock);
/*
 * A stream connect to the listener l: a socket on l's side, connected to
 * u, is queued for accept. unix_lock held; 0 or -errno.
 */
int unix_connect_stream(struct unix_sock *u, struct unix_sock *l, bool nonblock);
int unix_listen(struct unix_sock *u, int backlog);
/* The next connection to accept, referenced for the caller's new file: 0 or -errno. */
int unix_accept(struct unix_sock *u, bool nonblock, struct unix_sock **out);
int unix_shutdown(struct unix_sock *u, int how);
/* The file of u is closed. */
void unix_release(struct unix_sock *u);
/* The credentials of the current process, as a message or SO_PEERCRED carries them. */
struct kernel_ucred unix_current_cred(void);
/* Adds delta bytes to u's wmem and its pages to its charges: unix_lock held. */
void unix_wmem_add(struct unix_sock *u, s64 delta);
/*
 * Sleeps on q until ready(arg), unix_lock held on entry and return and
 * dropped while asleep, and iolock too if not NULL (a reader's): 0,
 * -EAGAIN (nonblock, or timeo ns ran out: 0 is forever), -ERESTARTSYS or
 * -EINTR (a signal; EINTR with a timeout, as Linux). -EINTR also when a
 * fatal signal ended the re-take of iolock: then it is not held.
 */
int unix_wait(struct wait_queue *q, bool (*ready)(void *arg), void *arg, bool nonblock, u64 timeo,
	      struct mutex *iolock);

/* ---- unix_names.c ---- */
/* A sockaddr from user memory into *a: 0 or -errno (EINVAL for a wrong family or length). */
int unix_address_get(const void __user *uaddr, int len, struct unix_address *a);
int unix_bind(struct unix_sock *u, const struct unix_address *a);
/* Binds u to a fresh abstract name if it has none: unix_lock held. */
int unix_autobind(struct unix_sock *u);
/*
 * The socket of type bound to a, referenced: 0, or ECONNREFUSED (none),
 * ENOENT, EACCES, EPROTOTYPE. Called without unix_lock (it walks paths).
 */
int unix_find(const struct unix_address *a, int type, struct unix_sock **out);
/* Forgets u's name (its file closed): unix_lock held; the node inode is left in *node to put. */
void unix_unbind(struct unix_sock *u, struct inode **node);
/* Copies u's address (its family alone if unnamed) to a user sockaddr and length: 0 or -errno. */
int unix_address_put(const struct unix_address *a, void __user *uaddr, int __user *ulen);

/* ---- unix_io.c ---- */
/* What a send or receive moves: user buffers, their total, flags; control and name too. */
struct unix_msg_args {
	const struct kernel_iovec *iov;
	int iovcnt;
	size_t total;
	unsigned flags;	    /* MSG_* asked */
	unsigned out_flags; /* receive: MSG_TRUNC, MSG_CTRUNC given back */
	bool nonblock;
	struct unix_address *name; /* send: destination or NULL; receive: the sender's, or NULL */
	bool has_name;
	void __user *control; /* msghdr's, or NULL */
	size_t controllen;    /* receive: bytes of control written */
};
long unix_send(struct unix_sock *u, struct unix_msg_args *m);
long unix_recv(struct unix_sock *u, struct unix_msg_args *m);
/* Takes msg off u's queue; its sender gets its cost back. unix_lock held; free it after. */
void unix_msg_dequeue(struct unix_sock *u, struct unix_msg *msg);
/* Frees messages taken off a queue (unix_lock NOT held: their files are put). */
void unix_msgs_free(struct list_head *msgs);
/* Whether u's peer or u may take another message now (poll's POLLOUT). */
bool unix_writable(struct unix_sock *u);
/*
 * What a reader of u could take (SIOCINQ, FIONREAD): a stream's or
 * seqpacket's queued bytes, a datagram socket's first message; -EINVAL for
 * a listener. unix_lock held.
 */
long unix_inq_len(struct unix_sock *u);
/* Whether the next byte a reader of u gets is the urgent one (SIOCATMARK). unix_lock held. */
bool unix_at_mark(struct unix_sock *u);

/* ---- unix_scm.c ---- */
/*
 * What a send's control messages say. A send's files are counted in
 * flight (in_flight: unix_gc.c, and their sender's user's count) from
 * unix_scm_get until a receiver takes them (unix_scm_put, which a
 * receive's files always reach) or they are dropped unsent or unread
 * (unix_scm_drop, unix_msgs_notinflight). The count goes to cred's uid,
 * which a message keeps, so that whoever uncounts finds the same user.
 */
struct unix_scm {
	struct kernel_ucred cred;
	u32 nfiles;
	struct file **files; /* referenced */
	bool in_flight;
};
/* Parses control messages from user memory: 0 or -errno (nothing held then). */
int unix_scm_get(const void __user *control, size_t len, struct unix_scm *scm);
/* Drops what unix_scm_get took and nobody took over. */
void unix_scm_drop(struct unix_scm *scm);
/*
 * Writes what a receive got to its control buffer (m->control, then
 * m->controllen is the bytes used): the credentials if passcred, the
 * files as new fds. Files that do not fit are closed, as Linux's
 * (MSG_CTRUNC). Takes over got's files; unix_lock NOT held.
 */
void unix_scm_put(struct unix_scm *got, bool passcred, struct unix_msg_args *m);
/* Messages taken off a queue unread: their files are in flight no more (before unix_msgs_free). */
void unix_msgs_notinflight(struct list_head *msgs);

/* ---- unix_gc.c ---- */
/* f is in flight in one more message, or one fewer (a socket's count; others are not counted). */
void unix_inflight(struct file *f);
void unix_notinflight(struct file *f);
/* Frees the sockets only messages in flight keep alive (Linux's unix_gc); unix_lock NOT held. */
void unix_gc(void);

/* ---- netlink.c ---- */
/* The type an AF_NETLINK socket call asks for, or -errno (Linux's netlink_create). */
int netlink_type(int base, int protocol);
/* A sockaddr_nl from user memory: 0 or -errno. */
int netlink_address_get(const void __user *uaddr, int len, struct unix_address *a);
int netlink_bind(struct unix_sock *u, const struct unix_address *a);
/* connect from user memory: AF_UNSPEC (of any length) forgets the destination. */
int netlink_connect(struct unix_sock *u, const void __user *uaddr, int len);
/* The name getsockname and getpeername give (peer: the destination connect named). */
void netlink_name(struct unix_sock *u, bool peer, struct unix_address *a);
long netlink_send(struct unix_sock *u, struct unix_msg_args *m);
/* Queues a message from the kernel on u (no limit, as Linux's netlink_sendskb). unix_lock held. */
int netlink_deliver(struct unix_sock *u, const void *data, u32 len);
/*
 * Sends the kernel's message of len bytes at data to u (mq_notify's
 * cookie; nothing if data is NULL) and drops the caller's reference to u.
 * Takes unix_lock: the caller holds no other sleeping lock.
 */
void netlink_notify(struct unix_sock *u, const void *data, u32 len);
/* The netlink socket f is, referenced: -ENOTSOCK, -EINVAL for another family (mq_notify). */
struct unix_sock *netlink_sock_of_file(struct file *f, int *err);

/* ---- netlink_route.c ---- */
/* The NETLINK_ROUTE kernel's answer to the messages in buf, queued on u. unix_lock held. */
void rtnetlink_receive(struct unix_sock *u, const char *buf, u32 len);

/* ---- sockopt.c ---- */
long unix_getsockopt(struct unix_sock *u, int level, int name, void __user *val, int __user *ulen);
long unix_setsockopt(struct unix_sock *u, int level, int name, const void __user *val, int len);

#endif
