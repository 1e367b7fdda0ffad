/*
 * rlimit_cpu.h - RLIMIT_CPU enforced at the tick (rlimit_cpu.c).
 */
#ifndef REWIND_RLIMIT_CPU_H
#define REWIND_RLIMIT_CPU_H

struct task;

/* A tick charged CPU time to t: its process past its limit gets SIGXCPU or SIGKILL. Interrupts off. */
void rlimit_cpu_tick(struct task *t);

#endif
