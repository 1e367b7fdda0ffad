/*
 * test_vfs_paths.c - host tests of the path walk, directories and the
 * calls that change the tree (fs/namei.c, treeops.c, ramfs.c, readdir.c,
 * fs_context.c), through the system calls themselves (see fs_host.h).
 */
#include "tests/unit/fs_host.h"

UNIT_TEST(the_boot_tree_exists)
{
	fs_setup();
	CHECK_EQ(stat_of("/").st_mode, S_IFDIR | 0755);
	CHECK_EQ(stat_of("/dev").st_mode, S_IFDIR | 0755);
	CHECK_EQ(stat_of("/proc").st_mode, S_IFDIR | 0555);
	CHECK_EQ(stat_of("/sys").st_mode, S_IFDIR | 0555);
	CHECK_EQ(stat_of("/tmp").st_mode, S_IFDIR | 01777);
	CHECK_EQ(stat_of("/dev/null").st_mode, S_IFCHR | 0666);
	CHECK_EQ(stat_of("/dev/null").st_rdev, MKDEV(1, 3));
	CHECK_EQ(stat_of("/dev/zero").st_rdev, MKDEV(1, 5));
	CHECK_EQ(stat_of("/dev/console").st_rdev, MKDEV(5, 1));
	CHECK_EQ(stat_of("/").st_nlink, 6); /* ".", and ".." of dev, proc, sys, tmp */
}

UNIT_TEST(walk_handles_dots_and_slashes)
{
	fs_setup();
	CHECK_EQ(do_sys_mkdir("/a", 0755), 0);
	CHECK_EQ(do_sys_mkdir("/a/b", 0755), 0);
	CHECK_EQ(do_sys_mkdir("a/b/c", 0700), 0);
	make_file("/a/b/f", "x");
	u64 c = stat_of("/a/b/c").st_ino, b = stat_of("/a/b").st_ino;
	CHECK(c != 0 && b != 0 && c != b);
	CHECK_EQ(stat_of("a/b/../b/./c").st_ino, c);
	CHECK_EQ(stat_of("//a///b////c").st_ino, c);
	CHECK_EQ(stat_of("/a/b/c/").st_ino, c);
	CHECK_EQ(stat_of("/a/b/c/..").st_ino, b);
	CHECK_EQ(stat_of("/a/b/c/.").st_ino, c);
	CHECK_EQ(stat_of("/..").st_ino, stat_of("/").st_ino);
	CHECK_EQ(stat_of("/../../a/..").st_ino, stat_of("/").st_ino);
	CHECK_EQ(stat_of(".").st_ino, stat_of("/").st_ino);
	CHECK_EQ(stat_of("/a/b/c").st_mode, S_IFDIR | 0700);
	CHECK_EQ(stat_of("/a/b").st_nlink, 3);
}

UNIT_TEST(walk_errors_are_linuxs)
{
	struct kernel_stat st;
	static char longname[NAME_MAX + 2], longpath[PATH_MAX + 1];

	fs_setup();
	do_sys_mkdir("/d", 0755);
	make_file("/d/file", "data");
	CHECK_EQ(do_sys_stat("/missing", &st), -ENOENT);
	CHECK_EQ(do_sys_stat("/missing/x", &st), -ENOENT);
	CHECK_EQ(do_sys_stat("/d/file/x", &st), -ENOTDIR);
	CHECK_EQ(do_sys_stat("/d/file/", &st), -ENOTDIR);
	CHECK_EQ(do_sys_stat("/d/file/.", &st), -ENOTDIR);
	CHECK_EQ(do_sys_stat("/d/file/..", &st), -ENOTDIR);
	CHECK_EQ(do_sys_stat("", &st), -ENOENT);
	CHECK_EQ(do_sys_stat(BAD_USER_PTR, &st), -EFAULT);
	CHECK_EQ(do_sys_stat("/d/file", BAD_USER_PTR), -EFAULT);

	memset(longname, 'n', NAME_MAX + 1);
	CHECK_EQ(do_sys_stat(longname, &st), -ENAMETOOLONG);
	CHECK_EQ(do_sys_mkdir(longname, 0755), -ENAMETOOLONG);
	longname[NAME_MAX] = '\0'; /* exactly NAME_MAX is fine */
	CHECK_EQ(do_sys_mkdir(longname, 0755), 0);
	CHECK_EQ(do_sys_rmdir(longname), 0);

	/* PATH_MAX counts the NUL: 4095 characters are allowed, 4096 are not. */
	for (size_t i = 0; i < PATH_MAX; i += 2)
		memcpy(longpath + i, "./", 2);
	longpath[PATH_MAX] = '\0';
	CHECK_EQ(do_sys_stat(longpath, &st), -ENAMETOOLONG);
	longpath[PATH_MAX - 1] = '\0';
	CHECK_EQ(do_sys_stat(longpath, &st), 0);
}

