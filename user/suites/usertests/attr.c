/*
 * attr.c - usertests: what a file system says of itself (statfs, fstatfs)
 * and changing a file's metadata: the chmod, chown and utimes families,
 * and mknod for FIFOs, plain files and device nodes.
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
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include <utime.h>

#include "lib/procfile.h"
#include "uapi/magic.h" /* statfs's f_type values */

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

	CHECK_OK(statfs(".", &a));
	if (on_rewind())
		CHECK_EQ(a.f_type, TMPFS_MAGIC);
	CHECK(a.f_namelen == 255 && a.f_bsize > 0 && a.f_frsize == a.f_bsize);
	CHECK(a.f_blocks >= a.f_bfree && a.f_bfree >= a.f_bavail);
	CHECK(a.f_flags & STATFS_VALID);
	if (a.f_type != TMPFS_MAGIC)
		return;
	CHECK(a.f_bsize == 4096 && a.f_blocks > 0 && a.f_files > 0 && a.f_ffree < a.f_files);
	CHECK_EQ(a.f_bavail, a.f_bfree); /* no blocks kept for root */
	/* A megabyte of data takes 256 blocks (and one inode); removing it gives them back. */
	static char mb[1 << 20];
	memset(mb, 'x', sizeof(mb));
	int fd = create_file("statfs_data", mb, sizeof(mb), 0644);
	CHECK_OK(fstatfs(fd, &b));
	CHECK(b.f_type == TMPFS_MAGIC && b.f_blocks == a.f_blocks);
	CHECK(b.f_bfree + 200 <= a.f_bfree);
	CHECK(b.f_fsid.__val[0] == a.f_fsid.__val[0] && b.f_fsid.__val[1] == a.f_fsid.__val[1]);
	close(fd);
	CHECK_OK(unlink("statfs_data"));
	CHECK_OK(statfs(".", &b));
	CHECK(b.f_bfree + 64 > a.f_bfree);
}

TEST(statfs_proc_pipe_dev)
{
	struct statfs st;
	int p[2];

	CHECK_OK(statfs("/proc", &st));
	CHECK(st.f_type == PROC_SUPER_MAGIC && st.f_bsize == 4096 && st.f_namelen == 255);
	CHECK(st.f_blocks == 0 && st.f_files == 0 && (st.f_flags & STATFS_VALID));
	CHECK_OK(statfs("/proc/self/stat", &st));
	CHECK_EQ(st.f_type, PROC_SUPER_MAGIC);
	CHECK_OK(pipe(p));
	CHECK_OK(fstatfs(p[0], &st));
	CHECK(st.f_type == PIPEFS_MAGIC && st.f_bsize == 4096 && st.f_blocks == 0);
	/* /dev is a devtmpfs on Linux, part of the RAM file system on rewind: tmpfs either way. */
	CHECK_OK(statfs("/dev/null", &st));
	CHECK(st.f_type == TMPFS_MAGIC || !on_rewind());
	/* An O_PATH descriptor is enough. */
	int fd = open("/proc", O_PATH);
	CHECK_OK(fd);
	CHECK_OK(fstatfs(fd, &st));
	CHECK_EQ(st.f_type, PROC_SUPER_MAGIC);
}

TEST(statfs_errors)
{
	struct statfs st;

	make_file("statfs_f", "x", 1);
	CHECK_ERR(ENOENT, statfs("no-such-file", &st));
	CHECK_ERR(ENOTDIR, statfs("statfs_f/x", &st));
	CHECK_ERR(ENOENT, statfs("", &st));
	CHECK_ERR(EFAULT, syscall(SYS_statfs, bad_addrs[0], &st));
	CHECK_ERR(EFAULT, syscall(SYS_statfs, ".", bad_addrs[0]));
	CHECK_ERR(EBADF, fstatfs(-1, &st));
	CHECK_ERR(EBADF, fstatfs(999, &st));
	CHECK_ERR(EFAULT, syscall(SYS_fstatfs, 0, bad_addrs[1]));
}

