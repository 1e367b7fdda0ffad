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
 * still counts it.
 */
#define _GNU_SOURCE
#include "lib/file_cleanup.h"

#include <ftw.h>
#include <stdio.h>

/* nftw passes no argument to its callback: the walk's state. */
static int removed;
static int (*matches)(const struct stat *st);
static void (*note_removal)(const char *path, const struct stat *st);

static int
remove_entry(const char *path, const struct stat *st __attribute__((unused)),
	     int type __attribute__((unused)), struct FTW *f __attribute__((unused)))
{
	removed += remove(path) == 0;
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
