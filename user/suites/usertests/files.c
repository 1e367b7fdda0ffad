/*
 * files.c - usertests: regular files and directories: read, write and
 * seek, preadv/pwritev, the page cache's edges, open flags, stat, file times, getdents, rename,
 * truncate, the working directory, path walks, openat, unlinked open
 * files, /dev/null and /dev/zero, /dev/random's ioctls, and the initrd's files and links.
 * Links are in links.c, statfs and metadata changes in attr.c.
 */
#define _GNU_SOURCE
#include "usertests.h"
#include "uapi/random.h" /* the RND* ioctls: musl has no <linux/random.h> */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include <utime.h>

#include "lib/procfile.h"
#include "uapi/dirent.h" /* the raw getdents64 record, which libc does not show */
#include "uapi/magic.h"	 /* statfs's f_type values */

TEST(file_rw)
{
	char buf[64];
	int fd = create_file("f", "hello, world", 12, 0644);
	struct stat st;

	CHECK_EQ(lseek(fd, 0, SEEK_CUR), 12);
	CHECK_EQ(lseek(fd, 0, SEEK_SET), 0);
	CHECK(read(fd, buf, sizeof(buf)) == 12 && memcmp(buf, "hello, world", 12) == 0);
	CHECK_EQ(read(fd, buf, sizeof(buf)), 0); /* end of file */
	CHECK_EQ(lseek(fd, 7, SEEK_SET), 7);
	CHECK_EQ(write(fd, "rewind", 6), 6);
	CHECK_EQ(lseek(fd, -6, SEEK_END), 7);
	CHECK_EQ(lseek(fd, 2, SEEK_CUR), 9);
	CHECK(pread(fd, buf, 20, 0) == 13 && memcmp(buf, "hello, rewind", 13) == 0);
	CHECK_EQ(pwrite(fd, "H", 1, 0), 1);
	CHECK_EQ(lseek(fd, 0, SEEK_CUR), 9); /* pread/pwrite keep the offset */
	CHECK_OK(fstat(fd, &st));
	CHECK(S_ISREG(st.st_mode) && st.st_size == 13 && st.st_nlink == 1);
	/* Writing past the end leaves a hole that reads as zeros. */
	CHECK_EQ(pwrite(fd, "!", 1, 10000), 1);
	CHECK(pread(fd, buf, 10, 9990) == 10 && all_bytes(buf, 10, 0));
	CHECK(pread(fd, buf, 10, 10000) == 1 && buf[0] == '!');
	CHECK_ERR(EINVAL, lseek(fd, -1, SEEK_SET));
	CHECK_ERR(EINVAL, lseek(fd, -20000, SEEK_END));
	CHECK_ERR(EINVAL, lseek(fd, 0, 7));
	CHECK_ERR(EINVAL, syscall(SYS_pread64, fd, buf, 1, -1L));
	close(fd);
	CHECK_ERR(EBADF, close(fd));
}

/* Odd-sized writes and reads across page boundaries: the page cache's edges. */
TEST(file_pages)
{
	enum { LEN = 5 * PAGE + 123 };
	static unsigned char data[LEN], back[LEN];
	int fd = create_file("f", "", 0, 0644);
	size_t off;

	fill_pattern(data, LEN, 17);
	for (off = 0; off < LEN; off += 1000)
		CHECK(write(fd, data + off, off + 1000 <= LEN ? 1000 : LEN - off) > 0);
	CHECK_EQ(lseek(fd, 0, SEEK_SET), 0);
	for (off = 0; off < LEN;) {
		ssize_t n = read(fd, back + off, 777);

		CHECK(n > 0);
		off += n;
	}
	CHECK_EQ(memcmp(data, back, LEN), 0);
	/* Rewrite a range straddling two pages, then check the neighbours. */
	memset(data + PAGE - 10, 'Z', 20);
	CHECK_EQ(pwrite(fd, data + PAGE - 10, 20, PAGE - 10), 20);
	CHECK_EQ(pread(fd, back, LEN, 0), LEN);
	CHECK_EQ(memcmp(data, back, LEN), 0);
}

