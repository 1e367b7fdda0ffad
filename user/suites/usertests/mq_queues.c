/*
 * mq_queues.c - usertests: POSIX message queues (mq_open, mq_unlink,
 * mq_timedsend, mq_timedreceive, mq_notify with a signal or a netlink
 * socket's cookie as glibc's SIGEV_THREAD, mq_getsetattr): priority
 * order, the limits and errnos, O_NONBLOCK and deadlines, the one-shot
 * notification, queue descriptors as files (poll, fork), the mqueue
 * file system's view of the queues, and a queue's life, which its name
 * holds beyond its maker's.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <mqueue.h>
#include <poll.h>
#include <dirent.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* A fresh queue of this test's own name (removed first if a failed run left it). */
static mqd_t
new_queue(char *name, size_t size, long maxmsg, long msgsize, int flags)
{
	struct mq_attr attr = { .mq_maxmsg = maxmsg, .mq_msgsize = msgsize };

	snprintf(name, size, "/usertests-mq-%d", getpid());
	mq_unlink(name);
	return CHECK_OK(mq_open(name, O_CREAT | O_EXCL | O_RDWR | flags, 0600, &attr));
}

static void
send_text(mqd_t q, const char *text, unsigned prio)
{
	CHECK_OK(mq_send(q, text, strlen(text), prio));
}

/* The text of the next message, its priority checked. */
static void
expect_text(mqd_t q, const char *text, unsigned prio)
{
	char buf[64];
	unsigned got_prio;
	ssize_t n = CHECK_OK(mq_receive(q, buf, sizeof(buf), &got_prio));

	CHECK_EQ(n, (ssize_t)strlen(text));
	CHECK(memcmp(buf, text, (size_t)n) == 0);
	CHECK_EQ(got_prio, prio);
}

TEST(mq_priority_order)
{
	char name[64];
	mqd_t q = new_queue(name, sizeof(name), 8, 64, 0);
	struct mq_attr attr;

	send_text(q, "low first", 1);
	send_text(q, "high first", 5);
	send_text(q, "low second", 1);
	send_text(q, "high second", 5);
	send_text(q, "zero", 0);
	CHECK_OK(mq_getattr(q, &attr));
	CHECK_EQ(attr.mq_curmsgs, 5l);
	CHECK_EQ(attr.mq_maxmsg, 8l);
	CHECK_EQ(attr.mq_msgsize, 64l);
	expect_text(q, "high first", 5); /* the highest priority, oldest first within it */
	expect_text(q, "high second", 5);
	expect_text(q, "low first", 1);
	expect_text(q, "low second", 1);
	expect_text(q, "zero", 0);
	CHECK_OK(mq_close(q));
	CHECK_OK(mq_unlink(name)); /* the name held the last reference */
}

TEST(mq_open_errors)
{
	char name[64], longname[NAME_MAX + 3];
	mqd_t q = new_queue(name, sizeof(name), 4, 16, 0);
	struct mq_attr zero = { .mq_maxmsg = 0, .mq_msgsize = 16 };
	char buf[16];

	CHECK_ERR(EEXIST, mq_open(name, O_CREAT | O_EXCL | O_RDWR, 0600, NULL));
	CHECK_ERR(ENOENT, mq_open("/usertests-mq-none", O_RDWR));
	CHECK_ERR(EINVAL, mq_open("/usertests-mq-zero", O_CREAT | O_RDWR, 0600, &zero));
	longname[0] = '/';
	memset(longname + 1, 'a', NAME_MAX + 1);
	longname[NAME_MAX + 2] = '\0';
	CHECK_ERR(ENAMETOOLONG, mq_open(longname, O_CREAT | O_RDWR, 0600, NULL));
	CHECK_ERR(EMSGSIZE, mq_send(q, "01234567890123456", 17, 0)); /* over msgsize */
	CHECK_ERR(EINVAL, mq_send(q, "x", 1, MQ_PRIO_MAX));
	CHECK_ERR(EMSGSIZE, mq_receive(q, buf, 15, NULL)); /* a buffer below msgsize */
	mqd_t wronly = CHECK_OK(mq_open(name, O_WRONLY));
	CHECK_ERR(EBADF, mq_receive(wronly, buf, sizeof(buf), NULL));
	CHECK_ERR(EBADF, mq_send(STDIN_FILENO, "x", 1, 0)); /* not a queue */
	CHECK_OK(mq_close(wronly));
	CHECK_OK(mq_unlink(name));
	CHECK_ERR(ENOENT, mq_unlink(name));
	CHECK_OK(mq_close(q));
}

