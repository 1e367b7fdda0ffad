/*
 * ns_uts.c - UTS namespaces and unshare(2): sethostname and setdomainname
 * change the names of the caller's namespace only, uname and
 * /proc/sys/kernel/{hostname,domainname} read them, a new namespace starts
 * with a copy, and the errors come in Linux's order. Every test that sets
 * a name first moves into a namespace of its own (each test runs in a
 * child), so that the host's names never change. Needs root.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

static void
need_root(void)
{
	if (geteuid() != 0)
		skip("needs root (CAP_SYS_ADMIN)");
}

static void
own_uts_namespace(void)
{
	need_root();
	CHECK_OK(unshare(CLONE_NEWUTS));
}

static void
read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");

	if (!f)
		fail("cannot open %s", path);
	if (!fgets(buf, (int)size, f))
		fail("nothing in %s", path);
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

TEST(ns_uts_sethostname_is_what_uname_and_proc_show)
{
	struct utsname u;
	char line[80];

	own_uts_namespace();
	CHECK_OK(sethostname("ns-test-host", 12));
	CHECK_OK(setdomainname("ns-test-dom", 11));
	CHECK_OK(uname(&u));
	CHECK(strcmp(u.nodename, "ns-test-host") == 0);
	CHECK(strcmp(u.domainname, "ns-test-dom") == 0);
	read_line("/proc/sys/kernel/hostname", line, sizeof(line));
	CHECK(strcmp(line, "ns-test-host") == 0);
	read_line("/proc/sys/kernel/domainname", line, sizeof(line));
	CHECK(strcmp(line, "ns-test-dom") == 0);
}

TEST(ns_uts_proc_write_sets_the_hostname)
{
	struct utsname u;
	int fd;

	own_uts_namespace();
	fd = open("/proc/sys/kernel/hostname", O_WRONLY);
	CHECK(fd >= 0);
	CHECK_EQ(write(fd, "via-proc\n", 9), 9);
	close(fd);
	CHECK_OK(uname(&u));
	CHECK(strcmp(u.nodename, "via-proc") == 0);
}

/* A name of exactly 64 characters fits (no NUL is stored past the field); 65 is EINVAL. */
TEST(ns_uts_name_lengths)
{
	char name[66];
	struct utsname u;

	own_uts_namespace();
	memset(name, 'h', sizeof(name));
	CHECK_OK(sethostname(name, 64));
	CHECK_OK(uname(&u));
	CHECK_EQ(strlen(u.nodename), 64);
	CHECK_ERR(EINVAL, sethostname(name, 65));
	CHECK_ERR(EINVAL, syscall(SYS_sethostname, name, -1));
	CHECK_ERR(EINVAL, syscall(SYS_setdomainname, name, 65));
	CHECK_ERR(EFAULT, syscall(SYS_sethostname, NULL, 10));
	CHECK_ERR(EFAULT, syscall(SYS_setdomainname, (char *)1, 10));
	CHECK_OK(sethostname("", 0));
	CHECK_OK(uname(&u));
	CHECK_EQ(strlen(u.nodename), 0);
}

/* The child's namespace starts as a copy; what it sets stays in it. */
TEST(ns_uts_clone_newuts_copies_and_isolates)
{
	struct utsname after;

	own_uts_namespace();
	CHECK_OK(sethostname("parent-name", 11));
	pid_t pid = (pid_t)syscall(SYS_clone, CLONE_NEWUTS | SIGCHLD, NULL, NULL, NULL, 0);
	CHECK(pid >= 0);
	if (pid == 0) {
		struct utsname u;
		if (uname(&u) || strcmp(u.nodename, "parent-name") || sethostname("child-name", 10))
			_exit(1);
		_exit(0);
	}
	expect_exited(wait_status(pid), 0, "the child in a new UTS namespace");
	CHECK_OK(uname(&after));
	CHECK(strcmp(after.nodename, "parent-name") == 0);
}

/* Without CLONE_NEWUTS a child shares the namespace: its name is the parent's. */
TEST(ns_uts_fork_shares_the_namespace)
{
	struct utsname u;

	own_uts_namespace();
	pid_t pid = xfork();
	if (pid == 0)
		_exit(sethostname("set-by-child", 12) ? 1 : 0);
	expect_exited(wait_status(pid), 0, "the child setting the shared name");
	CHECK_OK(uname(&u));
	CHECK(strcmp(u.nodename, "set-by-child") == 0);
}

