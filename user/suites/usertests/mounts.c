/*
 * mounts.c - usertests: mount(2) and umount2(2) with tmpfs, ramfs and
 * proc instances, as root. Each test mounts in a scratch directory of its
 * own under /tmp and takes everything down again, so it also runs on the
 * host's Linux (as root; as another user it is skipped).
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h> /* ST_RDONLY ... (glibc has them only here) */
#include <sys/wait.h>
#include <unistd.h>

#include "lib/procfile.h"
#include "uapi/magic.h" /* statfs's f_type values */

static void
mount_tmpfs(const char *dir, unsigned long flags, const char *opts)
{
	CHECK_OK(mount("none", dir, "tmpfs", flags, opts));
}

/*
 * The line /proc/self/mounts has for the mount point dir, into line ("" if
 * none), without tmpfs's ",inode64": Debian's Linux (and rewind) show it,
 * a kernel built without CONFIG_TMPFS_INODE64 does not.
 */
static void
mounts_line(const char *dir, char *line, size_t size)
{
	static char text[32768];
	char pat[PATH_MAX + 2];

	CHECK_OK(read_text_file("/proc/self/mounts", text, sizeof(text)));
	snprintf(pat, sizeof(pat), " %s ", dir);
	line[0] = '\0';
	for (char *l = text; *l; l = strchr(l, '\n') + 1) {
		char *end = strchr(l, '\n');
		char *hit = strstr(l, pat);
		if (hit && hit < end && (size_t)(end - l) < size) {
			memcpy(line, l, (size_t)(end - l)); /* the last one: the top of a stack */
			line[end - l] = '\0';
		}
	}
	char *inode64 = strstr(line, ",inode64 ");
	if (inode64)
		memmove(inode64, inode64 + 8, strlen(inode64 + 8) + 1);
}

static dev_t
dev_of(const char *path)
{
	struct stat st;

	CHECK_OK(stat(path, &st));
	return st.st_dev;
}

/*
 * A tmpfs at a directory: a device of its own, its root's mode and size
 * from the options, ".." back out to the parent, /proc/mounts in Linux's
 * words, and after umount the directory as it was with the files gone.
 */
TEST(mount_tmpfs_instance)
{
	char dir[64], path[PATH_MAX], line[PATH_MAX + 256], want[PATH_MAX + 256], cwd[PATH_MAX];
	struct stat st, up, parent;
	struct statfs sf;

	root_scratch_dir(dir, sizeof(dir));
	dev_t before = dev_of(dir);
	mount_tmpfs(dir, 0, "size=1m,mode=0750");
	CHECK_OK(stat(dir, &st));
	CHECK(st.st_dev != before && S_ISDIR(st.st_mode) && (st.st_mode & 07777) == 0750);
	snprintf(path, sizeof(path), "%s/..", dir);
	CHECK_OK(stat(path, &up));
	CHECK_OK(stat("/tmp", &parent));
	CHECK(up.st_dev == parent.st_dev && up.st_ino == parent.st_ino);
	CHECK_OK(statfs(dir, &sf));
	CHECK(sf.f_type == TMPFS_MAGIC && sf.f_bsize == 4096 && sf.f_blocks == 256);
	CHECK(sf.f_bfree == 256 && sf.f_files > 0);
	snprintf(path, sizeof(path), "%s/file", dir);
	static char data[64 << 10];
	memset(data, 'm', sizeof(data));
	close(create_file(path, data, sizeof(data), 0644));
	CHECK_OK(stat(path, &st));
	CHECK_EQ(st.st_dev, dev_of(dir));
	CHECK_OK(statfs(path, &sf));
	CHECK_EQ(sf.f_bfree, 256 - 16);
	/* A write past size= is ENOSPC; the file keeps what fitted. */
	static char big[1 << 20];
	int fd = CHECK_OK(open(path, O_WRONLY | O_APPEND));
	ssize_t n = write(fd, big, sizeof(big));
	CHECK_EQ(n, (1 << 20) - (64 << 10));
	CHECK_ERR(ENOSPC, write(fd, big, 4096));
	close(fd);
	mounts_line(dir, line, sizeof(line));
	snprintf(want, sizeof(want), "none %s tmpfs rw,relatime,size=1024k,mode=750 0 0", dir);
	if (strcmp(line, want))
		fail("/proc/self/mounts says '%s', not '%s'", line, want);
	/* getcwd through the mount, and ".." from its root to the parent. */
	CHECK_OK(chdir(dir));
	CHECK(getcwd(cwd, sizeof(cwd)) && strcmp(cwd, dir) == 0);
	CHECK_OK(chdir(".."));
	CHECK(getcwd(cwd, sizeof(cwd)) && strcmp(cwd, "/tmp") == 0);
	CHECK_OK(umount(dir));
	CHECK_EQ(dev_of(dir), before);
	CHECK_ERR(ENOENT, stat(path, &st));
	mounts_line(dir, line, sizeof(line));
	CHECK_EQ(line[0], '\0');
	CHECK_OK(rmdir(dir));
}

