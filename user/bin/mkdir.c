/*
 * mkdir.c - makes directories.
 *
 *	mkdir [-p] DIR...      -p: make missing parents, and an existing DIR is fine
 */
#include <err.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

static int
make_parents(char *path)
{
	/* Make each prefix in turn: a/b/c makes a, then a/b, then a/b/c. */
	for (char *p = path + (path[0] != '\0');; p++) {
		if (*p != '/' && *p)
			continue;
		char saved = *p;

		*p = '\0';
		if (mkdir(path, 0777) < 0 && errno != EEXIST) {
			warn("%s", path);
			*p = saved;
			return 1;
		}
		*p = saved;
		if (!saved)
			return 0;
	}
}

int
main(int argc, char **argv)
{
	int parents = argc > 1 && !strcmp(argv[1], "-p");
	int rc = 0;

	if (argc < 2 + parents)
		errx(2, "usage: mkdir [-p] DIR...");
	for (int i = 1 + parents; i < argc; i++) {
		if (parents)
			rc |= make_parents(argv[i]);
		else if (mkdir(argv[i], 0777) < 0) {
			warn("%s", argv[i]);
			rc = 1;
		}
	}
	return rc;
}