static void
unprivileged_calls(const char *unused)
{
	char name[70] = "x";

	(void)unused;
	CHECK_ERR(EPERM, sethostname(name, 1));
	/* The capability is asked first, as Linux: a bad length or pointer is EPERM too. */
	CHECK_ERR(EPERM, syscall(SYS_setdomainname, name, 65));
	CHECK_ERR(EPERM, syscall(SYS_sethostname, NULL, 1));
	CHECK_ERR(EPERM, unshare(CLONE_NEWUTS));
	CHECK_ERR(EPERM, unshare(CLONE_NEWIPC));
	CHECK_ERR(EPERM, unshare(CLONE_NEWNS));
	CHECK_ERR(EPERM, syscall(SYS_clone, CLONE_NEWUTS | SIGCHLD, NULL, NULL, NULL, 0));
	CHECK_OK(unshare(CLONE_FILES | CLONE_FS | CLONE_SYSVSEM));
}

TEST(ns_uts_needs_cap_sys_admin)
{
	need_root();
	as_nobody(unprivileged_calls, NULL);
}

TEST(ns_unshare_bad_flags)
{
	need_root();
	CHECK_ERR(EINVAL, unshare(-1));
	CHECK_ERR(EINVAL, unshare(CLONE_PARENT));
	CHECK_ERR(EINVAL, unshare(CLONE_VFORK));
	CHECK_ERR(EINVAL,
		  syscall(SYS_clone, CLONE_NEWIPC | CLONE_SYSVSEM | SIGCHLD, NULL, NULL, NULL, 0));
	CHECK_ERR(EINVAL,
		  syscall(SYS_clone, CLONE_NEWNS | CLONE_FS | SIGCHLD, NULL, NULL, NULL, 0));
}

/* unshare(CLONE_FS): a chdir after it no longer moves the process that shared the context. */
TEST(ns_unshare_fs_gives_an_own_cwd)
{
	char before[256], after[256];
	CHECK(getcwd(before, sizeof(before)) != NULL);
	pid_t pid = (pid_t)syscall(SYS_clone, CLONE_FS | SIGCHLD, NULL, NULL, NULL, 0);
	CHECK(pid >= 0);
	if (pid == 0)
		_exit(unshare(CLONE_FS) || chdir("/") ? 1 : 0);
	expect_exited(wait_status(pid), 0, "the child unsharing its fs context");
	CHECK(getcwd(after, sizeof(after)) != NULL);
	CHECK(strcmp(before, after) == 0);
}

/* unshare(CLONE_FILES): a close after it leaves the other sharer's fd open. */
TEST(ns_unshare_files_gives_an_own_table)
{
	int fd = open("/dev/null", O_RDONLY);

	CHECK(fd >= 0);
	pid_t pid = (pid_t)syscall(SYS_clone, CLONE_FILES | SIGCHLD, NULL, NULL, NULL, 0);
	CHECK(pid >= 0);
	if (pid == 0)
		_exit(unshare(CLONE_FILES) || close(fd) ? 1 : 0);
	expect_exited(wait_status(pid), 0, "the child unsharing its file table");
	CHECK_OK(fcntl(fd, F_GETFD));
	close(fd);
}

/* A thread that unshares its UTS namespace takes only itself there. */
static void *
unshare_in_thread(void *unused)
{
	(void)unused;
	if (unshare(CLONE_NEWUTS) || sethostname("thread-own", 10))
		return (void *)1;
	return NULL;
}

TEST(ns_unshare_in_a_thread_leaves_the_others)
{
	pthread_t thread;
	struct utsname u;
	void *result;

	own_uts_namespace();
	CHECK_OK(sethostname("process-wide", 12));
	CHECK_EQ(pthread_create(&thread, NULL, unshare_in_thread, NULL), 0);
	CHECK_EQ(pthread_join(thread, &result), 0);
	CHECK(result == NULL);
	CHECK_OK(uname(&u));
	CHECK(strcmp(u.nodename, "process-wide") == 0);
}

static void *
wait_on_pipe(void *fdp)
{
	char c;

	(void)!read(*(int *)fdp, &c, 1);
	return NULL;
}

/* CLONE_THREAD, CLONE_SIGHAND and CLONE_VM: nothing to give up alone, EINVAL beside a thread. */
TEST(ns_unshare_thread_flags_need_a_lone_task)
{
	pthread_t thread;
	int p[2];

	CHECK_OK(unshare(CLONE_THREAD | CLONE_SIGHAND | CLONE_VM));
	CHECK_OK(pipe(p));
	CHECK_EQ(pthread_create(&thread, NULL, wait_on_pipe, &p[0]), 0);
	CHECK_ERR(EINVAL, unshare(CLONE_THREAD));
	CHECK_ERR(EINVAL, unshare(CLONE_VM));
	CHECK_EQ(write(p[1], "x", 1), 1);
	CHECK_EQ(pthread_join(thread, NULL), 0);
	close(p[0]);
	close(p[1]);
}
