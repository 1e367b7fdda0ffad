/*
 * xattr.c - usertests: extended attributes where the file system keeps
 * them (rewind's tmpfs; the host's test directory): values and names
 * round-trip, the size query and ERANGE, XATTR_CREATE and XATTR_REPLACE,
 * user.* only on regular files and directories, trusted.* and setting
 * security.* only with CAP_SYS_ADMIN, and the file's permission bits for
 * user.*. The privilege checks need root.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#define SIZE_MAX_XATTR 65536 /* XATTR_SIZE_MAX (linux/limits.h) */

static void
need_root(void)
{
	if (geteuid() != 0)
		skip("needs root");
}

/* value is name's, and nothing else: the size query, a short buffer and a read all agree. */
static void
expect_value(const char *path, const char *name, const char *value)
{
	char buf[64] = { 0 };
	size_t len = strlen(value);

	CHECK_EQ(getxattr(path, name, NULL, 0), (ssize_t)len);
	if (len > 1) /* a size of 0 is the query */
		CHECK_ERR(ERANGE, getxattr(path, name, buf, len - 1));
	CHECK_EQ(getxattr(path, name, buf, sizeof(buf)), (ssize_t)len);
	CHECK(!memcmp(buf, value, len));
}

TEST(xattr_user_attributes_round_trip)
{
	char list[64];

	make_file("f", "x", 1);
	CHECK_OK(setxattr("f", "user.colour", "blue", 4, 0));
	expect_value("f", "user.colour", "blue");
	CHECK_ERR(EEXIST, setxattr("f", "user.colour", "red", 3, XATTR_CREATE));
	CHECK_OK(setxattr("f", "user.colour", "red", 3, XATTR_REPLACE));
	expect_value("f", "user.colour", "red");
	CHECK_ERR(ENODATA, setxattr("f", "user.size", "1", 1, XATTR_REPLACE));
	CHECK_OK(setxattr("f", "user.empty", "", 0, XATTR_CREATE));
	expect_value("f", "user.empty", "");
	CHECK_ERR(ENODATA, getxattr("f", "user.none", list, sizeof(list)));

	/* Both names, each NUL-terminated, in some order. */
	ssize_t n = CHECK_OK(listxattr("f", NULL, 0));
	CHECK_EQ(n, (ssize_t)sizeof("user.colour") + (ssize_t)sizeof("user.empty"));
	CHECK_ERR(ERANGE, listxattr("f", list, (size_t)n - 1));
	CHECK_EQ(listxattr("f", list, sizeof(list)), n);
	CHECK(memmem(list, (size_t)n, "user.colour", sizeof("user.colour")) &&
	      memmem(list, (size_t)n, "user.empty", sizeof("user.empty")));

	CHECK_OK(removexattr("f", "user.colour"));
	CHECK_ERR(ENODATA, removexattr("f", "user.colour"));
	CHECK_ERR(ENODATA, getxattr("f", "user.colour", list, sizeof(list)));
	CHECK_EQ(listxattr("f", list, sizeof(list)), (ssize_t)sizeof("user.empty"));
}

TEST(xattr_argument_errors)
{
	static char big[SIZE_MAX_XATTR + 1];
	char buf[8];

	make_file("f", "x", 1);
	CHECK_ERR(EINVAL, setxattr("f", "user.a", "v", 1, ~0));
	CHECK_ERR(E2BIG, setxattr("f", "user.a", big, sizeof(big), 0));
	CHECK_ERR(ERANGE, setxattr("f", "", "v", 1, 0));
	CHECK_ERR(EFAULT, setxattr("f", NULL, "v", 1, 0));
	CHECK_ERR(EFAULT, setxattr("f", "user.a", (void *)8, 1, 0));
	CHECK_ERR(EINVAL, setxattr("f", "user.", "v", 1, 0)); /* a namespace, no name */
	CHECK_ERR(EOPNOTSUPP, setxattr("f", "nonamespace", "v", 1, 0));
	CHECK_ERR(ENOENT, setxattr("missing", "user.a", "v", 1, 0));
	CHECK_ERR(EBADF, fsetxattr(-1, "user.a", "v", 1, 0));
	int path_fd = CHECK_OK(open("f", O_PATH));
	CHECK_ERR(EBADF, fgetxattr(path_fd, "user.a", buf, sizeof(buf)));
	close(path_fd);
	CHECK_OK(setxattr("f", "user.a", "value", 5, 0));
	CHECK_ERR(EFAULT, getxattr("f", "user.a", (void *)8, sizeof(buf)));
	CHECK_ERR(EFAULT, listxattr("f", (void *)8, sizeof(buf)));
}