TEST(mq_nonblock_and_deadline)
{
	char name[64], buf[16];
	mqd_t q = new_queue(name, sizeof(name), 1, 16, O_NONBLOCK);
	struct mq_attr set = { .mq_flags = 0 }, old;
	struct timespec past = { .tv_sec = 1 }, bad = { .tv_sec = 1, .tv_nsec = 1000000000 };

	CHECK_ERR(EAGAIN, mq_receive(q, buf, sizeof(buf), NULL));
	send_text(q, "x", 0);
	CHECK_ERR(EAGAIN, mq_send(q, "y", 1, 0)); /* full */
	CHECK_OK(mq_setattr(q, &set, &old));
	CHECK_EQ(old.mq_flags, (long)O_NONBLOCK);
	CHECK_ERR(ETIMEDOUT, mq_timedsend(q, "y", 1, 0, &past)); /* full, the deadline passed */
	CHECK_ERR(EINVAL, mq_timedsend(q, "y", 1, 0, &bad));
	expect_text(q, "x", 0);
	CHECK_ERR(ETIMEDOUT, mq_timedreceive(q, buf, sizeof(buf), NULL, &past));
	set.mq_flags = O_NONBLOCK | O_APPEND;
	CHECK_ERR(EINVAL, mq_setattr(q, &set, NULL));
	CHECK_OK(mq_unlink(name));
	CHECK_OK(mq_close(q));
}

/* The child blocks in mq_receive until the parent sends: the wake-up comes with the message. */
TEST(mq_blocking_receive)
{
	char name[64];
	mqd_t q = new_queue(name, sizeof(name), 2, 16, 0);
	pid_t child = CHECK_OK(fork());

	if (child == 0) {
		expect_text(q, "wake", 3);
		_exit(0);
	}
	wait_until_asleep(child);
	send_text(q, "wake", 3);
	expect_exit(child, 0, "the receiver");
	CHECK_OK(mq_unlink(name));
	CHECK_OK(mq_close(q));
}

static volatile sig_atomic_t notified_code, notified_value;

static void
on_notify(int sig __attribute__((unused)), siginfo_t *si, void *ctx __attribute__((unused)))
{
	notified_code = si->si_code;
	notified_value = si->si_value.sival_int;
}

TEST(mq_notify_signal)
{
	char name[64];
	mqd_t q = new_queue(name, sizeof(name), 4, 16, 0);
	struct sigaction sa = { .sa_sigaction = on_notify, .sa_flags = SA_SIGINFO };
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR1 };

	ev.sigev_value.sival_int = 42;
	CHECK_OK(sigaction(SIGUSR1, &sa, NULL));
	CHECK_OK(mq_notify(q, &ev));
	CHECK_ERR(EBUSY, mq_notify(q, &ev)); /* one registration per queue */
	send_text(q, "first", 0);	     /* into the empty queue: the signal */
	CHECK_EQ(notified_code, SI_MESGQ);
	CHECK_EQ(notified_value, 42);
	notified_code = 0;
	CHECK_OK(mq_notify(q, &ev)); /* the first was used up */
	send_text(q, "second", 0);   /* the queue was not empty: nothing */
	CHECK_EQ(notified_code, 0);
	CHECK_OK(mq_notify(q, NULL));
	ev.sigev_notify = -1;
	CHECK_ERR(EINVAL, mq_notify(q, &ev));
	CHECK_OK(mq_unlink(name));
	CHECK_OK(mq_close(q));
}

/* mq_notify(SIGEV_THREAD) as glibc makes it: the raw call with a netlink socket and a cookie. */
static int
notify_thread(mqd_t q, int sock, char *cookie)
{
	struct sigevent ev = { .sigev_notify = SIGEV_THREAD, .sigev_signo = sock };

	ev.sigev_value.sival_ptr = cookie;
	return syscall(SYS_mq_notify, q, &ev);
}

/* The cookie the kernel sent to sock, its last byte what happened (1: a message, 2: removed). */
static void
expect_cookie(int sock, const char *cookie, char why)
{
	char got[32 + 1];

	CHECK_EQ(recv(sock, got, sizeof(got), MSG_DONTWAIT), 32);
	CHECK(memcmp(got, cookie, 31) == 0);
	CHECK_EQ(got[31], why);
}

