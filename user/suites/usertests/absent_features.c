/*
 * absent_features.c - usertests: the calls glibc's programs make to ask
 * whether something is there - an extended attribute, a socket family,
 * read-ahead advice - checked where every Linux agrees: bad descriptors, paths, names and
 * flags get their errno first; then an attribute is absent (EOPNOTSUPP
 * where the file system has none, ENODATA where it has some but not this
 * one), the attribute list is empty or a list, an unknown address family
 * is EAFNOSUPPORT, and fadvise's hints succeed on a file, not on a pipe;
 * readahead asks a regular file open for reading, sync_file_range a
 * valid range of something with pages.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

/* An attribute nobody sets: absent either way. */
#define NO_ATTR "user.rewind-test-absent"

static void
expect_no_attribute(long ret, const char *what)
{
	if (ret != -1 || (errno != EOPNOTSUPP && errno != ENODATA))
		fail("%s: %ld (%s), want EOPNOTSUPP or ENODATA", what, ret, errname(errno));
}

TEST(xattr_absent)
{
	char buf[64];

	make_file("f", "x", 1);
	CHECK_OK(symlink("f", "link"));
	int fd = CHECK_OK(open("f", O_RDONLY));
	expect_no_attribute(getxattr("f", NO_ATTR, buf, sizeof(buf)), "getxattr");
	expect_no_attribute(lgetxattr("link", NO_ATTR, buf, sizeof(buf)), "lgetxattr");
	expect_no_attribute(fgetxattr(fd, NO_ATTR, buf, sizeof(buf)), "fgetxattr");
	expect_no_attribute(removexattr("f", NO_ATTR), "removexattr");
	expect_no_attribute(fremovexattr(fd, NO_ATTR), "fremovexattr");
	CHECK(CHECK_OK(listxattr("f", buf, sizeof(buf))) >= 0);
	CHECK(CHECK_OK(flistxattr(fd, NULL, 0)) >= 0);

	CHECK_ERR(ENOENT, getxattr("missing", NO_ATTR, buf, sizeof(buf)));
	CHECK_ERR(ENOENT, listxattr("missing", buf, sizeof(buf)));
	CHECK_ERR(EBADF, fgetxattr(-1, NO_ATTR, buf, sizeof(buf)));
	CHECK_ERR(EBADF, flistxattr(-1, buf, sizeof(buf)));
	CHECK_ERR(ERANGE, getxattr("f", "", buf, sizeof(buf)));
	char long_name[300];
	memset(long_name, 'a', sizeof(long_name) - 1);
	memcpy(long_name, "user.", 5);
	long_name[sizeof(long_name) - 1] = '\0';
	CHECK_ERR(ERANGE, getxattr("f", long_name, buf, sizeof(buf)));
	CHECK_ERR(EFAULT, getxattr("f", (const char *)8, buf, sizeof(buf)));
	close(fd);
}

TEST(socket_argument_errors)
{
	CHECK_ERR(EAFNOSUPPORT, socket(12345, SOCK_STREAM, 0));
	CHECK_ERR(EAFNOSUPPORT, socket(-1, SOCK_STREAM, 0));
	CHECK_ERR(EINVAL, socket(AF_UNIX, SOCK_STREAM | 0x40000000, 0));
	int sv[2];
	CHECK_ERR(EAFNOSUPPORT, socketpair(12345, SOCK_STREAM, 0, sv));
	/* A family Linux has (this one may lack it: then it is EAFNOSUPPORT too). */
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0 && errno != EAFNOSUPPORT)
		fail("socket(AF_UNIX): %s, want a socket or EAFNOSUPPORT", errname(errno));
	if (s >= 0)
		close(s);
}

TEST(fadvise_hints)
{
	int p[2];

	make_file("f", "data", 4);
	int fd = CHECK_OK(open("f", O_RDONLY));
	for (int advice = POSIX_FADV_NORMAL; advice <= POSIX_FADV_NOREUSE; advice++)
		CHECK_EQ(posix_fadvise(fd, 0, 0, advice), 0);
	CHECK_EQ(posix_fadvise(fd, 0, 0, 99), EINVAL);
	CHECK_EQ(posix_fadvise(fd, 0, -1, POSIX_FADV_NORMAL), EINVAL);
	CHECK_EQ(posix_fadvise(-1, 0, 0, POSIX_FADV_NORMAL), EBADF);
	CHECK_OK(pipe(p));
	CHECK_EQ(posix_fadvise(p[0], 0, 0, POSIX_FADV_NORMAL), ESPIPE);
	close(p[0]);
	close(p[1]);
	close(fd);
}

TEST(readahead_of_a_readable_regular_file)
{
	int p[2];

	make_file("f", "data", 4);
	int fd = CHECK_OK(open("f", O_RDONLY));
	CHECK_OK(readahead(fd, 0, 4096));
	CHECK_OK(readahead(fd, 1 << 20, 4096)); /* past the end: nothing to read, no error */
	close(fd);
	fd = CHECK_OK(open("f", O_WRONLY));
	CHECK_ERR(EBADF, readahead(fd, 0, 4096));
	close(fd);
	CHECK_ERR(EBADF, readahead(-1, 0, 4096));
	CHECK_OK(pipe(p));
	CHECK_ERR(EINVAL, readahead(p[0], 0, 4096));
	close(p[0]);
	close(p[1]);
	fd = CHECK_OK(open(".", O_RDONLY | O_DIRECTORY));
	CHECK_ERR(EINVAL, readahead(fd, 0, 4096));
	close(fd);
}

TEST(sync_file_range_checks_range_and_kind)
{
	int p[2];

	make_file("f", "data", 4);
	int fd = CHECK_OK(open("f", O_RDWR));
	CHECK_OK(sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE));
	CHECK_OK(sync_file_range(fd, 0, 4,
				 SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE |
					 SYNC_FILE_RANGE_WAIT_AFTER));
	CHECK_ERR(EINVAL, sync_file_range(fd, -1, 4, 0));
	CHECK_ERR(EINVAL, sync_file_range(fd, 0, -1, 0));
	CHECK_ERR(EINVAL, sync_file_range(fd, 0, 4, 8));
	CHECK_ERR(EINVAL, sync_file_range(fd, 0x7fffffffffffffffLL, 1, 0)); /* the end overflows */
	close(fd);
	CHECK_ERR(EBADF, sync_file_range(-1, 0, 0, 0));
	CHECK_OK(pipe(p));
	CHECK_ERR(ESPIPE, sync_file_range(p[0], 0, 0, 0));
	CHECK_ERR(EINVAL, sync_file_range(p[0], 0, 0, 8)); /* the flags before the kind */
	close(p[0]);
	close(p[1]);
}
