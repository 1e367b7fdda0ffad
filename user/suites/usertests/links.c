/*
 * links.c - usertests: symbolic links (readlink, lstat, following in every
 * walk, "..", O_CREAT through a link, the 40-link limit, O_NOFOLLOW,
 * removal, getdents' DT_LNK) and hard links (link, linkat, their errors,
 * and the first name of an O_TMPFILE file, through /proc/self/fd).
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

/* symlink and readlink: the target comes back without a NUL, cut to the buffer. */
TEST(symlink_readlink)
{
	char buf[64];
	int dir;

	CHECK_OK(symlink("some/target", "l"));
	memset(buf, 'x', sizeof(buf));
	CHECK(readlink("l", buf, sizeof(buf)) == 11 && memcmp(buf, "some/target", 11) == 0);
	CHECK_EQ(buf[11], 'x'); /* no NUL */
	CHECK(readlink("l", buf, 4) == 4 && memcmp(buf, "some", 4) == 0);
	CHECK_ERR(EINVAL, syscall(SYS_readlink, "l", buf, 0)); /* musl hides a size of 0 */
	make_file("f", "x", 1);
	CHECK_ERR(EINVAL, readlink("f", buf, sizeof(buf)));
	CHECK_ERR(EINVAL, readlink(".", buf, sizeof(buf)));
	CHECK_ERR(ENOENT, readlink("missing", buf, sizeof(buf)));
	CHECK_ERR(EEXIST, symlink("x", "f"));
	CHECK_ERR(EEXIST, symlink("x", "l"));
	CHECK_ERR(ENOENT, symlink("", "empty"));
	CHECK_ERR(ENOENT, symlink("x", "missing/l"));
	CHECK_OK(mkdir("d", 0755));
	dir = CHECK_OK(open("d", O_RDONLY | O_DIRECTORY));
	CHECK_OK(symlinkat("../f", dir, "up"));
	CHECK(readlinkat(dir, "up", buf, sizeof(buf)) == 4 && memcmp(buf, "../f", 4) == 0);
	CHECK_EQ(readlink("d/up", buf, sizeof(buf)), 4);
	close(dir);
}

/* lstat and AT_SYMLINK_NOFOLLOW show the link, stat what it leads to. */
TEST(symlink_lstat)
{
	struct stat st, target;
	char buf[16];

	make_file("f", "hello", 5);
	CHECK_OK(symlink("f", "l"));
	CHECK_OK(lstat("l", &st));
	CHECK(S_ISLNK(st.st_mode) && st.st_size == 1 && st.st_nlink == 1);
	CHECK_OK(stat("f", &target));
	CHECK_OK(stat("l", &st));
	CHECK(S_ISREG(st.st_mode) && st.st_ino == target.st_ino && st.st_size == 5);
	CHECK_OK(fstatat(AT_FDCWD, "l", &st, AT_SYMLINK_NOFOLLOW));
	CHECK(S_ISLNK(st.st_mode) && st.st_ino != target.st_ino);
	CHECK_OK(fstatat(AT_FDCWD, "l", &st, 0));
	CHECK_EQ(st.st_ino, target.st_ino);
	/* O_PATH | O_NOFOLLOW holds the link itself: AT_EMPTY_PATH and an empty readlinkat path. */
	int fd = CHECK_OK(open("l", O_PATH | O_NOFOLLOW));
	CHECK_OK(fstat(fd, &st));
	CHECK(S_ISLNK(st.st_mode));
	CHECK_OK(fstatat(fd, "", &st, AT_EMPTY_PATH));
	CHECK(S_ISLNK(st.st_mode));
	CHECK(readlinkat(fd, "", buf, sizeof(buf)) == 1 && buf[0] == 'f');
	close(fd);
	fd = CHECK_OK(open("f", O_RDONLY));
	CHECK_ERR(ENOENT, readlinkat(fd, "", buf, sizeof(buf)));
	close(fd);
	/* A trailing slash follows even for lstat. */
	CHECK_OK(mkdir("d", 0755));
	CHECK_OK(symlink("d", "ld"));
	CHECK_OK(lstat("ld/", &st));
	CHECK(S_ISDIR(st.st_mode));
	CHECK_ERR(ENOTDIR, lstat("l/", &st));
}

