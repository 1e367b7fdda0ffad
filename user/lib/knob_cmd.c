/*
 * knob_cmd.c - the shell's `knob` builtin (user/sh.c): list the kernel's
 * knobs in /proc/sys/rewind/, show one, or set one and show what the kernel
 * made of it. Apart from sh.c because it is one idea of its own, and in lib/
 * because every user/<name>.c is a program of its own (user/user.mk).
 */
#include "knob_cmd.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "procfile.h"

#define KNOB_DIR "/proc/sys/rewind"

/*
 * Prints "NAME * VALUE  valid: ...  default: ...  declared in: ..." for one
 * knob, the * when it can be set now (its file is writable: fs/proc/sysctl.c).
 */
static int
knob_show(const char *name)
{
	char path[256], value[512];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", KNOB_DIR, name);
	if (strchr(name, '/') || read_text_file(path, value, sizeof(value)) < 0 ||
	    stat(path, &st) < 0) {
		fprintf(stderr, "sh: knob: %s: %s\n", name,
			strchr(name, '/') ? "no such knob" : strerror(errno));
		return 1;
	}
	/*
	 * The file is "VALUE\n# valid: ...\n# default: ...\n# declared in: ...\n":
	 * one line here. The value is the first line even when it is empty (run=).
	 */
	static const char *const fields[] = { "valid", "default", "declared in" };
	char *rest = value + strcspn(value, "\n"), *line;
	if (*rest)
		*rest++ = '\0';
	printf("%-18s %c %-16s", name, st.st_mode & S_IWUSR ? '*' : ' ', value);
	for (line = strtok(rest, "\n"); line; line = strtok(NULL, "\n"))
		for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
			size_t n = strlen(fields[i]);
			if (strncmp(line, "# ", 2) == 0 && strncmp(line + 2, fields[i], n) == 0 &&
			    line[2 + n] == ':')
				printf("  %s:%s", fields[i], line + 3 + n);
		}
	printf("\n");
	return 0;
}

static int
knob_set(const char *name, const char *value)
{
	char path[256], line[512];
	int fd, len;

	snprintf(path, sizeof(path), "%s/%s", KNOB_DIR, name);
	len = snprintf(line, sizeof(line), "%s\n", value);
	if (strchr(name, '/') || (fd = open(path, O_WRONLY)) < 0) {
		fprintf(stderr, "sh: knob: %s: %s\n", name,
			strchr(name, '/') ? "no such knob" : strerror(errno));
		return 1;
	}
	if (write(fd, line, len) != len) {
		fprintf(stderr, "sh: knob: %s=%s: %s\n", name, value, strerror(errno));
		close(fd);
		return 1;
	}
	close(fd);
	/* Show what the kernel made of it. */
	return knob_show(name);
}

static int
compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
knob_list(void)
{
	DIR *d = opendir(KNOB_DIR);
	char *names[256];
	int n = 0, rc = 0;
	struct dirent *e;

	if (!d) {
		fprintf(stderr, "sh: knob: %s: %s\n", KNOB_DIR, strerror(errno));
		return 1;
	}
	while ((e = readdir(d)) && n < 256)
		if (e->d_name[0] != '.')
			names[n++] = strdup(e->d_name);
	closedir(d);
	qsort(names, n, sizeof(names[0]), compare_names);
	printf("knobs (* = can be set now: knob NAME VALUE; the others only on the kernel command line):\n");
	for (int i = 0; i < n; i++) {
		rc |= knob_show(names[i]);
		free(names[i]);
	}
	return rc;
}

int
knob_command(int argc, char **argv)
{
	if (argc == 1)
		return knob_list();
	if (argc == 2)
		return knob_show(argv[1]);
	if (argc == 3)
		return knob_set(argv[1], argv[2]);
	fprintf(stderr, "usage: knob [NAME [VALUE]]\n");
	return 2;
}
