/*
 * ipc_cleanup.c - removes every IPC object. They outlive the processes that
 * made them - a System V segment, queue or set stays until IPC_RMID, a POSIX
 * message queue until mq_unlink (its name holds it) - so after a fuzzing run
 * (sysfuzz's storm, trinity through /bin/ipcrm -a) root removes them all; a
 * leak check around the run then sees only what the kernel itself kept.
 */
#define _GNU_SOURCE
#include "lib/ipc_cleanup.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/stat.h>
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

/*
 * One pass over the queues an mqueue file system at dir shows, each
 * unlinked by mq_unlink: the count. Unlinking moves the names after it
 * up, so a pass may miss some; the caller passes again.
 */
static int
unlink_queues_listed(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int removed = 0;

	while (d && (e = readdir(d)))
		if (e->d_type == DT_REG)
			removed += syscall(SYS_mq_unlink, e->d_name) == 0;
	if (d)
		closedir(d);
	return removed;
}

int
remove_sysv_objects(void)
{
	return remove_kind(SYS_shmctl, SHM_STAT_ANY, false) +
	       remove_kind(SYS_msgctl, MSG_STAT_ANY, false) +
	       remove_kind(SYS_semctl, SEM_STAT_ANY, true);
}

/* Named in an mqueue file system mounted for it: every mount shows all the queues. */
int
remove_message_queues(void)
{
	char dir[] = "/tmp/sysfuzz-mqueue.XXXXXX";
	int removed = 0, pass;

	if (!mkdtemp(dir))
		return 0;
	if (mount("mqueue", dir, "mqueue", 0, NULL) == 0) {
		while ((pass = unlink_queues_listed(dir)) > 0)
			removed += pass;
		umount(dir);
	}
	rmdir(dir);
	return removed;
}