/* Every walk follows links: intermediate ones always, relative and absolute targets. */
TEST(symlink_follow)
{
	char cwd[PATH_MAX], abs[PATH_MAX + 16], buf[16];
	struct stat a, b;

	CHECK(getcwd(cwd, sizeof(cwd)) != NULL);
	CHECK_OK(mkdir("a", 0755));
	CHECK_OK(mkdir("a/b", 0755));
	make_file("a/b/f", "data", 4);
	CHECK_OK(symlink("a/b", "rel"));
	snprintf(abs, sizeof(abs), "%s/a/b", cwd);
	CHECK_OK(symlink(abs, "abs"));
	CHECK_OK(stat("a/b/f", &a));
	CHECK_OK(stat("rel/f", &b));
	CHECK_EQ(a.st_ino, b.st_ino);
	CHECK_OK(stat("abs/f", &b));
	CHECK_EQ(a.st_ino, b.st_ino);
	/* A relative target is taken from the link's directory. */
	CHECK_OK(symlink("b/f", "a/lf"));
	CHECK_OK(stat("a/lf", &b));
	CHECK_EQ(a.st_ino, b.st_ino);
	/* A link to a link to a link. */
	CHECK_OK(symlink("rel", "rel2"));
	CHECK_OK(symlink("rel2/f", "ff"));
	int fd = CHECK_OK(open("ff", O_RDWR));
	CHECK(read(fd, buf, sizeof(buf)) == 4 && memcmp(buf, "data", 4) == 0);
	CHECK_EQ(write(fd, "more", 4), 4);
	close(fd);
	CHECK_OK(stat("a/b/f", &a));
	CHECK_EQ(a.st_size, 8);
	/* chdir through a link: getcwd gives where it led. */
	CHECK_OK(chdir("rel"));
	char here[PATH_MAX];
	CHECK(getcwd(here, sizeof(here)) != NULL && strcmp(here, abs) == 0);
	CHECK_OK(chdir(cwd));
	/* Dangling: ENOENT, until the target exists. */
	CHECK_OK(symlink("nothing", "dangle"));
	CHECK_ERR(ENOENT, stat("dangle", &b));
	CHECK_ERR(ENOENT, open("dangle", O_RDONLY));
	CHECK_ERR(ENOTDIR, stat("a/b/f/x", &b));
	CHECK_OK(symlink("a/b/f", "lf"));
	CHECK_ERR(ENOTDIR, stat("lf/x", &b));
}

/* ".." after a link goes up from where the link led, not back along the path. */
TEST(symlink_dotdot)
{
	struct stat a, b;

	CHECK_OK(mkdir("x", 0755));
	CHECK_OK(mkdir("x/y", 0755));
	make_file("x/marker", "m", 1);
	CHECK_OK(symlink("x/y", "ly"));
	CHECK_OK(stat("x/marker", &a));
	CHECK_OK(stat("ly/../marker", &b));
	CHECK_EQ(a.st_ino, b.st_ino);
	CHECK_ERR(ENOENT, stat("ly/../ly", &b));
}

/* O_CREAT follows a last link and creates a dangling link's target; O_EXCL does not follow. */
TEST(symlink_creat)
{
	struct stat st;
	char buf[8];

	CHECK_OK(mkdir("d", 0755));
	CHECK_OK(symlink("d/new", "l"));
	int fd = CHECK_OK(open("l", O_WRONLY | O_CREAT, 0644));
	CHECK_EQ(write(fd, "abc", 3), 3);
	close(fd);
	CHECK_OK(stat("d/new", &st));
	CHECK(S_ISREG(st.st_mode) && st.st_size == 3);
	fd = CHECK_OK(open("l", O_RDONLY | O_CREAT, 0644));
	CHECK_EQ(read(fd, buf, sizeof(buf)), 3);
	close(fd);
	CHECK_ERR(EEXIST, open("l", O_WRONLY | O_CREAT | O_EXCL, 0644));
	CHECK_OK(symlink("nowhere", "l2"));
	CHECK_ERR(EEXIST, open("l2", O_WRONLY | O_CREAT | O_EXCL, 0644));
	CHECK_ERR(ELOOP, open("l2", O_WRONLY | O_CREAT | O_NOFOLLOW, 0644));
	CHECK_ERR(ENOENT, stat("nowhere", &st));
	CHECK_ERR(EEXIST, mkdir("l", 0755));
}

