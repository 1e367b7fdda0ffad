/*
 * test_pipe.c - host tests of pipes and poll (fs/pipe.c, fs/poll.c).
 *
 * Sleeping is real as far as the wait queues go: when the task would
 * sleep, fs_host.h's schedule() runs `other_side` (the process at the other
 * end) and fails the test if that did not wake the task, so every blocking
 * path is checked for missed wake-ups as well as for its result.
 */
#include "tests/unit/fs_host.h"

#define PIPE_SIZE (PIPE_DEF_PAGES * PAGE_SIZE) /* a new pipe's buffer */

static int rd, wr;
static char chunk[PIPE_SIZE * 3];

static void
make_pipe(int flags)
{
	int fds[2] = { -1, -1 };

	if (do_sys_pipe2(fds, flags) != 0)
		panic("pipe2 failed");
	rd = fds[0];
	wr = fds[1];
}

static struct pipe *
pipe_at_fd(int fd)
{
	struct file *f = fd_get(fd);
	struct pipe *p = f->inode->private;

	file_put(f);
	return p;
}

static bool
queues_empty(int fd)
{
	struct pipe *p = pipe_at_fd(fd);

	return list_empty(&p->rd_wait.waiters) && list_empty(&p->wr_wait.waiters);
}

UNIT_TEST(pipe_basics)
{
	char buf[16];
	int fds[2];
	struct kernel_stat st;

	fs_setup();
	CHECK_EQ(do_sys_pipe(fds), 0);
	CHECK_EQ(fds[0], 0);
	CHECK_EQ(fds[1], 1);
	CHECK_EQ(do_sys_write(fds[1], "abc", 3), 3);
	CHECK_EQ(do_sys_read(fds[0], buf, sizeof(buf)), 3);
	CHECK(memcmp(buf, "abc", 3) == 0);
	CHECK_EQ(do_sys_read(fds[1], buf, 1), -EBADF);
	CHECK_EQ(do_sys_write(fds[0], "x", 1), -EBADF);
	CHECK_EQ(do_sys_write(fds[1], "", 0), 0);
	CHECK_EQ(do_sys_lseek(fds[0], 0, SEEK_SET), -ESPIPE);
	CHECK_EQ(do_sys_pread64(fds[0], buf, 1, 0), -ESPIPE);
	CHECK_EQ(do_sys_fstat(fds[0], &st), 0);
	CHECK_EQ(st.st_mode, S_IFIFO | 0600);
	CHECK_EQ(st.st_dev, pipefs_sb->dev);
	CHECK_EQ(do_sys_fcntl(fds[0], F_GETFL, 0), O_RDONLY);
	CHECK_EQ(do_sys_fcntl(fds[1], F_GETFL, 0), O_WRONLY);
	CHECK_EQ(do_sys_getdents64(fds[0], buf, sizeof(buf)), -ENOTDIR);
	CHECK_EQ(do_sys_fsync(fds[1]), -EINVAL);
	struct file *f = fd_get(fds[0]);
	char name[32];
	file_path(f, name, sizeof(name));
	CHECK(strncmp(name, "pipe:[", 6) == 0);
	file_put(f);

	CHECK_EQ(do_sys_pipe2(fds, O_APPEND), -EINVAL);
	CHECK_EQ(do_sys_pipe2(fds, 1), -EINVAL);
	CHECK_EQ(do_sys_pipe2(fds, O_CLOEXEC | O_NONBLOCK), 0);
	CHECK_EQ(do_sys_fcntl(fds[0], F_GETFD, 0), FD_CLOEXEC);
	CHECK_EQ(do_sys_fcntl(fds[1], F_GETFL, 0), O_WRONLY | O_NONBLOCK);
	/* A bad result pointer: -EFAULT, and no descriptor is left behind. */
	CHECK_EQ(do_sys_pipe(BAD_USER_PTR), -EFAULT);
	CHECK_EQ(do_sys_dup(0), 4);
}