UNIT_TEST(dirfd_relative_lookups)
{
	struct kernel_stat st;

	fs_setup();
	do_sys_mkdir("/top", 0755);
	do_sys_mkdir("/top/sub", 0755);
	make_file("/top/sub/f", "hello");
	int dfd = (int)do_sys_open("/top", O_RDONLY | O_DIRECTORY, 0);
	int ffd = (int)do_sys_open("/top/sub/f", O_RDONLY, 0);
	CHECK(dfd >= 0 && ffd >= 0);
	CHECK_EQ(do_sys_newfstatat(dfd, "sub/f", &st, 0), 0);
	CHECK_EQ(st.st_size, 5);
	CHECK_EQ(do_sys_newfstatat(dfd, "..", &st, 0), 0);
	CHECK_EQ(st.st_ino, stat_of("/").st_ino);
	CHECK_EQ(do_sys_newfstatat(ffd, "x", &st, 0), -ENOTDIR);
	CHECK_EQ(do_sys_newfstatat(99, "x", &st, 0), -EBADF);
	CHECK_EQ(do_sys_newfstatat(99, "/top", &st, 0), 0); /* absolute: dirfd unused */
	CHECK_EQ(do_sys_newfstatat(dfd, "sub", &st, 0x8000), -EINVAL);
	/* AT_EMPTY_PATH: the fd itself, whatever it is. */
	CHECK_EQ(do_sys_newfstatat(ffd, "", &st, AT_EMPTY_PATH), 0);
	CHECK_EQ(st.st_size, 5);
	CHECK_EQ(do_sys_newfstatat(ffd, "", &st, 0), -ENOENT);
	CHECK_EQ(do_sys_newfstatat(AT_FDCWD, "", &st, AT_EMPTY_PATH), 0);
	CHECK_EQ(st.st_ino, stat_of("/").st_ino);
	int fd = (int)do_sys_openat(dfd, "sub/new", O_CREAT | O_WRONLY, 0600);
	CHECK(fd >= 0);
	CHECK_EQ(stat_of("/top/sub/new").st_mode, S_IFREG | 0600);
	CHECK_EQ(do_sys_mkdirat(dfd, "made", 0755), 0);
	CHECK_EQ(stat_of("/top/made").st_mode, S_IFDIR | 0755);
	CHECK_EQ(do_sys_unlinkat(dfd, "made", AT_REMOVEDIR), 0);
	CHECK_EQ(do_sys_unlinkat(dfd, "sub/new", 0), 0);
	CHECK_EQ(do_sys_unlinkat(dfd, "sub/f", 0x1), -EINVAL);
	CHECK_EQ(do_sys_renameat(dfd, "sub/f", AT_FDCWD, "/moved"), 0);
	CHECK_EQ(stat_of("/moved").st_size, 5);
}

UNIT_TEST(umask_applies_to_new_files_and_directories)
{
	fs_setup();
	CHECK_EQ(do_sys_umask(077), 022);
	CHECK_EQ(do_sys_umask(027), 077);
	do_sys_mkdir("/m", 0777);
	make_file("/m/f", "");
	CHECK_EQ(stat_of("/m").st_mode, S_IFDIR | 0750);
	CHECK_EQ(stat_of("/m/f").st_mode, S_IFREG | 0640);
	CHECK_EQ(do_sys_umask(0), 027);
	CHECK_EQ(do_sys_mkdir("/s", 07777), 0);
	CHECK_EQ(stat_of("/s").st_mode, S_IFDIR | 01777); /* no set-id bits on directories */
}

