/*
 * user_count.h - what each user holds of the resources Linux counts per
 * user (its user_struct and ucounts), against the limits that apply to
 * the user as a whole: pipe and socket buffer pages (fs/pipe_accounting.c,
 * /proc/sys/fs/pipe-user-pages-*), queued signals (kernel/signal/signal.c,
 * RLIMIT_SIGPENDING), file locks (fs/locks.c, the locks_user_max knob) and
 * files in flight over AF_UNIX sockets (fs/unix_scm.c, RLIMIT_NOFILE).
 *
 * A holder - a pipe, a socket, a queued siginfo, a lock - remembers the user it
 * charged in a struct user_charge, so that it gives back to the same count
 * even after its creator changed its ids.
 */
#ifndef REWIND_USER_COUNT_H
#define REWIND_USER_COUNT_H

#include "kernel/lib/types.h"

enum user_resource {
	USER_PIPE_PAGES,    /* pipe and unix socket buffer pages */
	USER_SIGPENDING,    /* queued siginfos (Linux's UCOUNT_RLIMIT_SIGPENDING) */
	USER_FILE_LOCKS,    /* POSIX, OFD and flock locks held */
	USER_UNIX_INFLIGHT, /* files in flight in SCM_RIGHTS messages (fs/unix_scm.c) */
	USER_MQ_BYTES,	    /* POSIX message queues' bytes (ipc/mqueue.c, RLIMIT_MSGQUEUE) */
	USER_RESOURCES
};

struct user_charge {
	u32 uid;
	int slot; /* where the user's counts are, from the first charge on; -1 before */
};

#define USER_CHARGE(user) ((struct user_charge){ .uid = (user), .slot = -1 })

/* Adds delta (negative: gives back) to c's user's count of r: the user's total after. */
unsigned long user_count_add(struct user_charge *c, enum user_resource r, long delta);
/* Adds one to c's user's count of r if that keeps it at most limit: whether it did. */
bool user_count_add_one_within(struct user_charge *c, enum user_resource r, unsigned long limit);

#endif
