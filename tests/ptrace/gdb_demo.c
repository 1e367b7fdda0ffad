/*
 * gdb_demo.c - the program tools/ptrace-check debugs with Debian's gdb
 * inside rewind: a breakpoint on main, a backtrace, rip, one `next` over
 * a call, and its exit status (7) at the end.
 */
#include <stdio.h>

static int
square(int x)
{
	return x * x;
}

int
main(int argc, char **argv)
{
	int v = square(argc + 2);
	printf("%s: square %d\n", argv[0], v);
	return 7;
}
