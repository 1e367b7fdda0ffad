/*
 * files.c - usertests: regular files and directories: read, write and
 * seek, the page cache's edges, open flags, stat, file times, getdents, rename,
 * truncate, the working directory, path walks, symbolic and hard links,
 * openat, unlinked open files, /dev/null and /dev/zero, a file of the
 * initrd, statfs, and changing metadata: chmod, chown, utimensat and
 * friends, mknod.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
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

	CHECK(lseek(fd, 0, SEEK_CUR) == 12);
	CHECK(lseek(fd, 0, SEEK_SET) == 0);
	CHECK(read(fd, buf, sizeof(buf)) == 12 && memcmp(buf, "hello, world", 12) == 0);
	CHECK(read(fd, buf, sizeof(buf)) == 0); /* end of file */
	CHECK(lseek(fd, 7, SEEK_SET) == 7);
	CHECK(write(fd, "rewind", 6) == 6);
	CHECK(lseek(fd, -6, SEEK_END) == 7);
	CHECK(lseek(fd, 2, SEEK_CUR) == 9);
	CHECK(pread(fd, buf, 20, 0) == 13 && memcmp(buf, "hello, rewind", 13) == 0);
	CHECK(pwrite(fd, "H", 1, 0) == 1);
	CHECK(lseek(fd, 0, SEEK_CUR) == 9); /* pread/pwrite keep the offset */
	EXPECT_OK(fstat(fd, &st));
	CHECK(S_ISREG(st.st_mode) && st.st_size == 13 && st.st_nlink == 1);
	/* Writing past the end leaves a hole that reads as zeros. */
	CHECK(pwrite(fd, "!", 1, 10000) == 1);
	CHECK(pread(fd, buf, 10, 9990) == 10 && all_bytes(buf, 10, 0));
	CHECK(pread(fd, buf, 10, 10000) == 1 && buf[0] == '!');
	EXPECT_ERR(EINVAL, lseek(fd, -1, SEEK_SET));
	EXPECT_ERR(EINVAL, lseek(fd, -20000, SEEK_END));
	EXPECT_ERR(EINVAL, lseek(fd, 0, 7));
	EXPECT_ERR(EINVAL, syscall(SYS_pread64, fd, buf, 1, -1L));
	close(fd);
	EXPECT_ERR(EBADF, close(fd));
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
	CHECK(lseek(fd, 0, SEEK_SET) == 0);
	for (off = 0; off < LEN;) {
		ssize_t n = read(fd, back + off, 777);

		CHECK(n > 0);
		off += n;
	}
	CHECK(memcmp(data, back, LEN) == 0);
	/* Rewrite a range straddling two pages, then check the neighbours. */
	memset(data + PAGE - 10, 'Z', 20);
	CHECK(pwrite(fd, data + PAGE - 10, 20, PAGE - 10) == 20);
	CHECK(pread(fd, back, LEN, 0) == LEN);
	CHECK(memcmp(data, back, LEN) == 0);
}

TEST(open_flags)
{
	char buf[16];
	int fd;

	make_file("f", "0123456789", 10);
	fd = EXPECT_OK(open("f", O_WRONLY | O_APPEND));
	CHECK(lseek(fd, 0, SEEK_SET) == 0);
	CHECK(write(fd, "ab", 2) == 2); /* appended regardless */
	CHECK(lseek(fd, 0, SEEK_CUR) == 12);
	EXPECT_ERR(EBADF, read(fd, buf, 1));
	close(fd);
	fd = EXPECT_OK(open("f", O_RDONLY));
	CHECK(read(fd, buf, 16) == 12 && memcmp(buf, "0123456789ab", 12) == 0);
	EXPECT_ERR(EBADF, write(fd, "x", 1));
	close(fd);
	fd = EXPECT_OK(open("f", O_RDWR | O_TRUNC));
	CHECK(read(fd, buf, 16) == 0);
	close(fd);
	EXPECT_ERR(EEXIST, open("f", O_RDWR | O_CREAT | O_EXCL, 0644));
	EXPECT_ERR(ENOENT, open("missing", O_RDONLY));
	EXPECT_ERR(ENOENT, open("missing/f", O_RDWR | O_CREAT, 0644));
	EXPECT_ERR(ENOENT, open("", O_RDONLY));
	EXPECT_ERR(ENOTDIR, open("f", O_RDONLY | O_DIRECTORY));
	EXPECT_ERR(ENOTDIR, open("f/", O_RDONLY));
	fd = EXPECT_OK(syscall(SYS_creat, "c", 0644));
	CHECK(write(fd, "c", 1) == 1);
	EXPECT_ERR(EBADF, read(fd, buf, 1)); /* creat opens write-only */
	/* O_TMPFILE wants O_DIRECTORY (it includes it), no O_CREAT, and write access. */
	EXPECT_ERR(EINVAL, open(".", O_TMPFILE | O_CREAT | O_RDWR, 0600));
	EXPECT_ERR(EINVAL, open(".", (O_TMPFILE & ~O_DIRECTORY) | O_RDWR, 0600));
	EXPECT_ERR(EINVAL, open(".", O_TMPFILE | O_RDONLY, 0600));
	/* O_PATH opens anything, whatever else is asked: the other flags are dropped. */
	fd = EXPECT_OK(open(".", O_PATH | O_WRONLY | O_CREAT | O_EXCL | O_TRUNC, 0600));
	EXPECT_ERR(EBADF, read(fd, buf, 1));
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

	CHECK(writev(fd, out, 4) == 26);
	CHECK(lseek(fd, 0, SEEK_SET) == 0);
	CHECK(readv(fd, in, 3) == 26);
	CHECK(memcmp(a, "abc", 3) == 0 && memcmp(b, "defgh", 5) == 0);
	CHECK(memcmp(c, "ijklmnopqrstuvwxyz", 18) == 0);
	CHECK(writev(fd, out, 0) == 0);
	EXPECT_OK(pipe(p));
	CHECK(writev(p[1], out, 4) == 26);
	CHECK(readv(p[0], in, 3) == 26);
	CHECK(memcmp(c, "ijklmnopqrstuvwxyz", 18) == 0);
	EXPECT_ERR(EINVAL, syscall(SYS_writev, fd, out, -1));
	EXPECT_ERR(EINVAL, syscall(SYS_writev, fd, out, 1025));
	EXPECT_ERR(EINVAL, syscall(SYS_readv, fd, in, -1));
	EXPECT_ERR(EBADF, writev(999, out, 1));
	EXPECT_ERR(EBADF, readv(999, in, 1));
}

