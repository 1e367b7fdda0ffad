/*
 * fown.h - a file's owner and what is signalled to it: F_SETOWN and
 * F_SETOWN_EX (fs/fown.c), signal-driven I/O on O_ASYNC files
 * (fs/fasync.c) and directory notification by F_NOTIFY (fs/dnotify.c).
 * Included by fs/vfs.h, whose struct file holds a struct fown.
 */
#ifndef REWIND_FS_FOWN_H
#define REWIND_FS_FOWN_H

#include "kernel/lib/types.h"
#include "kernel/lib/list.h"

struct file;
struct files;

/*
 * A file's owner (fs/fown.c): type (F_OWNER_TID, _PID or _PGRP) says what pid names, 0 for
 * none (a new file's: a TID of 0, as Linux's); the setter's uids.
 */
struct fown {
	int type;
	int pid;
	u64 start_tsc; /* the task pid named when set: one that reuses the number is not it */
	u32 uid, euid;
};

/* fcntl's F_SETOWN (0, -EINVAL, -ESRCH when nothing has that id) and F_GETOWN. */
long f_setown(struct file *f, unsigned long arg);
long f_getown(struct file *f);
/* F_SETOWN_EX and F_GETOWN_EX: the owner as a struct kernel_f_owner_ex at arg. */
long f_setown_ex(struct file *f, unsigned long arg);
long f_getown_ex(struct file *f, unsigned long arg);
/* The caller's process becomes f's owner unless f has one (Linux's dnotify and leases). */
void f_setown_if_none(struct file *f);
/* Sends sig to f's owner, each process of it that the setter may signal (Linux's send_sigurg). */
void file_signal_owner(struct file *f, int sig);
/*
 * Tells f's owner that f (at fd) is ready, as Linux's send_sigio: SIGIO,
 * or F_SETSIG's signal with si_code reason (POLL_IN ...), its band and fd.
 */
void file_send_sigio(struct file *f, int fd, int reason);

/*
 * O_ASYNC (fs/fasync.c): the files in O_ASYNC mode on one object (a
 * pipe's readers, a socket), Linux's fasync list. fasync_helper adds f
 * (on) or takes it off; kill_fasync tells each file's owner that the
 * object is ready for reason (POLL_IN, POLL_OUT ...).
 */
int fasync_helper(int fd, struct file *f, bool on, struct list_head *list);
void kill_fasync(struct list_head *list, int reason);

/* fcntl's F_NOTIFY on the directory f at fd (fs/dnotify.c): 0 or -errno (ENOTDIR). */
long dnotify_fcntl(int fd, struct file *f, u32 arg);
struct files;
/* An fd of f in files closes: the F_NOTIFY request made through them ends. */
void dnotify_flush(struct file *f, struct files *files);

#endif