static mode_t
mode_of(const char *path)
{
	struct stat st;

	CHECK_OK(stat(path, &st));
	return st.st_mode;
}

TEST(chmod_family)
{
	struct stat st;

	make_file("chmod_f", "x", 1);
	CHECK_OK(chmod("chmod_f", 0600));
	CHECK_EQ(mode_of("chmod_f"), (S_IFREG | 0600));
	/* Only the 07777 bits change; the type stays. */
	CHECK_OK(chmod("chmod_f", S_IFDIR | 04751));
	CHECK_EQ(mode_of("chmod_f"), (S_IFREG | 04751));
	int fd = open("chmod_f", O_RDONLY);
	CHECK_OK(fd);
	CHECK_OK(fchmod(fd, 0640));
	CHECK_OK(fstat(fd, &st));
	CHECK_EQ(st.st_mode, (S_IFREG | 0640));
	CHECK_OK(fchmodat(AT_FDCWD, "chmod_f", 0444, 0));
	CHECK_EQ(mode_of("chmod_f"), (S_IFREG | 0444));
	CHECK_OK(mkdir("chmod_d", 0755));
	CHECK_OK(chmod("chmod_d", 01777));
	CHECK_EQ(mode_of("chmod_d"), (S_IFDIR | 01777));
	/* A pipe has a mode too. */
	int p[2];
	CHECK_OK(pipe(p));
	CHECK_OK(fchmod(p[0], 0640));
	CHECK_OK(fstat(p[1], &st));
	CHECK_EQ((st.st_mode & 07777), 0640);
	CHECK_ERR(ENOENT, chmod("no-such-file", 0644));
	CHECK_ERR(ENOTDIR, chmod("chmod_f/x", 0644));
	CHECK_ERR(EFAULT, syscall(SYS_chmod, bad_addrs[0], 0644));
	CHECK_ERR(EBADF, fchmod(-1, 0644));
	int pfd = open("chmod_f", O_PATH);
	CHECK_OK(pfd);
	CHECK_ERR(EBADF, syscall(SYS_fchmod, pfd,
				 0644)); /* O_PATH: only a name (libc may retry by name) */
	close(fd);
	close(pfd);
}

TEST(chown_family)
{
	struct stat st;

	make_file("chown_f", "x", 1);
	CHECK_OK(chown("chown_f", 1000, 100));
	CHECK_OK(stat("chown_f", &st));
	CHECK(st.st_uid == 1000 && st.st_gid == 100);
	/* -1 leaves it as it is. */
	CHECK_OK(chown("chown_f", -1, 200));
	CHECK_OK(stat("chown_f", &st));
	CHECK(st.st_uid == 1000 && st.st_gid == 200);
	CHECK_OK(lchown("chown_f", 7, -1));
	CHECK_OK(fchownat(AT_FDCWD, "chown_f", -1, 8, AT_SYMLINK_NOFOLLOW));
	int fd = open("chown_f", O_RDWR);
	CHECK_OK(fd);
	CHECK_OK(fstat(fd, &st));
	CHECK(st.st_uid == 7 && st.st_gid == 8);
	/* chown clears set-user-ID, and set-group-ID with group execute; directories keep them. */
	CHECK_OK(fchmod(fd, 06755));
	CHECK_OK(fchown(fd, 0, 0));
	CHECK_OK(fstat(fd, &st));
	CHECK(st.st_uid == 0 && st.st_gid == 0 && (st.st_mode & 07777) == 0755);
	CHECK_OK(fchmod(fd, 06745));
	CHECK_OK(fchown(fd, -1, -1));
	CHECK_OK(fstat(fd, &st));
	CHECK_EQ((st.st_mode & 07777),
		 02745); /* no group execute: a mandatory-locking mark, kept */
	CHECK_OK(mkdir("chown_d", 02755));
	CHECK_OK(chmod("chown_d", 02755));
	CHECK_OK(chown("chown_d", 5, 5));
	CHECK_EQ(mode_of("chown_d"), (S_IFDIR | 02755));
	/* AT_EMPTY_PATH changes dirfd's own file. */
	CHECK_OK(fchownat(fd, "", 3, 4, AT_EMPTY_PATH));
	CHECK_OK(fstat(fd, &st));
	CHECK(st.st_uid == 3 && st.st_gid == 4);
	CHECK_ERR(EINVAL, fchownat(AT_FDCWD, "chown_f", 0, 0, 0x1));
	CHECK_ERR(ENOENT, chown("no-such-file", 0, 0));
	CHECK_ERR(EBADF, fchown(-1, 0, 0));
	close(fd);
}