TEST(stat)
{
	struct stat a, b, c;
	int fd = create_file("f", "12345", 5, 0644), dir;

	EXPECT_OK(mkdir("d", 0755));
	EXPECT_OK(stat("f", &a));
	EXPECT_OK(fstat(fd, &b));
	EXPECT_OK(lstat("f", &c));
	CHECK(S_ISREG(a.st_mode) && a.st_size == 5);
	CHECK(a.st_ino == b.st_ino && a.st_ino == c.st_ino && a.st_dev == b.st_dev);
	CHECK((a.st_mode & 0777 & ~0644) == 0 &&
	      (a.st_mode & 0600) == 0600); /* 0644 less the umask */
	EXPECT_OK(stat("d", &b));
	CHECK(S_ISDIR(b.st_mode) && b.st_ino != a.st_ino);
	dir = EXPECT_OK(open("d", O_RDONLY | O_DIRECTORY));
	make_file("d/g", "", 0);
	EXPECT_OK(fstatat(dir, "g", &c, 0));
	CHECK(S_ISREG(c.st_mode) && c.st_size == 0);
	EXPECT_OK(fstatat(AT_FDCWD, "f", &c, 0));
	CHECK(c.st_ino == a.st_ino);
	EXPECT_ERR(ENOENT, stat("missing", &c));
	EXPECT_ERR(ENOTDIR, stat("f/x", &c));
	EXPECT_ERR(EINVAL, syscall(SYS_newfstatat, AT_FDCWD, "f", &c, 0x80000));
	/* The root is its own parent. */
	EXPECT_OK(stat("/", &a));
	EXPECT_OK(stat("/..", &b));
	CHECK(S_ISDIR(a.st_mode) && a.st_ino == b.st_ino);
}

/* Files are stamped with wall-clock time, as time() reads it (not time since boot). */
TEST(file_times)
{
	time_t before = time(NULL);
	int fd = create_file("f", "x", 1, 0644);
	time_t after = time(NULL);
	struct stat st;

	EXPECT_OK(fstat(fd, &st));
	/* One second of slack each side: a file's stamp and time() may round at different ticks. */
	CHECK(st.st_mtime >= before - 1 && st.st_mtime <= after + 1);
	CHECK(st.st_ctime >= before - 1 && st.st_ctime <= after + 1);
	CHECK(st.st_atime >= before - 1 && st.st_atime <= after + 1);
}

TEST(dir_ops)
{
	make_file("f", "", 0);
	EXPECT_OK(mkdir("d", 0755));
	EXPECT_OK(mkdir("d/sub/", 0755)); /* a trailing slash is fine */
	EXPECT_ERR(EEXIST, mkdir("d", 0755));
	EXPECT_ERR(EEXIST, mkdir("f", 0755));
	EXPECT_ERR(ENOENT, mkdir("missing/x", 0755));
	EXPECT_ERR(ENOTDIR, mkdir("f/x", 0755));
	EXPECT_ERR(ENOTEMPTY, rmdir("d"));
	EXPECT_ERR(ENOTDIR, rmdir("f"));
	EXPECT_ERR(ENOENT, rmdir("missing"));
	EXPECT_ERR(EINVAL, rmdir("d/sub/."));
	EXPECT_ERR(EISDIR, unlink("d"));
	EXPECT_ERR(ENOENT, unlink("missing"));
	EXPECT_ERR(EISDIR, open("d", O_WRONLY));
	EXPECT_ERR(EISDIR, open("d", O_RDWR));
	int fd = EXPECT_OK(open("d", O_RDONLY));
	char c;

	EXPECT_ERR(EISDIR, read(fd, &c, 1));
	EXPECT_OK(rmdir("d/sub"));
	EXPECT_OK(rmdir("d"));
	EXPECT_ERR(ENOENT, open("d", O_RDONLY));
	EXPECT_OK(unlink("f"));
	EXPECT_ERR(ENOENT, unlink("f"));
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

	CHECK(lseek(dirfd, 0, SEEK_SET) == 0);
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

	EXPECT_OK(mkdir("d", 0755));
	EXPECT_OK(mkdir("d/subdir", 0755));
	for (int i = 0; i < NFILES; i++) {
		char path[300];

		dirent_name(i, name, sizeof(name));
		snprintf(path, sizeof(path), "d/%s", name);
		make_file(path, "", 0);
	}
	dirfd = EXPECT_OK(open("d", O_RDONLY | O_DIRECTORY));
	check_listing(dirfd, 4096, 0);
	check_listing(dirfd, 300, 0); /* one or two entries per call */
	for (int i = 0; i < NFILES; i += 3) {
		char path[300];

		dirent_name(i, name, sizeof(name));
		snprintf(path, sizeof(path), "d/%s", name);
		EXPECT_OK(unlink(path));
	}
	check_listing(dirfd, 4096, 3);
	CHECK(lseek(dirfd, 0, SEEK_SET) == 0); /* at the end nothing would be too big */
	EXPECT_ERR(EINVAL, syscall(SYS_getdents64, dirfd, buf, 1));
	fd = create_file("f", "", 0, 0644);
	EXPECT_ERR(ENOTDIR, syscall(SYS_getdents64, fd, buf, sizeof(buf)));
	EXPECT_ERR(EBADF, syscall(SYS_getdents64, 999, buf, sizeof(buf)));
}

TEST(rename)
{
	char buf[8];
	int fd;

	make_file("a", "AAA", 3);
	make_file("b", "BBB", 3);
	EXPECT_OK(rename("a", "c"));
	EXPECT_ERR(ENOENT, open("a", O_RDONLY));
	EXPECT_OK(rename("c", "b")); /* replaces b */
	fd = EXPECT_OK(open("b", O_RDONLY));
	CHECK(read(fd, buf, 8) == 3 && memcmp(buf, "AAA", 3) == 0);
	EXPECT_OK(rename("b", "b"));
	EXPECT_OK(mkdir("d", 0755));
	EXPECT_OK(mkdir("e", 0755));
	EXPECT_OK(mkdir("full", 0755));
	make_file("full/x", "", 0);
	EXPECT_ERR(EINVAL, rename("d", "d/inside"));
	EXPECT_ERR(EISDIR, rename("b", "d"));
	EXPECT_ERR(ENOTDIR, rename("d", "b"));
	EXPECT_ERR(ENOTEMPTY, rename("d", "full"));
	EXPECT_ERR(ENOENT, rename("missing", "x"));
	EXPECT_OK(rename("b", "d/moved")); /* across directories */
	EXPECT_OK(rename("d", "e"));	   /* over an empty directory */
	fd = EXPECT_OK(open("e/moved", O_RDONLY));
	CHECK(read(fd, buf, 8) == 3 && memcmp(buf, "AAA", 3) == 0);
}

