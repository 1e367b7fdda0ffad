/*
 * rlimit.h - resource limits (getrlimit, setrlimit, prlimit64; rlimit.c):
 * how much of each resource a process may use, read where it is enforced.
 *
 * A limit is a soft value, the one enforced, and a hard one, the ceiling
 * for the soft. Any process may lower either and move its soft limit up
 * to the hard one; raising a hard limit takes privilege (cred.h). The
 * limits are the process's, kept in its leader; fork copies them and
 * execve keeps them. Enforced as Linux enforces them:
 *
 *   RLIMIT_AS      address space: mmap, mremap, brk, stack growth fail
 *                  (ENOMEM)
 *   RLIMIT_DATA    private writable memory: mmap, mremap ENOMEM, brk
 *                  stays put
 *   RLIMIT_MEMLOCK locked memory: mlock ENOMEM, mmap and mremap of a
 *                  locked area EAGAIN (mm/mlock.c, mm/vm.c)
 *   RLIMIT_STACK   how far the main stack grows; a fault beyond: SIGSEGV
 *   RLIMIT_NOFILE  fd numbers: open, pipe, dup... EMFILE; dup2 EBADF
 *   RLIMIT_NPROC   tasks of a real user: fork/clone EAGAIN (root exempt);
 *                  and tasks in all, threads_max below: EAGAIN for root too
 *   RLIMIT_FSIZE   file size: write/truncate past it SIGXFSZ and EFBIG
 *   RLIMIT_SIGPENDING  siginfos queued to a real user's processes and its
 *                  POSIX timers: a realtime sigqueue/tgkill beyond, and
 *                  timer_create, EAGAIN (kernel/signal, kernel/time)
 *
 * The others are kept and reported only.
 */
#ifndef REWIND_RLIMIT_H
#define REWIND_RLIMIT_H

#include "kernel/process/task.h"

/*
 * kernel.threads-max (/proc/sys/kernel/threads-max): the most tasks there
 * may be, as Linux's max_threads: kernel stacks take at most an eighth of
 * RAM, and no more than there are stack slots. Set with the first
 * process's limits (its RLIMIT_NPROC is half of it), as Linux's
 * set_max_threads; root may write it (20 to THREADS_MAX_MAX, EINVAL else).
 */
extern unsigned long threads_max;
#define THREADS_MAX_MIN 20	   /* Linux's MIN_THREADS */
#define THREADS_MAX_MAX 0x3fffffff /* Linux's MAX_THREADS, FUTEX_TID_MASK */

/*
 * fs.nr_open (fs/fdtable.c, root's to set in /proc/sys/fs/nr_open): no
 * RLIMIT_NOFILE may go above it, root's neither, and no fd table holding
 * an fd at or above it is copied. Linux's default and bounds.
 */
extern unsigned long nr_open;
#define NR_OPEN_DEFAULT (1ul << 20)
#define NR_OPEN_MIN	64		       /* Linux's sysctl_nr_open_min: one word of bits */
#define NR_OPEN_LIMIT	(0x7ffffffful & ~63ul) /* sysctl_nr_open_max: INT_MAX, whole words */

/* t's process's soft limit on resource; RLIM_INFINITY: none. */
static inline u64
task_rlimit(const struct task *t, unsigned resource)
{
	return READ_ONCE(t->group_leader->rlim[resource].rlim_cur);
}

/* The current process's soft limit on resource. */
static inline u64
rlimit(unsigned resource)
{
	return task_rlimit(current(), resource);
}

/* The limits of the first process (Linux's INIT_RLIMITS, NPROC sized by RAM). */
void rlimits_set_defaults(struct kernel_rlimit lim[RLIM_NLIMITS]);

#endif
