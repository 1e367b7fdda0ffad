/*
 * kbench.h - in-kernel micro-benchmarks chosen by the `kbench` knob; see kbench.c.
 */
#ifndef REWIND_KBENCH_H
#define REWIND_KBENCH_H

/* Runs the benchmark `kbench` names (after the CPUs are up); nothing for `none`. */
void kbench_run(void);

#endif