/* EBUSY while a file is open, a cwd is inside, or a mount hangs below; then it goes. */
TEST(umount_busy)
{
	char dir[64], path[PATH_MAX], sub[PATH_MAX];

	root_scratch_dir(dir, sizeof(dir));
	mount_tmpfs(dir, 0, NULL);
	snprintf(path, sizeof(path), "%s/open", dir);
	int fd = create_file(path, "x", 1, 0644);
	CHECK_ERR(EBUSY, umount(dir));
	close(fd);
	/* A child whose cwd is inside: it says when it is in, and leaves when told. */
	int in[2], go[2];
	char c;
	CHECK_OK(pipe(in));
	CHECK_OK(pipe(go));
	pid_t pid = xfork();
	if (pid == 0) {
		close(go[1]);
		if (chdir(dir) || write(in[1], "i", 1) != 1)
			_exit(1);
		_exit(read(go[0], &c, 1) == 0 ? 0 : 1);
	}
	close(in[1]);
	close(go[0]);
	CHECK_EQ(read(in[0], &c, 1), 1);
	CHECK_ERR(EBUSY, umount(dir));
	close(go[1]);
	close(in[0]);
	expect_exit(pid, 0, "child in the mount");
	/* A mount below. */
	snprintf(sub, sizeof(sub), "%s/sub", dir);
	CHECK_OK(mkdir(sub, 0755));
	mount_tmpfs(sub, 0, NULL);
	CHECK_ERR(EBUSY, umount(dir));
	CHECK_ERR(EBUSY, rmdir(sub));
	CHECK_OK(umount(sub));
	CHECK_OK(umount(dir));
	CHECK_OK(rmdir(dir));
}

/* Mounting where a mount is stacks; umount takes the top one off, and hidden files come back. */
TEST(mount_stacks)
{
	char dir[64], a[PATH_MAX], b[PATH_MAX];
	struct stat st;

	root_scratch_dir(dir, sizeof(dir));
	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(b, sizeof(b), "%s/b", dir);
	close(create_file(a, "a", 1, 0644)); /* on the covered directory itself */
	mount_tmpfs(dir, 0, NULL);
	CHECK_ERR(ENOENT, stat(a, &st));
	close(create_file(b, "b", 1, 0644));
	dev_t first = dev_of(dir);
	mount_tmpfs(dir, 0, NULL);
	CHECK(dev_of(dir) != first);
	CHECK_ERR(ENOENT, stat(b, &st));
	CHECK_OK(umount(dir));
	CHECK_EQ(dev_of(dir), first);
	CHECK_OK(stat(b, &st));
	CHECK_OK(umount(dir));
	CHECK_OK(stat(a, &st));
	CHECK_OK(unlink(a));
	CHECK_OK(rmdir(dir));
}