TEST(ftruncate)
{
	char buf[PAGE + 100];
	int fd = create_file("f", "0123456789", 10, 0644), ro;
	struct stat st;

	EXPECT_OK(ftruncate(fd, 2 * PAGE + 5));
	EXPECT_OK(fstat(fd, &st));
	CHECK(st.st_size == 2 * PAGE + 5);
	CHECK(pread(fd, buf, 20, 0) == 20 && memcmp(buf, "0123456789", 10) == 0);
	CHECK(all_bytes(buf + 10, 10, 0));
	EXPECT_OK(ftruncate(fd, 3));
	CHECK(pread(fd, buf, 20, 0) == 3);
	/* Growing again must not bring back the cut bytes of the same page. */
	EXPECT_OK(ftruncate(fd, 10));
	CHECK(pread(fd, buf, 20, 0) == 10 && memcmp(buf, "012", 3) == 0 &&
	      all_bytes(buf + 3, 7, 0));
	EXPECT_ERR(EINVAL, ftruncate(fd, -1));
	ro = EXPECT_OK(open("f", O_RDONLY));
	EXPECT_ERR(EINVAL, ftruncate(ro, 0));
	EXPECT_ERR(EBADF, ftruncate(999, 0));
}

TEST(fsync)
{
	int fd = create_file("f", "x", 1, 0644), p[2];

	EXPECT_OK(fsync(fd));
	EXPECT_ERR(EBADF, fsync(999));
	EXPECT_OK(pipe(p));
	EXPECT_ERR(EINVAL, fsync(p[0]));
}

TEST(cwd)
{
	char buf[PATH_MAX], start[PATH_MAX];
	size_t len;

	CHECK(getcwd(start, sizeof(start)) != NULL);
	CHECK(start[0] == '/');
	EXPECT_OK(mkdir("sub", 0755));
	EXPECT_OK(chdir("sub"));
	CHECK(getcwd(buf, sizeof(buf)) != NULL);
	len = strlen(start);
	CHECK(strncmp(buf, start, len) == 0 && strcmp(buf + len, "/sub") == 0);
	make_file("here", "", 0);
	EXPECT_OK(chdir(".."));
	EXPECT_OK(access("sub/here", F_OK));
	CHECK(getcwd(buf, sizeof(buf)) != NULL && strcmp(buf, start) == 0);
	EXPECT_ERR(ERANGE, syscall(SYS_getcwd, buf, 1));
	EXPECT_ERR(ENOENT, chdir("missing"));
	EXPECT_ERR(ENOTDIR, chdir("sub/here"));
	EXPECT_OK(chdir("/"));
	CHECK(getcwd(buf, sizeof(buf)) != NULL && strcmp(buf, "/") == 0);
}

TEST(access)
{
	make_file("f", "", 0);
	EXPECT_OK(access("f", F_OK));
	EXPECT_OK(access("f", R_OK | W_OK));
	EXPECT_OK(access(".", R_OK | W_OK | X_OK));
	EXPECT_ERR(ENOENT, access("missing", F_OK));
	EXPECT_ERR(EINVAL, access("f", 0x100));
}

TEST(path_walk)
{
	static char longname[300], longpath[PATH_MAX + 100];
	struct stat a, b;

	EXPECT_OK(mkdir("a", 0755));
	EXPECT_OK(mkdir("a/b", 0755));
	make_file("a/b/f", "x", 1);
	EXPECT_OK(stat("a/b/f", &a));
	EXPECT_OK(stat("./a/../a/b/./f", &b));
	CHECK(a.st_ino == b.st_ino);
	EXPECT_OK(stat("a//b///f", &b));
	CHECK(a.st_ino == b.st_ino);
	EXPECT_OK(stat("a/b/../../a/b/f", &b));
	EXPECT_ERR(ENOTDIR, stat("a/b/f/", &b));
	EXPECT_ERR(ENOTDIR, stat("a/b/f/..", &b));
	EXPECT_ERR(ENOENT, stat("a/missing/../b/f", &b));
	memset(longname, 'n', 256);
	EXPECT_ERR(ENAMETOOLONG, open(longname, O_RDONLY | O_CREAT, 0644));
	memset(longpath, 'p', sizeof(longpath) - 1);
	for (size_t i = 100; i < sizeof(longpath) - 1; i += 100)
		longpath[i] = '/';
	EXPECT_ERR(ENAMETOOLONG, stat(longpath, &b));
}

/* symlink and readlink: the target comes back without a NUL, cut to the buffer. */
TEST(symlink_readlink)
{
	char buf[64];
	int dir;

	EXPECT_OK(symlink("some/target", "l"));
	memset(buf, 'x', sizeof(buf));
	CHECK(readlink("l", buf, sizeof(buf)) == 11 && memcmp(buf, "some/target", 11) == 0);
	CHECK(buf[11] == 'x'); /* no NUL */
	CHECK(readlink("l", buf, 4) == 4 && memcmp(buf, "some", 4) == 0);
	EXPECT_ERR(EINVAL, syscall(SYS_readlink, "l", buf, 0)); /* musl hides a size of 0 */
	make_file("f", "x", 1);
	EXPECT_ERR(EINVAL, readlink("f", buf, sizeof(buf)));
	EXPECT_ERR(EINVAL, readlink(".", buf, sizeof(buf)));
	EXPECT_ERR(ENOENT, readlink("missing", buf, sizeof(buf)));
	EXPECT_ERR(EEXIST, symlink("x", "f"));
	EXPECT_ERR(EEXIST, symlink("x", "l"));
	EXPECT_ERR(ENOENT, symlink("", "empty"));
	EXPECT_ERR(ENOENT, symlink("x", "missing/l"));
	EXPECT_OK(mkdir("d", 0755));
	dir = EXPECT_OK(open("d", O_RDONLY | O_DIRECTORY));
	EXPECT_OK(symlinkat("../f", dir, "up"));
	CHECK(readlinkat(dir, "up", buf, sizeof(buf)) == 4 && memcmp(buf, "../f", 4) == 0);
	CHECK(readlink("d/up", buf, sizeof(buf)) == 4);
	close(dir);
}

