/*
 * unix_locking.c - usertests: an AF_UNIX send or receive whose copy
 * waits holds no other socket hostage. The copy is made to wait on a
 * userfaultfd page nobody answers (a kernel access to it sleeps until
 * UFFDIO_ZEROPAGE fills it); meanwhile another user's process makes a
 * socketpair, sends, receives and closes it, and a process asleep in a
 * receive on its own socket dies of SIGKILL. Each step is checked by its
 * completion, not by a time: before the socket locks were split, the
 * waiting copy held the one lock of every socket, the other process's
 * socketpair and close waited for it unkillably, and the test hung.
 * Last, a storm of readers and writers on one socket pair beside a churn
 * of sockets, for lockdebug and kmemdebug to watch.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <stddef.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>
#include "uapi/userfaultfd.h" /* musl has no <linux/userfaultfd.h> */

#define MSG_BYTES 100

/* A page whose missing faults, the kernel's own accesses too, wait on the userfaultfd *uffd. */
static char *
stalling_page(int *uffd)
{
	char *page = map_anon(PAGE, PROT_READ | PROT_WRITE);
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .range = { (unsigned long)page, PAGE },
				       .mode = UFFDIO_REGISTER_MODE_MISSING };

	*uffd = (int)syscall(SYS_userfaultfd, 0);
	if (*uffd < 0 && (errno == EPERM || errno == ENOSYS))
		skip("no userfaultfd for kernel accesses here");
	CHECK(*uffd >= 0);
	CHECK_OK(ioctl(*uffd, UFFDIO_API, &api));
	CHECK_OK(ioctl(*uffd, UFFDIO_REGISTER, &reg));
	return page;
}

/* Waits for the fault on the page: the copy that touches it is asleep now. */
static void
wait_for_fault(int uffd)
{
	struct pollfd p = { .fd = uffd, .events = POLLIN };
	struct uffd_msg msg;

	CHECK_EQ(poll(&p, 1, 60000), 1); /* a hang guard only */
	CHECK_EQ(read(uffd, &msg, sizeof(msg)), (long)sizeof(msg));
	CHECK_EQ(msg.event, UFFD_EVENT_PAGEFAULT);
}

/* Fills the page with zeros: the waiting copy goes on. */
static void
answer_fault(int uffd, char *page)
{
	struct uffdio_zeropage z = { .range = { (unsigned long)page, PAGE } };

	CHECK_OK(ioctl(uffd, UFFDIO_ZEROPAGE, &z));
}

/* A socketpair round trip and close, as user nobody: it must end. */
static void
round_trip(const char *unused)
{
	int sv[2];
	char c = 0;

	(void)unused;
	CHECK_OK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
	CHECK_EQ(write(sv[0], "x", 1), 1L);
	CHECK_EQ(read(sv[1], &c, 1), 1L);
	CHECK_EQ(c, 'x');
	CHECK_OK(close(sv[0]));
	CHECK_OK(close(sv[1]));
}

/* A child of user nobody asleep in a receive on its own socketpair, nothing ever sent. */
static pid_t
asleep_in_recv(void)
{
	pid_t pid = xfork();

	if (pid == 0) {
		int sv[2];
		char c;
		CHECK_OK(setresgid(NOBODY_ID, NOBODY_ID, NOBODY_ID));
		CHECK_OK(setresuid(NOBODY_ID, NOBODY_ID, NOBODY_ID));
		CHECK_OK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
		recv(sv[0], &c, 1, 0);
		_exit(3);
	}
	wait_until_asleep(pid);
	return pid;
}

/* While a copy of this process waits in a fault: other sockets work, a sleeper dies of SIGKILL. */
static void
others_go_on(pid_t sleeper)
{
	as_nobody(round_trip, NULL);
	CHECK_OK(kill(sleeper, SIGKILL));
	expect_signaled(wait_status(sleeper), SIGKILL, "the child asleep in recv");
}