UNIT_TEST(mkdir_rmdir_unlink_errors)
{
	fs_setup();
	do_sys_mkdir("/d", 0755);
	do_sys_mkdir("/d/sub", 0755);
	make_file("/d/f", "x");
	CHECK_EQ(do_sys_mkdir("/d", 0755), -EEXIST);
	CHECK_EQ(do_sys_mkdir("/d/f", 0755), -EEXIST);
	CHECK_EQ(do_sys_mkdir("/d/f/x", 0755), -ENOTDIR);
	CHECK_EQ(do_sys_mkdir("/nope/x", 0755), -ENOENT);
	CHECK_EQ(do_sys_mkdir("/", 0755), -EEXIST);
	CHECK_EQ(do_sys_mkdir("/d/.", 0755), -EEXIST);
	CHECK_EQ(do_sys_mkdir("/d/new/", 0755), 0); /* a trailing slash is fine */
	CHECK_EQ(do_sys_mkdir(BAD_USER_PTR, 0755), -EFAULT);

	CHECK_EQ(do_sys_rmdir("/d"), -ENOTEMPTY);
	CHECK_EQ(do_sys_rmdir("/d/f"), -ENOTDIR);
	CHECK_EQ(do_sys_rmdir("/d/f/"), -ENOTDIR);
	CHECK_EQ(do_sys_rmdir("/d/missing"), -ENOENT);
	CHECK_EQ(do_sys_rmdir("/d/sub/."), -EINVAL);
	CHECK_EQ(do_sys_rmdir("/d/sub/.."), -ENOTEMPTY);
	CHECK_EQ(do_sys_rmdir("/"), -EBUSY);
	CHECK_EQ(do_sys_unlink("/d/sub"), -EISDIR);
	CHECK_EQ(do_sys_unlink("/d/sub/"), -EISDIR);
	CHECK_EQ(do_sys_unlink("/d/f/"), -ENOTDIR);
	CHECK_EQ(do_sys_unlink("/d/."), -EISDIR);
	CHECK_EQ(do_sys_unlink("/"), -EISDIR);
	CHECK_EQ(do_sys_unlink("/d/missing"), -ENOENT);

	u64 links = stat_of("/d").st_nlink;
	CHECK_EQ(do_sys_rmdir("/d/sub/"), 0);
	CHECK_EQ(stat_of("/d").st_nlink, links - 1);
	CHECK_EQ(do_sys_unlink("/d/f"), 0);
	CHECK_EQ(do_sys_rmdir("/d/new"), 0);
	CHECK_EQ(do_sys_rmdir("/d"), 0);
	CHECK_EQ(stat_of("/d").st_mode, 0);
}

UNIT_TEST(cwd_chdir_getcwd)
{
	char buf[64];

	fs_setup();
	do_sys_mkdir("/a", 0755);
	do_sys_mkdir("/a/b", 0755);
	make_file("/a/f", "x");
	CHECK_EQ(do_sys_getcwd(buf, sizeof(buf)), 2);
	CHECK_STR(buf, "/");
	CHECK_EQ(do_sys_chdir("a/b"), 0);
	CHECK_EQ(do_sys_getcwd(buf, sizeof(buf)), 5);
	CHECK_STR(buf, "/a/b");
	CHECK_EQ(do_sys_getcwd(buf, 5), 5); /* exactly enough */
	CHECK_EQ(do_sys_getcwd(buf, 4), -ERANGE);
	CHECK_EQ(do_sys_getcwd(buf, 0), -ERANGE);
	CHECK_EQ(do_sys_getcwd(BAD_USER_PTR, 64), -EFAULT);
	CHECK_EQ(stat_of("../f").st_size, 1);
	CHECK_EQ(do_sys_chdir("../f"), -ENOTDIR);
	CHECK_EQ(do_sys_chdir("/missing"), -ENOENT);
	CHECK_EQ(do_sys_chdir(BAD_USER_PTR), -EFAULT);

	int fd = (int)do_sys_open("/a", O_RDONLY | O_DIRECTORY, 0);
	int ffd = (int)do_sys_open("/a/f", O_RDONLY, 0);
	CHECK_EQ(do_sys_fchdir(fd), 0);
	do_sys_getcwd(buf, sizeof(buf));
	CHECK_STR(buf, "/a");
	CHECK_EQ(do_sys_fchdir(ffd), -ENOTDIR);
	CHECK_EQ(do_sys_fchdir(77), -EBADF);

	/* A renamed ancestor shows in getcwd; a removed cwd is ENOENT, and nothing can be made in it. */
	CHECK_EQ(do_sys_chdir("/a/b"), 0);
	CHECK_EQ(do_sys_rename("/a", "/z"), 0);
	do_sys_getcwd(buf, sizeof(buf));
	CHECK_STR(buf, "/z/b");
	CHECK_EQ(do_sys_rmdir("/z/b"), 0);
	CHECK_EQ(do_sys_getcwd(buf, sizeof(buf)), -ENOENT);
	CHECK_EQ(do_sys_open("new", O_CREAT | O_WRONLY, 0644), -ENOENT);
	CHECK_EQ(do_sys_mkdir("sub", 0755), -ENOENT);
	CHECK_EQ(stat_of(".").st_nlink, 0);
	CHECK_EQ(stat_of("..").st_ino, stat_of("/z").st_ino);
}