/* MNT_DETACH: the name goes at once, an open file keeps working until closed. */
TEST(umount_lazy)
{
	char dir[64], path[PATH_MAX];
	char buf[8];

	root_scratch_dir(dir, sizeof(dir));
	dev_t before = dev_of(dir);
	mount_tmpfs(dir, 0, NULL);
	snprintf(path, sizeof(path), "%s/kept", dir);
	int fd = create_file(path, "kept", 4, 0644);
	CHECK_OK(umount2(dir, MNT_DETACH));
	CHECK_EQ(dev_of(dir), before);
	CHECK_EQ(pwrite(fd, "KEPT", 4, 0), 4);
	CHECK(pread(fd, buf, 4, 0) == 4 && memcmp(buf, "KEPT", 4) == 0);
	close(fd);
	CHECK_OK(rmdir(dir));
}

/* MS_RDONLY, and MS_REMOUNT changing flags and size (not read-only while a writer is open). */
TEST(mount_rdonly_remount)
{
	char dir[64], path[PATH_MAX], other[PATH_MAX], line[PATH_MAX + 256];
	struct statfs sf;

	root_scratch_dir(dir, sizeof(dir));
	mount_tmpfs(dir, 0, "size=1m");
	snprintf(path, sizeof(path), "%s/f", dir);
	snprintf(other, sizeof(other), "%s/g", dir);
	int fd = create_file(path, "rw", 2, 0644);
	CHECK_ERR(EBUSY, mount("none", dir, "tmpfs", MS_REMOUNT | MS_RDONLY, NULL));
	close(fd);
	CHECK_OK(mount("none", dir, "tmpfs", MS_REMOUNT | MS_RDONLY, NULL));
	CHECK_ERR(EROFS, open(path, O_WRONLY));
	CHECK_ERR(EROFS, open(other, O_WRONLY | O_CREAT, 0644));
	CHECK_ERR(EROFS, mkdir(other, 0755));
	CHECK_ERR(EROFS, unlink(path));
	CHECK_ERR(EROFS, rename(path, other));
	CHECK_ERR(EROFS, chmod(path, 0600));
	CHECK_ERR(EROFS, truncate(path, 0));
	CHECK_ERR(EROFS, symlink("f", other));
	CHECK_ERR(EEXIST, mkdir(path, 0755)); /* what exists is said first, as Linux */
	fd = CHECK_OK(open(path, O_RDONLY));
	close(fd);
	CHECK_OK(statfs(dir, &sf));
	CHECK((sf.f_flags & ST_RDONLY) && sf.f_blocks == 256);
	mounts_line(dir, line, sizeof(line));
	CHECK(strstr(line, " tmpfs ro,relatime,size=1024k 0 0") != NULL);
	CHECK_ERR(EINVAL, mount("none", dir, "tmpfs", MS_REMOUNT, "size=zz"));
	CHECK_OK(mount("none", dir, "tmpfs", MS_REMOUNT | MS_NOSUID | MS_NODEV, "size=2m"));
	CHECK_OK(statfs(dir, &sf));
	CHECK(!(sf.f_flags & ST_RDONLY) && (sf.f_flags & ST_NOSUID) && (sf.f_flags & ST_NODEV));
	CHECK_EQ(sf.f_blocks, 512);
	mounts_line(dir, line, sizeof(line));
	CHECK(strstr(line, " tmpfs rw,nosuid,nodev,relatime,size=2048k 0 0") != NULL);
	close(create_file(other, "g", 1, 0644));
	CHECK_OK(umount(dir));
	CHECK_OK(rmdir(dir));
}