TEST(mq_notify_thread_cookie)
{
	char name[64], cookie[32], buf[33];
	mqd_t q = new_queue(name, sizeof(name), 4, 16, 0);
	int sock = CHECK_OK(socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, 0));
	int p[2], unix_sock = CHECK_OK(socket(AF_UNIX, SOCK_DGRAM, 0));

	for (int i = 0; i < 32; i++)
		cookie[i] = (char)(0x40 + i);
	CHECK_OK(pipe(p));
	CHECK_ERR(EBADF, notify_thread(q, 999, cookie));
	CHECK_ERR(ENOTSOCK, notify_thread(q, p[0], cookie));
	CHECK_ERR(EINVAL, notify_thread(q, unix_sock, cookie)); /* not netlink */
	CHECK_ERR(EFAULT, notify_thread(q, sock, (char *)8));
	CHECK_ERR(EBADF, notify_thread(p[0], sock, cookie)); /* not a queue */

	CHECK_OK(notify_thread(q, sock, cookie));
	CHECK_ERR(EBUSY, notify_thread(q, sock, cookie));
	CHECK_ERR(EAGAIN, recv(sock, buf, sizeof(buf), MSG_DONTWAIT));
	send_text(q, "first", 0); /* into the empty queue: the cookie, woken up */
	expect_cookie(sock, cookie, 1);
	CHECK_OK(notify_thread(q, sock, cookie)); /* used up: free again */
	CHECK_OK(mq_notify(q, NULL));		  /* removed: the cookie says so */
	expect_cookie(sock, cookie, 2);
	CHECK_OK(notify_thread(q, sock, cookie));
	CHECK_OK(mq_close(q)); /* closing the queue removes it too */
	expect_cookie(sock, cookie, 2);
	CHECK_ERR(EAGAIN, recv(sock, buf, sizeof(buf), MSG_DONTWAIT));
	CHECK_OK(mq_unlink(name));
	close(sock);
	close(unix_sock);
	close(p[0]);
	close(p[1]);
}

TEST(mq_poll_readiness)
{
	char name[64];
	mqd_t q = new_queue(name, sizeof(name), 1, 16, 0);
	struct pollfd p = { .fd = q, .events = POLLIN | POLLOUT };

	CHECK_EQ(poll(&p, 1, 0), 1);
	CHECK_EQ(p.revents, POLLOUT);
	send_text(q, "x", 0);
	CHECK_EQ(poll(&p, 1, 0), 1);
	CHECK_EQ(p.revents, POLLIN); /* full: no room */
	CHECK_OK(mq_unlink(name));
	CHECK_OK(mq_close(q));
}

/* An unlinked queue lives on while a descriptor is open; a new one of its name is another queue. */
TEST(mq_unlink_keeps_open_queue)
{
	char name[64];
	mqd_t q = new_queue(name, sizeof(name), 2, 16, 0);
	struct mq_attr attr;

	send_text(q, "kept", 2);
	CHECK_OK(mq_unlink(name));
	mqd_t other = CHECK_OK(mq_open(name, O_CREAT | O_EXCL | O_RDWR, 0600, NULL));
	CHECK_OK(mq_getattr(other, &attr));
	CHECK_EQ(attr.mq_curmsgs, 0l);
	expect_text(q, "kept", 2);
	CHECK_OK(mq_unlink(name));
	CHECK_OK(mq_close(other));
	CHECK_OK(mq_close(q));
}

static void
unlink_as_nobody(const char *name)
{
	CHECK_ERR(EACCES, mq_unlink(name));
	CHECK_ERR(EACCES, mq_open(name, O_RDWR));
}

TEST(mq_permissions)
{
	char name[64];
	mqd_t q = new_queue(name, sizeof(name), 2, 16, 0);

	if (geteuid() != 0)
		skip("needs root to become nobody");
	as_nobody(unlink_as_nobody, name);
	CHECK_OK(mq_unlink(name));
	CHECK_OK(mq_close(q));
}

/* A mount of the mqueue file system shows the queues: a name per queue, its line, unlink. */
TEST(mq_file_system)
{
	char name[64], dir[64], path[160], line[128];
	mqd_t q = new_queue(name, sizeof(name), 2, 16, 0);
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR2 };
	unsigned long qsize;
	int notify, signo, pid;

	if (geteuid() != 0)
		skip("needs root to mount");
	snprintf(dir, sizeof(dir), "/tmp/usertests-mqfs-%d", getpid());
	CHECK_OK(mkdir(dir, 0700));
	CHECK_OK(mount("mqueue", dir, "mqueue", 0, NULL));
	send_text(q, "hello", 1);
	CHECK_OK(mq_notify(q, &ev)); /* after the message: it stays registered */
	snprintf(path, sizeof(path), "%s%s", dir, name);
	int fd = CHECK_OK(open(path, O_RDONLY));
	ssize_t n = CHECK_OK(read(fd, line, sizeof(line) - 1));
	line[n] = '\0';
	CHECK_EQ(sscanf(line, "QSIZE:%lu NOTIFY:%d SIGNO:%d NOTIFY_PID:%d", &qsize, &notify, &signo,
			&pid),
		 4);
	CHECK(qsize >= 5); /* Linux counts its own bookkeeping too */
	CHECK_EQ(notify, SIGEV_SIGNAL);
	CHECK_EQ(signo, SIGUSR2);
	CHECK_EQ(pid, getpid());
	CHECK_OK(close(fd));
	DIR *d = opendir(dir);
	bool listed = false;
	for (struct dirent *e; (e = readdir(d));)
		listed |= strcmp(e->d_name, name + 1) == 0;
	closedir(d);
	CHECK(listed);
	CHECK_OK(unlink(path));
	CHECK_ERR(ENOENT, mq_open(name, O_RDWR));
	CHECK_OK(umount(dir));
	CHECK_OK(rmdir(dir));
	CHECK_OK(mq_close(q));
}

