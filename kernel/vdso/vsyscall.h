/*
 * vsyscall.h - the legacy vsyscall page at VSYSCALL_ADDR (0xffffffffff600000),
 * in each of the forms Linux gave it, switched by the run-time knob
 * vsyscall= (legacy, trap, trap-sysret, native, emulate, xonly, none; see
 * vsyscall.c). Old static binaries call gettimeofday at +0x000, time at
 * +0x400 and getcpu at +0x800 as plain C functions.
 *
 * The page is in the kernel half, shared by every address space; so are
 * the fixed vvar pages below it that the legacy code reads (kernel/vdso/vvar.h).
 */
#ifndef REWIND_VSYSCALL_H
#define REWIND_VSYSCALL_H

#include "kernel/lib/types.h"
#include "kernel/vdso/vvar.h"

struct trap_frame;

/*
 * The vector of Linux 3.0's `int $0xcc` entries: a user-callable gate
 * (kernel/x86/traps.c), handed to vsyscall_trap by kernel/x86/entry.c. The IOAPIC would give it to ISA
 * IRQ 156 (0x30 + n), which does not exist.
 */
#define VSYSCALL_VECTOR 0xcc

/* Builds the page images and maps the fixed pages; before the first process. */
void vsyscall_init(void);
/*
 * The page-fault hook (kernel/x86/traps.c, user mode): whether the fault at
 * addr was a call into the vsyscall page that this mode emulates - then it
 * has been carried out, or a signal raised, and the fault is dealt with.
 */
bool vsyscall_fault(struct trap_frame *f, u64 addr);
/*
 * The int $0xcc of vsyscall=trap and trap-sysret, from user mode: carries
 * out the call (or raises the signal). Returns whether to leave by sysret
 * (trap-sysret), having made rcx and r11 match rip and rflags.
 */
bool vsyscall_trap(struct trap_frame *f);
/*
 * Before a signal handler's frame saves f: a rip inside the page's image
 * moves to the image's permanent alias, so that sigreturn finds the same
 * code whatever vsyscall= has become meanwhile.
 */
void vsyscall_leave_page(struct trap_frame *f);
/* The page's permissions for /proc/<pid>/maps ("r-xp"), or NULL when it is not shown. */
const char *vsyscall_maps_perms(void);

#endif
