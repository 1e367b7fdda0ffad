/*
 * entry.h - the one way into the kernel from user mode and the one way
 * back (entry.c). Every entry from user mode - the syscall instruction,
 * int $0x80, each exception and interrupt, the vsyscall page's int $0xcc -
 * runs between enter_from_user() and exit_to_user(); so does a new task's
 * first return, through first_return_to_user().
 */
#ifndef REWIND_ENTRY_H
#define REWIND_ENTRY_H

#include "kernel/lib/types.h"

struct task;
struct trap_frame;

/*
 * The code every system call and user-mode trap runs - entry_64.asm, this
 * file's C, the dispatcher, the CPU-time charges, the signal test of the
 * return - lives in one section (linker.ld puts it first), so that the hot
 * path shares a few pages, as Linux's .entry.text: fewer i-TLB entries on
 * hardware, and under TCG calls within a page are chained directly while
 * each call to another page is a lookup (docs/design.md).
 */
#define __entry_text __section(".entry.text")

/*
 * Just entered from user mode (interrupts off, as the gate or the syscall
 * instruction left them): charges the user time so far, then turns
 * interrupts on - except for a hardware interrupt, whose handler runs with
 * them off until its EOI.
 */
void enter_from_user(struct trap_frame *f);

/*
 * The way back: leaves if the task was killed, reschedules when asked,
 * delivers signals, refuses a non-canonical rip - until, with interrupts
 * off, nothing is left to do - then charges the kernel time. Returns true
 * to leave by sysret, false by iretq: sysret only when sysret_wanted and
 * the frame allows it (sysret_allowed). Interrupts stay off until user mode.
 */
bool exit_to_user(struct trap_frame *f, bool sysret_wanted);

/*
 * A trap from user mode (traps.c's trap_dispatch): int $0x80, int $0xcc,
 * an exception or an interrupt, bracketed; returns 1 to leave by sysret.
 */
int user_trap(struct trap_frame *f);

/* A new user task's first return, through the frame at the top of its stack. */
__noreturn void first_return_to_user(struct task *t);

#endif