TEST(utimensat_family)
{
	struct stat st, before;

	make_file("utime_f", "x", 1);
	struct timespec ts[2] = { { 1000000000, 123456789 }, { 1500000000, 5 } };
	CHECK_OK(utimensat(AT_FDCWD, "utime_f", ts, 0));
	CHECK_OK(stat("utime_f", &st));
	CHECK(st.st_atim.tv_sec == 1000000000 && st.st_atim.tv_nsec == 123456789);
	CHECK(st.st_mtim.tv_sec == 1500000000 && st.st_mtim.tv_nsec == 5);
	/* UTIME_OMIT keeps one, UTIME_NOW takes the time now; ctime moves on any change. */
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	ts[0] = (struct timespec){ 0, UTIME_OMIT };
	ts[1] = (struct timespec){ 0, UTIME_NOW };
	CHECK_OK(utimensat(AT_FDCWD, "utime_f", ts, AT_SYMLINK_NOFOLLOW));
	CHECK_OK(stat("utime_f", &st));
	CHECK(st.st_atim.tv_sec == 1000000000 && st.st_mtim.tv_sec >= now.tv_sec - 1);
	CHECK(st.st_ctim.tv_sec >= now.tv_sec - 1);
	/* Both omitted: nothing at all, not even a lookup. */
	ts[0].tv_nsec = ts[1].tv_nsec = UTIME_OMIT;
	CHECK_OK(utimensat(AT_FDCWD, "no-such-file", ts, 0));
	/* NULL: both now. futimens is utimensat on the fd with a NULL path. */
	int fd = open("utime_f", O_RDWR);
	CHECK_OK(fd);
	ts[0] = (struct timespec){ 42, 0 };
	ts[1] = (struct timespec){ 43, 0 };
	CHECK_OK(futimens(fd, ts));
	CHECK_OK(fstat(fd, &st));
	CHECK(st.st_atim.tv_sec == 42 && st.st_mtim.tv_sec == 43);
	CHECK_OK(utimensat(AT_FDCWD, "utime_f", NULL, 0));
	CHECK_OK(fstat(fd, &st));
	CHECK(st.st_atim.tv_sec >= now.tv_sec - 1 && st.st_mtim.tv_sec >= now.tv_sec - 1);
	/* The microsecond and second interfaces. */
	struct timeval tv[2] = { { 100, 250000 }, { 200, 999999 } };
	CHECK_OK(utimes("utime_f", tv));
	CHECK_OK(stat("utime_f", &st));
	CHECK(st.st_atim.tv_sec == 100 && st.st_atim.tv_nsec == 250000000);
	CHECK(st.st_mtim.tv_sec == 200 && st.st_mtim.tv_nsec == 999999000);
	CHECK_OK(syscall(SYS_futimesat, AT_FDCWD, "utime_f", tv));
	struct utimbuf ub = { 300, 400 };
	CHECK_OK(utime("utime_f", &ub));
	CHECK_OK(stat("utime_f", &before));
	CHECK(before.st_atim.tv_sec == 300 && before.st_mtim.tv_sec == 400 &&
	      before.st_mtim.tv_nsec == 0);
	CHECK_OK(utime("utime_f", NULL));
	/* Bad times, flags and files. */
	ts[0] = (struct timespec){ 0, 1000000000 };
	ts[1] = (struct timespec){ 0, 0 };
	CHECK_ERR(EINVAL, utimensat(AT_FDCWD, "utime_f", ts, 0));
	ts[0].tv_nsec = -1;
	CHECK_ERR(EINVAL, utimensat(AT_FDCWD, "utime_f", ts, 0));
	CHECK_ERR(EINVAL, utimensat(AT_FDCWD, "utime_f", NULL, 0x1));
	CHECK_ERR(EINVAL, syscall(SYS_utimensat, fd, NULL, NULL, AT_SYMLINK_NOFOLLOW));
	tv[0].tv_usec = 1000000;
	CHECK_ERR(EINVAL, utimes("utime_f", tv));
	CHECK_ERR(ENOENT, utimensat(AT_FDCWD, "no-such-file", NULL, 0));
	CHECK_ERR(EBADF, syscall(SYS_utimensat, 999, NULL, NULL, 0));
	CHECK_ERR(EFAULT, syscall(SYS_utimensat, AT_FDCWD, "utime_f", bad_addrs[0], 0));
	close(fd);
}

