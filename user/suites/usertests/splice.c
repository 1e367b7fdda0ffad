/*
 * splice.c - usertests: splice, tee and vmsplice - a file's offsets (given
 * and advanced, or its position), pipe to file, file to pipe, pipe to
 * pipe and socket ends, waiting and SPLICE_F_NONBLOCK, end of file, and
 * Linux 6.1's errnos.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

/* Fills the pipe whose write end is wr (made non-blocking) until it takes no more. */
static void
fill_pipe(int wr)
{
	static char junk[4096];

	CHECK_OK(fcntl(wr, F_SETFL, O_NONBLOCK));
	while (write(wr, junk, sizeof(junk)) > 0)
		;
	CHECK_EQ(errno, EAGAIN);
	CHECK_OK(fcntl(wr, F_SETFL, 0));
}

TEST(splice_file_to_pipe)
{
	char buf[16];
	int in = create_file("sp_in", "0123456789", 10, 0644);
	int p[2];
	loff_t off = 2;

	CHECK_OK(pipe(p));
	CHECK_EQ(lseek(in, 0, SEEK_SET), 0);
	CHECK_EQ(splice(in, &off, p[1], NULL, 4, 0), 4);
	CHECK(off == 6 && lseek(in, 0, SEEK_CUR) == 0); /* given offset: position untouched */
	CHECK_EQ(splice(in, NULL, p[1], NULL, 3, 0), 3);
	CHECK_EQ(lseek(in, 0, SEEK_CUR), 3); /* NULL: the position moves */
	off = 8;
	CHECK(splice(in, &off, p[1], NULL, 100, 0) == 2 && off == 10); /* short at end of file */
	CHECK_EQ(splice(in, &off, p[1], NULL, 100, 0), 0);
	CHECK(read(p[0], buf, sizeof(buf)) == 9 && memcmp(buf, "234501289", 9) == 0);
	close(p[0]);
	close(p[1]);
	close(in);
}

TEST(splice_pipe_to_file)
{
	char buf[16] = { 0 };
	int out = create_file("sp_out", "--------", 8, 0644);
	int p[2];
	loff_t off = 1;

	CHECK_OK(pipe(p));
	CHECK_EQ(lseek(out, 0, SEEK_SET), 0);
	CHECK_EQ(write(p[1], "hello", 5), 5);
	CHECK_EQ(splice(p[0], NULL, out, &off, 3, 0), 3);
	CHECK(off == 4 && lseek(out, 0, SEEK_CUR) == 0);
	CHECK_EQ(splice(p[0], NULL, out, NULL, 100, 0), 2); /* what the pipe holds, not more */
	CHECK_EQ(lseek(out, 0, SEEK_CUR), 2);
	CHECK(pread(out, buf, sizeof(buf), 0) == 8 && memcmp(buf, "loel----", 8) == 0);
	CHECK_ERR(EAGAIN, splice(p[0], NULL, out, NULL, 1, SPLICE_F_NONBLOCK)); /* empty */
	CHECK_OK(fcntl(p[0], F_SETFL, O_NONBLOCK));
	CHECK_ERR(EAGAIN, splice(p[0], NULL, out, NULL, 1, 0)); /* the pipe's O_NONBLOCK too */
	close(p[1]);
	CHECK_EQ(splice(p[0], NULL, out, NULL, 1, 0), 0); /* no writer: end of file */
	close(p[0]);
	close(out);
}

/* An empty pipe's splice waits for a writer's bytes. */
TEST(splice_waits_for_data)
{
	int out = create_file("sp_wait", "", 0, 0644);
	int p[2];

	CHECK_OK(pipe(p));
	pid_t pid = write_later(p[1]);
	CHECK_EQ(splice(p[0], NULL, out, NULL, 10, 0), 1);
	CHECK_OK(waitpid(pid, NULL, 0));
	close(p[0]);
	close(p[1]);
	close(out);
}

