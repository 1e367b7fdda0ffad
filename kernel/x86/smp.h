/*
 * smp.h - the other CPUs: starting them, and asking them to do things
 * (inter-processor interrupts): reschedule, run a function, flush TLBs.
 */
#ifndef REWIND_SMP_H
#define REWIND_SMP_H

#include "kernel/lib/types.h"

struct mm;

/* Starts every CPU the ACPI MADT lists, up to `maxcpus` (none with `nosmp`). */
void smp_boot(void);
/* A bit per online CPU. */
u64 cpus_online_mask(void);

/* Makes cpu look for work now (it may be halted in its idle loop). */
void smp_send_reschedule(unsigned cpu);
/*
 * Runs fn(arg) on every CPU in mask except this one, and waits until all
 * have. Interrupts must be enabled: the target CPUs may be waiting for this
 * CPU to answer their own call.
 */
void smp_call_mask(u64 mask, void (*fn)(void *), void *arg);

/* After changing entries of mm in [start, end): every CPU using mm forgets them. */
void tlb_flush_mm_range(struct mm *mm, u64 start, u64 end);
/* After changing kernel entries in [start, end): every CPU forgets them. */
void tlb_flush_kernel_range(u64 start, u64 end);

#endif
