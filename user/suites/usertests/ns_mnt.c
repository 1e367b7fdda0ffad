/*
 * ns_mnt.c - mount namespaces: unshare(CLONE_NEWNS) gives the caller a
 * copy of its mounts, after which a mount or umount on either side is not
 * seen on the other; the namespace ends with its last process, taking its
 * mounts with it; setns joins one through /proc/<pid>/ns/mnt, and
 * /proc/<pid>/mounts lists the process's own. Each new namespace first
 * makes its copies private (mount --make-rprivate /), as a host whose root
 * systemd made shared needs. Needs root; every mount is in a scratch
 * directory under /tmp and comes down again.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/procfile.h"
#ifndef MOUNT_ATTR_SIZE_VER0 /* glibc 2.36's <sys/mount.h> has struct mount_attr; musl does not */
#include "uapi/mount_attr.h"
#endif

/* The caller gets a mount namespace of its own whose mounts are private. */
static void
own_private_namespace(void)
{
	CHECK_OK(unshare(CLONE_NEWNS));
	CHECK_OK(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL));
}

static void
signal_fd(int fd)
{
	CHECK_EQ(write(fd, "x", 1), 1);
}

static void
await_fd(int fd)
{
	char c;

	CHECK_EQ(read(fd, &c, 1), 1);
}

/* Whether name under dir exists. */
static bool
exists(const char *dir, const char *name)
{
	struct stat st;

	return stat(path_under(dir, name), &st) == 0;
}

/*
 * A child in a namespace of its own with a tmpfs on dir holding "mark",
 * which writes a byte to ready once the mount is there and waits until go
 * has one (or is closed); its pid. The parent keeps ready's read end and
 * go's write end.
 */
static pid_t
child_with_private_mount(const char *dir, int ready[2], int go[2])
{
	pid_t pid = xfork();

	if (pid == 0) {
		char c;
		close(ready[0]);
		close(go[1]);
		own_private_namespace();
		CHECK_OK(mount("none", dir, "tmpfs", 0, NULL));
		make_file(path_under(dir, "mark"), "m", 1);
		signal_fd(ready[1]);
		(void)!read(go[0], &c, 1);
		_exit(0);
	}
	close(ready[1]);
	close(go[0]);
	return pid;
}

TEST(ns_mnt_child_mount_not_seen_by_parent)
{
	char dir[64];
	int ready[2], go[2];

	root_scratch_dir(dir, sizeof(dir));
	CHECK_OK(pipe(ready));
	CHECK_OK(pipe(go));
	pid_t pid = child_with_private_mount(dir, ready, go);
	await_fd(ready[0]);
	CHECK(!exists(dir, "mark"));
	char line[80];
	snprintf(line, sizeof(line), " %s ", dir);
	static char text[32768];
	CHECK_OK(read_text_file("/proc/self/mounts", text, sizeof(text)));
	CHECK(strstr(text, line) == NULL);
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/mounts", pid);
	CHECK_OK(read_text_file(path, text, sizeof(text)));
	CHECK(strstr(text, line) != NULL);
	signal_fd(go[1]);
	expect_exit(pid, 0, "child");
	/* The namespace died with its process, and its mount with it. */
	CHECK_OK(rmdir(dir));
}

TEST(ns_mnt_parent_mount_and_umount_not_seen_in_child)
{
	char dir[64];
	int ready[2], go[2];

	root_scratch_dir(dir, sizeof(dir));
	CHECK_OK(pipe(ready));
	CHECK_OK(pipe(go));
	CHECK_OK(mount("none", dir, "tmpfs", 0, NULL));
	make_file(path_under(dir, "old"), "o", 1);
	pid_t pid = xfork();
	if (pid == 0) {
		close(ready[0]);
		close(go[1]);
		own_private_namespace();
		signal_fd(ready[1]);
		await_fd(go[0]);
		CHECK(exists(dir, "old")); /* the copy of the parent's mount is still here */
		CHECK(!exists(dir, "new"));
		CHECK_OK(umount(dir));
		CHECK(!exists(dir, "old"));
		_exit(0);
	}
	close(ready[1]);
	close(go[0]);
	await_fd(ready[0]);
	CHECK_OK(mount("none", dir, "tmpfs", 0, NULL)); /* stacked on the first, here only */
	make_file(path_under(dir, "new"), "n", 1);
	signal_fd(go[1]);
	expect_exit(pid, 0, "child");
	CHECK(exists(dir, "new")); /* the child's umount took its copy of the first mount only */
	CHECK_OK(umount(dir));
	CHECK(exists(dir, "old"));
	CHECK_OK(umount(dir));
	CHECK_OK(rmdir(dir));
}

