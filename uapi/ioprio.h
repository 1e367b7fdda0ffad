/*
 * ioprio.h - ioprio_get and ioprio_set's values, Linux's (linux/ioprio.h):
 * an I/O priority is a class in the top bits and a level below them.
 * musl has no header for them, so the user suites include this one.
 */
#ifndef REWIND_UAPI_IOPRIO_H
#define REWIND_UAPI_IOPRIO_H

#define IOPRIO_CLASS_SHIFT	       13
#define IOPRIO_PRIO_MASK	       ((1 << IOPRIO_CLASS_SHIFT) - 1)
#define IOPRIO_PRIO_CLASS(ioprio)      ((ioprio) >> IOPRIO_CLASS_SHIFT)
#define IOPRIO_PRIO_DATA(ioprio)       ((ioprio)&IOPRIO_PRIO_MASK)
#define IOPRIO_PRIO_VALUE(class, data) (((class) << IOPRIO_CLASS_SHIFT) | (data))

#define IOPRIO_CLASS_NONE 0
#define IOPRIO_CLASS_RT	  1
#define IOPRIO_CLASS_BE	  2
#define IOPRIO_CLASS_IDLE 3

#define IOPRIO_NR_LEVELS 8 /* levels 0 (highest) to 7 of the RT and BE classes */
#define IOPRIO_BE_NORM	 4 /* what a task without one is served at */

#define IOPRIO_WHO_PROCESS 1
#define IOPRIO_WHO_PGRP	   2
#define IOPRIO_WHO_USER	   3

#endif
