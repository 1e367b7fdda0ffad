/*
 * permissions.c - usertests: who may open, search and signal what. The
 * permission bits of a file's owner, group or others (whichever class the
 * caller is in, and only that one) decide open(2) and every directory a
 * path walks through; root reads and writes past them; access(2) asks
 * with the real ids. A signal from a user reaches only processes of the
 * same user, or SIGCONT within a session. /proc/<pid> belongs to the
 * process's user. Each test gives up root in a child (as_nobody), so it
 * needs root to start with, and passes on Linux as on rewind.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static char top[64];

/* A path under this test's directory. */
static const char *
at(const char *name)
{
	return path_under(top, name);
}

/* A file of mode (exactly), owned by uid and gid. */
static void
make_owned(const char *name, mode_t mode, uid_t uid, gid_t gid)
{
	make_file(at(name), "data", 4);
	CHECK_OK(chown(at(name), uid, gid));
	CHECK_OK(chmod(at(name), mode));
}

static void
make_tree(void)
{
	if (geteuid() != 0)
		skip("needs root");
	snprintf(top, sizeof(top), "/tmp/perm_%d", getpid());
	CHECK_OK(mkdir(top, 0755));
	CHECK_OK(chmod(top, 0777)); /* nobody adds its own files here */
	make_owned("secret", 0600, 0, 0);
	make_owned("public", 0644, 0, 0);
	make_owned("groups", 0640, 0, NOBODY_ID);
	make_owned("owner_has_none", 0066, NOBODY_ID, NOBODY_ID);
	CHECK_OK(mkdir(at("locked"), 0700));
	make_file(at("locked/inside"), "data", 4);
	CHECK_OK(mkdir(at("listless"), 0711)); /* searchable, not listable */
	make_file(at("listless/known"), "data", 4);
}

static void
remove_tree(void)
{
	const char *files[] = { "secret",	 "public",	   "groups", "owner_has_none",
				"locked/inside", "listless/known", "created" };

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		unlink(at(files[i]));
	CHECK_OK(rmdir(at("locked")));
	CHECK_OK(rmdir(at("listless")));
	CHECK_OK(rmdir(top));
}

static void
open_checks(const char *unused)
{
	struct stat st;
	int fd;

	(void)unused;
	CHECK_ERR(EACCES, open(at("secret"), O_RDONLY));
	fd = CHECK_OK(open(at("secret"), O_PATH)); /* a handle on the name asks nothing */
	close(fd);
	close(CHECK_OK(open(at("public"), O_RDONLY)));
	CHECK_ERR(EACCES, open(at("public"), O_WRONLY));
	CHECK_ERR(EACCES, open(at("public"), O_RDWR));
	CHECK_ERR(EACCES, open(at("public"), O_RDONLY | O_TRUNC));
	CHECK_ERR(EACCES, open(at("public"), O_WRONLY | O_CREAT, 0644)); /* exists: no creation */
	/* The group's bits for a member of the group; the owner's alone for the owner. */
	close(CHECK_OK(open(at("groups"), O_RDONLY)));
	CHECK_ERR(EACCES, open(at("groups"), O_WRONLY));
	CHECK_ERR(EACCES, open(at("owner_has_none"), O_RDONLY));
	/* Search permission on every directory on the way, read permission to list one. */
	CHECK_ERR(EACCES, stat(at("locked/inside"), &st));
	CHECK_ERR(EACCES, open(at("locked/inside"), O_RDONLY));
	CHECK_ERR(EACCES, open(at("locked/../public"), O_RDONLY));
	CHECK_ERR(EACCES, open(at("locked"), O_RDONLY | O_DIRECTORY));
	CHECK_ERR(EACCES, chdir(at("locked")));
	CHECK_OK(stat(at("listless/known"), &st));
	CHECK_ERR(EACCES, open(at("listless"), O_RDONLY | O_DIRECTORY));
	CHECK_OK(chdir(at("listless")));
	/* The open that creates a file needs no permission on it; the next one does. */
	fd = CHECK_OK(open(at("created"), O_RDWR | O_CREAT | O_EXCL, 0444));
	CHECK_EQ(write(fd, "x", 1), 1);
	close(fd);
	CHECK_ERR(EACCES, open(at("created"), O_RDWR));
	CHECK_OK(fstatat(AT_FDCWD, at("created"), &st, 0));
	CHECK(st.st_uid == NOBODY_ID && (st.st_mode & 07777) == 0444);
}