TEST(mknod_fifo_and_file)
{
	struct stat st;

	umask(022);
	CHECK_OK(mknod("mknod_fifo", S_IFIFO | 0666, 0));
	CHECK_OK(stat("mknod_fifo", &st));
	CHECK(st.st_mode == (S_IFIFO | 0644) && st.st_size == 0); /* the umask applies */
	CHECK_OK(mkfifoat(AT_FDCWD, "mknod_fifo2", 0600));
	CHECK(S_ISFIFO(mode_of("mknod_fifo2")));
	/* A regular file, with type 0 or S_IFREG. */
	CHECK_OK(mknod("mknod_reg", 0640, 0));
	CHECK_EQ(mode_of("mknod_reg"), (S_IFREG | 0640));
	CHECK_OK(mknodat(AT_FDCWD, "mknod_reg2", S_IFREG | 0600, 0));
	CHECK_OK(stat("mknod_reg2", &st));
	CHECK(S_ISREG(st.st_mode) && st.st_size == 0);
	CHECK_ERR(EEXIST, mknod("mknod_fifo", S_IFIFO | 0666, 0));
	CHECK_ERR(EEXIST, mknod(".", S_IFIFO | 0666, 0));
	CHECK_ERR(ENOENT, mknod("no-such-dir/f", S_IFIFO | 0666, 0));
	CHECK_ERR(EPERM, mknod("mknod_dir", S_IFDIR | 0755, 0));
	CHECK_ERR(EINVAL, mknod("mknod_bad", 0170000 | 0644, 0));
	CHECK_ERR(EFAULT, syscall(SYS_mknod, bad_addrs[0], S_IFIFO | 0644, 0));
	CHECK_OK(unlink("mknod_fifo"));
	CHECK_ERR(ENOENT, stat("mknod_fifo", &st));
}

static void
device_node_refused(const char *dir)
{
	char path[64];

	snprintf(path, sizeof(path), "%s/node", dir);
	CHECK_ERR(EPERM, mknod(path, S_IFCHR | 0600, makedev(1, 3))); /* CAP_MKNOD */
	CHECK_OK(mknod(path, S_IFIFO | 0600, 0));
}

