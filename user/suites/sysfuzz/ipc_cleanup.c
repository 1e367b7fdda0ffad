/*
 * sysv_cleanup.c - sysfuzz: System V objects outlive the workers that made
 * them (a segment, a queue, a set stays until IPC_RMID), so after the storm
 * the parent, root, removes every one; a leak check around the run then
 * sees only what the kernel itself kept.
 */
#include "sysfuzz.h"

#include <sys/syscall.h>
#include <unistd.h>

#include "uapi/ipc.h"

/* Removes every object of one kind, found by slot with *_STAT_ANY: the count. */
static int
remove_kind(long ctl_nr, int stat_any, bool sem)
{
	struct kernel_shmid64_ds buf; /* the largest of the three *_ds */
	int removed = 0;
	long max = sem ? syscall(ctl_nr, 0, 0, IPC_INFO, &buf) : syscall(ctl_nr, 0, IPC_INFO, &buf);

	for (long slot = 0; slot <= max; slot++) {
		long id = sem ? syscall(ctl_nr, slot, 0, stat_any, &buf)
			      : syscall(ctl_nr, slot, stat_any, &buf);
		if (id < 0)
			continue;
		long ret = sem ? syscall(ctl_nr, id, 0, IPC_RMID, 0)
			       : syscall(ctl_nr, id, IPC_RMID, 0);
		removed += ret == 0;
	}
	return removed;
}

int
remove_sysv_objects(void)
{
	return remove_kind(SYS_shmctl, SHM_STAT_ANY, false) +
	       remove_kind(SYS_msgctl, MSG_STAT_ANY, false) +
	       remove_kind(SYS_semctl, SEM_STAT_ANY, true);
}