UNIT_TEST(eof_and_epipe)
{
	char buf[4];

	fs_setup();
	u64 objects = kmalloc_objects_now(), pages = free_pages_now();
	make_pipe(0);
	CHECK_EQ(do_sys_write(wr, "z", 1), 1);
	CHECK_EQ(do_sys_close(wr), 0);
	CHECK_EQ(do_sys_read(rd, buf, 4), 1); /* what is left, then EOF */
	CHECK_EQ(do_sys_read(rd, buf, 4), 0);
	CHECK_EQ(do_sys_close(rd), 0);
	make_pipe(0);
	CHECK_EQ(do_sys_close(rd), 0);
	signal_sent_self = 0;
	CHECK_EQ(do_sys_write(wr, "z", 1), -EPIPE);
	CHECK_EQ(signal_sent_self, SIGPIPE);
	CHECK_EQ(do_sys_close(wr), 0);
	CHECK_EQ(kmalloc_objects_now(), objects);
	CHECK_EQ(free_pages_now(), pages);
}

/* A read of one byte, for unit_panics(): with nobody on the other side, sleeping panics. */
static void
read_one(void)
{
	char c;

	do_sys_read(rd, &c, 1);
}

UNIT_TEST(nonblocking_and_pipe_buf_atomicity)
{
	fs_setup();
	make_pipe(O_NONBLOCK);
	CHECK_EQ(do_sys_read(rd, chunk, 10), -EAGAIN);
	CHECK_EQ(do_sys_write(wr, chunk, PIPE_SIZE), PIPE_SIZE);
	CHECK_EQ(do_sys_write(wr, chunk, 1), -EAGAIN);
	CHECK_EQ(do_sys_read(rd, chunk, 100), 100);
	CHECK_EQ(do_sys_write(wr, chunk, 200), -EAGAIN); /* <= PIPE_BUF: whole or nothing */
	CHECK_EQ(do_sys_write(wr, chunk, 100), 100);
	CHECK_EQ(do_sys_read(rd, chunk, sizeof(chunk)), PIPE_SIZE);
	CHECK_EQ(do_sys_write(wr, chunk, PIPE_SIZE + 904), PIPE_SIZE); /* > PIPE_BUF: split */
	CHECK_EQ(do_sys_read(rd, chunk, sizeof(chunk)), PIPE_SIZE);
	/* F_SETFL turns it off again: now an empty pipe makes the reader sleep. */
	CHECK_EQ(do_sys_fcntl(rd, F_SETFL, 0), 0);
	CHECK(unit_panics(read_one));
	CHECK(strstr(unit_panic_msg, "sleep forever"));
}

UNIT_TEST(data_survives_the_ring_wrapping)
{
	static u8 out[PIPE_SIZE], in[PIPE_SIZE];
	u32 wrote = 0, got = 0;

	fs_setup();
	make_pipe(O_NONBLOCK);
	for (int round = 0; round < 2000; round++) {
		size_t n = 1 + (size_t)(round * 37 % 3000);
		for (size_t i = 0; i < n; i++)
			out[i] = (u8)(wrote + i);
		long w = do_sys_write(wr, (char *)out, n);
		if (w > 0)
			wrote += (u32)w;
		else
			CHECK_EQ(w, -EAGAIN);
		long r = do_sys_read(rd, (char *)in, 1 + (size_t)(round * 53 % 2500));
		CHECK(r > 0);
		for (long i = 0; i < r; i++)
			if (in[i] != (u8)(got + i)) {
				CHECK(!"bytes came out of the pipe changed or out of order");
				return;
			}
		got += (u32)r;
	}
	CHECK(wrote > 1000000);
}

static void
writer_writes_x(void)
{
	CHECK_EQ(do_sys_write(wr, "x", 1), 1);
}

static void
writer_closes(void)
{
	CHECK_EQ(do_sys_close(wr), 0);
}

static u32 drained;

