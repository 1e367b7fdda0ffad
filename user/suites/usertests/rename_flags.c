/*
 * rename_flags.c - usertests: renameat2's flags. RENAME_NOREPLACE refuses
 * an existing target, RENAME_EXCHANGE swaps two names (files, directories,
 * across directories, with the link counts of ".." following, and
 * readdir still listing every name once), and the invalid combinations
 * fail before anything is looked up.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "uapi/rename.h" /* musl names them only lately */

/* musl has no renameat2 wrapper in every version: the call itself. */
static long
renameat2_call(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned flags)
{
	return syscall(SYS_renameat2, olddirfd, oldpath, newdirfd, newpath, flags);
}

static bool
file_holds(const char *path, const char *want)
{
	char buf[32] = { 0 };
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return false;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n == (ssize_t)strlen(want) && memcmp(buf, want, (size_t)n) == 0;
}

/* RENAME_NOREPLACE: EEXIST over an existing name, a plain rename otherwise. */
TEST(renameat2_noreplace)
{
	make_file("a", "A", 1);
	make_file("b", "B", 1);
	CHECK_ERR(EEXIST, renameat2_call(AT_FDCWD, "a", AT_FDCWD, "b", RENAME_NOREPLACE));
	CHECK(file_holds("a", "A") && file_holds("b", "B"));
	CHECK_ERR(EEXIST, renameat2_call(AT_FDCWD, "a", AT_FDCWD, ".", RENAME_NOREPLACE));
	CHECK_OK(renameat2_call(AT_FDCWD, "a", AT_FDCWD, "c", RENAME_NOREPLACE));
	CHECK(file_holds("c", "A"));
	CHECK_ERR(ENOENT, access("a", F_OK));
	/* flags 0 is rename(2) */
	CHECK_OK(renameat2_call(AT_FDCWD, "c", AT_FDCWD, "b", 0));
	CHECK(file_holds("b", "A"));
}

/* RENAME_EXCHANGE: both names stay, each on the other's inode, across directories. */
TEST(renameat2_exchange_files)
{
	struct stat before_a, before_b, st;

	CHECK_OK(mkdir("d1", 0700));
	CHECK_OK(mkdir("d2", 0700));
	make_file("d1/a", "content", 7);
	make_file("d2/b", "", 0);
	CHECK_OK(stat("d1/a", &before_a));
	CHECK_OK(stat("d2/b", &before_b));
	int d1 = open("d1", O_DIRECTORY | O_RDONLY), d2 = open("d2", O_DIRECTORY | O_RDONLY);
	CHECK(d1 >= 0 && d2 >= 0);
	CHECK_OK(renameat2_call(d1, "a", d2, "b", RENAME_EXCHANGE));
	CHECK(file_holds("d2/b", "content") && file_holds("d1/a", ""));
	CHECK_OK(stat("d1/a", &st));
	CHECK_EQ(st.st_ino, before_b.st_ino);
	CHECK_OK(stat("d2/b", &st));
	CHECK_EQ(st.st_ino, before_a.st_ino);
	CHECK_ERR(ENOENT, renameat2_call(d1, "a", d2, "absent", RENAME_EXCHANGE));
	CHECK_ERR(ENOENT, renameat2_call(d1, "absent", d2, "b", RENAME_EXCHANGE));
	/* a name exchanged with another name of the same inode: nothing to do */
	CHECK_OK(link("d1/a", "d1/a2"));
	CHECK_OK(renameat2_call(d1, "a", d1, "a2", RENAME_EXCHANGE));
	close(d1);
	close(d2);
}

/* How many times readdir lists name in dir. */
static int
times_listed(const char *dir, const char *name)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += strcmp(e->d_name, name) == 0;
	if (d)
		closedir(d);
	return n;
}

/*
 * After an exchange readdir lists every name once: rewind's lists an entry
 * that moved to an earlier place in the directory after a later one, and
 * skipped it (a fuzzer's sandbox then could not be removed).
 */
TEST(renameat2_exchange_readdir)
{
	static const char *const names[] = { "a", "b", "c", "d" };

	CHECK_OK(mkdir("e1", 0700));
	CHECK_OK(mkdir("e2", 0700));
	make_file("e1/a", "", 0);
	make_file("e1/b", "", 0);
	make_file("e1/c", "", 0);
	make_file("e2/d", "", 0);
	CHECK_OK(renameat2_call(AT_FDCWD, "e1/a", AT_FDCWD, "e1/c", RENAME_EXCHANGE));
	CHECK_OK(renameat2_call(AT_FDCWD, "e1/b", AT_FDCWD, "e2/d", RENAME_EXCHANGE));
	for (int i = 0; i < 3; i++)
		CHECK_EQ(times_listed("e1", names[i]), 1);
	CHECK_EQ(times_listed("e2", "d"), 1);
	CHECK_OK(unlink("e1/a"));
	CHECK_OK(unlink("e1/b"));
	CHECK_OK(unlink("e1/c"));
	CHECK_OK(rmdir("e1"));
}

/* A directory exchanged with a file in another directory: the parents' link counts follow "..". */
TEST(renameat2_exchange_directory)
{
	struct stat p1, p2, st;

	CHECK_OK(mkdir("p1", 0700));
	CHECK_OK(mkdir("p2", 0700));
	CHECK_OK(mkdir("p1/sub", 0700));
	make_file("p1/sub/inside", "x", 1);
	make_file("p2/file", "F", 1);
	CHECK_OK(stat("p1", &p1));
	CHECK_OK(stat("p2", &p2));
	CHECK_OK(renameat2_call(AT_FDCWD, "p1/sub", AT_FDCWD, "p2/file", RENAME_EXCHANGE));
	CHECK_OK(stat("p2/file/inside", &st));
	CHECK(file_holds("p1/sub", "F"));
	CHECK_OK(stat("p1", &st));
	CHECK_EQ(st.st_nlink, p1.st_nlink - 1);
	CHECK_OK(stat("p2", &st));
	CHECK_EQ(st.st_nlink, p2.st_nlink + 1);
	/* into itself: EINVAL either way round */
	CHECK_ERR(EINVAL,
		  renameat2_call(AT_FDCWD, "p2/file", AT_FDCWD, "p2/file/inside", RENAME_EXCHANGE));
	CHECK_ERR(EINVAL,
		  renameat2_call(AT_FDCWD, "p2/file/inside", AT_FDCWD, "p2/file", RENAME_EXCHANGE));
}

/* Unknown bits and the combinations Linux refuses: EINVAL, nothing renamed. */
TEST(renameat2_invalid_flags)
{
	make_file("a", "A", 1);
	make_file("b", "B", 1);
	CHECK_ERR(EINVAL, renameat2_call(AT_FDCWD, "a", AT_FDCWD, "b", 1u << 3));
	CHECK_ERR(EINVAL,
		  renameat2_call(AT_FDCWD, "a", AT_FDCWD, "b", RENAME_NOREPLACE | RENAME_EXCHANGE));
	CHECK_ERR(EINVAL,
		  renameat2_call(AT_FDCWD, "a", AT_FDCWD, "b", RENAME_WHITEOUT | RENAME_EXCHANGE));
	CHECK(file_holds("a", "A") && file_holds("b", "B"));
}
