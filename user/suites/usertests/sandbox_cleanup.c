/*
 * sandbox_cleanup.c - usertests: the fuzzers' file clean-up
 * (lib/file_cleanup.c) removes a sandbox its owner's workers left behind
 * whatever modes they gave its directories. Run by a user who is not root,
 * as sysfuzz is when started by one, a directory chmod'ed to 0 could not be
 * listed and one chmod'ed to 0500 not emptied: the sandbox stayed, as
 * rm -rf would leave it. The owner may give itself its permissions back.
 */
#include "usertests.h"
#include "lib/file_cleanup.h"

#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * Makes dir with 9 names in directories left unlistable (0, and 0 inside
 * 0), unchangeable (0500) and unsearchable (0400), removes it as its
 * owner and checks all 10 names went.
 */
static void
lock_up_and_remove(const char *dir)
{
	static const char *const dirs[] = { "locked", "locked/inner", "unchangeable",
					    "unsearchable" };
	static const char *const files[] = { "locked/file", "locked/inner/file",
					     "unchangeable/file", "unsearchable/file", "plain" };
	struct stat st;

	CHECK_OK(mkdir(dir, 0755));
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		CHECK_OK(mkdir(path_under(dir, dirs[i]), 0700));
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		make_file(path_under(dir, files[i]), "", 0);
	CHECK_OK(chmod(path_under(dir, "locked/inner"), 0));
	CHECK_OK(chmod(path_under(dir, "locked"), 0));
	CHECK_OK(chmod(path_under(dir, "unchangeable"), 0500));
	CHECK_OK(chmod(path_under(dir, "unsearchable"), 0400));
	CHECK_EQ(remove_tree(dir), 10);
	CHECK_ERR(ENOENT, lstat(dir, &st));
}

TEST(file_cleanup_takes_back_directories_its_owner_locked)
{
	if (geteuid() != 0) {
		lock_up_and_remove("sandbox");
		return;
	}
	/* Root reads and changes any directory: the case is a user's, in a directory of its own. */
	CHECK_OK(mkdir("home", 0755));
	CHECK_OK(chown("home", NOBODY_ID, NOBODY_ID));
	as_nobody(lock_up_and_remove, "home/sandbox");
}