static void
reader_drains(void)
{
	long n = do_sys_read(rd, chunk, PIPE_SIZE);

	CHECK(n > 0);
	drained += (u32)n;
	other_side = reader_drains; /* and again, next time the writer sleeps */
}

static void
reader_closes(void)
{
	CHECK_EQ(do_sys_close(rd), 0);
}

UNIT_TEST(blocking_read_and_write_wake_up)
{
	char c = 0;

	fs_setup();
	make_pipe(0);
	other_side = writer_writes_x;
	CHECK_EQ(do_sys_read(rd, &c, 1), 1);
	CHECK_EQ(c, 'x');
	CHECK_EQ(sleeps, 1);
	CHECK(queues_empty(rd));

	other_side = writer_closes;
	CHECK_EQ(do_sys_read(rd, &c, 1), 0); /* EOF wakes the reader */
	CHECK_EQ(sleeps, 2);
	do_sys_close(rd);

	/* A write three pages long goes through a one-page pipe as the reader drains it. */
	make_pipe(0);
	drained = 0;
	other_side = reader_drains;
	CHECK_EQ(do_sys_write(wr, chunk, sizeof(chunk)), sizeof(chunk));
	CHECK_EQ(sleeps, 4);
	CHECK_EQ(drained + pipe_used(pipe_at_fd(wr)), sizeof(chunk));

	/* The reader goes away while the writer waits: what was written counts, then EPIPE. */
	CHECK_EQ(do_sys_read(rd, chunk, 1000), 1000);
	other_side = reader_closes;
	CHECK_EQ(do_sys_write(wr, chunk, sizeof(chunk)), 1000);
	CHECK_EQ(do_sys_write(wr, chunk, 1), -EPIPE);
	CHECK(queues_empty(wr));
}

static short
poll1(int fd, short events)
{
	struct kernel_pollfd p = { fd, events, 0x7777 };

	CHECK(do_sys_poll(&p, 1, 0) >= 0);
	return p.revents;
}

UNIT_TEST(poll_reports_pipe_states)
{
	struct kernel_pollfd p[4];

	fs_setup();
	make_pipe(0);
	CHECK_EQ(poll1(rd, POLLIN | POLLOUT), 0);
	CHECK_EQ(poll1(wr, POLLIN | POLLOUT), POLLOUT);
	do_sys_write(wr, "d", 1);
	CHECK_EQ(poll1(rd, POLLIN | POLLRDNORM), POLLIN | POLLRDNORM);
	CHECK_EQ(poll1(rd, POLLOUT), 0);
	do_sys_write(wr, chunk, PIPE_SIZE - PIPE_BUF);
	CHECK_EQ(poll1(wr, POLLOUT), 0); /* a PIPE_BUF write would block */
	do_sys_close(wr);
	CHECK_EQ(poll1(rd, POLLIN), POLLIN | POLLHUP); /* POLLHUP even when not asked */
	CHECK_EQ(poll1(rd, 0), POLLHUP);
	do_sys_close(rd);
	make_pipe(0);
	do_sys_close(rd);
	CHECK_EQ(poll1(wr, POLLOUT), POLLOUT | POLLERR);

	int file = (int)do_sys_open("/tmp/x", O_CREAT | O_RDWR, 0644);
	p[0] = (struct kernel_pollfd){ file, POLLIN | POLLOUT, 0 };
	p[1] = (struct kernel_pollfd){ -1, POLLIN, 0x55 };
	p[2] = (struct kernel_pollfd){ 900, POLLIN, 0 };
	p[3] = (struct kernel_pollfd){ wr, POLLIN, 0 };
	CHECK_EQ(do_sys_poll(p, 4, 0), 3);
	CHECK_EQ(p[0].revents, POLLIN | POLLOUT); /* files are always ready */
	CHECK_EQ(p[1].revents, 0);		  /* negative fds are skipped */
	CHECK_EQ(p[2].revents, POLLNVAL);
	CHECK_EQ(p[3].revents, POLLERR);
	CHECK_EQ(do_sys_poll(p, NR_OPEN + 1, 0), -EINVAL);
	CHECK_EQ(do_sys_poll(BAD_USER_PTR, 1, 0), -EFAULT);
	CHECK_EQ(do_sys_poll(NULL, 0, 0), 0);
}

