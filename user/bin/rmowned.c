/*
 * rmowned.c - removes every file a user owns on the root file system.
 * tools/trinity-check runs it after trinity, whose children, once they
 * are nobody, leave files, directories and symlinks wherever their calls
 * could make them; left in place, a leak check would count each.
 *
 *	rmowned UID	prints each name it removes ("rmowned: removed PATH"),
 *			then "rmowned: removed N names"
 *
 * A name in a directory whose mode did not let the user write it is
 * marked "(directory not writable by UID)": the kernel let the user make
 * it where it had no right to, or a root process gave it to the user
 * (chown). Either way it is removed, and the mark is for a person to judge.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/file_cleanup.h"

static unsigned long uid;

static const char *
kind(mode_t mode)
{
	if (S_ISDIR(mode))
		return "directory";
	if (S_ISLNK(mode))
		return "symlink";
	return S_ISREG(mode) ? "file" : "node";
}

/* Fuzzed names hold any byte: the unprintable ones as \xNN. */
static void
note(const char *path, const struct stat *st, int parent_writable)
{
	printf("rmowned: removed %s ", kind(st->st_mode));
	for (const unsigned char *c = (const unsigned char *)path; *c; c++)
		printf(isprint(*c) && *c != '\\' ? "%c" : "\\x%02x", *c);
	if (!parent_writable)
		printf(" (directory not writable by %lu)", uid);
	printf("\n");
}

int
main(int argc, char **argv)
{
	char *end;

	if (argc != 2 || (uid = strtoul(argv[1], &end, 10), *end) || !argv[1][0]) {
		fprintf(stderr, "usage: rmowned UID\n");
		return 2;
	}
	printf("rmowned: removed %d names\n", remove_users_files((uid_t)uid, note));
	return 0;
}
