/*
 * fallocate.c - usertests: fallocate(2) on a memfd (tmpfs on Linux, so
 * both kernels offer the same modes): allocation that grows the file or
 * keeps its size, punched holes that read (and map) as zeros, the modes
 * tmpfs refuses, seals, RLIMIT_FSIZE and Linux 6.1's errnos; and lseek's
 * SEEK_DATA and SEEK_HOLE over the pages a file never wrote or punched.
 */
#define _GNU_SOURCE
#include "usertests.h"
#include "uapi/falloc.h" /* musl names only the first two modes */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* A memfd holding len bytes of pattern seed (sealable when flags say so). */
static int
pattern_memfd(size_t len, unsigned seed, unsigned flags)
{
	static unsigned char buf[3 * PAGE];
	int fd = (int)CHECK_OK(syscall(SYS_memfd_create, "falloc", flags));

	CHECK(len <= sizeof(buf));
	fill_pattern(buf, len, seed);
	CHECK_EQ(pwrite(fd, buf, len, 0), (ssize_t)len);
	return fd;
}

static off_t
size_of(int fd)
{
	struct stat st;

	CHECK_OK(fstat(fd, &st));
	return st.st_size;
}

TEST(fallocate_allocates)
{
	unsigned char buf[200];
	int fd = pattern_memfd(100, 1, 0);

	CHECK_OK(fallocate(fd, 0, 50, 150));
	CHECK_EQ(size_of(fd), 200); /* grown to offset + len */
	CHECK_EQ(pread(fd, buf, sizeof(buf), 0), 200);
	CHECK(has_pattern(buf, 100, 1) && all_bytes(buf + 100, 100, 0));
	CHECK_OK(fallocate(fd, 0, 0, 10)); /* inside: nothing changes */
	CHECK_EQ(size_of(fd), 200);
	CHECK_OK(fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, 4 * PAGE));
	CHECK_EQ(size_of(fd), 200);
	CHECK_EQ(lseek(fd, 0, SEEK_END), 200);
	close(fd);
}

TEST(fallocate_punch_hole)
{
	static unsigned char buf[3 * PAGE];
	int fd = pattern_memfd(sizeof(buf), 2, 0);
	unsigned char *map = mmap(NULL, sizeof(buf), PROT_READ, MAP_SHARED, fd, 0);

	CHECK(map != MAP_FAILED);
	CHECK_ERR(EOPNOTSUPP,
		  fallocate(fd, FALLOC_FL_PUNCH_HOLE, 100, 2 * PAGE)); /* no KEEP_SIZE */
	CHECK_OK(fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 100, 2 * PAGE));
	CHECK_EQ(size_of(fd), (off_t)sizeof(buf));
	CHECK_EQ(pread(fd, buf, sizeof(buf), 0), (ssize_t)sizeof(buf));
	CHECK(has_pattern(buf, 100, 2) && all_bytes(buf + 100, 2 * PAGE, 0));
	CHECK(memcmp(map, buf, sizeof(buf)) == 0); /* the mapping sees the hole */
	unsigned char tail[PAGE - 100];
	fill_pattern(buf, sizeof(buf), 2);
	CHECK_EQ(pread(fd, tail, sizeof(tail), 2 * PAGE + 100), (ssize_t)sizeof(tail));
	CHECK(memcmp(tail, buf + 2 * PAGE + 100, sizeof(tail)) == 0); /* past the hole: intact */
	CHECK_OK(fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, 1 << 20));
	CHECK_EQ(size_of(fd), (off_t)sizeof(buf)); /* past the end: the size stays */
	CHECK(all_bytes(map, sizeof(buf), 0));
	munmap(map, sizeof(buf));
	close(fd);
}

TEST(fallocate_modes)
{
	int fd = pattern_memfd(100, 3, 0);

	CHECK_ERR(EOPNOTSUPP, fallocate(fd, FALLOC_FL_ZERO_RANGE, 0, 10)); /* not on tmpfs */
	CHECK_ERR(EOPNOTSUPP, fallocate(fd, FALLOC_FL_NO_HIDE_STALE, 0, 10));
	CHECK_ERR(EOPNOTSUPP, fallocate(fd, 0x80, 0, 10));
	CHECK_ERR(EOPNOTSUPP, fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_ZERO_RANGE, 0, 10));
	/* A range shift with KEEP_SIZE: EINVAL in 6.1 (rewind's level), EOPNOTSUPP in later Linux. */
	CHECK(fallocate(fd, FALLOC_FL_COLLAPSE_RANGE | FALLOC_FL_KEEP_SIZE, 0, 10) == -1 &&
	      (errno == EINVAL || errno == EOPNOTSUPP));
	CHECK(fallocate(fd, FALLOC_FL_INSERT_RANGE | FALLOC_FL_KEEP_SIZE, 0, 10) == -1 &&
	      (errno == EINVAL || errno == EOPNOTSUPP));
	CHECK_ERR(EOPNOTSUPP, fallocate(fd, FALLOC_FL_COLLAPSE_RANGE, 0, PAGE));
	close(fd);
}

