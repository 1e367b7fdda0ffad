/* pidfd.h - process file descriptors (pidfd.c) for the calls that take one. */
#ifndef KERNEL_PROCESS_PIDFD_H
#define KERNEL_PROCESS_PIDFD_H

#include "fs/vfs.h"
#include "kernel/process/task.h"

#define PIDFD_NONBLOCK O_NONBLOCK

/*
 * What pidfd_send_signal reaches through f: a pidfd or, as Linux, an open
 * /proc/<pid> directory. Its tgid (or -EBADF for other files), and its
 * leader in *leader while not reaped (else NULL); tasks_lock held.
 */
int pidfd_signal_target_locked(struct file *f, struct task **leader);
/* The tgid f names, or 0 if f is no pidfd (waitid P_PIDFD, /proc fdinfo). */
int pidfd_pid(struct file *f);
/* A process's last thread exited: pollers of pidfds look again. */
void pidfd_notify_exit(void);

#endif
