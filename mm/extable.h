/*
 * extable.h - the exception table: kernel instructions that are allowed to
 * fault, each paired with the address to continue at when it does.
 *
 * Every instruction that touches memory the kernel cannot vouch for (user
 * pointers, probes of possibly unmapped kernel addresses) is listed with
 * EXTABLE_ENTRY; the page-fault and general-protection handlers look the
 * faulting rip up and resume at the fixup instead of dying. The user-copy
 * routines build on this, as Linux's do.
 */
#ifndef REWIND_EXTABLE_H
#define REWIND_EXTABLE_H

#include "kernel/lib/types.h"

struct trap_frame;

struct extable_entry {
	u64 insn;
	u64 fixup;
};

/* Host tests link the table into a PIE, which relocates it at load time: writable there. */
#ifdef HOSTED
#define EXTABLE_SECTION "__ex_table, \"aw\""
#else
#define EXTABLE_SECTION "__ex_table, \"a\""
#endif

/* For inline asm: "1: mov ... \n" EXTABLE_ENTRY(1b, 3f) */
#define EXTABLE_ENTRY(insn, fixup)                                                  \
	".pushsection " EXTABLE_SECTION "\n\t.balign 8\n\t.quad " #insn ", " #fixup \
	"\n\t.popsection\n\t"

/*
 * For inline asm: the out-of-line code a faulting instruction continues at:
 * label, the instructions insns (a string, may be empty), then a jump back to
 * resume. "1: movq (%[p]), %[v]\n2:\n" EXTABLE_FIXUP(3, "movl $-14, %[err]", 2b)
 * EXTABLE_ENTRY(1b, 3b) makes a load that yields -EFAULT instead of dying.
 */
#define EXTABLE_FIXUP(label, insns, resume)                                        \
	".pushsection .text.fixup, \"ax\"\n" #label ":\t" insns "\n\tjmp " #resume \
	"\n\t.popsection\n\t"

/* Moves f->rip to the fixup of the faulting instruction; false when it has none. */
bool extable_fixup(struct trap_frame *f);
/* Whether the instruction at rip is allowed to fault (a user-memory access). */
bool extable_has(u64 rip);

/* Reads or writes 8 bytes at a kernel address that may fault: 0 or -EFAULT. */
int probe_read_u64(const void *addr, u64 *out);
int probe_write_u64(void *addr, u64 value);

#endif
