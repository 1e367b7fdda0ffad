/*
 * priority.h - nice values and the tasks getpriority, setpriority and the
 * ioprio calls name (priority.c).
 */
#ifndef REWIND_SCHED_PRIORITY_H
#define REWIND_SCHED_PRIORITY_H

#include "kernel/process/task.h"

/*
 * Calls visit(t, arg) for each task the (which, who) pair of getpriority
 * names - PRIO_PROCESS: the task with id who; PRIO_PGRP: every task of
 * process group who; PRIO_USER: every task whose real uid is who; who 0:
 * the caller's own - until visit returns false. tasks_lock is held.
 * Returns how many were visited; -EINVAL for an unknown which.
 */
int for_each_prio_target(int which, int who, bool (*visit)(struct task *t, void *arg), void *arg);

/* Whether the caller may give t this nice value or less (Linux's can_nice: RLIMIT_NICE or root). */
bool can_nice(const struct task *t, int nice);

#endif
