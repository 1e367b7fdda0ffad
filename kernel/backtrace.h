/*
 * backtrace.h - walking the kernel stack by frame pointers (the kernel is
 * built with -fno-omit-frame-pointer): each frame holds the caller's rbp
 * at [rbp] and the return address at [rbp + 8].
 */
#ifndef REWIND_BACKTRACE_H
#define REWIND_BACKTRACE_H

#include "kernel/lib/types.h"

#define BACKTRACE_MAX 32

/*
 * Collects up to max return addresses, starting with rip; returns how many.
 * rsp (0 if unknown) lets the walk find the caller of a function that
 * trapped before it had set up its frame.
 */
int backtrace_collect(u64 rip, u64 rsp, u64 rbp, u64 *pcs, int max);
/*
 * The same walk for code that may interrupt anything (the profiler's NMI):
 * it reads only inside the kernel stack that holds rsp (mm/vmap.h,
 * kstack_bounds), so a bad frame pointer ends the walk instead of taking a
 * fault, and nothing at all is walked when rsp is on no kernel stack (a
 * user stack just after syscall). Takes no locks.
 */
int backtrace_collect_bounded(u64 rip, u64 rsp, u64 rbp, u64 *pcs, int max);
/* Prints the symbolized backtrace at LOG_EMERG. */
void backtrace_print(u64 rip, u64 rsp, u64 rbp);

static inline u64
current_rbp(void)
{
	u64 rbp;
	__asm__ __volatile__("movq %%rbp, %0" : "=r"(rbp));
	return rbp;
}

#endif