/* lstat and AT_SYMLINK_NOFOLLOW show the link, stat what it leads to. */
TEST(symlink_lstat)
{
	struct stat st, target;
	char buf[16];

	make_file("f", "hello", 5);
	EXPECT_OK(symlink("f", "l"));
	EXPECT_OK(lstat("l", &st));
	CHECK(S_ISLNK(st.st_mode) && st.st_size == 1 && st.st_nlink == 1);
	EXPECT_OK(stat("f", &target));
	EXPECT_OK(stat("l", &st));
	CHECK(S_ISREG(st.st_mode) && st.st_ino == target.st_ino && st.st_size == 5);
	EXPECT_OK(fstatat(AT_FDCWD, "l", &st, AT_SYMLINK_NOFOLLOW));
	CHECK(S_ISLNK(st.st_mode) && st.st_ino != target.st_ino);
	EXPECT_OK(fstatat(AT_FDCWD, "l", &st, 0));
	CHECK(st.st_ino == target.st_ino);
	/* O_PATH | O_NOFOLLOW holds the link itself: AT_EMPTY_PATH and an empty readlinkat path. */
	int fd = EXPECT_OK(open("l", O_PATH | O_NOFOLLOW));
	EXPECT_OK(fstat(fd, &st));
	CHECK(S_ISLNK(st.st_mode));
	EXPECT_OK(fstatat(fd, "", &st, AT_EMPTY_PATH));
	CHECK(S_ISLNK(st.st_mode));
	CHECK(readlinkat(fd, "", buf, sizeof(buf)) == 1 && buf[0] == 'f');
	close(fd);
	fd = EXPECT_OK(open("f", O_RDONLY));
	EXPECT_ERR(ENOENT, readlinkat(fd, "", buf, sizeof(buf)));
	close(fd);
	/* A trailing slash follows even for lstat. */
	EXPECT_OK(mkdir("d", 0755));
	EXPECT_OK(symlink("d", "ld"));
	EXPECT_OK(lstat("ld/", &st));
	CHECK(S_ISDIR(st.st_mode));
	EXPECT_ERR(ENOTDIR, lstat("l/", &st));
}

/* Every walk follows links: intermediate ones always, relative and absolute targets. */
TEST(symlink_follow)
{
	char cwd[PATH_MAX], abs[PATH_MAX + 16], buf[16];
	struct stat a, b;

	CHECK(getcwd(cwd, sizeof(cwd)) != NULL);
	EXPECT_OK(mkdir("a", 0755));
	EXPECT_OK(mkdir("a/b", 0755));
	make_file("a/b/f", "data", 4);
	EXPECT_OK(symlink("a/b", "rel"));
	snprintf(abs, sizeof(abs), "%s/a/b", cwd);
	EXPECT_OK(symlink(abs, "abs"));
	EXPECT_OK(stat("a/b/f", &a));
	EXPECT_OK(stat("rel/f", &b));
	CHECK(a.st_ino == b.st_ino);
	EXPECT_OK(stat("abs/f", &b));
	CHECK(a.st_ino == b.st_ino);
	/* A relative target is taken from the link's directory. */
	EXPECT_OK(symlink("b/f", "a/lf"));
	EXPECT_OK(stat("a/lf", &b));
	CHECK(a.st_ino == b.st_ino);
	/* A link to a link to a link. */
	EXPECT_OK(symlink("rel", "rel2"));
	EXPECT_OK(symlink("rel2/f", "ff"));
	int fd = EXPECT_OK(open("ff", O_RDWR));
	CHECK(read(fd, buf, sizeof(buf)) == 4 && memcmp(buf, "data", 4) == 0);
	CHECK(write(fd, "more", 4) == 4);
	close(fd);
	EXPECT_OK(stat("a/b/f", &a));
	CHECK(a.st_size == 8);
	/* chdir through a link: getcwd gives where it led. */
	EXPECT_OK(chdir("rel"));
	char here[PATH_MAX];
	CHECK(getcwd(here, sizeof(here)) != NULL && strcmp(here, abs) == 0);
	EXPECT_OK(chdir(cwd));
	/* Dangling: ENOENT, until the target exists. */
	EXPECT_OK(symlink("nothing", "dangle"));
	EXPECT_ERR(ENOENT, stat("dangle", &b));
	EXPECT_ERR(ENOENT, open("dangle", O_RDONLY));
	EXPECT_ERR(ENOTDIR, stat("a/b/f/x", &b));
	EXPECT_OK(symlink("a/b/f", "lf"));
	EXPECT_ERR(ENOTDIR, stat("lf/x", &b));
}

/* ".." after a link goes up from where the link led, not back along the path. */
TEST(symlink_dotdot)
{
	struct stat a, b;

	EXPECT_OK(mkdir("x", 0755));
	EXPECT_OK(mkdir("x/y", 0755));
	make_file("x/marker", "m", 1);
	EXPECT_OK(symlink("x/y", "ly"));
	EXPECT_OK(stat("x/marker", &a));
	EXPECT_OK(stat("ly/../marker", &b));
	CHECK(a.st_ino == b.st_ino);
	EXPECT_ERR(ENOENT, stat("ly/../ly", &b));
}

/* O_CREAT follows a last link and creates a dangling link's target; O_EXCL does not follow. */
TEST(symlink_creat)
{
	struct stat st;
	char buf[8];

	EXPECT_OK(mkdir("d", 0755));
	EXPECT_OK(symlink("d/new", "l"));
	int fd = EXPECT_OK(open("l", O_WRONLY | O_CREAT, 0644));
	CHECK(write(fd, "abc", 3) == 3);
	close(fd);
	EXPECT_OK(stat("d/new", &st));
	CHECK(S_ISREG(st.st_mode) && st.st_size == 3);
	fd = EXPECT_OK(open("l", O_RDONLY | O_CREAT, 0644));
	CHECK(read(fd, buf, sizeof(buf)) == 3);
	close(fd);
	EXPECT_ERR(EEXIST, open("l", O_WRONLY | O_CREAT | O_EXCL, 0644));
	EXPECT_OK(symlink("nowhere", "l2"));
	EXPECT_ERR(EEXIST, open("l2", O_WRONLY | O_CREAT | O_EXCL, 0644));
	EXPECT_ERR(ELOOP, open("l2", O_WRONLY | O_CREAT | O_NOFOLLOW, 0644));
	EXPECT_ERR(ENOENT, stat("nowhere", &st));
	EXPECT_ERR(EEXIST, mkdir("l", 0755));
}

