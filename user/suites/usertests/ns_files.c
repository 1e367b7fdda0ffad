/*
 * ns_files.c - namespaces as files: /proc/<pid>/ns/uts reads "uts:[N]",
 * stat's inode number is N and names the namespace (the same for a
 * process that shares it, another after unshare), NS_GET_NSTYPE says the
 * kind, and setns(2) joins the namespace an open one stands for, with
 * Linux's errors. Needs root.
 */
#define _GNU_SOURCE
#include "usertests.h"
#include "uapi/nsfs.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

static void
need_root(void)
{
	if (geteuid() != 0)
		skip("needs root (CAP_SYS_ADMIN)");
}

static ino_t
ns_inode(const char *path)
{
	struct stat st;

	CHECK_OK(stat(path, &st));
	return st.st_ino;
}

TEST(ns_files_link_names_the_namespace)
{
	char text[64], want[64];
	ssize_t n = readlink("/proc/self/ns/uts", text, sizeof(text) - 1);

	CHECK(n > 0);
	text[n] = '\0';
	snprintf(want, sizeof(want), "uts:[%lu]", (unsigned long)ns_inode("/proc/self/ns/uts"));
	CHECK(strcmp(text, want) == 0);
	/* The parent shares it: the same inode, through its pid's directory. */
	snprintf(want, sizeof(want), "/proc/%d/ns/uts", (int)getppid());
	CHECK_EQ(ns_inode(want), ns_inode("/proc/self/ns/uts"));
}

TEST(ns_files_unshare_gives_another_inode)
{
	need_root();
	ino_t before = ns_inode("/proc/self/ns/uts");
	CHECK_OK(unshare(CLONE_NEWUTS));
	CHECK(ns_inode("/proc/self/ns/uts") != before);
}

TEST(ns_files_ioctls)
{
	int fd = open("/proc/self/ns/uts", O_RDONLY);
	unsigned uid;

	CHECK(fd >= 0);
	CHECK_EQ(ioctl(fd, NS_GET_NSTYPE), CLONE_NEWUTS);
	CHECK_ERR(EINVAL, ioctl(fd, NS_GET_PARENT));
	CHECK_ERR(EINVAL, ioctl(fd, NS_GET_OWNER_UID, &uid));
	close(fd);
}

/* A child joins its parent's namespace back after unsharing, and sees its name again. */
TEST(ns_files_setns_joins)
{
	struct utsname u;

	need_root();
	CHECK_OK(unshare(CLONE_NEWUTS));
	CHECK_OK(sethostname("first-ns", 8));
	int first = open("/proc/self/ns/uts", O_RDONLY);
	CHECK(first >= 0);
	CHECK_OK(unshare(CLONE_NEWUTS));
	CHECK_OK(sethostname("second-ns", 9));
	CHECK_OK(setns(first, CLONE_NEWUTS));
	CHECK_OK(uname(&u));
	CHECK(strcmp(u.nodename, "first-ns") == 0);
	CHECK_OK(setns(first, 0));
	close(first);
}

static void
setns_unprivileged(const char *unused)
{
	int fd = open("/proc/self/ns/uts", O_RDONLY);

	(void)unused;
	CHECK(fd >= 0);
	CHECK_ERR(EPERM, setns(fd, CLONE_NEWUTS));
	close(fd);
}

TEST(ns_files_setns_errors)
{
	int fd = open("/proc/self/ns/uts", O_RDONLY), null = open("/dev/null", O_RDONLY);

	need_root();
	CHECK(fd >= 0 && null >= 0);
	CHECK_ERR(EBADF, setns(-1, 0));
	CHECK_ERR(EINVAL, setns(null, CLONE_NEWUTS));
	CHECK_ERR(EINVAL, setns(fd, -1));
	CHECK_ERR(EINVAL, setns(fd, CLONE_NEWIPC));
	as_nobody(setns_unprivileged, NULL);
	close(fd);
	close(null);
}
