/*
 * sched.h - clone(2)'s flags and the scheduling policies, Linux's values
 * (linux/sched.h). libc's <sched.h> defines them (with _GNU_SOURCE): user
 * code includes that.
 */
#ifndef REWIND_UAPI_SCHED_H
#define REWIND_UAPI_SCHED_H

#define CLONE_VM	     0x00000100
#define CLONE_FS	     0x00000200
#define CLONE_FILES	     0x00000400
#define CLONE_SIGHAND	     0x00000800
#define CLONE_PIDFD	     0x00001000
#define CLONE_VFORK	     0x00004000
#define CLONE_PARENT	     0x00008000
#define CLONE_THREAD	     0x00010000
#define CLONE_NEWNS	     0x00020000
#define CLONE_SYSVSEM	     0x00040000
#define CLONE_SETTLS	     0x00080000
#define CLONE_PARENT_SETTID  0x00100000
#define CLONE_CHILD_CLEARTID 0x00200000
#define CLONE_DETACHED	     0x00400000
#define CLONE_CHILD_SETTID   0x01000000
#define CLONE_IO	     0x80000000 /* share the I/O context: rewind keeps none */
#define CLONE_NEWCGROUP	     0x02000000
#define CLONE_NEWUTS	     0x04000000
#define CLONE_NEWIPC	     0x08000000
#define CLONE_NEWUSER	     0x10000000
#define CLONE_NEWPID	     0x20000000
#define CLONE_NEWNET	     0x40000000
#define CLONE_NEWTIME	     0x00000080 /* unshare and setns only: clone's signal byte here */

/* The low byte: the signal the parent gets when the child ends. */
#define CSIGNAL 0x000000ff

/* sched_setscheduler's policies; SCHED_DEADLINE is refused (kernel/sched/policy.c). */
#define SCHED_NORMAL   0
#define SCHED_FIFO     1
#define SCHED_RR       2
#define SCHED_BATCH    3
#define SCHED_IDLE     5
#define SCHED_DEADLINE 6
/* Or'd into the policy: a child starts as SCHED_NORMAL at nice >= 0. */
#define SCHED_RESET_ON_FORK 0x40000000

#endif