TEST(open_flags)
{
	char buf[16];
	int fd;

	make_file("f", "0123456789", 10);
	fd = CHECK_OK(open("f", O_WRONLY | O_APPEND));
	CHECK_EQ(lseek(fd, 0, SEEK_SET), 0);
	CHECK_EQ(write(fd, "ab", 2), 2); /* appended regardless */
	CHECK_EQ(lseek(fd, 0, SEEK_CUR), 12);
	CHECK_ERR(EBADF, read(fd, buf, 1));
	close(fd);
	fd = CHECK_OK(open("f", O_RDONLY));
	CHECK(read(fd, buf, 16) == 12 && memcmp(buf, "0123456789ab", 12) == 0);
	CHECK_ERR(EBADF, write(fd, "x", 1));
	close(fd);
	fd = CHECK_OK(open("f", O_RDWR | O_TRUNC));
	CHECK_EQ(read(fd, buf, 16), 0);
	close(fd);
	CHECK_ERR(EEXIST, open("f", O_RDWR | O_CREAT | O_EXCL, 0644));
	CHECK_ERR(ENOENT, open("missing", O_RDONLY));
	CHECK_ERR(ENOENT, open("missing/f", O_RDWR | O_CREAT, 0644));
	CHECK_ERR(ENOENT, open("", O_RDONLY));
	CHECK_ERR(ENOTDIR, open("f", O_RDONLY | O_DIRECTORY));
	CHECK_ERR(ENOTDIR, open("f/", O_RDONLY));
	fd = CHECK_OK(syscall(SYS_creat, "c", 0644));
	CHECK_EQ(write(fd, "c", 1), 1);
	CHECK_ERR(EBADF, read(fd, buf, 1)); /* creat opens write-only */
	/* O_TMPFILE wants O_DIRECTORY (it includes it), no O_CREAT, and write access. */
	CHECK_ERR(EINVAL, open(".", O_TMPFILE | O_CREAT | O_RDWR, 0600));
	CHECK_ERR(EINVAL, open(".", (O_TMPFILE & ~O_DIRECTORY) | O_RDWR, 0600));
	CHECK_ERR(EINVAL, open(".", O_TMPFILE | O_RDONLY, 0600));
	/* O_PATH opens anything, whatever else is asked: the other flags are dropped. */
	fd = CHECK_OK(open(".", O_PATH | O_WRONLY | O_CREAT | O_EXCL | O_TRUNC, 0600));
	CHECK_ERR(EBADF, read(fd, buf, 1));
	close(fd);
}

TEST(readv_writev)
{
	char a[3], b[5], c[40];
	struct iovec out[] = {
		{ "abc", 3 },
		{ "", 0 },
		{ "defgh", 5 },
		{ "ijklmnopqrstuvwxyz", 18 },
	};
	struct iovec in[] = { { a, 3 }, { b, 5 }, { c, sizeof(c) } };
	int fd = create_file("f", "", 0, 0644), p[2];

	CHECK_EQ(writev(fd, out, 4), 26);
	CHECK_EQ(lseek(fd, 0, SEEK_SET), 0);
	CHECK_EQ(readv(fd, in, 3), 26);
	CHECK(memcmp(a, "abc", 3) == 0 && memcmp(b, "defgh", 5) == 0);
	CHECK_EQ(memcmp(c, "ijklmnopqrstuvwxyz", 18), 0);
	CHECK_EQ(writev(fd, out, 0), 0);
	CHECK_OK(pipe(p));
	CHECK_EQ(writev(p[1], out, 4), 26);
	CHECK_EQ(readv(p[0], in, 3), 26);
	CHECK_EQ(memcmp(c, "ijklmnopqrstuvwxyz", 18), 0);
	CHECK_ERR(EINVAL, syscall(SYS_writev, fd, out, -1));
	CHECK_ERR(EINVAL, syscall(SYS_writev, fd, out, 1025));
	CHECK_ERR(EINVAL, syscall(SYS_readv, fd, in, -1));
	CHECK_ERR(EBADF, writev(999, out, 1));
	CHECK_ERR(EBADF, readv(999, in, 1));
}