/* A pipe is its creator's, mode 0600: it opens its own again through /proc/self/fd. */
static void
pipe_checks(const char *unused)
{
	char path[64], c;
	struct stat st;
	int fds[2];

	(void)unused;
	CHECK_OK(pipe(fds));
	CHECK_OK(fstat(fds[0], &st));
	CHECK(st.st_uid == NOBODY_ID && st.st_gid == NOBODY_ID);
	CHECK_EQ(st.st_mode, (S_IFIFO | 0600));
	CHECK_EQ(write(fds[1], "p", 1), 1);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fds[0]);
	int again = CHECK_OK(open(path, O_RDONLY));
	CHECK(read(again, &c, 1) == 1 && c == 'p');
	char link[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", again);
	ssize_t n = readlink(path, link, sizeof(link) - 1);
	CHECK(n > 6 && !strncmp(link, "pipe:[", 6)); /* the same pipe, named as Linux names it */
	close(again);
	close(fds[0]);
	close(fds[1]);
}

/* Opening, searching and listing take the permission bits of the caller's class. */
TEST(open_checks_permission_bits)
{
	make_tree();
	as_nobody(open_checks, NULL);
	as_nobody(pipe_checks, NULL);
	/* Root reads and writes past the bits, and searches any directory. */
	CHECK_OK(chmod(at("secret"), 0));
	close(CHECK_OK(open(at("secret"), O_RDWR)));
	close(CHECK_OK(open(at("locked/inside"), O_RDONLY)));
	remove_tree();
}

static void
access_checks(const char *unused)
{
	(void)unused;
	CHECK_ERR(EACCES, access(at("secret"), R_OK));
	CHECK_OK(access(at("public"), R_OK));
	CHECK_ERR(EACCES, access(at("public"), W_OK));
	CHECK_ERR(EACCES, access(at("public"), X_OK));
	CHECK_ERR(EACCES, access(at("locked/inside"), F_OK));
	CHECK_OK(access(at("listless"), X_OK));
	CHECK_ERR(EACCES, access(at("listless"), R_OK));
}

/* access(2) answers for the real ids: a process that is root only in its effective id is asked as its user. */
static void
real_ids_checks(void)
{
	CHECK_OK(setresuid(NOBODY_ID, 0, 0));
	close(CHECK_OK(open(at("secret"), O_RDONLY))); /* open: the effective id, root */
	CHECK_ERR(EACCES, access(at("secret"), R_OK));
	CHECK_OK(faccessat(AT_FDCWD, at("secret"), R_OK, AT_EACCESS));
	_exit(0);
}

TEST(access_asks_as_the_real_ids)
{
	make_tree();
	as_nobody(access_checks, NULL);
	/* Root: read and write anything, execute what has an x bit somewhere. */
	CHECK_OK(access(at("secret"), R_OK | W_OK));
	CHECK_ERR(EACCES, access(at("public"), X_OK));
	CHECK_OK(chmod(at("public"), 0645));
	CHECK_OK(access(at("public"), X_OK));
	CHECK_OK(access(at("locked"), X_OK));
	pid_t pid = xfork();
	if (pid == 0)
		real_ids_checks();
	expect_exit(pid, 0, "access with a real uid of nobody");
	remove_tree();
}

/* Root's process sleeping in its own group, for the kill checks to aim at. */
static pid_t roots_process;