static int watched[20][2];

static void
write_to_17th(void)
{
	CHECK_EQ(do_sys_write(watched[17][1], "!", 1), 1);
}

UNIT_TEST(poll_sleeps_until_a_pipe_has_data)
{
	struct kernel_pollfd p[20];

	fs_setup();
	for (int i = 0; i < 20; i++) {
		do_sys_pipe(watched[i]);
		p[i] = (struct kernel_pollfd){ watched[i][0], POLLIN, 0 };
	}
	u64 objects = kmalloc_objects_now();
	/* Twenty queues: more than the table holds inline, so it allocates. */
	other_side = write_to_17th;
	CHECK_EQ(do_sys_poll(p, 20, -1), 1);
	CHECK_EQ(sleeps, 1);
	CHECK_EQ(p[17].revents, POLLIN);
	CHECK_EQ(p[3].revents, 0);
	for (int i = 0; i < 20; i++)
		CHECK(queues_empty(watched[i][0]));
	CHECK_EQ(kmalloc_objects_now(), objects);
	CHECK_EQ(test_task.state, TASK_RUNNABLE);

	other_side = write_to_17th;
	CHECK_EQ(do_sys_poll(p, 20, 1000), 1); /* woken before the timeout */
	CHECK_EQ(fake_ns, 0);
}

UNIT_TEST(poll_timeouts)
{
	struct kernel_pollfd p;
	struct kernel_timespec ts;

	fs_setup();
	make_pipe(0);
	p = (struct kernel_pollfd){ rd, POLLIN, 0 };
	CHECK_EQ(do_sys_poll(&p, 1, 50), 0);
	CHECK_EQ(fake_ns, 50000000);
	CHECK_EQ(sleeps, 1);
	CHECK(queues_empty(rd));
	CHECK_EQ(do_sys_poll(NULL, 0, 20), 0); /* a plain sleep */
	CHECK_EQ(fake_ns, 70000000);

	ts = (struct kernel_timespec){ 1, 500 };
	CHECK_EQ(do_sys_ppoll(&p, 1, &ts, NULL, 0), 0);
	CHECK_EQ(fake_ns, 1070000500);
	CHECK_EQ(ts.tv_sec, 0);
	CHECK_EQ(ts.tv_nsec, 0);
	ts = (struct kernel_timespec){ 0, 0 };
	CHECK_EQ(do_sys_ppoll(&p, 1, &ts, NULL, 0), 0);
	CHECK_EQ(sleeps, 3); /* a zero timeout does not sleep */
	ts = (struct kernel_timespec){ 0, 1000000000 };
	CHECK_EQ(do_sys_ppoll(&p, 1, &ts, NULL, 0), -EINVAL);
	ts = (struct kernel_timespec){ -1, 0 };
	CHECK_EQ(do_sys_ppoll(&p, 1, &ts, NULL, 0), -EINVAL);
	CHECK_EQ(do_sys_ppoll(&p, 1, BAD_USER_PTR, NULL, 0), -EFAULT);
	u64 mask = 0;
	CHECK_EQ(do_sys_ppoll(&p, 1, &ts, &mask, 4), -EINVAL);
	do_sys_write(wr, "r", 1);
	ts = (struct kernel_timespec){ 5, 0 };
	CHECK_EQ(do_sys_ppoll(&p, 1, &ts, &mask, 8), 1);
	CHECK_EQ(ts.tv_sec, 5); /* no time passed */
	CHECK_EQ(do_sys_ppoll(&p, 1, NULL, NULL, 0), 1);
}
