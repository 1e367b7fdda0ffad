/*
 * resource.h - resource limits and usage, Linux x86-64's
 * (asm-generic/resource.h, linux/resource.h): the RLIMIT_* and RUSAGE_*
 * values rewind knows and the layouts of prlimit64/getrlimit's struct
 * rlimit and getrusage/wait4's struct rusage, named kernel_rlimit and
 * kernel_rusage so that they can sit next to libc's <sys/resource.h>.
 */
#ifndef REWIND_UAPI_RESOURCE_H
#define REWIND_UAPI_RESOURCE_H

#include "uapi/time.h"

#define RLIMIT_CPU	  0 /* seconds of CPU time */
#define RLIMIT_FSIZE	  1 /* largest file a write or truncate may make */
#define RLIMIT_DATA	  2 /* private writable memory and the heap */
#define RLIMIT_STACK	  3 /* how far the main stack may grow */
#define RLIMIT_CORE	  4
#define RLIMIT_RSS	  5
#define RLIMIT_NPROC	  6 /* tasks of one real user */
#define RLIMIT_NOFILE	  7 /* one more than the highest fd number */
#define RLIMIT_MEMLOCK	  8
#define RLIMIT_AS	  9 /* address space */
#define RLIMIT_LOCKS	  10
#define RLIMIT_SIGPENDING 11
#define RLIMIT_MSGQUEUE	  12
#define RLIMIT_NICE	  13
#define RLIMIT_RTPRIO	  14
#define RLIMIT_RTTIME	  15
#define RLIM_NLIMITS	  16
#define RLIM_INFINITY	  (~0ul)

/* getpriority and setpriority's "which" */
#define PRIO_PROCESS 0
#define PRIO_PGRP    1
#define PRIO_USER    2

#define RUSAGE_SELF	0
#define RUSAGE_CHILDREN (-1)
#define RUSAGE_THREAD	1

struct kernel_rlimit {
	unsigned long rlim_cur;
	unsigned long rlim_max;
};

struct kernel_rusage {
	struct kernel_timeval ru_utime; /* user time */
	struct kernel_timeval ru_stime; /* system time */
	long ru_maxrss, ru_ixrss, ru_idrss, ru_isrss;
	long ru_minflt, ru_majflt, ru_nswap, ru_inblock, ru_oublock;
	long ru_msgsnd, ru_msgrcv, ru_nsignals, ru_nvcsw, ru_nivcsw;
};

#endif