/* Reads a whole directory with a buffer of bufsize bytes per call; names joined by spaces. */
static long
list_dir(int fd, size_t bufsize, char *out, size_t outsize)
{
	static u8 buf[8192] __aligned(8);
	long total = 0, n;

	out[0] = '\0';
	while ((n = do_sys_getdents64(fd, buf, (unsigned)bufsize)) > 0) {
		for (long off = 0; off < n;) {
			struct kernel_dirent64 *d = (struct kernel_dirent64 *)(buf + off);
			if (out[0])
				strncat(out, " ", outsize - strlen(out) - 1);
			strncat(out, d->d_name, outsize - strlen(out) - 1);
			off += d->d_reclen;
			total++;
		}
	}
	return n < 0 ? n : total;
}

UNIT_TEST(getdents_lists_in_creation_order_and_resumes)
{
	static u8 buf[512] __aligned(8);
	char names[256];

	fs_setup();
	do_sys_mkdir("/d", 0755);
	make_file("/d/one", "1");
	do_sys_mkdir("/d/two", 0755);
	make_file("/d/three", "3");
	int fd = (int)do_sys_open("/d", O_RDONLY | O_DIRECTORY, 0);
	CHECK_EQ(list_dir(fd, sizeof(buf), names, sizeof(names)), 5);
	CHECK_STR(names, ". .. one two three");
	CHECK_EQ(do_sys_getdents64(fd, buf, sizeof(buf)), 0); /* at the end */

	/* One entry per call (32 bytes hold any of these records, never two), then rewind. */
	CHECK_EQ(do_sys_lseek(fd, 0, SEEK_SET), 0);
	CHECK_EQ(list_dir(fd, 32, names, sizeof(names)), 5);
	CHECK_STR(names, ". .. one two three");
	CHECK_EQ(do_sys_lseek(fd, 0, SEEK_SET), 0);
	CHECK_EQ(do_sys_getdents64(fd, buf, 8), -EINVAL); /* not even one fits */

	/* Records: types, inode numbers, d_off chains to the next. */
	long n = do_sys_getdents64(fd, buf, sizeof(buf));
	CHECK(n > 0);
	struct kernel_dirent64 *d = (struct kernel_dirent64 *)buf;
	CHECK_STR(d->d_name, ".");
	CHECK_EQ(d->d_type, DT_DIR);
	CHECK_EQ(d->d_ino, stat_of("/d").st_ino);
	CHECK_EQ(d->d_reclen % 8, 0);
	d = (struct kernel_dirent64 *)(buf + d->d_reclen);
	CHECK_STR(d->d_name, "..");
	CHECK_EQ(d->d_ino, stat_of("/").st_ino);
	s64 after_dotdot = d->d_off;
	d = (struct kernel_dirent64 *)((u8 *)d + d->d_reclen);
	CHECK_STR(d->d_name, "one");
	CHECK_EQ(d->d_type, DT_REG);
	d = (struct kernel_dirent64 *)((u8 *)d + d->d_reclen);
	CHECK_STR(d->d_name, "two");
	CHECK_EQ(d->d_type, DT_DIR);

	/* Seeking to a d_off resumes there; entries removed meanwhile do not come back. */
	CHECK_EQ(do_sys_lseek(fd, after_dotdot, SEEK_SET), after_dotdot);
	CHECK_EQ(do_sys_unlink("/d/one"), 0);
	make_file("/d/four", "4");
	CHECK_EQ(list_dir(fd, sizeof(buf), names, sizeof(names)), 3);
	CHECK_STR(names, "two three four");

	CHECK_EQ(do_sys_lseek(fd, 0, SEEK_END), -EINVAL);
	CHECK_EQ(do_sys_lseek(fd, -1, SEEK_SET), -EINVAL);
	CHECK_EQ(do_sys_lseek(fd, 0, SEEK_SET), 0);
	CHECK_EQ(do_sys_getdents64(fd, BAD_USER_PTR, sizeof(buf)), -EFAULT);
	int ffd = (int)do_sys_open("/d/three", O_RDONLY, 0);
	CHECK_EQ(do_sys_getdents64(ffd, buf, sizeof(buf)), -ENOTDIR);
	CHECK_EQ(do_sys_getdents64(1000, buf, sizeof(buf)), -EBADF);
	CHECK_EQ(do_sys_read(fd, (char *)buf, 10), -EISDIR);
}

