/*
 * unix_inflight.c - usertests: files in flight in SCM_RIGHTS messages -
 * the per-user limit on them (ETOOMANYREFS past RLIMIT_NOFILE) and the
 * garbage collector that frees sockets only such messages keep alive.
 *
 * The collector's work is observed through the limit: each unreachable
 * socket left in flight counts against its user, so a loop that makes and
 * drops many of them under a low RLIMIT_NOFILE runs into ETOOMANYREFS
 * unless they are freed. Linux (since 6.10) collects in a work queue after
 * the release that triggers it, so a send may come before the collector
 * has run: on ETOOMANYREFS the loop lets it run and tries again, a bounded
 * number of times. rewind collects in the release itself.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define INFLIGHT_LIMIT 16 /* RLIMIT_NOFILE for these tests: few fds needed */

/* Receives one message on s and the fd it carried. */
static int
recv_one_fd(int s)
{
	int fd;

	recv_fd(s, &fd, CMSG_SPACE(sizeof(int)), 0);
	CHECK(fd >= 0);
	return fd;
}

static void
lower_nofile_limit(void)
{
	struct rlimit r = { INFLIGHT_LIMIT, INFLIGHT_LIMIT };

	CHECK_OK(setrlimit(RLIMIT_NOFILE, &r));
}

/* As nobody (root is not limited): more than RLIMIT_NOFILE in flight is ETOOMANYREFS. */
static void
send_until_too_many(const char *arg)
{
	int sv[2], p[2], sent = 0;

	(void)arg;
	lower_nofile_limit();
	CHECK_OK(pipe(p));
	CHECK_OK(socketpair(AF_UNIX, SOCK_DGRAM, 0, sv));
	while (send_fd(sv[0], p[0]) == 1)
		sent++;
	CHECK_EQ(errno, ETOOMANYREFS);
	CHECK_EQ(sent, INFLIGHT_LIMIT + 1); /* refused once the count is past the limit */
	/* Received files are in flight no more: room for one again. */
	CHECK_OK(close(recv_one_fd(sv[1])));
	CHECK_OK(close(recv_one_fd(sv[1])));
	CHECK_EQ(send_fd(sv[0], p[0]), 1);
	/* Closing the receiver drops what it never read, and its count with it. */
	CHECK_OK(close(sv[1]));
	CHECK_OK(close(sv[0]));
	CHECK_OK(socketpair(AF_UNIX, SOCK_DGRAM, 0, sv));
	CHECK_EQ(send_fd(sv[0], p[0]), 1);
}

TEST(unix_scm_rights_etoomanyrefs)
{
	as_nobody(send_until_too_many, NULL);
}

/* Releases a socket, which is what runs the collector. */
static void
release_a_socket(void)
{
	int sv[2];

	CHECK_OK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
	CHECK_OK(close(sv[0]));
	CHECK_OK(close(sv[1]));
}

/* send_one_fd, giving an asynchronous collector (Linux's) its time when the limit is hit. */
static void
send_collected(int s, int fd)
{
	struct timespec ms = { 0, 1000 * 1000 };

	for (int tries = 0; tries < 10000; tries++) {
		if (send_fd(s, fd) == 1)
			return;
		CHECK_EQ(errno, ETOOMANYREFS);
		release_a_socket();
		nanosleep(&ms, NULL);
	}
	fail("the sockets in flight were never collected");
}

/* A socket in its own queue, and a ring of two, closed: garbage many times the limit over. */
static void
make_garbage_repeatedly(const char *arg)
{
	(void)arg;
	lower_nofile_limit();
	for (int i = 0; i < 4 * INFLIGHT_LIMIT; i++) {
		int a[2], b[2];
		CHECK_OK(socketpair(AF_UNIX, SOCK_STREAM, 0, a));
		send_collected(a[1], a[0]); /* a[0] is in its own queue */
		CHECK_OK(close(a[0]));
		CHECK_OK(close(a[1]));
		CHECK_OK(socketpair(AF_UNIX, SOCK_STREAM, 0, a));
		CHECK_OK(socketpair(AF_UNIX, SOCK_DGRAM, 0, b));
		send_collected(a[1], b[0]); /* b[0] in a[0]'s queue ... */
		send_collected(b[1], a[0]); /* ... and a[0] in b[0]'s */
		for (int k = 0; k < 2; k++) {
			CHECK_OK(close(a[k]));
			CHECK_OK(close(b[k]));
		}
	}
}

TEST(unix_gc_frees_unreachable_sockets)
{
	as_nobody(make_garbage_repeatedly, NULL);
}

/* A socket in flight in a queue someone can still read is kept, its own queue too. */
TEST(unix_gc_keeps_reachable_sockets)
{
	int a[2], carrier[2];
	char buf[8];

	CHECK_OK(socketpair(AF_UNIX, SOCK_STREAM, 0, a));
	CHECK_OK(socketpair(AF_UNIX, SOCK_STREAM, 0, carrier));
	CHECK_EQ(send_fd(carrier[0], a[0]), 1);
	CHECK_EQ(write(a[1], "kept", 4), 4); /* waits in a[0]'s queue */
	CHECK_EQ(send_fd(a[1], a[1]), 1);    /* and a[1] is in it too: a ring, but reachable */
	CHECK_OK(close(a[0]));
	CHECK_OK(close(a[1]));
	release_a_socket(); /* a collection: none of it may go */
	int got = recv_one_fd(carrier[1]);
	CHECK_EQ(read(got, buf, 4), 4);
	CHECK(memcmp(buf, "kept", 4) == 0);
	int peer = recv_one_fd(got);
	CHECK_EQ(write(peer, "more", 4), 4);
	CHECK_EQ(read(got, buf, 4), 4);
	CHECK(memcmp(buf, "more", 4) == 0);
	CHECK_OK(close(peer));
	CHECK_OK(close(got));
	CHECK_OK(close(carrier[0]));
	CHECK_OK(close(carrier[1]));
}