TEST(stat)
{
	struct stat a, b, c;
	int fd = create_file("f", "12345", 5, 0644), dir;

	CHECK_OK(mkdir("d", 0755));
	CHECK_OK(stat("f", &a));
	CHECK_OK(fstat(fd, &b));
	CHECK_OK(lstat("f", &c));
	CHECK(S_ISREG(a.st_mode) && a.st_size == 5);
	CHECK(a.st_ino == b.st_ino && a.st_ino == c.st_ino && a.st_dev == b.st_dev);
	CHECK((a.st_mode & 0777 & ~0644) == 0 &&
	      (a.st_mode & 0600) == 0600); /* 0644 less the umask */
	CHECK_OK(stat("d", &b));
	CHECK(S_ISDIR(b.st_mode) && b.st_ino != a.st_ino);
	dir = CHECK_OK(open("d", O_RDONLY | O_DIRECTORY));
	make_file("d/g", "", 0);
	CHECK_OK(fstatat(dir, "g", &c, 0));
	CHECK(S_ISREG(c.st_mode) && c.st_size == 0);
	CHECK_OK(fstatat(AT_FDCWD, "f", &c, 0));
	CHECK_EQ(c.st_ino, a.st_ino);
	CHECK_ERR(ENOENT, stat("missing", &c));
	CHECK_ERR(ENOTDIR, stat("f/x", &c));
	CHECK_ERR(EINVAL, syscall(SYS_newfstatat, AT_FDCWD, "f", &c, 0x80000));
	/* The root is its own parent. */
	CHECK_OK(stat("/", &a));
	CHECK_OK(stat("/..", &b));
	CHECK(S_ISDIR(a.st_mode) && a.st_ino == b.st_ino);
}

/* Files are stamped with wall-clock time, as time() reads it (not time since boot). */
TEST(file_times)
{
	time_t before = time(NULL);
	int fd = create_file("f", "x", 1, 0644);
	time_t after = time(NULL);
	struct stat st;

	CHECK_OK(fstat(fd, &st));
	/* One second of slack each side: a file's stamp and time() may round at different ticks. */
	CHECK(st.st_mtime >= before - 1 && st.st_mtime <= after + 1);
	CHECK(st.st_ctime >= before - 1 && st.st_ctime <= after + 1);
	CHECK(st.st_atime >= before - 1 && st.st_atime <= after + 1);
}

TEST(dir_ops)
{
	make_file("f", "", 0);
	CHECK_OK(mkdir("d", 0755));
	CHECK_OK(mkdir("d/sub/", 0755)); /* a trailing slash is fine */
	CHECK_ERR(EEXIST, mkdir("d", 0755));
	CHECK_ERR(EEXIST, mkdir("f", 0755));
	CHECK_ERR(ENOENT, mkdir("missing/x", 0755));
	CHECK_ERR(ENOTDIR, mkdir("f/x", 0755));
	CHECK_ERR(ENOTEMPTY, rmdir("d"));
	CHECK_ERR(ENOTDIR, rmdir("f"));
	CHECK_ERR(ENOENT, rmdir("missing"));
	CHECK_ERR(EINVAL, rmdir("d/sub/."));
	CHECK_ERR(EISDIR, unlink("d"));
	CHECK_ERR(ENOENT, unlink("missing"));
	CHECK_ERR(EISDIR, open("d", O_WRONLY));
	CHECK_ERR(EISDIR, open("d", O_RDWR));
	int fd = CHECK_OK(open("d", O_RDONLY));
	char c;

	CHECK_ERR(EISDIR, read(fd, &c, 1));
	CHECK_OK(rmdir("d/sub"));
	CHECK_OK(rmdir("d"));
	CHECK_ERR(ENOENT, open("d", O_RDONLY));
	CHECK_OK(unlink("f"));
	CHECK_ERR(ENOENT, unlink("f"));
}

/*
 * Reads all entries of dirfd with buffers of bufsize bytes; calls fn for
 * each and checks the record framing. Returns the number of entries.
 */
static int for_each_dirent(int dirfd, size_t bufsize, void (*fn)(struct kernel_dirent64 *, void *),
			   void *arg)
{
	char buf[4096] __attribute__((aligned(8)));
	int count = 0;
	long n;

	CHECK(bufsize <= sizeof(buf));
	while ((n = syscall(SYS_getdents64, dirfd, buf, bufsize)) > 0) {
		for (long off = 0; off < n;) {
			struct kernel_dirent64 *d = (struct kernel_dirent64 *)(buf + off);

			CHECK(d->d_reclen % 8 == 0 &&
			      d->d_reclen > offsetof(struct kernel_dirent64, d_name));
			CHECK(off + d->d_reclen <= n);
			CHECK(strlen(d->d_name) <
			      d->d_reclen - offsetof(struct kernel_dirent64, d_name));
			fn(d, arg);
			count++;
			off += d->d_reclen;
		}
	}
	if (n < 0)
		fail("getdents64 failed with %s", errname(errno));
	return count;
}

enum { NFILES = 60 };

struct seen {
	int files[NFILES];
	int dots, dotdots, dirs;
};

