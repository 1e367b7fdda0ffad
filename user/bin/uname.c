/*
 * uname.c - prints what the kernel says it is.
 *
 *	uname [-asnrvm]    -s name (the default), -n node, -r release,
 *	                   -v version, -m machine, -a all of them
 */
#include <err.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

int
main(int argc, char **argv)
{
	static const char letters[] = "snrvm"; /* in the order they are printed */
	struct utsname u;
	const char *fields[5];
	int want[5] = { 0 }, any = 0, first = 1;

	for (int i = 1; i < argc; i++) {
		if (argv[i][0] != '-' || !argv[i][1])
			errx(2, "usage: uname [-asnrvm]");
		for (const char *f = argv[i] + 1; *f; f++) {
			const char *at = strchr(letters, *f);

			if (*f != 'a' && !at)
				errx(2, "unknown option -%c; usage: uname [-asnrvm]", *f);
			for (int k = 0; k < 5; k++)
				if (*f == 'a' || at - letters == k)
					want[k] = 1;
			any = 1;
		}
	}
	if (!any)
		want[0] = 1;
	if (uname(&u) < 0)
		err(1, "uname");
	fields[0] = u.sysname;
	fields[1] = u.nodename;
	fields[2] = u.release;
	fields[3] = u.version;
	fields[4] = u.machine;
	for (int i = 0; i < 5; i++) {
		if (!want[i])
			continue;
		printf("%s%s", first ? "" : " ", fields[i]);
		first = 0;
	}
	putchar('\n');
	return 0;
}
