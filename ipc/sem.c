/*
 * sem.c - System V semaphore sets (Linux's ipc/sem.c).
 */
#include "ipc/util.h"
#include "fs/proc/text.h"

int sem_ctls[4] = { 32000, 1024000000, 500, 32000 };

void
sem_proc_show(struct procbuf *b)
{
	procbuf_printf(
		b,
		"       key      semid perms      nsems   uid   gid  cuid  cgid      otime      ctime\n");
}