static void
dirent_name(int i, char *buf, size_t size)
{
	/* Names of many lengths, so that records vary in size. */
	int len = snprintf(buf, size, "file-%d-", i);

	for (int k = 0; k < i * 3 && (size_t)len + 1 < size; k++)
		buf[len++] = (char)('a' + k % 26);
	buf[len] = '\0';
}

static void
note_dirent(struct kernel_dirent64 *d, void *arg)
{
	struct seen *s = arg;
	char name[256];

	if (!strcmp(d->d_name, ".")) {
		s->dots++;
		return;
	}
	if (!strcmp(d->d_name, "..")) {
		s->dotdots++;
		return;
	}
	if (!strcmp(d->d_name, "subdir")) {
		CHECK(d->d_type == DT_DIR || d->d_type == DT_UNKNOWN);
		s->dirs++;
		return;
	}
	for (int i = 0; i < NFILES; i++) {
		dirent_name(i, name, sizeof(name));
		if (!strcmp(d->d_name, name)) {
			CHECK(d->d_type == DT_REG || d->d_type == DT_UNKNOWN);
			s->files[i]++;
			return;
		}
	}
	fail("getdents64 returned an unknown name '%s'", d->d_name);
}

static void
check_listing(int dirfd, size_t bufsize, int removed_every)
{
	struct seen s = { { 0 }, 0, 0, 0 };

	CHECK_EQ(lseek(dirfd, 0, SEEK_SET), 0);
	for_each_dirent(dirfd, bufsize, note_dirent, &s)
		;
	CHECK(s.dots == 1 && s.dotdots == 1 && s.dirs == 1);
	for (int i = 0; i < NFILES; i++) {
		int want = removed_every && i % removed_every == 0 ? 0 : 1;

		if (s.files[i] != want)
			fail("entry %d listed %d times, want %d (buffer %zu)", i, s.files[i], want,
			     bufsize);
	}
}

TEST(getdents)
{
	char name[256], buf[512];
	int dirfd, fd;

	CHECK_OK(mkdir("d", 0755));
	CHECK_OK(mkdir("d/subdir", 0755));
	for (int i = 0; i < NFILES; i++) {
		char path[300];

		dirent_name(i, name, sizeof(name));
		snprintf(path, sizeof(path), "d/%s", name);
		make_file(path, "", 0);
	}
	dirfd = CHECK_OK(open("d", O_RDONLY | O_DIRECTORY));
	check_listing(dirfd, 4096, 0);
	check_listing(dirfd, 300, 0); /* one or two entries per call */
	for (int i = 0; i < NFILES; i += 3) {
		char path[300];

		dirent_name(i, name, sizeof(name));
		snprintf(path, sizeof(path), "d/%s", name);
		CHECK_OK(unlink(path));
	}
	check_listing(dirfd, 4096, 3);
	CHECK_EQ(lseek(dirfd, 0, SEEK_SET), 0); /* at the end nothing would be too big */
	CHECK_ERR(EINVAL, syscall(SYS_getdents64, dirfd, buf, 1));
	fd = create_file("f", "", 0, 0644);
	CHECK_ERR(ENOTDIR, syscall(SYS_getdents64, fd, buf, sizeof(buf)));
	CHECK_ERR(EBADF, syscall(SYS_getdents64, 999, buf, sizeof(buf)));
}

TEST(rename)
{
	char buf[8];
	int fd;

	make_file("a", "AAA", 3);
	make_file("b", "BBB", 3);
	CHECK_OK(rename("a", "c"));
	CHECK_ERR(ENOENT, open("a", O_RDONLY));
	CHECK_OK(rename("c", "b")); /* replaces b */
	fd = CHECK_OK(open("b", O_RDONLY));
	CHECK(read(fd, buf, 8) == 3 && memcmp(buf, "AAA", 3) == 0);
	CHECK_OK(rename("b", "b"));
	CHECK_OK(mkdir("d", 0755));
	CHECK_OK(mkdir("e", 0755));
	CHECK_OK(mkdir("full", 0755));
	make_file("full/x", "", 0);
	CHECK_ERR(EINVAL, rename("d", "d/inside"));
	CHECK_ERR(EISDIR, rename("b", "d"));
	CHECK_ERR(ENOTDIR, rename("d", "b"));
	CHECK_ERR(ENOTEMPTY, rename("d", "full"));
	CHECK_ERR(ENOENT, rename("missing", "x"));
	CHECK_OK(rename("b", "d/moved")); /* across directories */
	CHECK_OK(rename("d", "e"));	  /* over an empty directory */
	fd = CHECK_OK(open("e/moved", O_RDONLY));
	CHECK(read(fd, buf, 8) == 3 && memcmp(buf, "AAA", 3) == 0);
}

