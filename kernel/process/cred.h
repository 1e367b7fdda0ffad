/*
 * cred.h - who a process is: its real, effective and saved user ids
 * (getuid, setuid, setreuid, setresuid and their readers, cred.c), and the
 * capabilities that follow from them (capget).
 *
 * rewind's first process is root, as the first process of a Linux
 * initramfs is, and so is everything it starts unless a program gives
 * that up with setuid. Privilege is an effective uid of 0: it stands for
 * every capability Linux's root has, and is what raising a hard resource
 * limit (rlimit.h) or forking past RLIMIT_NPROC takes. Not modelled: group
 * ids (every process has gid 0), file permission checks and the uid checks
 * of kill - a process that gave up root still opens and signals as root.
 */
#ifndef REWIND_CRED_H
#define REWIND_CRED_H

#include "kernel/process/task.h"

/* Whether the current process holds root's capabilities (an effective uid of 0). */
static inline bool
privileged(void)
{
	return READ_ONCE(current()->group_leader->euid) == 0;
}

#endif