/* RLIMIT_MSGQUEUE bounds a user's queues at their fullest; /proc/sys/fs/mqueue keeps Linux's bounds. */
TEST(mq_limits)
{
	struct rlimit small = { 4096, 4096 };
	struct mq_attr big = { .mq_maxmsg = 8, .mq_msgsize = 1024 };
	char name[64];

	mqd_t q = new_queue(name, sizeof(name), 1, 128, 0);
	CHECK_OK(mq_unlink(name));
	CHECK_OK(mq_close(q));
	CHECK_OK(setrlimit(RLIMIT_MSGQUEUE, &small));
	CHECK_ERR(EMFILE,
		  mq_open(name, O_CREAT | O_EXCL | O_RDWR, 0600, &big)); /* 8 KiB and more */
	q = new_queue(name, sizeof(name), 1, 128, 0);			 /* a small one fits */
	CHECK_OK(mq_unlink(name));
	CHECK_OK(mq_close(q));
	if (geteuid() != 0)
		skip("needs root to write /proc/sys/fs/mqueue");
	int fd = CHECK_OK(open("/proc/sys/fs/mqueue/msg_max", O_WRONLY));
	CHECK_ERR(EINVAL, write(fd, "0\n", 2)); /* at least 1 */
	CHECK_OK(close(fd));
	CHECK(read_number("/proc/sys/fs/mqueue/msgsize_max") >= 128);
}

static void
make_queue_and_leave(const char *name)
{
	CHECK_OK(mq_close(CHECK_OK(mq_open(name, O_CREAT | O_EXCL | O_RDWR, 0600, NULL))));
}

/* The kernel's inodes and kmalloc objects back at their counts before (rewind), within 30 s. */
static void
expect_counts_back(long inodes, long objects)
{
	for (int tries = 0; tries < 300; tries++) {
		if (kernel_objects("inodes") <= inodes && kernel_objects("kmalloc") <= objects)
			return;
		nanosleep(&(struct timespec){ .tv_nsec = 100 * 1000 * 1000 }, NULL);
	}
	fail("inodes %ld -> %ld, kmalloc %ld -> %ld", inodes, kernel_objects("inodes"), objects,
	     kernel_objects("kmalloc"));
}

/*
 * A queue lives until mq_unlink, not with the process that made it: its
 * name holds it (Linux's pinned mqueue dentry; rewind's name table, one
 * inode and one struct mqueue). One nobody made and left is there for the
 * next mq_open after its maker is gone - what a storm of system calls as
 * nobody leaves behind (docs/long-runs.md, issue 24's round 2) - and on
 * rewind /proc/objects counts it until mq_unlink gives both objects back.
 */
TEST(mq_outlives_its_maker_until_unlinked)
{
	char name[64];

	if (geteuid() != 0)
		skip("needs root");
	snprintf(name, sizeof(name), "/usertests-mq-left-%d", getpid());
	mq_unlink(name);
	/* A first round faults in what this process touches for one. */
	as_nobody(make_queue_and_leave, "/usertests-mq-warm");
	CHECK_OK(mq_unlink("/usertests-mq-warm"));
	long inodes = kernel_objects("inodes"), objects = kernel_objects("kmalloc");
	as_nobody(make_queue_and_leave, name);
	if (inodes >= 0)
		CHECK(kernel_objects("inodes") > inodes);
	CHECK_OK(mq_close(CHECK_OK(mq_open(name, O_RDWR))));
	CHECK_OK(mq_unlink(name));
	CHECK_ERR(ENOENT, mq_open(name, O_RDWR));
	if (inodes >= 0)
		expect_counts_back(inodes, objects);
}