TEST(ftruncate)
{
	char buf[PAGE + 100];
	int fd = create_file("f", "0123456789", 10, 0644), ro;
	struct stat st;

	CHECK_OK(ftruncate(fd, 2 * PAGE + 5));
	CHECK_OK(fstat(fd, &st));
	CHECK_EQ(st.st_size, 2 * PAGE + 5);
	CHECK(pread(fd, buf, 20, 0) == 20 && memcmp(buf, "0123456789", 10) == 0);
	CHECK(all_bytes(buf + 10, 10, 0));
	CHECK_OK(ftruncate(fd, 3));
	CHECK_EQ(pread(fd, buf, 20, 0), 3);
	/* Growing again must not bring back the cut bytes of the same page. */
	CHECK_OK(ftruncate(fd, 10));
	CHECK(pread(fd, buf, 20, 0) == 10 && memcmp(buf, "012", 3) == 0 &&
	      all_bytes(buf + 3, 7, 0));
	CHECK_ERR(EINVAL, ftruncate(fd, -1));
	ro = CHECK_OK(open("f", O_RDONLY));
	CHECK_ERR(EINVAL, ftruncate(ro, 0));
	CHECK_ERR(EBADF, ftruncate(999, 0));
}

TEST(fsync)
{
	int fd = create_file("f", "x", 1, 0644), p[2];

	CHECK_OK(fsync(fd));
	CHECK_ERR(EBADF, fsync(999));
	CHECK_OK(pipe(p));
	CHECK_ERR(EINVAL, fsync(p[0]));
}

TEST(cwd)
{
	char buf[PATH_MAX], start[PATH_MAX];
	size_t len;

	CHECK(getcwd(start, sizeof(start)) != NULL);
	CHECK_EQ(start[0], '/');
	CHECK_OK(mkdir("sub", 0755));
	CHECK_OK(chdir("sub"));
	CHECK(getcwd(buf, sizeof(buf)) != NULL);
	len = strlen(start);
	CHECK(strncmp(buf, start, len) == 0 && strcmp(buf + len, "/sub") == 0);
	make_file("here", "", 0);
	CHECK_OK(chdir(".."));
	CHECK_OK(access("sub/here", F_OK));
	CHECK(getcwd(buf, sizeof(buf)) != NULL && strcmp(buf, start) == 0);
	CHECK_ERR(ERANGE, syscall(SYS_getcwd, buf, 1));
	CHECK_ERR(ENOENT, chdir("missing"));
	CHECK_ERR(ENOTDIR, chdir("sub/here"));
	CHECK_OK(chdir("/"));
	CHECK(getcwd(buf, sizeof(buf)) != NULL && strcmp(buf, "/") == 0);
}

/*
 * preadv/pwritev (LTP's preadv01-02, pwritev01-02 and their v2 calls): the
 * segments at a position, the offset untouched; the v2 calls at -1 use and
 * move the offset; an unknown RWF_ flag is EOPNOTSUPP.
 */
TEST(preadv_pwritev)
{
	char a[4], b[4];
	struct iovec iov[2] = { { a, sizeof(a) }, { b, sizeof(b) } };
	int fd = create_file("f", "0123456789", 10, 0644), ro = CHECK_OK(open("f", O_RDONLY)), p[2];

	CHECK_EQ(preadv(fd, iov, 2, 2), 8);
	CHECK(memcmp(a, "2345", 4) == 0 && memcmp(b, "6789", 4) == 0);
	CHECK_EQ(lseek(fd, 0, SEEK_CUR), 10); /* where create_file's write left it */
	memcpy(a, "abcd", 4);
	CHECK_EQ(pwritev(fd, iov, 1, 8), 4);
	CHECK_EQ(lseek(fd, 0, SEEK_END), 12);
	CHECK_EQ(preadv(fd, iov, 2, 6), 6); /* short at the end of the file */
	CHECK(memcmp(a, "67ab", 4) == 0 && memcmp(b, "cd", 2) == 0);
	CHECK_ERR(EINVAL, preadv(fd, iov, 2, -1));
	CHECK_ERR(EINVAL, preadv(fd, iov, -1, 0));
	CHECK_ERR(EBADF, pwritev(ro, iov, 1, 0));
	CHECK_OK(pipe(p));
	CHECK_ERR(ESPIPE, preadv(p[0], iov, 1, 0));
	CHECK_ERR(ESPIPE, pwritev(p[0], iov, 1, 0)); /* before the access mode (LTP's pwritev202) */
	CHECK_OK(lseek(fd, 0, SEEK_SET));
	CHECK_EQ(syscall(SYS_preadv2, fd, iov, 1, -1L, 0L, 0), 4);
	CHECK(memcmp(a, "0123", 4) == 0);
	CHECK_EQ(lseek(fd, 0, SEEK_CUR), 4);
	CHECK_EQ(syscall(SYS_pwritev2, fd, iov, 1, 0L, 0L, 0), 4);
	CHECK_EQ(lseek(fd, 0, SEEK_CUR), 4);
	CHECK_ERR(EOPNOTSUPP, syscall(SYS_preadv2, fd, iov, 1, 0L, 0L, 0x40000000));
	close(p[0]);
	close(p[1]);
	close(ro);
	close(fd);
}

