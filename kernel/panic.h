/*
 * panic.h - stopping the machine when the kernel cannot go on.
 *
 * panic() prints its message, a backtrace, the command line and the knob
 * state, stops every other CPU (NMI), and halts; under test (`ktest`) or
 * with `panic_exit` it ends QEMU with a failure status instead.
 */
#ifndef REWIND_PANIC_H
#define REWIND_PANIC_H

#include "kernel/lib/types.h"

struct trap_frame;

__noreturn void panic(const char *fmt, ...) __printf(1, 2);
/*
 * The two halves shared by panic() and the fatal-exception path (die()):
 * begin turns interrupts off, stops the other CPUs and makes printk
 * lock-free (a second CPU that panics meanwhile just halts); stop prints the
 * command line and knobs and ends the machine.
 */
void panic_begin(void);
__noreturn void panic_stop(void);
bool panic_in_progress(void);
/* Whether the CPU that reports the panic is this one. */
bool panic_on_this_cpu(void);

#define BUG_ON(cond)                                                             \
	do {                                                                     \
		if (unlikely(cond))                                              \
			panic("BUG_ON(%s) at %s:%d", #cond, __FILE__, __LINE__); \
	} while (0)

#endif