/* At most 40 links in one walk: a chain of 40 resolves, 41 and a loop give ELOOP. */
TEST(symlink_eloop)
{
	char name[16], target[16];
	struct stat st;

	make_file("f", "x", 1);
	EXPECT_OK(symlink("f", "c0"));
	for (int i = 1; i <= 40; i++) {
		snprintf(name, sizeof(name), "c%d", i);
		snprintf(target, sizeof(target), "c%d", i - 1);
		EXPECT_OK(symlink(target, name));
	}
	EXPECT_OK(stat("c39", &st)); /* c39 .. c0: 40 links */
	EXPECT_ERR(ELOOP, stat("c40", &st));
	EXPECT_OK(lstat("c40", &st));
	EXPECT_OK(symlink("self", "self"));
	EXPECT_ERR(ELOOP, stat("self", &st));
	EXPECT_ERR(ELOOP, open("self/x", O_RDONLY));
	EXPECT_OK(symlink("pong", "ping"));
	EXPECT_OK(symlink("ping", "pong"));
	EXPECT_ERR(ELOOP, open("ping", O_RDONLY | O_CREAT, 0644));
}

/* O_NOFOLLOW: ELOOP on a last link (O_PATH opens the link itself), intermediate ones followed. */
TEST(symlink_nofollow)
{
	struct stat st;

	EXPECT_OK(mkdir("d", 0755));
	make_file("d/f", "x", 1);
	EXPECT_OK(symlink("d/f", "lf"));
	EXPECT_OK(symlink("d", "ld"));
	EXPECT_ERR(ELOOP, open("lf", O_RDONLY | O_NOFOLLOW));
	EXPECT_ERR(ELOOP, open("lf", O_WRONLY | O_NOFOLLOW));
	int fd = EXPECT_OK(open("ld/f", O_RDONLY | O_NOFOLLOW));
	close(fd);
	fd = EXPECT_OK(open("lf", O_PATH | O_NOFOLLOW));
	EXPECT_OK(fstat(fd, &st));
	CHECK(S_ISLNK(st.st_mode));
	close(fd);
	EXPECT_ERR(ENOTDIR, open("ld", O_PATH | O_NOFOLLOW | O_DIRECTORY));
	fd = EXPECT_OK(open("ld", O_RDONLY | O_DIRECTORY));
	close(fd);
}

/* unlink, rmdir and rename work on a link, never on what it leads to. */
TEST(symlink_remove)
{
	struct stat st;
	char buf[8];

	EXPECT_OK(mkdir("d", 0755));
	make_file("f", "x", 1);
	EXPECT_OK(symlink("f", "lf"));
	EXPECT_OK(symlink("d", "ld"));
	EXPECT_ERR(ENOTDIR, rmdir("ld"));
	EXPECT_OK(rename("lf", "d/moved"));
	CHECK(readlink("d/moved", buf, sizeof(buf)) == 1);
	EXPECT_ERR(ENOENT, stat("d/moved", &st)); /* "f" is now taken from d/ */
	EXPECT_OK(unlink("d/moved"));
	EXPECT_OK(unlink("ld"));
	EXPECT_OK(stat("d", &st));
	EXPECT_OK(stat("f", &st));
	CHECK(S_ISDIR(st.st_mode) == 0 && st.st_size == 1);
	EXPECT_ERR(ENOENT, lstat("ld", &st));
}

/* getdents types a link DT_LNK. */
TEST(symlink_getdents)
{
	EXPECT_OK(mkdir("d", 0755));
	EXPECT_OK(symlink("x", "d/l"));
	DIR *dir = opendir("d");
	struct dirent *e;
	bool seen = false;

	CHECK(dir != NULL);
	while ((e = readdir(dir)) != NULL)
		if (strcmp(e->d_name, "l") == 0)
			seen = e->d_type == DT_LNK;
	closedir(dir);
	CHECK(seen);
}

/* Hard links: one inode, two names; nlink counts them; the data stays until the last goes. */
TEST(hard_link)
{
	struct stat a, b;
	char buf[8];

	make_file("f", "abc", 3);
	EXPECT_OK(link("f", "g"));
	EXPECT_OK(stat("f", &a));
	EXPECT_OK(stat("g", &b));
	CHECK(a.st_ino == b.st_ino && a.st_nlink == 2 && b.st_nlink == 2);
	EXPECT_OK(mkdir("d", 0755));
	EXPECT_OK(link("g", "d/h"));
	EXPECT_OK(stat("f", &a));
	CHECK(a.st_nlink == 3);
	EXPECT_OK(unlink("f"));
	EXPECT_OK(stat("g", &b));
	CHECK(b.st_nlink == 2);
	int fd = EXPECT_OK(open("d/h", O_RDWR));
	EXPECT_OK(unlink("g"));
	EXPECT_OK(unlink("d/h"));
	EXPECT_OK(fstat(fd, &a));
	CHECK(a.st_nlink == 0);
	CHECK(pread(fd, buf, sizeof(buf), 0) == 3 && memcmp(buf, "abc", 3) == 0);
	close(fd);
	/* A rename between two names of one inode does nothing. */
	make_file("p", "p", 1);
	EXPECT_OK(link("p", "q"));
	EXPECT_OK(rename("p", "q"));
	EXPECT_OK(stat("p", &a));
	CHECK(a.st_nlink == 2);
}

/* link's errors: EEXIST, EPERM for a directory, EXDEV across file systems, ENOENT. */
TEST(hard_link_errors)
{
	make_file("f", "x", 1);
	make_file("g", "y", 1);
	EXPECT_OK(mkdir("d", 0755));
	EXPECT_ERR(EEXIST, link("f", "g"));
	EXPECT_ERR(EEXIST, link("f", "d"));
	EXPECT_ERR(EPERM, link("d", "d2"));
	EXPECT_ERR(ENOENT, link("missing", "m"));
	EXPECT_ERR(ENOENT, link("f", "missing/m"));
	EXPECT_ERR(EXDEV, link("/proc/self/status", "st"));
	EXPECT_ERR(EINVAL, linkat(AT_FDCWD, "f", AT_FDCWD, "h", 0x1));
}