/* At most 40 links in one walk: a chain of 40 resolves, 41 and a loop give ELOOP. */
TEST(symlink_eloop)
{
	char name[16], target[16];
	struct stat st;

	make_file("f", "x", 1);
	CHECK_OK(symlink("f", "c0"));
	for (int i = 1; i <= 40; i++) {
		snprintf(name, sizeof(name), "c%d", i);
		snprintf(target, sizeof(target), "c%d", i - 1);
		CHECK_OK(symlink(target, name));
	}
	CHECK_OK(stat("c39", &st)); /* c39 .. c0: 40 links */
	CHECK_ERR(ELOOP, stat("c40", &st));
	CHECK_OK(lstat("c40", &st));
	CHECK_OK(symlink("self", "self"));
	CHECK_ERR(ELOOP, stat("self", &st));
	CHECK_ERR(ELOOP, open("self/x", O_RDONLY));
	CHECK_OK(symlink("pong", "ping"));
	CHECK_OK(symlink("ping", "pong"));
	CHECK_ERR(ELOOP, open("ping", O_RDONLY | O_CREAT, 0644));
}

/* O_NOFOLLOW: ELOOP on a last link (O_PATH opens the link itself), intermediate ones followed. */
TEST(symlink_nofollow)
{
	struct stat st;

	CHECK_OK(mkdir("d", 0755));
	make_file("d/f", "x", 1);
	CHECK_OK(symlink("d/f", "lf"));
	CHECK_OK(symlink("d", "ld"));
	CHECK_ERR(ELOOP, open("lf", O_RDONLY | O_NOFOLLOW));
	CHECK_ERR(ELOOP, open("lf", O_WRONLY | O_NOFOLLOW));
	int fd = CHECK_OK(open("ld/f", O_RDONLY | O_NOFOLLOW));
	close(fd);
	fd = CHECK_OK(open("lf", O_PATH | O_NOFOLLOW));
	CHECK_OK(fstat(fd, &st));
	CHECK(S_ISLNK(st.st_mode));
	close(fd);
	CHECK_ERR(ENOTDIR, open("ld", O_PATH | O_NOFOLLOW | O_DIRECTORY));
	fd = CHECK_OK(open("ld", O_RDONLY | O_DIRECTORY));
	close(fd);
}

/* unlink, rmdir and rename work on a link, never on what it leads to. */
TEST(symlink_remove)
{
	struct stat st;
	char buf[8];

	CHECK_OK(mkdir("d", 0755));
	make_file("f", "x", 1);
	CHECK_OK(symlink("f", "lf"));
	CHECK_OK(symlink("d", "ld"));
	CHECK_ERR(ENOTDIR, rmdir("ld"));
	CHECK_OK(rename("lf", "d/moved"));
	CHECK_EQ(readlink("d/moved", buf, sizeof(buf)), 1);
	CHECK_ERR(ENOENT, stat("d/moved", &st)); /* "f" is now taken from d/ */
	CHECK_OK(unlink("d/moved"));
	CHECK_OK(unlink("ld"));
	CHECK_OK(stat("d", &st));
	CHECK_OK(stat("f", &st));
	CHECK(S_ISDIR(st.st_mode) == 0 && st.st_size == 1);
	CHECK_ERR(ENOENT, lstat("ld", &st));
}

/* getdents types a link DT_LNK. */
TEST(symlink_getdents)
{
	CHECK_OK(mkdir("d", 0755));
	CHECK_OK(symlink("x", "d/l"));
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
	CHECK_OK(link("f", "g"));
	CHECK_OK(stat("f", &a));
	CHECK_OK(stat("g", &b));
	CHECK(a.st_ino == b.st_ino && a.st_nlink == 2 && b.st_nlink == 2);
	CHECK_OK(mkdir("d", 0755));
	CHECK_OK(link("g", "d/h"));
	CHECK_OK(stat("f", &a));
	CHECK_EQ(a.st_nlink, 3);
	CHECK_OK(unlink("f"));
	CHECK_OK(stat("g", &b));
	CHECK_EQ(b.st_nlink, 2);
	int fd = CHECK_OK(open("d/h", O_RDWR));
	CHECK_OK(unlink("g"));
	CHECK_OK(unlink("d/h"));
	CHECK_OK(fstat(fd, &a));
	CHECK_EQ(a.st_nlink, 0);
	CHECK(pread(fd, buf, sizeof(buf), 0) == 3 && memcmp(buf, "abc", 3) == 0);
	close(fd);
	/* A rename between two names of one inode does nothing. */
	make_file("p", "p", 1);
	CHECK_OK(link("p", "q"));
	CHECK_OK(rename("p", "q"));
	CHECK_OK(stat("p", &a));
	CHECK_EQ(a.st_nlink, 2);
}

