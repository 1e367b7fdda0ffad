/*
 * sendfile.c - usertests: sendfile and copy_file_range - offsets (given
 * and advanced, or the file position), short transfers at end of file,
 * destinations (regular file, pipe, AF_UNIX socket) and Linux 6.1's errnos.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

static long
copy_range(int in, off_t *in_off, int out, off_t *out_off, size_t len, unsigned flags)
{
	return syscall(SYS_copy_file_range, in, in_off, out, out_off, len, flags);
}

TEST(sendfile_offsets)
{
	char buf[32] = { 0 };
	int in = create_file("sf_in", "0123456789", 10, 0644);
	int out = create_file("sf_out", "", 0, 0644);
	off_t off = 2;

	CHECK_EQ(lseek(in, 1, SEEK_SET), 1);
	CHECK_EQ(sendfile(out, in, &off, 4), 4);
	CHECK(off == 6 && lseek(in, 0, SEEK_CUR) == 1); /* given offset: position untouched */
	CHECK_EQ(sendfile(out, in, NULL, 3), 3);
	CHECK_EQ(lseek(in, 0, SEEK_CUR), 4); /* NULL: the position moves */
	off = 8;
	CHECK(sendfile(out, in, &off, 100) == 2 && off == 10); /* short at end of file */
	CHECK_EQ(sendfile(out, in, &off, 100), 0);
	CHECK(pread(out, buf, sizeof(buf), 0) == 9 && memcmp(buf, "234512389", 9) == 0);
	CHECK_EQ(sendfile(out, in, NULL, 0), 0);
	close(in);
	close(out);
}

TEST(sendfile_pipe_and_socket)
{
	char buf[16];
	int in = create_file("sf_src", "payload", 7, 0644);
	int p[2], s[2];

	CHECK_OK(pipe(p));
	CHECK_OK(socketpair(AF_UNIX, SOCK_STREAM, 0, s));
	off_t off = 0;
	CHECK_EQ(sendfile(p[1], in, &off, 7), 7);
	CHECK(read(p[0], buf, sizeof(buf)) == 7 && memcmp(buf, "payload", 7) == 0);
	off = 3;
	CHECK_EQ(sendfile(s[0], in, &off, 7), 4);
	CHECK(read(s[1], buf, sizeof(buf)) == 4 && memcmp(buf, "load", 4) == 0);
	CHECK_ERR(ESPIPE, sendfile(in, p[0], &off, 1)); /* an offset on a pipe */
	close(p[0]);
	close(p[1]);
	close(s[0]);
	close(s[1]);
	close(in);
}

TEST(sendfile_errors)
{
	int in = create_file("sf_e", "abc", 3, 0644);
	int ro = open("sf_e", O_RDONLY);
	int app = open("sf_e2", O_CREAT | O_WRONLY | O_APPEND, 0644);
	off_t off = -1;

	CHECK_ERR(EBADF, sendfile(ro, in, NULL, 1));  /* out not open for writing */
	CHECK_ERR(EBADF, sendfile(in, app, NULL, 1)); /* in not open for reading */
	CHECK_ERR(EBADF, sendfile(-1, in, NULL, 1));
	CHECK_ERR(EINVAL, sendfile(in, ro, &off, 1));
	CHECK_ERR(EINVAL, sendfile(app, ro, NULL, 1)); /* O_APPEND destination */
	close(in);
	close(ro);
	close(app);
}

TEST(copy_file_range_basic)
{
	char buf[32] = { 0 };
	int in = create_file("cfr_in", "abcdefgh", 8, 0644);
	int out = create_file("cfr_out", "", 0, 0644);
	off_t in_off = 2, out_off = 1;

	CHECK_EQ(copy_range(in, &in_off, out, &out_off, 3, 0), 3);
	CHECK(in_off == 5 && out_off == 4);
	CHECK(lseek(in, 0, SEEK_CUR) == 8 && lseek(out, 0, SEEK_CUR) == 0);
	CHECK_EQ(copy_range(in, &in_off, out, NULL, 100, 0), 3); /* short at end of file */
	CHECK_EQ(lseek(out, 0, SEEK_CUR), 3);
	CHECK(pread(out, buf, sizeof(buf), 0) == 4 && memcmp(buf, "fghe", 4) == 0);
	CHECK_EQ(copy_range(in, NULL, out, NULL, 0, 0), 0);
	close(in);
	close(out);
}

TEST(copy_file_range_errors)
{
	int f = create_file("cfr_e", "0123456789", 10, 0644);
	int ro = open("cfr_e", O_RDONLY);
	int app = open("cfr_e", O_WRONLY | O_APPEND);
	int dir = open(".", O_RDONLY | O_DIRECTORY);
	int p[2];
	off_t a = 0, b = 4, neg = -1;

	CHECK_OK(pipe(p));
	CHECK_ERR(EINVAL, copy_range(ro, NULL, f, NULL, 1, 1)); /* flags */
	CHECK_ERR(EBADF, copy_range(ro, NULL, ro, NULL, 1, 0));
	CHECK_ERR(EBADF, copy_range(ro, NULL, app, NULL, 1, 0)); /* O_APPEND destination */
	CHECK_ERR(EISDIR, copy_range(dir, NULL, f, NULL, 1, 0));
	CHECK_ERR(EINVAL, copy_range(p[0], NULL, f, NULL, 1, 0));
	CHECK_ERR(EINVAL, copy_range(ro, &a, f, &b, 5, 0));	 /* overlapping, one file */
	CHECK_ERR(EOVERFLOW, copy_range(ro, &neg, f, &b, 1, 0)); /* the unsigned sum wraps */
	CHECK_ERR(EINVAL,
		  copy_range(ro, &b, f, &a, 100, 0)); /* cut at the end, still overlapping */
	CHECK_EQ(copy_range(ro, &a, f, &b, 4, 0), 4); /* same file, apart */
	close(p[0]);
	close(p[1]);
	close(dir);
	close(app);
	close(ro);
	close(f);
}

static void
on_alarm(int sig)
{
	(void)sig;
}

/* A signal ends a transfer blocked on a full pipe with the count so far. */
TEST(sendfile_interrupted)
{
	static char big[1 << 20];
	int in = create_file("sf_big", big, sizeof(big), 0644);
	struct sigaction sa = { .sa_handler = on_alarm }; /* no SA_RESTART */
	/* Repeating: one alarm could fire before the pipe fills (a loaded host). */
	struct itimerval it = { { 0, 30000 }, { 0, 30000 } }, stop = { 0 };
	int p[2];
	off_t off = 0;

	CHECK_OK(pipe(p));
	CHECK_OK(sigaction(SIGALRM, &sa, NULL));
	CHECK_OK(setitimer(ITIMER_REAL, &it, NULL));
	long sent = sendfile(p[1], in, &off, sizeof(big));
	CHECK(sent > 0 && sent < (long)sizeof(big) && off == sent);
	CHECK_OK(setitimer(ITIMER_REAL, &stop, NULL));
	signal(SIGALRM, SIG_DFL);
	close(p[0]);
	close(p[1]);
	close(in);
}
