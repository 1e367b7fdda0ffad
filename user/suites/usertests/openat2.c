/*
 * openat2.c - usertests: openat2(2). struct open_how of any size (a bigger
 * one zero past the known fields), its flag, mode and resolve checks, and
 * each RESOLVE_* flag narrowing the walk: no mount crossing, no symbolic
 * or magic links, and the scoped walks BENEATH and IN_ROOT.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "uapi/openat2.h" /* musl and older glibc have no <linux/openat2.h> */

#ifndef SYS_openat2
#define SYS_openat2 437
#endif

static int
openat2_call(int dirfd, const char *path, uint64_t flags, uint64_t mode, uint64_t resolve)
{
	struct kernel_open_how how = { .flags = flags, .mode = mode, .resolve = resolve };

	return (int)syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
}

/* Opens like openat; the size may grow if the new part is zero; bad input is refused. */
TEST(openat2_how_checks)
{
	struct {
		struct kernel_open_how how;
		uint64_t pad;
	} big = { { O_RDWR | O_CREAT, 0600, 0 }, 0 };
	struct stat st;

	int fd = openat2_call(AT_FDCWD, "f", O_RDWR | O_CREAT | O_EXCL, 0640, 0);
	CHECK(fd >= 0);
	CHECK_OK(fstat(fd, &st));
	CHECK_EQ(st.st_mode & 07777, 0640 & ~umask(022));
	close(fd);
	fd = (int)syscall(SYS_openat2, AT_FDCWD, "f", &big, sizeof(big));
	CHECK(fd >= 0);
	close(fd);
	big.pad = 1;
	CHECK_ERR(E2BIG, syscall(SYS_openat2, AT_FDCWD, "f", &big, sizeof(big)));
	CHECK_ERR(EINVAL, syscall(SYS_openat2, AT_FDCWD, "f", &big, 0));
	CHECK_ERR(EINVAL, syscall(SYS_openat2, AT_FDCWD, "f", &big, OPEN_HOW_SIZE_VER0 - 1));
	CHECK_ERR(EFAULT, syscall(SYS_openat2, AT_FDCWD, "f", NULL, sizeof(big.how)));
	CHECK_ERR(EFAULT, openat2_call(AT_FDCWD, NULL, O_RDONLY, 0, 0));
	CHECK_ERR(EBADF, openat2_call(-1, "f", O_RDONLY, 0, 0));
	/* open ignores unknown flags; openat2 refuses them, and a mode without O_CREAT */
	CHECK_ERR(EINVAL, openat2_call(AT_FDCWD, "f", O_RDONLY | (1ULL << 40), 0, 0));
	CHECK_ERR(EINVAL, openat2_call(AT_FDCWD, "f", O_RDONLY, 0600, 0));
	CHECK_ERR(EINVAL, openat2_call(AT_FDCWD, "f", O_RDWR | O_CREAT, 010000, 0));
	CHECK_ERR(EINVAL, openat2_call(AT_FDCWD, "f", O_RDONLY, 0, 1ULL << 20));
	CHECK_ERR(EINVAL,
		  openat2_call(AT_FDCWD, "f", O_RDONLY, 0, RESOLVE_BENEATH | RESOLVE_IN_ROOT));
	CHECK_ERR(EAGAIN, openat2_call(AT_FDCWD, "f", O_RDWR | O_CREAT, 0600, RESOLVE_CACHED));
	fd = openat2_call(AT_FDCWD, "f", O_RDONLY, 0, RESOLVE_CACHED);
	CHECK(fd >= 0);
	close(fd);
}

/* NO_SYMLINKS refuses every link followed, NO_MAGICLINKS only /proc's magic ones. */
TEST(openat2_no_links)
{
	make_file("target", "x", 1);
	CHECK_OK(symlink("target", "link"));
	CHECK_OK(mkdir("dir", 0700));
	make_file("dir/inside", "y", 1);
	CHECK_OK(symlink("dir", "dirlink"));
	CHECK_ERR(ELOOP, openat2_call(AT_FDCWD, "link", O_RDONLY, 0, RESOLVE_NO_SYMLINKS));
	CHECK_ERR(ELOOP,
		  openat2_call(AT_FDCWD, "dirlink/inside", O_RDONLY, 0, RESOLVE_NO_SYMLINKS));
	CHECK_ERR(ELOOP,
		  openat2_call(AT_FDCWD, "/proc/self/exe", O_RDONLY, 0, RESOLVE_NO_MAGICLINKS));
	CHECK_ERR(ELOOP,
		  openat2_call(AT_FDCWD, "/proc/self/exe", O_RDONLY, 0, RESOLVE_NO_SYMLINKS));
	int fd = openat2_call(AT_FDCWD, "link", O_RDONLY, 0, RESOLVE_NO_MAGICLINKS);
	CHECK(fd >= 0);
	close(fd);
	/* O_PATH | O_NOFOLLOW holds the link itself: nothing followed */
	fd = openat2_call(AT_FDCWD, "link", O_PATH | O_NOFOLLOW, 0, RESOLVE_NO_SYMLINKS);
	CHECK(fd >= 0);
	close(fd);
}

