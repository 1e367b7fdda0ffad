/*
 * cat.c - copies files (or stdin, also for "-") to stdout.
 *
 *	cat [FILE...]
 *
 * A file that cannot be read is reported and skipped; the exit status is 1
 * if any was.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/* write() may take less than asked (pipes, consoles): loop until all is out. */
static int
write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static int
copy(int fd, const char *name)
{
	static char buf[64 * 1024];

	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			warn("%s", name);
			return 1;
		}
		if (n == 0)
			return 0;
		if (write_all(STDOUT_FILENO, buf, (size_t)n) < 0) {
			warn("write");
			return 1;
		}
	}
}

static int
cat_file(const char *name)
{
	int fd, rc;

	if (!strcmp(name, "-"))
		return copy(STDIN_FILENO, "stdin");
	fd = open(name, O_RDONLY);
	if (fd < 0) {
		warn("%s", name);
		return 1;
	}
	rc = copy(fd, name);
	close(fd);
	return rc;
}

int
main(int argc, char **argv)
{
	int rc = 0;

	if (argc == 1)
		return copy(STDIN_FILENO, "stdin");
	for (int i = 1; i < argc; i++)
		rc |= cat_file(argv[i]);
	return rc;
}