/* Device nodes root makes open the driver of their number; a number no driver has is ENXIO. */
TEST(mknod_devices)
{
	char buf[8] = "xxxxxxx";
	struct stat st;

	umask(022);
	CHECK_OK(mknod("null2", S_IFCHR | 0666, makedev(1, 3)));
	CHECK_OK(stat("null2", &st));
	CHECK(S_ISCHR(st.st_mode) && (st.st_mode & 07777) == 0644);
	CHECK_EQ(st.st_rdev, makedev(1, 3));
	int fd = CHECK_OK(open("null2", O_RDWR));
	CHECK_EQ(write(fd, "abc", 3), 3);
	CHECK_EQ(read(fd, buf, sizeof(buf)), 0);
	close(fd);
	CHECK_OK(mknodat(AT_FDCWD, "zero2", S_IFCHR | 0600, makedev(1, 5)));
	fd = CHECK_OK(open("zero2", O_RDONLY));
	CHECK_EQ(read(fd, buf, sizeof(buf)), (ssize_t)sizeof(buf));
	CHECK(all_bytes(buf, sizeof(buf), 0));
	close(fd);
	CHECK_ERR(EEXIST, mknod("null2", S_IFCHR | 0600, makedev(1, 3)));
	/* no driver has these numbers, and no block driver at all */
	CHECK_OK(mknod("nodriver", S_IFCHR | 0600, makedev(4095, 1)));
	CHECK_ERR(ENXIO, open("nodriver", O_RDONLY));
	CHECK_OK(mknod("block", S_IFBLK | 0600, makedev(4095, 2)));
	CHECK_OK(stat("block", &st));
	CHECK(S_ISBLK(st.st_mode) && st.st_rdev == makedev(4095, 2));
	CHECK_ERR(ENXIO, open("block", O_RDONLY));
	CHECK_OK(mkdir("open", 0777));
	CHECK_OK(chmod("open", 0777));
	as_nobody(device_node_refused, "open");
}

static const struct timespec explicit_times[2] = { { 1000, 0 }, { 2000, 0 } };

/* A file of root's, mode 0644: nobody changes nothing about it. */
static void
others_file(const char *path)
{
	CHECK_ERR(EPERM, chmod(path, 0777));
	CHECK_ERR(EPERM, chown(path, NOBODY_ID, -1));
	CHECK_ERR(EPERM, chown(path, -1, NOBODY_ID));
	CHECK_ERR(EPERM, utimensat(AT_FDCWD, path, explicit_times, 0));
	CHECK_ERR(EACCES, utimensat(AT_FDCWD, path, NULL, 0)); /* "now" needs write permission */
	CHECK_EQ(mode_of(path), (S_IFREG | 0644));
}

/* A file root gave to nobody (group root): its owner changes mode and times, not its owner. */
static void
own_file(const char *path)
{
	struct stat st;

	CHECK_OK(chmod(path, 02750)); /* not in the file's group: set-group-ID is dropped */
	CHECK_EQ(mode_of(path), (S_IFREG | 0750));
	CHECK_OK(utimensat(AT_FDCWD, path, explicit_times, 0));
	CHECK_OK(stat(path, &st));
	CHECK_EQ(st.st_mtim.tv_sec, 2000);
	CHECK_OK(chown(path, NOBODY_ID, -1)); /* to itself: no change */
	CHECK_ERR(EPERM, chown(path, 0, -1));
	CHECK_OK(chown(path, -1, NOBODY_ID)); /* its own group */
	CHECK_OK(chmod(path, 02750));	      /* now kept */
	CHECK_EQ(mode_of(path), (S_IFREG | 02750));
	CHECK_ERR(EPERM, chown(path, -1, 0));
}

/* Root's file that anyone may write: "now" is allowed, explicit times are not. */
static void
writable_file(const char *path)
{
	CHECK_OK(utimensat(AT_FDCWD, path, NULL, 0));
	CHECK_ERR(EPERM, utimensat(AT_FDCWD, path, explicit_times, 0));
	CHECK_ERR(EPERM, chmod(path, 0600));
}

/*
 * Changing a file's metadata takes ownership or root (Linux's
 * setattr_prepare): trinity, running as nobody, once set /dev/null's mode
 * to 0. A new file belongs to its creator.
 */
