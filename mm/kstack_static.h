/*
 * kstack_static.h - stacks that exist before any allocator: the boot stack
 * and the boot CPU's interrupt stacks. Each is a page-aligned guard page
 * followed by the stack; all of them live in the .bss.stacks section, and
 * mm/paging.c leaves every guard page unmapped.
 */
#ifndef REWIND_KSTACK_STATIC_H
#define REWIND_KSTACK_STATIC_H

#include "kernel/lib/types.h"
#include "mm/layout.h"
#include "mm/vmap.h"

struct static_stack {
	u8 guard[PAGE_SIZE];
	u8 stack[KSTACK_SIZE];
} __aligned(PAGE_SIZE);

static inline u64
static_stack_top(struct static_stack *s)
{
	return (u64)(s->stack + KSTACK_SIZE);
}

#endif
