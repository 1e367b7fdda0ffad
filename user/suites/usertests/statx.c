/*
 * statx.c - usertests: statx agrees with fstatat field by field, follows or
 * not as asked, takes AT_EMPTY_PATH, and refuses bad flags and the
 * reserved mask bit. The structure is uapi/statx.h's kernel_statx: musl
 * has no statx; glibc's struct statx (under _GNU_SOURCE) has another name,
 * and its STATX_* macros are Linux's, token for token, as ours.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "uapi/statx.h"

static long
raw_statx(int dirfd, const char *path, int flags, unsigned mask, struct kernel_statx *sx)
{
	memset(sx, 0xa5, sizeof(*sx));
	return syscall(SYS_statx, dirfd, path, flags, mask, sx);
}

/* The fields both structures have must agree; the basic ones must be marked filled. */
static void
expect_same(const char *what, const struct kernel_statx *sx, const struct stat *st)
{
	if ((sx->stx_mask & STATX_BASIC_STATS) != STATX_BASIC_STATS)
		fail("%s: stx_mask %#x lacks basic fields", what, sx->stx_mask);
	if (sx->stx_ino != st->st_ino || sx->stx_mode != st->st_mode ||
	    sx->stx_nlink != st->st_nlink || sx->stx_uid != st->st_uid ||
	    sx->stx_gid != st->st_gid || (long long)sx->stx_size != st->st_size ||
	    (long long)sx->stx_blocks != st->st_blocks)
		fail("%s: statx ino %llu mode %o size %llu, stat ino %lu mode %o size %lld", what,
		     sx->stx_ino, sx->stx_mode, sx->stx_size, (unsigned long)st->st_ino,
		     st->st_mode, (long long)st->st_size);
	if (sx->stx_mtime.tv_sec != st->st_mtim.tv_sec ||
	    sx->stx_mtime.tv_nsec != (unsigned)st->st_mtim.tv_nsec)
		fail("%s: mtime differs", what);
	if ((dev_t)makedev(sx->stx_dev_major, sx->stx_dev_minor) != st->st_dev)
		fail("%s: device %u:%u, stat's %#lx", what, sx->stx_dev_major, sx->stx_dev_minor,
		     (unsigned long)st->st_dev);
}

TEST(statx_matches_stat)
{
	struct kernel_statx sx;
	struct stat st;

	make_file("f", "hello, statx", 12);
	CHECK_OK(symlink("f", "link"));
	CHECK_OK(raw_statx(AT_FDCWD, "f", 0, STATX_BASIC_STATS, &sx));
	CHECK_OK(stat("f", &st));
	expect_same("file", &sx, &st);
	CHECK_EQ(sx.stx_size, 12);

	CHECK_OK(raw_statx(AT_FDCWD, "link", 0, STATX_BASIC_STATS, &sx));
	expect_same("link followed", &sx, &st);
	CHECK_OK(raw_statx(AT_FDCWD, "link", AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, &sx));
	CHECK_OK(lstat("link", &st));
	expect_same("link itself", &sx, &st);
	CHECK(S_ISLNK(sx.stx_mode));

	int fd = CHECK_OK(open("f", O_RDONLY));
	CHECK_OK(raw_statx(fd, "", AT_EMPTY_PATH | AT_STATX_DONT_SYNC, STATX_BASIC_STATS, &sx));
	CHECK_OK(fstat(fd, &st));
	expect_same("AT_EMPTY_PATH", &sx, &st);
	CHECK_OK(raw_statx(AT_FDCWD, ".", 0, STATX_TYPE, &sx));
	CHECK(S_ISDIR(sx.stx_mode));
	close(fd);
}

TEST(statx_errors)
{
	struct kernel_statx sx;

	make_file("f", "x", 1);
	CHECK_ERR(ENOENT, raw_statx(AT_FDCWD, "missing", 0, STATX_BASIC_STATS, &sx));
	CHECK_ERR(ENOENT, raw_statx(AT_FDCWD, "", 0, STATX_BASIC_STATS, &sx));
	CHECK_ERR(EINVAL, raw_statx(AT_FDCWD, "f", 0x1, STATX_BASIC_STATS, &sx));
	CHECK_ERR(EINVAL, raw_statx(AT_FDCWD, "f", AT_STATX_SYNC_TYPE, STATX_BASIC_STATS, &sx));
	CHECK_ERR(EINVAL, raw_statx(AT_FDCWD, "f", 0, STATX__RESERVED, &sx));
	CHECK_ERR(EBADF, raw_statx(-5, "f", 0, STATX_BASIC_STATS, &sx));
	CHECK_ERR(EFAULT, syscall(SYS_statx, AT_FDCWD, "f", 0, STATX_BASIC_STATS, (void *)8));
}
