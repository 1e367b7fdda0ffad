/*
 * debugreg.h - a user task's hardware breakpoints and watchpoints: the
 * addresses in DR0-DR3 and the enables in DR7 that its tracer writes
 * through PTRACE_POKEUSER, loaded while the task runs, and the DR6 hit
 * bits of its last #DB, which PTRACE_PEEKUSER reads (debugreg.c).
 */
#ifndef REWIND_DEBUGREG_H
#define REWIND_DEBUGREG_H

#include "kernel/lib/types.h"

struct cpu;
struct task;
struct trap_frame;

#define DEBUGREG_SLOTS 4 /* DR0-DR3 */

/* A task's debug registers; its tracer changes them only while it is stopped off its CPU. */
struct debugregs {
	u64 addr[DEBUGREG_SLOTS]; /* DR0-DR3, user addresses */
	u64 dr7;		  /* as the tracer wrote it, read back the same */
	u64 hw_dr7;		  /* what the CPU gets while the task runs; 0: none enabled */
	u64 dr6;		  /* the last #DB's hit and step bits, Linux's virtual_dr6 */
};

/* PEEKUSER/POKEUSER of debug register n (0-7): 0 or -EIO, -EINVAL (what Linux refuses). */
int debugreg_read(const struct task *t, unsigned n, u64 *value);
int debugreg_write(struct task *t, unsigned n, u64 value);

/*
 * Loads next's breakpoints on CPU c, or clears those of the task before;
 * the switch calls it only when either has any (c->hw_dr7, next's hw_dr7).
 */
void debugreg_switch(struct cpu *c, const struct task *next);
/* execve: the new program starts with none, as Linux's flush_ptrace_hw_breakpoint. */
void debugreg_exec(struct task *t);

/*
 * A #DB from user mode: notes the hit in the task's DR6, makes an
 * instruction breakpoint let its instruction run on the return (RF), and
 * gives the SIGTRAP's si_code: TRAP_TRACE for a step, TRAP_HWBKPT for a
 * breakpoint, TRAP_BRKPT for neither (icebp).
 */
int debugreg_user_trap(struct trap_frame *f);
/*
 * A #DB from kernel mode: true if it is a user watchpoint that a user
 * copy touched, ignored as Linux's exclude_kernel breakpoints are.
 */
bool debugreg_kernel_trap(void);

#endif