UNIT_TEST(rename_moves_files_and_directories)
{
	char buf[64];

	fs_setup();
	do_sys_mkdir("/a", 0755);
	do_sys_mkdir("/b", 0755);
	make_file("/a/f", "content");
	int fd = (int)do_sys_open("/a/f", O_RDONLY, 0);
	u64 ino = stat_of("/a/f").st_ino;

	CHECK_EQ(do_sys_rename("/a/f", "/a/g"), 0);
	CHECK_EQ(stat_of("/a/g").st_ino, ino);
	CHECK_EQ(stat_of("/a/f").st_mode, 0);
	CHECK_EQ(do_sys_rename("/a/g", "/b/h"), 0);
	CHECK_EQ(stat_of("/b/h").st_ino, ino);
	struct file *f = fd_get(fd);
	file_path(f, buf, sizeof(buf));
	CHECK_STR(buf, "/b/h"); /* the open file follows its name */
	file_put(f);

	/* Over an existing file: the old one is gone, the name is the moved file's. */
	make_file("/b/other", "zz");
	CHECK_EQ(do_sys_rename("/b/h", "/b/other"), 0);
	CHECK_EQ(stat_of("/b/other").st_ino, ino);
	CHECK_EQ(stat_of("/b/h").st_mode, 0);
	CHECK_EQ(do_sys_rename("/b/other", "/b/other"), 0); /* itself: nothing */

	/* Directories: over an empty one, not a full one, not into itself. */
	do_sys_mkdir("/a/sub", 0755);
	do_sys_mkdir("/b/empty", 0755);
	u64 a_links = stat_of("/a").st_nlink, b_links = stat_of("/b").st_nlink;
	CHECK_EQ(do_sys_rename("/a/sub", "/b/empty"), 0);
	CHECK_EQ(stat_of("/a").st_nlink, a_links - 1);
	CHECK_EQ(stat_of("/b").st_nlink, b_links); /* one came, one was replaced */
	do_sys_mkdir("/a/full", 0755);
	make_file("/a/full/x", "");
	CHECK_EQ(do_sys_rename("/b/empty", "/a/full"), -ENOTEMPTY);
	CHECK_EQ(do_sys_rename("/a", "/a/full/inside"), -EINVAL);
	CHECK_EQ(do_sys_rename("/a", "/a"), 0);
	CHECK_EQ(do_sys_rename("/a/full/x", "/a"), -ENOTEMPTY); /* over its own ancestor */
	CHECK_EQ(do_sys_rename("/a/full/x", "/b/empty"), -EISDIR);
	CHECK_EQ(do_sys_rename("/a/full", "/b/other"), -ENOTDIR);
	CHECK_EQ(do_sys_rename("/a/full/x", "/a/full"), -ENOTEMPTY);
	CHECK_EQ(do_sys_rename("/a/full", "/a/full/.."), -EBUSY);
	CHECK_EQ(do_sys_rename("/a/full", "/a/full/x/.."), -ENOTDIR);
	CHECK_EQ(do_sys_rename("/a/full/x", "/a/full/y/"), -ENOTDIR);
	CHECK_EQ(do_sys_rename("/a/full/", "/a/full2/"), 0);
	CHECK_EQ(do_sys_rename("/a/missing", "/a/y"), -ENOENT);
	CHECK_EQ(do_sys_rename("/a/full2/x", "/nowhere/y"), -ENOENT);
	CHECK_EQ(do_sys_rename(".", "/q"), -EBUSY);
	CHECK_EQ(do_sys_rename("/a/full2/x", BAD_USER_PTR), -EFAULT);
	CHECK_EQ(do_sys_rename("/a/full2", "/a/full2/x"), -EINVAL);
	/* Over its own ancestor: that ancestor is not empty. */
	do_sys_mkdir("/a/full2/deep", 0755);
	CHECK_EQ(do_sys_rename("/a/full2/deep", "/a"), -ENOTEMPTY);
	CHECK_EQ(do_sys_rename("/proc", "/proc2"), 0); /* not mounted here: a plain directory */
}