/* The inode number of /proc/<pid>/ns/mnt (pid 0: self). */
static ino_t
mnt_ns_ino(pid_t pid)
{
	char path[64];
	struct stat st;

	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/ns/mnt", pid);
	else
		snprintf(path, sizeof(path), "/proc/self/ns/mnt");
	CHECK_OK(stat(path, &st));
	return st.st_ino;
}

TEST(ns_mnt_setns_joins_a_process_namespace)
{
	char dir[64], path[64], link[64], want[64];
	int ready[2], go[2];

	root_scratch_dir(dir, sizeof(dir));
	CHECK_OK(pipe(ready));
	CHECK_OK(pipe(go));
	pid_t pid = child_with_private_mount(dir, ready, go);
	await_fd(ready[0]);
	CHECK(mnt_ns_ino(pid) != mnt_ns_ino(0));
	snprintf(path, sizeof(path), "/proc/%d/ns/mnt", pid);
	ssize_t n = readlink(path, link, sizeof(link) - 1);
	CHECK(n > 0);
	link[n] = '\0';
	snprintf(want, sizeof(want), "mnt:[%lu]", (unsigned long)mnt_ns_ino(pid));
	CHECK(strcmp(link, want) == 0);
	pid_t joiner = xfork();
	if (joiner == 0) {
		char cwd[64];
		int fd = CHECK_OK(open(path, O_RDONLY));
		CHECK_ERR(EINVAL, setns(fd, CLONE_NEWUTS));
		CHECK_OK(chdir(dir));
		CHECK_OK(setns(fd, CLONE_NEWNS));
		CHECK(getcwd(cwd, sizeof(cwd)) && strcmp(cwd, "/") == 0); /* moved to its root */
		CHECK(exists(dir, "mark"));
		CHECK_EQ(mnt_ns_ino(0), mnt_ns_ino(pid));
		_exit(0);
	}
	expect_exit(joiner, 0, "joiner");
	CHECK(!exists(dir, "mark"));
	signal_fd(go[1]);
	expect_exit(pid, 0, "child");
	CHECK_OK(rmdir(dir));
}

TEST(ns_mnt_clone_newns_gives_the_child_a_copy)
{
	char dir[64];

	root_scratch_dir(dir, sizeof(dir));
	ino_t mine = mnt_ns_ino(0);
	pid_t pid = (pid_t)syscall(SYS_clone, CLONE_NEWNS | SIGCHLD, NULL, NULL, NULL, 0);
	CHECK(pid >= 0);
	if (pid == 0) {
		CHECK(mnt_ns_ino(0) != mine);
		CHECK_OK(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL));
		CHECK_OK(mount("none", dir, "tmpfs", 0, NULL));
		make_file(path_under(dir, "mark"), "m", 1);
		_exit(0);
	}
	expect_exit(pid, 0, "child");
	CHECK(!exists(dir, "mark"));
	CHECK_OK(rmdir(dir));
}

/*
 * A child in a private namespace, chrooted into a tmpfs on dir with a
 * tmpfs on /new holding "marker" and an empty /new/old: what pivot_root
 * needs (Linux's initial root may be a rootfs, which cannot be pivoted).
 */
static void
enter_pivot_scene(const char *dir)
{
	CHECK_OK(unshare(CLONE_NEWNS | CLONE_FS));
	CHECK_OK(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL));
	CHECK_OK(mount("none", dir, "tmpfs", 0, NULL));
	CHECK_OK(chroot(dir));
	CHECK_OK(chdir("/"));
	CHECK_OK(mkdir("/new", 0755));
	CHECK_OK(mount("none", "/new", "tmpfs", 0, NULL));
	CHECK_OK(mkdir("/new/old", 0755));
	make_file("/new/marker", "m", 1);
}

