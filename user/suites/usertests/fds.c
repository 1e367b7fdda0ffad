/*
 * fds.c - usertests: file descriptors themselves: dup, fcntl, what every
 * call answers for a bad fd, and the terminal ioctls (on files, pipes and
 * the console).
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

TEST(dup)
{
	int fd = create_file("f", "", 0, 0644), g, d;

	d = EXPECT_OK(dup(fd));
	CHECK(d != fd);
	CHECK(write(d, "abc", 3) == 3);
	CHECK(lseek(fd, 0, SEEK_CUR) == 3); /* one shared offset */
	close(d);
	g = EXPECT_OK(open("f", O_RDONLY));
	CHECK(g == d); /* the lowest free number */
	CHECK(dup2(fd, 50) == 50);
	CHECK(lseek(50, 0, SEEK_CUR) == 3);
	CHECK(dup2(fd, fd) == fd);
	CHECK(dup2(fd, g) == g); /* closes what g was */
	CHECK(write(g, "d", 1) == 1);
	CHECK(syscall(SYS_dup3, fd, 51, O_CLOEXEC) == 51);
	CHECK(fcntl(51, F_GETFD) == FD_CLOEXEC);
	CHECK(fcntl(50, F_GETFD) == 0);
	/* Raw calls: musl answers these two itself, or uses dup2 without flags. */
	EXPECT_ERR(EINVAL, syscall(SYS_dup3, fd, fd, 0));
	EXPECT_ERR(EINVAL, syscall(SYS_dup3, fd, 52, 0x1));
	EXPECT_ERR(EBADF, dup(-1));
	EXPECT_ERR(EBADF, dup(999));
	EXPECT_ERR(EBADF, dup2(999, 53));
	EXPECT_ERR(EBADF, dup2(fd, -1));
	EXPECT_ERR(EBADF, dup2(fd, 1 << 30));
	EXPECT_ERR(EBADF, close(-1));
}

TEST(fcntl)
{
	int fd = create_file("f", "", 0, 0644), p[2], d;
	char c;

	CHECK((fcntl(fd, F_GETFL) & O_ACCMODE) == O_RDWR);
	CHECK(fcntl(fd, F_GETFD) == 0);
	EXPECT_OK(fcntl(fd, F_SETFD, FD_CLOEXEC));
	CHECK(fcntl(fd, F_GETFD) == FD_CLOEXEC);
	EXPECT_OK(fcntl(fd, F_SETFL, O_APPEND | O_RDONLY)); /* the access mode stays */
	CHECK((fcntl(fd, F_GETFL) & (O_ACCMODE | O_APPEND)) == (O_RDWR | O_APPEND));
	d = EXPECT_OK(fcntl(fd, F_DUPFD, 60));
	CHECK(d >= 60 && fcntl(d, F_GETFD) == 0);
	d = EXPECT_OK(fcntl(fd, F_DUPFD_CLOEXEC, 70));
	CHECK(d >= 70 && fcntl(d, F_GETFD) == FD_CLOEXEC);
	EXPECT_OK(pipe(p));
	EXPECT_OK(fcntl(p[0], F_SETFL, O_NONBLOCK));
	CHECK(fcntl(p[0], F_GETFL) & O_NONBLOCK);
	EXPECT_ERR(EAGAIN, read(p[0], &c, 1));
	EXPECT_ERR(EINVAL, fcntl(fd, 9999));
	EXPECT_ERR(EBADF, fcntl(999, F_GETFD));
	EXPECT_ERR(EINVAL, fcntl(fd, F_DUPFD, -1));
}

TEST(ebadf)
{
	char buf[8];
	struct stat st;
	int closed = create_file("f", "", 0, 0644);

	close(closed);
	int bad[] = { -1, 999, closed, 1 << 20 };

	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int fd = bad[i];

		EXPECT_ERR(EBADF, read(fd, buf, 1));
		EXPECT_ERR(EBADF, write(fd, buf, 1));
		EXPECT_ERR(EBADF, pread(fd, buf, 1, 0));
		EXPECT_ERR(EBADF, pwrite(fd, buf, 1, 0));
		EXPECT_ERR(EBADF, close(fd));
		EXPECT_ERR(EBADF, syscall(SYS_fstat, fd, &st));
		EXPECT_ERR(EBADF, lseek(fd, 0, SEEK_SET));
		EXPECT_ERR(EBADF, fsync(fd));
		EXPECT_ERR(EBADF, ioctl(fd, TCGETS, buf));
		EXPECT_ERR(EBADF, syscall(SYS_getdents64, fd, buf, sizeof(buf)));
		EXPECT_ERR(EBADF, syscall(SYS_newfstatat, fd, "x", &st, 0));
	}
}

/* === terminals ============================================================ */

TEST(ioctl_not_a_tty)
{
	struct termios t;
	struct winsize w;
	int fd = create_file("f", "", 0, 0644), p[2];
	int null = EXPECT_OK(open("/dev/null", O_RDWR));

	EXPECT_OK(pipe(p));
	EXPECT_ERR(ENOTTY, ioctl(fd, TCGETS, &t));
	EXPECT_ERR(ENOTTY, ioctl(fd, TIOCGWINSZ, &w));
	EXPECT_ERR(ENOTTY, ioctl(p[0], TCGETS, &t));
	EXPECT_ERR(ENOTTY, ioctl(null, TCGETS, &t));
	EXPECT_ERR(EBADF, ioctl(999, TCGETS, &t));
}

/* The console: stdin, stdout or stderr when it is a terminal (always on rewind). */
static int
console_fd(void)
{
	struct termios t;

	for (int fd = 0; fd < 3; fd++)
		if (ioctl(fd, TCGETS, &t) == 0)
			return fd;
	if (on_rewind())
		return EXPECT_OK(open("/dev/console", O_RDWR));
	skip("no terminal on fds 0-2");
}

TEST(ioctl_console)
{
	int fd = console_fd();
	struct termios t;
	struct winsize w;
	struct pollfd f = { .fd = fd, .events = POLLOUT };

	EXPECT_OK(ioctl(fd, TCGETS, &t));
	EXPECT_OK(ioctl(fd, TIOCGWINSZ, &w));
	for (unsigned i = 0; i < NBAD; i++) {
		EXPECT_ERR(EFAULT, syscall(SYS_ioctl, fd, TCGETS, bad_addrs[i]));
		EXPECT_ERR(EFAULT, syscall(SYS_ioctl, fd, TIOCGWINSZ, bad_addrs[i]));
	}
	EXPECT_ERR(ENOTTY, ioctl(fd, 0x5401ff, &t));
	CHECK(poll(&f, 1, 0) == 1 && (f.revents & POLLOUT));
}
