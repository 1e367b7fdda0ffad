/*
 * ps.c - lists processes: PID, PPID, STATE and NAME.
 *
 * It reads /proc/<pid>/status, the "Key:<tab>value" file of Linux's procfs,
 * using its Name, State and PPid lines. Processes that end while ps reads
 * are skipped silently.
 */
#include <ctype.h>
#include <dirent.h>
#include <err.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/procfile.h"

static int
is_pid_name(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

static int
compare_pids(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

static void
show(long pid)
{
	char path[64], text[4096], name[64], state[32];
	unsigned long long ppid;

	snprintf(path, sizeof(path), "/proc/%ld/status", pid);
	if (read_text_file(path, text, sizeof(text)) < 0)
		return;
	if (field_str(text, "Name", name, sizeof(name)) < 0 ||
	    field_str(text, "State", state, sizeof(state)) < 0 ||
	    field_ull(text, "PPid", &ppid) < 0)
		return;
	/* "S (sleeping)": the letter is the state. */
	printf("%5ld %5llu %-5c %s\n", pid, ppid, state[0], name);
}

int
main(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	long *pids = NULL;
	size_t n = 0, cap = 0;

	if (!d)
		err(1, "/proc");
	while ((e = readdir(d))) {
		if (!is_pid_name(e->d_name))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			pids = realloc(pids, cap * sizeof(*pids));
			if (!pids)
				err(1, "out of memory");
		}
		pids[n++] = atol(e->d_name);
	}
	closedir(d);
	qsort(pids, n, sizeof(*pids), compare_pids);
	printf("%5s %5s %-5s %s\n", "PID", "PPID", "STATE", "NAME");
	for (size_t i = 0; i < n; i++)
		show(pids[i]);
	free(pids);
	return 0;
}
