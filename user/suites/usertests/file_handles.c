/*
 * file_handles.c - usertests: name_to_handle_at and open_by_handle_at on
 * a tmpfs (whose files have handles on Linux as on rewind): the size
 * asked with EOVERFLOW, the mount id, opening a file, a directory and a
 * link by handle, a stale handle, the file systems that give none, and
 * the errnos of bad arguments and of a caller without
 * CAP_DAC_READ_SEARCH. As root, in a scratch tmpfs taken down again.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/procfile.h"

struct handle {
	struct file_handle fh;
	unsigned char room[MAX_HANDLE_SZ];
};

/* An instance of type mounted on a fresh directory under /tmp, made the cwd: its path in dir. */
static void
enter_scratch_mount(char *dir, size_t size, const char *type)
{
	root_scratch_dir(dir, size);
	CHECK_OK(mount("none", dir, type, 0, NULL));
	CHECK_OK(chdir(dir));
}

static void
leave_scratch(const char *dir)
{
	CHECK_OK(chdir("/"));
	CHECK_OK(umount(dir));
	CHECK_OK(rmdir(dir));
}

/* path's handle into h (asking its size first, as programs do), and its mount id. */
static int
handle_of(const char *path, int flags, struct handle *h)
{
	int mnt_id = -1;

	h->fh.handle_bytes = 0;
	CHECK_ERR(EOVERFLOW, name_to_handle_at(AT_FDCWD, path, &h->fh, &mnt_id, flags));
	CHECK(h->fh.handle_bytes > 0 && h->fh.handle_bytes <= MAX_HANDLE_SZ);
	CHECK_EQ(h->fh.handle_type, 255); /* FILEID_INVALID: no handle yet */
	CHECK(mnt_id >= 0);
	CHECK_OK(name_to_handle_at(AT_FDCWD, path, &h->fh, &mnt_id, flags));
	CHECK(h->fh.handle_type != 255);
	return mnt_id;
}

/* The mnt_id an open file's fdinfo shows. */
static unsigned long long
fdinfo_mnt_id(int fd)
{
	char path[64], text[512];
	unsigned long long id = 0;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	CHECK(read_text_file(path, text, sizeof(text)) > 0);
	CHECK_OK(field_ull(text, "mnt_id", &id));
	return id;
}

TEST(file_handle_open)
{
	char dir[32], buf[8];
	struct handle hf, hd, hl;
	struct stat a, b;

	enter_scratch_mount(dir, sizeof(dir), "tmpfs");
	int fd = CHECK_OK(open("f", O_CREAT | O_RDWR, 0600));
	CHECK_EQ(write(fd, "data", 4), 4);
	CHECK_OK(mkdir("d", 0700));
	CHECK_OK(symlink("f", "l"));
	int mnt_id = handle_of("f", 0, &hf);
	CHECK_EQ((unsigned long long)mnt_id, fdinfo_mnt_id(fd));
	handle_of("d", 0, &hd);
	handle_of("l", 0, &hl);
	int mfd = CHECK_OK(open(".", O_RDONLY | O_DIRECTORY));

	int hfd = CHECK_OK(open_by_handle_at(mfd, &hf.fh, O_RDWR));
	CHECK(fstat(hfd, &a) == 0 && fstat(fd, &b) == 0 && a.st_ino == b.st_ino);
	CHECK(pread(hfd, buf, sizeof(buf), 0) == 4 && memcmp(buf, "data", 4) == 0);
	close(hfd);
	hfd = CHECK_OK(open_by_handle_at(AT_FDCWD, &hf.fh, O_RDONLY)); /* any file on the mount */
	close(hfd);
	CHECK_ERR(EEXIST, open_by_handle_at(mfd, &hf.fh, O_RDWR | O_CREAT | O_EXCL));

	int dfd = CHECK_OK(open_by_handle_at(fd, &hd.fh, O_RDONLY | O_DIRECTORY));
	int inner =
		CHECK_OK(openat(dfd, "inner", O_CREAT | O_RDWR, 0600)); /* the directory itself */
	close(inner);
	CHECK_OK(stat("d/inner", &a));
	CHECK_ERR(EISDIR, open_by_handle_at(mfd, &hd.fh, O_RDWR));
	close(dfd);

	CHECK_ERR(ELOOP, open_by_handle_at(mfd, &hl.fh, O_RDONLY));
	int lfd = CHECK_OK(open_by_handle_at(mfd, &hl.fh, O_PATH));
	CHECK(fstat(lfd, &a) == 0 && S_ISLNK(a.st_mode));
	close(lfd);
	handle_of("l", AT_SYMLINK_FOLLOW, &hl);
	CHECK_EQ(hl.fh.handle_bytes, hf.fh.handle_bytes);
	CHECK(memcmp(hl.fh.f_handle, hf.fh.f_handle, hf.fh.handle_bytes) == 0);

	/* The root's handle, through AT_EMPTY_PATH on the mount's fd. */
	int id = -1;
	CHECK_OK(name_to_handle_at(mfd, "", &hd.fh, &id, AT_EMPTY_PATH));
	dfd = CHECK_OK(open_by_handle_at(fd, &hd.fh, O_RDONLY));
	CHECK(fstat(dfd, &a) == 0 && stat(".", &b) == 0 && a.st_ino == b.st_ino);
	close(dfd);

	/* Gone: the file's handle is stale. */
	close(fd);
	CHECK_OK(unlink("f"));
	CHECK_OK(unlink("l"));
	CHECK_ERR(ESTALE, open_by_handle_at(mfd, &hf.fh, O_RDONLY));
	close(mfd);
	CHECK_OK(unlink("d/inner"));
	CHECK_OK(rmdir("d"));
	leave_scratch(dir);
}