/* linkat: a link itself unless AT_SYMLINK_FOLLOW; AT_EMPTY_PATH names an open file. */
TEST(linkat_flags)
{
	struct stat a, b;

	make_file("f", "x", 1);
	EXPECT_OK(symlink("f", "l"));
	EXPECT_OK(linkat(AT_FDCWD, "l", AT_FDCWD, "l2", 0));
	EXPECT_OK(lstat("l2", &a));
	CHECK(S_ISLNK(a.st_mode) && a.st_nlink == 2);
	EXPECT_OK(linkat(AT_FDCWD, "l", AT_FDCWD, "f2", AT_SYMLINK_FOLLOW));
	EXPECT_OK(lstat("f2", &a));
	EXPECT_OK(stat("f", &b));
	CHECK(S_ISREG(a.st_mode) && a.st_ino == b.st_ino && b.st_nlink == 2);
	int fd = EXPECT_OK(open("f", O_RDONLY));
	EXPECT_OK(linkat(fd, "", AT_FDCWD, "f3", AT_EMPTY_PATH));
	EXPECT_ERR(ENOENT, linkat(fd, "", AT_FDCWD, "f4", 0));
	close(fd);
	EXPECT_OK(stat("f3", &a));
	CHECK(a.st_ino == b.st_ino && a.st_nlink == 3);
	int dir = EXPECT_OK(open(".", O_RDONLY | O_DIRECTORY));
	EXPECT_OK(linkat(dir, "f", dir, "f5", 0));
	close(dir);
}

TEST(openat)
{
	int dir, file, fd;
	char abs[PATH_MAX];

	EXPECT_OK(mkdir("d", 0755));
	EXPECT_OK(mkdir("d/e", 0755));
	make_file("d/e/f", "F", 1);
	dir = EXPECT_OK(open("d", O_RDONLY | O_DIRECTORY));
	fd = EXPECT_OK(openat(dir, "e/f", O_RDONLY));
	close(fd);
	fd = EXPECT_OK(openat(dir, "new", O_RDWR | O_CREAT, 0644));
	close(fd);
	EXPECT_OK(access("d/new", F_OK));
	file = EXPECT_OK(open("d/e/f", O_RDONLY));
	EXPECT_ERR(ENOTDIR, openat(file, "x", O_RDONLY));
	EXPECT_ERR(EBADF, openat(999, "x", O_RDONLY));
	/* An absolute path ignores the directory fd, even a bad one. */
	CHECK(getcwd(abs, sizeof(abs) - 10) != NULL);
	strcat(abs, "/d/e/f");
	fd = EXPECT_OK(openat(999, abs, O_RDONLY));
	close(fd);
	fd = EXPECT_OK(openat(AT_FDCWD, "d/e/f", O_RDONLY));
}

TEST(unlink_open_file)
{
	char buf[8];
	int fd = create_file("f", "abc", 3, 0644);
	struct stat st;

	EXPECT_OK(unlink("f"));
	EXPECT_ERR(ENOENT, stat("f", &st));
	/* The inode lives on while it is open. */
	CHECK(write(fd, "def", 3) == 3);
	CHECK(pread(fd, buf, 8, 0) == 6 && memcmp(buf, "abcdef", 6) == 0);
	EXPECT_OK(fstat(fd, &st));
	CHECK(st.st_nlink == 0 && st.st_size == 6);
	/* A new file of the same name is a different file. */
	make_file("f", "new", 3);
	CHECK(pread(fd, buf, 8, 0) == 6);
}

TEST(dev_null_zero)
{
	char buf[100];
	int null = EXPECT_OK(open("/dev/null", O_RDWR));
	int zero = EXPECT_OK(open("/dev/zero", O_RDWR));

	CHECK(read(null, buf, sizeof(buf)) == 0);
	CHECK(write(null, buf, sizeof(buf)) == sizeof(buf));
	memset(buf, 0xff, sizeof(buf));
	CHECK(read(zero, buf, sizeof(buf)) == sizeof(buf));
	CHECK(all_bytes(buf, sizeof(buf), 0));
	CHECK(write(zero, buf, sizeof(buf)) == sizeof(buf));
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
	CHECK((size_t)n == off);
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
	EXPECT_OK(stat("/etc/usertests.link", &st));
	CHECK(S_ISREG(st.st_mode) && st.st_size > 0);
}

#define STATFS_VALID 0x20 /* Linux's ST_VALID in f_flags: the flags are filled in */

/*
 * The file system of the working directory: rewind's RAM file system
 * answers as tmpfs (Linux's initramfs root is one), with blocks that file
 * data takes. On a host whose directory is on another file system only
 * the common shape is checked.
 */
TEST(statfs_tmpfs)
{
	struct statfs a, b;

	EXPECT_OK(statfs(".", &a));
	if (on_rewind())
		CHECK(a.f_type == TMPFS_MAGIC);
	CHECK(a.f_namelen == 255 && a.f_bsize > 0 && a.f_frsize == a.f_bsize);
	CHECK(a.f_blocks >= a.f_bfree && a.f_bfree >= a.f_bavail);
	CHECK(a.f_flags & STATFS_VALID);
	if (a.f_type != TMPFS_MAGIC)
		return;
	CHECK(a.f_bsize == 4096 && a.f_blocks > 0 && a.f_files > 0 && a.f_ffree < a.f_files);
	CHECK(a.f_bavail == a.f_bfree); /* no blocks kept for root */
	/* A megabyte of data takes 256 blocks (and one inode); removing it gives them back. */
	static char mb[1 << 20];
	memset(mb, 'x', sizeof(mb));
	int fd = create_file("statfs_data", mb, sizeof(mb), 0644);
	EXPECT_OK(fstatfs(fd, &b));
	CHECK(b.f_type == TMPFS_MAGIC && b.f_blocks == a.f_blocks);
	CHECK(b.f_bfree + 200 <= a.f_bfree);
	CHECK(b.f_fsid.__val[0] == a.f_fsid.__val[0] && b.f_fsid.__val[1] == a.f_fsid.__val[1]);
	close(fd);
	EXPECT_OK(unlink("statfs_data"));
	EXPECT_OK(statfs(".", &b));
	CHECK(b.f_bfree + 64 > a.f_bfree);
}

