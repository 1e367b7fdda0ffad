/*
 * text_poke.h - writing kernel text, which is mapped read-only and
 * executable (W^X), through a temporary writable alias of its pages.
 */
#ifndef REWIND_TEXT_POKE_H
#define REWIND_TEXT_POKE_H

#include "kernel/lib/types.h"

/* Reserves the alias's addresses and builds its page tables (boot, once). */
void text_poke_init(void);
/*
 * Copies len bytes (at most a page) to addr in kernel text. Interrupts off,
 * and no other CPU may execute those bytes meanwhile: at boot before the
 * other CPUs start, or under stop_machine.
 */
void text_poke(void *addr, const void *src, size_t len);

#endif
