/*
 * ipcrm.c - removes every IPC object that outlives its maker. tools/trinity-check
 * runs it after trinity, whose main process makes System V segments it never
 * removes and whose children make System V queues and sets and POSIX message
 * queues as they fuzz: left in place, a leak check would count them.
 *
 *	ipcrm -a	every System V segment, queue and set (util-linux's `ipcrm --all`);
 *			prints "ipcrm: removed N objects"
 *	ipcrm -P	every POSIX message queue (rewind's own: util-linux's ipcrm has none);
 *			prints "ipcrm: removed N message queues"
 */
#include <stdio.h>
#include <string.h>

#include "lib/ipc_cleanup.h"

int
main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "-a") == 0)
		printf("ipcrm: removed %d objects\n", remove_sysv_objects());
	else if (argc == 2 && strcmp(argv[1], "-P") == 0)
		printf("ipcrm: removed %d message queues\n", remove_message_queues());
	else {
		fprintf(stderr, "usage: ipcrm -a | -P\n");
		return 2;
	}
	return 0;
}