TEST(statfs_proc_pipe_dev)
{
	struct statfs st;
	int p[2];

	EXPECT_OK(statfs("/proc", &st));
	CHECK(st.f_type == PROC_SUPER_MAGIC && st.f_bsize == 4096 && st.f_namelen == 255);
	CHECK(st.f_blocks == 0 && st.f_files == 0 && (st.f_flags & STATFS_VALID));
	EXPECT_OK(statfs("/proc/self/stat", &st));
	CHECK(st.f_type == PROC_SUPER_MAGIC);
	EXPECT_OK(pipe(p));
	EXPECT_OK(fstatfs(p[0], &st));
	CHECK(st.f_type == PIPEFS_MAGIC && st.f_bsize == 4096 && st.f_blocks == 0);
	/* /dev is a devtmpfs on Linux, part of the RAM file system on rewind: tmpfs either way. */
	EXPECT_OK(statfs("/dev/null", &st));
	CHECK(st.f_type == TMPFS_MAGIC || !on_rewind());
	/* An O_PATH descriptor is enough. */
	int fd = open("/proc", O_PATH);
	EXPECT_OK(fd);
	EXPECT_OK(fstatfs(fd, &st));
	CHECK(st.f_type == PROC_SUPER_MAGIC);
}

TEST(statfs_errors)
{
	struct statfs st;

	make_file("statfs_f", "x", 1);
	EXPECT_ERR(ENOENT, statfs("no-such-file", &st));
	EXPECT_ERR(ENOTDIR, statfs("statfs_f/x", &st));
	EXPECT_ERR(ENOENT, statfs("", &st));
	EXPECT_ERR(EFAULT, syscall(SYS_statfs, bad_addrs[0], &st));
	EXPECT_ERR(EFAULT, syscall(SYS_statfs, ".", bad_addrs[0]));
	EXPECT_ERR(EBADF, fstatfs(-1, &st));
	EXPECT_ERR(EBADF, fstatfs(999, &st));
	EXPECT_ERR(EFAULT, syscall(SYS_fstatfs, 0, bad_addrs[1]));
}

static mode_t
mode_of(const char *path)
{
	struct stat st;

	EXPECT_OK(stat(path, &st));
	return st.st_mode;
}

TEST(chmod_family)
{
	struct stat st;

	make_file("chmod_f", "x", 1);
	EXPECT_OK(chmod("chmod_f", 0600));
	CHECK(mode_of("chmod_f") == (S_IFREG | 0600));
	/* Only the 07777 bits change; the type stays. */
	EXPECT_OK(chmod("chmod_f", S_IFDIR | 04751));
	CHECK(mode_of("chmod_f") == (S_IFREG | 04751));
	int fd = open("chmod_f", O_RDONLY);
	EXPECT_OK(fd);
	EXPECT_OK(fchmod(fd, 0640));
	EXPECT_OK(fstat(fd, &st));
	CHECK(st.st_mode == (S_IFREG | 0640));
	EXPECT_OK(fchmodat(AT_FDCWD, "chmod_f", 0444, 0));
	CHECK(mode_of("chmod_f") == (S_IFREG | 0444));
	EXPECT_OK(mkdir("chmod_d", 0755));
	EXPECT_OK(chmod("chmod_d", 01777));
	CHECK(mode_of("chmod_d") == (S_IFDIR | 01777));
	/* A pipe has a mode too. */
	int p[2];
	EXPECT_OK(pipe(p));
	EXPECT_OK(fchmod(p[0], 0640));
	EXPECT_OK(fstat(p[1], &st));
	CHECK((st.st_mode & 07777) == 0640);
	EXPECT_ERR(ENOENT, chmod("no-such-file", 0644));
	EXPECT_ERR(ENOTDIR, chmod("chmod_f/x", 0644));
	EXPECT_ERR(EFAULT, syscall(SYS_chmod, bad_addrs[0], 0644));
	EXPECT_ERR(EBADF, fchmod(-1, 0644));
	int pfd = open("chmod_f", O_PATH);
	EXPECT_OK(pfd);
	EXPECT_ERR(EBADF, syscall(SYS_fchmod, pfd,
				  0644)); /* O_PATH: only a name (libc may retry by name) */
	close(fd);
	close(pfd);
}

TEST(chown_family)
{
	struct stat st;

	make_file("chown_f", "x", 1);
	EXPECT_OK(chown("chown_f", 1000, 100));
	EXPECT_OK(stat("chown_f", &st));
	CHECK(st.st_uid == 1000 && st.st_gid == 100);
	/* -1 leaves it as it is. */
	EXPECT_OK(chown("chown_f", -1, 200));
	EXPECT_OK(stat("chown_f", &st));
	CHECK(st.st_uid == 1000 && st.st_gid == 200);
	EXPECT_OK(lchown("chown_f", 7, -1));
	EXPECT_OK(fchownat(AT_FDCWD, "chown_f", -1, 8, AT_SYMLINK_NOFOLLOW));
	int fd = open("chown_f", O_RDWR);
	EXPECT_OK(fd);
	EXPECT_OK(fstat(fd, &st));
	CHECK(st.st_uid == 7 && st.st_gid == 8);
	/* chown clears set-user-ID, and set-group-ID with group execute; directories keep them. */
	EXPECT_OK(fchmod(fd, 06755));
	EXPECT_OK(fchown(fd, 0, 0));
	EXPECT_OK(fstat(fd, &st));
	CHECK(st.st_uid == 0 && st.st_gid == 0 && (st.st_mode & 07777) == 0755);
	EXPECT_OK(fchmod(fd, 06745));
	EXPECT_OK(fchown(fd, -1, -1));
	EXPECT_OK(fstat(fd, &st));
	CHECK((st.st_mode & 07777) == 02745); /* no group execute: a mandatory-locking mark, kept */
	EXPECT_OK(mkdir("chown_d", 02755));
	EXPECT_OK(chmod("chown_d", 02755));
	EXPECT_OK(chown("chown_d", 5, 5));
	CHECK(mode_of("chown_d") == (S_IFDIR | 02755));
	/* AT_EMPTY_PATH changes dirfd's own file. */
	EXPECT_OK(fchownat(fd, "", 3, 4, AT_EMPTY_PATH));
	EXPECT_OK(fstat(fd, &st));
	CHECK(st.st_uid == 3 && st.st_gid == 4);
	EXPECT_ERR(EINVAL, fchownat(AT_FDCWD, "chown_f", 0, 0, 0x1));
	EXPECT_ERR(ENOENT, chown("no-such-file", 0, 0));
	EXPECT_ERR(EBADF, fchown(-1, 0, 0));
	close(fd);
}

