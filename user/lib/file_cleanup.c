/*
 * file_cleanup.c - removes the files a fuzzing run left in the file
 * system. A fuzzer's processes make files, directories and symlinks
 * wherever their calls may (a sandbox, /tmp, a directory an earlier call
 * opened to everyone, a name scrambled in scratch memory); those outlive
 * the processes on any kernel, and a leak check around the run would count
 * each as an inode and a dentry too many. sysfuzz removes its workers'
 * after its storm, /bin/rmowned trinity's children's.
 *
 * The clean-up goes by path and owner only, nothing else: a file still
 * held open somewhere keeps its inode when its name is gone, and the leak
 * check still counts it.
 */
#define _GNU_SOURCE
#include "lib/file_cleanup.h"

#include <ftw.h>
#include <libgen.h>
#include <stdio.h>

/* nftw passes no argument to its callback: the walk's state. */
static int removed;
static uid_t owner;
static void (*note_removal)(const char *path, const struct stat *st, int parent_writable);

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

/* Whether the owner could add a name to the directory holding path, by its mode. */
static int
owner_could_write_parent(const char *path)
{
	char copy[4096];
	struct stat dir;

	snprintf(copy, sizeof(copy), "%s", path);
	if (lstat(dirname(copy), &dir) != 0)
		return 0;
	if (dir.st_uid == owner)
		return (dir.st_mode & S_IWUSR) != 0;
	if (dir.st_gid == owner) /* nobody's group has nobody's number */
		return (dir.st_mode & S_IWGRP) != 0;
	return (dir.st_mode & S_IWOTH) != 0;
}

/*
 * Depth first, so a directory of the owner's comes after what it holds:
 * by then only others' names are left in it (a root process may write in
 * anyone's directory), and they go with it.
 */
static int
remove_if_owners(const char *path, const struct stat *st, int type, struct FTW *f)
{
	if (st->st_uid != owner || f->level == 0)
		return 0;
	if (note_removal)
		note_removal(path, st, owner_could_write_parent(path));
	if (type == FTW_DP)
		remove_below(path);
	else
		remove_entry(path, st, type, f);
	return 0;
}

int
remove_users_files(uid_t uid,
		   void (*note)(const char *path, const struct stat *st, int parent_writable))
{
	removed = 0;
	owner = uid;
	note_removal = note;
	nftw("/", remove_if_owners, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
	return removed;
}
