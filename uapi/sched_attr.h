/*
 * sched_attr.h - sched_setattr and sched_getattr's structure and flags,
 * Linux's layout (linux/sched/types.h, linux/sched.h). musl has neither,
 * so the user suites include this one.
 */
#ifndef REWIND_UAPI_SCHED_ATTR_H
#define REWIND_UAPI_SCHED_ATTR_H

struct kernel_sched_attr {
	unsigned int size; /* of the caller's structure: versions grow at the end */
	unsigned int sched_policy;
	unsigned long long sched_flags;
	int sched_nice;		     /* SCHED_NORMAL, SCHED_BATCH */
	unsigned int sched_priority; /* SCHED_FIFO, SCHED_RR */
	unsigned long long sched_runtime, sched_deadline, sched_period; /* SCHED_DEADLINE */
	unsigned int sched_util_min, sched_util_max;			/* utilization clamps */
};

#define SCHED_ATTR_SIZE_VER0 48 /* without the utilization clamps */
#define SCHED_ATTR_SIZE_VER1 56

#define SCHED_FLAG_RESET_ON_FORK  0x01
#define SCHED_FLAG_RECLAIM	  0x02
#define SCHED_FLAG_DL_OVERRUN	  0x04
#define SCHED_FLAG_KEEP_POLICY	  0x08
#define SCHED_FLAG_KEEP_PARAMS	  0x10
#define SCHED_FLAG_UTIL_CLAMP_MIN 0x20
#define SCHED_FLAG_UTIL_CLAMP_MAX 0x40

#endif