/* NO_XDEV: a walk from this file system onto /proc's mount is EXDEV. */
TEST(openat2_no_xdev)
{
	make_file("here", "x", 1);
	int fd = openat2_call(AT_FDCWD, "here", O_RDONLY, 0, RESOLVE_NO_XDEV);
	CHECK(fd >= 0);
	close(fd);
	CHECK_ERR(EXDEV, openat2_call(AT_FDCWD, "/proc/version", O_RDONLY, 0, RESOLVE_NO_XDEV));
	int proc = open("/proc", O_DIRECTORY | O_RDONLY);
	CHECK(proc >= 0);
	fd = openat2_call(proc, "version", O_RDONLY, 0, RESOLVE_NO_XDEV);
	CHECK(fd >= 0);
	close(fd);
	close(proc);
}

/* BENEATH: "/", "..", absolute links and links out of the directory are EXDEV. */
TEST(openat2_beneath)
{
	CHECK_OK(mkdir("top", 0700));
	CHECK_OK(mkdir("top/sub", 0700));
	make_file("top/f", "x", 1);
	make_file("outside", "o", 1);
	CHECK_OK(symlink("../outside", "top/up"));
	CHECK_OK(symlink("/etc", "top/abs"));
	CHECK_OK(symlink("sub/../f", "top/fine"));
	int top = open("top", O_DIRECTORY | O_RDONLY);
	CHECK(top >= 0);
	int fd = openat2_call(top, "sub/../f", O_RDONLY, 0, RESOLVE_BENEATH);
	CHECK(fd >= 0);
	close(fd);
	fd = openat2_call(top, "fine", O_RDONLY, 0, RESOLVE_BENEATH);
	CHECK(fd >= 0);
	close(fd);
	CHECK_ERR(EXDEV, openat2_call(top, "../outside", O_RDONLY, 0, RESOLVE_BENEATH));
	CHECK_ERR(EXDEV, openat2_call(top, "sub/../../outside", O_RDONLY, 0, RESOLVE_BENEATH));
	CHECK_ERR(EXDEV, openat2_call(top, "/etc", O_RDONLY, 0, RESOLVE_BENEATH));
	CHECK_ERR(EXDEV, openat2_call(top, "up", O_RDONLY, 0, RESOLVE_BENEATH));
	CHECK_ERR(EXDEV, openat2_call(top, "abs", O_RDONLY, 0, RESOLVE_BENEATH));
	fd = openat2_call(top, "sub/new", O_RDWR | O_CREAT, 0600, RESOLVE_BENEATH);
	CHECK(fd >= 0);
	close(fd);
	CHECK_ERR(EXDEV, openat2_call(top, "/new", O_RDWR | O_CREAT, 0600, RESOLVE_BENEATH));
	close(top);
}

/* IN_ROOT: the directory is "/" for the walk and its links, and ".." stops there. */
TEST(openat2_in_root)
{
	char buf[4] = { 0 };

	CHECK_OK(mkdir("jail", 0700));
	make_file("jail/f", "in", 2);
	make_file("f", "out", 3);
	CHECK_OK(symlink("/f", "jail/abs"));
	int jail = open("jail", O_DIRECTORY | O_RDONLY);
	CHECK(jail >= 0);
	const char *paths[] = { "/f", "../f", "../../f", "abs" };
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		int fd = openat2_call(jail, paths[i], O_RDONLY, 0, RESOLVE_IN_ROOT);
		CHECK(fd >= 0);
		CHECK_EQ(read(fd, buf, sizeof(buf)), 2);
		CHECK(memcmp(buf, "in", 2) == 0);
		close(fd);
	}
	CHECK_ERR(ENOENT, openat2_call(jail, "/proc/version", O_RDONLY, 0, RESOLVE_IN_ROOT));
	close(jail);
	/* a magic link could lead anywhere: a scoped walk never follows one */
	int proc = open("/proc", O_DIRECTORY | O_RDONLY);
	CHECK(proc >= 0);
	CHECK_ERR(EXDEV, openat2_call(proc, "self/exe", O_RDONLY, 0, RESOLVE_IN_ROOT));
	CHECK_ERR(EXDEV, openat2_call(proc, "self/exe", O_RDONLY, 0, RESOLVE_BENEATH));
	close(proc);
}