struct stalled_io {
	int fd;
	char *page;
	long ret;
};

static void *
send_from_page(void *arg)
{
	struct stalled_io *io = arg;

	io->ret = send(io->fd, io->page, MSG_BYTES, 0);
	return NULL;
}

static void *
recv_into_page(void *arg)
{
	struct stalled_io *io = arg;

	io->ret = recv(io->fd, io->page, MSG_BYTES, 0);
	return NULL;
}

TEST(unix_send_fault_stalls_no_other_socket)
{
	int sv[2], uffd;
	char got[MSG_BYTES], zeros[MSG_BYTES] = { 0 };
	pid_t sleeper = asleep_in_recv();
	struct stalled_io io = { .page = stalling_page(&uffd) };
	pthread_t t;

	CHECK_OK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
	io.fd = sv[0];
	CHECK_EQ(pthread_create(&t, NULL, send_from_page, &io), 0);
	wait_for_fault(uffd);
	others_go_on(sleeper);
	answer_fault(uffd, io.page);
	CHECK_EQ(pthread_join(t, NULL), 0);
	CHECK_EQ(io.ret, (long)MSG_BYTES);
	CHECK_EQ(recv(sv[1], got, sizeof(got), MSG_WAITALL), (long)MSG_BYTES);
	CHECK(memcmp(got, zeros, sizeof(got)) == 0);
	close(uffd);
	close(sv[0]);
	close(sv[1]);
}

TEST(unix_recv_fault_stalls_no_other_socket)
{
	int sv[2], uffd;
	char msg[MSG_BYTES];
	pid_t sleeper = asleep_in_recv();
	struct stalled_io io = { .page = stalling_page(&uffd) };
	pthread_t t;

	memset(msg, 'm', sizeof(msg));
	CHECK_OK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
	CHECK_EQ(send(sv[0], msg, sizeof(msg), 0), (long)sizeof(msg));
	io.fd = sv[1];
	CHECK_EQ(pthread_create(&t, NULL, recv_into_page, &io), 0);
	wait_for_fault(uffd);
	others_go_on(sleeper);
	CHECK_EQ(send(sv[1], "r", 1, 0), 1L); /* the reader's own socket still sends */
	answer_fault(uffd, io.page);
	CHECK_EQ(pthread_join(t, NULL), 0);
	CHECK_EQ(io.ret, (long)MSG_BYTES);
	CHECK(memcmp(io.page, msg, sizeof(msg)) == 0);
	close(uffd);
	close(sv[0]);
	close(sv[1]);
}

/*
 * The storm: on one datagram socketpair, writers send numbered records
 * while readers (one of them peeking first) take them at once, each
 * record whole; a child of user nobody meanwhile makes, uses and closes
 * socketpairs, connections to a listener and sockets passed over
 * themselves (the collector's work). Every record arrives once and
 * intact; run under lockdebug and kmemdebug it is the locks' exercise.
 */
#define STORM_WRITERS 3
#define STORM_READERS 2
#define STORM_RECORDS 400

struct record {
	int writer, seq;
	char fill[56];
};

struct storm {
	int sv[2];
	int seen[STORM_WRITERS][STORM_RECORDS];
	int bad, taken;
	pthread_mutex_t lock;
};

struct storm_writer {
	struct storm *st;
	int id;
};

