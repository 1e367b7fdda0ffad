/*
 * groups.c - usertests: supplementary groups (setgroups, getgroups) and
 * what they grant: a file's group permission bits, chown to a group the
 * owner is in, keeping set-group-ID on chmod; and a set-group-ID
 * directory, whose new files take its group. The tests need root to
 * start with, and pass on Linux as on rewind.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define GROUP_A 4242 /* groups no file or process of the system uses */
#define GROUP_B 4243

static void
need_root(void)
{
	if (geteuid() != 0)
		skip("needs root");
}

/* Runs check in a child that is nobody, with the supplementary groups list (count ids). */
static void
as_nobody_in(const gid_t *list, int count, void (*check)(void))
{
	pid_t pid = xfork();

	if (pid == 0) {
		CHECK_OK(setgroups(count, list));
		CHECK_OK(setresgid(NOBODY_ID, NOBODY_ID, NOBODY_ID));
		CHECK_OK(setresuid(NOBODY_ID, NOBODY_ID, NOBODY_ID));
		umask(0);
		check();
		_exit(0);
	}
	expect_exited(wait_status(pid), 0, "the checks as nobody");
}

/* Whether /proc/self/status has the line want. */
static bool
status_has(const char *want)
{
	char text[4096];
	int fd = CHECK_OK(open("/proc/self/status", O_RDONLY));
	ssize_t n = read(fd, text, sizeof(text) - 1);

	close(fd);
	CHECK(n > 0);
	text[n] = '\0';
	return strstr(text, want) != NULL;
}

static void
list_checks(void)
{
	gid_t list[4];

	CHECK_EQ(getgroups(0, NULL), 3);
	CHECK_ERR(EINVAL, getgroups(2, list));
	CHECK_EQ(getgroups(4, list), 3);
	CHECK(list[0] == 3 && list[1] == 5 && list[2] == 7); /* kept sorted, as Linux does */
	CHECK(status_has("\nGroups:\t3 5 7 \n"));	     /* with Linux's trailing space */
	CHECK_ERR(EPERM, setgroups(0, NULL));		     /* CAP_SETGID */
}

/* The list is set by root only, read back whole, and inherited by a child. */
TEST(supplementary_groups_set_and_inherited)
{
	static const gid_t unsorted[3] = { 7, 3, 5 };

	need_root();
	pid_t pid = xfork();
	if (pid == 0) {
		CHECK_OK(setgroups(0, NULL));
		CHECK(status_has("\nGroups:\t \n"));
		CHECK_OK(setgroups(3, unsorted));
		CHECK_ERR(EFAULT, syscall(SYS_setgroups, 2L, (void *)8));
		CHECK_EQ(getgroups(0, NULL), 3); /* a failed call changes nothing */
		CHECK_ERR(EFAULT, syscall(SYS_getgroups, 3L, (void *)8));
		as_nobody_in(unsorted, 3, list_checks);
		_exit(0);
	}
	expect_exited(wait_status(pid), 0, "the setgroups child");
}

static const char *group_file, *other_file, *own_file;

static void
group_bits_checks(void)
{
	struct stat st;

	close(CHECK_OK(open(group_file, O_RDONLY))); /* mode 0040, group GROUP_A: a member reads */
	CHECK_ERR(EACCES, open(other_file, O_RDONLY)); /* the same, group GROUP_B */
	CHECK_OK(chown(own_file, (uid_t)-1, GROUP_A));
	CHECK_ERR(EPERM, chown(own_file, (uid_t)-1, GROUP_B));
	CHECK_OK(chmod(own_file, 02755));
	CHECK_OK(stat(own_file, &st));
	CHECK(st.st_gid == GROUP_A && (st.st_mode & 07777) == 02755); /* a member keeps S_ISGID */
}

static void
set_gid_dropped_checks(void)
{
	struct stat st;

	CHECK_OK(chmod(own_file, 02755));
	CHECK_OK(stat(own_file, &st));
	CHECK_EQ(st.st_mode & 07777, 0755); /* not in GROUP_B: S_ISGID goes */
}

/* A supplementary group grants its permission bits and the choices a member has. */
TEST(supplementary_groups_grant_group_rights)
{
	static const gid_t member_of_a = GROUP_A;
	char cwd[PATH_MAX];

	need_root();
	CHECK(getcwd(cwd, sizeof(cwd)) != NULL);
	CHECK_OK(chmod(cwd, 0755));
	group_file = strdup(path_under(cwd, "group_a"));
	other_file = strdup(path_under(cwd, "group_b"));
	own_file = strdup(path_under(cwd, "nobodys"));
	close(create_file(group_file, "a", 1, 0040));
	close(create_file(other_file, "b", 1, 0040));
	close(create_file(own_file, "n", 1, 0644));
	CHECK_OK(chown(group_file, 0, GROUP_A));
	CHECK_OK(chown(other_file, 0, GROUP_B));
	CHECK_OK(chmod(group_file, 0040));
	CHECK_OK(chmod(other_file, 0040));
	CHECK_OK(chown(own_file, NOBODY_ID, NOBODY_ID));
	as_nobody_in(&member_of_a, 1, group_bits_checks);
	CHECK_OK(chown(own_file, NOBODY_ID, GROUP_B));
	as_nobody_in(&member_of_a, 1, set_gid_dropped_checks);
}

static const char *shared_dir;

static void
outsider_checks(void)
{
	struct stat st;
	const char *path = path_under(shared_dir, "outsiders");

	close(CHECK_OK(open(path, O_CREAT | O_WRONLY, 02755)));
	CHECK_OK(stat(path, &st));
	/* The directory's group, but not its S_ISGID: nobody is not in GROUP_A. */
	CHECK(st.st_gid == GROUP_A && (st.st_mode & 07777) == 0755);
}

/* A new file in a set-group-ID directory takes its group; a new directory also its bit. */
TEST(setgid_directory_gives_its_group)
{
	char cwd[PATH_MAX];
	struct stat st;

	need_root();
	CHECK(getcwd(cwd, sizeof(cwd)) != NULL);
	CHECK_OK(chmod(cwd, 0755));
	shared_dir = strdup(path_under(cwd, "shared"));
	CHECK_OK(mkdir(shared_dir, 0777));
	CHECK_OK(chown(shared_dir, 0, GROUP_A));
	CHECK_OK(chmod(shared_dir, 02777));
	const char *file = strdup(path_under(shared_dir, "file"));
	const char *sub = strdup(path_under(shared_dir, "sub"));
	close(create_file(file, "f", 1, 0644));
	CHECK_OK(stat(file, &st));
	CHECK(st.st_gid == GROUP_A && !(st.st_mode & S_ISGID));
	CHECK_OK(mkdir(sub, 0755));
	CHECK_OK(stat(sub, &st));
	CHECK(st.st_gid == GROUP_A && (st.st_mode & S_ISGID)); /* so its own children do the same */
	as_nobody_in(NULL, 0, outsider_checks);
}
