/*
 * rmnew.c - removes every name made on the root file system since a mark.
 * tools/trinity-check makes the mark (a directory) before trinity and runs
 * this after it: trinity's children leave files, directories and symlinks
 * wherever their calls could make them - as root before they drop it, as
 * nobody after - and a leak check would count each.
 *
 *	rmnew MARK UID	prints each name it removes ("rmnew: removed KIND of uid N PATH"),
 *			then "rmnew: removed N names"; exit status 1 if MARK is gone
 *
 * "Since the mark" is by inode number: rewind numbers inodes in the order
 * they are made (fs/inode.c), so every inode made after MARK's has a
 * higher one. MARK goes too. A name of UID's in a directory whose mode
 * did not let UID write it is marked "(directory not writable by UID)":
 * the kernel let UID make it where it had no right to, or a root process
 * gave it to UID (chown). Either way it is removed; the mark is for a
 * person to judge.
 */
#include <ctype.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/file_cleanup.h"

static ino_t mark_ino;
static uid_t uid;

static int
made_since_mark(const struct stat *st)
{
	return st->st_ino >= mark_ino;
}

static const char *
kind(mode_t mode)
{
	if (S_ISDIR(mode))
		return "directory";
	if (S_ISLNK(mode))
		return "symlink";
	return S_ISREG(mode) ? "file" : "node";
}

/* Whether uid could add a name to the directory holding path, by its mode. */
static int
uid_could_write_parent(const char *path)
{
	char copy[4096];
	struct stat dir;

	snprintf(copy, sizeof(copy), "%s", path);
	if (lstat(dirname(copy), &dir) != 0)
		return 0;
	if (dir.st_uid == uid)
		return (dir.st_mode & S_IWUSR) != 0;
	if (dir.st_gid == uid) /* nobody's group has nobody's number */
		return (dir.st_mode & S_IWGRP) != 0;
	return (dir.st_mode & S_IWOTH) != 0;
}

/* Fuzzed names hold any byte: the unprintable ones as \xNN. */
static void
note(const char *path, const struct stat *st)
{
	printf("rmnew: removed %s of uid %u ", kind(st->st_mode), (unsigned)st->st_uid);
	for (const unsigned char *c = (const unsigned char *)path; *c; c++)
		printf(isprint(*c) && *c != '\\' ? "%c" : "\\x%02x", *c);
	if (st->st_uid == uid && !uid_could_write_parent(path))
		printf(" (directory not writable by %u)", (unsigned)uid);
	printf("\n");
}

int
main(int argc, char **argv)
{
	struct stat mark;
	char *end;

	if (argc != 3 || (uid = (uid_t)strtoul(argv[2], &end, 10), *end) || !argv[2][0]) {
		fprintf(stderr, "usage: rmnew MARK UID\n");
		return 2;
	}
	if (lstat(argv[1], &mark) != 0) {
		perror(argv[1]);
		return 1;
	}
	mark_ino = mark.st_ino;
	printf("rmnew: removed %d names\n", remove_matching(made_since_mark, note));
	return 0;
}