static void *
storm_write(void *arg)
{
	struct storm_writer *w = arg;

	for (int seq = 0; seq < STORM_RECORDS; seq++) {
		struct record r = { .writer = w->id, .seq = seq };
		memset(r.fill, 'a' + w->id, sizeof(r.fill));
		if (send(w->st->sv[0], &r, sizeof(r), 0) != (long)sizeof(r))
			__atomic_add_fetch(&w->st->bad, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

/* Notes record r; false once every record is in. */
static bool
storm_note(struct storm *st, const struct record *r, long n)
{
	pthread_mutex_lock(&st->lock);
	bool whole = n == (long)sizeof(*r) && r->writer >= 0 && r->writer < STORM_WRITERS &&
		     r->seq >= 0 && r->seq < STORM_RECORDS && r->fill[0] == 'a' + r->writer &&
		     r->fill[sizeof(r->fill) - 1] == 'a' + r->writer;
	if (whole)
		st->seen[r->writer][r->seq]++;
	else
		st->bad++;
	bool more = ++st->taken < STORM_WRITERS * STORM_RECORDS;
	pthread_mutex_unlock(&st->lock);
	return more;
}

static void *
storm_read(void *arg)
{
	struct storm *st = arg;
	struct record r, peeked;

	for (;;) {
		if (__atomic_load_n(&st->taken, __ATOMIC_RELAXED) >= STORM_WRITERS * STORM_RECORDS)
			return NULL;
		recv(st->sv[1], &peeked, sizeof(peeked), MSG_PEEK | MSG_DONTWAIT);
		long n = recv(st->sv[1], &r, sizeof(r), MSG_DONTWAIT);
		if (n < 0 && errno == EAGAIN) {
			sched_yield();
			continue;
		}
		if (n < 0) {
			__atomic_add_fetch(&st->bad, 1, __ATOMIC_RELAXED);
			return NULL;
		}
		if (!storm_note(st, &r, n))
			return NULL;
	}
}

/* Sockets made, used and dropped in every way, as user nobody. */
static void
socket_churn(const char *unused)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX, .sun_path = "\0unix_locking_storm" };
	socklen_t alen = offsetof(struct sockaddr_un, sun_path) + 20;
	int l = socket(AF_UNIX, SOCK_STREAM, 0);

	(void)unused;
	CHECK_OK(bind(l, (struct sockaddr *)&a, alen));
	CHECK_OK(listen(l, 8));
	for (int i = 0; i < 200; i++) {
		round_trip(NULL);
		int c = socket(AF_UNIX, SOCK_STREAM, 0);
		CHECK_OK(connect(c, (struct sockaddr *)&a, alen));
		int s = accept(l, NULL, NULL);
		CHECK(s >= 0);
		CHECK_EQ(send(c, "p", 1, 0), 1L);
		send_fd(c, s); /* s in flight in its own peer's queue, then both closed */
		close(s);
		close(c);
	}
	close(l);
}

TEST(unix_shared_socket_storm)
{
	struct storm st = { .lock = PTHREAD_MUTEX_INITIALIZER };
	struct storm_writer w[STORM_WRITERS];
	pthread_t writers[STORM_WRITERS], readers[STORM_READERS];

	CHECK_OK(socketpair(AF_UNIX, SOCK_DGRAM, 0, st.sv));
	pid_t churn = xfork();
	if (churn == 0) {
		as_nobody(socket_churn, NULL);
		_exit(0);
	}
	for (int i = 0; i < STORM_READERS; i++)
		CHECK_EQ(pthread_create(&readers[i], NULL, storm_read, &st), 0);
	for (int i = 0; i < STORM_WRITERS; i++) {
		w[i] = (struct storm_writer){ &st, i };
		CHECK_EQ(pthread_create(&writers[i], NULL, storm_write, &w[i]), 0);
	}
	for (int i = 0; i < STORM_WRITERS; i++)
		CHECK_EQ(pthread_join(writers[i], NULL), 0);
	for (int i = 0; i < STORM_READERS; i++)
		CHECK_EQ(pthread_join(readers[i], NULL), 0);
	expect_exit(churn, 0, "the socket churn as nobody");
	CHECK_EQ(st.bad, 0);
	for (int i = 0; i < STORM_WRITERS; i++)
		for (int seq = 0; seq < STORM_RECORDS; seq++)
			CHECK_EQ(st.seen[i][seq], 1);
	close(st.sv[0]);
	close(st.sv[1]);
}