TEST(splice_pipe_to_pipe_and_socket)
{
	char buf[16];
	int a[2], b[2], s[2];

	CHECK_OK(pipe(a));
	CHECK_OK(pipe(b));
	CHECK_OK(socketpair(AF_UNIX, SOCK_STREAM, 0, s));
	CHECK_EQ(write(a[1], "abcdef", 6), 6);
	CHECK_EQ(splice(a[0], NULL, b[1], NULL, 4, 0), 4);
	CHECK_EQ(splice(b[0], NULL, s[0], NULL, 100, 0), 4); /* pipe to socket */
	CHECK(read(s[1], buf, sizeof(buf)) == 4 && memcmp(buf, "abcd", 4) == 0);
	CHECK_EQ(write(s[1], "xyz", 3), 3);
	CHECK_EQ(splice(s[0], NULL, b[1], NULL, 100, 0), 3); /* socket to pipe */
	CHECK(read(b[0], buf, sizeof(buf)) == 3 && memcmp(buf, "xyz", 3) == 0);
	CHECK(read(a[0], buf, sizeof(buf)) == 2 && memcmp(buf, "ef", 2) == 0);
	close(a[1]);
	CHECK_EQ(splice(a[0], NULL, b[1], NULL, 1, 0), 0); /* end of file */
	close(a[0]);
	close(b[0]);
	close(b[1]);
	close(s[0]);
	close(s[1]);
}

TEST(splice_full_and_broken_pipes)
{
	int in = create_file("sp_full", "data", 4, 0644);
	int p[2], q[2];

	CHECK_OK(pipe(p));
	CHECK_OK(pipe(q));
	fill_pipe(p[1]);
	CHECK_ERR(EAGAIN, splice(in, NULL, p[1], NULL, 4, SPLICE_F_NONBLOCK));
	CHECK_EQ(write(q[1], "z", 1), 1);
	CHECK_ERR(EAGAIN, splice(q[0], NULL, p[1], NULL, 1, SPLICE_F_NONBLOCK));
	signal(SIGPIPE, SIG_IGN);
	close(p[0]);
	CHECK_ERR(EPIPE, splice(in, NULL, p[1], NULL, 4, 0)); /* no reader left */
	CHECK_ERR(EPIPE, splice(q[0], NULL, p[1], NULL, 1, 0));
	close(p[1]);
	close(q[0]);
	close(q[1]);
	close(in);
}

TEST(splice_errors)
{
	int f = create_file("sp_e", "abc", 3, 0644);
	int ro = open("sp_e", O_RDONLY);
	int app = open("sp_e", O_WRONLY | O_APPEND);
	int p[2], s[2];
	loff_t off = 0, neg = -1;

	CHECK_OK(pipe(p));
	CHECK_OK(socketpair(AF_UNIX, SOCK_STREAM, 0, s));
	CHECK_EQ(write(p[1], "x", 1), 1);
	CHECK_EQ(splice(-1, NULL, p[1], NULL, 0, 0), 0);	      /* nothing asked */
	CHECK_ERR(EINVAL, splice(ro, NULL, p[1], NULL, 1, 0x100));    /* flags */
	CHECK_ERR(EBADF, splice(-1, NULL, p[1], NULL, 1, 0));	      /* no file */
	CHECK_ERR(EINVAL, splice(ro, NULL, f, NULL, 1, 0));	      /* no pipe */
	CHECK_ERR(ESPIPE, splice(p[0], &off, f, NULL, 1, 0));	      /* offset on a pipe */
	CHECK_ERR(ESPIPE, splice(ro, NULL, p[1], &off, 1, 0));	      /* the same, out */
	CHECK_ERR(EINVAL, splice(p[0], NULL, p[1], NULL, 1, 0));      /* the same pipe */
	CHECK_ERR(EBADF, splice(p[1], NULL, f, NULL, 1, 0));	      /* write end read */
	CHECK_ERR(EBADF, splice(p[0], NULL, ro, NULL, 1, 0));	      /* read-only file */
	CHECK_ERR(EINVAL, splice(p[0], NULL, app, NULL, 1, 0));	      /* O_APPEND */
	CHECK_ERR(EINVAL, splice(p[0], NULL, s[0], &off, 1, 0));      /* cannot seek */
	CHECK_ERR(EINVAL, splice(ro, &neg, p[1], NULL, 1, 0));	      /* negative offset */
	CHECK_ERR(EFAULT, splice(ro, (loff_t *)8, p[1], NULL, 1, 0)); /* bad offset pointer */
	int efd = (int)CHECK_OK(eventfd(1, 0));
	CHECK_ERR(EINVAL, splice(efd, NULL, p[1], NULL, 8, 0)); /* no splice_read in Linux */
	CHECK_ERR(EINVAL, splice(p[0], NULL, efd, NULL, 1, 0)); /* nor splice_write */
	close(efd);
	close(p[0]);
	close(p[1]);
	close(s[0]);
	close(s[1]);
	close(app);
	close(ro);
	close(f);
}

