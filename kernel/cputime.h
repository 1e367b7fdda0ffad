/*
 * cputime.h - exact per-task CPU time: the TSC is read at every entry to
 * and exit from the kernel and at every context switch, and the stretch
 * since the last reading is charged to user or system time (DESIGN.md §4),
 * rather than sampled at the timer tick.
 */
#ifndef REWIND_CPUTIME_H
#define REWIND_CPUTIME_H

#include "kernel/task.h"

void cputime_enter_kernel(struct task *t);	/* from user mode */
void cputime_exit_kernel(struct task *t);	/* back to user mode */
void cputime_switch(struct task *prev, struct task *next);
/* The task's times up to now, including the stretch in progress. */
struct cputime cputime_read(struct task *t);
/* The whole process's times: every live member of t's thread group, plus those that exited. */
struct cputime cputime_read_process(struct task *t);
/* Cycles of CPU time to nanoseconds. */
u64 cputime_ns(u64 cycles);

/* struct rusage, Linux x86-64 layout. */
struct rusage_abi {
	s64 utime_sec, utime_usec, stime_sec, stime_usec;
	s64 maxrss, ixrss, idrss, isrss, minflt, majflt, nswap, inblock, oublock;
	s64 msgsnd, msgrcv, nsignals, nvcsw, nivcsw;
};
void fill_rusage(struct rusage_abi *ru, struct cputime c, u64 minflt);

#endif
