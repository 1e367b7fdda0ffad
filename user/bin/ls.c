/*
 * ls.c - lists directories and files.
 *
 *	ls [-l] [-a] [PATH...]    -l: mode, size and name; -a: names starting with '.' too
 *
 * Files named on the command line come first, then each directory's
 * entries, sorted by name, under a "dir:" heading when there are several.
 * Directories are read with readdir(), which is getdents64 underneath.
 */
#include <dirent.h>
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int long_format, show_hidden;

/* "drwxr-xr-x" from st_mode. */
static void
mode_string(mode_t m, char out[11])
{
	static const char rwx[] = "rwxrwxrwx";

	out[0] = S_ISDIR(m)    ? 'd'
		 : S_ISLNK(m)  ? 'l'
		 : S_ISCHR(m)  ? 'c'
		 : S_ISBLK(m)  ? 'b'
		 : S_ISFIFO(m) ? 'p'
		 : S_ISSOCK(m) ? 's'
			       : '-';
	for (int i = 0; i < 9; i++)
		out[1 + i] = m & (0400 >> i) ? rwx[i] : '-';
	out[10] = '\0';
}

/* One line; path is what lstat needs, name what is shown. */
static int
print_entry(const char *path, const char *name)
{
	struct stat st;
	char mode[11];

	if (!long_format) {
		printf("%s\n", name);
		return 0;
	}
	if (lstat(path, &st) < 0) {
		warn("%s", path);
		return 1;
	}
	mode_string(st.st_mode, mode);
	printf("%s %10lld %s\n", mode, (long long)st.st_size, name);
	return 0;
}

static int
compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Reads all names of dir into a sorted, malloc'd array; -1 on error. */
static int
read_names(const char *dir, char ***names)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0, cap = 0;

	if (!d)
		return -1;
	*names = NULL;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' && !show_hidden)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			*names = realloc(*names, cap * sizeof(**names));
			if (!*names)
				err(1, "out of memory");
		}
		(*names)[n++] = strdup(e->d_name);
	}
	closedir(d);
	qsort(*names, n, sizeof(**names), compare_names);
	return n;
}

static int
list_dir(const char *dir)
{
	char **names;
	int n = read_names(dir, &names), rc = 0;

	if (n < 0) {
		warn("%s", dir);
		return 1;
	}
	for (int i = 0; i < n; i++) {
		char path[4096];

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		rc |= print_entry(path, names[i]);
		free(names[i]);
	}
	free(names);
	return rc;
}

int
main(int argc, char **argv)
{
	int i, rc = 0, ndirs = 0, shown = 0;
	struct stat st;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		for (const char *f = argv[i] + 1; *f; f++) {
			if (*f == 'l')
				long_format = 1;
			else if (*f == 'a')
				show_hidden = 1;
			else
				errx(2, "unknown option -%c; usage: ls [-l] [-a] [PATH...]", *f);
		}
	}
	if (i == argc)
		return list_dir(".");
	/* Pass 1: files (and the count of directories, for the headings). */
	for (int j = i; j < argc; j++) {
		if (stat(argv[j], &st) < 0) {
			warn("%s", argv[j]);
			rc = 1;
		} else if (S_ISDIR(st.st_mode)) {
			ndirs++;
		} else {
			rc |= print_entry(argv[j], argv[j]);
			shown++;
		}
	}
	/* Pass 2: directories. */
	for (int j = i; j < argc; j++) {
		if (stat(argv[j], &st) < 0 || !S_ISDIR(st.st_mode))
			continue;
		if (ndirs > 1 || shown)
			printf("%s%s:\n", shown++ ? "\n" : "", argv[j]);
		rc |= list_dir(argv[j]);
	}
	return rc;
}