TEST(attr_changes_need_ownership)
{
	char path[64];
	struct stat st;

	if (geteuid() != 0)
		skip("needs root");
	snprintf(path, sizeof(path), "/tmp/attr_owner_%d", getpid());
	make_file(path, "x", 1);
	CHECK_OK(chmod(path, 0644));
	CHECK_OK(stat(path, &st));
	CHECK(st.st_uid == geteuid() && st.st_gid == getegid());
	as_nobody(others_file, path);
	CHECK_OK(chown(path, NOBODY_ID, 0));
	as_nobody(own_file, path);
	CHECK_OK(chown(path, 0, 0));
	CHECK_OK(chmod(path, 0666));
	as_nobody(writable_file, path);
	CHECK_OK(unlink(path));
}

static char locked_dir[64], sticky_dir[64]; /* root's, 0755; root's, 01777 */

/* Nobody adds or removes no name in root's 0755 directory; in a sticky one only its own. */
static void
directory_checks(const char *unused)
{
	(void)unused;
	CHECK_ERR(EACCES, open(path_under(locked_dir, "new"), O_CREAT | O_WRONLY, 0644));
	CHECK_ERR(EACCES, mkdir(path_under(locked_dir, "newdir"), 0755));
	CHECK_ERR(EACCES, mknod(path_under(locked_dir, "fifo"), S_IFIFO | 0644, 0));
	CHECK_ERR(EACCES, symlink("x", path_under(locked_dir, "link")));
	CHECK_ERR(EACCES, unlink(path_under(locked_dir, "file")));
	CHECK_ERR(EACCES, rmdir(path_under(locked_dir, "sub")));
	CHECK_ERR(EACCES, rename(path_under(locked_dir, "file"), path_under(locked_dir, "moved")));
	CHECK_ERR(EACCES, rename(path_under(locked_dir, "file"), path_under(sticky_dir, "moved")));
	/* The sticky directory: root's file stays, nobody's own comes and goes. */
	CHECK_ERR(EPERM, unlink(path_under(sticky_dir, "roots")));
	CHECK_ERR(EPERM, rename(path_under(sticky_dir, "roots"), path_under(sticky_dir, "mine")));
	int fd = CHECK_OK(open(path_under(sticky_dir, "mine"), O_CREAT | O_WRONLY, 0644));
	close(fd);
	/* A hard link of its own file (Linux's protected_hardlinks allows it) into root's directory. */
	CHECK_ERR(EACCES, link(path_under(sticky_dir, "mine"), path_under(locked_dir, "hard")));
	CHECK_OK(rename(path_under(sticky_dir, "mine"), path_under(sticky_dir, "mine2")));
	CHECK_OK(unlink(path_under(sticky_dir, "mine2")));
}

/*
 * Adding and removing names takes write and search permission on the
 * directory, and a sticky directory keeps others' names (Linux's
 * may_create, may_delete): trinity, running as nobody, once replaced
 * /dev/console with a directory.
 */
TEST(directory_changes_need_permission)
{
	if (geteuid() != 0)
		skip("needs root");
	snprintf(locked_dir, sizeof(locked_dir), "/tmp/locked_%d", getpid());
	snprintf(sticky_dir, sizeof(sticky_dir), "/tmp/sticky_%d", getpid());
	CHECK_OK(mkdir(locked_dir, 0755));
	CHECK_OK(mkdir(sticky_dir, 0755));
	CHECK_OK(chmod(sticky_dir, 01777));
	CHECK_OK(mkdir(path_under(locked_dir, "sub"), 0755));
	make_file(path_under(locked_dir, "file"), "x", 1);
	make_file(path_under(sticky_dir, "roots"), "x", 1);
	as_nobody(directory_checks, NULL);
	CHECK_OK(unlink(path_under(sticky_dir, "roots")));
	CHECK_OK(rmdir(sticky_dir));
	CHECK_OK(unlink(path_under(locked_dir, "file")));
	CHECK_OK(rmdir(path_under(locked_dir, "sub")));
	CHECK_OK(rmdir(locked_dir));
}