TEST(ns_mnt_pivot_root_swaps_the_root)
{
	char dir[64], cwd[64];
	struct stat st;

	root_scratch_dir(dir, sizeof(dir));
	pid_t pid = xfork();
	if (pid == 0) {
		enter_pivot_scene(dir);
		CHECK_OK(syscall(SYS_pivot_root, "/new", "/new/old"));
		CHECK_OK(stat("/marker", &st)); /* the new root */
		CHECK_OK(stat("marker", &st));	/* the cwd moved with it */
		CHECK(getcwd(cwd, sizeof(cwd)) && strcmp(cwd, "/") == 0);
		CHECK_OK(stat("/old/new", &st)); /* the old root, its mount point left empty */
		CHECK_ERR(ENOENT, stat("/old/new/marker", &st));
		CHECK_OK(umount2("/old", MNT_DETACH));
		CHECK_ERR(ENOENT, stat("/old/new", &st));
		_exit(0);
	}
	expect_exit(pid, 0, "child");
	CHECK_OK(rmdir(dir)); /* the namespace and its mounts went with the child */
}

/* put_old on a mount below new_root; then a copy of the pivoted tree (copy_tree's order). */
TEST(ns_mnt_pivot_root_into_a_submount_then_copy)
{
	char dir[64];
	struct stat st;

	root_scratch_dir(dir, sizeof(dir));
	pid_t pid = xfork();
	if (pid == 0) {
		enter_pivot_scene(dir);
		CHECK_OK(mkdir("/new/sub", 0755));
		CHECK_OK(mount("none", "/new/sub", "tmpfs", 0, NULL));
		CHECK_OK(mkdir("/new/sub/old", 0755));
		CHECK_OK(syscall(SYS_pivot_root, "/new", "/new/sub/old"));
		CHECK_OK(unshare(CLONE_NEWNS));
		CHECK_OK(stat("/marker", &st));
		CHECK_OK(stat("/sub/old/new", &st));
		CHECK_OK(umount2("/sub/old", MNT_DETACH));
		CHECK_OK(umount("/sub"));
		_exit(0);
	}
	expect_exit(pid, 0, "child");
	CHECK_OK(rmdir(dir));
}

TEST(ns_mnt_pivot_root_errors)
{
	char dir[64];

	root_scratch_dir(dir, sizeof(dir));
	pid_t pid = xfork();
	if (pid == 0) {
		enter_pivot_scene(dir);
		CHECK_OK(mkdir("/plain", 0755));
		CHECK_OK(mkdir("/plain/old", 0755));
		/* new_root on the root's own mount. */
		CHECK_ERR(EBUSY, syscall(SYS_pivot_root, "/plain", "/plain/old"));
		/* put_old not under new_root, on a mount of its own. */
		CHECK_OK(mkdir("/other", 0755));
		CHECK_OK(mount("none", "/other", "tmpfs", 0, NULL));
		CHECK_OK(mkdir("/other/old", 0755));
		CHECK_ERR(EINVAL, syscall(SYS_pivot_root, "/new", "/other/old"));
		CHECK_ERR(ENOTDIR, syscall(SYS_pivot_root, "/new", "/new/marker"));
		CHECK_ERR(ENOENT, syscall(SYS_pivot_root, "/new", "/new/none"));
		CHECK_OK(setuid(65534));
		CHECK_ERR(EPERM, syscall(SYS_pivot_root, "/new", "/new/old"));
		_exit(0);
	}
	expect_exit(pid, 0, "child");
	CHECK_OK(rmdir(dir));
}

/* ---- mount_setattr ------------------------------------------------------------------- */

#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442
#endif

static long
setattr(const char *path, unsigned flags, unsigned long long set, unsigned long long clr,
	unsigned long long propagation)
{
	struct mount_attr a = { set, clr, propagation, 0 };

	return syscall(SYS_mount_setattr, AT_FDCWD, path, flags, &a, sizeof(a));
}

/* Whether a file can be made in dir. */
static int
create_errno(const char *dir)
{
	int fd = open(path_under(dir, "f"), O_CREAT | O_WRONLY, 0644);

	if (fd < 0)
		return errno;
	close(fd);
	CHECK_OK(unlink(path_under(dir, "f")));
	return 0;
}

