/*
 * sysv_helpers.c - the helpers the System V IPC tests share (sysv.h).
 */
#define _GNU_SOURCE
#include "usertests.h"
#include "sysv.h"

#include <sched.h>
#include <stdio.h>
#include <string.h>

int
sysv_test_key(char which)
{
	return (int)(0x5a000000u | ((unsigned)which << 16) | ((unsigned)getpid() & 0xffff));
}

bool
file_has_line_with(const char *path, const char *text)
{
	char line[512];
	bool found = false;
	FILE *f = fopen(path, "r");

	if (!f)
		fail("cannot open %s", path);
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, text) != NULL;
	fclose(f);
	return found;
}

bool
sysv_private_namespace(void)
{
	return on_rewind() || unshare(CLONE_NEWIPC) == 0;
}