TEST(access)
{
	make_file("f", "", 0);
	CHECK_OK(access("f", F_OK));
	CHECK_OK(access("f", R_OK | W_OK));
	CHECK_OK(access(".", R_OK | W_OK | X_OK));
	CHECK_ERR(ENOENT, access("missing", F_OK));
	CHECK_ERR(EINVAL, access("f", 0x100));
}

TEST(path_walk)
{
	static char longname[300], longpath[PATH_MAX + 100];
	struct stat a, b;

	CHECK_OK(mkdir("a", 0755));
	CHECK_OK(mkdir("a/b", 0755));
	make_file("a/b/f", "x", 1);
	CHECK_OK(stat("a/b/f", &a));
	CHECK_OK(stat("./a/../a/b/./f", &b));
	CHECK_EQ(a.st_ino, b.st_ino);
	CHECK_OK(stat("a//b///f", &b));
	CHECK_EQ(a.st_ino, b.st_ino);
	CHECK_OK(stat("a/b/../../a/b/f", &b));
	CHECK_ERR(ENOTDIR, stat("a/b/f/", &b));
	CHECK_ERR(ENOTDIR, stat("a/b/f/..", &b));
	CHECK_ERR(ENOENT, stat("a/missing/../b/f", &b));
	memset(longname, 'n', 256);
	CHECK_ERR(ENAMETOOLONG, open(longname, O_RDONLY | O_CREAT, 0644));
	memset(longpath, 'p', sizeof(longpath) - 1);
	for (size_t i = 100; i < sizeof(longpath) - 1; i += 100)
		longpath[i] = '/';
	CHECK_ERR(ENAMETOOLONG, stat(longpath, &b));
}

TEST(openat)
{
	int dir, file, fd;
	char abs[PATH_MAX];

	CHECK_OK(mkdir("d", 0755));
	CHECK_OK(mkdir("d/e", 0755));
	make_file("d/e/f", "F", 1);
	dir = CHECK_OK(open("d", O_RDONLY | O_DIRECTORY));
	fd = CHECK_OK(openat(dir, "e/f", O_RDONLY));
	close(fd);
	fd = CHECK_OK(openat(dir, "new", O_RDWR | O_CREAT, 0644));
	close(fd);
	CHECK_OK(access("d/new", F_OK));
	file = CHECK_OK(open("d/e/f", O_RDONLY));
	CHECK_ERR(ENOTDIR, openat(file, "x", O_RDONLY));
	CHECK_ERR(EBADF, openat(999, "x", O_RDONLY));
	/* An absolute path ignores the directory fd, even a bad one. */
	CHECK(getcwd(abs, sizeof(abs) - 10) != NULL);
	strcat(abs, "/d/e/f");
	fd = CHECK_OK(openat(999, abs, O_RDONLY));
	close(fd);
	fd = CHECK_OK(openat(AT_FDCWD, "d/e/f", O_RDONLY));
}

TEST(unlink_open_file)
{
	char buf[8];
	int fd = create_file("f", "abc", 3, 0644);
	struct stat st;

	CHECK_OK(unlink("f"));
	CHECK_ERR(ENOENT, stat("f", &st));
	/* The inode lives on while it is open. */
	CHECK_EQ(write(fd, "def", 3), 3);
	CHECK(pread(fd, buf, 8, 0) == 6 && memcmp(buf, "abcdef", 6) == 0);
	CHECK_OK(fstat(fd, &st));
	CHECK(st.st_nlink == 0 && st.st_size == 6);
	/* A new file of the same name is a different file. */
	make_file("f", "new", 3);
	CHECK_EQ(pread(fd, buf, 8, 0), 6);
}

