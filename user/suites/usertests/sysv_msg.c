/*
 * sysv_msg.c - usertests: System V message queues (msgget, msgsnd, msgrcv,
 * msgctl): which message msgrcv takes for each type and flag, sizes, the
 * sleeps on a full and an empty queue and how they end (a message, room,
 * a signal, the queue's removal), MSG_COPY, and what msgctl reports.
 */
#define _GNU_SOURCE
#include "usertests.h"
#include "sysv.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

struct message {
	long type;
	char text[64];
};

static void
send_text(int id, long type, const char *text)
{
	struct message m = { .type = type };

	strcpy(m.text, text);
	CHECK_OK(sysv_msgsnd(id, &m, strlen(text) + 1, IPC_NOWAIT));
}

/* The type of the message msgrcv takes for type and flags (NOWAIT), its text checked. */
static long
receive_type(int id, long type, int flags)
{
	struct message m;
	long n = CHECK_OK(sysv_msgrcv(id, &m, sizeof(m.text), type, flags | IPC_NOWAIT));

	CHECK(n > 0 && m.text[n - 1] == '\0');
	CHECK_EQ(m.text[0] - '0', m.type);
	return m.type;
}

static int
new_queue(void)
{
	return (int)CHECK_OK(sysv_msgget(IPC_PRIVATE, 0600));
}

TEST(sysv_msg_types)
{
	int id = new_queue();
	struct message m;

	send_text(id, 3, "3 first");
	send_text(id, 1, "1");
	send_text(id, 2, "2");
	send_text(id, 3, "3 second");
	send_text(id, 5, "5");
	CHECK_EQ(receive_type(id, 0, 0), 3l);	       /* the oldest */
	CHECK_EQ(receive_type(id, -4, 0), 1l);	       /* the lowest type up to 4 */
	CHECK_EQ(receive_type(id, 3, MSG_EXCEPT), 2l); /* the oldest not of type 3 */
	CHECK_EQ(receive_type(id, 5, 0), 5l);
	CHECK_ERR(ENOMSG, sysv_msgrcv(id, &m, sizeof(m.text), 3, MSG_EXCEPT | IPC_NOWAIT));
	CHECK_ERR(ENOMSG, sysv_msgrcv(id, &m, sizeof(m.text), 4, IPC_NOWAIT));
	CHECK_EQ(receive_type(id, 3, 0), 3l);
	CHECK_ERR(ENOMSG, sysv_msgrcv(id, &m, sizeof(m.text), 0, IPC_NOWAIT));
	CHECK_OK(sysv_msgctl(id, IPC_RMID, NULL));
}

TEST(sysv_msg_sizes)
{
	int id = new_queue();
	struct message m = { .type = 1 };
	long max = (long)read_number("/proc/sys/kernel/msgmax");

	send_text(id, 1, "0123456789");
	CHECK_ERR(E2BIG, sysv_msgrcv(id, &m, 4, 0, IPC_NOWAIT)); /* it stays */
	CHECK_EQ(sysv_msgrcv(id, &m, 4, 0, IPC_NOWAIT | MSG_NOERROR), 4l);
	CHECK(memcmp(m.text, "0123", 4) == 0);
	CHECK_ERR(ENOMSG, sysv_msgrcv(id, &m, sizeof(m.text), 0, IPC_NOWAIT));
	CHECK_ERR(EINVAL, sysv_msgsnd(id, &m, max + 1, IPC_NOWAIT));
	CHECK_ERR(EINVAL, sysv_msgsnd(id, &m, -1l, IPC_NOWAIT));
	m.type = 0;
	CHECK_ERR(EINVAL, sysv_msgsnd(id, &m, 1, IPC_NOWAIT));
	CHECK_ERR(EFAULT, sysv_msgsnd(id, (void *)bad_addrs[0], 1, IPC_NOWAIT));
	m.type = 1;
	CHECK_OK(sysv_msgsnd(id, &m, 0, IPC_NOWAIT)); /* an empty message is a message */
	CHECK_ERR(EFAULT, sysv_msgrcv(id, (void *)bad_addrs[0], 8, 0, IPC_NOWAIT));
	CHECK_ERR(EINVAL, sysv_msgsnd(-1, &m, 1, IPC_NOWAIT));
	CHECK_ERR(EINVAL, sysv_msgrcv(id, &m, -1l, 0, IPC_NOWAIT));
	CHECK_OK(sysv_msgctl(id, IPC_RMID, NULL));
	CHECK_ERR(EINVAL, sysv_msgsnd(id, &m, 1, IPC_NOWAIT));
}