TEST(fallocate_errors)
{
	int fd = pattern_memfd(100, 4, 0);
	int p[2], s[2];
	char ro_path[64];

	CHECK_OK(pipe(p));
	CHECK_OK(socketpair(AF_UNIX, SOCK_STREAM, 0, s));
	snprintf(ro_path, sizeof(ro_path), "/proc/self/fd/%d", fd);
	int ro = (int)CHECK_OK(open(ro_path, O_RDONLY));
	int null = (int)CHECK_OK(open("/dev/null", O_WRONLY));
	CHECK_ERR(EINVAL, fallocate(fd, 0, -1, 10));
	CHECK_ERR(EINVAL, fallocate(fd, 0, 0, 0));
	CHECK_ERR(EINVAL, fallocate(fd, 0, 0, -5));
	CHECK_ERR(EBADF, fallocate(-1, 0, 0, 10));
	CHECK_ERR(EBADF, fallocate(ro, 0, 0, 10)); /* not open for writing */
	CHECK_ERR(ESPIPE, fallocate(p[1], 0, 0, 10));
	CHECK_ERR(ENODEV, fallocate(s[0], 0, 0, 10));
	CHECK_ERR(ENODEV, fallocate(null, 0, 0, 10));
	CHECK_ERR(EFBIG, fallocate(fd, 0, LLONG_MAX - 10, 100)); /* the end wraps */
	CHECK_EQ(size_of(fd), 100);
	close(null);
	close(ro);
	close(s[0]);
	close(s[1]);
	close(p[0]);
	close(p[1]);
	close(fd);
}

/* Growth obeys RLIMIT_FSIZE, with SIGXFSZ, even with KEEP_SIZE (Linux's inode_newsize_ok). */
TEST(fallocate_file_size_limit)
{
	int fd = pattern_memfd(100, 5, 0);
	struct rlimit lim = { 4 * PAGE, 4 * PAGE };

	signal(SIGXFSZ, SIG_IGN);
	CHECK_OK(setrlimit(RLIMIT_FSIZE, &lim));
	CHECK_OK(fallocate(fd, 0, 0, 4 * PAGE));
	CHECK_ERR(EFBIG, fallocate(fd, 0, 0, 4 * PAGE + 1));
	CHECK_ERR(EFBIG, fallocate(fd, FALLOC_FL_KEEP_SIZE, 4 * PAGE, 1));
	CHECK_EQ(size_of(fd), 4 * PAGE);
	close(fd);
}

TEST(fallocate_memfd_seals)
{
	int fd = pattern_memfd(PAGE, 6, MFD_ALLOW_SEALING);

	CHECK_OK(fcntl(fd, F_ADD_SEALS, F_SEAL_GROW));
	CHECK_ERR(EPERM, fallocate(fd, 0, 0, PAGE + 1));
	CHECK_ERR(EPERM, fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, 2 * PAGE));
	CHECK_OK(fallocate(fd, 0, 0, PAGE)); /* within the size: no growth */
	CHECK_OK(fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, 10));
	CHECK_OK(fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE));
	CHECK_ERR(EPERM, fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, 10));
	CHECK_OK(fallocate(fd, 0, 0, 10)); /* allocating writes nothing */
	CHECK_EQ(size_of(fd), PAGE);
	close(fd);
}

/* Pages never written (or punched) are holes: SEEK_DATA skips them, SEEK_HOLE stops at them and at the end. */
TEST(seek_data_hole)
{
	int fd = (int)CHECK_OK(syscall(SYS_memfd_create, "holes", 0));

	CHECK_OK(ftruncate(fd, 8 * PAGE + 100));
	CHECK_EQ(pwrite(fd, "a", 1, 2 * PAGE + 10), 1);
	CHECK_EQ(pwrite(fd, "b", 1, 3 * PAGE), 1);
	CHECK_EQ(pwrite(fd, "c", 1, 6 * PAGE + 5), 1);
	CHECK_EQ(lseek(fd, 0, SEEK_HOLE), 0);
	CHECK_EQ(lseek(fd, 0, SEEK_DATA), 2 * PAGE);
	CHECK_EQ(lseek(fd, 0, SEEK_CUR), 2 * PAGE);
	CHECK_EQ(lseek(fd, 2 * PAGE + 7, SEEK_DATA), 2 * PAGE + 7);
	CHECK_EQ(lseek(fd, 2 * PAGE + 7, SEEK_HOLE), 4 * PAGE);
	CHECK_EQ(lseek(fd, 4 * PAGE + 1, SEEK_HOLE), 4 * PAGE + 1);
	CHECK_EQ(lseek(fd, 4 * PAGE + 1, SEEK_DATA), 6 * PAGE);
	CHECK_EQ(lseek(fd, 6 * PAGE, SEEK_HOLE), 7 * PAGE);
	CHECK_ERR(ENXIO, lseek(fd, 7 * PAGE, SEEK_DATA));
	CHECK_EQ(lseek(fd, 8 * PAGE + 50, SEEK_HOLE), 8 * PAGE + 50);
	CHECK_ERR(ENXIO, lseek(fd, 8 * PAGE + 100, SEEK_HOLE));
	CHECK_ERR(ENXIO, lseek(fd, 9 * PAGE, SEEK_DATA));
	CHECK_ERR(ENXIO, lseek(fd, -1, SEEK_DATA));
	CHECK_EQ(pwrite(fd, "d", 1, 8 * PAGE + 99), 1);
	CHECK_EQ(lseek(fd, 7 * PAGE, SEEK_DATA), 8 * PAGE);
	CHECK_EQ(lseek(fd, 8 * PAGE, SEEK_HOLE), 8 * PAGE + 100);
	/* A punched page is a hole again; a part of one is not. */
	CHECK_OK(fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 3 * PAGE, PAGE));
	CHECK_OK(fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 6 * PAGE, 100));
	CHECK_EQ(lseek(fd, 2 * PAGE, SEEK_HOLE), 3 * PAGE);
	CHECK_EQ(lseek(fd, 3 * PAGE, SEEK_DATA), 6 * PAGE);
	close(fd);
}

/* A bad descriptor is EBADF before the other arguments are looked at, as Linux's ksys_fallocate. */
TEST(fallocate_bad_fd_first)
{
	CHECK_ERR(EBADF, fallocate(-1, 0, -1, 0));
	CHECK_ERR(EBADF, fallocate(-1, 0xff, 0, 10));
}