static void
kill_checks(const char *unused)
{
	siginfo_t info;

	(void)unused;
	CHECK_ERR(EPERM, kill(roots_process, 0));
	CHECK_ERR(EPERM, kill(roots_process, SIGTERM));
	CHECK_ERR(EPERM, kill(-roots_process, SIGTERM)); /* a group with nothing of its own */
	CHECK_ERR(EPERM, syscall(SYS_tgkill, roots_process, roots_process, SIGTERM));
	memset(&info, 0, sizeof(info));
	info.si_signo = SIGTERM;
	info.si_code = SI_QUEUE;
	CHECK_ERR(EPERM, syscall(SYS_rt_sigqueueinfo, roots_process, SIGTERM, &info));
	CHECK_OK(kill(-1, 0)); /* others exist: 0, though it may signal none of them */
	/* SIGCONT goes to the whole session: to the parent, root's, in ours. */
	CHECK_OK(kill(getppid(), SIGCONT));
	/* Its own processes, of course. */
	pid_t mine = xfork();
	if (mine == 0) {
		pause();
		_exit(0);
	}
	CHECK_OK(kill(mine, 0));
	CHECK_OK(kill(mine, SIGKILL));
	CHECK(WIFSIGNALED(wait_status(mine)));
}

/* A user's signals reach its own processes only (Linux's check_kill_permission). */
TEST(kill_needs_the_same_user)
{
	if (geteuid() != 0)
		skip("needs root");
	roots_process = xfork();
	if (roots_process == 0) {
		setpgid(0, 0);
		pause();
		_exit(0);
	}
	setpgid(roots_process, roots_process); /* whichever of the two runs first */
	as_nobody(kill_checks, NULL);
	CHECK_OK(kill(roots_process, 0));
	CHECK_OK(kill(roots_process, SIGKILL));
	CHECK(WIFSIGNALED(wait_status(roots_process)));
}

/*
 * /proc/<pid> is its own; the files in it are root's (not dumpable: it
 * changed ids) or, once dumpable again, its own.
 */
static void
check_own_proc(bool dumpable)
{
	uid_t owner = dumpable ? NOBODY_ID : 0;
	char target[64];
	struct stat st;

	CHECK_EQ(prctl(PR_GET_DUMPABLE), dumpable);
	CHECK_OK(stat("/proc/self", &st));
	CHECK(st.st_uid == NOBODY_ID && st.st_gid == NOBODY_ID);
	CHECK_OK(stat("/proc/self/status", &st));
	CHECK(st.st_uid == owner && st.st_gid == owner);
	/* Its fd directory (mode 0500) opens for it either way: ttyname reads it. */
	close(CHECK_OK(open("/proc/self/fd", O_RDONLY | O_DIRECTORY)));
	CHECK(readlink("/proc/self/fd/0", target, sizeof(target)) > 0);
	if (!dumpable) {
		CHECK_ERR(EACCES, open("/proc/self/comm", O_WRONLY));
		return;
	}
	int fd = CHECK_OK(open("/proc/self/comm", O_WRONLY));
	CHECK_EQ(write(fd, "renamed", 7), 7);
	close(fd);
}

static void
proc_checks(const char *unused)
{
	char path[64];

	(void)unused;
	check_own_proc(false);
	CHECK_ERR(EINVAL, prctl(PR_SET_DUMPABLE, 2));
	CHECK_OK(prctl(PR_SET_DUMPABLE, 1));
	check_own_proc(true);
	/* Another user's is out of reach. */
	snprintf(path, sizeof(path), "/proc/%d/fd", (int)getppid());
	CHECK_ERR(EACCES, open(path, O_RDONLY | O_DIRECTORY));
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)getppid());
	CHECK_ERR(EACCES, open(path, O_WRONLY));
}

/*
 * /proc/<pid> belongs to the process's effective user and group, and what
 * is in it too while it is dumpable; a change of ids makes it undumpable
 * and those files root's, as on Linux.
 */
TEST(proc_pid_belongs_to_its_user)
{
	struct stat st;

	if (geteuid() != 0)
		skip("needs root");
	CHECK_EQ(prctl(PR_GET_DUMPABLE), 1);
	CHECK_OK(stat("/proc/self/fd", &st));
	CHECK(st.st_uid == 0 && (st.st_mode & 0777) == 0500);
	as_nobody(proc_checks, NULL);
}