/* The f- forms reach the same attributes through a descriptor. */
TEST(xattr_through_a_descriptor)
{
	char buf[16] = { 0 };
	int fd = CHECK_OK(open("f", O_CREAT | O_RDWR, 0644));

	CHECK_OK(fsetxattr(fd, "user.k", "v1", 2, XATTR_CREATE));
	CHECK_EQ(fgetxattr(fd, "user.k", buf, sizeof(buf)), 2);
	CHECK_EQ(flistxattr(fd, buf, sizeof(buf)), (ssize_t)sizeof("user.k"));
	CHECK_OK(link("f", "g")); /* a hard link: the same inode, the same attributes */
	expect_value("g", "user.k", "v1");
	CHECK_OK(fremovexattr(fd, "user.k"));
	CHECK_ERR(ENODATA, getxattr("g", "user.k", buf, sizeof(buf)));
	close(fd);
	/* A new file of the old name starts bare. */
	CHECK_OK(setxattr("g", "user.k", "v2", 2, 0));
	CHECK_OK(unlink("g"));
	CHECK_OK(unlink("f"));
	make_file("g", "y", 1);
	CHECK_ERR(ENODATA, getxattr("g", "user.k", buf, sizeof(buf)));
}

/* user.* belongs to regular files and directories: not symbolic links, FIFOs, sockets or devices. */
TEST(xattr_user_only_on_files_and_directories)
{
	char buf[64];

	need_root(); /* security.* takes CAP_SYS_ADMIN to set */
	CHECK_OK(mkdir("d", 0755));
	CHECK_OK(setxattr("d", "user.k", "v", 1, 0));
	CHECK_OK(symlink("d", "link"));
	CHECK_ERR(EPERM, lsetxattr("link", "user.k", "v", 1, 0));
	CHECK_ERR(ENODATA, lgetxattr("link", "user.k", buf, sizeof(buf)));
	CHECK_OK(mkfifo("fifo", 0644));
	CHECK_ERR(EPERM, setxattr("fifo", "user.k", "v", 1, 0));
	CHECK_OK(mknod("sock", S_IFSOCK | 0644, 0));
	CHECK_ERR(EPERM, setxattr("sock", "user.k", "v", 1, 0));
	/* security.* is for every kind of file. */
	CHECK_OK(lsetxattr("link", "security.rewind", "s", 1, XATTR_CREATE));
	CHECK(memmem(buf, (size_t)CHECK_OK(llistxattr("link", buf, sizeof(buf))), "security.rewind",
		     sizeof("security.rewind")) != NULL);
	CHECK_EQ(lgetxattr("link", "security.rewind", buf, sizeof(buf)), 1);
	expect_value("d", "user.k", "v"); /* the link's attributes are not its target's */
}

static void
unprivileged_checks(const char *path)
{
	char buf[64];

	CHECK_EQ(getxattr(path, "user.k", buf, sizeof(buf)), 1); /* read permission */
	CHECK_ERR(EACCES, setxattr(path, "user.k", "w", 1, 0));	 /* no write permission */
	CHECK_ERR(EACCES, removexattr(path, "user.k"));
	CHECK_ERR(ENODATA, getxattr(path, "trusted.k", buf, sizeof(buf)));
	CHECK_ERR(EPERM, setxattr(path, "trusted.k", "w", 1, 0));
	CHECK_EQ(getxattr(path, "security.k", buf, sizeof(buf)), 1);
	CHECK_ERR(EPERM, setxattr(path, "security.k", "w", 1, 0));
	CHECK_ERR(EPERM, removexattr(path, "security.k"));
	/* trusted.k is not listed to a process without CAP_SYS_ADMIN. */
	ssize_t n = CHECK_OK(listxattr(path, buf, sizeof(buf)));
	CHECK(!memmem(buf, (size_t)n, "trusted.k", sizeof("trusted.k")));
	CHECK(memmem(buf, (size_t)n, "user.k", sizeof("user.k")) != NULL);
}

/* trusted.* is CAP_SYS_ADMIN's; security.* is read by all, set by CAP_SYS_ADMIN; user.* follows the mode. */
TEST(xattr_namespaces_need_their_privilege)
{
	char path[PATH_MAX];

	need_root();
	CHECK(getcwd(path, sizeof(path)) != NULL);
	CHECK_OK(chmod(path, 0755));
	strncat(path, "/rootfile", sizeof(path) - strlen(path) - 1);
	make_file(path, "x", 1);
	CHECK_OK(chmod(path, 0644));
	CHECK_OK(setxattr(path, "user.k", "v", 1, 0));
	CHECK_OK(setxattr(path, "trusted.k", "t", 1, 0));
	CHECK_OK(setxattr(path, "security.k", "s", 1, 0));
	as_nobody(unprivileged_checks, path);
}

/*
 * The POSIX ACLs' names: rewind has no ACLs and answers as a tmpfs built
 * without them (EOPNOTSUPP); a Linux file system with ACLs (the host's)
 * answers ENODATA for a file that has none, so this is rewind's own.
 */
TEST(xattr_system_names_are_not_supported)
{
	char buf[64];

	if (!on_rewind())
		skip("Linux's file systems with POSIX ACLs answer these names");
	make_file("f", "x", 1);
	CHECK_ERR(EOPNOTSUPP, getxattr("f", "system.posix_acl_access", buf, sizeof(buf)));
	CHECK_ERR(EOPNOTSUPP, setxattr("f", "system.posix_acl_default", buf, 4, 0));
}