/* MS_NOEXEC: execve is EACCES, a PROT_EXEC mapping EPERM; a plain read mapping is fine. */
TEST(mount_noexec)
{
	char dir[64], prog[PATH_MAX];
	static char image[8 << 20];

	root_scratch_dir(dir, sizeof(dir));
	mount_tmpfs(dir, MS_NOEXEC, NULL);
	int self = CHECK_OK(open(self_path, O_RDONLY));
	ssize_t n = read(self, image, sizeof(image));
	close(self);
	CHECK(n > 0 && n < (ssize_t)sizeof(image));
	snprintf(prog, sizeof(prog), "%s/prog", dir);
	int fd = create_file(prog, image, (size_t)n, 0755);
	CHECK(mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0) == MAP_FAILED &&
	      errno == EPERM);
	void *p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	CHECK(p != MAP_FAILED);
	munmap(p, 4096);
	close(fd);
	pid_t pid = xfork();
	if (pid == 0) {
		char *argv[] = { prog, "--helper", "exit", "7", NULL }; /* ran: 7 */
		execv(prog, argv);
		_exit(errno == EACCES ? 0 : 1);
	}
	expect_exit(pid, 0, "execve on a noexec mount: EACCES");
	CHECK_OK(unlink(prog));
	CHECK_OK(umount(dir));
	CHECK_OK(rmdir(dir));
}

/* A second proc instance shows the same processes; ramfs has no size. */
TEST(mount_proc_and_ramfs)
{
	char dir[64], path[PATH_MAX], link[64], line[PATH_MAX + 256], want[PATH_MAX + 256];
	struct statfs sf;

	root_scratch_dir(dir, sizeof(dir));
	CHECK_OK(mount("proc", dir, "proc", 0, NULL));
	snprintf(path, sizeof(path), "%s/self", dir);
	ssize_t n = readlink(path, link, sizeof(link) - 1);
	CHECK(n > 0);
	link[n] = '\0';
	CHECK_EQ(atoi(link), getpid());
	CHECK_OK(statfs(dir, &sf));
	CHECK_EQ(sf.f_type, PROC_SUPER_MAGIC);
	CHECK_OK(umount(dir));
	CHECK_OK(mount("ramfs", dir, "ramfs", MS_NOATIME, NULL));
	CHECK_OK(statfs(dir, &sf));
	CHECK(sf.f_type == RAMFS_MAGIC && sf.f_blocks == 0);
	mounts_line(dir, line, sizeof(line));
	snprintf(want, sizeof(want), "ramfs %s ramfs rw,noatime 0 0", dir);
	if (strcmp(line, want))
		fail("/proc/self/mounts says '%s', not '%s'", line, want);
	CHECK_OK(umount(dir));
	CHECK_OK(rmdir(dir));
}

/* Files do not rename or link across instances: EXDEV. */
TEST(mount_exdev)
{
	char dir[64], in[PATH_MAX], out[PATH_MAX];

	root_scratch_dir(dir, sizeof(dir));
	snprintf(out, sizeof(out), "%s.out", dir);
	close(create_file(out, "o", 1, 0644));
	mount_tmpfs(dir, 0, NULL);
	snprintf(in, sizeof(in), "%s/in", dir);
	CHECK_ERR(EXDEV, rename(out, in));
	CHECK_ERR(EXDEV, link(out, in));
	CHECK_OK(umount(dir));
	CHECK_OK(unlink(out));
	CHECK_OK(rmdir(dir));
}