TEST(tee_copies_without_consuming)
{
	char buf[16];
	int p[2], q[2];
	int f = create_file("tee_f", "", 0, 0644);

	CHECK_OK(pipe(p));
	CHECK_OK(pipe(q));
	CHECK_EQ(write(p[1], "abcdef", 6), 6);
	CHECK_EQ(tee(p[0], q[1], 4, 0), 4);
	CHECK(read(q[0], buf, sizeof(buf)) == 4 && memcmp(buf, "abcd", 4) == 0);
	CHECK_EQ(tee(p[0], q[1], 100, 0), 6); /* still all there */
	CHECK(read(p[0], buf, sizeof(buf)) == 6 && memcmp(buf, "abcdef", 6) == 0);
	CHECK_ERR(EAGAIN, tee(p[0], q[1], 1, SPLICE_F_NONBLOCK)); /* empty */
	CHECK_EQ(tee(p[0], q[1], 0, 0), 0);
	CHECK_ERR(EINVAL, tee(p[0], q[1], 1, 0x100));
	CHECK_ERR(EINVAL, tee(p[0], p[1], 1, 0)); /* the same pipe */
	CHECK_ERR(EINVAL, tee(f, q[1], 1, 0));	  /* not a pipe */
	CHECK_ERR(EBADF, tee(p[1], q[1], 1, 0));  /* write end read */
	CHECK_ERR(EBADF, tee(-1, q[1], 1, 0));
	close(p[1]);
	CHECK_EQ(tee(p[0], q[1], 1, 0), 0); /* end of file */
	close(p[0]);
	close(q[0]);
	close(q[1]);
	close(f);
}

TEST(vmsplice_both_ways)
{
	char a[] = "hello ", b[] = "world", got1[4], got2[16] = { 0 };
	struct iovec in[2] = { { a, 6 }, { b, 5 } };
	struct iovec out[2] = { { got1, 4 }, { got2, sizeof(got2) } };
	int p[2];
	int f = create_file("vms_f", "", 0, 0644);

	CHECK_OK(pipe(p));
	CHECK_EQ(vmsplice(p[1], in, 2, 0), 11);
	CHECK_EQ(vmsplice(p[0], out, 2, 0), 11);
	CHECK(memcmp(got1, "hell", 4) == 0 && memcmp(got2, "o world", 7) == 0);
	CHECK_ERR(EAGAIN, vmsplice(p[0], out, 2, SPLICE_F_NONBLOCK)); /* empty */
	CHECK_EQ(vmsplice(p[1], in, 0, 0), 0);
	CHECK_ERR(EINVAL, vmsplice(p[1], in, 2, 0x100));
	CHECK_ERR(EBADF, vmsplice(f, in, 2, 0)); /* not a pipe */
	CHECK_ERR(EBADF, vmsplice(-1, in, 2, 0));
	struct iovec bad = { (void *)8, 4 };
	CHECK_ERR(EFAULT, vmsplice(p[1], &bad, 1, 0));
	fill_pipe(p[1]);
	CHECK_ERR(EAGAIN, vmsplice(p[1], in, 2, SPLICE_F_NONBLOCK)); /* full */
	close(p[0]);
	close(p[1]);
	close(f);
}