static void
queue_stat(int id, struct kernel_msqid64_ds *ds)
{
	CHECK_OK(sysv_msgctl(id, IPC_STAT, ds));
}

/* A full queue (msg_qbytes) puts a sender to sleep until a receiver makes room. */
TEST(sysv_msg_full_queue_blocks)
{
	int id = new_queue();
	struct kernel_msqid64_ds ds;
	struct message m = { .type = 1 };

	queue_stat(id, &ds);
	ds.msg_qbytes = 16;
	CHECK_OK(sysv_msgctl(id, IPC_SET, &ds));
	CHECK_OK(sysv_msgsnd(id, &m, 16, IPC_NOWAIT));
	CHECK_ERR(EAGAIN, sysv_msgsnd(id, &m, 1, IPC_NOWAIT));
	pid_t child = xfork();
	if (child == 0) {
		m.type = 2;
		_exit(sysv_msgsnd(id, &m, 8, 0) == 0 ? 0 : 1);
	}
	wait_until_asleep(child);
	queue_stat(id, &ds);
	CHECK_EQ(ds.msg_qnum, 1ul);
	CHECK_EQ(sysv_msgrcv(id, &m, sizeof(m.text), 1, IPC_NOWAIT), 16l);
	expect_exit(child, 0, "the sender, once there was room");
	queue_stat(id, &ds);
	CHECK_EQ(ds.msg_qnum, 1ul);
	CHECK_EQ(ds.msg_cbytes, 8ul);
	CHECK_EQ(ds.msg_lspid, child);
	CHECK_EQ(ds.msg_lrpid, getpid());
	CHECK(ds.msg_stime != 0 && ds.msg_rtime != 0);
	CHECK_OK(sysv_msgctl(id, IPC_RMID, NULL));
}

/* A receiver sleeps until a message of its type arrives. */
TEST(sysv_msg_receiver_waits)
{
	int id = new_queue();
	pid_t child = xfork();

	if (child == 0) {
		struct message m;
		long n = sysv_msgrcv(id, &m, sizeof(m.text), 7, 0);
		_exit(n == 2 && m.type == 7 && strcmp(m.text, "7") == 0 ? 0 : 1);
	}
	wait_until_asleep(child);
	send_text(id, 6, "6"); /* not its type: it sleeps on */
	wait_until_asleep(child);
	send_text(id, 7, "7");
	expect_exit(child, 0, "the receiver of type 7");
	CHECK_EQ(receive_type(id, 0, 0), 6l);
	CHECK_OK(sysv_msgctl(id, IPC_RMID, NULL));
}

/* Removing the queue wakes its sleepers with EIDRM. */
TEST(sysv_msg_rmid_wakes)
{
	int id = new_queue();
	pid_t child = xfork();

	if (child == 0) {
		struct message m;
		_exit(sysv_msgrcv(id, &m, sizeof(m.text), 0, 0) == -1 && errno == EIDRM ? 0 : 1);
	}
	wait_until_asleep(child);
	CHECK_OK(sysv_msgctl(id, IPC_RMID, NULL));
	expect_exit(child, 0, "the receiver, with EIDRM");
}

static void
on_signal(int sig)
{
	(void)sig;
}

/* A signal with a handler ends the sleep with EINTR, even with SA_RESTART (as Linux). */
TEST(sysv_msg_signal_interrupts)
{
	int id = new_queue();
	pid_t child = xfork();

	if (child == 0) {
		struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESTART };
		struct message m;
		sigaction(SIGUSR1, &sa, NULL);
		_exit(sysv_msgrcv(id, &m, sizeof(m.text), 0, 0) == -1 && errno == EINTR ? 0 : 1);
	}
	wait_until_asleep(child);
	CHECK_OK(kill(child, SIGUSR1));
	expect_exit(child, 0, "the receiver, with EINTR");
	/* A kill ends it too. */
	child = xfork();
	if (child == 0) {
		struct message m;
		sysv_msgrcv(id, &m, sizeof(m.text), 0, 0);
		_exit(1);
	}
	wait_until_asleep(child);
	CHECK_OK(kill(child, SIGKILL));
	int status = wait_status(child);
	expect_signaled(status, SIGKILL, "the receiver, killed");
	CHECK_OK(sysv_msgctl(id, IPC_RMID, NULL));
}