/* The errors: type, target, flags, pointers, options, and who may. */
TEST(mount_errors)
{
	char dir[64], file[PATH_MAX];

	root_scratch_dir(dir, sizeof(dir));
	snprintf(file, sizeof(file), "%s.file", dir);
	close(create_file(file, "f", 1, 0644));
	CHECK_ERR(ENODEV, mount("none", dir, "no-such-fs", 0, NULL));
	CHECK_ERR(ENOTDIR, mount("none", file, "tmpfs", 0, NULL));
	CHECK_ERR(ENOENT, mount("none", "/tmp/no/such/dir", "tmpfs", 0, NULL));
	CHECK_ERR(EINVAL, mount("none", dir, "tmpfs", 0, "no_such_option=1"));
	CHECK_ERR(EINVAL, mount("none", dir, "tmpfs", 0, "size=12q"));
	CHECK_ERR(EINVAL, mount("none", dir, "tmpfs", MS_REMOUNT, NULL)); /* not a mount point */
	for (int i = 0; i < NBAD; i++) {
		CHECK_ERR(EFAULT, mount("none", dir, (const char *)bad_addrs[i], 0, NULL));
		CHECK_ERR(EFAULT, mount("none", (const char *)bad_addrs[i], "tmpfs", 0, NULL));
		CHECK_ERR(EFAULT, umount((const char *)bad_addrs[i]));
	}
	CHECK_ERR(EINVAL, umount(dir));
	CHECK_ERR(EINVAL, umount2(dir, 0x100));
	CHECK_ERR(ENOENT, umount("/tmp/no/such/dir"));
	pid_t pid = xfork();
	if (pid == 0) {
		if (setuid(65534))
			_exit(2);
		bool ok = mount("none", dir, "tmpfs", 0, NULL) < 0 && errno == EPERM &&
			  umount(dir) < 0 && errno == EPERM;
		_exit(ok ? 0 : 1);
	}
	expect_exit(pid, 0, "mount and umount as nobody: EPERM");
	CHECK_OK(unlink(file));
	CHECK_OK(rmdir(dir));
}

/*
 * A lazily unmounted tree is cut loose: ".." out of its root, where a
 * process still is, stays in it (its own root now), as on Linux; it does
 * not lead back into the tree the mount was taken from.
 */
TEST(umount_lazy_dotdot_stays_detached)
{
	char dir[64], path[PATH_MAX];
	struct stat st;

	root_scratch_dir(dir, sizeof(dir));
	mount_tmpfs(dir, 0, NULL);
	dev_t mounted = dev_of(dir);
	snprintf(path, sizeof(path), "%s/marker", dir);
	close(create_file(path, "m", 1, 0644));
	pid_t pid = xfork();
	if (pid == 0) {
		CHECK_OK(chdir(dir));
		CHECK_OK(umount2(dir, MNT_DETACH));
		CHECK_OK(chdir(".."));
		CHECK_OK(chdir("../.."));
		CHECK_OK(stat(".", &st));
		CHECK_EQ(st.st_dev, mounted);
		CHECK_OK(stat("marker", &st));
		_exit(0);
	}
	expect_exit(pid, 0, "the walk out of the detached tree");
	CHECK(dev_of(dir) != mounted);
	CHECK_OK(rmdir(dir));
}

#define MOUNT_MAX "/proc/sys/fs/mount-max"

/*
 * fs.mount-max bounds the mount table, the root's mount included (Linux's
 * count_mounts): at 1 any mount is ENOSPC, and 0 is no value (EINVAL).
 * The child sets it and the parent puts it back whatever happened.
 */
TEST(mount_max_enospc)
{
	char dir[64];

	root_scratch_dir(dir, sizeof(dir));
	int fd = open(MOUNT_MAX, O_WRONLY);
	if (fd < 0)
		skip("cannot set %s here (%s)", MOUNT_MAX, errname(errno));
	CHECK_ERR(EINVAL, write(fd, "0\n", 2));
	close(fd);
	unsigned long max = read_number(MOUNT_MAX);
	pid_t pid = xfork();
	if (pid == 0) {
		write_number(MOUNT_MAX, 1);
		_exit(mount("none", dir, "tmpfs", 0, NULL) < 0 && errno == ENOSPC ? 0 : 1);
	}
	int status = wait_status(pid);
	write_number(MOUNT_MAX, max);
	umount(dir); /* in case the mount was let through */
	expect_exited(status, 0, "a mount past mount-max: ENOSPC");
	mount_tmpfs(dir, 0, NULL);
	CHECK_OK(umount(dir));
	CHECK_OK(rmdir(dir));
}
