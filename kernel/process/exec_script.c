/*
 * exec_script.c - reading a "#!" line, as Linux's binfmt_script does. The
 * line is "#!", blanks, the interpreter's path, and after blanks the rest,
 * trailing blanks removed, is one argument, spaces and all. Only the first
 * SCRIPT_LINE_MAX bytes count: a longer line loses the end of its
 * argument, but an interpreter's path cut there is ENOEXEC rather than
 * another program. exec.c puts the interpreter in the script's place.
 */
#include "kernel/process/exec_script.h"
#include "fs/fs.h"
#include "kernel/lib/string.h"
#include "uapi/errno.h"

static bool
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static char *
skip_blanks(char *p, const char *end)
{
	while (p < end && is_blank(*p))
		p++;
	return p;
}

/* The first blank or NUL from p, or end. */
static char *
find_terminator(char *p, const char *end)
{
	while (p < end && *p && !is_blank(*p))
		p++;
	return p;
}

static int
script_parse(char *buf, size_t len, char **name, char **arg)
{
	if (len < 2 || buf[0] != '#' || buf[1] != '!')
		return 1;
	char *end = strchr(buf, '\n'); /* buf ends in a NUL; a NUL before ends the line too */
	if (!end) {
		end = buf + len;
		char *sep = find_terminator(skip_blanks(buf + 2, end), end);
		if (sep == end && len == SCRIPT_LINE_MAX)
			return -ENOEXEC; /* the interpreter's path goes on past what was read */
	}
	while (end > buf + 2 && is_blank(end[-1]))
		end--;
	*end = '\0';
	*name = skip_blanks(buf + 2, end);
	if (*name == end || !**name)
		return -ENOEXEC;
	char *sep = find_terminator(*name, end);
	*arg = NULL;
	if (sep < end && *sep) {
		*sep = '\0';
		char *rest = skip_blanks(sep + 1, end);
		*arg = rest < end ? rest : NULL;
	}
	return 0;
}

int
script_read(const char *path, char *buf, char **name, char **arg)
{
	struct file *f;
	int err = open_exec(path, &f);

	if (err)
		return err;
	long n = kernel_read(f, buf, SCRIPT_LINE_MAX, 0);
	file_put(f);
	if (n < 0)
		return (int)n;
	buf[n] = '\0';
	return script_parse(buf, (size_t)n, name, arg);
}
