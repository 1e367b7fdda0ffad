/*
 * sleep.c - waits for a number of seconds, which may have a fraction.
 *
 *	sleep SECONDS        e.g. sleep 2, sleep 0.25
 *
 * The number is parsed by hand into whole nanoseconds, so 0.1 means
 * exactly 100000000 ns, not the nearest double.
 */
#include <err.h>
#include <errno.h>
#include <time.h>

static int
parse_seconds(const char *s, struct timespec *ts)
{
	long digits = 0;

	ts->tv_sec = 0;
	ts->tv_nsec = 0;
	for (; *s >= '0' && *s <= '9'; s++, digits++) {
		if (ts->tv_sec > 1000000000)
			return -1;
		ts->tv_sec = ts->tv_sec * 10 + (*s - '0');
	}
	if (*s == '.') {
		long scale = 100000000;

		for (s++; *s >= '0' && *s <= '9'; s++, digits++, scale /= 10)
			ts->tv_nsec += (*s - '0') * scale;
	}
	return digits && !*s ? 0 : -1;
}

int
main(int argc, char **argv)
{
	struct timespec left;

	if (argc != 2)
		errx(2, "usage: sleep SECONDS");
	if (parse_seconds(argv[1], &left) < 0)
		errx(2, "invalid time interval '%s'", argv[1]);
	/* A signal may cut the sleep short; the kernel says how much is left. */
	while (nanosleep(&left, &left) < 0)
		if (errno != EINTR)
			err(1, "nanosleep");
	return 0;
}
