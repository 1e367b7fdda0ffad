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
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
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