TEST(dev_null_zero)
{
	char buf[100];
	int null = CHECK_OK(open("/dev/null", O_RDWR));
	int zero = CHECK_OK(open("/dev/zero", O_RDWR));

	CHECK_EQ(read(null, buf, sizeof(buf)), 0);
	CHECK_EQ(write(null, buf, sizeof(buf)), sizeof(buf));
	memset(buf, 0xff, sizeof(buf));
	CHECK_EQ(read(zero, buf, sizeof(buf)), sizeof(buf));
	CHECK(all_bytes(buf, sizeof(buf), 0));
	CHECK_EQ(write(zero, buf, sizeof(buf)), sizeof(buf));
}

/* The device numbers of Linux's memory devices (drivers/char/mem.c). */
static void
check_mem_device(const char *path, unsigned minor)
{
	struct stat st;

	CHECK_OK(stat(path, &st));
	CHECK(S_ISCHR(st.st_mode) && (st.st_mode & 0777) == 0666);
	CHECK(major(st.st_rdev) == 1 && minor(st.st_rdev) == minor);
}

TEST(dev_full_random)
{
	unsigned char a[64], b[64];
	int full = CHECK_OK(open("/dev/full", O_RDWR));

	check_mem_device("/dev/full", 7);
	check_mem_device("/dev/random", 8);
	check_mem_device("/dev/urandom", 9);
	memset(a, 0xff, sizeof(a));
	CHECK(read(full, a, sizeof(a)) == sizeof(a) && all_bytes(a, sizeof(a), 0));
	CHECK_ERR(ENOSPC, write(full, a, 1));
	CHECK_EQ(lseek(full, 100, SEEK_SET), 0);
	/* Two reads of random bytes differ; writing is allowed and changes nothing visible. */
	int urandom = CHECK_OK(open("/dev/urandom", O_RDWR));
	int random = CHECK_OK(open("/dev/random", O_RDONLY | O_NONBLOCK));
	CHECK_EQ(read(urandom, a, sizeof(a)), sizeof(a));
	CHECK_EQ(read(random, b, sizeof(b)), sizeof(b));
	CHECK(memcmp(a, b, sizeof(a)) != 0);
	CHECK_EQ(write(urandom, "seed", 4), 4);
	CHECK_ERR(EFAULT, read(urandom, (void *)8, 16));
	/* Always ready: poll says so at once. */
	struct pollfd pfd = { .fd = random, .events = POLLIN };
	CHECK(poll(&pfd, 1, 0) == 1 && pfd.revents == POLLIN);
}

/* An unprivileged process reads the count but may not add or credit entropy. */
static void
random_ioctls_refused(const char *path)
{
	int fd = CHECK_OK(open(path, O_RDONLY)), bits = -1;
	struct {
		int bits, len;
		unsigned char buf[4];
	} add = { 0, 4, "salt" };

	CHECK_OK(ioctl(fd, RNDGETENTCNT, &bits));
	CHECK(bits >= 0 && bits <= RANDOM_POOL_BITS);
	CHECK_ERR(EPERM, ioctl(fd, RNDADDENTROPY, &add));
	CHECK_ERR(EPERM, ioctl(fd, RNDADDTOENTCNT, &bits));
	CHECK_ERR(EPERM, ioctl(fd, RNDRESEEDCRNG));
}

TEST(dev_random_ioctls)
{
	int fd = CHECK_OK(open("/dev/urandom", O_RDONLY)), bits = -1;
	struct {
		int bits, len;
		unsigned char buf[8];
	} add = { 0, 8, "pepper!" };
	char avail[16] = "";

	/* The count is /proc's entropy_avail, within the pool's size. */
	CHECK_OK(ioctl(fd, RNDGETENTCNT, &bits));
	int proc = CHECK_OK(open("/proc/sys/kernel/random/entropy_avail", O_RDONLY));
	CHECK(read(proc, avail, sizeof(avail) - 1) > 0);
	CHECK(bits >= 0 && bits <= RANDOM_POOL_BITS && abs(atoi(avail) - bits) <= 2);
	CHECK_ERR(EFAULT, ioctl(fd, RNDGETENTCNT, NULL));
	/* Root mixes bytes in (crediting none here) and gets Linux's errnos. */
	CHECK_OK(ioctl(fd, RNDADDENTROPY, &add));
	add.bits = -1;
	CHECK_ERR(EINVAL, ioctl(fd, RNDADDENTROPY, &add));
	CHECK_ERR(EFAULT, ioctl(fd, RNDADDENTROPY, NULL));
	add = (typeof(add)){ 0, 1 << 20, "" }; /* more bytes than there are */
	CHECK_ERR(EFAULT, ioctl(fd, RNDADDENTROPY, &add));
	bits = -1;
	CHECK_ERR(EINVAL, ioctl(fd, RNDADDTOENTCNT, &bits));
	CHECK_ERR(EINVAL, ioctl(fd, _IO('R', 0x42)));
	as_nobody(random_ioctls_refused, "/dev/random");
}

