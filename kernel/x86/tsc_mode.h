/*
 * tsc_mode.h - PR_SET_TSC and PR_GET_TSC (tsc_mode.c): whether a thread's
 * rdtsc and rdtscp work in user mode or raise SIGSEGV, as Linux's
 * TIF_NOTSC. A thread set to PR_TSC_SIGSEGV runs with CR4.TSD, under which
 * both instructions fault (#GP) outside ring 0; the context switch loads
 * CR4.TSD only when the next thread's mode differs from what the CPU has
 * (struct cpu's tsd), so a switch between threads with the default pays
 * one comparison. The mode is inherited by fork and clone and kept by
 * execve, as Linux's. rewind's vDSO reads the TSC in user mode, and so
 * does Linux's in its TSC clock mode, without a fallback: a thread that
 * asked for SIGSEGV gets it from clock_gettime there too.
 */
#ifndef REWIND_TSC_MODE_H
#define REWIND_TSC_MODE_H

#include "kernel/process/task.h"
#include "kernel/x86/percpu.h"
#include "mm/uaccess.h"

/* Loads CR4.TSD for a thread whose mode is tsc_sigsegv (interrupts off). */
void tsc_mode_load(struct cpu *c, bool tsc_sigsegv);

/* The switch to next: CR4.TSD only when next's mode differs from the CPU's. */
static inline void
tsc_mode_switch(struct cpu *c, const struct task *next)
{
	if (next->tsc_sigsegv != c->tsd)
		tsc_mode_load(c, next->tsc_sigsegv);
}

/* prctl's PR_SET_TSC (mode PR_TSC_ENABLE or PR_TSC_SIGSEGV, else -EINVAL) and PR_GET_TSC. */
long tsc_mode_set(unsigned long mode);
long tsc_mode_get(int __user *out);

#endif
