/*
 * links.c - usertests: symbolic links (readlink, lstat, following in every
 * walk, "..", O_CREAT through a link, the 40-link limit, O_NOFOLLOW,
 * removal, getdents' DT_LNK) and hard links (link, linkat, their errors).
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