TEST(file_handle_errors)
{
	char dir[32];
	struct handle h, copy;
	int id;

	enter_scratch_mount(dir, sizeof(dir), "tmpfs");
	close(CHECK_OK(open("f", O_CREAT | O_RDWR, 0600)));
	handle_of("f", 0, &h);
	CHECK_ERR(EINVAL, name_to_handle_at(AT_FDCWD, "f", &h.fh, &id, AT_SYMLINK_NOFOLLOW));
	copy = h;
	copy.fh.handle_bytes = MAX_HANDLE_SZ + 1;
	CHECK_ERR(EINVAL, name_to_handle_at(AT_FDCWD, "f", &copy.fh, &id, 0));
	CHECK_ERR(EINVAL, open_by_handle_at(AT_FDCWD, &copy.fh, O_RDONLY));
	copy.fh.handle_bytes = 0;
	CHECK_ERR(EINVAL, open_by_handle_at(AT_FDCWD, &copy.fh, O_RDONLY));
	CHECK_ERR(EFAULT, name_to_handle_at(AT_FDCWD, "f", &h.fh, (int *)8, 0));
	CHECK_ERR(EFAULT, name_to_handle_at(AT_FDCWD, "f", (struct file_handle *)8, &id, 0));
	CHECK_ERR(EFAULT, open_by_handle_at(AT_FDCWD, (struct file_handle *)8, O_RDONLY));
	CHECK_ERR(ENOENT, name_to_handle_at(AT_FDCWD, "", &h.fh, &id, 0));
	CHECK_ERR(EBADF, open_by_handle_at(-1, &h.fh, O_RDONLY));

	/* /proc gives no handles, and cannot decode this one. */
	CHECK_ERR(EOPNOTSUPP, name_to_handle_at(AT_FDCWD, "/proc/self/status", &h.fh, &id, 0));
	int proc = CHECK_OK(open("/proc/self/status", O_RDONLY));
	CHECK_ERR(ESTALE, open_by_handle_at(proc, &h.fh, O_RDONLY));
	close(proc);

	/* Without CAP_DAC_READ_SEARCH: EPERM. */
	pid_t pid = xfork();
	if (pid == 0) {
		if (setresuid(65534, 65534, 65534) != 0)
			_exit(2);
		_exit(open_by_handle_at(AT_FDCWD, &h.fh, O_RDONLY) < 0 && errno == EPERM ? 0 : 1);
	}
	expect_exit(pid, 0, "open_by_handle_at without the capability");
	CHECK_OK(unlink("f"));
	leave_scratch(dir);
}

/* Linux's ramfs has no export operations, and rewind's ramfs says the same. */
TEST(file_handle_ramfs)
{
	char dir[32];
	struct handle h = { .fh.handle_bytes = MAX_HANDLE_SZ };
	int id;

	enter_scratch_mount(dir, sizeof(dir), "ramfs");
	close(CHECK_OK(open("f", O_CREAT | O_RDWR, 0600)));
	CHECK_ERR(EOPNOTSUPP, name_to_handle_at(AT_FDCWD, "f", &h.fh, &id, 0));
	CHECK_OK(unlink("f"));
	leave_scratch(dir);
}