TEST(utimensat_family)
{
	struct stat st, before;

	make_file("utime_f", "x", 1);
	struct timespec ts[2] = { { 1000000000, 123456789 }, { 1500000000, 5 } };
	EXPECT_OK(utimensat(AT_FDCWD, "utime_f", ts, 0));
	EXPECT_OK(stat("utime_f", &st));
	CHECK(st.st_atim.tv_sec == 1000000000 && st.st_atim.tv_nsec == 123456789);
	CHECK(st.st_mtim.tv_sec == 1500000000 && st.st_mtim.tv_nsec == 5);
	/* UTIME_OMIT keeps one, UTIME_NOW takes the time now; ctime moves on any change. */
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	ts[0] = (struct timespec){ 0, UTIME_OMIT };
	ts[1] = (struct timespec){ 0, UTIME_NOW };
	EXPECT_OK(utimensat(AT_FDCWD, "utime_f", ts, AT_SYMLINK_NOFOLLOW));
	EXPECT_OK(stat("utime_f", &st));
	CHECK(st.st_atim.tv_sec == 1000000000 && st.st_mtim.tv_sec >= now.tv_sec - 1);
	CHECK(st.st_ctim.tv_sec >= now.tv_sec - 1);
	/* Both omitted: nothing at all, not even a lookup. */
	ts[0].tv_nsec = ts[1].tv_nsec = UTIME_OMIT;
	EXPECT_OK(utimensat(AT_FDCWD, "no-such-file", ts, 0));
	/* NULL: both now. futimens is utimensat on the fd with a NULL path. */
	int fd = open("utime_f", O_RDWR);
	EXPECT_OK(fd);
	ts[0] = (struct timespec){ 42, 0 };
	ts[1] = (struct timespec){ 43, 0 };
	EXPECT_OK(futimens(fd, ts));
	EXPECT_OK(fstat(fd, &st));
	CHECK(st.st_atim.tv_sec == 42 && st.st_mtim.tv_sec == 43);
	EXPECT_OK(utimensat(AT_FDCWD, "utime_f", NULL, 0));
	EXPECT_OK(fstat(fd, &st));
	CHECK(st.st_atim.tv_sec >= now.tv_sec - 1 && st.st_mtim.tv_sec >= now.tv_sec - 1);
	/* The microsecond and second interfaces. */
	struct timeval tv[2] = { { 100, 250000 }, { 200, 999999 } };
	EXPECT_OK(utimes("utime_f", tv));
	EXPECT_OK(stat("utime_f", &st));
	CHECK(st.st_atim.tv_sec == 100 && st.st_atim.tv_nsec == 250000000);
	CHECK(st.st_mtim.tv_sec == 200 && st.st_mtim.tv_nsec == 999999000);
	EXPECT_OK(syscall(SYS_futimesat, AT_FDCWD, "utime_f", tv));
	struct utimbuf ub = { 300, 400 };
	EXPECT_OK(utime("utime_f", &ub));
	EXPECT_OK(stat("utime_f", &before));
	CHECK(before.st_atim.tv_sec == 300 && before.st_mtim.tv_sec == 400 &&
	      before.st_mtim.tv_nsec == 0);
	EXPECT_OK(utime("utime_f", NULL));
	/* Bad times, flags and files. */
	ts[0] = (struct timespec){ 0, 1000000000 };
	ts[1] = (struct timespec){ 0, 0 };
	EXPECT_ERR(EINVAL, utimensat(AT_FDCWD, "utime_f", ts, 0));
	ts[0].tv_nsec = -1;
	EXPECT_ERR(EINVAL, utimensat(AT_FDCWD, "utime_f", ts, 0));
	EXPECT_ERR(EINVAL, utimensat(AT_FDCWD, "utime_f", NULL, 0x1));
	EXPECT_ERR(EINVAL, syscall(SYS_utimensat, fd, NULL, NULL, AT_SYMLINK_NOFOLLOW));
	tv[0].tv_usec = 1000000;
	EXPECT_ERR(EINVAL, utimes("utime_f", tv));
	EXPECT_ERR(ENOENT, utimensat(AT_FDCWD, "no-such-file", NULL, 0));
	EXPECT_ERR(EBADF, syscall(SYS_utimensat, 999, NULL, NULL, 0));
	EXPECT_ERR(EFAULT, syscall(SYS_utimensat, AT_FDCWD, "utime_f", bad_addrs[0], 0));
	close(fd);
}

TEST(mknod_fifo_and_file)
{
	struct stat st;

	umask(022);
	EXPECT_OK(mknod("mknod_fifo", S_IFIFO | 0666, 0));
	EXPECT_OK(stat("mknod_fifo", &st));
	CHECK(st.st_mode == (S_IFIFO | 0644) && st.st_size == 0); /* the umask applies */
	EXPECT_OK(mkfifoat(AT_FDCWD, "mknod_fifo2", 0600));
	CHECK(S_ISFIFO(mode_of("mknod_fifo2")));
	/* A regular file, with type 0 or S_IFREG. */
	EXPECT_OK(mknod("mknod_reg", 0640, 0));
	CHECK(mode_of("mknod_reg") == (S_IFREG | 0640));
	EXPECT_OK(mknodat(AT_FDCWD, "mknod_reg2", S_IFREG | 0600, 0));
	EXPECT_OK(stat("mknod_reg2", &st));
	CHECK(S_ISREG(st.st_mode) && st.st_size == 0);
	EXPECT_ERR(EEXIST, mknod("mknod_fifo", S_IFIFO | 0666, 0));
	EXPECT_ERR(EEXIST, mknod(".", S_IFIFO | 0666, 0));
	EXPECT_ERR(ENOENT, mknod("no-such-dir/f", S_IFIFO | 0666, 0));
	EXPECT_ERR(EPERM, mknod("mknod_dir", S_IFDIR | 0755, 0));
	EXPECT_ERR(EINVAL, mknod("mknod_bad", 0170000 | 0644, 0));
	EXPECT_ERR(EFAULT, syscall(SYS_mknod, bad_addrs[0], S_IFIFO | 0644, 0));
	EXPECT_OK(unlink("mknod_fifo"));
	EXPECT_ERR(ENOENT, stat("mknod_fifo", &st));
}
