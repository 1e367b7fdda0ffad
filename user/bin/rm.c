/*
 * rm.c - removes files, and with -r whole directory trees.
 *
 *	rm [-r] [-f] PATH...    -r: directories too; -f: a missing PATH is fine
 */
#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int recursive, force;

static int remove_path(const char *path);

static int
remove_tree(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int rc = 0;

	if (!d) {
		warn("%s", path);
		return 1;
	}
	while ((e = readdir(d))) {
		char child[4096];

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(child, sizeof(child), "%s/%s", path, e->d_name);
		rc |= remove_path(child);
	}
	closedir(d);
	if (rmdir(path) < 0) {
		warn("%s", path);
		rc = 1;
	}
	return rc;
}

static int
remove_path(const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0) {
		if (force && errno == ENOENT)
			return 0;
		warn("%s", path);
		return 1;
	}
	if (S_ISDIR(st.st_mode)) {
		if (recursive)
			return remove_tree(path);
		warnx("%s: is a directory (use -r)", path);
		return 1;
	}
	if (unlink(path) < 0) {
		warn("%s", path);
		return 1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	int i, rc = 0;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		for (const char *f = argv[i] + 1; *f; f++) {
			if (*f == 'r')
				recursive = 1;
			else if (*f == 'f')
				force = 1;
			else
				errx(2, "unknown option -%c; usage: rm [-r] [-f] PATH...", *f);
		}
	}
	if (i == argc && !force)
		errx(2, "usage: rm [-r] [-f] PATH...");
	for (; i < argc; i++)
		rc |= remove_path(argv[i]);
	return rc;
}