/* link's errors: EEXIST, EPERM for a directory, EXDEV across file systems, ENOENT. */
TEST(hard_link_errors)
{
	make_file("f", "x", 1);
	make_file("g", "y", 1);
	CHECK_OK(mkdir("d", 0755));
	CHECK_ERR(EEXIST, link("f", "g"));
	CHECK_ERR(EEXIST, link("f", "d"));
	CHECK_ERR(EPERM, link("d", "d2"));
	CHECK_ERR(ENOENT, link("missing", "m"));
	CHECK_ERR(ENOENT, link("f", "missing/m"));
	CHECK_ERR(EXDEV, link("/proc/self/status", "st"));
	CHECK_ERR(EINVAL, linkat(AT_FDCWD, "f", AT_FDCWD, "h", 0x1));
}

/* linkat: a link itself unless AT_SYMLINK_FOLLOW; AT_EMPTY_PATH names an open file. */
TEST(linkat_flags)
{
	struct stat a, b;

	make_file("f", "x", 1);
	CHECK_OK(symlink("f", "l"));
	CHECK_OK(linkat(AT_FDCWD, "l", AT_FDCWD, "l2", 0));
	CHECK_OK(lstat("l2", &a));
	CHECK(S_ISLNK(a.st_mode) && a.st_nlink == 2);
	CHECK_OK(linkat(AT_FDCWD, "l", AT_FDCWD, "f2", AT_SYMLINK_FOLLOW));
	CHECK_OK(lstat("f2", &a));
	CHECK_OK(stat("f", &b));
	CHECK(S_ISREG(a.st_mode) && a.st_ino == b.st_ino && b.st_nlink == 2);
	int fd = CHECK_OK(open("f", O_RDONLY));
	CHECK_OK(linkat(fd, "", AT_FDCWD, "f3", AT_EMPTY_PATH));
	CHECK_ERR(ENOENT, linkat(fd, "", AT_FDCWD, "f4", 0));
	close(fd);
	CHECK_OK(stat("f3", &a));
	CHECK(a.st_ino == b.st_ino && a.st_nlink == 3);
	int dir = CHECK_OK(open(".", O_RDONLY | O_DIRECTORY));
	CHECK_OK(linkat(dir, "f", dir, "f5", 0));
	close(dir);
}

/*
 * An O_TMPFILE file gets a name by linkat through /proc/self/fd/N (a magic
 * link followed to the file itself) or its fd with AT_EMPTY_PATH; opened
 * with O_EXCL it never does, and once named and unlinked again neither.
 */
TEST(linkat_tmpfile)
{
	char proc[64];
	struct stat st;

	int fd = CHECK_OK(open(".", O_TMPFILE | O_RDWR, 0600));
	CHECK_EQ(write(fd, "tmp", 3), 3);
	CHECK_OK(fstat(fd, &st));
	CHECK_EQ(st.st_nlink, 0);
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	CHECK_ERR(EXDEV,
		  linkat(AT_FDCWD, proc, AT_FDCWD, "nofollow", 0)); /* the link itself, on /proc */
	CHECK_OK(linkat(AT_FDCWD, proc, AT_FDCWD, "named", AT_SYMLINK_FOLLOW));
	CHECK_OK(fstat(fd, &st));
	CHECK_EQ(st.st_nlink, 1);
	CHECK_OK(stat("named", &st));
	CHECK_EQ(st.st_size, 3);
	CHECK_OK(unlink("named"));
	CHECK_ERR(ENOENT, linkat(AT_FDCWD, proc, AT_FDCWD, "again", AT_SYMLINK_FOLLOW));
	close(fd);

	fd = CHECK_OK(open(".", O_TMPFILE | O_RDWR, 0600));
	CHECK_OK(linkat(fd, "", AT_FDCWD, "empty_path",
			AT_EMPTY_PATH)); /* root: CAP_DAC_READ_SEARCH */
	CHECK_OK(stat("empty_path", &st));
	close(fd);

	fd = CHECK_OK(open(".", O_TMPFILE | O_RDWR | O_EXCL, 0600));
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	CHECK_ERR(ENOENT, linkat(AT_FDCWD, proc, AT_FDCWD, "excl", AT_SYMLINK_FOLLOW));
	CHECK_ERR(ENOENT, linkat(fd, "", AT_FDCWD, "excl", AT_EMPTY_PATH));
	close(fd);
}
