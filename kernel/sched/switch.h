/*
 * switch.h - the contract between the scheduler and kernel/sched/switch.asm:
 * what switch_stacks leaves on the stack of a task it switched away from.
 * A new task's stack is built as such a frame (task.c), so that its first
 * switch "returns" into task_entry. asm-offsets.c hands the layout to the
 * assembly, which checks each pop against it while assembling.
 */
#ifndef KERNEL_SCHED_SWITCH_H
#define KERNEL_SCHED_SWITCH_H

#include "kernel/lib/types.h"

struct task;

/* Lowest address first: the callee-saved registers in the order they are popped, then the return. */
struct switch_frame {
	u64 r15, r14, r13, r12, rbx, rbp;
	u64 ret; /* where switch_stacks returns in the task switched to */
};

/* Saves the callee-saved registers and rsp in *save_rsp, runs on load_rsp; returns prev there. */
u64 switch_stacks(u64 *save_rsp, u64 load_rsp, struct task *prev);
/* Where a new task's first switch lands: calls task_first_run(previous task). */
void task_entry(void);

#endif