UNIT_TEST(unlinked_open_file_stays_readable_until_closed)
{
	char buf[16];

	fs_setup();
	u64 pages = free_pages_now();
	make_file("/tmp/f", "still here");
	int fd = (int)do_sys_open("/tmp/f", O_RDONLY, 0);
	CHECK_EQ(do_sys_unlink("/tmp/f"), 0);
	CHECK_EQ(stat_of("/tmp/f").st_mode, 0);
	struct kernel_stat st;
	CHECK_EQ(do_sys_fstat(fd, &st), 0);
	CHECK_EQ(st.st_nlink, 0);
	CHECK_EQ(do_sys_read(fd, buf, sizeof(buf)), 10);
	CHECK(memcmp(buf, "still here", 10) == 0);
	struct file *f = fd_get(fd);
	char path[64];
	file_path(f, path, sizeof(path));
	CHECK_STR(path, "/tmp/f (deleted)");
	file_put(f);
	CHECK(free_pages_now() < pages);
	CHECK_EQ(do_sys_close(fd), 0);
	CHECK_EQ(free_pages_now(), pages); /* the page cache went with the inode */
}

UNIT_TEST(a_busy_tree_frees_everything_it_made)
{
	char buf[64];

	fs_setup();
	u64 objects = kmalloc_objects_now();
	for (int round = 0; round < 3; round++) {
		do_sys_mkdir("/w", 0755);
		do_sys_mkdir("/w/d", 0755);
		for (int i = 0; i < 40; i++) {
			snprintf(buf, sizeof(buf), "/w/d/file%d", i);
			make_file(buf, "some data that fills a page cache page");
		}
		int dfd = (int)do_sys_open("/w/d", O_RDONLY | O_DIRECTORY, 0);
		do_sys_chdir("/w/d");
		do_sys_rename("/w/d", "/w/e");
		for (int i = 0; i < 40; i++) {
			snprintf(buf, sizeof(buf), "file%d", i);
			CHECK_EQ(do_sys_unlink(buf), 0);
		}
		do_sys_chdir("/");
		CHECK_EQ(do_sys_rmdir("/w/e"), 0);
		CHECK_EQ(do_sys_rmdir("/w"), 0);
		do_sys_close(dfd);
		CHECK_EQ(kmalloc_objects_now(), objects);
	}
}

/* The name index finds every child of a big directory, follows renames and forgets unlinked names. */
UNIT_TEST(name_index_follows_links_renames_unlinks)
{
	enum { FILES = 600 };
	struct kernel_stat st;
	char path[64], moved[64];

	fs_setup();
	CHECK_EQ(do_sys_mkdir("/big", 0755), 0);
	CHECK_EQ(do_sys_mkdir("/other", 0755), 0);
	for (int i = 0; i < FILES; i++) {
		snprintf(path, sizeof(path), "/big/f%04d", i);
		int fd = (int)do_sys_open(path, O_CREAT | O_WRONLY, 0600);
		CHECK(fd >= 0);
		do_sys_close(fd);
	}
	for (int i = 0; i < FILES; i++) {
		snprintf(path, sizeof(path), "/big/f%04d", i);
		CHECK_EQ(do_sys_stat(path, &st), 0);
	}
	/* The same name in another directory is another file. */
	CHECK_EQ(do_sys_stat("/other/f0001", &st), -ENOENT);
	for (int i = 0; i < FILES; i += 2) {
		snprintf(path, sizeof(path), "/big/f%04d", i);
		snprintf(moved, sizeof(moved), "/other/g%04d", i);
		CHECK_EQ(do_sys_rename(path, moved), 0);
		CHECK_EQ(do_sys_stat(path, &st), -ENOENT);
		CHECK_EQ(do_sys_stat(moved, &st), 0);
		CHECK_EQ(do_sys_unlink(moved), 0);
		CHECK_EQ(do_sys_stat(moved, &st), -ENOENT);
	}
	for (int i = 1; i < FILES; i += 2) {
		snprintf(path, sizeof(path), "/big/f%04d", i);
		CHECK_EQ(do_sys_stat(path, &st), 0);
	}
}
