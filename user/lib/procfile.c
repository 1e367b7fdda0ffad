/*
 * procfile.c - reading the small text files of /proc, and the knob files; see procfile.h.
 */
#include "lib/procfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

ssize_t
read_text_file(const char *path, char *buf, size_t size)
{
	size_t len = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	/* A generated file may come in several short reads: read to EOF. */
	while (len + 1 < size) {
		ssize_t n = read(fd, buf + len, size - 1 - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int saved = errno;

			close(fd);
			errno = saved;
			return -1;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	return (ssize_t)len;
}

const char *
find_field(const char *text, const char *key)
{
	size_t klen = strlen(key);

	for (const char *line = text; line && *line;) {
		if (strncmp(line, key, klen) == 0) {
			const char *v =
				line + klen + strspn(line + klen, " \t"); /* cpuinfo pads keys */

			if (*v == ':')
				return v + 1 + strspn(v + 1, " \t");
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return NULL;
}

int
field_ull(const char *text, const char *key, unsigned long long *value)
{
	const char *v = find_field(text, key);
	char *end;

	if (!v)
		return -1;
	*value = strtoull(v, &end, 10);
	return end == v ? -1 : 0;
}

int
field_str(const char *text, const char *key, char *out, size_t size)
{
	const char *v = find_field(text, key);
	size_t len;

	if (!v || size == 0)
		return -1;
	len = strcspn(v, "\n");
	if (len >= size)
		len = size - 1;
	memcpy(out, v, len);
	out[len] = '\0';
	return 0;
}

void
chomp(char *s)
{
	size_t len = strlen(s);

	while (len && (s[len - 1] == '\n' || s[len - 1] == ' ' || s[len - 1] == '\t'))
		s[--len] = '\0';
}

int
knob_read(const char *name, char *value, size_t size)
{
	char path[96];

	snprintf(path, sizeof(path), "/proc/sys/rewind/%s", name);
	if (read_text_file(path, value, size) < 0)
		return -1;
	value[strcspn(value, "\n")] = '\0';
	return 0;
}

int
knob_write(const char *name, const char *value)
{
	char path[96];

	snprintf(path, sizeof(path), "/proc/sys/rewind/%s", name);
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	int bad = fprintf(f, "%s\n", value) < 0;
	return fclose(f) != 0 || bad ? -1 : 0;
}

int
proc_lockstat_reset(void)
{
	int fd = open("/proc/lockstat", O_WRONLY);

	if (fd < 0)
		return -1;
	int bad = write(fd, "0\n", 2) != 2;
	return close(fd) != 0 || bad ? -1 : 0;
}

/* A row is "class acquisitions contentions ...", blank-separated; a class without one has none. */
int
proc_lockstat_acquisitions(const char *cls, unsigned long long *out)
{
	static char text[64 * 1024];
	size_t len = strlen(cls);

	*out = 0;
	if (read_text_file("/proc/lockstat", text, sizeof(text)) < 0)
		return -1;
	for (const char *line = text; line; line = strchr(line, '\n')) {
		line += *line == '\n';
		if (strncmp(line, cls, len) == 0 && line[len] == ' ')
			return sscanf(line + len, "%llu", out) == 1 ? 0 : -1;
	}
	return 0;
}

void
for_each_pid(const char *proc_dir, void (*fn)(long pid, void *arg), void *arg)
{
	DIR *d = opendir(proc_dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);
		if (*end == '\0' && pid > 1 && pid != getpid())
			fn(pid, arg);
	}
	closedir(d);
}

unsigned long
site_count(const char *text, const char *site)
{
	size_t n = strlen(site);

	for (const char *line = text; *line;
	     line = strchr(line, '\n') ? strchr(line, '\n') + 1 : "")
		if (strncmp(line, site, n) == 0 && line[n] == ' ')
			return strtoul(line + n + 1, NULL, 10);
	return 0;
}

/* The CPU numbers of the header's CPUn columns, in order; their count, or -1. */
static int
interrupt_columns(const char *header, int *cpu_of, int max_columns)
{
	int n = 0;

	for (const char *p = header + strspn(header, " "); *p && *p != '\n';
	     p += strcspn(p, " \n"), p += strspn(p, " ")) {
		if (strncmp(p, "CPU", 3) != 0 || n == max_columns)
			return -1;
		cpu_of[n++] = atoi(p + 3);
	}
	return n;
}

int
interrupt_row(const char *name, long long *per_cpu, int max_cpus, char *label, size_t label_size)
{
	enum { TEXT_SIZE = 1 << 20, MAX_COLUMNS = 4096 };
	static char text[TEXT_SIZE];
	static int cpu_of[MAX_COLUMNS];
	size_t len = strlen(name);

	if (read_text_file("/proc/interrupts", text, sizeof(text)) < 0)
		return -1;
	int columns = interrupt_columns(text, cpu_of, MAX_COLUMNS);
	if (columns <= 0)
		return -1;
	for (int cpu = 0; cpu < max_cpus; cpu++)
		per_cpu[cpu] = -1;
	for (const char *line = strchr(text, '\n'); line; line = strchr(line, '\n')) {
		const char *p = ++line;
		p += strspn(p, " ");
		if (strncmp(p, name, len) != 0 || p[len] != ':')
			continue;
		p += len + 1;
		for (int i = 0; i < columns; i++) {
			char *end;
			long long v = strtoll(p, &end, 10);
			if (end == p)
				return -1;
			if (cpu_of[i] >= 0 && cpu_of[i] < max_cpus)
				per_cpu[cpu_of[i]] = v;
			p = end;
		}
		if (label) {
			p += strspn(p, " ");
			snprintf(label, label_size, "%.*s", (int)strcspn(p, "\n"), p);
		}
		return columns;
	}
	return -1;
}
