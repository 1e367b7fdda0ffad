/*
 * ipcrm.c - removes every System V object: shared-memory segments, message
 * queues and semaphore sets (util-linux's `ipcrm --all`). They outlive the
 * processes that made them, so tools/trinity-check runs it after trinity,
 * whose main process makes segments it never removes and whose children make
 * queues and sets as they fuzz: left in place, a leak check would count them.
 *
 *	ipcrm -a	prints "ipcrm: removed N objects"
 */
#include <stdio.h>
#include <string.h>

#include "lib/ipc_cleanup.h"

int
main(int argc, char **argv)
{
	if (argc != 2 || strcmp(argv[1], "-a") != 0) {
		fprintf(stderr, "usage: ipcrm -a\n");
		return 2;
	}
	printf("ipcrm: removed %d objects\n", remove_sysv_objects());
	return 0;
}