/* MSG_COPY reads the message at an index and leaves it there. */
TEST(sysv_msg_copy)
{
	int id = new_queue();
	struct message m;

	send_text(id, 4, "4");
	send_text(id, 2, "2");
	long n = sysv_msgrcv(id, &m, sizeof(m.text), 1, MSG_COPY | IPC_NOWAIT);
	if (n == -1 && errno == ENOSYS)
		skip("this Linux has no MSG_COPY (CONFIG_CHECKPOINT_RESTORE)");
	CHECK_EQ(n, 2l);
	CHECK_EQ(m.type, 2l);
	CHECK_ERR(ENOMSG, sysv_msgrcv(id, &m, sizeof(m.text), 2, MSG_COPY | IPC_NOWAIT));
	CHECK_ERR(EINVAL, sysv_msgrcv(id, &m, sizeof(m.text), 0, MSG_COPY));
	CHECK_ERR(EINVAL,
		  sysv_msgrcv(id, &m, sizeof(m.text), 0, MSG_COPY | MSG_EXCEPT | IPC_NOWAIT));
	CHECK_EQ(receive_type(id, 0, 0), 4l);
	CHECK_EQ(receive_type(id, 0, 0), 2l);
	CHECK_OK(sysv_msgctl(id, IPC_RMID, NULL));
}

TEST(sysv_msg_ctl)
{
	int key = sysv_test_key('m');
	int id = (int)CHECK_OK(sysv_msgget(key, IPC_CREAT | IPC_EXCL | 0640));
	struct kernel_msqid64_ds ds;
	struct kernel_msginfo info;

	CHECK_EQ(sysv_msgget(key, 0), id);
	CHECK_ERR(EEXIST, sysv_msgget(key, IPC_CREAT | IPC_EXCL));
	send_text(id, 1, "1");
	queue_stat(id, &ds);
	CHECK_EQ(ds.msg_perm.key, key);
	CHECK_EQ(ds.msg_perm.mode & 0777, 0640u);
	CHECK_EQ(ds.msg_qnum, 1ul);
	CHECK_EQ(ds.msg_cbytes, 2ul);
	CHECK_EQ(ds.msg_qbytes, read_number("/proc/sys/kernel/msgmnb"));
	int max = (int)CHECK_OK(sysv_msgctl(0, IPC_INFO, &info));
	CHECK(max >= (id & 0x7fff));
	CHECK_EQ((unsigned long)info.msgmax, read_number("/proc/sys/kernel/msgmax"));
	CHECK_OK(sysv_msgctl(0, MSG_INFO, &info));
	CHECK(info.msgpool >= 1 && info.msgmap >= 1);
	CHECK_EQ(sysv_msgctl(id & 0x7fff, MSG_STAT, &ds), id);
	CHECK_EQ(sysv_msgctl(id & 0x7fff, MSG_STAT_ANY, &ds), id);
	CHECK(file_has_line_with("/proc/sysvipc/msg", "          2          1"));
	CHECK_ERR(EFAULT, sysv_msgctl(id, IPC_STAT, (void *)bad_addrs[0]));
	CHECK_ERR(EINVAL, sysv_msgctl(id, 99, &ds));
	CHECK_OK(sysv_msgctl(id, IPC_RMID, NULL));
	CHECK_ERR(EINVAL, sysv_msgctl(id, IPC_STAT, &ds));
	CHECK_ERR(EINVAL, sysv_msgctl(id, IPC_RMID, NULL));
}

/* Another user: the mode bits decide sending and receiving; raising msg_qbytes is root's. */
TEST(sysv_msg_permissions)
{
	if (geteuid() != 0)
		skip("needs root to become another user");
	int id = (int)CHECK_OK(sysv_msgget(IPC_PRIVATE, 0644));
	pid_t child = xfork();

	if (child == 0) {
		struct message m = { .type = 1 };
		struct kernel_msqid64_ds ds;
		CHECK_OK(setuid(65534));
		CHECK_ERR(EACCES, sysv_msgsnd(id, &m, 1, IPC_NOWAIT));
		CHECK_ERR(ENOMSG, sysv_msgrcv(id, &m, 1, 0, IPC_NOWAIT));
		CHECK_OK(sysv_msgctl(id, IPC_STAT, &ds));
		CHECK_ERR(EPERM, sysv_msgctl(id, IPC_SET, &ds));
		CHECK_ERR(EPERM, sysv_msgctl(id, IPC_RMID, NULL));
		_exit(0);
	}
	expect_exit(child, 0, "another user's checks");
	CHECK_OK(sysv_msgctl(id, IPC_RMID, NULL));
}
