/*
 * stop_machine.h - run a function while every other CPU is parked, for
 * changes that no other CPU may watch half-done (rewriting kernel text).
 */
#ifndef REWIND_STOP_MACHINE_H
#define REWIND_STOP_MACHINE_H

#include "kernel/lib/types.h"

/*
 * Runs fn(arg) on this CPU with interrupts off while every other online CPU
 * spins with interrupts off in a loop that runs no code fn may change. A
 * CPU is parked only where may_park(rip) says its interrupted instruction
 * pointer is safe; elsewhere it is asked again shortly. Each parked CPU
 * serializes its instruction stream and drops its TLB entries (global ones
 * too) before it goes on, so fn may rewrite text and kernel mappings. Call with
 * interrupts enabled (a CPU that waits for this one's answer to its own
 * IPI must get it), from task context; one stop at a time.
 */
void stop_machine(void (*fn)(void *), void *arg, bool (*may_park)(u64 rip));
void stop_machine_init(void);

#endif
