/*
 * file_cleanup.c - removes the files a fuzzing run left in the file
 * system. A fuzzer's processes make files, directories and symlinks
 * wherever their calls may (a sandbox, /tmp, a directory an earlier call
 * opened to everyone, a name scrambled in scratch memory); those outlive
 * the processes on any kernel, and a leak check around the run would count
 * each as an inode and a dentry too many. sysfuzz removes its workers'
 * (by owner) after its storm, /bin/rmnew trinity's children's (by age).
 *
 * The clean-up removes names and nothing else: a file still held open
 * somewhere keeps its inode when its name is gone, and the leak check
 * still counts it. A directory the cleaner owns but cannot read or
 * change (a worker's chmod) gets its owner's permissions back first.
 */
#define _GNU_SOURCE
#include "lib/file_cleanup.h"

#include <ftw.h>
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>

/* nftw passes no argument to its callback: the walk's state. */
static int removed;
static int (*matches)(const struct stat *st);
static void (*note_removal)(const char *path, const struct stat *st);

static int remove_below(const char *path);

/*
 * A directory of ours the walk could not empty: a worker took its own
 * permissions on it away (chmod 0: not listed, FTW_DNR; 0500: its names
 * stay), which rm -rf would leave as it is. Its owner may give them back:
 * 0700, and the directory is walked again, what it holds first. Whether
 * that was tried.
 */
static bool
reclaim_directory(const char *path, const struct stat *st)
{
	if (st->st_uid != geteuid() || (st->st_mode & S_IRWXU) == S_IRWXU || chmod(path, S_IRWXU))
		return false;
	remove_below(path);
	return true;
}

static int
remove_entry(const char *path, const struct stat *st, int type,
	     struct FTW *f __attribute__((unused)))
{
	if (remove(path) == 0)
		removed++;
	else if (type == FTW_DNR || type == FTW_DP)
		reclaim_directory(path, st);
	return 0; /* on past a name that stays: the rest may still go */
}

static int
remove_below(const char *path)
{
	int before = removed;

	nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
	return removed - before;
}

int
remove_tree(const char *path)
{
	removed = 0;
	return remove_below(path);
}

/*
 * Depth first, so a matching directory comes after what it holds: by
 * then only the names that did not match are left in it (a root process
 * may write in anyone's directory), and they go with it.
 */
static int
remove_if_matching(const char *path, const struct stat *st, int type, struct FTW *f)
{
	if (f->level == 0 || !matches(st))
		return 0;
	if (note_removal)
		note_removal(path, st);
	if (type == FTW_DP)
		remove_below(path);
	else
		remove_entry(path, st, type, f);
	return 0;
}

int
remove_matching(int (*match)(const struct stat *st),
		void (*note)(const char *path, const struct stat *st))
{
	removed = 0;
	matches = match;
	note_removal = note;
	nftw("/", remove_if_matching, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
	return removed;
}