TEST(ns_mnt_mount_setattr_flags)
{
	char dir[64], sub[80], link[96];

	root_scratch_dir(dir, sizeof(dir));
	CHECK_OK(mount("none", dir, "tmpfs", 0, NULL));
	snprintf(sub, sizeof(sub), "%s/sub", dir);
	CHECK_OK(mkdir(sub, 0755));
	CHECK_OK(mount("none", sub, "tmpfs", 0, NULL));
	CHECK_OK(setattr(dir, 0, MOUNT_ATTR_RDONLY, 0, 0));
	CHECK_EQ(create_errno(dir), EROFS);
	CHECK_EQ(create_errno(sub), 0); /* not recursive */
	CHECK_OK(setattr(dir, AT_RECURSIVE, MOUNT_ATTR_RDONLY, 0, 0));
	CHECK_EQ(create_errno(sub), EROFS);
	CHECK_OK(setattr(dir, AT_RECURSIVE, 0, MOUNT_ATTR_RDONLY, 0));
	CHECK_EQ(create_errno(dir), 0);
	CHECK_EQ(create_errno(sub), 0);
	/* Read-only over a file open for writing: EBUSY, and nothing changed. */
	int fd = CHECK_OK(open(path_under(sub, "w"), O_CREAT | O_WRONLY, 0644));
	CHECK_ERR(EBUSY, setattr(dir, AT_RECURSIVE, MOUNT_ATTR_RDONLY, 0, 0));
	CHECK_EQ(create_errno(dir), 0);
	close(fd);
	/* nosymfollow: a link on the mount is not followed, and lstat still sees it. */
	snprintf(link, sizeof(link), "%s/l", sub);
	CHECK_OK(symlink("/", link));
	CHECK_OK(setattr(sub, 0, MOUNT_ATTR_NOSYMFOLLOW, 0, 0));
	struct stat st;
	CHECK_ERR(ELOOP, stat(link, &st));
	CHECK_OK(lstat(link, &st));
	CHECK_OK(setattr(sub, 0, 0, MOUNT_ATTR_NOSYMFOLLOW, 0));
	CHECK_OK(stat(link, &st));
	/* The atime setting, a value: noatime shows in the mount's options. */
	CHECK_OK(setattr(sub, 0, MOUNT_ATTR_NOATIME, MOUNT_ATTR__ATIME, 0));
	static char text[32768];
	char want[128];
	CHECK_OK(read_text_file("/proc/self/mounts", text, sizeof(text)));
	snprintf(want, sizeof(want), " %s tmpfs rw,noatime", sub);
	CHECK(strstr(text, want) != NULL);
	CHECK_OK(umount(sub));
	CHECK_OK(umount(dir));
	CHECK_OK(rmdir(dir));
}

TEST(ns_mnt_mount_setattr_errors)
{
	char dir[64], sub[80];
	struct mount_attr a = { MOUNT_ATTR_RDONLY, 0, 0, 0 };

	root_scratch_dir(dir, sizeof(dir));
	CHECK_OK(mount("none", dir, "tmpfs", 0, NULL));
	snprintf(sub, sizeof(sub), "%s/sub", dir);
	CHECK_OK(mkdir(sub, 0755));
	CHECK_ERR(EINVAL, setattr(sub, 0, MOUNT_ATTR_RDONLY, 0, 0)); /* not a mount's root */
	CHECK_ERR(EINVAL, setattr(dir, 0x1, MOUNT_ATTR_RDONLY, 0, 0));
	CHECK_ERR(EINVAL, setattr(dir, 0, 1ULL << 40, 0, 0));
	CHECK_ERR(EINVAL, setattr(dir, 0, MOUNT_ATTR_NOATIME, 0, 0)); /* no MOUNT_ATTR__ATIME */
	CHECK_ERR(EINVAL, setattr(dir, 0, 0, 0, MS_SHARED | MS_PRIVATE));
	CHECK_ERR(EINVAL, setattr(dir, 0, 0, 0, 1));
	CHECK_ERR(EINVAL, syscall(SYS_mount_setattr, AT_FDCWD, dir, 0, &a, 16));
	CHECK_ERR(E2BIG, syscall(SYS_mount_setattr, AT_FDCWD, dir, 0, &a, 8192));
	CHECK_ERR(ENOENT, setattr(path_under(dir, "none"), 0, MOUNT_ATTR_RDONLY, 0, 0));
	CHECK_OK(setattr(path_under(dir, "none"), 0, 0, 0, 0)); /* nothing asked: no lookup */
	CHECK_OK(setattr(dir, 0, 0, 0, MS_PRIVATE));
	CHECK_EQ(create_errno(dir), 0);
	pid_t pid = xfork();
	if (pid == 0) {
		CHECK_OK(setuid(65534));
		CHECK_ERR(EPERM, setattr(dir, 0, MOUNT_ATTR_RDONLY, 0, 0));
		_exit(0);
	}
	expect_exit(pid, 0, "unprivileged child");
	CHECK_OK(umount(dir));
	CHECK_OK(rmdir(dir));
}
