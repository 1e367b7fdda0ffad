/*
 * user_iret.h - a user program's own iretq under QEMU's TCG (7.2), which
 * reads the iretq frame as a supervisor access even in ring 3: with SMAP on
 * that is a page fault on a present user page without PF_USER, which
 * handle_mm_fault finds nothing to fix, so the program faulted forever (a
 * CPU does the reads as user accesses, and the iretq simply returns).
 */
#ifndef REWIND_USER_IRET_H
#define REWIND_USER_IRET_H

#include "kernel/x86/traps.h"

/*
 * For a page fault from user mode without PF_USER: if f stopped at an
 * iretq, does what the CPU would (pops rip, cs, rflags, rsp, ss from the
 * user stack; cs and ss must be the user segments, rflags only changes
 * what user mode may) and returns true. False otherwise: the fault is
 * then the program's (SIGSEGV), never retried.
 */
bool user_iretq_emulated(struct trap_frame *f);

#endif