/* /etc/usertests.dat is made by user/user.mk: 300 numbered lines. */
TEST(initrd_file)
{
	static char text[32768], line[128];
	size_t off = 0;
	ssize_t n = read_text_file("/etc/usertests.dat", text, sizeof(text));

	if (n < 0 && errno == ENOENT && !on_rewind())
		skip("no /etc/usertests.dat (it comes with rewind's initrd)");
	if (n < 0)
		fail("/etc/usertests.dat: %s", errname(errno));
	for (int i = 1; i <= 300; i++) {
		int len = snprintf(line, sizeof(line),
				   "usertests.dat line %04d: the initrd keeps every byte\n", i);

		if ((size_t)n < off + len || memcmp(text + off, line, len) != 0)
			fail("/etc/usertests.dat differs in line %d", i);
		off += len;
	}
	CHECK_EQ((size_t)n, off);
}

/* The initrd's symbolic links arrive as links: /etc/usertests.link -> usertests.dat. */
TEST(initrd_symlink)
{
	char buf[64];
	struct stat st;
	long n = readlink("/etc/usertests.link", buf, sizeof(buf));

	if (n < 0 && errno == ENOENT && !on_rewind())
		skip("no /etc/usertests.link (it comes with rewind's initrd)");
	CHECK(n == 13 && memcmp(buf, "usertests.dat", 13) == 0);
	CHECK_OK(stat("/etc/usertests.link", &st));
	CHECK(S_ISREG(st.st_mode) && st.st_size > 0);
}

/* Lock acquisitions of class cls per write over n writes of 256 bytes to fd, in hundredths. */
static unsigned long long
locks_per_write_x100(int fd, const char *cls, int n)
{
	unsigned long long count = 0;
	char block[256] = { 1 };

	CHECK_OK(proc_lockstat_reset());
	for (int i = 0; i < n; i++)
		CHECK_EQ(write(fd, block, sizeof(block)), 256);
	CHECK_OK(proc_lockstat_acquisitions(cls, &count));
	return count * 100 / (unsigned long long)n;
}

/*
 * One write() to an unshared file takes the inode's mutex and the page
 * index's spinlock and nothing else: no fd-table lock (the table is not
 * shared) and no offset lock (the file is not), as Linux's fdget_pos.
 * Shared by dup, the offset lock comes back. lockstat counts every lock
 * in the machine, so a little from elsewhere is allowed for.
 */
TEST(write_lock_operations)
{
	enum { N = 2000 };
	char old[8];

	if (!on_rewind())
		skip("lockstat is rewind's");
	int fd = create_file("f", "", 0, 0644);
	CHECK_OK(knob_read("lockstat", old, sizeof(old)));
	CHECK_OK(knob_write("lockstat", "1"));
	CHECK_EQ(lseek(fd, 0, SEEK_SET), 0);
	unsigned long long inode = locks_per_write_x100(fd, "inode", N);
	unsigned long long pages = locks_per_write_x100(fd, "inode_pages", N);
	unsigned long long files = locks_per_write_x100(fd, "files", N);
	unsigned long long pos = locks_per_write_x100(fd, "file_pos", N);
	int dup_fd = CHECK_OK(dup(fd));
	unsigned long long pos_shared = locks_per_write_x100(fd, "file_pos", N);
	CHECK_OK(knob_write("lockstat", old));
	close(dup_fd);
	if (inode < 100 || inode > 110 || pages < 100 || pages > 110 || files > 10 || pos > 10)
		fail("per write x100: inode %llu, inode_pages %llu, files %llu, file_pos %llu",
		     inode, pages, files, pos);
	if (pos_shared < 100)
		fail("a dup'ed file's writes took file_pos %llu/100 times each", pos_shared);
}
